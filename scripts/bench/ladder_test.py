"""Tests of scripts/bench/ladder.py (no engine needed):
.venv/bin/python -m pytest -q scripts/bench/ladder_test.py

The lines are constructed here (not from a problem set) and checked by cshogi, the oracle."""

import json
import sys
from pathlib import Path

import cshogi
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ladder as lb  # noqa: E402

# Mate in 3: the rook promotes on 2c with check, the king goes to 1a, a gold drop mates.
MATE3 = "7k1/9/6R2/9/9/9/9/9/9 b G 1"
LINE3 = ["3c2c+", "2a1a", "G*2a"]


def test_rows_are_the_positions_after_each_even_ply():
    rows = lb.ladder(MATE3, LINE3, [2, 0])
    board = cshogi.Board(MATE3)
    assert rows[0] == (board.sfen(), 3, "A3")
    for mv in LINE3[:2]:
        board.push_usi(mv)
    assert rows[1] == (board.sfen(), 1, "A1")
    # The position after two plies: the attacker mates in one from there.
    assert cshogi.Board(rows[1][0]).mate_move_in_1ply() != 0


@pytest.mark.parametrize("after", [[1], [3], [-2], [4]])
def test_odd_or_out_of_line_plies_are_refused(after):
    with pytest.raises(lb.LadderError, match="even number below"):
        lb.ladder(MATE3, LINE3, after)


def test_an_illegal_move_is_refused():
    with pytest.raises(lb.LadderError, match="move 2 \\(defender\\) 2a2b is illegal"):
        # 2b is attacked by the dragon on 2c.
        lb.ladder(MATE3, ["3c2c+", "2a2b", "G*2a"], [0])


def test_a_line_that_does_not_mate_is_refused():
    with pytest.raises(lb.LadderError, match="odd length"):
        lb.ladder(MATE3, ["3c2c", "2a1a"], [0])
    # 2a3a leaves the king a flight square: G*2a is check but not mate.
    with pytest.raises(lb.LadderError, match="not checkmate"):
        lb.ladder(MATE3, ["3c2c+", "2a3a", "G*2a"], [0])


def test_reads_the_answer_of_a_hardest_json_and_writes_the_set(tmp_path):
    run = {
        "problems": [
            {
                "problem": {"name": "mate3", "sfen": MATE3, "known": 3},
                "results": {
                    "kh": {"answer": {"kind": "mate", "length": 3, "moves": LINE3}},
                    "tsumugi": {"answer": {"kind": "timeout", "length": None, "moves": []}},
                },
            }
        ]
    }
    j = tmp_path / "run.json"
    j.write_text(json.dumps(run), encoding="utf-8")
    out = tmp_path / "set" / "long.tsv"
    assert lb.main(["--json", str(j), "--problem", "mate3", "--after", "0,2", "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#")
    assert [ln.split("\t")[1:] for ln in lines[1:]] == [["3", "A3"], ["1", "A1"]]
    # No mating line from tsumugi there, and no such problem: errors, exit status 2.
    assert lb.main(["--json", str(j), "--problem", "mate3", "--engine", "tsumugi", "--after",
                    "0", "--out", str(out)]) == 2
    assert lb.main(["--json", str(j), "--problem", "other", "--after", "0", "--out", str(out)]) == 2
