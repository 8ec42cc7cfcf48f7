"""`usinewgame` before each problem, as GUIs and scripts send it: a new game forgets the table
without writing it (a new table generation), and every answer stays a mate that cshogi
replays, of the length a fresh engine gives. Also when `usinewgame` arrives during a search
(applied before the next one)."""

from __future__ import annotations

import time

from conftest import problems_dir, verify_mate_line
from usi_engine import UsiEngine
from usi_helpers import HARD_NOMATE, HEAD_MATE, MATE3, NOMATE, go_mate, read_problems

PROBLEMS = 16


def handshake(eng: UsiEngine, hash_mb: int) -> None:
    eng.send("usi")
    eng.wait_for("usiok", 10)
    eng.send(f"setoption name USI_Hash value {hash_mb}")
    # The sets' side to move is the attacker, in check or not (SOURCES.md).
    eng.send("setoption name RootIsAndNodeIfChecked value false")
    eng.send("isready")
    eng.wait_for("readyok", 30)


def answer(eng: UsiEngine, sfen: str) -> list[str]:
    moves, _ = go_mate(eng, sfen, "10000", 30)
    return moves


def test_usinewgame_before_each_problem_keeps_every_answer(engine):
    path = problems_dir() / "mate3-11.tsv"
    problems = [(HEAD_MATE, "1"), (MATE3, "3"), (NOMATE, "nomate")]
    problems += read_problems(path, PROBLEMS)
    handshake(engine, 64)
    answers = []
    # Twice over: the second round meets every problem again after a new game, which must
    # forget the first round's results (and the remembered mate) and find them again.
    for _ in range(2):
        for sfen, expected in problems:
            engine.send("usinewgame")
            moves = answer(engine, sfen)
            if expected == "nomate":
                assert moves == ["nomate"], (sfen, moves)
            else:
                ok, reason = verify_mate_line(sfen, moves)
                assert ok, f"{sfen}: {moves}: {reason}"
            answers.append(moves)
        engine.send("isready")
        engine.wait_for("readyok", 10)
    first, second = answers[: len(problems)], answers[len(problems):]
    assert [len(m) for m in first] == [len(m) for m in second]
    # A fresh engine per problem gives the same lengths: a new game is a clean table.
    for (sfen, _), moves in zip(problems, first):
        fresh = UsiEngine()
        try:
            handshake(fresh, 64)
            assert len(answer(fresh, sfen)) == len(moves), sfen
        finally:
            fresh.close()


def test_usinewgame_during_a_search_applies_before_the_next(engine):
    handshake(engine, 64)
    engine.send(f"position sfen {HARD_NOMATE}")
    engine.send("go mate infinite")
    time.sleep(0.5)
    engine.send("usinewgame")
    engine.send("stop")
    line, _ = engine.wait_for("checkmate", 5)
    assert line == "checkmate timeout"
    for sfen in (MATE3, HEAD_MATE):
        moves = answer(engine, sfen)
        ok, reason = verify_mate_line(sfen, moves)
        assert ok, f"{sfen}: {moves}: {reason}"
    engine.send("usinewgame")
    assert answer(engine, MATE3) and len(answer(engine, MATE3)) == 3
