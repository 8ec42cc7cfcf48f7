"""The USI client of the engine tests: `tsumugi_tools.usi` (scripts/lib/tsumugi_tools/usi.py),
which the scripts use too, under the names the tests import."""

from tsumugi_tools import REPO_ROOT
from tsumugi_tools.usi import (
    DEFAULT_BIN,
    EngineDied,
    EngineError,
    EngineTimeout,
    UsiEngine,
    engine_path,
)

__all__ = [
    "DEFAULT_BIN",
    "REPO_ROOT",
    "EngineDied",
    "EngineError",
    "EngineTimeout",
    "UsiEngine",
    "engine_path",
]
