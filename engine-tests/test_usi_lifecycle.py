"""Session-level guarantees: every `go mate` gets exactly one `checkmate` line across hundreds
of commands; `isready` never waits for a search; a second `go` during a search is ignored; the
process exits within 1 s of `quit` and of end of input, idle or searching."""

from __future__ import annotations

import time

import pytest

from conftest import verify_mate_line
from tsumugi_tools.problems import set_path
from usi_engine import UsiEngine
from usi_helpers import (
    HARD_NOMATE,
    HEAD_MATE,
    HEAD_MATE_WHITE,
    MATE3,
    NOMATE,
    assert_silent,
    read_problems,
)

EXIT_LIMIT_S = 1.0


def problem_list(name: str, limit: int) -> list[tuple[str, str]]:
    """The first problems of a set, or [] when the sets are missing (the constructed
    positions then carry the test alone)."""
    path = set_path(name)
    return read_problems(path, limit) if path.is_file() else []


def test_hundreds_of_go_mate_get_exactly_one_checkmate_each(engine):
    # (The sets' side to move is the attacker, in check or not: RootIsAndNodeIfChecked false.)
    engine.send("setoption name USI_Hash value 64")
    engine.send("setoption name PvInterval value 50")
    engine.usi_handshake()
    engine.send("setoption name RootIsAndNodeIfChecked value false")
    constructed = [
        (HEAD_MATE, "1"),
        (HEAD_MATE_WHITE, "1"),
        (MATE3, "3"),
        (NOMATE, "nomate"),
    ]
    # (sfen, expected, go command). `go mate infinite` / bare `go mate` only where the search
    # is quick; hard sets get a time limit, and there `timeout` is an acceptable answer.
    quick = constructed * 10 + problem_list("mate1.tsv", 120)
    variants = ["go mate 5000", "go mate infinite", "go mate", "go mate 5000 nodes 100000000"]
    problems = [(s, e, variants[i % len(variants)]) for i, (s, e) in enumerate(quick)]
    problems += [(s, e, "go mate 2000") for s, e in problem_list("mate3-11.tsv", 60)]
    problems += [(s, e, "go mate 1000") for s, e in problem_list("nomate1.tsv", 60)]
    sent = 0
    timeouts = 0
    for i, (sfen, expected, go) in enumerate(problems):
        engine.send(f"position sfen {sfen}")
        engine.send(go)
        sent += 1
        line, before = engine.wait_for("checkmate", 20)
        assert not any(b.startswith("checkmate") for b in before)
        answer = line.split()[1:]
        if answer == ["timeout"] and not go.startswith("go mate infinite") and go != "go mate":
            timeouts += 1
        elif expected == "nomate":
            # A position our stricter SFEN check rejects is undecided, never "nomate".
            rejected = any("bad SFEN" in b for b in before)
            assert answer == (["timeout"] if rejected else ["nomate"]), (sfen, line)
        else:
            ok, reason = verify_mate_line(sfen, answer)
            assert ok, (sfen, line, reason)
        # Every few problems, commands that must not produce a checkmate line of their own.
        if i % 7 == 0:
            engine.send("stop")
            engine.send("isready")
            _, before = engine.wait_for("readyok", 5)
            assert not any(b.startswith("checkmate") for b in before), before
    # Answers without a search (and `go mate 0`, no limit, on the last, quick position), and a
    # stopped search.
    for cmd in ["go mate junk", "go mate 0", "go mate -1"]:
        engine.send(cmd)
        sent += 1
        engine.wait_for("checkmate", 5)
    for _ in range(20):
        engine.send(f"position sfen {HARD_NOMATE}")
        engine.send("go mate infinite")
        time.sleep(0.02)
        engine.send("stop")
        sent += 1
        line, _ = engine.wait_for("checkmate", 5)
        assert line == "checkmate timeout"
    engine.send("isready")
    engine.wait_for("readyok", 5)
    assert_silent(engine, 0.3)
    total = sum(1 for l in engine.transcript if l.startswith("checkmate"))
    assert total == sent, f"{total} checkmate lines for {sent} go mate commands"
    print(f"\n{sent} go mate commands, {total} checkmate lines, {timeouts} timed out")
    assert sent >= 200 or not problem_list("mate1.tsv", 1), sent


def test_isready_during_search_and_second_go_ignored(engine):
    engine.usi_handshake()
    engine.send(f"position sfen {HARD_NOMATE}")
    engine.send("go mate infinite")
    time.sleep(0.2)
    for _ in range(5):
        t = time.monotonic()
        engine.send("isready")
        # The search is infinite: a readyok at all shows isready did not wait for it.
        _, before = engine.wait_for("readyok", 2)
        print(f"isready during a search: readyok after {(time.monotonic() - t) * 1000:.1f} ms")
        assert not any(b.startswith("checkmate") for b in before)
    engine.send("go mate 100")
    line, _ = engine.wait_for("info string error: go ignored", 2)
    # Options and position during the search are accepted and harmless.
    engine.send("setoption name USI_Hash value 16")
    engine.wait_for("info string setoption USI_Hash: takes effect", 2)
    engine.send(f"position sfen {HEAD_MATE}")
    engine.send("usinewgame")
    assert_silent(engine, 0.3)
    engine.send("stop")
    line, _ = engine.wait_for("checkmate", 2)
    assert line == "checkmate timeout"
    # The next search uses the new position (and the new table size).
    engine.send("isready")
    engine.wait_for("readyok", 5)
    engine.send("go mate 5000")
    line, _ = engine.wait_for("checkmate", 10)
    assert line == "checkmate G*5b"
    assert_silent(engine, 0.2)


def wait_exit(eng: UsiEngine) -> float:
    t = time.monotonic()
    try:
        eng.proc.wait(timeout=5)
    finally:
        if eng.proc.poll() is None:
            eng.proc.kill()
    return time.monotonic() - t


@pytest.mark.parametrize("searching", [False, True], ids=["idle", "searching"])
@pytest.mark.parametrize("how", ["quit", "eof"])
def test_exit_within_one_second(how, searching):
    eng = UsiEngine()
    try:
        eng.usi_handshake()
        if searching:
            eng.send(f"position sfen {HARD_NOMATE}")
            eng.send("go mate infinite")
            time.sleep(0.3)
        if how == "quit":
            eng.send("quit")
        else:
            eng.proc.stdin.close()
        took = wait_exit(eng)
        assert took < EXIT_LIMIT_S, f"exit took {took:.3f}s"
        assert eng.proc.returncode == 0
    finally:
        eng.close()
