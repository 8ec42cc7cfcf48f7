#!/usr/bin/env python3
"""Runs `tsumugi check` over rows of a problem set and prints a Markdown table.

Each row: the problem's name (or tags), its known length, the verdict, the line's length, the
proven strict bounds, the flaws and notes found (kind@ply), the open questions, the time. Every
mating line a finding shows is replayed with cshogi (the oracle); a failed replay is printed as
WRONG.

With --lines FILE (scripts/bench/classical-lines.tsv: name, source, plies, USI line, the
source's note), only the rows named there are checked, each against that line (`--solution`,
the published 作意 instead of the engine's line); the line is first replayed with cshogi
(legal, checks, checkmate at the end) and the source's note is printed beside the report.

Usage: .venv/bin/python scripts/bench/check.py SET.tsv [--match 無双,図巧] [--tags 無駄合]
       [--time-ms 60000] [--hash-mb 512] [--limit N] [--lines FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import cshogi

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools.mate_line import verify_mate_line  # noqa: E402
from tsumugi_tools.problems import read_set, set_path  # noqa: E402
from tsumugi_tools.usi import engine_path  # noqa: E402


def replays(sfen: str, line: list[str], f: dict) -> bool:
    """The finding's moves replay from the position before its ply; mating kinds end in mate."""
    b = cshogi.Board(sfen)
    for mv in line[: max(f["ply"] - 1, 0)]:
        b.push_usi(mv)
    for mv in f["moves"].split():
        if mv not in {cshogi.move_to_usi(m) for m in b.legal_moves}:
            return False
        b.push_usi(mv)
    if f["kind"] in ("alternative", "last_move_alternative", "transposition", "longer_defence",
                     "equal_variation", "variation_alternative", "fewer_spare_defence"):
        return b.is_check() and b.is_game_over() or f["kind"] != "alternative"
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set")
    ap.add_argument("--match", default="")
    ap.add_argument("--tags", default="")
    ap.add_argument("--time-ms", type=int, default=60000)
    ap.add_argument("--hash-mb", type=int, default=512)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--lines", help="check the rows named in this file against its lines")
    a = ap.parse_args()
    given = {}
    if a.lines:
        for row in Path(a.lines).read_text(encoding="utf-8").splitlines():
            cols = row.split("\t")
            if row.startswith("#") or len(cols) < 5 or cols[0] == "name":
                continue
            given[cols[0]] = (cols[3], cols[1], cols[4])
    path = set_path(a.set)
    if not path.exists():
        print(f"SKIPPED: {path} not found; set TSUMUGI_PROBLEMS")
        return 0
    rows = []
    for r in read_set(path):
        cols = r.cols
        if len(cols) < 2:
            continue
        label = " ".join(cols[2:4]) if len(cols) > 3 else ""
        if a.match and not any(m in label for m in a.match.split(",")):
            continue
        if a.tags and not any(t in label for t in a.tags.split(",")):
            continue
        name = cols[2] if len(cols) > 2 else ""
        if a.lines and name not in given:
            continue
        rows.append((cols[0], cols[1], name))
    if a.lines:
        missing = sorted(set(given) - {name for _, _, name in rows})
        if missing:
            print(f"not in {path.name} (not checked): {', '.join(missing)}", file=sys.stderr)
    if a.limit:
        rows = rows[: a.limit]
    print(f"`tsumugi check --time-ms {a.time_ms} --hash-mb {a.hash_mb}` on {path.name}"
          f"{' rows matching ' + a.match if a.match else ''}{' tags ' + a.tags if a.tags else ''}\n")
    extra = " source says |" if a.lines else ""
    print("| problem | known | verdict | line | strict bounds | flaws | notes | undecided | s |"
          + extra)
    print("|---|---|---|---|---|---|---|---|---|" + ("---|" if a.lines else ""))
    total = Counter()
    for sfen, known, name in rows:
        args = []
        if a.lines:
            if not verify_mate_line(sfen, given[name][0])[0]:
                print(f"| {name} | {known} | error | | | the given line does not mate | | | | "
                      f"{given[name][2]} |")
                continue
            args = ["--solution", given[name][0]]
        t0 = time.time()
        p = subprocess.run([str(engine_path()), "check", sfen, "--format", "json", "--time-ms",
                            str(a.time_ms), "--hash-mb", str(a.hash_mb), *args],
                           capture_output=True, text=True, timeout=a.time_ms / 1000 + 120)
        secs = time.time() - t0
        if not p.stdout.strip():
            print(f"| {name} | {known} | error | | | {p.stderr.strip()[:60]} | | | {secs:.1f} |")
            continue
        d = json.loads(p.stdout)
        line = d["line"].split()
        flaws, notes, wrong = Counter(), Counter(), 0
        for f in d["findings"]:
            (flaws if f["severity"] == "flaw" else notes)[f"{f['kind']}@{f['ply']}"] += 1
            if f["moves"] and not replays(d["sfen"], line, f):
                wrong += 1
        fmt = lambda c: ", ".join(f"{k}×{v}" if v > 1 else k for k, v in sorted(c.items()))
        bounds = f"{d['strict_lower']}–{d['strict_upper']}" if d["strict_upper"] else "-"
        total[d["verdict"]] += 1
        total["wrong"] += wrong
        print(f"| {name} | {known} | {d['verdict']}{' WRONG×' + str(wrong) if wrong else ''} "
              f"| {d['length']}{' (re-read)' if d.get('reread') else ''} | {bounds} "
              f"| {fmt(flaws)} | {len(d['findings']) - sum(flaws.values())} "
              f"| {len(d['undecided'])} | {secs:.1f} |"
              + (f" {given[name][2]} |" if a.lines else ""), flush=True)
    print(f"\ntotals: {dict(total)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
