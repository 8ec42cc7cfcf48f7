"""Tests of soak.py's report of the engine's answer (run by scripts/test)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("soak", Path(__file__).with_name("soak.py"))
soak = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(soak)

# A mate in one: the gold dropped in front of the king, guarded by the pawn.
SFEN = "4k4/9/4P4/9/9/9/9/9/9 b G 1"


def test_a_mating_answer_is_replayed_ok():
    assert soak.replay_note(SFEN, "checkmate G*5b") == "the 1-ply line replayed by cshogi: ok"


def test_a_wrong_answer_is_reported_with_the_reason():
    note = soak.replay_note(SFEN, "checkmate G*4b")
    assert note.startswith("the 1-ply line replayed by cshogi: **")
    assert "not checkmate" in note


def test_answers_without_a_line_are_named():
    assert soak.replay_note(SFEN, "checkmate timeout") == "answer `timeout`: no line to replay"
    assert soak.replay_note(SFEN, "checkmate nomate") == "answer `nomate`: no line to replay"
