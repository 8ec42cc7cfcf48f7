#!/usr/bin/env python3
"""Memory soak: the USI engine's resident memory over one long `go mate infinite`.

Starts the engine, sets `USI_Hash` and `Threads`, `isready`, `position sfen` of a long problem
(default 驚愕の曠野 of long.tsv, a bare-king problem no search finishes in half an hour), `go
mate infinite`, and every --every seconds for --minutes reads the process's VmRSS and VmHWM
(and RssAnon, RssFile) from /proc/PID/status beside the nodes and hashfull of the engine's
last `info` line. Then `stop`, whose one `checkmate` line must come within --stop-s seconds,
and `quit`. Prints a Markdown report: the run's date, commit, CPU and command, the samples
(every Nth of a long run: --rows; all of them to --csv), the peak RSS and the peak over
USI_Hash, with the share of it that is the per-search-thread buffers (docs/reliability.md,
"Memory"). Every figure is measured in this run. A benchmark, not a test: the exit status is 1
only when the engine died or did not answer the `stop`, 2 for a bad argument. Linux only
(/proc).

usage: scripts/bench/soak.py [--minutes 30] [--every 10] [--hash-mb 1024] [--threads 1]
                             [--problem NAME] [--set long.tsv] [--rows 40] [--csv OUT]
                             [--stop-s 5] [--log OUT] [--bin PATH]
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT as ROOT  # noqa: E402
from tsumugi_tools.machine import cpu_model, proc_status_kb  # noqa: E402
from tsumugi_tools.mate_line import verify_mate_line  # noqa: E402
from tsumugi_tools.problems import matching, read_set, set_path  # noqa: E402
from tsumugi_tools.usi import EngineDied, EngineError, EngineTimeout, UsiEngine  # noqa: E402

# The buffers every search thread keeps (repetition table, path and repetition filters, child
# arena), in MB of 2^20 bytes as USI_Hash is. Computed from the code and checked against it by
# `mate::dfpn::tests::scratch_buffers_are_the_documented_size`, which also checks this line.
PER_THREAD_MB = 23.2

# /proc/PID/status fields sampled (kB), and their column names.
FIELDS = (("VmRSS", "rss_mb"), ("VmHWM", "hwm_mb"), ("RssAnon", "anon_mb"), ("RssFile", "file_mb"))

# How long after the `stop`'s answer a second `checkmate` line is waited for (there must be none).
EXTRA_ANSWER_S = 1.0


def proc_memory(pid: int) -> dict[str, float | None]:
    """The FIELDS of /proc/PID/status in MB (None for a field the kernel does not give, and
    all None once the process is gone: the caller notices by the process's status)."""
    kb = proc_status_kb(pid)
    return {col: kb[key] / 1024 if key in kb else None for key, col in FIELDS}


def replay_note(sfen: str, answer: str) -> str:
    """What cshogi says of a `checkmate` answer (the report shows only its start): a line is
    replayed in full; `timeout` and `nomate` are named as they are."""
    words = answer.split()[1:]
    if not words or words[0] in ("timeout", "nomate", "notimplemented"):
        return f"answer `{' '.join(words) or '(empty)'}`: no line to replay"
    ok, why = verify_mate_line(sfen, words)
    return f"the {len(words)}-ply line replayed by cshogi: " + ("ok" if ok else f"**{why}**")


def git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def info_fields(line: str) -> dict[str, int]:
    """`nodes` and `hashfull` of an `info` line (those it has)."""
    words = line.split()
    out = {}
    for i, w in enumerate(words[:-1]):
        if w in ("nodes", "hashfull") and words[i + 1].isdigit():
            out[w] = int(words[i + 1])
        elif w in ("pv", "string"):
            break  # moves or free text follow
    return out


def mb(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def pick_rows(samples: list[dict], rows: int) -> list[dict]:
    """Every Nth sample, so that at most about `rows` are shown; the last one always."""
    if rows <= 0 or len(samples) <= rows:
        return samples
    step = -(-len(samples) // rows)
    shown = samples[::step]
    if shown[-1] is not samples[-1]:
        shown.append(samples[-1])
    return shown


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="length of the search (default 30)")
    ap.add_argument("--every", type=float, default=10.0, help="seconds between samples (default 10)")
    ap.add_argument("--hash-mb", type=int, default=1024, help="USI_Hash (default 1024)")
    ap.add_argument("--threads", type=int, default=1, help="Threads (default 1)")
    ap.add_argument("--problem", default="驚愕の曠野",
                    help="the problem: (part of) its name in the set (default 驚愕の曠野)")
    ap.add_argument("--set", default="long.tsv",
                    help="the set file, in the problem folder (default long.tsv)")
    ap.add_argument("--rows", type=int, default=40,
                    help="most sample rows in the report's table (every Nth; 0: all)")
    ap.add_argument("--csv", metavar="OUT", help="write every sample to this CSV file")
    ap.add_argument("--log", metavar="OUT",
                    help="write every line the engine prints during the search to this file, "
                         "each after its seconds from `go mate`")
    ap.add_argument("--stop-s", type=float, default=5.0,
                    help="seconds the answer to `stop` may take (default 5)")
    ap.add_argument("--bin", help="engine binary (default: $TSUMUGI_BIN or target/release/tsumugi)")
    args = ap.parse_args()
    if args.every <= 0 or args.minutes <= 0 or args.threads < 1 or args.hash_mb < 1:
        print("soak: --every, --minutes, --threads and --hash-mb must be positive", file=sys.stderr)
        return 2

    path = set_path(args.set)
    if not path.is_file():
        print(f"soak: problem set {path} not found (set TSUMUGI_PROBLEMS)", file=sys.stderr)
        return 2
    rows = matching(read_set(path), [args.problem])
    exact = [r for r in rows if r.name == args.problem or r.name.startswith(args.problem + " ")]
    if len(rows) > 1 and len(exact) == 1:
        rows = exact
    if len(rows) != 1:
        names = ", ".join(r.name for r in rows) or "none"
        print(f"soak: --problem {args.problem!r} must name one row of {path} (matched: {names})",
              file=sys.stderr)
        return 2
    row = rows[0]

    started = dt.datetime.now(dt.timezone.utc)
    commit = git("rev-parse", "--short=12", "HEAD")
    subject = git("log", "-1", "--format=%s")
    dirty = bool(git("status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock"))
    command = " ".join(shlex.quote(a) for a in ["scripts/bench/soak.py", *sys.argv[1:]])

    try:
        eng = UsiEngine(args.bin)
    except FileNotFoundError as e:
        print(f"soak: {e}", file=sys.stderr)
        return 2
    pid = eng.proc.pid
    samples: list[dict] = []
    last = {"nodes": None, "hashfull": None}
    failure = None  # why the run failed (the engine died, or did not answer `stop`)
    early = None  # a `checkmate` line that came before `stop`, and when
    stop_answer, stop_took, extra_answers = None, None, []
    idle = None
    final = None
    go_at = time.monotonic()
    log = open(args.log, "w", encoding="utf-8") if args.log else None

    def sample(elapsed: float) -> None:
        row_ = {"elapsed_s": elapsed, "nodes": last["nodes"], "hashfull": last["hashfull"]}
        row_.update(proc_memory(pid))
        samples.append(row_)
        print(f"  {elapsed:7.0f} s  nodes {row_['nodes']}  hashfull {row_['hashfull']}  "
              f"RSS {mb(row_['rss_mb'])} MB  HWM {mb(row_['hwm_mb'])} MB",
              file=sys.stderr, flush=True)

    try:
        # A table of gigabytes is allocated and made resident at `isready`: give it time.
        eng.usi_handshake(60.0, [("USI_Hash", args.hash_mb), ("Threads", args.threads)],
                          ready_timeout=300.0)
        idle = proc_memory(pid)
        eng.send(f"position sfen {row.sfen}")
        eng.send("go mate infinite")
        go_at = time.monotonic()
        end = go_at + args.minutes * 60
        k = 0
        print(f"soak: {row.name}, USI_Hash {args.hash_mb} MB, Threads {args.threads}, "
              f"{args.minutes:g} min, a sample every {args.every:g} s", file=sys.stderr)
        sample(0.0)
        while True:
            k += 1
            due = min(go_at + k * args.every, end)
            while early is None:
                left = due - time.monotonic()
                if left <= 0:
                    break
                try:
                    line = eng.read_line(left)
                except EngineTimeout:
                    break
                if log is not None:
                    log.write(f"{time.monotonic() - go_at:.3f} {line}\n")
                    log.flush()
                if line.startswith("info"):
                    last.update(info_fields(line))
                elif line.startswith("checkmate"):
                    early = (line, time.monotonic() - go_at)
            if eng.proc.poll() is not None:
                raise EngineDied(f"engine exited (code {eng.proc.returncode})")
            if early is not None:
                sample(early[1])
                break
            sample(due - go_at)
            if due >= end:
                break
        if early is None:
            eng.send("stop")
            sent = time.monotonic()
            try:
                for line in eng.read_lines(args.stop_s):
                    if line.startswith("info"):
                        last.update(info_fields(line))
                    elif line.startswith("checkmate"):
                        stop_answer, stop_took = line, time.monotonic() - sent
                        break
            except EngineTimeout:
                failure = f"no `checkmate` line within {args.stop_s:g} s of `stop`"
            if stop_answer is not None:
                try:
                    for line in eng.read_lines(EXTRA_ANSWER_S):
                        if line.startswith("checkmate"):
                            extra_answers.append(line)
                except EngineTimeout:
                    pass
                if extra_answers:
                    failure = f"{1 + len(extra_answers)} `checkmate` lines answered one `go mate`"
        if eng.proc.poll() is None:
            final = proc_memory(pid)
    except EngineDied as e:
        failure = f"the engine died: {str(e).splitlines()[0]}"
    except EngineError as e:
        failure = str(e).splitlines()[0]
    finally:
        code = eng.close()
    if failure is None and code != 0:
        failure = f"the engine exited with status {code} after `quit`"

    # -- report -------------------------------------------------------------------------------
    w = print
    w(f"# Memory soak: {row.name}, USI_Hash {args.hash_mb} MB, Threads {args.threads}")
    w()
    w(f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')}")
    w(f"- Commit: `{commit}` {subject}"
      + (" (plus uncommitted changes in src/)" if dirty else ""))
    w(f"- CPU: {cpu_model()}, {os.cpu_count()} logical cores")
    w(f"- Engine: `{eng.path}`" + (f" ({eng.id_name})" if eng.id_name else ""))
    w(f"- Command: `{command}`")
    w(f"- Problem: {row.name} ({row.expected or '?'} plies; {path.name} line {row.line_no})")
    w()
    w("| elapsed s | nodes | hashfull ‰ | RSS MB | HWM MB | RssAnon MB | RssFile MB |")
    w("|---:|---:|---:|---:|---:|---:|---:|")
    for s in pick_rows(samples, args.rows):
        w(f"| {s['elapsed_s']:.0f} | {s['nodes'] if s['nodes'] is not None else '-'} "
          f"| {s['hashfull'] if s['hashfull'] is not None else '-'} | {mb(s['rss_mb'])} "
          f"| {mb(s['hwm_mb'])} | {mb(s['anon_mb'])} | {mb(s['file_mb'])} |")
    if 0 < args.rows < len(samples):
        w()
        w(f"Every {-(-len(samples) // args.rows)}th of {len(samples)} samples"
          + (f"; all of them in `{args.csv}`." if args.csv else " (--csv OUT writes them all)."))
    w()
    if idle is not None:
        w(f"- After `isready`, before `go mate`: RSS {mb(idle['rss_mb'])} MB "
          f"(the table is allocated and made resident there)")
    # The peak: VmHWM after the answer, else the last one sampled (the engine died).
    peak = final["hwm_mb"] if final is not None else None
    peak_when = "after the answer"
    if peak is None:
        peak = max((s["hwm_mb"] for s in samples if s["hwm_mb"] is not None), default=None)
        peak_when = "the last sampled"
    if peak is not None and peak < args.hash_mb:
        w(f"- Peak RSS (VmHWM, {peak_when}): {peak:.1f} MB, **below USI_Hash**: the engine "
          f"used a smaller table than the {args.hash_mb} MB asked for (it shrinks the table to "
          "the memory available at `isready` and says so in an `info string`)")
    elif peak is not None:
        over = peak - args.hash_mb
        fixed = args.threads * PER_THREAD_MB
        w(f"- Peak RSS (VmHWM, {peak_when}): {peak:.1f} MB")
        w(f"- **Peak over USI_Hash: {over:.1f} MB** ({peak:.1f} − {args.hash_mb}); of it, the "
          f"per-thread buffers: {args.threads} × {PER_THREAD_MB} = {fixed:.1f} MB reserved "
          f"(resident as far as touched); the rest, {over - fixed:.1f} MB: the process (code, "
          f"libraries, stacks, allocator) and the line readers' memory"
          + (" (less than the buffers: the table or the buffers are not all resident yet; a "
             "longer run touches them)" if over < fixed else ""))
    if samples:
        s = samples[-1]
        w(f"- Last sample: {s['elapsed_s']:.0f} s, {s['nodes']} nodes, hashfull {s['hashfull']}")
    if early is not None:
        w(f"- The search answered before the end, at {early[1]:.1f} s: `{early[0][:120]}`; the "
          "samples end there")
        w(f"  - {replay_note(row.sfen, early[0])}")
    elif stop_answer is not None:
        w(f"- `stop` answered in {stop_took * 1000:.0f} ms: `{stop_answer[:120]}`")
        w(f"  - {replay_note(row.sfen, stop_answer)}")
    if failure:
        w(f"- **Failed: {failure}**")

    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            cols = ["elapsed_s", "nodes", "hashfull"] + [col for _, col in FIELDS]
            out = csv.DictWriter(f, fieldnames=cols)
            out.writeheader()
            for s in samples:
                out.writerow({c: (f"{s[c]:.1f}" if isinstance(s[c], float) else s[c])
                              for c in cols})
    if failure:
        print(f"soak: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
