"""MultiPV and the refutations of `checkmate nomate`, over USI as a GUI reads them.

With `MultiPV` N >= 2 the engine reports the best line at once as `info multipv 1`, then
searches every other check and ends with a final set of `info multipv k` lines, best first,
before the single `checkmate` answer. Every mate it reports is replayed by cshogi; every check
it says does not mate is followed by its refuting defence, which cshogi must find legal and
after which cshogi's own mate search must find no mate within a bound it can check. The
positions are written here; where they have several mating first moves, cshogi's search
(every check, every defence, a mate in one after it) says which first moves mate within 3
plies, and the engine must report each of them."""

from __future__ import annotations

import json
import subprocess

import cshogi
import pytest

from conftest import verify_mate_line
from usi_engine import UsiEngine, engine_path
from usi_helpers import MATE3

# Three first moves mate at once: the gold dropped on 5b, or either promoted pawn moving there.
THREE_MATES = "4k4/9/3+P1+P3/9/9/9/9/9/9 b G 1"
# Two gold drops mate at once (2a and 1b), the rook guarding.
TWO_MATES = "8k/7R1/9/9/9/9/9/9/9 b G 1"
# G*2b mates at once (the rook on 2i guarding it); G*2a and S*2b mate in 3.
ONE_AND_THREE = "8k/9/9/9/9/9/9/9/7R1 b GS 1"
# One mating first move only: the gold dropped on 5b (the pawn guards it); with a single gold,
# every other check loses it.
SINGLE_MATE = "4k4/9/4P4/9/9/9/9/9/9 b G 1"
# No mate: a lone gold against a king in the corner.
NOMATE_CORNER = "8k/9/9/9/9/9/9/9/9 b G 1"
# No mate: two golds and a silver against a king on the edge.
NOMATE_EDGE = "4k4/9/9/9/9/9/9/9/9 b 2GS 1"

# cshogi's mate search checks "no mate after the refuting defence" within this many plies.
REFUTATION_BOUND = 7


def parse_info(line: str) -> dict:
    """The fields of an `info` line the way GUIs read them (ShogiHome's parser walks the
    tokens the same way): `multipv k`, `score mate N` or `score cp N`, and `pv`, which takes
    the rest of the line, as `string` does."""
    words = line.split()
    assert words[0] == "info", line
    out: dict = {}
    i = 1
    while i < len(words):
        w = words[i]
        if w in ("time", "nodes", "nps", "hashfull", "depth", "seldepth", "multipv"):
            out[w] = int(words[i + 1])
            i += 2
        elif w == "score":
            kind, value = words[i + 1], words[i + 2]
            out["score"] = (kind, int(value))
            i += 3
        elif w == "pv":
            out["pv"] = words[i + 1:]
            break
        elif w == "string":
            out["string"] = " ".join(words[i + 1:])
            break
        else:
            raise AssertionError(f"unknown info token {w!r} in {line!r}")
    return out


def checks(sfen: str) -> set[str]:
    b = cshogi.Board(sfen)
    out = set()
    for m in b.legal_moves:
        b.push(m)
        if b.is_check():
            out.add(cshogi.move_to_usi(m))
        b.pop()
    return out


def oracle_mates_within_3(sfen: str) -> set[str]:
    """First moves that mate within 3 plies, by cshogi: every check, every defence after it,
    and cshogi's mate in one after that (or no defence at all)."""
    b = cshogi.Board(sfen)
    out = set()
    for m in list(b.legal_moves):
        b.push(m)
        if b.is_check():
            defences = list(b.legal_moves)
            mated = True
            for d in defences:
                b.push(d)
                mated = mated and b.mate_move_in_1ply() != 0
                b.pop()
            if mated:
                out.add(cshogi.move_to_usi(m))
        b.pop()
    return out


def assert_refuted(sfen: str, check: str, defence: str) -> None:
    """cshogi: `defence` is a legal reply to `check`, and after it no mate within the bound."""
    b = cshogi.Board(sfen)
    b.push_usi(check)
    assert b.is_check(), (sfen, check)
    legal = {cshogi.move_to_usi(m) for m in b.legal_moves}
    assert defence in legal, (sfen, check, defence, legal)
    b.push_usi(defence)
    assert b.mate_move(REFUTATION_BOUND) == 0, (sfen, check, defence, "cshogi finds a mate")


def run(eng: UsiEngine, sfen: str, timeout: float = 60) -> tuple[list[str], str]:
    eng.send(f"position sfen {sfen}")
    eng.send("go mate 30000")
    answer, before = eng.wait_for("checkmate", timeout)
    return before, answer


def final_set(lines: list[str]) -> dict[int, tuple[dict, str]]:
    """The latest `info multipv k` line of each k, with the `info string` after it."""
    out: dict[int, tuple[dict, str]] = {}
    for i, line in enumerate(lines):
        if line.startswith("info multipv "):
            note = lines[i + 1] if i + 1 < len(lines) else ""
            out[parse_info(line)["multipv"]] = (parse_info(line), note)
    return out


@pytest.fixture
def multipv_engine():
    with UsiEngine(engine_path()) as eng:
        eng.usi_handshake(options={"USI_Hash": 64, "Threads": 1, "MultiPV": 16})
        yield eng


@pytest.mark.parametrize("sfen", [THREE_MATES, TWO_MATES, ONE_AND_THREE, MATE3])
def test_every_mating_first_move_is_reported_and_replayed(multipv_engine, sfen):
    lines, answer = run(multipv_engine, sfen)
    multipv = [l for l in lines if l.startswith("info multipv ")]
    assert multipv, lines
    # The best line comes at once as line 1, before any other line is searched.
    assert parse_info(multipv[0])["multipv"] == 1, multipv
    lines_by_k = final_set(lines)
    assert sorted(lines_by_k) == list(range(1, len(lines_by_k) + 1)), lines_by_k
    # One line per check, the answer's first.
    assert {info["pv"][0] for info, _ in lines_by_k.values()} == checks(sfen), lines_by_k
    assert answer.split()[1:] == lines_by_k[1][0]["pv"], (answer, lines_by_k[1])
    mating = {}
    previous = 0
    for k, (info, note) in sorted(lines_by_k.items()):
        assert note.startswith(f"info string multipv {k}: {info['pv'][0]}"), (k, note)
        if "score" in info:
            kind, n = info["score"]
            assert kind == "mate" and n > 0, info
            ok, why = verify_mate_line(sfen, info["pv"])
            assert ok, (info, why)
            assert len(info["pv"]) == n, info
            assert n >= previous, ("mates best first", lines_by_k)
            previous = n
            assert "shortest proven" in note, note
            mating[info["pv"][0]] = n
        else:
            assert "does not mate (proven)" in note, note
            assert len(info["pv"]) == 2, info
            assert_refuted(sfen, *info["pv"])
    # The first moves whose (shortest) mate is within 3 plies are cshogi's, no more, no fewer.
    within_3 = {m for m, n in mating.items() if n <= 3}
    assert within_3 == oracle_mates_within_3(sfen), (mating, oracle_mates_within_3(sfen))


def test_a_single_mate_reports_only_it(multipv_engine):
    lines, answer = run(multipv_engine, SINGLE_MATE)
    assert answer == "checkmate G*5b"
    lines_by_k = final_set(lines)
    scored = [info for info, _ in lines_by_k.values() if "score" in info]
    assert [info["pv"] for info in scored] == [["G*5b"]], lines_by_k
    assert oracle_mates_within_3(SINGLE_MATE) == {"G*5b"}
    for info, note in lines_by_k.values():
        if "score" not in info:
            assert_refuted(SINGLE_MATE, *info["pv"])


def test_multipv_1_prints_no_multipv_line():
    with UsiEngine(engine_path()) as eng:
        eng.usi_handshake(options={"USI_Hash": 64, "Threads": 1})
        lines, answer = run(eng, THREE_MATES)
    assert answer.split()[1] in {"G*5b", "4c5b", "6c5b"}
    assert not [l for l in lines if "multipv" in l], lines


@pytest.mark.parametrize("sfen", [NOMATE_CORNER, NOMATE_EDGE])
@pytest.mark.parametrize("multipv", [1, 4])
def test_every_check_of_a_nomate_is_refuted(sfen, multipv):
    with UsiEngine(engine_path()) as eng:
        eng.usi_handshake(options={"USI_Hash": 64, "Threads": 1, "MultiPV": multipv})
        lines, answer = run(eng, sfen)
    assert answer == "checkmate nomate", lines
    notes = [parse_info(l)["string"] for l in lines if l.startswith("info string ")]
    refutations = [n.split()[1:3] for n in notes if n.startswith("refutation ")]
    assert {c for c, _ in refutations} == checks(sfen), notes
    assert len(refutations) == len(checks(sfen)), notes
    for check, defence in refutations:
        assert_refuted(sfen, check, defence)
    assert any(n.startswith(f"no mate: each of the {len(refutations)} checks") for n in notes)


def test_stop_during_the_alternatives_answers_the_best_line():
    """`go mate infinite`, `stop` as soon as line 1 is out: the answer is line 1's, at once."""
    with UsiEngine(engine_path()) as eng:
        eng.usi_handshake(options={"USI_Hash": 64, "Threads": 2, "MultiPV": 8})
        eng.send(f"position sfen {MATE3}")
        eng.send("go mate infinite")
        first, _ = eng.wait_for("info multipv 1 ", 30)
        eng.send("stop")
        answer, after = eng.wait_for("checkmate", 10)
    assert answer.split()[1:] == parse_info(first)["pv"]
    ok, why = verify_mate_line(MATE3, answer.split()[1:])
    assert ok, why
    for line in after:
        if line.startswith("info multipv "):
            info = parse_info(line)
            if "score" in info:
                assert verify_mate_line(MATE3, info["pv"])[0], info


def solve(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(engine_path()), "solve", "--threads", "1", "--hash-mb", "64", *args],
                          capture_output=True, text=True, timeout=60)


def test_solve_multipv_json_lists_every_other_check():
    r = solve("--multipv", "16", "--format", "json", ONE_AND_THREE)
    assert r.returncode == 0, r.stderr
    o = json.loads(r.stdout)
    assert o["result"] == "mate" and o["moves"] == "G*2b", o
    others = o["first_moves"]
    assert {f["move"] for f in others} | {"G*2b"} == checks(ONE_AND_THREE), others
    mates = {}
    for f in others:
        if f["result"] == "mate":
            assert verify_mate_line(ONE_AND_THREE, f["moves"])[0], f
            assert f["minimal"] and f["length"] == len(f["moves"].split()), f
            mates[f["move"]] = f["length"]
        else:
            assert f["result"] == "nomate", f
            assert_refuted(ONE_AND_THREE, f["move"], f["refutation"])
    assert {m for m, n in mates.items() if n <= 3} | {"G*2b"} == oracle_mates_within_3(ONE_AND_THREE)
    # Best first: mates by length, then the checks that do not mate.
    order = [(f["result"] != "mate", f.get("length", 0)) for f in others]
    assert order == sorted(order), order


def test_solve_multipv_in_japanese_and_as_a_report():
    r = solve("--multipv", "3", "--format", "ja", ONE_AND_THREE)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "▲２二金打 まで1手で詰み", lines
    assert lines[1] == "他の初手 (2から、最善手順が1):", lines
    # MultiPV 3: the best line and two others, both mates in 3.
    assert [l.split(" まで")[1] for l in lines[2:]] == ["3手で詰み (3手詰、最短を証明済み)"] * 2, lines
    r = solve("--multipv", "3", ONE_AND_THREE)
    assert r.stdout.strip() == "checkmate G*2b"
    assert "other first moves (from 2; the best line is 1):" in r.stderr, r.stderr


def test_solve_nomate_json_refutes_every_check():
    r = solve("--format", "json", NOMATE_EDGE)
    o = json.loads(r.stdout)
    assert o["result"] == "nomate", o
    refs = o["refutations"]
    assert {f["move"] for f in refs} == checks(NOMATE_EDGE)
    for f in refs:
        assert f["result"] == "nomate", f
        assert_refuted(NOMATE_EDGE, f["move"], f["refutation"])
    r = solve("--format", "ja", NOMATE_EDGE)
    assert r.stdout.splitlines()[1].startswith("不詰: 8通りの王手それぞれに"), r.stdout


def test_multipv_is_refused_with_batch(tmp_path):
    f = tmp_path / "p.sfen"
    f.write_text(ONE_AND_THREE + "\n")
    r = solve("--batch", str(f), "--multipv", "2")
    assert r.returncode == 2 and "--multipv" in r.stderr, r
