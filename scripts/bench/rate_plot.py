#!/usr/bin/env python3
"""Nodes per second and hashfull over a long search, from the sample CSVs of soak.py.

Each --series LABEL=CSV names one run (soak.py --csv: elapsed_s, nodes, hashfull, ...). The
rate is the node difference between samples --window seconds apart (so that a collection's
pause or a noisy half-minute does not dominate), the same measure for every run. Draws two
panels, k nodes/s and hashfull (% of the table), against minutes from `go mate`, to --out
(SVG or PNG, by its extension), and prints a Markdown table of the rate and hashfull at
--at minutes (default every 10) for each run. Every figure comes from the CSVs.

usage: .venv/bin/python scripts/bench/rate_plot.py --series 'tsumugi 16 GB=run.csv' ...
           [--window 120] [--at 5,10,20,...] [--out rates.svg] [--title TEXT]
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

# The modules shared with the other scripts (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from tsumugi_tools.plotting import series_spec, table_minutes, use_japanese_font  # noqa: E402


def read_samples(path: str) -> list[tuple[float, int, int | None]]:
    """(seconds, nodes, hashfull ‰) of each sample that carries nodes, in time order."""
    out = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if not row.get("nodes"):
                continue
            hf = row.get("hashfull")
            out.append((float(row["elapsed_s"]), int(row["nodes"]),
                        int(hf) if hf not in (None, "") else None))
    out.sort()
    return out


def rates(samples: list[tuple[float, int, int | None]], window: float) -> list[tuple[float, float]]:
    """(seconds, nodes/s over the `window` seconds ending there) for each sample at least one
    window from the first one (a shorter span at the start: from the first sample)."""
    out = []
    j = 0
    for t, n, _ in samples[1:]:
        while j + 1 < len(samples) and samples[j + 1][0] <= t - window:
            j += 1
        t0, n0, _ = samples[j]
        if t > t0:
            out.append((t, (n - n0) / (t - t0)))
    return out


def at(series: list[tuple[float, float]], t: float) -> float | None:
    """The value of the last point at or before t (None before the first)."""
    v = None
    for ti, x in series:
        if ti > t:
            break
        v = x
    return v


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--series", action="append", required=True, metavar="LABEL=CSV")
    ap.add_argument("--window", type=float, default=120.0,
                    help="seconds over which each rate is taken (default 120)")
    ap.add_argument("--at", default=None,
                    help="minutes for the table, comma-separated (default: every 10)")
    ap.add_argument("--out", help="the plot (SVG or PNG); needs matplotlib")
    ap.add_argument("--title", default="nodes per second over a long search")
    args = ap.parse_args(argv)
    runs = []
    for spec in args.series:
        parsed = series_spec(spec)
        if parsed is None:
            print(f"rate_plot: --series must be LABEL=CSV, not {spec!r}", file=sys.stderr)
            return 2
        label, path = parsed
        try:
            samples = read_samples(path)
        except (OSError, KeyError, ValueError) as e:
            print(f"rate_plot: {path}: {e}", file=sys.stderr)
            return 2
        if len(samples) < 2:
            print(f"rate_plot: {path}: fewer than two samples with nodes", file=sys.stderr)
            return 2
        runs.append((label, samples, rates(samples, args.window)))

    end = max(s[-1][0] for _, s, _ in runs)
    try:
        minutes = table_minutes(args.at, end)
    except ValueError:
        print(f"rate_plot: --at wants minutes separated by commas, not {args.at!r}",
              file=sys.stderr)
        return 2
    print(f"k nodes/s over the {args.window:g} s before each time, and hashfull (‰)")
    print()
    print("| minutes | " + " | ".join(f"{lb}: k nodes/s | {lb}: hashfull ‰"
                                         for lb, _, _ in runs) + " |")
    print("|---:|" + "---:|---:|" * len(runs))
    for m in minutes:
        cells = []
        for _, samples, rr in runs:
            if m * 60 > samples[-1][0] + 1:  # past the end of this run
                cells += ["-", "-"]
                continue
            r = at(rr, m * 60)
            hf = at([(t, h) for t, _, h in samples if h is not None], m * 60)
            cells.append("-" if r is None else f"{r / 1000:.0f}")
            cells.append("-" if hf is None else str(hf))
        print(f"| {m:g} | " + " | ".join(cells) + " |")

    if args.out:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("rate_plot: --out needs matplotlib (run scripts/venv and use .venv/bin/python)",
                  file=sys.stderr)
            return 2
        use_japanese_font(plt)
        fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4))
        for label, samples, rr in runs:
            a.plot([t / 60 for t, _ in rr], [v / 1000 for _, v in rr], "-", label=label)
            hf = [(t / 60, h / 10) for t, _, h in samples if h is not None]
            b.plot([t for t, _ in hf], [h for _, h in hf], "-", label=label)
        a.set_ylabel(f"k nodes/s (over {args.window:g} s)")
        b.set_ylabel("hashfull, % of the table")
        for ax in (a, b):
            ax.set_xlabel("minutes from go mate")
            ax.set_xlim(left=0)
            ax.set_ylim(bottom=0)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
        fig.suptitle(args.title, fontsize=11)
        fig.tight_layout()
        fig.savefig(args.out)
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
