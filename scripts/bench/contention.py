#!/usr/bin/env python3
"""Shared-table contention: the same first proofs with 1, 2, 4 and 8 threads, in one run.

For each thread count, solves a fixed sample of problems (`tsumugi solve --post-search none`,
RUST_LOG=info for the solver's per-solve line on the shared table) one after the other and
sums, over the problems every count solved: search time (the solver's own), nodes (all threads), the helpers'
nodes, and the table's lock waits (acquisitions that found their stripe held) and spin rounds.
From those it prints nodes/s (all threads), the duplicated-node rate (nodes(N) / nodes(1) - 1:
the work the threads did beyond what one thread needed) and lock waits per 1000 nodes. Every
figure is measured in this run; nothing is typed in.

usage: scripts/bench/contention.py [--threads 1,2,4,8] [--set famous.tsv] [--every 8]
                                    [--min-nodes 200000] [--time-ms 30000] [--hash-mb 1024]
                                    [--bin PATH]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT as ROOT  # noqa: E402
from tsumugi_tools.problems import read_set, set_path  # noqa: E402

LOCK_LINE = re.compile(r"(\d+) threads: (\d+) nodes \((\d+) by the helpers\), table lock waits "
                       r"(\d+) \([\d.]+ per 1000 nodes\), spin rounds (\d+)")


def solve(bin_path: str, sfen: str, threads: int, ms: int, hash_mb: int) -> dict | None:
    """One first proof; None when it finds no mate within `ms`."""
    env = dict(os.environ, RUST_LOG="info")
    p = subprocess.run([bin_path, "solve", "--post-search", "none", "--no-defender-root",
                        "--threads", str(threads), "--hash-mb", str(hash_mb), "--time-ms",
                        str(ms), sfen], capture_output=True, text=True, env=env)
    answer = p.stdout.strip().splitlines()[0] if p.stdout.strip() else ""
    if not answer.startswith("checkmate ") or answer.split()[1] in ("nomate", "timeout"):
        return None
    r = {"wall": 0.0, "nodes": 0, "helpers": 0, "waits": 0, "spins": 0}
    for line in p.stderr.splitlines():
        t = line.split()
        if t and t[0] == "nodes":
            r["nodes"], r["wall"] = int(t[1]), int(t[3]) / 1000
        m = LOCK_LINE.search(line)
        if m:
            r["helpers"], r["waits"], r["spins"] = (int(m.group(i)) for i in (3, 4, 5))
    return r


def solve_pair(bin_path: str, sfen: str, ms: int, hash_mb: int) -> float:
    """Nodes/s of two one-thread solves of `sfen` run at once as separate processes (each with
    its own table): what the machine gives two threads that share nothing but the hardware."""
    env = dict(os.environ, RUST_LOG="warn")
    cmd = [bin_path, "solve", "--post-search", "none", "--no-defender-root", "--threads", "1",
           "--hash-mb", str(hash_mb), "--time-ms", str(ms), sfen]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env) for _ in range(2)]
    total = 0.0
    for p in procs:
        _, err = p.communicate()
        for line in err.splitlines():
            t = line.split()
            if t and t[0] == "nodes" and int(t[3]) > 0:
                total += int(t[1]) / (int(t[3]) / 1000)
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", default="1,2,4,8")
    ap.add_argument("--set", default="famous.tsv")
    ap.add_argument("--every", type=int, default=8)
    ap.add_argument("--min-nodes", type=int, default=200_000,
                    help="keep the sampled problems whose one-thread proof takes this many nodes")
    ap.add_argument("--time-ms", type=int, default=30_000)
    ap.add_argument("--hash-mb", type=int, default=1024)
    ap.add_argument("--bin", default=str(ROOT / "target/release/tsumugi"))
    args = ap.parse_args()
    counts = [int(x) for x in args.threads.split(",")]
    path = set_path(args.set)
    if not path.exists():
        print(f"SKIPPED: {path} not found (set TSUMUGI_PROBLEMS)", file=sys.stderr)
        return 0
    rows = [r.sfen for i, r in enumerate(read_set(path)) if i % args.every == 0]
    print(f"Contention: first proofs of every {args.every}th problem of {args.set} taking at "
          f"least {args.min_nodes} nodes with one thread; threads {counts}; hash "
          f"{args.hash_mb} MB; {os.cpu_count()} cores; {time.strftime('%Y-%m-%d')}\n")
    results: dict[int, list[dict | None]] = {}
    base = [solve(args.bin, sfen, 1, args.time_ms, args.hash_mb) for sfen in rows]
    keep = [i for i, r in enumerate(base) if r and r["nodes"] >= args.min_nodes]
    results[1] = [base[i] for i in keep]
    for n in counts:
        if n != 1:
            results[n] = [solve(args.bin, rows[i], n, args.time_ms, args.hash_mb)
                          for i in keep]
    common = [k for k in range(len(keep)) if all(results[n][k] for n in counts)]
    print(f"{len(keep)} problems sampled, {len(common)} solved with every thread count\n")
    print("| threads | search s | nodes (all threads) | helpers' nodes | nodes/s | duplicated "
          "nodes | lock waits / 1000 nodes | spin rounds / wait |")
    print("|---|---|---|---|---|---|---|---|")
    n1 = sum(results[1][k]["nodes"] for k in common)
    for n in counts:
        s = {f: sum(results[n][k][f] for k in common) for f in
             ("wall", "nodes", "helpers", "waits", "spins")}
        nps = s["nodes"] / s["wall"] if s["wall"] else 0
        dup = s["nodes"] / n1 - 1 if n1 else 0
        per_k = 1000 * s["waits"] / s["nodes"] if s["nodes"] else 0
        spins = s["spins"] / s["waits"] if s["waits"] else 0
        print(f"| {n} | {s['wall']:.1f} | {s['nodes']:,} | {s['helpers']:,} | {nps:,.0f} | "
              f"{dup:+.1%} | {per_k:.3f} | {spins:.0f} |", flush=True)
    pair_nps = {k: solve_pair(args.bin, rows[keep[k]], args.time_ms, args.hash_mb)
                for k in common}
    one = n1 / sum(results[1][k]["wall"] for k in common)
    weighted = sum(pair_nps[k] * results[1][k]["nodes"] for k in common) / n1
    print(f"\nThe hardware alone: two one-thread solves of each problem at once, as separate "
          f"processes with their own tables: {weighted:,.0f} nodes/s together (node-weighted "
          f"mean), against {one:,.0f} for one alone ({weighted / one:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
