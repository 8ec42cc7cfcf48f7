#!/usr/bin/env python3
"""Long-problem benchmark: time and nodes to the first proof, single thread.

Runs `tsumugi solve --post-search none --hash-mb M --time-ms T` on every problem of
long.tsv (Microcosmos 1525 plies, 図巧100番 611, ...) from the problem folder
($TSUMUGI_PROBLEMS, default ../shared/problems), measuring wall time and peak RSS (from
/proc via wait4's rusage), and prints a Markdown table. Nothing is typed in: every figure is
measured in this run.

usage: scripts/bench/long.py [--hash-mb 2048] [--time-ms 300000] [--only NAME] [--set long.tsv]
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT as ROOT  # noqa: E402
from tsumugi_tools.problems import matching, read_set, set_path  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hash-mb", type=int, default=2048)
    ap.add_argument("--time-ms", type=int, default=300_000)
    ap.add_argument("--set", default="long.tsv")
    ap.add_argument("--only", default=None, help="substring of the problem name")
    ap.add_argument("--bin", default=str(ROOT / "target/release/tsumugi"))
    args = ap.parse_args()

    path = set_path(args.set)
    if not path.exists():
        print(f"SKIPPED: {path} not found (set TSUMUGI_PROBLEMS)", file=sys.stderr)
        return 0
    rows = matching(read_set(path), [args.only] if args.only else [])

    print(f"hash {args.hash_mb} MB, limit {args.time_ms} ms, 1 thread, {time.strftime('%Y-%m-%d')}")
    print()
    print("| problem | known plies | result | plies | time s | nodes | nodes/s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        sfen, known, name = row.sfen, row.expected or "?", row.name or row.sfen[:20]
        start = time.monotonic()
        proc = subprocess.Popen(
            [args.bin, "solve", "--post-search", "none", "--no-defender-root",
             "--hash-mb", str(args.hash_mb),
             "--time-ms", str(args.time_ms), sfen],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        out = proc.stdout.read()
        err = proc.stderr.read()
        reply = out.strip().splitlines()[0] if out.strip() else "(no output)"
        stats = {}
        for tok_line in err.splitlines():
            t = tok_line.split()
            if t and t[0] == "nodes":
                stats = dict(zip(t[0::2], t[1::2]))
        if reply.startswith("checkmate ") and reply != "checkmate nomate" and reply != "checkmate timeout":
            result, plies = "mate", str(len(reply.split()) - 1)
        else:
            result, plies = reply.replace("checkmate ", ""), "-"
        rss_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
        print(f"| {name} | {known} | {result} | {plies} | {wall:.1f} | {stats.get('nodes', '?')} "
              f"| {stats.get('nps', '?')} | {rss_mb:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
