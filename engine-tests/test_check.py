"""`tsumugi check`: a composed problem checked for 余詰, longer defences, 駒余り.

The lines the report shows are replayed with cshogi (the oracle): every alternative mate it
names must be a mating line from the main line's position before its ply, no longer than the
line's rest; the JSON form carries the documented fields; exit statuses follow the verdict.
"""

from __future__ import annotations

import json
import subprocess

import cshogi
import pytest

from conftest import problems_dir, verify_mate_line
from usi_engine import engine_path

FIELDS = {"sfen", "convention", "verdict", "solution_given", "given_line", "line", "line_ja", "length",
          "strict_lower", "strict_upper", "strict_minimal", "composer_length", "spare_at_end",
          "useless_interpositions", "findings", "undecided", "error", "searches", "nodes",
          "time_ms"}


def check(*args, timeout: float = 120) -> tuple[int, dict]:
    p = subprocess.run([str(engine_path()), "check", *args, "--format", "json",
                        "--hash-mb", "32"], capture_output=True, text=True, timeout=timeout)
    return p.returncode, (json.loads(p.stdout) if p.stdout.strip() else {})


def before_ply(sfen: str, line: list[str], ply: int) -> str:
    b = cshogi.Board(sfen)
    for mv in line[: ply - 1]:
        b.push_usi(mv)
    return b.sfen()


def assert_findings_replay(d: dict) -> None:
    line = d["line"].split()
    for f in d["findings"]:
        if f["kind"] in ("alternative", "last_move_alternative", "transposition"):
            start = before_ply(d["sfen"], line, f["ply"])
            ok, why = verify_mate_line(start, f["moves"])
            assert ok, (f, why)
            if f["kind"] == "alternative":
                assert len(f["moves"].split()) <= len(line) - f["ply"] + 1, f
        if f["kind"] == "longer_defence":
            assert len(f["moves"].split()) % 2 == 0, f


def test_sound_problem_json_form():
    code, d = check("8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
    assert code == 0, d
    assert FIELDS <= set(d), FIELDS - set(d)
    assert d["verdict"] == "sound" and d["line"] == "G*1b" and d["findings"] == []
    assert "tsumugi-check-1" in d["convention"]


def test_alternative_named_and_replayed():
    sfen = "8k/9/9/7+B1/9/9/9/9/9 b NB 1"
    line = "2d3c 1a1b B*2c 1b2a N*1c 2a3a 2c3b+"
    assert verify_mate_line(sfen, line)[0]
    code, d = check(sfen, "--solution", line)
    assert code == 1 and d["verdict"] == "flawed", d
    kinds = {(f["kind"], f["ply"]) for f in d["findings"]}
    assert ("alternative", 5) in kinds, kinds
    assert_findings_replay(d)


def test_longer_defence_named():
    sfen = "8k/9/9/9/6S2/9/9/9/9 b RL 1"
    given = "R*4a 1a1b 4a4b+ 1b1a L*1d 1a2a 1d1b+"
    code, d = check(sfen, "--solution", given)
    assert code == 1, d
    f = [f for f in d["findings"] if f["kind"] == "longer_defence"]
    assert f and all(x["ply"] == 4 for x in f), d["findings"]
    # The longer defence, completed by its mate, replays to mate from before ply 4 (cshogi).
    start = before_ply(sfen, given.split(), 4)
    b = cshogi.Board(start)
    for mv in f[0]["moves"].split():
        assert mv in {cshogi.move_to_usi(m) for m in b.legal_moves}
        b.push_usi(mv)
    assert b.is_check() and b.is_game_over()


def test_a_wrong_given_line_is_located_and_the_problem_judged_sound():
    """A sound problem with a wrong line given: the verdict is the problem's, and the report
    says where the line fails and the move that mates there (checked with cshogi)."""
    sfen = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"
    given = "9f5b+ 6a5b S*4b"
    assert not verify_mate_line(sfen, given)[0]
    code, d = check(sfen, "--solution", given)
    assert code == 0 and d["verdict"] == "sound", d
    g = d["given_line"]
    assert g["line"] == given and g["fails_at_ply"] == 3, g
    assert g["mate_there"].split()[0] == "S*6b", g
    # The move that mates there, after the given line's first two plies (cshogi).
    ok, why = verify_mate_line(before_ply(sfen, given.split(), 3), g["mate_there"])
    assert ok, why
    text = subprocess.run([str(engine_path()), "check", sfen, "--solution", given],
                          capture_output=True, text=True, timeout=60).stdout
    assert "verdict: sound" in text and "fails at ply 3" in text and "S*6b" in text, text


def test_bad_solution_is_a_usage_error():
    p = subprocess.run([str(engine_path()), "check", "8k/9/8P/9/9/9/9/9/9 b G 1",
                        "--solution", "7g7f"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "not legal" in p.stderr, p.stderr


def test_rules_tricky_futile_rows():
    path = problems_dir() / "rules-tricky.tsv"
    if not path.exists():
        pytest.skip(f"SKIPPED: {path} not found")
    rows = [l.split("\t") for l in path.read_text(encoding="utf-8").splitlines()[1:]]
    rows = [r for r in rows if len(r) > 2 and "無駄合" in r[2]]
    assert rows
    for r in rows:
        code, d = check(r[0], "--time-ms", "5000")
        if not d:
            continue  # an invalid row: the error went to stderr with status 2
        assert code in (0, 1, 3), d
        assert d["verdict"] in ("sound", "flawed", "undecided", "nomate"), d
        assert_findings_replay(d)


def test_kif_file_moves_are_the_solution(tmp_path):
    """A KIF file with moves (here tsumugi's own KIF answer) is checked with its moves as the
    intended line; the line replays to mate with cshogi."""
    sfen = "8k/9/9/9/6S2/9/9/9/9 b RL 1"
    kif = subprocess.run([str(engine_path()), "solve", sfen, "--format", "kif",
                          "--hash-mb", "16"], capture_output=True, timeout=60).stdout
    f = tmp_path / "p.kif"
    f.write_bytes(kif)
    code, d = check(str(f))
    assert d["solution_given"] is True, d
    assert d["sfen"].split()[:3] == sfen.split()[:3]
    assert verify_mate_line(sfen, d["line"])[0], d["line"]
    assert code in (0, 1, 3)


def test_japanese_report_and_a_kif_that_keeps_the_input_headers(tmp_path):
    """`--format ja` is the report in Japanese; the KIF written keeps the input file's headers
    (作品名, 作者) and comments in Japanese, and names the spare pieces (駒余り)."""
    sfen = "3sks3/9/4S4/9/9/B8/9/9/9 b SG2rb3g4n4l18p 1"
    bod = subprocess.run([str(engine_path()), "solve", "--format", "kifu", "--post-search",
                          "none", sfen], capture_output=True, text=True, timeout=60).stdout
    board = bod[bod.index("後手の持駒"):bod.index("手数----")]
    kif = tmp_path / "problem.kifu"
    kif.write_text("作品名：試作\n作者：詰め太郎\n" + board + "手数----指手---------消費時間--\n",
                   encoding="utf-8")
    p = subprocess.run([str(engine_path()), "check", str(kif), "--format", "ja",
                        "--hash-mb", "32"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 1, p.stderr
    assert p.stdout.startswith("判定: 不完全作\n"), p.stdout
    assert "余詰: ここから3手の別の詰みあり" in p.stdout, p.stdout
    assert "詰め上がりで攻方の持駒に" in p.stdout, p.stdout
    out = subprocess.run([str(engine_path()), "check", str(kif), "--format", "kifu",
                          "--hash-mb", "32"], capture_output=True, text=True, timeout=60).stdout
    assert "作品名：試作\n作者：詰め太郎\n" in out, out
    assert "tsumugi 検討: 不完全作" in out, out
