#!/usr/bin/env python3
"""Long-problem benchmark: time and nodes to the first proof, single thread.

Runs `tsumugi solve --post-search none --hash-mb M --time-ms T` on every problem of
long.tsv (Microcosmos 1525 plies, 図巧100番 611, ...) from the problem folder
($TSUMUGI_PROBLEMS, default ../shared/problems), measuring wall time and peak RSS (from
/proc via wait4's rusage), and prints a Markdown table. Nothing is typed in: every figure is
measured in this run.

usage: scripts/bench_long.py [--hash-mb 2048] [--time-ms 300000] [--only NAME] [--set long.tsv]
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def set_path(name: str) -> Path:
    """A problem set's file in $TSUMUGI_PROBLEMS (default ../shared/problems)."""
    problems = Path(os.environ.get("TSUMUGI_PROBLEMS", ROOT.parent / "shared/problems"))
    return problems / name


def read_rows(path: Path, only: list[str]) -> list[tuple[str, str, str]]:
    """(sfen, known length, name) of each problem of a set whose name contains one of `only`
    (every problem when `only` is empty); comments and the header are skipped."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("sfen\t"):
            continue
        f = line.split("\t")
        name = f[2] if len(f) > 2 else f[0][:20]
        if only and not any(o in name for o in only):
            continue
        rows.append((f[0], f[1] if len(f) > 1 else "?", name))
    return rows


class UsiEngine:
    """An engine process driven over USI as a GUI does: `usi`, the `options` (name, value),
    `isready`; then `send` lines and read `stdout`; `quit` ends it."""

    def __init__(self, cmd: str, options: list[tuple[str, object]]):
        # The engine runs in its own folder (KomoringHeights reads files beside it), so a
        # relative path such as `--bin target/release/tsumugi` is made absolute first; a bare
        # name is left for the PATH lookup.
        if os.sep in cmd:
            cmd = str(Path(cmd).resolve())
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1, cwd=str(Path(cmd).parent))
        self.stdout = self.p.stdout
        self.send("usi")
        self.wait("usiok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word: str) -> None:
        for line in self.stdout:
            if line.startswith(word):
                return

    def quit(self) -> None:
        self.send("quit")
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()


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
    rows = read_rows(path, [args.only] if args.only else [])

    print(f"hash {args.hash_mb} MB, limit {args.time_ms} ms, 1 thread, {time.strftime('%Y-%m-%d')}")
    print()
    print("| problem | known plies | result | plies | time s | nodes | nodes/s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|")
    for sfen, known, name in rows:
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
