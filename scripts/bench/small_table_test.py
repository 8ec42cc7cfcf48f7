"""Tests of scripts/bench/small_table.py's pure parts (no engine needed):
.venv/bin/python -m pytest -q scripts/bench/small_table_test.py"""

import argparse
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import small_table as st  # noqa: E402

# Constructed here (not from a problem set): gold drop mates a bare king in the corner.
MATE1 = "8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"


def feed(watch, lines):
    c = st.Claims()
    for i, line in enumerate(lines):
        watch(c, line, float(i))
    return c


def test_tsumugi_shortest_proven():
    c = feed(st.tsumugi_claims, [
        "info time 46 nodes 37 nps 801 hashfull 0 score mate 5 pv 8d9c 9b9c 6a7a 9c8c 7a8b",
        "info string mate within 5 plies proven",
        "info string no mate within 3 plies: the shortest mate takes 5",
        "info string mate in 5: shortest proven; every defence on the line is a longest defence",
    ])
    assert (c.minimal, c.lower, c.upper, c.minimal_at) == (5, 5, 5, 2.0)
    assert c.status.startswith("mate in 5: shortest proven")


def test_tsumugi_shortest_not_proven():
    c = feed(st.tsumugi_claims, [
        "info string no mate within 15 plies: the shortest mate takes 17 to 21",
        "info string line of 23 plies; shortest mate not proven: between 17 and 21 plies; the "
        "line's defences are not all proven longest (a defender could last longer)",
    ])
    assert (c.minimal, c.lower, c.upper, c.minimal_at) == (None, 17, 21, None)


def test_tsumugi_minimum_proven_beside_a_longer_line():
    c = feed(st.tsumugi_claims, [
        "info string the shortest mate is proven to take 21 plies, but the line shown has 25 (the "
        "search ended before the shortest line was read); every defence on the line is a "
        "longest defence",
    ])
    assert (c.minimal, c.lower, c.upper) == (21, 21, 21)


def test_tsumugi_composer_sentence_reads_the_strict_count():
    c = feed(st.tsumugi_claims, [
        "info string composer's count: 3 plies, the line shown (useless interpositions omitted; "
        "not proven shortest under composers' counting, its defences not proven longest); strict "
        "count (every defence counted): mate within 11 plies proven, shortest not proven "
        "(between 7 and 11 plies)",
    ])
    assert (c.minimal, c.lower, c.upper) == (None, 7, 11)
    c = feed(st.tsumugi_claims, [
        "info string composer's count: 3 plies, the line shown (...); strict count (every "
        "defence counted): mate in 9, shortest proven",
    ])
    assert c.minimal == 9


def test_kh_disproof_after_a_mate_proves_the_minimum():
    c = feed(st.kh_claims, [
        "info time 0 nodes 62 nps 0 hashfull 0 depth 0 seldepth 4 score mate 5 string # 1st "
        "result: mate in 5(upper_bound:5)",
        "info time 0 nodes 84 nps 0 hashfull 0 depth 0 seldepth 4 score mate -4 string # 2nd "
        "result: {disproof_hand= len=4 amount=1016}",
    ])
    assert (c.minimal, c.lower, c.upper, c.minimal_at) == (5, 5, 5, 1.0)


def test_kh_mates_without_a_disproof_claim_nothing():
    c = feed(st.kh_claims, [
        "info string # 1st result: mate in 25(upper_bound:25)",
        "info string # 2nd result: mate in 23(upper_bound:23)",
    ])
    assert (c.minimal, c.upper) == (None, 23)


def test_kh_disproof_before_any_mate_is_no_length_claim():
    c = feed(st.kh_claims, ["info string # 1st result: {disproof_hand=P len=8191 amount=5}"])
    assert c.minimal is None and c.lower is None


def problem(known=1, proven=True):
    return st.Problem("s.tsv", 1, 2, "p", MATE1, known, proven)


def record(answer, moves=(), minimal=None, lower=None, known=1):
    r = st.Record("s.tsv", 1, "p", known, "tsumugi", answer=answer, moves=list(moves),
                  length=len(moves) if answer == "mate" else None, minimal=minimal,
                  lower=lower)
    return r


def test_judge_a_good_line():
    r = record("mate", ["G*1b"], minimal=1, lower=1)
    st.judge(problem(), r)
    assert r.replay == "ok" and not r.wrong and r.solved and r.proven_minimal


def test_judge_nomate_and_bad_lines_are_wrong():
    r = record("nomate")
    st.judge(problem(), r)
    assert r.wrong and not r.solved
    r = record("mate", ["G*5e"])  # not a check
    st.judge(problem(), r)
    assert r.wrong and "does not give check" in r.wrong[0]
    r = record("mate", ["G*1b", "1a1b"])  # even: the attacker is the side to move
    st.judge(problem(), r)
    assert r.wrong and "even length" in r.wrong[0]


def test_judge_claims_against_the_known_length():
    # A minimality claim above a proven known length is wrong; without the claim it is fine.
    r = record("mate", ["G*1b"], minimal=1)
    st.judge(st.Problem("s.tsv", 1, 2, "p", MATE1, 1, True), r)
    assert not r.wrong
    r = record("mate", ["G*1b"], lower=3, known=1)
    st.judge(problem(), r)
    assert r.wrong and "no mate below 3" in r.wrong[0]
    # Above a length the set gives as an upper bound only: listed apart, not wrong.
    r = record("mate", ["G*1b"], lower=3, known=1)
    st.judge(problem(proven=False), r)
    assert not r.wrong and r.disputed
    # A row without a known length: only the replay counts.
    r = record("mate", ["G*1b"], minimal=1, known=None)
    st.judge(problem(known=None), r)
    assert r.solved


def test_rows_argument():
    assert st.parse_rows("1-3") == (1, 3)
    assert st.parse_rows("7") == (7, 7)
    for bad in ["0-2", "3-1", "a-b", "1-"]:
        with pytest.raises(argparse.ArgumentTypeError):
            st.parse_rows(bad)
