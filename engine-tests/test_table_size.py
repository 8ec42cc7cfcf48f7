"""A long problem answered with the smallest table a GUI can set (`USI_Hash 1`, 1 MB).

A 1 MB table overflows long before a 43-ply problem is solved, so the search runs on replaced
entries; the answer must still be a mate (checked by cshogi, the oracle) and, if the engine says
the length is the proven shortest, that length must be the problem's known one. The problem
comes from the shared problem sets; the test skips, with the path, without them.
"""

from __future__ import annotations

import re

import pytest

from conftest import problems_dir, verify_mate_line
from tsumugi_tools.machine import proc_status_kb
from tsumugi_tools.problems import read_set
from usi_helpers import MATE3

# 図巧 No. 45 (famous.tsv's `zuko045`, 43 plies): about 200 000 nodes, a few seconds at 1 MB as
# at 256 MB, with the shortest length proven at both sizes.
PROBLEM = "zuko045"

# What an `info string` says of a proven shortest length (`MateStatus::describe`): the line's
# own length, or the proven length when the line shown is longer.
SHORTEST_PROVEN = [
    re.compile(r"^info string mate in (\d+): shortest proven"),
    re.compile(r"^info string the shortest mate is proven to take (\d+) plies"),
]


def famous_problem(name: str) -> tuple[str, int]:
    """The row of famous.tsv named `name`: (sfen, known length)."""
    path = problems_dir() / "famous.tsv"
    if not path.is_file():
        pytest.skip(f"{path} not found; set TSUMUGI_PROBLEMS")
    rows = [r for r in read_set(path) if r.name == name]
    assert len(rows) == 1, f"{path} has {len(rows)} rows named {name}"
    assert rows[0].plies is not None, rows[0]
    return rows[0].sfen, rows[0].plies


def test_long_problem_with_a_1_mb_table_answers_a_mate_of_the_known_length(engine):
    sfen, known = famous_problem(PROBLEM)
    engine.usi_handshake()
    engine.send("setoption name USI_Hash value 1")
    engine.send("isready")
    engine.wait_for("readyok", 30)
    engine.send(f"position sfen {sfen}")
    engine.send("go mate 20000")
    line, before = engine.wait_for("checkmate", 60)
    moves = line.split()[1:]
    assert moves and moves[0] not in ("nomate", "timeout", "notimplemented"), (line, before)
    ok, why = verify_mate_line(sfen, moves)
    assert ok, (why, line)
    proven = [int(m.group(1)) for b in before for p in SHORTEST_PROVEN if (m := p.match(b))]
    print(f"\n{PROBLEM}: {len(moves)} plies, proven shortest {proven or 'not claimed'}")
    for n in proven:
        assert n == known, (n, known, before)
        assert len(moves) >= n, (len(moves), n)
    # The table is far too small for what this search proves: the engine says so, once, and
    # the answer above is unaffected.
    full = [b for b in before if "is full of proven results" in b]
    assert len(full) == 1, before
    assert full[0].startswith("info string the table (1 MB) is full of proven results"), full


def resident_mb(pid: int) -> float | None:
    """VmRSS of a process in MB, or None where /proc does not say (not Linux)."""
    kb = proc_status_kb(pid).get("VmRSS")
    return None if kb is None else kb / 1024


def test_isready_makes_the_table_resident_and_usinewgame_keeps_it(engine):
    """`isready` touches every page of the table (so that the search does not pay the page
    faults), `usinewgame` clears it without giving the pages back, and the engine answers as
    before. 64 MB: large beside the process's other memory (about 25 MB with one thread)."""
    if resident_mb(engine.proc.pid) is None:
        pytest.skip("no /proc/<pid>/status here: the resident size cannot be read")
    engine.send("usi")
    engine.wait_for("usiok", 10)
    engine.send("setoption name USI_Hash value 64")
    engine.send("setoption name Threads value 2")
    before = resident_mb(engine.proc.pid)
    assert before is not None and before < 64, before
    engine.send("isready")
    engine.wait_for("readyok", 30)
    after = resident_mb(engine.proc.pid)
    assert after is not None and after >= before + 64, (before, after)
    engine.send("usinewgame")
    engine.send(f"position sfen {MATE3}")
    engine.send("go mate 10000")
    line, _ = engine.wait_for("checkmate", 30)
    ok, why = verify_mate_line(MATE3, line.split()[1:])
    assert ok and len(line.split()) == 4, (line, why)
    cleared = resident_mb(engine.proc.pid)
    assert cleared is not None and cleared >= before + 64, (before, after, cleared)
