#!/usr/bin/env python3
"""Batch benchmark: `tsumugi solve --batch` with --jobs N against --jobs 1, both in one run.

The positions (default: mate3-11.tsv and extra1-9.tsv, 1800 rows, then mate1.tsv up to
--count 3000) are written to one batch file and solved twice by the release binary: first with
--jobs 1, then with --jobs N (default 2), each with --hash-mb M per job and the same per-position
time limit. The wall time of each run is measured here around the process; every answer of
both runs is replayed with cshogi (every move legal, every attacker move a check, the end
checkmate) and its length compared with the set's. Prints both wall times and their ratio
(the goal is jobs-2 wall <= 0.6 x jobs-1 wall on an otherwise idle 2-core machine).
Nothing is typed in: every figure is measured in this run.

usage: scripts/bench/batch.py [--count 3000] [--jobs 2] [--hash-mb 64] [--time-ms 30000]
                              [--bin PATH]
  e.g. a smoke run: scripts/bench/batch.py --count 50
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT as ROOT  # noqa: E402
from tsumugi_tools.mate_line import verify_mate_line  # noqa: E402
from tsumugi_tools.problems import read_set, set_path  # noqa: E402


def run(bin_: str, batch: Path, jobs: int, hash_mb: int, time_ms: int) -> tuple[float, list[dict]]:
    cmd = [bin_, "solve", "--batch", str(batch), "--jobs", str(jobs), "--hash-mb", str(hash_mb),
           "--time-ms", str(time_ms), "--ordered"]
    start = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr}")
    sys.stderr.write(r.stderr)
    return wall, [json.loads(l) for l in r.stdout.splitlines()]


def check(out: list[dict], rows: list[tuple[str, str, str]], label: str) -> int:
    """Verifies every answer with cshogi; returns how many lengths equal the set's."""
    assert len(out) == len(rows), f"{label}: {len(out)} answers for {len(rows)} positions"
    equal = 0
    for o, (sfen, known, _) in zip(out, rows):
        assert o["input"] == sfen, (label, o["input"], sfen)
        if o["result"] != "mate":
            print(f"{label}: line {o['line']}: {o['result']} {o.get('reason', '')}")
            continue
        ok, why = verify_mate_line(sfen, o["moves"])
        if not ok:
            sys.exit(f"{label}: line {o['line']}: wrong answer: {why}")
        equal += str(o["length"]) == known
    return equal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--hash-mb", type=int, default=64)
    ap.add_argument("--time-ms", type=int, default=30000)
    ap.add_argument("--bin", default=str(ROOT / "target/release/tsumugi"))
    a = ap.parse_args()
    rows = []
    for name in ("mate3-11.tsv", "extra1-9.tsv", "mate1.tsv"):
        rows += [(r.sfen, r.expected, r.name) for r in read_set(set_path(name))]
    rows = rows[: a.count]
    with tempfile.TemporaryDirectory() as d:
        batch = Path(d) / "batch.txt"
        batch.write_text("".join(f"{s}\n" for s, _, _ in rows))
        w1, o1 = run(a.bin, batch, 1, a.hash_mb, a.time_ms)
        wn, on = run(a.bin, batch, a.jobs, a.hash_mb, a.time_ms)
    e1 = check(o1, rows, "jobs 1")
    en = check(on, rows, f"jobs {a.jobs}")
    mates = lambda out: sum(o["result"] == "mate" for o in out)  # noqa: E731
    print(f"positions {len(rows)} (mate3-11, extra1-9, then mate1), hash {a.hash_mb} MB per job, "
          f"time limit {a.time_ms} ms per position")
    print(f"jobs 1: wall {w1:.2f} s, {mates(o1)} mates verified, {e1} lengths equal to the set's")
    print(f"jobs {a.jobs}: wall {wn:.2f} s, {mates(on)} mates verified, {en} lengths equal to "
          f"the set's")
    print(f"ratio jobs {a.jobs} / jobs 1: {wn / w1:.3f} (target <= 0.6)")


if __name__ == "__main__":
    main()
