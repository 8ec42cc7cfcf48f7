"""A bug that panics inside the search must not kill the engine under a GUI: the release
profile unwinds (`panic = "unwind"`), so the search thread's guard answers the `go mate` with
an `info string error: ...` and `checkmate timeout`, and the engine keeps serving.

Needs a binary built with the test-only `fault-injection` feature (scripts/test builds it and
sets TSUMUGI_FAULT_BIN): with `TSUMUGI_INJECT_SEARCH_PANICS=N` its first N searches panic."""

import os
from pathlib import Path

import pytest

from conftest import verify_mate_line
from usi_engine import UsiEngine

MATE3 = "7k1/9/6R2/9/9/9/9/9/9 b G 1"


def fault_bin() -> Path:
    p = os.environ.get("TSUMUGI_FAULT_BIN")
    if not p:
        pytest.skip(
            "TSUMUGI_FAULT_BIN not set (cargo build --profile fault --features fault-injection; "
            "scripts/test does it)"
        )
    return Path(p)


def test_a_panicking_search_is_answered_and_the_engine_keeps_serving(monkeypatch):
    monkeypatch.setenv("TSUMUGI_INJECT_SEARCH_PANICS", "2")
    eng = UsiEngine(fault_bin())
    try:
        eng.usi_handshake()
        for _ in range(2):
            eng.send(f"position sfen {MATE3}")
            eng.send("go mate 10000")
            answer, before = eng.wait_for("checkmate", 30)
            assert answer == "checkmate timeout", answer
            errors = [l for l in before if l.startswith("info string error:")]
            assert errors and "fault injected for a test" in errors[0], before
            assert eng.alive
        # The third search is not injected: a real answer, from the same process.
        eng.send("isready")
        eng.wait_for("readyok", 10)
        eng.send(f"position sfen {MATE3}")
        eng.send("go mate 10000")
        answer, _ = eng.wait_for("checkmate", 30)
        moves = answer.split()[1:]
        ok, why = verify_mate_line(MATE3, moves)
        assert ok, f"{answer}: {why}"
    finally:
        assert eng.close() == 0


# Mate in 31: about 0.8 M nodes with two threads, so the helper and the main search both run
# long enough to reach the injected fault.
MATE31 = "3gS2n1/1pk1Pp3/4p1Lp1/1Gpp3l1/4n4/3N5/+p1B2r3/2R2N3/9 b BGg3s2l10p 1"


@pytest.mark.parametrize("where", ["helper", "main"])
def test_a_panic_inside_a_two_thread_search_is_answered(monkeypatch, where):
    """A panic inside a helper's search, or inside the main search while it has a helper,
    ends that search with the error and `checkmate timeout` (no hang: the helper's busy count
    and the crew's dismissal survive the unwinding), and the next `go mate` is served."""
    monkeypatch.setenv("TSUMUGI_INJECT_PANIC", f"{where}:2000")
    eng = UsiEngine(fault_bin())
    try:
        eng.usi_handshake()
        eng.send("setoption name Threads value 2")
        eng.send("isready")
        eng.wait_for("readyok", 30)
        eng.send(f"position sfen {MATE31}")
        eng.send("go mate 60000")
        answer, before = eng.wait_for("checkmate", 60)
        assert answer == "checkmate timeout", (answer, eng.stderr)
        errors = [l for l in before if l.startswith("info string error:")]
        assert errors and "fault injected for a test" in errors[0], before
        if where == "helper":
            assert "search helper 1 failed" in errors[0], errors
        assert eng.alive
        # The fault is injected once per process: the same position is now answered.
        eng.send("isready")
        eng.wait_for("readyok", 30)
        eng.send(f"position sfen {MATE31}")
        eng.send("go mate 60000")
        answer, before = eng.wait_for("checkmate", 60)
        assert not [l for l in before if l.startswith("info string error:")], before
        moves = answer.split()[1:]
        ok, why = verify_mate_line(MATE31, moves)
        assert ok, f"{answer}: {why}"
    finally:
        assert eng.close() == 0
