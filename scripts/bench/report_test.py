"""Tests of scripts/bench/report.py's pure parts (no engine needed):
.venv/bin/python -m pytest -q scripts/bench/report_test.py"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import report as br  # noqa: E402

# Constructed here (not from a problem set): gold drop mates a bare king in the corner.
MATE1 = "8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
# The defender (White) to move: whatever the king does, a gold drop mates (1a2a G*2b).
DEFENDER_ROOT = "8k/9/7P1/9/9/9/9/9/9 w G 1"


def test_parse_set(tmp_path):
    f = tmp_path / "s.tsv"
    f.write_text(f"# comment\n{MATE1}\t1\n\n{MATE1}\tnomate\textra\tcols\n")
    ps = br.parse_set(f)
    assert [(p.line_no, p.expected) for p in ps] == [(2, 1), (4, None)]


def test_sampling(tmp_path):
    f = tmp_path / "s.tsv"
    f.write_text("".join(f"{MATE1}\t{i}\n" for i in range(10)))
    ps = br.load_problems(tmp_path, ["s.tsv"], every=3, offset=1, limit=None)
    assert [p.expected for p in ps] == [1, 4, 7]
    ps = br.load_problems(tmp_path, ["s.tsv"], every=3, offset=0, limit=2)
    assert [p.expected for p in ps] == [0, 3]
    assert [p.index for p in ps] == [0, 1]


def test_verify_and_judge():
    mate = br.Problem("s", 1, MATE1, 1)
    nomate = br.Problem("s", 2, MATE1, None)
    assert br.verify_mate_line(MATE1, ["G*1b"]) == (True, "ok")
    assert not br.verify_mate_line(MATE1, ["G*5e"])[0]  # no check
    assert not br.verify_mate_line(MATE1, ["G*1b", "1a1b"])[0]  # the king takes a guarded gold
    assert not br.verify_mate_line(MATE1, ["9i9a"])[0]  # illegal
    assert br.judge(mate, br.Answer("mate", ["G*1b"])).status == "solved"
    assert br.judge(mate, br.Answer("mate", ["G*5e"])).status == "wrong"
    assert br.judge(mate, br.Answer("nomate")).status == "wrong"
    assert br.judge(nomate, br.Answer("nomate")).status == "solved"
    assert br.judge(nomate, br.Answer("mate", ["G*1b"])).status == "wrong"
    assert br.judge(mate, br.Answer("timeout")).status == "unsolved"
    assert br.judge(nomate, br.Answer("notfound")).status == "unsolved"


def test_args():
    a = br.parse_args(["--every", "5", "--engine", "x=/bin/x", "--setoption", "x:USI_Hash=16"])
    assert a.every == 5 and a.options == {"x": {"USI_Hash": "16"}}
    assert a.sets == br.DEFAULT_SETS and a.time_ms == 1000


def test_a_defender_root_line_is_judged_as_the_engine_tests_judge_it():
    # An even-length line starts with the defender's move: verified as engine-tests/conftest.py
    # verifies it (the scripts and the tests share one check).
    assert br.verify_mate_line(DEFENDER_ROOT, ["1a2a", "G*2b"]) == (True, "ok")
    assert not br.verify_mate_line(DEFENDER_ROOT, ["1a2a", "G*3b"])[0]  # no check
    p = br.Problem("s", 1, DEFENDER_ROOT, 2)
    assert br.judge(p, br.Answer("mate", ["1a2a", "G*2b"])) == br.Verdict("solved", "", 2)
