#!/usr/bin/env python3
"""Where a long search's nodes went, over time, from the engine's log (`RUST_LOG=info`).

The search logs a profile line every 16.8 M nodes of its main thread (see docs/cli.md): the
interval's nodes and seconds, how many were positions new to the table, how many children came
back unchanged, the plies of its nodes (p10, p50, p90, max) and hashfull. This reads those lines
from one or more stderr logs (--series LABEL=LOG), prints a Markdown table per run at --at
minutes (default every 10; each row the last profile line at or before that minute), and with
--out draws four panels against minutes from the first line's start: k nodes/s, new positions
(%), the median ply (p10-p90 shaded) and hashfull (‰). Every figure comes from the logs.

Minutes count from the start of the first profile interval of each log (its time stamp less
its seconds), which is the search's start to within a poll.

usage: .venv/bin/python scripts/bench/profile_plot.py --series 'tsumugi=engine.err' ...
           [--at 5,10,20,...] [--out profile.svg] [--title TEXT]
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from dataclasses import dataclass
from pathlib import Path

# The modules shared with the other scripts (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from tsumugi_tools.plotting import series_spec, table_minutes, use_japanese_font  # noqa: E402

LINE = re.compile(
    r"^\[(?P<stamp>\S+)\s.*search profile: (?P<nodes>\d+) nodes in (?P<secs>[\d.]+) s "
    r"\((?P<nps>\d+) nodes/s\), (?P<fresh>\d+) of them new positions \([\d.]+%\); "
    r"(?P<stuck>\d+) of (?P<calls>\d+) children searched came back unchanged; "
    r"plies p10 (?P<p10>\d+)\+? p50 (?P<p50>\d+)\+? p90 (?P<p90>\d+)\+? max (?P<max>\d+)\+?; "
    r"hashfull (?P<hashfull>\d+)")


@dataclass
class Interval:
    """One profile line: the interval that ends `end_s` seconds after the search's start."""
    end_s: float
    secs: float
    nodes: int
    fresh: int
    p10: int
    p50: int
    p90: int
    max_ply: int
    hashfull: int
    total: int  # main-thread nodes from the start to the end of this interval

    @property
    def fresh_pct(self) -> float:
        return 100.0 * self.fresh / self.nodes if self.nodes else 0.0

    @property
    def knps(self) -> float:
        return self.nodes / self.secs / 1000.0 if self.secs > 0 else 0.0


def parse_stamp(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00"))


def read_log(lines) -> list[Interval]:
    """The profile lines of one log, in order, timed from the start of the first interval."""
    out: list[Interval] = []
    start = None
    total = 0
    for line in lines:
        m = LINE.match(line.strip())
        if not m:
            continue
        stamp = parse_stamp(m["stamp"])
        secs = float(m["secs"])
        if start is None:
            start = stamp - dt.timedelta(seconds=secs)
        nodes = int(m["nodes"])
        total += nodes
        out.append(Interval((stamp - start).total_seconds(), secs, nodes, int(m["fresh"]),
                            int(m["p10"]), int(m["p50"]), int(m["p90"]), int(m["max"]),
                            int(m["hashfull"]), total))
    return out


def at_minutes(run: list[Interval], minutes: list[float]) -> list[Interval | None]:
    """For each minute, the last interval that ended by then (None before the first, or past
    the run's end by more than one interval)."""
    rows: list[Interval | None] = []
    for minute in minutes:
        t = minute * 60.0
        done = [iv for iv in run if iv.end_s <= t]
        if not done or (done[-1] is run[-1] and t - run[-1].end_s > max(run[-1].secs, 60.0)):
            rows.append(None)
        else:
            rows.append(done[-1])
    return rows


def table(label: str, run: list[Interval], minutes: list[float]) -> str:
    head = (f"{label}: {len(run)} profile lines, {run[-1].total / 1e6:,.1f} M main-thread nodes "
            f"in {run[-1].end_s / 60:.1f} min\n\n" if run else f"{label}: no profile line\n\n")
    rows = ["| minute | main-thread nodes (M) | k nodes/s | new positions | plies p10 / p50 / p90 "
            "| deepest | hashfull ‰ |", "|---:|---:|---:|---:|---|---:|---:|"]
    for minute, iv in zip(minutes, at_minutes(run, minutes)):
        if iv is None:
            rows.append(f"| {minute:g} | - | - | - | - | - | - |")
        else:
            rows.append(f"| {minute:g} | {iv.total / 1e6:,.0f} | {iv.knps:.0f} | "
                        f"{iv.fresh_pct:.0f}% | {iv.p10} / {iv.p50} / {iv.p90} | {iv.max_ply} | "
                        f"{iv.hashfull} |")
    return head + "\n".join(rows) + "\n"


def plot(runs: dict[str, list[Interval]], out: str, title: str | None) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    use_japanese_font(plt)
    fig, axes = plt.subplots(4, 1, figsize=(9, 11), sharex=True)
    for label, run in runs.items():
        x = [iv.end_s / 60 for iv in run]
        axes[0].plot(x, [iv.knps for iv in run], label=label)
        axes[1].plot(x, [iv.fresh_pct for iv in run], label=label)
        line, = axes[2].plot(x, [iv.p50 for iv in run], label=label)
        axes[2].fill_between(x, [iv.p10 for iv in run], [iv.p90 for iv in run],
                             color=line.get_color(), alpha=0.2)
        axes[3].plot(x, [iv.hashfull for iv in run], label=label)
    axes[0].set_ylabel("k nodes/s (main thread)")
    axes[1].set_ylabel("new positions (%)")
    axes[2].set_ylabel("ply of the nodes\n(median; p10-p90)")
    axes[3].set_ylabel("hashfull (‰)")
    axes[3].set_xlabel("minutes")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    axes[0].legend()
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--series", action="append", required=True, metavar="LABEL=LOG")
    ap.add_argument("--at", help="minutes for the table, comma-separated (default: every 10)")
    ap.add_argument("--out", help="the plot (SVG or PNG); needs matplotlib")
    ap.add_argument("--title")
    args = ap.parse_args(argv)

    runs: dict[str, list[Interval]] = {}
    for s in args.series:
        parsed = series_spec(s)
        if parsed is None:
            print(f"profile_plot: --series wants LABEL=LOG, got {s!r}", file=sys.stderr)
            return 2
        label, path = parsed
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                runs[label] = read_log(f)
        except OSError as e:
            print(f"profile_plot: {e}", file=sys.stderr)
            return 2
        if not runs[label]:
            print(f"profile_plot: no search profile line in {path} (was RUST_LOG=info set?)",
                  file=sys.stderr)
            return 2
    try:
        minutes = table_minutes(args.at, max(run[-1].end_s for run in runs.values()))
    except ValueError:
        print(f"profile_plot: --at wants minutes separated by commas, got {args.at!r}",
              file=sys.stderr)
        return 2
    for label, run in runs.items():
        print(table(label, run, minutes))
    if args.out:
        plot(runs, args.out, args.title)
    return 0


if __name__ == "__main__":
    sys.exit(main())
