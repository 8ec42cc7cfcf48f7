"""The command line's errors and limits, through the real binary: what a person sees when an
argument is wrong (one line naming it, a hint to the right `--help`, never a 100 KB echo), and
0 as "no limit" for every time and node option (and USI `go mate 0`).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import verify_mate_line
from usi_engine import engine_path
from usi_helpers import go_mate

# A mate in 3, and a mate in 11 whose first proof needs a post-search to be proven shortest
# (with a zero time or node limit taken as "stop at once" it is not).
MATE3 = "7k1/9/6R2/9/9/9/9/9/9 b G 1"
MATE11 = "l6nl/2R4b1/p1Sgk2g1/2P1p2pp/P2n1PPN1/1P1p1R2P/N1+p6/2G1G4/L1K5L w Sb2s6p 102"


def run(*args: str, timeout: float = 60, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(engine_path()), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


# --- usage errors ---------------------------------------------------------------------------

def test_check_usage_error_points_to_check_help():
    r = run("check", "--frobnicate", MATE3)
    assert r.returncode == 2, r
    assert "'tsumugi check --help'" in r.stderr, r.stderr


def test_help_of_help_succeeds():
    r = run("help", "--help")
    assert r.returncode == 0, r
    assert r.stdout.startswith("usage: tsumugi"), r.stdout[:200]


def test_check_help_shows_plain_quotes():
    r = run("check", "--help")
    assert r.returncode == 0, r
    assert '("2b2a+ 3a2a G*2b")' in r.stdout, r.stdout
    assert "\\" not in r.stdout, [l for l in r.stdout.splitlines() if "\\" in l]


def test_negative_values_name_their_option():
    for args, opt in [(["solve", "--hash-mb", "-1", MATE3], "--hash-mb"),
                      (["solve", "--time-ms", "-1", MATE3], "--time-ms"),
                      (["check", "--hash-mb", "-1", MATE3], "--hash-mb"),
                      (["bench", "--threads", "-1"], "--threads")]:
        r = run(*args)
        assert r.returncode == 2, (args, r)
        first = r.stderr.splitlines()[0]
        assert opt in first and "-1" in first and "whole number" in first, (args, first)
        assert "unexpected argument" not in r.stderr, (args, r.stderr)


def test_a_long_argument_is_cut_in_errors():
    huge = "z" * 100_000
    for args in (["solve", huge], ["check", huge], ["solve", "--hash-mb", huge, MATE3],
                 ["solve", "--threshold", huge, MATE3]):
        r = run(*args)
        assert r.returncode == 2, (args[:2], r.returncode)
        assert len(r.stderr) < 1000, (args[:2], len(r.stderr), r.stderr[:300])
        assert "zzz..." in r.stderr, (args[:2], r.stderr[:300])


def test_two_files_are_one_position_at_a_time(tmp_path):
    for name in ("a.kif", "b.kif"):
        (tmp_path / name).write_text(f"sfen {MATE3}\n")
    for cmd in ("solve", "check"):
        # Existing files, and missing ones: either way one position at a time.
        for args in (["a.kif", "b.kif"], ["x.kif", "y.csa"]):
            r = run(cmd, *args, cwd=tmp_path)
            assert r.returncode == 2, (cmd, args, r)
            first = r.stderr.splitlines()[0]
            assert "one position at a time" in first and "--batch" in first, (cmd, first)
            assert "bad SFEN" not in r.stderr, r.stderr


def test_a_missing_file_is_not_found_and_a_sfen_still_works(tmp_path):
    for name in ("nosuchfile.kif", "problems/nosuch", "p.CSA"):
        r = run("solve", name, cwd=tmp_path)
        assert r.returncode == 2, (name, r)
        first = r.stderr.splitlines()[0]
        assert "not found" in first and name in first, (name, first)
    r = run("solve", "garbage", cwd=tmp_path)
    assert "neither a file nor a SFEN" in r.stderr, r.stderr
    for args in ([MATE3], MATE3.split(), ["--sfen", MATE3]):
        r = run("solve", *args, "--hash-mb", "16", cwd=tmp_path)
        assert r.returncode == 0, (args, r.stderr)
        assert r.stdout.startswith("checkmate ") and len(r.stdout.split()) == 4, r.stdout


# --- 0 means no limit -----------------------------------------------------------------------

def test_solve_time_and_nodes_zero_mean_no_limit():
    for opt in ("--time-ms", "--nodes"):
        r = run("solve", MATE11, opt, "0", "--hash-mb", "16")
        assert r.returncode == 0, (opt, r)
        moves = r.stdout.split()[1:]
        ok, why = verify_mate_line(MATE11, moves)
        assert ok and len(moves) == 11, (opt, r.stdout, why)
        assert "shortest proven" in r.stderr and "not proven" not in r.stderr, (opt, r.stderr)


def test_batch_time_and_nodes_zero_mean_no_limit(tmp_path):
    inp = tmp_path / "in.txt"
    inp.write_text(f"{MATE11}\n")
    r = run("solve", "--batch", str(inp), "--time-ms", "0", "--nodes", "0", "--hash-mb", "16")
    assert r.returncode == 0, r
    assert '"minimal":true' in r.stdout and '"length":11' in r.stdout, r.stdout


def test_check_time_zero_means_no_limit():
    r = run("check", MATE11, "--time-ms", "0", "--hash-mb", "16", "--format", "json")
    assert r.returncode in (0, 1), (r.returncode, r.stderr)
    d = json.loads(r.stdout)
    assert d["verdict"] != "undecided" and not d["undecided"], d
    assert d["strict_minimal"] and d["length"] == 11, d


def test_kikazu_time_zero_means_no_limit():
    # The 40 pieces of a game on the whole board: some 130 000 nodes, a tenth of a second.
    r = run("kikazu", "--count", "--time-ms", "0", "--threads", "1")
    assert r.returncode == 0, r
    assert r.stdout.startswith("count 3720 "), r.stdout
    assert r.stdout.strip().endswith("complete true"), r.stdout


def test_usi_go_mate_zero_means_no_limit(engine):
    engine.usi_handshake()
    engine.send("setoption name USI_Hash value 16")
    engine.send("isready")
    engine.wait_for("readyok", 30)
    moves, infos = go_mate(engine, MATE11, "0")
    ok, why = verify_mate_line(MATE11, moves)
    assert ok and len(moves) == 11, (moves, why)
    assert any("shortest proven" in i for i in infos), infos
