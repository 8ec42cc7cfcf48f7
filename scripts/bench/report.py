#!/usr/bin/env python3
"""Side-by-side mate-solving benchmark: tsumugi (through USI), cshogi's DfPn and any other USI
engine, over the problem sets in ../shared/problems; writes docs/bench/report.md and
docs/bench/solved_vs_time.png.

Every problem is given to every solver in turn (never in parallel: the machine has 2 cores and
is shared), with the same per-problem time limit:

- USI engines (tsumugi by default, plus `--engine NAME=PATH`): spawned once with no arguments;
  `usi`, `setoption name USI_Hash value <M>`, `isready`; per problem `position sfen <SFEN>` and
  `go mate <ms>`, reading until the `checkmate` line. The time is the wall time from `go` to
  that line. An engine that does not answer within the limit plus a grace period gets `stop`,
  and is killed and restarted if that does not help either (counted as unsolved).
- `--via solve` replaces tsumugi's USI session by one `tsumugi solve --time-ms T` process per
  problem (time: the search time it reports).
- cshogi's `DfPn` runs in a worker process that is killed at the time limit (its search holds
  the GIL and ignores `stop()` from another thread) and restarted; its time is the wall time
  from sending the problem to the worker to receiving the answer; its node cap is set high
  enough (`--cshogi-nodes`, default 1M per second of limit, several times its speed) that the
  time limit is what binds. It answers only "mate found" or "not found": it cannot tell no mate
  from giving up, so on problems without a mate it is never counted as solved (or wrong).

Every mating line is replayed with cshogi (legal moves, every attacker move gives check, the
final position is mate). Wrong = a line that fails that check, `nomate` on a problem with a mate,
or a mate on a problem the set says has none. The report cites problems by set and line number
only: positions from ../shared must not be copied into the repository.
"""

from __future__ import annotations

import argparse
import datetime as dt
import multiprocessing as mp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cshogi

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT as ROOT  # noqa: E402
from tsumugi_tools.mate_line import verify_mate_line  # noqa: E402
from tsumugi_tools.problems import problems_dir, read_set  # noqa: E402
from tsumugi_tools.usi import EngineError, EngineTimeout, command_path, engine_path, start_engine  # noqa: E402,E501

DEFAULT_SETS = ["mate3-11.tsv", "extra1-9.tsv", "famous.tsv", "nomate-curated.tsv"]
CSHOGI = "cshogi-DfPn"


# -- problems ---------------------------------------------------------------------------------


@dataclass
class Problem:
    set: str
    line_no: int  # 1-based line number in the set file
    sfen: str
    expected: int | None  # listed mate length in plies, None = no mate
    index: int = 0  # position in this run


def parse_set(path: Path) -> list[Problem]:
    """`<sfen>\\t<plies|nomate>[\\t...]` lines; '#' lines, a header and blank lines are skipped."""
    out = []
    for r in read_set(path):
        if r.expected != "nomate" and r.plies is None:
            raise ValueError(f"{path.name}:{r.line_no}: expected '<sfen>\\t<length|nomate>'")
        out.append(Problem(path.name, r.line_no, r.sfen, r.plies))
    return out


def load_problems(pdir: Path, sets: list[str], every: int, offset: int, limit: int | None):
    """Every `every`-th problem of each set (starting at `offset`), at most `limit` per set."""
    probs = []
    for s in sets:
        path = pdir / s
        if not path.is_file():
            sys.exit(f"scripts/bench/report.py: problem set {path} not found (set TSUMUGI_PROBLEMS or --problems)")
        chosen = parse_set(path)[offset::every]
        if limit is not None:
            chosen = chosen[:limit]
        probs += chosen
    for i, p in enumerate(probs):
        p.index = i
    return probs


# -- answers and their verification -----------------------------------------------------------


@dataclass
class Answer:
    kind: str  # mate | nomate | notfound (cshogi: no mate found) | timeout | error
    moves: list[str] = field(default_factory=list)
    time: float = 0.0  # seconds
    nodes: int | None = None
    detail: str = ""


@dataclass
class Verdict:
    status: str  # solved | wrong | unsolved
    reason: str = ""
    length: int | None = None  # length of a verified mate


def judge(p: Problem, a: Answer) -> Verdict:
    if a.kind == "mate":
        ok, why = verify_mate_line(p.sfen, a.moves)
        if not ok:
            return Verdict("wrong", f"unverifiable line ({why})")
        if p.expected is None:
            return Verdict("wrong", "mate on a no-mate problem (line verified by cshogi)", len(a.moves))
        return Verdict("solved", "", len(a.moves))
    if a.kind == "nomate":
        if p.expected is not None:
            return Verdict("wrong", f"nomate, set lists a mate in {p.expected}")
        return Verdict("solved")
    return Verdict("unsolved", a.kind + (f" ({a.detail})" if a.detail else ""))


# -- solvers ----------------------------------------------------------------------------------

class UsiSolver:
    """A USI engine kept running across problems; restarted after a hang or a crash."""

    def __init__(self, name: str, path: str, hash_mb: int, options: dict[str, str], grace: float):
        self.name, self.path, self.hash_mb = name, path, hash_mb
        self.options, self.grace = options, grace
        self.id_name = name
        self.restarts = 0
        self.eng = None
        self._start()

    def _start(self) -> None:
        # The sets' side to move is the attacker, in check or not (SOURCES.md); both tsumugi and
        # KomoringHeights declare this option (sent only where declared).
        opts = {"USI_Hash": str(self.hash_mb), "RootIsAndNodeIfChecked": "false", **self.options}
        self.eng = start_engine(self.path, opts, declared_only=True)
        self.id_name = self.eng.id_name or self.name
        self.eng.send("usinewgame")

    def _restart(self) -> None:
        self.restarts += 1
        self.eng.kill()
        self._start()

    def solve(self, p: Problem, ms: int) -> Answer:
        eng = self.eng
        try:
            eng.send(f"position sfen {p.sfen}")
            t0 = time.perf_counter()
            eng.send(f"go mate {ms}")
            end = time.monotonic() + ms / 1000 + self.grace
            nodes = None
            stopped = False
            while True:
                try:
                    line = eng.read_line(end - time.monotonic())
                except EngineTimeout:
                    if stopped:
                        self._restart()
                        return Answer("error", time=ms / 1000, detail="hung, restarted")
                    eng.send("stop")
                    stopped = True
                    end = time.monotonic() + 2.0
                    continue
                if line.startswith("info") and " nodes " in line:
                    w = line.split()
                    try:
                        nodes = int(w[w.index("nodes") + 1])
                    except (ValueError, IndexError):
                        pass
                if line.startswith("checkmate"):
                    t = time.perf_counter() - t0
                    rest = line.split()[1:]
                    if rest == ["nomate"]:
                        return Answer("nomate", time=t, nodes=nodes)
                    if not rest or rest[0] in ("timeout", "notimplemented", "none"):
                        return Answer("timeout", time=t, nodes=nodes, detail=" ".join(rest))
                    return Answer("mate", rest, t, nodes)
        except EngineError as e:  # died (a hang is handled above)
            self._restart()
            return Answer("error", time=ms / 1000, detail=f"engine died: {str(e).splitlines()[0]}")

    def close(self) -> None:
        self.eng.close()


class SolveCliSolver:
    """tsumugi through `tsumugi solve` (one process per problem)."""

    def __init__(self, name: str, path: str, hash_mb: int, post_search: str | None):
        self.name, self.path, self.hash_mb, self.post_search = name, path, hash_mb, post_search
        self.id_name = f"{name} (tsumugi solve)"
        self.restarts = 0

    def solve(self, p: Problem, ms: int) -> Answer:
        cmd = [self.path, "solve", "--time-ms", str(ms), "--hash-mb", str(self.hash_mb)]
        if self.post_search:
            cmd += ["--post-search", self.post_search]
        try:
            r = subprocess.run(cmd + [p.sfen], capture_output=True, text=True, timeout=ms / 1000 + 30)
        except subprocess.TimeoutExpired:
            return Answer("error", time=ms / 1000, detail="hung")
        words = r.stdout.split()
        t, nodes = ms / 1000, None
        for line in r.stderr.splitlines():
            w = line.split()
            if w[:1] == ["nodes"] and "time_ms" in w:
                nodes, t = int(w[1]), int(w[w.index("time_ms") + 1]) / 1000
        if r.returncode != 0 or words[:1] != ["checkmate"]:
            return Answer("error", time=t, detail=f"exit {r.returncode}")
        if words[1:] == ["nomate"]:
            return Answer("nomate", time=t, nodes=nodes)
        if words[1:] == ["timeout"]:
            return Answer("timeout", time=t, nodes=nodes)
        return Answer("mate", words[1:], t, nodes)

    def close(self) -> None:
        pass


def _dfpn_worker(conn, depth: int) -> None:
    while True:
        msg = conn.recv()
        if msg is None:
            return
        sfen, nodes = msg
        board = cshogi.Board(sfen)
        dfpn = cshogi.DfPn()  # fresh per problem: no table carried over
        dfpn.set_max_depth(depth)
        dfpn.set_max_search_node(nodes)
        t0 = time.perf_counter()
        found = dfpn.search(board)
        t = time.perf_counter() - t0
        pv = [cshogi.move_to_usi(m) for m in dfpn.get_pv(board)] if found else []
        conn.send((bool(found), pv, int(dfpn.searched_node), t))


class CshogiSolver:
    """cshogi.DfPn in a worker process, killed at the time limit."""

    def __init__(self, nodes_per_s: int, depth: int):
        self.name = CSHOGI
        self.nodes_per_s, self.depth = nodes_per_s, depth
        self.id_name = f"cshogi {getattr(cshogi, '__version__', '')} DfPn".replace("  ", " ")
        self.restarts = 0
        self.ctx = mp.get_context("fork")
        self.proc = None
        self._start()

    def _start(self) -> None:
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_dfpn_worker, args=(child, self.depth), daemon=True)
        self.proc.start()
        child.close()

    def _restart(self) -> None:
        self.restarts += 1
        self.proc.kill()
        self.proc.join()
        self._start()

    def solve(self, p: Problem, ms: int) -> Answer:
        limit = ms / 1000
        cap = max(1000, self.nodes_per_s * ms // 1000)
        t0 = time.perf_counter()
        try:
            self.conn.send((p.sfen, cap))
            ready = self.conn.poll(limit + 0.05)
        except (BrokenPipeError, OSError):
            ready = False
        if not ready:
            crashed = not self.proc.is_alive()
            self._restart()
            if crashed:
                return Answer("error", time=time.perf_counter() - t0, detail="crashed")
            return Answer("timeout", time=limit)
        try:
            found, pv, nodes, _search_t = self.conn.recv()
        except (EOFError, OSError):
            self._restart()
            return Answer("error", time=time.perf_counter() - t0, detail="crashed")
        # Wall time as seen from here, like the USI engines' (includes the pipe round trip).
        t = time.perf_counter() - t0
        if t > limit:
            return Answer("timeout", time=limit, nodes=nodes)
        if found:
            return Answer("mate", pv, t, nodes)
        return Answer("notfound", time=t, nodes=nodes,
                      detail="node cap" if nodes >= cap else "no mate found")

    def close(self) -> None:
        try:
            self.conn.send(None)
            self.proc.join(timeout=2)
        except Exception:
            pass
        if self.proc.is_alive():
            self.proc.kill()


# -- statistics -------------------------------------------------------------------------------


def median(xs):
    return statistics.median(xs) if xs else None


def fmt_s(x: float | None) -> str:
    if x is None:
        return "–"
    if x < 0.01:
        return f"{x * 1000:.1f} ms"
    if x < 1:
        return f"{x * 1000:.0f} ms"
    return f"{x:.2f} s"


def fmt_int(x) -> str:
    return "–" if x is None else f"{x:,}".replace(",", " ")


LENGTH_GROUPS = [
    ("1", 1, 1), ("3", 3, 3), ("5", 5, 5), ("7", 7, 7), ("9", 9, 9), ("11", 11, 11),
    ("13–29", 13, 29), ("31–99", 31, 99), ("≥101", 101, 10**9),
]


def length_group(p: Problem) -> str:
    if p.expected is None:
        return "nomate"
    for name, lo, hi in LENGTH_GROUPS:
        if lo <= p.expected <= hi:
            return name
    return "other"


def summarize(name: str, probs: list[Problem], results: dict, limit_s: float) -> dict:
    rs = [results[(p.index, name)] for p in probs]
    solved = [(p, a, v) for p, (a, v) in zip(probs, rs) if v.status == "solved"]
    wrong = [(p, a, v) for p, (a, v) in zip(probs, rs) if v.status == "wrong"]
    mates = [(p, a, v) for p, a, v in solved if v.length is not None]
    with_nodes = [(a.nodes, a.time) for a, _ in rs if a.nodes is not None and a.time > 0]
    tot_nodes = sum(n for n, _ in with_nodes)
    tot_t = sum(t for _, t in with_nodes)
    return {
        "n": len(probs),
        "n_mate": sum(p.expected is not None for p in probs),
        "solved": len(solved),
        "solved_mate": len(mates),
        "solved_nomate": len(solved) - len(mates),
        "wrong": wrong,
        "unsolved": len(probs) - len(solved) - len(wrong),
        "errors": sum(a.kind == "error" for a, _ in rs),
        "notfound_nomate": sum(a.kind == "notfound" and p.expected is None for p, (a, _) in zip(probs, rs)),
        "len_eq": sum(v.length == p.expected for p, a, v in mates),
        "len_longer": sum(v.length > p.expected for p, a, v in mates),
        "len_shorter": sum(v.length < p.expected for p, a, v in mates),
        "at_limit": sum(a.time >= 0.95 * limit_s for _, a, _ in solved),
        "median_solved": median([a.time for _, a, _ in solved]),
        "total_solved": sum(a.time for _, a, _ in solved),
        "total_all": sum(a.time for a, _ in rs),
        "nps": int(tot_nodes / tot_t) if tot_t > 0 else None,
        "times": sorted(a.time for _, a, _ in solved),
    }


# -- report -----------------------------------------------------------------------------------


def git(*args) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def shorten(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def machine() -> dict:
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    dirty = git("status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock")
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": git("rev-parse", "--short=12", "HEAD"),
        "subject": shorten(git("log", "-1", "--format=%s"), 90),
        "dirty": bool(dirty),
    }


def write_plot(path: Path, names: list[str], summ: dict, ms: int, n: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.8), dpi=110)
    for name in names:
        ts = [max(t, 1e-4) for t in summ[name]["times"]]
        xs = [ts[0]] if ts else []
        ys = [0] if ts else []
        for i, t in enumerate(ts, 1):
            xs.append(t)
            ys.append(i)
        if ts:
            xs.append(ms / 1000)
            ys.append(len(ts))
        ax.step(xs, ys, where="post", label=f"{name} ({len(ts)}/{n})")
    ax.set_xscale("log")
    ax.set_xlim(1e-4, ms / 1000 * 1.05)
    ax.set_xlabel("time per problem (s, log scale)")
    ax.set_ylabel("problems solved within that time")
    ax.set_title(f"Solved vs time per problem ({n} problems, limit {ms} ms)")
    ax.axhline(n, color="grey", lw=0.6, ls=":")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def bench_signature(binary: Path) -> str:
    """Last line of `tsumugi bench` (deterministic node count: identifies the search version)."""
    try:
        r = subprocess.run([str(binary), "bench"], capture_output=True, text=True, timeout=300)
        lines = r.stdout.strip().splitlines()
        return lines[-1] if r.returncode == 0 and lines else f"failed (exit {r.returncode})"
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"failed ({e})"


def write_report(path: Path, args, probs, solvers, results, summ, elapsed: float, m: dict, plot: str):
    names = [s.name for s in solvers]
    L = []
    w = L.append
    w("# Mate-solving benchmark: tsumugi and cshogi side by side\n")
    w("Generated by `scripts/bench/run` (scripts/bench/report.py); regenerate it rather than editing.\n")
    w("## Run\n")
    w(f"- Machine: {m['cpu']}, {m['cores']} cores (shared with other builds: times are noisy;")
    w("  compare within this run)")
    w(f"- Date (start of the run): {m['date']}")
    dirty = " (plus uncommitted changes in src/ at the start of the run)" if m["dirty"] else ""
    w(f"- Commit: `{m['commit']}` {m['subject']}{dirty}")
    if m.get("bench"):
        w(f"- `tsumugi bench` of the binary used: `{m['bench']}`")
    sets = ", ".join(args.sets)
    sample = "every problem" if args.every == 1 else f"every {args.every}th problem (offset {args.offset})"
    if args.limit:
        sample += f", at most {args.limit} per set"
    w(f"- Problems: {len(probs)} from {sets} ({sample}); {sum(p.expected is None for p in probs)} "
      "of them without a mate")
    w(f"- Time limit per problem: {args.time_ms} ms for every solver; hash {args.hash_mb} MB")
    for s in solvers:
        if isinstance(s, UsiSolver):
            opts = f"; options {s.options}" if s.options else ""
            w(f"- {s.name}: `{s.id_name}` over USI (`go mate {args.time_ms}`, wall time from `go` to "
              f"`checkmate`{opts}); restarts: {s.restarts}")
        elif isinstance(s, SolveCliSolver):
            w(f"- {s.name}: `tsumugi solve --time-ms {args.time_ms}` per problem (search time as "
              f"reported); post-search {s.post_search or 'default'}")
        else:
            w(f"- {s.name}: `{s.id_name}`, in a worker process killed at the limit (restarts: "
              f"{s.restarts}); node cap {args.cshogi_nodes} per second of limit, max depth "
              f"{args.cshogi_depth}; no-mate problems cannot be solved by it (it cannot tell no "
              "mate from giving up)")
    w(f"- Whole run: {elapsed / 60:.1f} min" if elapsed >= 60 else f"- Whole run: {elapsed:.0f} s")
    if any(isinstance(s, UsiSolver) and s.name == "tsumugi" and "PostSearch" not in s.options
           for s in solvers):
        w("- tsumugi runs with its default `PostSearch=shortest`: after the first mate it proves the "
          "shortest; cshogi stops at its first mate (any length)")
    w("")
    w("## Results\n")
    w("| solver | solved | of which mates | no mates | wrong | unsolved | solved at the limit | "
      "length = listed | longer | shorter | median time (solved) | total time (solved) | "
      "total time (all) | nodes/s |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in names:
        s = summ[n]
        nm = "–" if n == CSHOGI else str(s["solved_nomate"])
        w(f"| {n} | {s['solved']}/{s['n']} | {s['solved_mate']}/{s['n_mate']} | {nm} | {len(s['wrong'])} | "
          f"{s['unsolved']} | {s['at_limit']} | {s['len_eq']} | {s['len_longer']} | {s['len_shorter']} | "
          f"{fmt_s(s['median_solved'])} | {fmt_s(s['total_solved'])} | {fmt_s(s['total_all'])} | "
          f"{fmt_int(s['nps'])} |")
    w("")
    w("\"length = listed / longer / shorter\": verified mates compared with the set's listed "
      "length (famous.tsv lists some upper bounds; cshogi does not look for the shortest mate).")
    w("\"solved at the limit\": a verified mate that came when the time ran out (tsumugi then prints "
      "the best line proven so far, its shortest-mate search unfinished).")
    w("\"total time (all)\" counts unsolved problems at the time they took (about the limit).\n")

    # Ratios against cshogi.
    if CSHOGI in names:
        w("## tsumugi vs cshogi on problems both solved\n")
        w("| solver | both solved | its total | cshogi total | ratio (total) | median of per-problem "
          "ratios |")
        w("|---|---|---|---|---|---|")
        for n in names:
            if n == CSHOGI:
                continue
            both = [p for p in probs
                    if results[(p.index, n)][1].status == "solved"
                    and results[(p.index, CSHOGI)][1].status == "solved"]
            ta = sum(results[(p.index, n)][0].time for p in both)
            tb = sum(results[(p.index, CSHOGI)][0].time for p in both)
            per = [max(results[(p.index, n)][0].time, 1e-3) / max(results[(p.index, CSHOGI)][0].time, 1e-3)
                   for p in both]
            ratio = f"{ta / tb:.2f}" if tb > 0 else "–"
            pm = f"{median(per):.2f}" if per else "–"
            w(f"| {n} | {len(both)} | {fmt_s(ta)} | {fmt_s(tb)} | {ratio} | {pm} |")
        w("")
        w("Ratio < 1: faster than cshogi. Per-problem ratios clamp both times at 1 ms.\n")

    # Per length.
    w("## By listed length\n")
    groups = []
    for name, _, _ in LENGTH_GROUPS + [("nomate", 0, 0)]:
        ps = [p for p in probs if length_group(p) == name]
        if ps:
            groups.append((name, ps))
    w("| plies | problems | " + " | ".join(f"{n} solved | {n} median" for n in names) + " |")
    w("|---|---|" + "---|---|" * len(names))
    for gname, ps in groups:
        cells = []
        for n in names:
            sv = [results[(p.index, n)][0].time for p in ps if results[(p.index, n)][1].status == "solved"]
            cells.append(f"{len(sv)} | {fmt_s(median(sv))}")
        w(f"| {gname} | {len(ps)} | " + " | ".join(cells) + " |")
    w("")

    # Per set.
    w("## By set\n")
    w("| set | problems | " + " | ".join(f"{n} solved" for n in names) + " |")
    w("|---|---|" + "---|" * len(names))
    for sname in args.sets:
        ps = [p for p in probs if p.set == sname]
        cells = [str(sum(results[(p.index, n)][1].status == "solved" for p in ps)) for n in names]
        w(f"| {sname} | {len(ps)} | " + " | ".join(cells) + " |")
    w("")

    w("## Wrong answers\n")
    any_wrong = False
    for n in names:
        for p, a, v in summ[n]["wrong"]:
            any_wrong = True
            w(f"- {n}: {p.set} line {p.line_no}: {v.reason}")
    if not any_wrong:
        w("None.")
    w("")
    w("## Solved against time\n")
    w(f"![solved vs time]({plot})\n")
    w("Each curve: how many problems the solver solved within the time on the x axis (its own "
      "per-problem times, sorted).\n")
    path.write_text("\n".join(L), encoding="utf-8")


# -- main -------------------------------------------------------------------------------------


class ProgressLine:
    def __init__(self, total: int):
        self.total, self.t0 = total, time.monotonic()
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def show(self, k: int, solved: dict, force: bool = False) -> None:
        now = time.monotonic()
        if not (self.tty or force or now - self.last >= 10 or k == self.total):
            return
        self.last = now
        s = "  ".join(f"{n} {c}" for n, c in solved.items())
        msg = f"[{k}/{self.total}] {now - self.t0:6.0f} s  solved: {s}"
        if self.tty:
            end = "\n" if k == self.total else ""
            print("\r" + msg + " " * 4, end=end, file=sys.stderr, flush=True)
        else:
            print(msg, file=sys.stderr, flush=True)


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="scripts/bench/run",
        description="Solve the problem sets with tsumugi (USI), cshogi's DfPn and other USI engines; "
        "write docs/bench/report.md and docs/bench/solved_vs_time.png.",
    )
    ap.add_argument("--problems", help="problem-set folder (default $TSUMUGI_PROBLEMS or ../shared/problems)")
    ap.add_argument("--sets", default=",".join(DEFAULT_SETS), help="comma-separated set files (default %(default)s)")
    ap.add_argument("--every", type=int, default=1, help="take every k-th problem of each set")
    ap.add_argument("--offset", type=int, default=0, help="first problem taken with --every (0-based)")
    ap.add_argument("--limit", type=int, help="at most this many problems per set")
    ap.add_argument("--time-ms", type=int, default=1000, help="time limit per problem (default %(default)s)")
    ap.add_argument("--hash-mb", type=int, default=256, help="USI_Hash / --hash-mb (default %(default)s)")
    ap.add_argument("--bin", help="tsumugi binary (default $TSUMUGI_BIN or target/release/tsumugi)")
    ap.add_argument("--via", choices=["usi", "solve"], default="usi", help="how to drive tsumugi")
    ap.add_argument("--post-search", choices=["shortest", "none"],
                    help="tsumugi's PostSearch option (default: the engine's default, shortest)")
    ap.add_argument("--also-first-mate", action="store_true",
                    help="also run tsumugi as 'tsumugi-first' with PostSearch=none (stops at its first "
                    "mate, as cshogi does)")
    ap.add_argument("--engine", action="append", default=[], metavar="NAME=PATH", help="another USI engine")
    ap.add_argument("--setoption", action="append", default=[], metavar="NAME:OPTION=VALUE",
                    help="a USI option for the engine NAME ('tsumugi' or an --engine name)")
    ap.add_argument("--no-cshogi", action="store_true", help="leave out cshogi's DfPn")
    ap.add_argument("--no-tsumugi", action="store_true", help="leave out tsumugi")
    ap.add_argument("--cshogi-nodes", type=int, default=1_000_000,
                    help="cshogi node cap per second of the time limit (default %(default)s)")
    ap.add_argument("--cshogi-depth", type=int, default=999, help="cshogi max depth (default %(default)s)")
    ap.add_argument("--grace-ms", type=int, default=2000, help="wait this long past the limit before 'stop'")
    ap.add_argument("--out-dir", default=str(ROOT / "docs" / "bench"), help="report folder (default docs/bench)")
    a = ap.parse_args(argv)
    a.sets = [s.strip() for s in a.sets.split(",") if s.strip()]
    if a.every < 1 or a.offset < 0 or a.time_ms < 1 or a.hash_mb < 1:
        ap.error("--every, --time-ms and --hash-mb must be positive, --offset not negative")
    for e in a.engine:
        if "=" not in e:
            ap.error(f"--engine {e}: expected NAME=PATH")
    a.options = {}
    for o in a.setoption:
        name, sep, kv = o.partition(":")
        if not sep or "=" not in kv:
            ap.error(f"--setoption {o}: expected NAME:OPTION=VALUE")
        k, v = kv.split("=", 1)
        a.options.setdefault(name, {})[k] = v
    return a


def main(argv=None) -> int:
    args = parse_args(argv)
    probs = load_problems(problems_dir(args.problems), args.sets, args.every, args.offset, args.limit)
    if not probs:
        sys.exit("scripts/bench/report.py: no problems selected")
    binary = command_path(args.bin) if args.bin else engine_path()
    grace = args.grace_ms / 1000
    solvers = []
    m = machine()  # commit and tree state now, before other people's commits during the run
    tmp = tempfile.TemporaryDirectory(prefix="tsumugi-bench-")
    if not args.no_tsumugi:
        if not binary.is_file():
            sys.exit(f"scripts/bench/report.py: {binary} not found: cargo build --release (or --bin / TSUMUGI_BIN)")
        # Run a private copy: a rebuild during the run (by anyone) must not change the engine.
        copy = Path(tmp.name) / binary.name
        shutil.copy2(binary, copy)
        binary = copy
        m["bench"] = bench_signature(binary)
        if args.via == "usi":
            opts = {"PostSearch": args.post_search} if args.post_search else {}
            opts.update(args.options.get("tsumugi", {}))
            solvers.append(UsiSolver("tsumugi", str(binary), args.hash_mb, opts, grace))
        else:
            solvers.append(SolveCliSolver("tsumugi", str(binary), args.hash_mb, args.post_search))
    if args.also_first_mate and not args.no_tsumugi and args.via == "usi":
        solvers.append(UsiSolver("tsumugi-first", str(binary), args.hash_mb, {"PostSearch": "none"}, grace))
    if not args.no_cshogi:
        solvers.append(CshogiSolver(args.cshogi_nodes, args.cshogi_depth))
    for e in args.engine:
        name, path = e.split("=", 1)
        solvers.append(UsiSolver(name, path, args.hash_mb, args.options.get(name, {}), grace))
    if not solvers:
        sys.exit("scripts/bench/report.py: no solver left")

    print(f"bench: {len(probs)} problems × {len(solvers)} solvers, {args.time_ms} ms each "
          f"(at most {len(probs) * len(solvers) * args.time_ms / 60000:.0f} min)", file=sys.stderr)
    results = {}
    solved = {s.name: 0 for s in solvers}
    prog = ProgressLine(len(probs))
    t0 = time.monotonic()
    try:
        for k, p in enumerate(probs, 1):
            for s in solvers:
                a = s.solve(p, args.time_ms)
                v = judge(p, a)
                results[(p.index, s.name)] = (a, v)
                solved[s.name] += v.status == "solved"
                if v.status == "wrong":
                    print(f"\nWRONG {s.name} {p.set}:{p.line_no}: {v.reason}", file=sys.stderr)
            prog.show(k, solved)
    finally:
        for s in solvers:
            s.close()
    elapsed = time.monotonic() - t0

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = [s.name for s in solvers]
    summ = {n: summarize(n, probs, results, args.time_ms / 1000) for n in names}
    plot = "solved_vs_time.png"
    write_plot(out / plot, names, summ, args.time_ms, len(probs))
    write_report(out / "report.md", args, probs, solvers, results, summ, elapsed, m, plot)
    for n in names:
        s = summ[n]
        print(f"{n}: solved {s['solved']}/{s['n']}, wrong {len(s['wrong'])}, median {fmt_s(s['median_solved'])}, "
              f"total {fmt_s(s['total_all'])}", file=sys.stderr)
    print(f"wrote {out / 'report.md'} and {out / plot} ({elapsed:.0f} s)", file=sys.stderr)
    tmp.cleanup()
    return 1 if any(summ[n]["wrong"] for n in names if n == "tsumugi") else 0


if __name__ == "__main__":
    sys.exit(main())
