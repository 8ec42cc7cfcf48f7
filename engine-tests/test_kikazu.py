"""`tsumugi kikazu` (利かずの駒並べ): placements checked by python-shogi's attack
tables (scripts/check/kikazu.py), and on small boards compared with a Python brute force that
tries every assignment; komori-n's article's 3720 for the 40 pieces; none for 41; the largest
two-direction set of the 40 plus pawns; bad input and the time limit.
"""

from __future__ import annotations

import subprocess

import kikazu as kikazu_check  # scripts/check/kikazu.py, on the path by pytest.ini
import pytest

from usi_engine import engine_path

STANDARD = "P18L4N4S4G4K2R2B2"


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(engine_path()), "kikazu", *args],
        capture_output=True, text=True, timeout=timeout,
    )


def summary(out: str) -> dict[str, str]:
    """The last line `count N [up_to_mirror K] nodes X time_ms T threads N complete B`."""
    words = out.strip().splitlines()[-1].split()
    assert words[0] == "count", out
    return dict(zip(words[::2], words[1::2]))


def boards(out: str) -> list[str]:
    return [b for b in map(kikazu_check.board_of, out.splitlines()) if b]


def check_all_valid(bs: list[str], spec: str, bidirectional: bool) -> None:
    want = kikazu_check.parse_spec(spec, bidirectional)
    for b in bs:
        assert kikazu_check.violations(b) == [], b
        assert kikazu_check.multiset(b, bidirectional) == want, b


def mirror(board: str) -> str:
    cs = kikazu_check.cells(board)
    return kikazu_check.board_field({(10 - f, r): p for (f, r), p in cs.items()})


def test_forty_pieces_one_direction_3720_placements_all_valid():
    # Counted as distinct boards (identical pieces not told apart), a placement and its
    # left-right mirror image counted apart: komori-n's article's 3720.
    r = run("--count", "--threads", "2")
    assert r.returncode == 0, r.stderr
    s = summary(r.stdout)
    assert (s["count"], s["up_to_mirror"], s["complete"]) == ("3720", "1860", "true")
    r = run("--all", "--threads", "2")
    assert r.returncode == 0, r.stderr
    bs = boards(r.stdout)
    assert len(bs) == 3720 and len(set(bs)) == 3720
    check_all_valid(bs, STANDARD, False)
    # Every mirror image is among them, and none is its own: 1860 pairs.
    assert {mirror(b) for b in bs} == set(bs)
    assert not any(mirror(b) == b for b in bs)


def test_forty_one_pieces_one_direction_none():
    r = run("--pieces", "P19L4N4S4G4K2R2B2")
    assert r.returncode == 0, r.stderr
    s = summary(r.stdout)
    assert (s["count"], s["complete"]) == ("0", "true")
    assert boards(r.stdout) == []
    assert "no placement" in r.stderr


def test_first_is_drawn_and_valid():
    r = run("--threads", "1")
    assert r.returncode == 0, r.stderr
    bs = boards(r.stdout)
    assert len(bs) == 1
    check_all_valid(bs, STANDARD, False)
    assert "|一" in r.stdout and "|九" in r.stdout
    assert r.stdout.count(" 歩") == 18


def test_two_direction_forty_plus_four_pawns_fits_plus_five_does_not():
    r = run("--bidirectional", "--pieces", "P22L4N4S4G4K2R2B2", "--threads", "2")
    assert r.returncode == 0, r.stderr
    bs = boards(r.stdout)
    assert len(bs) == 1
    check_all_valid(bs, "P22L4N4S4G4K2R2B2", True)
    # At least one piece faces as White's: one direction cannot hold 41 pieces.
    assert any(c.islower() for c in bs[0])
    r = run("--bidirectional", "--pieces", "P23L4N4S4G4K2R2B2", "--threads", "2")
    assert r.returncode == 0, r.stderr
    assert summary(r.stdout)["count"] == "0"
    assert summary(r.stdout)["complete"] == "true"


SMALL = [
    ("P3", 3, 3, False),
    ("P3", 3, 3, True),
    ("P2L", 3, 3, False),
    ("GSN", 3, 3, False),
    ("GS", 3, 3, True),
    ("KP2", 3, 3, True),
    ("RB", 3, 3, False),
    ("NNP", 4, 3, False),
    ("LLN", 3, 4, True),
    ("Gg", 3, 3, False),
    ("+R+BP", 3, 3, False),
    ("SX2", 3, 3, False),
    ("P4", 2, 4, True),
]


@pytest.mark.parametrize("spec,files,ranks,bidirectional", SMALL)
def test_small_boards_match_python_brute_force(spec, files, ranks, bidirectional):
    expected = kikazu_check.brute_force(spec, files, ranks, bidirectional)
    args = ["--all", "--pieces", spec, "--board", f"{files}x{ranks}"]
    if bidirectional:
        args.append("--bidirectional")
    r = run(*args)
    assert r.returncode == 0, r.stderr
    bs = boards(r.stdout)
    assert len(bs) == len(set(bs))
    assert set(bs) == expected
    assert summary(r.stdout)["count"] == str(len(expected))
    sym = sum(1 for b in expected if mirror_in(b, files) == b)
    assert summary(r.stdout)["up_to_mirror"] == str((len(expected) + sym) // 2)


def mirror_in(board: str, files: int) -> str:
    cs = kikazu_check.cells(board)
    return kikazu_check.board_field({(files + 1 - f, r): p for (f, r), p in cs.items()})


def test_brute_force_finds_something():
    # The comparison above is not vacuous: the brute force finds placements, and rejects some.
    assert len(kikazu_check.brute_force("P2L", 3, 3, False)) > 10
    assert kikazu_check.violations("8P/8P/9/9/9/9/9/9/9") == ["1a"]


@pytest.mark.parametrize("args,needle", [
    (["--pieces", "Q3"], "--pieces"),
    (["--pieces", "+G"], "--pieces"),
    (["--pieces", "P90"], "--pieces"),
    (["--pieces", "p3", "--bidirectional"], "upper case"),
    (["--board", "10x3"], "--board"),
    (["--count", "--all"], "--all"),
])
def test_bad_input_exits_2_naming_it(args, needle):
    r = run(*args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("error:") and lines[1].startswith("hint:")
    assert needle in lines[0]
    assert r.stdout == ""


def test_help():
    r = run("--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: tsumugi kikazu")
    r = subprocess.run([str(engine_path()), "--help"], capture_output=True, text=True,
                       timeout=30)
    assert "tsumugi kikazu" in r.stdout


def test_time_limit_reports_incomplete():
    # Counting every placement of 20 pawns facing either way means visiting each of an
    # astronomical number: the search runs into the limit.
    r = run("--count", "--bidirectional", "--pieces", "P20", "--time-ms", "200",
            "--threads", "1")
    assert r.returncode == 3
    assert summary(r.stdout)["complete"] == "false"
    assert "time limit" in r.stderr
