#!/usr/bin/env python3
"""Small-table benchmark: tsumugi and KomoringHeights at once, each with a small hash table.

Two threads, each driving its own engine over USI through the problem list independently
(`go mate <ms>`, Threads 1, the same USI_Hash, RootIsAndNodeIfChecked false): on a two-core
machine one search thread each is a fair same-run comparison. Each problem gets a fresh engine
process, so nothing carries over from one problem's table to the next. Both engines search the
shortest mate by default (tsumugi `PostSearch shortest`, KomoringHeights `PostSearchLevel
MinLength`); the options are left at their defaults.

Per problem and engine: the answer (a mating line, nomate, timeout, or none when the engine
hung or died), the seconds from `go mate` to `checkmate`, the line's length, and whether the
engine said the length is the proven shortest (tsumugi: its final `info string mate in N:
shortest proven; ...`, see docs/answers.md; KomoringHeights: a disproof result after its last
mate result, "no mate within L plies", which ends its MinLength search).

Wrong answers (what the benchmark is for): a mating line that cshogi does not replay as a mate
with the attacker, the side to move, moving first (odd length, legal moves, every attacker move
a check, checkmate at the end); any `nomate` (every row of these sets has a mate); a length
claimed proven shortest above the set's known length (column 2), and likewise a proven lower
bound above it. famous.tsv's rows marked "KH upper bound" in column 4 only bound the length
from above (KomoringHeights' line at a 30 s cut): a claim above such a length is listed apart,
as a disagreement with an unproven length, not counted wrong. A line longer than the known
length without a minimality claim is fine.

usage: scripts/bench/small_table.py [--set famous.tsv --set long-ge50.tsv] [--hash-mb 16]
           [--time-ms 30000] [--kh PATH] [--bin PATH] [--rows A-B | --limit N] [--only NAME]
           [--only-engine tsumugi|kh] [--json OUT]

Problems come from $TSUMUGI_PROBLEMS (default ../shared/problems); KomoringHeights as in
scripts/bench/shortest.py (--kh).
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shlex
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT as ROOT  # noqa: E402
from tsumugi_tools.mate_line import verify_mate_line  # noqa: E402
from tsumugi_tools.machine import cpu_model  # noqa: E402
from tsumugi_tools.problems import matching, read_set, set_path  # noqa: E402
from tsumugi_tools.usi import EngineError, start_engine  # noqa: E402

# How long past its time limit an engine may take to answer before it counts as hung.
GRACE_S = 60.0
KH_DEFAULT = ROOT / ".anchors/KomoringHeights-1.1.0/source/KomoringHeights-by-gcc"
DEFAULT_SETS = ["famous.tsv", "long-ge50.tsv"]
ENGINES = {"tsumugi": "tsumugi", "kh": "KomoringHeights"}


# -- reading the engines' output ------------------------------------------------------------


@dataclass
class Claims:
    """What an engine said about its answer's length, from its `info` lines."""

    minimal: int | None = None  # the shortest mate is proven to take this many plies
    lower: int | None = None  # no mate shorter than this (proven)
    upper: int | None = None  # a mate within this many plies (proven)
    minimal_at: float | None = None  # seconds from `go mate` when the minimum was proven
    status: str = ""  # the engine's own words (tsumugi's final info string, KH's last result)


# tsumugi's final `info string` on a mating answer (src/mate/result.rs, `MateStatus`).
TS_SHORTEST = re.compile(r"mate in (\d+)[:,] shortest proven")
TS_SHORTEST_LONGER_LINE = re.compile(r"the shortest mate is proven to take (\d+) plies")
TS_BETWEEN = re.compile(r"shortest (?:mate )?not proven:? \(?between (\d+) and (\d+) plies")
# Its round news: "no mate within L plies: the shortest mate takes N" (N alone: minimal).
TS_ROUND_MINIMAL = re.compile(r"^info string no mate within \d+ plies: the shortest mate takes \d+$")
# KomoringHeights' results (komoring_heights.cpp `SearchMainLoop`).
KH_MATE = re.compile(r"result: mate in (\d+)\(upper_bound:(\d+)\)")
KH_DISPROOF = re.compile(r"result: \{(?:disproof_hand|repetition)[^}]* len=(\d+)")


def tsumugi_claims(c: Claims, line: str, t: float) -> None:
    """Update `c` from one line of tsumugi's output read `t` seconds after `go mate`."""
    if not line.startswith("info string "):
        return
    if TS_ROUND_MINIMAL.match(line) and c.minimal_at is None:
        c.minimal_at = t
    m = TS_SHORTEST.search(line) or TS_SHORTEST_LONGER_LINE.search(line)
    if m:
        n = int(m.group(1))
        c.minimal, c.lower, c.upper, c.status = n, n, n, line[len("info string "):]
        if c.minimal_at is None:  # minimal without a refuting round (e.g. a mate in 1)
            c.minimal_at = t
        return
    m = TS_BETWEEN.search(line)
    if m:
        c.minimal = None
        c.lower, c.upper = int(m.group(1)), int(m.group(2))
        c.status = line[len("info string "):]


def kh_claims(c: Claims, line: str, t: float) -> None:
    """Update `c` from one line of KomoringHeights' output. With PostSearchLevel MinLength it
    searches for a mate 2 plies shorter than its last one until that fails; a disproof after a
    mate ("no mate within L") proves the minimum L+1. A disproof before any mate is its
    `nomate`, no claim about a length."""
    m = KH_MATE.search(line)
    if m:
        c.upper = int(m.group(2))
        c.status = line[line.index("result:"):]
        return
    m = KH_DISPROOF.search(line)
    if m:
        c.status = line[line.index("result:"):]
        if c.upper is not None:
            c.lower = int(m.group(1)) + 1
            c.minimal = c.lower
            c.minimal_at = t


# -- one problem, one engine -----------------------------------------------------------------


@dataclass
class Problem:
    set: str
    row: int  # 1-based among the set's problems
    line_no: int  # in the file
    name: str
    sfen: str
    known: int | None  # column 2; None when the row has none
    known_proven: bool  # False where column 4 says the length is an upper bound only


@dataclass
class Record:
    set: str
    row: int
    name: str
    known: int | None
    engine: str
    answer: str = "none"  # mate / nomate / timeout / none (hung, died, anything else)
    time_s: float | None = None  # from `go mate` to `checkmate`
    length: int | None = None
    moves: list[str] = field(default_factory=list)
    minimal: int | None = None
    lower: int | None = None
    upper: int | None = None
    minimal_at: float | None = None
    status: str = ""
    replay: str = ""  # cshogi's verdict on a mating line
    wrong: list[str] = field(default_factory=list)
    disputed: list[str] = field(default_factory=list)  # claims above an unproven set length
    error: str = ""

    @property
    def solved(self) -> bool:
        return self.answer == "mate" and not self.wrong

    @property
    def proven_minimal(self) -> bool:
        return self.solved and self.minimal is not None and self.minimal == self.length


def judge(p: Problem, r: Record) -> None:
    """Fill `r.replay`, `r.wrong` and `r.disputed` from the answer and the claims."""
    if r.answer == "nomate":
        r.wrong.append("nomate (the set's rows have mates)")
    if r.answer == "mate":
        if r.length % 2 == 0:
            ok, why = False, f"even length {r.length}: the attacker is the side to move"
        else:
            ok, why = verify_mate_line(p.sfen, r.moves)
        r.replay = "ok" if ok else why
        if not ok:
            r.wrong.append(f"line not a mate: {why}")
        if r.minimal is not None and r.minimal > r.length:
            r.wrong.append(f"claims the shortest mate takes {r.minimal} beside a {r.length}-ply line")
    if p.known is None:
        return
    claims = []
    if r.minimal is not None and r.minimal > p.known:
        claims.append(f"claims shortest {r.minimal} > known {p.known}")
    elif r.lower is not None and r.lower > p.known:
        claims.append(f"claims no mate below {r.lower} > known {p.known}")
    if p.known_proven:
        r.wrong.extend(claims)
    else:
        r.disputed.extend(f"{c} (the set's length is an upper bound)" for c in claims)


def run_one(kind: str, cmd: str, p: Problem, hash_mb: int, ms: int) -> Record:
    """One `go mate` in a fresh engine process."""
    r = Record(p.set, p.row, p.name, p.known, kind)
    c = Claims()
    watch = kh_claims if kind == "kh" else tsumugi_claims
    try:
        eng = start_engine(cmd, [("USI_Hash", hash_mb), ("Threads", 1),
                                 ("RootIsAndNodeIfChecked", "false")], declared_only=True)
    except (EngineError, OSError) as e:
        r.error = str(e).splitlines()[0]
        return r
    try:
        eng.send(f"position sfen {p.sfen}")
        start = time.monotonic()
        eng.send(f"go mate {ms}")
        for line in eng.read_lines(ms / 1000 + GRACE_S):
            t = time.monotonic() - start
            line = line.strip()
            watch(c, line, t)
            if line.startswith("checkmate"):
                r.time_s = t
                words = line.split()[1:]
                if words in (["nomate"], ["timeout"]):
                    r.answer = words[0]
                elif words and words[0] == "notimplemented":
                    r.answer = "none"
                else:
                    r.answer, r.moves, r.length = "mate", words, len(words)
                break
    except EngineError as e:  # hung (killed by close below) or dead: no answer
        r.error = str(e).splitlines()[0]
    finally:
        eng.close()
    r.minimal, r.lower, r.upper, r.minimal_at, r.status = (
        c.minimal, c.lower, c.upper, c.minimal_at, c.status)
    judge(p, r)
    return r


# -- the problem list --------------------------------------------------------------------------


def parse_rows(spec: str) -> tuple[int, int]:
    a, sep, b = spec.partition("-")
    if not a.isdigit() or (sep and not b.isdigit()) or int(a) < 1:
        raise argparse.ArgumentTypeError(f"--rows {spec!r}: expected A-B (1-based) or A")
    lo = int(a)
    hi = int(b) if sep else lo
    if hi < lo:
        raise argparse.ArgumentTypeError(f"--rows {spec!r}: B is below A")
    return lo, hi


def load_problems(sets: list[str], rows: tuple[int, int] | None, limit: int | None,
                  only: list[str]) -> list[Problem]:
    out = []
    for s in sets:
        path = set_path(s)
        if not path.exists():
            raise SystemExit(f"problem set not found: {path} (set TSUMUGI_PROBLEMS)")
        all_rows = read_set(path)
        chosen = []
        for i, row in enumerate(all_rows, 1):
            if rows and not rows[0] <= i <= rows[1]:
                continue
            if only and not matching([row], only):
                continue
            how = row.cols[3] if len(row.cols) > 3 else ""
            chosen.append(Problem(Path(s).name, i, row.line_no, row.name or f"row {i}", row.sfen,
                                  row.plies, "upper bound" not in how))
        out.extend(chosen[:limit] if limit else chosen)
    return out


# -- the report --------------------------------------------------------------------------------


def fmt_t(t: float | None) -> str:
    return "-" if t is None else f"{t:.1f}"


def answer_text(r: Record) -> str:
    if r.answer != "mate":
        return r.answer + (f" @ {fmt_t(r.time_s)}" if r.time_s is not None else "")
    mark = " (min)" if r.minimal is not None and r.minimal == r.length else ""
    bad = " WRONG" if r.wrong else ""
    return f"{r.length}{mark} @ {fmt_t(r.time_s)}{bad}"


def summary_rows(records: list[Record], label: str, kind: str) -> str:
    rs = [r for r in records if r.engine == kind]
    solved = [r for r in rs if r.solved]
    times = [r.time_s for r in solved]
    at_known = sum(1 for r in solved if r.known is not None and r.length == r.known)
    with_known = sum(1 for r in rs if r.known is not None)
    med = f"{statistics.median(times):.2f}" if times else "-"
    wrong = sum(1 for r in rs if r.wrong)
    disputed = sum(1 for r in rs if r.disputed)
    no_answer = sum(1 for r in rs if r.answer in ("timeout", "none"))
    return (f"| {label} | {ENGINES[kind]} | {len(rs)} | {len(solved)} | "
            f"{sum(1 for r in rs if r.proven_minimal)} | {at_known}/{with_known} | "
            f"{wrong} | {disputed} | {no_answer} | {med} |")


def differs(a: Record, b: Record) -> bool:
    key = lambda r: (r.answer, r.length, r.minimal is not None and r.minimal == r.length,
                     bool(r.wrong))
    return key(a) != key(b)


def report(records: list[Record], kinds: list[str], sets: list[str]) -> str:
    out = ["| set | engine | problems | solved | proven minimal | at known length | wrong "
           "| above an unproven set length | timeout or none | median s (solved) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    labels = [(s, [r for r in records if r.set == s]) for s in sets]
    if len(sets) > 1:
        labels.append(("all", records))
    for label, rs in labels:
        for kind in kinds:
            out.append(summary_rows(rs, label, kind))
    out.append("")
    out.append("\"solved\": a mating line within the limit that cshogi replays as a mate; \"proven "
               "minimal\": solved, and the engine said the line's length is the proven shortest; "
               "\"at known length\": solved with the set's length (of the rows that have one).")
    bad = [r for r in records if r.wrong]
    out.append("")
    out.append(f"Wrong answers: {len(bad)}" + (":" if bad else "."))
    for r in bad:
        out.append(f"- {ENGINES[r.engine]}, {r.set} row {r.row} ({r.name}, known {r.known}): "
                   f"{answer_text(r)}: {'; '.join(r.wrong)}")
    disputed = [r for r in records if r.disputed]
    if disputed:
        out.append("")
        out.append("Claims above a length the set gives as an upper bound only (not counted wrong):")
        for r in disputed:
            out.append(f"- {ENGINES[r.engine]}, {r.set} row {r.row} ({r.name}): {answer_text(r)}: "
                       f"{'; '.join(r.disputed)}")
    if len(kinds) == 2:
        by = {(r.set, r.row, r.engine): r for r in records}
        diff = []
        for r in records:
            if r.engine != kinds[0]:
                continue
            o = by.get((r.set, r.row, kinds[1]))
            if o is not None and differs(r, o):
                diff.append((r, o))
        out.append("")
        out.append(f"Problems where the answers differ ({len(diff)}; length, (min) when proven "
                   "minimal, seconds):")
        out.append("")
        out.append(f"| set | row | problem | known | {ENGINES[kinds[0]]} | {ENGINES[kinds[1]]} |")
        out.append("|---|---|---|---|---|---|")
        for a, b in diff:
            out.append(f"| {a.set} | {a.row} | {a.name} | {a.known if a.known else '-'} "
                       f"| {answer_text(a)} | {answer_text(b)} |")
    return "\n".join(out)


def engine_id(cmd: str) -> str:
    """The engine's `id name` (the handshake only)."""
    try:
        eng = start_engine(cmd, timeout=30)
    except (EngineError, OSError) as e:
        return f"(not started: {str(e).splitlines()[0]})"
    name = eng.id_name or "?"
    eng.close()
    return name


def git_head() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", action="append", help=f"a problem set (repeatable; default "
                    f"{' and '.join(DEFAULT_SETS)})")
    ap.add_argument("--hash-mb", type=int, default=16)
    ap.add_argument("--time-ms", type=int, default=30_000, help="per problem (`go mate <ms>`)")
    ap.add_argument("--kh", default=str(KH_DEFAULT))
    ap.add_argument("--bin", default=str(ROOT / "target/release/tsumugi"))
    ap.add_argument("--rows", type=parse_rows, help="A-B: only these rows of each set (1-based)")
    ap.add_argument("--limit", type=int, help="only the first N problems of each set")
    ap.add_argument("--only", action="append", default=[], help="rows whose name contains this")
    ap.add_argument("--only-engine", choices=sorted(ENGINES))
    ap.add_argument("--json", help="write the per-problem records here")
    args = ap.parse_args()
    sets = args.set or DEFAULT_SETS
    kinds = [args.only_engine] if args.only_engine else ["tsumugi", "kh"]
    cmds = {"tsumugi": args.bin, "kh": args.kh}
    for k in kinds:
        if not Path(cmds[k]).exists():
            print(f"{ENGINES[k]} not found at {cmds[k]}", file=sys.stderr)
            return 2
    problems = load_problems(sets, args.rows, args.limit, args.only)
    ids = {k: engine_id(cmds[k]) for k in kinds}

    records: list[Record] = []
    lock = threading.Lock()

    def drive(kind: str) -> None:
        for p in problems:
            r = run_one(kind, cmds[kind], p, args.hash_mb, args.time_ms)
            with lock:
                records.append(r)
                print(f"{ENGINES[kind]}: {p.set} row {p.row} ({p.name}): {answer_text(r)}"
                      + (f" [{r.error}]" if r.error else ""), file=sys.stderr, flush=True)

    started = time.strftime("%Y-%m-%d %H:%M")
    threads = [threading.Thread(target=drive, args=(k,), daemon=True) for k in kinds]
    for t in threads:
        t.start()
    for t in threads:
        while t.is_alive():
            t.join(1.0)
    order = {(p.set, p.row): i for i, p in enumerate(problems)}
    records.sort(key=lambda r: (order[(r.set, r.row)], kinds.index(r.engine)))

    set_names = [Path(s).name for s in sets]
    print(f"# Small-table benchmark, {started}")
    print()
    print(f"hash {args.hash_mb} MB, go mate {args.time_ms} ms, one search thread per engine, "
          f"{'both engines at once' if len(kinds) == 2 else 'one engine'}; seconds from `go mate`; "
          f"commit {git_head()}; CPU {cpu_model()} ({platform.machine()})")
    print()
    for k in kinds:
        print(f"- {ENGINES[k]}: `{cmds[k]}` ({ids[k]}), setoption USI_Hash {args.hash_mb}, "
              f"Threads 1, RootIsAndNodeIfChecked false")
    print(f"- command: `{shlex.join([sys.argv[0], *sys.argv[1:]])}`")
    print()
    print(report(records, kinds, set_names))
    if args.json:
        meta = {"date": started, "hash_mb": args.hash_mb, "time_ms": args.time_ms,
                "commit": git_head(), "cpu": cpu_model(), "sets": set_names,
                "engines": {k: {"path": cmds[k], "id": ids[k]} for k in kinds},
                "command": sys.argv}
        recs = [{**asdict(r), "solved": r.solved, "proven_minimal": r.proven_minimal}
                for r in records]
        Path(args.json).write_text(json.dumps({"meta": meta, "records": recs}, ensure_ascii=False,
                                              indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
