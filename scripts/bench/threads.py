#!/usr/bin/env python3
"""Threads benchmark: `Threads N` against `Threads 1`, side by side in one run.

Every problem is solved over USI (as a GUI does: `setoption`, `isready`, `position`, then
`go mate <ms>`, the time measured from `go mate` to the `checkmate` line) first with one
thread; if that takes at least --min-s seconds or finds no answer within the limit, it is
solved again at once with N threads (a problem unanswered with one thread gets --solved-s
seconds with N: it counts only in the totals, and a miss there is counted against N). The problems that take --min-s s to the limit with one
thread are the class the ratios are taken over (the median of time(N) / time(1)); a problem
unanswered with one thread counts only in the "answered within the limit" totals.

--post none times the first proof (tsumugi `PostSearch none`, KomoringHeights
`PostSearchLevel None`); --post shortest the default answer (tsumugi only). With --kh,
KomoringHeights 1.1.0 runs the same problems with 1 and N threads (its `Threads`), for the
record. Every figure is measured in this run; nothing is typed in.

usage: scripts/bench/threads.py [--set famous.tsv ...] [--post none|shortest] [--threads 2] [--solved-s 30]
                                [--time-ms 60000] [--min-s 1] [--hash-mb 1024] [--every K]
                                [--only NAME ...] [--rows FIRST-LAST] [--kh [PATH] [--kh-only]]
                                [--bin PATH]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT as ROOT  # noqa: E402
from tsumugi_tools.problems import matching, read_set, set_path  # noqa: E402
from tsumugi_tools.usi import EngineError, start_engine  # noqa: E402

# How long past its time limit an engine may take to answer before it counts as hung.
GRACE_S = 60.0
KH_DEFAULT = ROOT / ".anchors/KomoringHeights-1.1.0/source/KomoringHeights-by-gcc"


def run_usi(cmd: str, sfen: str, threads: int, hash_mb: int, ms: int, post: str,
            kh: bool) -> tuple[float | None, int | None]:
    """One `go mate`. Returns (seconds to the answer or None if none within `ms`, its length).
    With --post shortest an answer counts only when its minimality was proven (tsumugi's last
    `info string` before `checkmate` says `shortest proven`): a line printed at the time limit
    with an unproven length is the limit reached, not an answer."""
    opts: list[tuple[str, object]] = [("USI_Hash", hash_mb), ("Threads", threads),
                                      ("RootIsAndNodeIfChecked", "false")]
    if kh:
        opts.append(("PostSearchLevel", "None" if post == "none" else "MinLength"))
    else:
        opts.append(("PostSearch", post))
    eng = start_engine(cmd, opts)
    eng.send(f"position sfen {sfen}")
    start = time.monotonic()
    eng.send(f"go mate {ms}")
    took, length = None, None
    note = ""
    try:
        for line in eng.read_lines(ms / 1000 + GRACE_S):
            if line.startswith("info string"):
                note = line
            if line.startswith("checkmate"):
                words = line.split()[1:]
                final = post == "none" or kh or "shortest proven" in note
                if words and words[0] not in ("timeout", "nomate", "notimplemented") and final:
                    took, length = time.monotonic() - start, len(words)
                break
    except EngineError as e:  # hung (killed by close below) or dead: no answer
        print(f"{cmd}: {str(e).splitlines()[0]}", file=sys.stderr)
    eng.close()
    return took, length


def fmt(t: float | None) -> str:
    return "-" if t is None else f"{t:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--post", default="none", choices=["none", "shortest"])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--time-ms", type=int, default=60_000)
    ap.add_argument("--min-s", type=float, default=1.0)
    ap.add_argument("--solved-s", type=float, default=30.0,
                    help="also count the problems answered within this many seconds")
    ap.add_argument("--hash-mb", type=int, default=1024)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--rows", default=None,
                    help="first-last (0-based, inclusive): only these rows of each set")
    ap.add_argument("--kh", nargs="?", const=str(KH_DEFAULT), default=None)
    ap.add_argument("--bin", default=str(ROOT / "target/release/tsumugi"))
    ap.add_argument("--kh-only", action="store_true", help="with --kh: KomoringHeights alone")
    args = ap.parse_args()
    sets = args.set or ["famous.tsv", "long-ge50.tsv"]
    if args.kh and not Path(args.kh).exists():
        print(f"KomoringHeights not found at {args.kh}: run ../shared/anchors/build-kh .anchors",
              file=sys.stderr)
        return 2
    engines = [] if args.kh and args.kh_only else [("tsumugi", args.bin, False)]
    if args.kh:
        if args.post != "none":
            print("--kh compares first proofs only (--post none)", file=sys.stderr)
            return 2
        engines.append(("KomoringHeights", args.kh, True))
    n = args.threads
    limit = args.time_ms / 1000
    first, last = (int(x) for x in args.rows.split("-")) if args.rows else (0, sys.maxsize)
    print(f"Threads {n} against 1, post {args.post}, go mate {args.time_ms}, hash "
          f"{args.hash_mb} MB, class: {args.min_s:g} s to the limit with one thread, "
          f"{time.strftime('%Y-%m-%d')}")
    for name, cmd, kh in engines:
        ratios: list[float] = []
        answered = {1: 0, n: 0}
        within = {1: 0, n: 0}
        total = 0
        print(f"\n### {name}\n")
        print(f"| set | row | name | t(1) s | t({n}) s | ratio | len(1) | len({n}) |")
        print("|---|---|---|---|---|---|---|---|")
        for set_name in sets:
            path = set_path(set_name)
            if not path.exists():
                print(f"SKIPPED: {path} not found (set TSUMUGI_PROBLEMS)", file=sys.stderr)
                continue
            rows = matching(read_set(path), args.only)
            for i, row in enumerate(rows):
                sfen, label = row.sfen, row.name or row.sfen[:20]
                if i % args.every:
                    continue
                if not first <= i <= last:
                    continue
                total += 1
                t1, l1 = run_usi(cmd, sfen, 1, args.hash_mb, args.time_ms, args.post, kh)
                answered[1] += t1 is not None
                within[1] += t1 is not None and t1 <= args.solved_s
                if t1 is not None and t1 < args.min_s:
                    answered[n] += 1  # not run again: counted as answered by both
                    within[n] += 1
                    continue
                # Unanswered with one thread, the problem counts only in the "within
                # --solved-s" totals: N threads get that long.
                ms = (args.time_ms if t1 is not None
                      else min(args.time_ms, int(args.solved_s * 1000)))
                tn, ln = run_usi(cmd, sfen, n, args.hash_mb, ms, args.post, kh)
                answered[n] += tn is not None
                within[n] += tn is not None and tn <= args.solved_s
                ratio = ""
                if t1 is not None and tn is None:
                    ratio = f"{limit / t1:.2f} (N: none)"
                    ratios.append(limit / t1)
                elif t1 is not None:
                    r = tn / t1
                    ratios.append(r)
                    ratio = f"{r:.2f}"
                print(f"| {set_name} | {i} | {label[:24]} | {fmt(t1)} | {fmt(tn)} | {ratio} | "
                      f"{l1 or '-'} | {ln or '-'} |", flush=True)
        print()
        if ratios:
            q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
            print(f"{name}: {len(ratios)} problems in the class; time({n})/time(1): median "
                  f"{statistics.median(ratios):.3f} (quartiles {q[0]:.3f}, {q[2]:.3f}; a "
                  f"problem unanswered with {n} counted at the limit)")
        print(f"{name}: answered within {limit:g} s: {answered[1]} of {total} with 1 thread, "
              f"{answered[n]} with {n}")
        print(f"{name}: answered within {args.solved_s:g} s: {within[1]} of {total} with 1 "
              f"thread, {within[n]} with {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
