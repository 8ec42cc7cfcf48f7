#!/usr/bin/env python3
"""Two builds of tsumugi side by side on the problem sets: is the new one slower?

Both binaries solve the same sets at once, one search thread each, each process pinned to its
own core (`taskset`), with `solve --batch --jobs 1 --ordered --no-defender-root` (the sets'
side to move is the attacker) and the same table size, time limit and post-search. A second
round swaps the cores, so that a faster core favours neither. Every mating line of both is
replayed with cshogi (legal, every attacker move a check, checkmate at the end) and its
length compared with the set's; a wrong answer is counted, never timed.

Per set and round the report gives each build's solved count, wrong count, total time, and the
ratio new/old of the totals over the problems both solved; then the median of the per-problem
ratios over the problems that took at least --min-ms for the old build (shorter ones are
mostly start-up and table clearing). Every figure is measured in this run; nothing is typed in.

usage: .venv/bin/python scripts/bench/versus.py --old BIN --new BIN [--set mate3-11.tsv ...]
           [--time-ms 3000] [--hash-mb 64] [--post shortest|none] [--every K] [--rounds 2]
           [--min-ms 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools.machine import cpu_model  # noqa: E402
from tsumugi_tools.mate_line import verify_mate_line  # noqa: E402
from tsumugi_tools.problems import read_set, set_path  # noqa: E402

DEFAULT_SETS = ["mate3-11.tsv", "extra1-9.tsv", "famous.tsv"]


def start(binary: str, core: int, batch: Path, args) -> subprocess.Popen:
    cmd = ["taskset", "-c", str(core), binary, "solve", "--batch", str(batch), "--jobs", "1",
           "--threads", "1", "--ordered", "--no-defender-root", "--hash-mb", str(args.hash_mb),
           "--time-ms", str(args.time_ms), "--post-search", args.post, "--format", "json"]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def judge(row, answer: dict, post: str) -> tuple[str, float]:
    """('solved' | 'wrong' | 'unsolved', seconds) for one answer against the set's row."""
    secs = answer.get("time_ms", 0) / 1000.0
    result = answer.get("result")
    if result == "mate":
        ok, _why = verify_mate_line(row.sfen, answer.get("moves", ""))
        if not ok or row.plies is None:
            return "wrong", secs
        if post == "shortest" and answer.get("length") != row.plies:
            # A longer line than the set's after the shortest-mate search is wrong only when
            # it is claimed minimal; otherwise the search ran out of time.
            return ("wrong" if answer.get("minimal") else "unsolved"), secs
        return "solved", secs
    if result == "nomate":
        return ("solved" if row.plies is None else "wrong"), secs
    return "unsolved", secs



def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--set", action="append", dest="sets")
    ap.add_argument("--time-ms", type=int, default=3000)
    ap.add_argument("--hash-mb", type=int, default=64)
    ap.add_argument("--post", choices=["shortest", "none"], default="shortest")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--min-ms", type=int, default=20)
    args = ap.parse_args()
    sets = args.sets or DEFAULT_SETS
    print(f"# {args.new} against {args.old}\n")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, CPU: {cpu_model()}; one "
          f"thread each, {args.hash_mb} MB, {args.time_ms} ms a problem, post-search "
          f"{args.post}, every {args.every}. Ratios are new/old.\n")
    print("| set | round (old core, new core) | problems | old solved / wrong | new solved / "
          "wrong | old total s | new total s | total ratio (both solved) | median ratio "
          f"(old ≥ {args.min_ms} ms) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    bad = 0
    for name in sets:
        path = set_path(name)
        if not path.exists():
            print(f"SKIPPED {name}: {path} not found", file=sys.stderr)
            continue
        rows = read_set(path)[:: args.every]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("".join(r.sfen + "\n" for r in rows))
            batch = Path(f.name)
        for rnd in range(args.rounds):
            cores = (0, 1) if rnd % 2 == 0 else (1, 0)
            print(f"{name}: round {rnd + 1}, {len(rows)} problems", file=sys.stderr)
            procs = [start(args.old, cores[0], batch, args), start(args.new, cores[1], batch, args)]
            outs = [p.communicate()[0] for p in procs]
            res = []
            for out in outs:
                answers = {}
                for line in out.splitlines():
                    if line.strip():
                        a = json.loads(line)
                        answers[a["line"]] = a
                res.append([judge(r, answers.get(i + 1, {}), args.post) for i, r in enumerate(rows)])
            both = [(o[1], n[1]) for o, n in zip(*res) if o[0] == n[0] == "solved"]
            ratios = [n / o for o, n in both if o * 1000 >= args.min_ms]
            counts = [(sum(v == "solved" for v, _ in r), sum(v == "wrong" for v, _ in r))
                      for r in res]
            bad += counts[0][1] + counts[1][1]
            tot = [sum(o for o, _ in both), sum(n for _, n in both)]
            med = f"{statistics.median(ratios):.3f} over {len(ratios)}" if ratios else "-"
            print(f"| {name} | {rnd + 1} ({cores[0]}, {cores[1]}) | {len(rows)} | "
                  f"{counts[0][0]} / {counts[0][1]} | {counts[1][0]} / {counts[1][1]} | "
                  f"{tot[0]:.1f} | {tot[1]:.1f} | {tot[1] / max(tot[0], 1e-9):.3f} | {med} |")
            sys.stdout.flush()
        batch.unlink()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
