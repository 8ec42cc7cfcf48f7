"""What an answer says: a composed line's two counts, each labelled with what is proven of it,
and the bounded question `--max-plies N` / `MaxPlies` ("is there a mate within N plies?"),
checked against cshogi's own mate search where it can decide.

The positions are written here: the README's example (9 plies strict, 3 as composers count)
and a mate in 3 (mate3-11.tsv's first row)."""

from __future__ import annotations

import json
import subprocess

import cshogi

from conftest import verify_mate_line
from usi_engine import UsiEngine, engine_path
from usi_helpers import go_mate

BRIEF = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1"
MATE3 = "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42"
OPTS = ["--threads", "1", "--hash-mb", "64"]
COMPOSER_STATUS = "composer's count: 3 plies, the line shown"
STRICT_STATUS = "strict count (every defence counted): mate in 9, shortest proven"


def solve(*args, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run([str(engine_path()), "solve", *OPTS, *args],
                          capture_output=True, text=True, timeout=timeout)


def oracle_mates_within(sfen: str, n: int) -> bool:
    """cshogi's mate search: is there a mate within n plies (n odd)?"""
    board = cshogi.Board(sfen)
    if n == 1:
        return board.mate_move_in_1ply() != 0
    return board.mate_move(n) != 0


# --- the composers' count and the strict count


def test_composer_report_labels_each_count():
    """The report printed `length 3`, then `mate in 9: shortest proven; ...`: two lengths, each
    stated as the line's. Each count must be named, and the strict one said apart."""
    r = solve("--post-search", "composer", BRIEF)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "checkmate G*3i 2h1i 3g1g"
    lines = r.stderr.splitlines()
    assert "length 3 (composer's count)" in lines, lines
    status = [l for l in lines if "count" in l and "plies" in l]
    assert len(status) == 1 and status[0].startswith(COMPOSER_STATUS), lines
    assert status[0].endswith(STRICT_STATUS), status
    assert not any(l.startswith("mate in") for l in lines), lines


def test_composer_counts_apart_in_json_ja_and_batch(tmp_path):
    r = solve("--post-search", "composer", "--format", "json", BRIEF)
    o = json.loads(r.stdout)
    assert (o["result"], o["length"], o["counting"]) == ("mate", 3, "composer"), o
    assert (o["composer_length"], o["strict_length"]) == (3, 9), o
    assert (o["mate_lower"], o["mate_upper"], o["minimal"]) == (9, 9, True), o
    assert o["status"].startswith(COMPOSER_STATUS) and o["status"].endswith(STRICT_STATUS), o
    # A strict answer has one count.
    s = json.loads(solve("--format", "json", BRIEF).stdout)
    assert (s["length"], s["counting"], s["composer_length"], s["strict_length"]) == \
        (9, "strict", None, 9), s
    assert verify_mate_line(BRIEF, s["moves"])[0]

    ja = solve("--post-search", "composer", "--format", "ja", BRIEF).stdout.strip()
    assert ja == ("▲３九金打 △１九玉 ▲１七飛 まで3手で詰み "
                  "(無駄合を除いた手数。無駄合も数えると9手詰 (最短と証明済み))"), ja

    inp = tmp_path / "in.txt"
    inp.write_text(BRIEF + "\n")
    b = subprocess.run([str(engine_path()), "solve", "--batch", str(inp), "--jobs", "1",
                        "--post-search", "composer", "--hash-mb", "64"],
                       capture_output=True, text=True, timeout=120)
    o = json.loads(b.stdout)
    assert (o["length"], o["counting"], o["composer_length"], o["strict_length"]) == \
        (3, "composer", 3, 9), o


def test_composer_usi_info_string_labels_each_count():
    with UsiEngine() as eng:
        eng.usi_handshake()
        eng.send("setoption name PostSearch value composer")
        moves, before = go_mate(eng, BRIEF, "10000", 60)
        assert moves == ["G*3i", "2h1i", "3g1g"]
        notes = [b[len("info string "):] for b in before if b.startswith("info string ")]
        status = [n for n in notes if n.startswith("composer's count")]
        assert len(status) == 1 and status[0].endswith(STRICT_STATUS), notes
        assert not any(n.startswith("mate in") for n in notes), notes


# --- "is there a mate within N plies?"


def test_max_plies_proves_or_refutes_a_mate_within_n():
    """A mate in 3 and a mate in 9, asked with limits at, above and below their lengths: a
    mate within N (replayed with cshogi) or "no mate within N plies" (cshogi's mate search
    agrees), exit status 0 or 1."""
    for sfen, n, length in [(MATE3, 3, 3), (MATE3, 5, 3), (MATE3, 1, None),
                            (BRIEF, 9, 9), (BRIEF, 7, None), (BRIEF, 5, None)]:
        r = solve("--max-plies", str(n), sfen)
        notes = r.stderr.splitlines()
        if length is None:
            assert r.returncode == 1, (sfen, n, r.stderr)
            assert r.stdout.strip() == "checkmate timeout", r.stdout
            assert f"no mate within {n} plies (proven; longer mates not searched)" in notes, notes
            assert not oracle_mates_within(sfen, n), (sfen, n)
        else:
            assert r.returncode == 0, (sfen, n, r.stderr)
            moves = r.stdout.split()[1:]
            assert len(moves) == length, (sfen, n, moves)
            ok, why = verify_mate_line(sfen, moves)
            assert ok, why
            assert f"mate in {length}: shortest proven; every defence on the line is a " \
                   "longest defence" in notes, notes
            assert oracle_mates_within(sfen, n), (sfen, n)


def test_max_plies_in_json_ja_batch_and_limits(tmp_path):
    o = json.loads(solve("--max-plies", "7", "--format", "json", BRIEF).stdout)
    assert (o["result"], o["max_plies"]) == ("no_mate_within", 7), o
    assert o["reason"] == "no mate within 7 plies (proven; longer mates not searched)", o
    ja = solve("--max-plies", "7", "--format", "ja", BRIEF).stdout
    assert ja == "7手以内の詰みなし (証明済み。7手より長い詰みは探していない)\n", ja
    # Undecided by a node limit: status 3, not "no mate within".
    r = solve("--max-plies", "9", "--nodes", "5", BRIEF)
    assert r.returncode == 3, r.stderr
    assert "undecided: node limit reached" in r.stderr
    # No limit given: the usual answer and status.
    assert solve("--max-plies", "0", BRIEF).returncode == 0

    inp = tmp_path / "in.txt"
    inp.write_text(f"{BRIEF}\n{MATE3}\n")
    b = subprocess.run([str(engine_path()), "solve", "--batch", str(inp), "--jobs", "1",
                        "--ordered", "--max-plies", "7", "--hash-mb", "64"],
                       capture_output=True, text=True, timeout=120)
    assert b.returncode == 0, b.stderr
    first, second = [json.loads(l) for l in b.stdout.splitlines()]
    assert (first["result"], first["max_plies"]) == ("no_mate_within", 7), first
    assert (second["result"], second["length"]) == ("mate", 3), second
    assert verify_mate_line(MATE3, second["moves"])[0]


def test_max_plies_usi_option_answers_timeout_with_the_bound_said():
    """`checkmate nomate` is 不詰 to a GUI; MaxPlies proves only "none within N", so the
    answer is `checkmate timeout` after an `info string` that says what is proven."""
    with UsiEngine() as eng:
        lines = eng.usi_handshake()
        assert "option name MaxPlies type spin default 0 min 0 max 65534" in lines, lines
        eng.send("setoption name MaxPlies value 7")
        moves, before = go_mate(eng, BRIEF, "10000", 60)
        assert moves == ["timeout"], moves
        notes = [b[len("info string "):] for b in before if b.startswith("info string ")]
        assert "no mate within 7 plies (proven; longer mates not searched)" in notes, notes
        assert any(n.startswith("MaxPlies 7: answered checkmate timeout") for n in notes), notes
        eng.send("setoption name MaxPlies value 9")
        moves, _ = go_mate(eng, BRIEF, "10000", 60)
        assert len(moves) == 9 and verify_mate_line(BRIEF, moves)[0], moves
        eng.send("setoption name MaxPlies value 0")
        moves, _ = go_mate(eng, MATE3, "10000", 60)
        assert len(moves) == 3, moves
