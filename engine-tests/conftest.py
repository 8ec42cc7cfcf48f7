"""Shared pieces of the engine tests: the `engine` fixture, `problems_dir()`, `verify_mate_line()`.

Tests import the helpers with `from conftest import problems_dir, verify_mate_line`.
"""

from __future__ import annotations

import os
from pathlib import Path

import cshogi
import pytest

from usi_engine import REPO_ROOT, UsiEngine

DEFAULT_PROBLEMS = REPO_ROOT.parent / "shared" / "problems"


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
    p = Path(os.environ.get("TSUMUGI_PROBLEMS") or DEFAULT_PROBLEMS)
    if not p.is_absolute():
        p = REPO_ROOT / p
    if not p.is_dir():
        pytest.skip(f"problem sets not found at {p}; set TSUMUGI_PROBLEMS")
    return p


def verify_mate_line(sfen: str, moves) -> tuple[bool, str]:
    """Check with cshogi that `moves` (USI strings, a list or one space-separated string) played
    from `sfen` is a mating line: every move legal, every attacker move (even index) gives
    check, and the final position is checkmate. Returns (ok, reason)."""
    if isinstance(moves, str):
        moves = moves.split()
    moves = list(moves)
    if sfen.startswith("sfen "):
        sfen = sfen[len("sfen "):]
    if not moves:
        return False, "empty line"
    try:
        board = cshogi.Board(sfen)
    except RuntimeError as e:
        return False, f"cshogi rejects the SFEN {sfen!r}: {e}"
    # An even-length line is a defender-to-move root's: the side to move is mated.
    first = 0 if len(moves) % 2 == 1 else 1
    for i, mv in enumerate(moves):
        attacking = i % 2 == first
        side = "attacker" if attacking else "defender"
        legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
        if mv not in legal:
            return False, f"move {i + 1} ({side}) {mv} is illegal in {board.sfen()}"
        board.push_usi(mv)
        if attacking and not board.is_check():
            return False, f"move {i + 1} (attacker) {mv} does not give check"
    if not (board.is_check() and board.is_game_over()):
        return False, f"final position is not checkmate: {board.sfen()}"
    return True, "ok"
