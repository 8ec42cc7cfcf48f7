#!/usr/bin/env python3
"""Hardest-problem benchmark: tsumugi and KomoringHeights at once on the longest mates of
long.tsv, with large tables and long time limits.

Per problem, two threads of this script each start one engine process and drive it over USI
as a GUI would: the same USI_Hash and Threads, RootIsAndNodeIfChecked false for
KomoringHeights (its other options, and all of tsumugi's, at their defaults: both search the
shortest mate after the first proof), and `go mate <ms>` sent to both at the same moment (after
both handshakes, which allocate the tables). With one search thread each this is a fair
same-run comparison on two cores. --one-at-a-time runs tsumugi, then KomoringHeights, for
tables too large to be held twice.

Recorded per engine, in seconds from `go mate`:
- every `info` line that carries nodes: (t, nodes, nps, hashfull), thinned to the last line of
  each --series-every interval. The plot's nodes/s are node differences between those samples,
  the same measure for both engines (tsumugi's `nps` is its mean since `go mate`,
  KomoringHeights' a rate over its last few outputs; both are kept in the JSON as printed);
- the first proof: tsumugi's first `info ... score mate N`; KomoringHeights' first "result:
  mate in N(upper_bound:U)" (U is its proven bound, N its line's length);
- the proven bounds on the shortest mate as they change, and when the minimum was proven
  (tsumugi: `info string no mate within L plies: the shortest mate takes N`; KomoringHeights:
  a disproof result after its last mate result);
- the `checkmate` answer and its time, the line replayed with cshogi (every problem here is a
  mate: `nomate` is wrong, `timeout` no answer);
- the peak resident memory of each engine process (VmHWM of /proc/PID/status).

The published KomoringHeights v0.5.0 times of the seven default problems (one thread, AWS
r5.xlarge, 29 GB table, as published by its author) stand beside the measured ones for
reference; they were not measured here.

usage: .venv/bin/python scripts/bench/hardest.py [--set long.tsv] [--only NAME ...]
           [--time-s 600] [--hash-mb 8192] [--threads 1] [--one-at-a-time]
           [--series-every 10] [--kh PATH] [--bin PATH] [--json OUT] [--plot OUT.svg]
       .venv/bin/python scripts/bench/hardest.py --replot OUT.json [--plot OUT.svg]

The Markdown report goes to stdout, progress to stderr. --json is rewritten after each
problem, so a run cut short keeps what it measured; --replot prints the report (and draws the
plot) again from such a file without starting an engine. Before starting, the script checks
that the tables (twice --hash-mb, once with --one-at-a-time) plus 1 GB fit in MemAvailable.
--plot needs matplotlib (in .venv, from scripts/venv).

Problems come from $TSUMUGI_PROBLEMS (default ../shared/problems); KomoringHeights as in
scripts/bench/shortest.py (--kh, default .anchors/..., built by ../shared/anchors/build-kh).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT as ROOT  # noqa: E402
from tsumugi_tools.machine import cpu_model, proc_status_kb  # noqa: E402
from tsumugi_tools.plotting import use_japanese_font  # noqa: E402
from tsumugi_tools.problems import matching, read_set, set_path  # noqa: E402
from tsumugi_tools.usi import EngineError, start_engine  # noqa: E402

# How long past its time limit an engine may take to answer before it counts as hung.
GRACE_S = 60.0
# Each handshake step may take this long: a table of several GB is allocated at `isready`.
HANDSHAKE_S = 600.0
# Room left beside the tables for the engines' other memory, this script and the system.
SPARE_MB = 1024
KH_DEFAULT = ROOT / ".anchors/KomoringHeights-1.1.0/source/KomoringHeights-by-gcc"
ENGINES = {"tsumugi": "tsumugi", "kh": "KomoringHeights"}

# The default problems, in this order, matched by long.tsv's name column (the part before
# " (", e.g. "驚愕の曠野 (bare king)"), with a Latin name for plots without a Japanese font.
DEFAULT_PROBLEMS = {
    "新桃花源": "Shin-Togen-kyo",
    "FAIRWAY": "FAIRWAY",
    "乱": "Ran",
    "メガロポリス": "Megalopolis",
    "明日香": "Asuka",
    "木星の旅": "Mokusei no tabi",
    "驚愕の曠野": "Kyogaku no koya",
}

# KomoringHeights v0.5.0's published results: (plies, seconds). Public figures, not measured here.
PUBLISHED = {
    "新桃花源": (1205, 460),
    "FAIRWAY": (611, 459),
    "乱": (451, 407),
    "メガロポリス": (515, 6413),
    "明日香": (703, 8313),
    "木星の旅": (411, 4038),
    "驚愕の曠野": (59, 43270),
}
PUBLISHED_SOURCE = ("KomoringHeights v0.5.0, one thread, AWS r5.xlarge, 29 GB table, "
                    "as published by its author")


def base_name(name: str) -> str:
    """A set's name column without its parenthetical: "驚愕の曠野 (bare king)" -> "驚愕の曠野"."""
    return name.split(" (")[0].strip()


# -- reading the engines' output ------------------------------------------------------------

# The counters of an `info` line: `key value` pairs before its `pv` or `string` part.
COUNTER_KEYS = ("time", "nodes", "nps", "hashfull")


def parse_counters(line: str) -> dict | None:
    """The integer counters (time, nodes, nps, hashfull) of an `info` line, or None when it
    carries no `nodes`. Both engines print `info time T nodes N nps R hashfull H ...`, in that
    order today; any order is read, and what follows `pv` or `string` is never read as a
    counter (a move list or free text)."""
    words = line.split()
    if not words or words[0] != "info":
        return None
    out: dict = {}
    i = 1
    while i < len(words) - 1:
        w = words[i]
        if w in ("pv", "string"):
            break
        if w in COUNTER_KEYS and re.fullmatch(r"\d+", words[i + 1]):
            out.setdefault(w, int(words[i + 1]))
            i += 2
            continue
        i += 1
    return out if "nodes" in out else None


class Thinned:
    """A time series keeping the last sample of each `every`-second interval (all of them when
    `every` <= 0): a long run's series stays small, and its last sample is always kept."""

    def __init__(self, every: float):
        self.every = every
        self.samples: list[list] = []
        self._bucket: int | None = None

    def add(self, sample: list) -> None:
        if self.every <= 0:
            self.samples.append(sample)
            return
        bucket = int(sample[0] // self.every)
        if self.samples and bucket == self._bucket:
            self.samples[-1] = sample
        else:
            self.samples.append(sample)
        self._bucket = bucket


def thin(samples: list[list], every: float) -> list[list]:
    """`samples` ([t, ...] in time order) thinned as `Thinned` does."""
    th = Thinned(every)
    for s in samples:
        th.add(s)
    return th.samples


# tsumugi (src/usi/reply.rs, src/mate/driver/rounds.rs, src/mate/result.rs).
TS_SCORE_MATE = re.compile(r" score mate (\d+)(?: pv (.*))?$")
TS_WITHIN = re.compile(r"^info string mate within (\d+) plies proven$")
TS_ROUND = re.compile(r"^info string no mate within (\d+) plies: the shortest mate takes "
                      r"(\d+)(?: to (\d+))?$")
TS_SHORTEST = re.compile(r"mate in (\d+)[:,] shortest proven")
TS_SHORTEST_LONGER_LINE = re.compile(r"the shortest mate is proven to take (\d+) plies")
TS_BETWEEN = re.compile(r"shortest (?:mate )?not proven:? \(?between (\d+) and (\d+) plies")
# KomoringHeights (komoring_heights.cpp `SearchMainLoop`, search_result.hpp). The disproof's
# hand may hold Japanese piece names and spaces: "{disproof_hand= 歩 銀 金 len=14 amount=14096}".
KH_MATE = re.compile(r"result: mate in (\d+)\(upper_bound:(\d+)\)")
KH_DISPROOF = re.compile(r"result: \{(?:disproof_hand|repetition)[^}]* len=(\d+)")


class Watch:
    """What one engine said during one `go mate`, read line by line (`feed`)."""

    def __init__(self, kind: str, every: float):
        self.kind = kind
        self.series = Thinned(every)
        self.info_lines = 0  # info lines with nodes, before thinning
        self.last: list | None = None  # the last [t, nodes, nps, hashfull]
        self.last_time_ms: int | None = None  # the engine's own `time` on that line
        self.first_proof: dict | None = None  # {"t", "upper", "line"}
        self.bounds: list[list] = []  # [t, lower, upper] each time either changes
        self.lower: int | None = None  # no mate shorter than this (proven)
        self.upper: int | None = None  # a mate within this (proven)
        self.minimal: int | None = None
        self.minimal_at: float | None = None
        self.status = ""  # tsumugi's final sentence, KomoringHeights' last result

    def _bound(self, t: float, lower: int | None = None, upper: int | None = None) -> None:
        lo = self.lower if lower is None else max(lower, self.lower or 0)
        up = self.upper if upper is None else min(upper, self.upper or upper)
        if (lo, up) != (self.lower, self.upper):
            self.lower, self.upper = lo, up
            self.bounds.append([round(t, 3), lo, up])

    def _proof(self, t: float, upper: int, line: int | None) -> None:
        if self.first_proof is None:
            self.first_proof = {"t": round(t, 3), "upper": upper, "line": line}
        self._bound(t, upper=upper)

    def _minimal(self, t: float, n: int) -> None:
        self.minimal = n
        if self.minimal_at is None:
            self.minimal_at = round(t, 3)
        self._bound(t, lower=n, upper=n)

    def feed(self, line: str, t: float) -> None:
        c = parse_counters(line)
        if c is not None:
            self.info_lines += 1
            self.last = [round(t, 3), c["nodes"], c.get("nps"), c.get("hashfull")]
            self.last_time_ms = c.get("time")
            self.series.add(self.last)
        if self.kind == "kh":
            self._feed_kh(line, t)
        else:
            self._feed_tsumugi(line, t)

    def _feed_tsumugi(self, line: str, t: float) -> None:
        if not line.startswith("info "):
            return
        if not line.startswith("info string "):
            m = TS_SCORE_MATE.search(line)
            if m:
                pv = m.group(2)
                self._proof(t, int(m.group(1)), len(pv.split()) if pv else None)
            return
        m = TS_WITHIN.match(line)
        if m:
            self._proof(t, int(m.group(1)), None)
            return
        m = TS_ROUND.match(line)
        if m:
            lo = int(m.group(2))
            if m.group(3) is None:  # "takes N" alone: the minimum is proven
                self._minimal(t, lo)
            else:
                self._bound(t, lower=lo, upper=int(m.group(3)))
            return
        m = TS_SHORTEST.search(line) or TS_SHORTEST_LONGER_LINE.search(line)
        if m:
            self.status = line[len("info string "):]
            self._minimal(t, int(m.group(1)))
            return
        m = TS_BETWEEN.search(line)
        if m:
            self.status = line[len("info string "):]
            self._bound(t, lower=int(m.group(1)), upper=int(m.group(2)))

    def _feed_kh(self, line: str, t: float) -> None:
        """With PostSearchLevel MinLength (its default) KomoringHeights searches for a mate 2
        plies shorter than its last bound until that fails: a disproof after a mate ("no mate
        within L") proves the minimum L+1. A disproof before any mate is its `nomate`."""
        m = KH_MATE.search(line)
        if m:
            self.status = line[line.index("result:"):]
            self._proof(t, int(m.group(2)), int(m.group(1)))
            return
        m = KH_DISPROOF.search(line)
        if m:
            self.status = line[line.index("result:"):]
            if self.upper is not None:
                self._minimal(t, int(m.group(1)) + 1)

    def to_json(self) -> dict:
        return {"series": self.series.samples, "info_lines": self.info_lines,
                "last": self.last, "last_time_ms": self.last_time_ms,
                "first_proof": self.first_proof, "bounds": self.bounds, "lower": self.lower,
                "upper": self.upper, "minimal": self.minimal, "minimal_at": self.minimal_at,
                "status": self.status}


def judge_answer(sfen: str, words: list[str]) -> dict:
    """The `checkmate` reply's words judged: a mating line replayed with cshogi (imported
    here, so --replot and the tests of the rest run without it), `nomate` wrong (every
    problem here is a mate), `timeout` no answer."""
    if words in (["nomate"], ["timeout"]):
        return {"kind": words[0], "length": None, "moves": [], "replay": ""}
    if not words or words[0] == "notimplemented":
        return {"kind": "none", "length": None, "moves": [], "replay": ""}
    if len(words) % 2 == 0:
        replay = f"even length {len(words)}: the attacker is the side to move"
    else:
        from tsumugi_tools.mate_line import verify_mate_line
        ok, why = verify_mate_line(sfen, words)
        replay = "ok" if ok else why
    return {"kind": "mate", "length": len(words), "moves": words, "replay": replay}


# -- running the engines ---------------------------------------------------------------------


class PeakRss:
    """Samples VmHWM (the peak resident set) of a process every few seconds until stopped;
    the last sample before the process exits is its peak."""

    def __init__(self, pid: int, every: float = 2.0):
        self.pid, self.every = pid, every
        self.peak_kb: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def sample(self) -> None:
        kb = proc_status_kb(self.pid).get("VmHWM")
        if kb is not None:
            self.peak_kb = max(kb, self.peak_kb or 0)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.sample()

    def stop(self) -> int | None:
        self.sample()
        self._stop.set()
        self._thread.join(timeout=5)
        return self.peak_kb


def run_engine(kind: str, cmd: str, sfen: str, args, barrier: threading.Barrier | None) -> dict:
    """One `go mate` in a fresh engine process. `barrier`: met after the handshake, so that
    both engines start searching at the same moment."""
    rec: dict = {"engine": kind, "path": cmd, "id": None, "go_at": None, "answer": None,
                 "answer_at": None, "peak_rss_kb": None, "error": ""}
    watch = Watch(kind, args.series_every)
    options = [("USI_Hash", args.hash_mb), ("Threads", args.threads)]
    if kind == "kh":
        options.append(("RootIsAndNodeIfChecked", "false"))
    rec["options"] = dict(options)
    try:
        eng = start_engine(cmd, options, timeout=HANDSHAKE_S, declared_only=True)
    except (EngineError, OSError) as e:
        rec["error"] = f"not started: {str(e).splitlines()[0]}"
        if barrier is not None:
            barrier.abort()  # the other engine goes on alone
        rec.update(watch.to_json())
        return rec
    rec["id"] = eng.id_name
    rss = PeakRss(eng.proc.pid)
    try:
        if barrier is not None:
            try:
                barrier.wait(timeout=HANDSHAKE_S)
            except threading.BrokenBarrierError:
                rec["error"] = "the other engine did not start: this one ran alone"
        eng.send(f"position sfen {sfen}")
        start = time.monotonic()
        rec["go_at"] = time.strftime("%Y-%m-%d %H:%M:%S")
        eng.send(f"go mate {args.time_s * 1000}")
        for line in eng.read_lines(args.time_s + GRACE_S):
            t = time.monotonic() - start
            line = line.strip()
            watch.feed(line, t)
            if line.startswith("checkmate"):
                rec["answer_at"] = round(t, 3)
                rec["answer"] = judge_answer(sfen, line.split()[1:])
                break
    except EngineError as e:  # hung (killed by close below) or dead: no answer
        rec["error"] = str(e).splitlines()[0]
    finally:
        rec["peak_rss_kb"] = rss.stop()
        eng.close()
    if rec["answer"] is None:
        rec["answer"] = {"kind": "none", "length": None, "moves": [], "replay": ""}
    rec.update(watch.to_json())
    return rec


def run_problem(p: dict, cmds: dict, args) -> dict:
    """Both engines on one problem: at once (a thread each), or one after the other."""
    kinds = list(ENGINES)
    if args.one_at_a_time:
        return {k: run_engine(k, cmds[k], p["sfen"], args, None) for k in kinds}
    barrier = threading.Barrier(len(kinds))
    results: dict = {}

    def one(kind: str) -> None:
        try:
            results[kind] = run_engine(kind, cmds[kind], p["sfen"], args, barrier)
        except BaseException as e:  # raised again below, in the main thread
            results[kind] = e

    threads = [threading.Thread(target=one, args=(k,), daemon=True) for k in kinds]
    for t in threads:
        t.start()
    for t in threads:
        while t.is_alive():
            t.join(1.0)
    for k in kinds:
        if isinstance(results[k], BaseException):
            raise results[k]
    return {k: results[k] for k in kinds}


# -- the problems and the machine ------------------------------------------------------------


def load_problems(set_name: str, only: list[str]) -> list[dict]:
    path = set_path(set_name)
    if not path.exists():
        raise SystemExit(f"problem set not found: {path} (set TSUMUGI_PROBLEMS)")
    rows = read_set(path)
    if only:
        chosen = matching(rows, only)
        if not chosen:
            raise SystemExit(f"no problem of {path} has a name containing "
                             f"{' or '.join(map(repr, only))}")
    else:
        by_name = {base_name(r.name): r for r in rows}
        missing = [n for n in DEFAULT_PROBLEMS if n not in by_name]
        if missing:
            raise SystemExit(f"{path} has no row named {', '.join(missing)} (the default "
                             "problems; pick others with --only NAME)")
        chosen = [by_name[n] for n in DEFAULT_PROBLEMS]
    return [{"name": r.name or r.sfen[:20], "sfen": r.sfen, "known": r.plies,
             "line_no": r.line_no} for r in chosen]


def mem_kb(key: str) -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def memory_refusal(hash_mb: int, one_at_a_time: bool, available_kb: int | None) -> str | None:
    """Why the tables do not fit (None when they do, or when MemAvailable is unknown)."""
    tables = 1 if one_at_a_time else 2
    need_mb = tables * hash_mb + SPARE_MB
    if available_kb is None or need_mb <= available_kb // 1024:
        return None
    how = (f"one table of {hash_mb} MB" if one_at_a_time
           else f"two tables of {hash_mb} MB (both engines at once)")
    hint = ("a smaller --hash-mb" if one_at_a_time
            else "a smaller --hash-mb, or --one-at-a-time to hold one table at a time")
    return (f"refusing to start: {how} plus {SPARE_MB} MB need {need_mb} MB, but MemAvailable "
            f"is {available_kb // 1024} MB; use {hint}")


def git_head() -> tuple[str, bool]:
    """`git rev-parse HEAD` of this repository, and whether the work tree has changes."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, text=True, capture_output=True,
                               check=True).stdout.strip() != ""
        return head, dirty
    except (OSError, subprocess.CalledProcessError):
        return "unknown", False


# -- the report ------------------------------------------------------------------------------


def fmt_s(t: float | None) -> str:
    if t is None:
        return "-"
    return f"{t:.2f} s" if t < 10 else f"{t:.1f} s"


def fmt_count(n: float | None) -> str:
    if n is None:
        return "-"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= div:
            return f"{n / div:.1f} {unit}"
    return f"{n:.0f}"


def mean_nps(r: dict) -> float | None:
    """Nodes per second over the whole search: the last info line's nodes over its time (the
    engine's own `time` when printed, else seconds from `go mate`)."""
    last = r.get("last")
    if not last:
        return None
    ms = r.get("last_time_ms")
    secs = ms / 1000 if ms else last[0]
    return last[1] / secs if secs > 0 else None


def first_proof_text(r: dict) -> str:
    fp = r.get("first_proof")
    if not fp:
        return "-"
    line = "" if fp.get("line") in (None, fp["upper"]) else f" (line {fp['line']})"
    return f"mate within {fp['upper']}{line} @ {fmt_s(fp['t'])}"


def shortest_text(r: dict) -> str:
    if r.get("minimal") is not None:
        return f"{r['minimal']}, proven minimal @ {fmt_s(r.get('minimal_at'))}"
    up, lo = r.get("upper"), r.get("lower")
    if up is None:
        return "-"
    since = next((b[0] for b in r.get("bounds", []) if b[2] == up), None)
    low = f"; no mate below {lo}" if lo and lo > 1 else ""
    return f"not proven; best bound: mate within {up} (@ {fmt_s(since)}){low}"


def answer_text(r: dict, time_s: float) -> str:
    a = r.get("answer") or {"kind": "none"}
    at = r.get("answer_at")
    if a["kind"] == "mate":
        verdict = "replayed ok" if a["replay"] == "ok" else f"NOT a mate: {a['replay']}"
        return f"{a['length']} plies, {verdict} @ {fmt_s(at)}"
    if a["kind"] == "nomate":
        return f"nomate @ {fmt_s(at)}: WRONG (a mate exists)"
    if a["kind"] == "timeout":
        return f"no answer in {time_s:g} s (timeout)"
    return "no answer (the engine hung or died)"


def ratio_text(res: dict, time_s: float) -> str:
    fts = (res["tsumugi"].get("first_proof") or {}).get("t")
    fkh = (res["kh"].get("first_proof") or {}).get("t")
    if fts is not None and fkh:
        return (f"time to first proof, tsumugi / KomoringHeights: {fts / fkh:.2f} "
                f"({fmt_s(fts)} / {fmt_s(fkh)})")
    missing = [ENGINES[k] for k, f in (("tsumugi", fts), ("kh", fkh)) if f is None]
    return f"{' and '.join(missing)} did not prove a mate within {time_s:g} s: no ratio"


def problem_report(p: dict, res: dict, time_s: float) -> list[str]:
    known = f", {p['known']} plies" if p.get("known") else ""
    out = [f"### {p['name']}{known}", ""]
    pub = PUBLISHED.get(base_name(p["name"]))
    if pub:
        out.append(f"Published: {pub[0]} plies in {pub[1]} s ({PUBLISHED_SOURCE}).")
        out.append("")
    rs = [res["tsumugi"], res["kh"]]
    rows = [
        ("first proof", [first_proof_text(r) for r in rs]),
        ("shortest", [shortest_text(r) for r in rs]),
        ("answer", [answer_text(r, time_s) for r in rs]),
        ("nodes at end", [fmt_count((r.get("last") or [None, None])[1]) for r in rs]),
        ("mean nodes/s", [fmt_count(mean_nps(r)) for r in rs]),
        ("hashfull at end", [f"{r['last'][3] / 10:.1f}%" if r.get("last") and r["last"][3]
                             is not None else "-" for r in rs]),
        ("peak RSS", [f"{r['peak_rss_kb'] / 1024 / 1024:.2f} GB" if r.get("peak_rss_kb")
                      else "-" for r in rs]),
    ]
    out.append("| | tsumugi | KomoringHeights |")
    out.append("|---|---|---|")
    for label, cells in rows:
        out.append(f"| {label} | {cells[0]} | {cells[1]} |")
    out.append("")
    out.append(ratio_text(res, time_s) + ".")
    out.append("")
    for k in ENGINES:
        if res[k].get("error"):
            out.append(f"{ENGINES[k]}: {res[k]['error']}.")
            out.append("")
    return out


def summary_table(data: dict) -> list[str]:
    time_s = data["settings"]["time_s"]
    out = ["| problem | plies | published KH v0.5.0 | tsumugi first proof | KH first proof "
           "| tsumugi / KH | tsumugi answer | KH answer |",
           "|---|---|---|---|---|---|---|---|"]
    for item in data["problems"]:
        p, res = item["problem"], item["results"]
        pub = PUBLISHED.get(base_name(p["name"]))
        fp = [(res[k].get("first_proof") or {}).get("t") for k in ("tsumugi", "kh")]
        ratio = f"{fp[0] / fp[1]:.2f}" if None not in fp else "-"

        def short_answer(r: dict) -> str:
            a = r.get("answer") or {"kind": "none"}
            if a["kind"] == "mate":
                ok = "" if a["replay"] == "ok" else " NOT a mate"
                return f"{a['length']}{ok} @ {fmt_s(r.get('answer_at'))}"
            return a["kind"] if a["kind"] != "none" else "none"

        out.append(f"| {p['name']} | {p.get('known') or '-'} "
                   f"| {f'{pub[1]} s' if pub else '-'} "
                   f"| {fmt_s(fp[0])} | {fmt_s(fp[1])} | {ratio} "
                   f"| {short_answer(res['tsumugi'])} | {short_answer(res['kh'])} |")
    return out


def report(data: dict) -> str:
    s, m = data["settings"], data["meta"]
    mode = ("one engine after the other" if s["one_at_a_time"]
            else "both engines at once, `go mate` sent to both at the same moment")
    dirty = " (with uncommitted changes)" if m.get("dirty") else ""
    out = [f"# Hardest problems: tsumugi and KomoringHeights, {m['date']}", "",
           f"- commit: {m['commit']}{dirty}",
           f"- machine: {m['cpu']}, {m['cores']} cores, {m['mem_total_gb']:.0f} GB memory "
           f"({m['platform']})",
           f"- command: `{shlex.join(m['command'])}`"]
    for k in ENGINES:
        e = m["engines"][k]
        opts = ", ".join(f"{n} {v}" for n, v in e["options"].items())
        role = "rival" if k == "kh" else "engine"
        out.append(f"- {role}: {ENGINES[k]} `{e['path']}` ({e.get('id') or '?'}), "
                   f"setoption {opts}")
    out.append(f"- `go mate {s['time_s'] * 1000}` ({s['time_s']} s) per problem, {mode}; "
               f"seconds from `go mate`; info lines kept every {s['series_every']:g} s")
    out.append("")
    out.append(f"Published times: {PUBLISHED_SOURCE}; not measured here, a different engine "
               "version, machine and table.")
    out.append("")
    out.extend(summary_table(data))
    out.append("")
    out.append("\"first proof\": the first proven mate (tsumugi's first `score mate N`, "
               "KomoringHeights' first \"mate in N(upper_bound:U)\", shown as its bound U, with "
               "its line's length N when they differ); \"shortest\": the proven minimum and "
               "when it was proven, else the best proven bound; \"answer\": the `checkmate` "
               "line replayed with cshogi; \"nodes at end\", \"hashfull at end\": from "
               "the engine's last info line (KomoringHeights prints none when the limit cuts "
               "its search: its last periodic one, up to a second earlier); \"mean nodes/s\": "
               "those nodes over that line's `time`; \"peak RSS\": VmHWM of the engine "
               "process.")
    out.append("")
    for item in data["problems"]:
        out.extend(problem_report(item["problem"], item["results"], s["time_s"]))
    return "\n".join(out).rstrip() + "\n"


# -- the plot --------------------------------------------------------------------------------


def rates(series: list[list]) -> list[tuple[float, float]]:
    """Nodes per second between consecutive samples [t, nodes, ...] (from 0 for the first)."""
    out = []
    pt, pn = 0.0, 0
    for s in series:
        t, n = s[0], s[1]
        if t > pt:
            out.append((t, (n - pn) / (t - pt)))
        pt, pn = t, n
    return out


def plot(data: dict, out: str) -> str | None:
    """Draws nodes/s and hashfull over time, a row per problem. Returns why not, or None."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return ("--plot: matplotlib is not installed in this Python (run scripts/venv and "
                "use .venv/bin/python); the report and the JSON are unaffected")
    jp = use_japanese_font(plt)
    items = data["problems"]
    fig, axes = plt.subplots(len(items), 2, figsize=(12, 3.2 * len(items)), squeeze=False)
    colors = {"tsumugi": "tab:blue", "kh": "tab:orange"}
    for row, item in zip(axes, items):
        p, res = item["problem"], item["results"]
        base = base_name(p["name"])
        title = p["name"] if jp else DEFAULT_PROBLEMS.get(base, p["name"])
        for kind, r in res.items():
            series = r.get("series") or []
            label = ENGINES[kind]
            rr = rates(series)
            row[0].plot([t for t, _ in rr], [v / 1000 for _, v in rr], ".-", color=colors[kind],
                        label=label)
            hf = [(s[0], s[3] / 10) for s in series if s[3] is not None]
            row[1].plot([t for t, _ in hf], [v for _, v in hf], ".-", color=colors[kind],
                        label=label)
            fp = r.get("first_proof")
            if fp:
                for ax in row:
                    ax.axvline(fp["t"], color=colors[kind], linestyle="--", linewidth=0.8)
        row[0].set_title(f"{title}: nodes/s (dashed: first proof)", fontsize=10)
        row[0].set_ylabel("k nodes/s")
        row[1].set_title(f"{title}: hashfull", fontsize=10)
        row[1].set_ylabel("% of the table")
        for ax in row:
            ax.set_xlabel("seconds from go mate")
            ax.set_xlim(left=0)
            ax.set_ylim(bottom=0)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
    fig.suptitle(f"tsumugi and KomoringHeights, {data['meta']['date']}, "
                 f"hash {data['settings']['hash_mb']} MB", fontsize=11)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return None


# -- main ------------------------------------------------------------------------------------


def write_json(path: str, data: dict) -> None:
    tmp = Path(path + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n",
                   encoding="utf-8")
    os.replace(tmp, path)


def finish(data: dict, plot_out: str | None) -> int:
    sys.stdout.write(report(data))
    sys.stdout.flush()
    if plot_out:
        why = plot(data, plot_out)
        if why:
            print(why, file=sys.stderr)
        else:
            print(f"plot written to {plot_out}", file=sys.stderr)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="long.tsv")
    ap.add_argument("--only", action="append", default=[],
                    help="problems whose name contains this (repeatable; default the seven "
                         f"of long.tsv: {', '.join(DEFAULT_PROBLEMS)})")
    ap.add_argument("--time-s", type=int, default=600, help="per problem (`go mate`)")
    ap.add_argument("--hash-mb", type=int, default=8192, help="USI_Hash of each engine")
    ap.add_argument("--threads", type=int, default=1, help="Threads of each engine")
    ap.add_argument("--one-at-a-time", action="store_true",
                    help="run tsumugi, then KomoringHeights, instead of both at once")
    ap.add_argument("--series-every", type=float, default=10.0,
                    help="keep the last info line of each interval of this many seconds "
                         "(0: every line)")
    ap.add_argument("--kh", default=str(KH_DEFAULT))
    ap.add_argument("--bin", default=str(ROOT / "target/release/tsumugi"))
    ap.add_argument("--json", help="write the settings and every series here")
    ap.add_argument("--plot", help="draw nodes/s and hashfull over time (an .svg or .png)")
    ap.add_argument("--replot", metavar="JSON",
                    help="report (and --plot) from a saved --json file, running no engine")
    args = ap.parse_args()

    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("--plot: matplotlib is not installed in this Python (run scripts/venv and "
                  "use .venv/bin/python); going on without the plot", file=sys.stderr)
            args.plot = None
    if args.replot:
        try:
            data = json.loads(Path(args.replot).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            print(f"--replot {args.replot}: {e}", file=sys.stderr)
            return 2
        return finish(data, args.plot)

    if args.time_s <= 0 or args.hash_mb <= 0 or args.threads <= 0:
        print("--time-s, --hash-mb and --threads must be positive", file=sys.stderr)
        return 2
    cmds = {"tsumugi": args.bin, "kh": args.kh}
    for k, c in cmds.items():
        if not Path(c).exists():
            hint = (": run ../shared/anchors/build-kh .anchors, or pass --kh" if k == "kh"
                    else ": cargo build --release, or pass --bin")
            print(f"{ENGINES[k]} not found at {c}{hint}", file=sys.stderr)
            return 2
    problems = load_problems(args.set, args.only)
    why = memory_refusal(args.hash_mb, args.one_at_a_time, mem_kb("MemAvailable"))
    if why:
        print(why, file=sys.stderr)
        return 2

    head, dirty = git_head()
    data = {
        "meta": {"date": time.strftime("%Y-%m-%d %H:%M"), "commit": head, "dirty": dirty,
                 "cpu": cpu_model(), "cores": os.cpu_count(),
                 "mem_total_gb": (mem_kb("MemTotal") or 0) / 1024 / 1024,
                 "platform": f"{platform.system()} {platform.release()} {platform.machine()}",
                 "command": [sys.executable, *sys.argv],
                 "engines": {k: {"path": str(Path(c).resolve()), "id": None, "options": {}}
                             for k, c in cmds.items()}},
        "settings": {"set": args.set, "only": args.only, "time_s": args.time_s,
                     "hash_mb": args.hash_mb, "threads": args.threads,
                     "one_at_a_time": args.one_at_a_time, "series_every": args.series_every},
        "published": {"source": PUBLISHED_SOURCE,
                      "results": {k: {"plies": v[0], "seconds": v[1]}
                                  for k, v in PUBLISHED.items()}},
        "problems": [],
    }
    for p in problems:
        print(f"{p['name']}: starting ({args.time_s} s)", file=sys.stderr, flush=True)
        res = run_problem(p, cmds, args)
        for k, r in res.items():
            e = data["meta"]["engines"][k]
            e["id"] = e["id"] or r.get("id")
            e["options"] = r.get("options", e["options"])
            err = f" [{r['error']}]" if r.get("error") else ""
            print(f"{p['name']}: {ENGINES[k]}: first proof {first_proof_text(r)}; "
                  f"{answer_text(r, args.time_s)}{err}", file=sys.stderr, flush=True)
        data["problems"].append({"problem": p, "results": res})
        if args.json:
            write_json(args.json, data)
    return finish(data, args.plot)


if __name__ == "__main__":
    sys.exit(main())
