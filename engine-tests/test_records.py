"""Problem files in and answers out, checked against independent readers and writers.

* Round trips: the positions of mate3-11.tsv written as KIF (BOD diagram) and CSA by cshogi's
  exporters (KIF in Shift_JIS/CP932, as cshogi writes a .kif, and UTF-8 for .kifu), with one
  legal move after the diagram, read back by `tsumugi solve`: the same position. Games from
  the start position written as KIF by python-shogi's exporter and as KI2 by cshogi's (relative
  words 右 左 上 引 寄 直) give the same final position.
* tsumugi's own KIF answers load in cshogi's KIF reader (which ignores BOD diagrams, so its
  board is started at the problem) and python-shogi's (which reads them), and replay to mate;
  its CSA answers load in cshogi's CSA reader and replay to mate.
* Real-looking files: a daily-problem style KIF (BOD, headers, comments) in Shift_JIS and a CSA
  game record with PI and moves, solved from the file; faults name the line.

The round trips need ../shared/problems (TSUMUGI_PROBLEMS) and skip visibly without it.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import cshogi
import cshogi.CSA
import cshogi.KI2
import cshogi.KIF
import pytest
import shogi
import shogi.KIF

from conftest import problems_dir, verify_mate_line
from usi_engine import engine_path


def run(*args, stdin: bytes | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(engine_path()), *map(str, args)], input=stdin,
                          capture_output=True, timeout=timeout)


def same_position(a: str, b: str) -> bool:
    """Board, side and hands equal (cshogi normalises the hand order; move numbers ignored)."""
    norm = lambda s: " ".join(cshogi.Board(s).sfen().split()[:3])  # noqa: E731
    return norm(a) == norm(b)


def mate3_11(every: int = 1) -> list[str]:
    rows = (problems_dir() / "mate3-11.tsv").read_text().splitlines()
    return [r.split("\t")[0] for r in rows[::every] if r.strip()]


def read_back(paths: list[Path], tmp: Path) -> list[dict]:
    """tsumugi's reading of each file, through the batch runner (one process for all): the
    JSON answers in input order, searched one node only (only the position read matters)."""
    lst = tmp / "list.txt"
    lst.write_text("".join(f"{p}\n" for p in paths))
    r = run("solve", "--batch", lst, "--nodes", "1", "--hash-mb", "1", "--jobs", "2",
            "--ordered")
    assert r.returncode == 0, r.stderr.decode()
    out = [json.loads(l) for l in r.stdout.decode().splitlines()]
    assert [o["line"] for o in out] == list(range(1, len(paths) + 1))
    return out


def test_kif_bod_round_trip_cshogi(tmp_path):
    sfens = mate3_11()
    paths, expected = [], []
    for i, sfen in enumerate(sfens):
        board = cshogi.Board(sfen)
        # .kif is written in CP932 by cshogi, .kifu in UTF-8: both encodings are read.
        p = tmp_path / f"p{i}.{'kif' if i % 2 == 0 else 'kifu'}"
        ex = cshogi.KIF.Exporter(str(p))
        ex.header(["先手", "後手"], handicap=board)
        if i % 3 == 0:
            # A move after the diagram: the position after the last move is the one read.
            m = sorted(board.legal_moves)[0]
            ex.move(m)
            board.push(m)
        ex.close()
        paths.append(p)
        expected.append(board.sfen())
    sjis = paths[0].read_bytes()
    with pytest.raises(UnicodeDecodeError):
        sjis.decode("utf-8")  # the .kif really is Shift_JIS
    for o, want, p in zip(read_back(paths, tmp_path), expected, paths):
        assert o["result"] != "error", (p, o)
        assert same_position(o["sfen"], want), (p, o["sfen"], want)


def test_csa_round_trip_cshogi(tmp_path):
    sfens = mate3_11()
    paths, expected = [], []
    for i, sfen in enumerate(sfens):
        board = cshogi.Board(sfen)
        p = tmp_path / f"p{i}.csa"
        ex = cshogi.CSA.Exporter(str(p))
        ex.info(init_board=board, names=["a", "b"], version="V2.2")
        if i % 3 == 0:
            m = sorted(board.legal_moves)[0]
            ex.move(m)
            board.push(m)
        ex.close()
        paths.append(p)
        expected.append(board.sfen())
    for o, want, p in zip(read_back(paths, tmp_path), expected, paths):
        assert o["result"] != "error", (p, o)
        assert same_position(o["sfen"], want), (p.read_text(), o["sfen"], want)


def random_games(n: int, seed: int = 15):
    rng = random.Random(seed)
    for _ in range(n):
        board = cshogi.Board()
        moves = []
        for _ in range(rng.randint(1, 120)):
            legal = list(board.legal_moves)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m)
            board.push(m)
        yield moves, board.sfen()


def test_kif_moves_from_startpos_python_shogi_and_ki2_cshogi(tmp_path):
    """Move lists from the initial position: python-shogi's KIF exporter and cshogi's KI2
    exporter (relative words), each read to the position after the last move."""
    paths, expected = [], []
    for i, (moves, final) in enumerate(random_games(60)):
        usi = [cshogi.move_to_usi(m) for m in moves]
        kif = shogi.KIF.Exporter.kif({"names": ["a", "b"], "sfen": shogi.STARTING_SFEN,
                                      "moves": usi, "win": "b" if len(usi) % 2 else "w"})
        p = tmp_path / f"g{i}.kifu"
        p.write_text(kif, encoding="utf-8")
        paths.append(p)
        expected.append(final)
        q = tmp_path / f"g{i}.ki2"
        ex = cshogi.KI2.Exporter(str(q))
        ex.header(["a", "b"])
        for m in moves:
            ex.move(m)
        ex.close()
        paths.append(q)
        expected.append(final)
    for o, want, p in zip(read_back(paths, tmp_path), expected, paths):
        assert o["result"] != "error", (p, o)
        assert same_position(o["sfen"], want), (p, o["sfen"], want)


def solve_as(fmt: str, sfen: str) -> str:
    r = run("solve", "--format", fmt, "--threads", "1", "--hash-mb", "32", "--time-ms", "20000",
            sfen)
    assert r.returncode == 0, r.stderr.decode()
    # A .kif is Shift_JIS (CP932) by the format's definition; everything else is UTF-8.
    return r.stdout.decode("cp932" if fmt == "kif" else "utf-8")


def test_kif_is_shift_jis_and_kifu_utf8_and_cshogi_opens_both_files(tmp_path, monkeypatch):
    """`solve --format kif > out.kif` is a file cshogi's KIF reader opens (it reads .kif as
    CP932 and fails on UTF-8), and `--format kifu > out.kifu` is UTF-8 without a BOM; both give
    the moves of the USI answer."""
    sfen = DAILY_SFEN
    usi = run("solve", "--threads", "1", sfen).stdout.decode().split()
    assert usi[0] == "checkmate" and len(usi) == 10, usi
    monkeypatch.setattr(cshogi.KIF, "Board", lambda: cshogi.Board(sfen))
    for fmt in ("kif", "kifu"):
        r = run("solve", "--format", fmt, "--threads", "1", sfen)
        assert r.returncode == 0, r.stderr.decode()
        p = tmp_path / f"out.{fmt}"
        p.write_bytes(r.stdout)
        if fmt == "kif":
            with pytest.raises(UnicodeDecodeError):
                r.stdout.decode("utf-8")
        else:
            assert not r.stdout.startswith(b"\xef\xbb\xbf")
            r.stdout.decode("utf-8")
        parsed = cshogi.KIF.Parser.parse_file(str(p))
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == usi[1:], (fmt, parsed.moves)


def test_check_kif_report_opens_in_cshogi(tmp_path, monkeypatch):
    """`check --format kif` (variations and comments) is still a KIF cshogi opens: its main
    line is the solution (cshogi does not read variations: it appends the 変化 blocks' moves
    after the main line's, so only the main line is compared)."""
    sfen, line = "8k/9/9/7+B1/9/9/9/9/9 b BN 1", "2d3c 1a1b B*2c 1b2a N*1c 2a3a 2c3b+"
    monkeypatch.setattr(cshogi.KIF, "Board", lambda: cshogi.Board(sfen))
    for fmt in ("kif", "kifu"):
        r = run("check", "--format", fmt, "--time-ms", "20000", "--solution", line, sfen)
        assert r.returncode == 1, r.stderr.decode()
        text = r.stdout.decode("cp932" if fmt == "kif" else "utf-8")
        assert "変化：5手" in text and "*余詰:" in text, text
        p = tmp_path / f"check.{fmt}"
        p.write_bytes(r.stdout)
        parsed = cshogi.KIF.Parser.parse_file(str(p))
        moves = [cshogi.move_to_usi(m) for m in parsed.moves]
        assert moves[:len(line.split())] == line.split(), text


def test_kif_answers_load_in_cshogi_and_python_shogi_and_mate(monkeypatch):
    sfens = mate3_11(every=15)
    assert len(sfens) >= 100
    for sfen in sfens:
        kif = solve_as("kif", sfen)
        assert "詰み" in kif, kif
        # cshogi's KIF reader knows no BOD diagram: start its board at the problem.
        monkeypatch.setattr(cshogi.KIF, "Board", lambda: cshogi.Board(sfen))
        parsed = cshogi.KIF.Parser.parse_str(kif)
        moves = [cshogi.move_to_usi(m) for m in parsed.moves]
        ok, why = verify_mate_line(sfen, moves)
        assert ok, (why, kif)
        # python-shogi reads the diagram itself. Its SFEN's side is the side to move after the
        # moves (it flips its 後手番 turn per move), so the start side is recovered from it.
        ps = shogi.KIF.Parser.parse_str(kif)[0]
        assert ps["moves"] == moves, (ps["moves"], moves)
        board, side, hand = ps["sfen"].split()[:3]
        if len(moves) % 2:
            side = "b" if side == "w" else "w"
        assert same_position(f"{board} {side} {hand} 1", sfen), (ps["sfen"], sfen)


def test_csa_answers_load_in_cshogi_and_mate():
    for sfen in mate3_11(every=30):
        csa = solve_as("csa", sfen)
        parsed = cshogi.Parser.parse_str(csa)[0]
        assert same_position(parsed.sfen, sfen), (parsed.sfen, sfen)
        moves = [cshogi.move_to_usi(m) for m in parsed.moves]
        ok, why = verify_mate_line(sfen, moves)
        assert ok, (why, csa)


# A daily-problem style KIF, as Kifu for Windows writes one: headers, a BOD diagram, comments,
# no moves. The position is the README's 9-ply problem.
DAILY_KIF = """# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----
開始日時：2026/11/23
表題：今日の詰将棋
作者：tsumugi テスト
発表誌：日刊（架空）
手合割：平手
後手の持駒：飛　角　金三　銀四　桂四　香四　歩十六　
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ 歩 ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ 角 ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ 飛 ・ ・|七
| ・ ・ ・ ・ ・ ・ ・v玉vと|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：金　
先手：
後手：
*今日の問題は９手詰です。
*持駒の金をどこに打つか。
手数----指手---------消費時間--
&ヒント
"""
DAILY_SFEN = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1"


def test_daily_problem_kif_shift_jis_solved_from_file(tmp_path):
    p = tmp_path / "daily.kif"
    p.write_bytes(DAILY_KIF.replace("\n", "\r\n").encode("cp932"))
    r = run("solve", "--format", "json", "--threads", "1", p)
    assert r.returncode == 0, r.stderr.decode()
    o = json.loads(r.stdout)
    assert same_position(o["sfen"], DAILY_SFEN)
    assert o["result"] == "mate" and o["length"] == 9 and o["minimal"], o
    ok, why = verify_mate_line(DAILY_SFEN, o["moves"])
    assert ok, why
    # The same file on standard input, answered in Japanese.
    r = run("solve", "--format", "ja", "--threads", "1", "-", stdin=p.read_bytes())
    assert r.returncode == 0 and r.stdout.decode().strip().endswith("まで9手で詰み"), r


CSA_MOVES = """+2878HI,T1
-6152KI,T2
+3736FU,T3
-8262HI,T4
+6958KI,T5
-5142OU,T6
+4938KI,T7
-4344FU,T1
+5868KI,T2
-9192KY,T3
+2937KE,T4
-4445FU,T5
+3745KE,T6
-6261HI,T7
+5949OU,T1
-3334FU,T2
+4553NK,T3
-4232OU,T4
+3928GI,T5
-9394FU,T6
+1918KY,T7
-9293KY,T1
+3837KI,T2
-3233OU,T3
+5352NK,T4
-4142KI,T5
+0044KI,T6
-3332OU,T7
+3746KI,T1
-6141HI,T2
+9998KY,T3
-4243KI,T4
+3635FU,T5
-7172GI,T6
+4655KI,T7
-4171HI,T1
+2819GI,T2
-7151HI,T3
+5253NK,T4
-8384FU,T5"""

CSA_GAME = """'CSA encoding=UTF-8
V2.2
N+Sente
N-Gote
$EVENT:practice game
$START_TIME:2026/11/23 10:00:00
'initial position
PI
+
""" + CSA_MOVES + "\n"


def test_csa_game_with_pi_and_moves_solved_from_file(tmp_path):
    """A CSA game record (PI, moves with times, some on one line with a comma); the side to
    move after the last move has a mate, which tsumugi finds and cshogi confirms."""
    p = tmp_path / "game.csa"
    p.write_text(CSA_GAME)
    parsed = cshogi.Parser.parse_str(CSA_GAME)[0]
    board = cshogi.Board(parsed.sfen)
    for m in parsed.moves:
        board.push(m)
    r = run("solve", "--format", "json", "--threads", "1", p)
    assert r.returncode == 0, r.stderr.decode()
    o = json.loads(r.stdout)
    assert same_position(o["sfen"], board.sfen()), (o["sfen"], board.sfen())
    assert o["result"] == "mate" and o["length"] == 5, o
    ok, why = verify_mate_line(board.sfen(), o["moves"])
    assert ok, why
    # USI format from the same file: the default answer line.
    r = run("solve", "--threads", "1", p)
    assert r.stdout.decode().split() == ["checkmate", *o["moves"].split()], r


@pytest.mark.parametrize("text,line,words", [
    (DAILY_KIF.replace("| ・ ・ ・ ・ 角", "| ・ ・ ・ ・ 象"), 14, "not a piece"),
    (DAILY_KIF.replace("金三", "金九"), 10, "position is not valid"),
    (DAILY_KIF + "   1 ３九金打\n   2 １九玉(27)\n", DAILY_KIF.count("\n") + 2, "no legal move"),
    ("PI\n+\n+7776FU\n+3334FU\n", 4, "side not to move"),
    ("P1 * +XX\n", 1, "not ' * '"),
    ("hello\nworld\n", 1, "neither SFEN, KIF nor CSA"),
    ("position startpos moves 7g7f 7g7f\n", 1, "move 2"),
])
def test_bad_files_name_the_line(tmp_path, text, line, words):
    p = tmp_path / "bad.txt"
    p.write_text(text)
    r = run("solve", p)
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert f"line {line}:" in err and words in err, err
    assert "panicked" not in err


def test_binary_and_missing_files(tmp_path):
    p = tmp_path / "noise.bin"
    p.write_bytes(bytes(range(256)) * 3)
    r = run("solve", p)
    assert r.returncode == 2 and b"neither UTF-8 nor Shift_JIS" in r.stderr, r
    r = run("solve", tmp_path / "missing.kif")
    assert r.returncode == 2 and b"missing.kif': file not found" in r.stderr, r


# df-pn-rust's ASCII board, laid out as its examples/five.txt: the defender's hand, a frame,
# nine rows of three-column cells (￪ Black, ￬ White), a frame, the attacker's hand.
ASCII_FIVE = (
    "歩x14 香x3 桂x4 銀x2 金 角 飛x2\n"
    "---------------------------\n"
    "                     \uffec香   \n"
    "                           \n"
    "            \uffec金   \uffeaと      \n"
    "                  \uffea銀   \uffec金\n"
    "                  \uffec王      \n"
    "               \uffec歩\uffec歩\uffec歩   \n"
    "                           \n"
    "                           \n"
    "                           \n"
    "---------------------------\n"
    "角 金 銀\n"
)


def test_ascii_board_solved_from_file(tmp_path):
    p = tmp_path / "five.txt"
    p.write_text(ASCII_FIVE)
    r = run("solve", "--format", "json", "--threads", "1", p)
    assert r.returncode == 0, r.stderr.decode()
    o = json.loads(r.stdout)
    assert same_position(o["sfen"], "7l1/9/4g1+P2/6S1g/6k2/5ppp1/9/9/9 b BGS2rbg2s4n3l14p 1"), o
    assert o["result"] == "mate" and o["length"] == 5, o
    ok, why = verify_mate_line(o["sfen"], o["moves"])
    assert ok, why
