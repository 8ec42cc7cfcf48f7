"""Helpers shared by the USI engine tests (test_usi_*.py): positions, problem-set readers, raw
byte input, a timeout wrapper for cshogi's blocking calls, a watched start of cshogi's client,
and a `go mate` round trip."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

from cshogi.usi import Engine
from tsumugi_tools.problems import read_set
from tsumugi_tools.stop_latency import HARD_NOMATE  # noqa: F401 - the tests import it from here
from usi_engine import EngineTimeout, UsiEngine

# Mate in 1: the gold drops on 5b, defended by the pawn on 5c. No attacker king.
HEAD_MATE = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
HEAD_MATE_ANSWER = "G*5b"
# The same with colours swapped: White attacks.
HEAD_MATE_WHITE = "9/9/9/9/9/9/4p4/9/4K4 w 2R2B3G4S4N4L17Pg 1"
# Mate in 3 (several answers of length 3).
MATE3 = "7k1/9/6R2/9/9/9/9/9/9 b G 1"
# No mate: the gold cannot approach a king in the open with the pawn ahead of it.
NOMATE = "9/3k5/9/3P5/9/9/9/9/9 b G2r2b4s4n4l17p 1"
# HARD_NOMATE (imported above): a bare king with a few pieces in hand: no mate, and very slow to
# prove (a long search).

INFO_RE = re.compile(
    r"^info time \d+ nodes \d+ nps \d+ hashfull \d+"
    r"( score mate -?\d+)?"
    r"( pv( (?:[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]))+)?$"
)


def read_problems(path: Path, limit: int | None = None) -> list[tuple[str, str]]:
    """(sfen, expected) pairs of a problem set (`<sfen>\\t<expected>...` lines), skipping
    comments and header lines."""
    return [(r.sfen, r.expected) for r in read_set(path)][:limit]


def send_bytes(eng: UsiEngine, data: bytes) -> None:
    """Write raw bytes (any encoding, any garbage) to the engine's stdin."""
    eng.proc.stdin.flush()
    eng.proc.stdin.buffer.write(data)
    eng.proc.stdin.buffer.flush()


def call_with_timeout(fn, timeout: float, *args, **kwargs):
    """Run `fn` in a daemon thread; return its result, re-raise its exception, or raise
    TimeoutError if it has not returned after `timeout` seconds (cshogi's `go_mate` loops
    forever on a dead engine, so it must never run on the test's own thread)."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box["error"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        raise TimeoutError(f"{getattr(fn, '__name__', fn)} did not return within {timeout}s")
    if "error" in box:
        raise box["error"]
    return box.get("value")


class EngineStartFailed(AssertionError):
    """The engine did not complete the `usi` handshake: it exited, or did not answer in time."""


def start_cshogi_engine(path: str, timeout: float):
    """A connected `cshogi.usi.Engine` on `path`: cshogi's own `connect` (Popen, `usi`, read to
    `usiok`) on its own thread, watched. If the process ends before `usiok` (cshogi's loop
    compares bytes with '' and so never sees the end of the pipe: it would spin), `connect`
    raises, or `timeout` passes, raises EngineStartFailed with the exit code and what the process
    wrote to stderr, after killing the process and closing its pipes (which ends cshogi's
    loop)."""
    eng = Engine(path, connect=False)
    box: dict = {}

    def connect():
        try:
            eng.connect()
        except BaseException as e:  # noqa: BLE001 - reported below
            box["error"] = e

    t = threading.Thread(target=connect, daemon=True)
    t.start()
    deadline = time.monotonic() + timeout
    exited = None
    while t.is_alive() and time.monotonic() < deadline:
        proc = getattr(eng, "proc", None)
        if proc is not None and proc.poll() is not None:
            # Give the reader a moment in case `usiok` came just before the exit.
            t.join(0.5)
            if t.is_alive():
                exited = proc.returncode
            break
        t.join(0.05)
    if not t.is_alive() and exited is None and "error" not in box:
        return eng
    proc = eng.proc
    if exited is None and proc is not None and proc.poll() is not None:
        exited = proc.returncode
    if exited is not None:
        state = f"exited with code {exited} before usiok"
    elif "error" in box:
        state = f"connect raised {box['error']!r}"
    else:
        state = f"no usiok after {timeout} s"
    err = b""
    if proc is not None:
        if proc.poll() is None:
            proc.kill()
        try:
            err = proc.communicate(timeout=5)[1] or b""
        except Exception as e:  # noqa: BLE001 - the message below says what is known
            err = f"(stderr not read: {e})".encode()
    t.join(1)
    raise EngineStartFailed(
        f"starting {path} over USI: {state}; stderr: "
        f"{err.decode('utf-8', 'replace').strip()[-2000:] or '(empty)'}"
    )


def go_mate(eng: UsiEngine, sfen: str, time_arg: str = "10000", timeout: float = 30.0):
    """`position sfen <sfen>` + `go mate <time_arg>`; returns (answer words, info lines).

    Checks that every line between `go` and `checkmate` is a well-formed `info` line."""
    eng.send(f"position sfen {sfen}")
    eng.send(f"go mate {time_arg}".rstrip())
    line, before = eng.wait_for("checkmate", timeout)
    for b in before:
        assert b.startswith("info "), f"unexpected line before checkmate: {b!r}"
        if not b.startswith("info string "):
            assert INFO_RE.match(b), f"malformed info line: {b!r}"
    assert line.startswith("checkmate "), line
    return line.split()[1:], before


def assert_silent(eng: UsiEngine, wait: float = 0.2) -> None:
    """No stdout line arrives within `wait` seconds (catches extra answers)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            line = eng.read_line(max(0.01, deadline - time.monotonic()))
        except EngineTimeout:
            return
        raise AssertionError(f"unexpected output: {line!r}")
