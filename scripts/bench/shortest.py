#!/usr/bin/env python3
"""Shortest-mate benchmark: tsumugi against KomoringHeights, one after the other in one run.

Both engines are driven over USI as a GUI would (`go mate <ms>`, 1 thread, the same USI_Hash,
RootIsAndNodeIfChecked false). From their `info` lines the script records when each engine's
proven bound (tsumugi's `score mate N`, KomoringHeights' "upper_bound:N" of each result, which
is also its line's length once they meet) first reaches each length, when the minimum was
proven (tsumugi: `info string no mate within L plies: the shortest mate takes N`;
KomoringHeights: its final disproof result), and the answer. Every figure is measured in this
run; nothing is typed in.

The engines run one after the other on each problem; with --together both at once (one
thread each, each engine with one search thread: a fair same-run comparison on two cores).

usage: scripts/bench/shortest.py [--set long.tsv] [--only NAME ...] [--time-ms 150000]
                                  [--hash-mb 2048] [--kh PATH] [--bin PATH] [--together]

KomoringHeights is built by ../shared/anchors/build-kh (its path: `build-kh .anchors`, the
default --kh). Problems come from $TSUMUGI_PROBLEMS (default ../shared/problems).
"""

from __future__ import annotations

import argparse
import re
import sys
import threading
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


def run_engine(cmd: str, sfen: str, hash_mb: int, ms: int, kh: bool) -> dict:
    """One `go mate` over USI. Returns the timeline [(seconds, proven bound)], the time the
    minimum was proven, and the answer with its time."""
    eng = start_engine(cmd, [("USI_Hash", hash_mb), ("Threads", 1),
                             ("RootIsAndNodeIfChecked", "false")])
    eng.send(f"position sfen {sfen}")
    start = time.monotonic()
    eng.send(f"go mate {ms}")
    timeline: list[tuple[float, int]] = []
    minimal_at = None
    answer, answer_at = None, None
    try:
        for line in eng.read_lines(ms / 1000 + GRACE_S):
            t = time.monotonic() - start
            line = line.strip()
            length = None
            if kh:
                m = re.search(r"result: mate in \d+\(upper_bound:(\d+)\)", line)
                if m:
                    length = int(m.group(1))
                if "result: {disproof_hand" in line:
                    minimal_at = t
            else:
                m = re.search(r" score mate (\d+)", line)
                if line.startswith("info ") and m:
                    length = int(m.group(1))
                # "...: the shortest mate takes N" (not "N to M"): the minimum is proven.
                if re.match(r"info string no mate within \d+ plies: the shortest mate takes \d+$",
                            line):
                    minimal_at = t
            if length is not None and (not timeline or length < timeline[-1][1]):
                timeline.append((t, length))
            if line.startswith("checkmate"):
                answer, answer_at = line.split()[1:], t
                break
    except EngineError as e:  # hung (killed by close below) or dead: no answer
        print(f"{cmd}: {str(e).splitlines()[0]}", file=sys.stderr)
    eng.close()
    return {"timeline": timeline, "minimal_at": minimal_at, "answer": answer,
            "answer_at": answer_at}


def first_at(timeline: list[tuple[float, int]], target: int) -> float | None:
    return next((t for t, n in timeline if n <= target), None)


def fmt(t: float | None) -> str:
    return "-" if t is None else f"{t:.1f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="long.tsv")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--time-ms", type=int, default=150_000)
    ap.add_argument("--hash-mb", type=int, default=2048)
    ap.add_argument("--kh", default=str(KH_DEFAULT))
    ap.add_argument("--bin", default=str(ROOT / "target/release/tsumugi"))
    ap.add_argument("--together", action="store_true",
                    help="run the two engines at once on each problem (one thread each)")
    args = ap.parse_args()
    path = set_path(args.set)
    if not path.exists():
        print(f"SKIPPED: {path} not found (set TSUMUGI_PROBLEMS)", file=sys.stderr)
        return 0
    if not Path(args.kh).exists():
        print(f"KomoringHeights not found at {args.kh}: run ../shared/anchors/build-kh .anchors",
              file=sys.stderr)
        return 2
    rows = [(r.sfen, int(r.expected), r.name or r.sfen[:20])
            for r in matching(read_set(path), args.only)]

    print(f"hash {args.hash_mb} MB, go mate {args.time_ms}, 1 thread, "
          f"{'both engines at once' if args.together else 'one engine after the other'}, "
          f"{time.strftime('%Y-%m-%d')}; seconds from `go mate`")
    print()
    print("| problem | known | engine | first bound | bound at known length | minimum proven "
          "| answer | timeline (bound@s) |")
    print("|---|---|---|---|---|---|---|---|")
    engines = [("tsumugi", args.bin, False), ("KomoringHeights", args.kh, True)]
    for sfen, known, name in rows:
        if args.together:
            results: list = [None, None]

            def one(i: int) -> None:
                try:
                    results[i] = run_engine(engines[i][1], sfen, args.hash_mb, args.time_ms,
                                            engines[i][2])
                except BaseException as e:  # raised again below, in the main thread
                    results[i] = e

            threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                while t.is_alive():
                    t.join(1.0)
            for r in results:
                if isinstance(r, BaseException):
                    raise r
        else:
            results = [None, None]
        for i, (label, cmd, kh) in enumerate(engines):
            r = results[i] or run_engine(cmd, sfen, args.hash_mb, args.time_ms, kh)
            tl = r["timeline"]
            first = f"{tl[0][1]} @ {tl[0][0]:.1f}" if tl else "-"
            ans = r["answer"]
            if ans is None:
                answer = "(none)"
            elif ans in (["nomate"], ["timeout"]):
                answer = f"{ans[0]} @ {fmt(r['answer_at'])}"
            else:
                answer = f"{len(ans)} @ {fmt(r['answer_at'])}"
            steps = " ".join(f"{n}@{t:.0f}" for t, n in tl)
            print(f"| {name} | {known} | {label} | {first} | {fmt(first_at(tl, known))} "
                  f"| {fmt(r['minimal_at'])} | {answer} | {steps} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
