"""USI sessions as real clients run them: cshogi's `cshogi.usi.Engine` (the usual Python
client), and a ShogiHome-like GUI session. Every mating line is replayed with cshogi
(`verify_mate_line`)."""

from __future__ import annotations

import os
import re
import time

import pytest
from cshogi.usi import Engine

from conftest import problems_dir, verify_mate_line
from usi_engine import engine_path
from usi_helpers import (
    HARD_NOMATE,
    HEAD_MATE,
    HEAD_MATE_WHITE,
    INFO_RE,
    MATE3,
    NOMATE,
    assert_silent,
    call_with_timeout,
    go_mate,
    read_problems,
    start_cshogi_engine,
)

# Sets where the engine's line must have exactly the set's length. Elsewhere a different length
# is reported, not failed: lengths from another engine's solution or upper bounds, and, in
# rules-tricky.tsv, strict lengths whose defence choice in the PV is a search-quality matter.
STRICT_LENGTH_SETS = {"mate1.tsv"}

# SFEN rejections that follow the rules layer's documented policy (too many pieces of a kind; a
# side that is not to move without a king, i.e. a defender-to-move root, which the search does not
# take). Any other rejection of a set's SFEN fails the test.
EXPECTED_REJECTIONS = ("too many", "has no king")

# How many lines of each problem set the cshogi session solves: (file, lines, time per problem).
PROBLEM_SETS = [
    ("mate1.tsv", 20, 10000),
    ("mate3-11.tsv", 40, 10000),
    ("famous.tsv", 12, 10000),
    ("rules-tricky.tsv", 48, 10000),
    ("nomate1.tsv", 20, 10000),
]


@pytest.fixture
def cshogi_engine():
    """A cshogi Engine on our binary (connect sends `usi`); quit, or killed, afterwards."""
    # A bound on a hang, not a speed test: under Wine on a loaded machine the first start of
    # the exe (Wine's own start-up) once took over 10 s.
    eng = start_cshogi_engine(str(engine_path()), 60)
    try:
        yield eng
    finally:
        proc = eng.proc
        if proc is not None:
            try:
                call_with_timeout(eng.quit, 5)
            except Exception:  # noqa: BLE001 - the engine is killed below anyway
                pass
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)


def cshogi_go_mate(
    eng: Engine, sfen: str, byoyomi: int | None, timeout: float, seen: list | None = None
) -> str:
    """cshogi's position + go_mate; the engine's lines are appended to `seen` if given."""
    listener = seen.append if seen is not None else None
    eng.position(sfen="sfen " + sfen, listener=listener)
    return call_with_timeout(eng.go_mate, timeout, byoyomi=byoyomi, listener=listener)


def check_answer(sfen: str, expected: str, answer: str) -> str | None:
    """`answer` (what follows `checkmate `) against the problem set's expectation: `nomate`
    where no mate exists, else a line that cshogi replays as a mate. Returns a note when the
    length differs from the set's (the composer's convention drops useless interpositions,
    which the search does not fully implement: a search-quality matter, not a protocol one)."""
    if expected == "nomate":
        assert answer == "nomate", f"{sfen}: expected nomate, got {answer!r}"
        return None
    assert answer not in ("nomate", "timeout", "notimplemented"), f"{sfen}: got {answer!r}"
    moves = answer.split()
    ok, reason = verify_mate_line(sfen, moves)
    assert ok, f"{sfen}: {answer!r}: {reason}"
    if expected.isdigit() and len(moves) != int(expected):
        return f"{sfen}: set says {expected} plies, engine gave {len(moves)}: {answer}"
    return None


def test_cshogi_session_constructed_problems(cshogi_engine):
    eng = cshogi_engine
    assert eng.name.startswith("tsumugi ")
    eng.setoption("USI_Hash", 64)
    eng.setoption("USI_Ponder", "false")
    call_with_timeout(eng.isready, 10)
    eng.usinewgame()
    for sfen, expected in [
        (HEAD_MATE, "1"),
        (HEAD_MATE_WHITE, "1"),
        (MATE3, "3"),
        (NOMATE, "nomate"),
    ]:
        answer = cshogi_go_mate(eng, sfen, 10000, 30)
        assert check_answer(sfen, expected, answer) is None, answer
    # `go mate infinite` (cshogi's default) answers by itself when the result is known.
    answer = cshogi_go_mate(eng, HEAD_MATE, None, 30)
    assert answer == "G*5b"


@pytest.mark.parametrize("name, limit, byoyomi", PROBLEM_SETS)
def test_cshogi_session_problem_sets(cshogi_engine, name, limit, byoyomi):
    path = problems_dir() / name
    if not path.is_file():
        pytest.skip(f"{path} not found")
    problems = read_problems(path, limit)
    eng = cshogi_engine
    eng.setoption("USI_Hash", 128)
    # The sets' side to move is the attacker, in check or not (SOURCES.md).
    eng.setoption("RootIsAndNodeIfChecked", "false")
    call_with_timeout(eng.isready, 10)
    eng.usinewgame()
    failures = []
    length_notes = []
    rejected = []
    for sfen, expected in problems:
        seen: list[str] = []
        answer = cshogi_go_mate(eng, sfen, byoyomi, byoyomi / 1000 + 20, seen)
        errors = [l for l in seen if l.startswith("info string error: position")]
        if errors:
            # Our SFEN validation is stricter than cshogi's (some sets hold 20 pawns); a
            # rejected position is undecided, never "nomate".
            assert answer == "timeout", (sfen, answer, errors)
            if not any(r in errors[0] for r in EXPECTED_REJECTIONS):
                failures.append(f"{sfen}: rejected: {errors[0]}")
            rejected.append(f"{sfen}: {errors[0]}")
            continue
        try:
            note = check_answer(sfen, expected, answer)
        except AssertionError as e:
            failures.append(str(e))
        else:
            if note and name in STRICT_LENGTH_SETS:
                failures.append(note)
            elif note:
                length_notes.append(note)
    print(f"\n{name}: {len(problems)} problems, {len(failures)} failures, "
          f"{len(length_notes)} length differences, {len(rejected)} SFENs rejected")
    for n in length_notes:
        print("  length:", n)
    for n in rejected:
        print("  rejected:", n)
    assert not failures, f"{len(failures)} of {len(problems)} failed:\n" + "\n".join(failures)


def test_shogihome_like_session(engine):
    """What ShogiHome sends for its mate-search window, in order."""
    engine.send("usi")
    _, declared = engine.wait_for("usiok", 5)
    assert declared[0].startswith("id name tsumugi ")
    assert declared[1].startswith("id author ")
    options = {l.split()[2]: l for l in declared if l.startswith("option name ")}
    assert set(options) == {
        "USI_Hash",
        "USI_Ponder",
        "Threads",
        "NodesLimit",
        "MaxPlies",
        "PvInterval",
        "PostSearch",
        "RootIsAndNodeIfChecked",
        "MultiPV",
    }
    assert options["MultiPV"].endswith("type spin default 1 min 1 max 600")
    assert "type spin default 256 min 1 max 65536" in options["USI_Hash"]
    # The default is the machine's available parallelism (CPU quotas may lower it), capped at 8.
    m = re.search(r"type spin default (\d+) min 1 max 256$", options["Threads"])
    assert m, options["Threads"]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert 1 <= int(m.group(1)) <= min(cores, 8)
    engine.send("setoption name USI_Hash value 32")
    engine.send("setoption name USI_Ponder value true")
    engine.send("isready")
    _, before = engine.wait_for("readyok", 10)
    # The table is allocated at isready, and its size said: nothing else comes before readyok.
    assert before == ["info string USI_Hash 32 MB allocated"], f"isready answered with {before}"
    engine.send("usinewgame")

    # go mate <ms>: one checkmate line, a replayable mate, preceded only by info lines.
    t = time.monotonic()
    moves, infos = go_mate(engine, MATE3, "10000")
    assert time.monotonic() - t < 10
    ok, reason = verify_mate_line(MATE3, moves)
    assert ok, reason
    assert len(moves) == 3
    assert infos and INFO_RE.match(infos[-1]) and " pv " in infos[-1]

    # go mate infinite on a long search, then stop: the checkmate line comes at once.
    engine.send(f"position sfen {HARD_NOMATE}")
    engine.send("go mate infinite")
    time.sleep(1.5)
    engine.send("stop")
    t = time.monotonic()
    line, before = engine.wait_for("checkmate", 2)
    assert time.monotonic() - t < 0.5
    assert line == "checkmate timeout"
    # At least one periodic info line (PvInterval 1000) arrived during 1.5 s.
    assert sum(1 for b in before if INFO_RE.match(b)) >= 2, before
    assert_silent(engine, 0.3)

    # The engine keeps serving: isready, and another problem.
    engine.send("isready")
    engine.wait_for("readyok", 5)
    moves, _ = go_mate(engine, HEAD_MATE, "10000")
    assert moves == ["G*5b"]


def test_shortest_mate_search_announces_each_bound(engine):
    """While the shortest mate is searched, each proven bound is sent at once (even
    with PvInterval 0): an info line with `score mate N` and the line, then an info string with
    what was established. The scores never grow, the last equals the answer's length, and the
    lower bound that proves it minimal is said."""
    engine.send("usi")
    engine.wait_for("usiok", 5)
    engine.send("setoption name PvInterval value 0")
    engine.send("setoption name USI_Hash value 16")
    engine.send("isready")
    engine.wait_for("readyok", 10)
    brief = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1"
    moves, before = go_mate(engine, brief, "infinite")
    ok, why = verify_mate_line(brief, moves)
    assert ok, why
    scores = [int(b.split(" score mate ")[1].split()[0]) for b in before if " score mate " in b]
    assert len(scores) >= 2, before
    assert scores == sorted(scores, reverse=True), scores
    assert scores[-1] == len(moves) == 9, (scores, moves)
    assert "info string no mate within 7 plies: the shortest mate takes 9" in before, before
