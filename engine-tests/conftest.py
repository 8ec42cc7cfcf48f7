"""Shared pieces of the engine tests: the `engine` fixture, `problems_dir()`, `verify_mate_line()`.

Tests import the helpers with `from conftest import problems_dir, verify_mate_line`. The code
behind them is shared with the scripts: scripts/lib/tsumugi_tools (on the path by pytest.ini).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tsumugi_tools import problems
from tsumugi_tools.mate_line import verify_mate_line
from usi_engine import UsiEngine

__all__ = ["engine", "problems_dir", "verify_mate_line"]


@pytest.fixture
def engine():
    """A started engine (no handshake sent yet); closed, and killed if it hangs, after the test."""
    eng = UsiEngine()
    try:
        yield eng
    finally:
        eng.close()


def problems_dir() -> Path:
    """The problem-set folder ($TSUMUGI_PROBLEMS, else ../shared/problems beside the repo).

    Skips the calling test, with the path in the reason, when the folder is missing.
    """
    p = problems.problems_dir()
    if not p.is_dir():
        pytest.skip(f"problem sets not found at {p}; set TSUMUGI_PROBLEMS")
    return p
