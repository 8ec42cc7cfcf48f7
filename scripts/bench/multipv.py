#!/usr/bin/env python3
"""What MultiPV costs: the time to the best line with `MultiPV 4` (its `info multipv 1` line)
against the time to `checkmate` with `MultiPV 1`, and what the other checks take after it.

Times are taken twice: by this script, from sending `go mate` to reading the line (what a GUI
sees; on a machine whose cores are all busy the reader itself waits for a core, and an engine
that goes on searching the other checks keeps one), and by the engine, the `time` of the line
(the search's own clock, to the moment the line is written).

Two engines of the same binary, one thread and the same `USI_Hash` each, one with `MultiPV 1`
and one with `MultiPV 4`, solve the same problems in turn (problem i: the first engine, then the
second, the order swapped every other problem), each after `usinewgame` (so every problem starts
from a table of its own, at no cost). Times are from sending `go mate` to reading the line;
nodes are those of the last `info` line before it (one thread searches the same nodes either
way, so equal node counts show the best line is the same search). Prints the medians and
per-problem ratios; `--json` writes every row. Run it on an idle core.

    .venv/bin/python scripts/bench/multipv.py [--set mate3-11.tsv] [--limit 200] \\
        [--time-ms 3000] [--hash 256] [--bin PATH] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools.machine import cpu_model  # noqa: E402
from tsumugi_tools.mate_line import verify_mate_line  # noqa: E402
from tsumugi_tools.problems import read_set, set_path  # noqa: E402
from tsumugi_tools.usi import UsiEngine  # noqa: E402


def field(line: str, name: str) -> int | None:
    words = line.split()
    return int(words[words.index(name) + 1]) if name in words else None


def nodes_of(line: str) -> int | None:
    return field(line, "nodes")


def solve(eng: UsiEngine, sfen: str, time_ms: int, multipv: int) -> dict:
    """One problem: seconds to the best line and to `checkmate`, the best line's nodes, the
    answer, and how many other checks mate."""
    eng.send("usinewgame")
    eng.send(f"position sfen {sfen}")
    t0 = time.perf_counter()
    eng.send(f"go mate {time_ms}")
    first = None
    first_nodes = None
    last_info = None
    lines = []
    for line in eng.read_lines(time_ms / 1000 + 60):
        t = time.perf_counter() - t0
        lines.append(line)
        if multipv > 1 and first is None and line.startswith("info multipv 1 "):
            first, first_nodes, engine_ms = t, nodes_of(line), field(line, "time")
        elif line.startswith("info ") and not line.startswith("info string"):
            last_info = line
        if line.startswith("checkmate"):
            done = t
            answer = line
            break
    if multipv == 1:
        first, first_nodes = done, nodes_of(last_info or "")
        engine_ms = field(last_info or "", "time")
    finals = {}
    for line in lines:
        if line.startswith("info multipv "):
            finals[int(line.split()[2])] = line
    other_mates = sum(1 for k, l in finals.items() if k > 1 and " score mate " in l)
    return {"first_s": first, "done_s": done, "nodes": first_nodes, "engine_ms": engine_ms,
            "answer": answer, "other_mates": other_mates}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="mate3-11.tsv")
    ap.add_argument("--limit", type=int, default=200, help="first N problems of the set")
    ap.add_argument("--time-ms", type=int, default=3000, help="go mate time per problem")
    ap.add_argument("--hash", type=int, default=256, help="USI_Hash of each engine (MB)")
    ap.add_argument("--multipv", type=int, default=4)
    ap.add_argument("--bin", help="engine binary (default: $TSUMUGI_BIN or target/release/tsumugi)")
    ap.add_argument("--json", help="write every row here")
    args = ap.parse_args()
    path = set_path(args.set)
    if not path.exists():
        print(f"skipped: {path} is absent (set TSUMUGI_PROBLEMS or put ../shared beside the "
              "repository)")
        return 0
    rows = [r for r in read_set(path) if r.expected != "nomate"][: args.limit]
    engines = {}
    for mpv in (1, args.multipv):
        eng = UsiEngine(args.bin)
        eng.usi_handshake(options={"USI_Hash": args.hash, "Threads": 1, "MultiPV": mpv})
        engines[mpv] = eng
    out = []
    try:
        for i, row in enumerate(rows):
            order = (1, args.multipv) if i % 2 == 0 else (args.multipv, 1)
            res = {mpv: solve(engines[mpv], row.sfen, args.time_ms, mpv) for mpv in order}
            one, many = res[1], res[args.multipv]
            for r in (one, many):
                moves = r["answer"].split()[1:]
                if moves:
                    ok, why = verify_mate_line(row.sfen, moves)
                    assert ok, (row.sfen, r["answer"], why)
            out.append({"line": row.line_no, "sfen": row.sfen, "one": one, "many": many})
    finally:
        for eng in engines.values():
            eng.close()
    ratios = [r["many"]["first_s"] / r["one"]["first_s"] for r in out]
    same_nodes = sum(1 for r in out if r["many"]["nodes"] == r["one"]["nodes"])
    same_answer = sum(1 for r in out if r["many"]["answer"] == r["one"]["answer"])
    extra = [r["many"]["done_s"] - r["many"]["first_s"] for r in out]
    with_alts = sum(1 for r in out if r["many"]["other_mates"] > 0)
    print(f"cpu: {cpu_model()}")
    print(f"set: {args.set}, {len(out)} problems, go mate {args.time_ms}, USI_Hash {args.hash}, "
          f"one thread each, MultiPV 1 against MultiPV {args.multipv}")
    print(f"time to the best line, MultiPV {args.multipv} / MultiPV 1: median "
          f"{statistics.median(ratios):.3f} (quartiles {statistics.quantiles(ratios, n=4)[0]:.3f}"
          f"-{statistics.quantiles(ratios, n=4)[2]:.3f})")
    print(f"median time to the best line: MultiPV 1 "
          f"{statistics.median(r['one']['first_s'] for r in out) * 1000:.1f} ms, MultiPV "
          f"{args.multipv} {statistics.median(r['many']['first_s'] for r in out) * 1000:.1f} ms")
    print(f"the engine's own time of the best line (its info line's `time`, ms): median "
          f"MultiPV 1 {statistics.median(r['one']['engine_ms'] for r in out)}, MultiPV "
          f"{args.multipv} {statistics.median(r['many']['engine_ms'] for r in out)}; sum "
          f"{sum(r['one']['engine_ms'] for r in out)} against "
          f"{sum(r['many']['engine_ms'] for r in out)}")
    print(f"best line's nodes equal: {same_nodes}/{len(out)}; same answer: {same_answer}/{len(out)}")
    print(f"the other checks after the best line: median {statistics.median(extra) * 1000:.1f} ms, "
          f"90th percentile {statistics.quantiles(extra, n=10)[8] * 1000:.1f} ms, max "
          f"{max(extra) * 1000:.1f} ms; problems with another mating first move: {with_alts}")
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "cpu": cpu_model(),
                                               "rows": out}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
