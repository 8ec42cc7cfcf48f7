"""A USI client: drives an engine process (tsumugi, another USI engine, a stand-in) as a GUI
does, for the engine tests and the benchmarks.

Every read has a timeout: a reader thread moves stdout lines into a queue, so a dead or silent
engine raises `EngineTimeout`/`EngineDied` instead of hanging the caller. Stderr is drained by
its own thread into memory (the engine may log freely without ever blocking on a full pipe)
and is shown in error messages. `close()` sends `quit` and kills an engine that does not exit
in time; `kill()` ends a hung one at once.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

from . import REPO_ROOT

DEFAULT_BIN = REPO_ROOT / "target" / "release" / "tsumugi"

# Marks the end of stdout in the line queue.
_EOF = object()

# How many stdout lines (`transcript`) and stderr lines a long run keeps: the last ones, which
# are what an error message shows.
KEEP_LINES = 20_000


class EngineError(AssertionError):
    """The engine did not answer as expected. An AssertionError, so pytest reports it as a failure."""


class EngineTimeout(EngineError):
    pass


class EngineDied(EngineError):
    pass


def engine_path() -> Path:
    """The binary under test: $TSUMUGI_BIN (relative to the repository root), else
    target/release/tsumugi under the repository root."""
    p = Path(os.environ.get("TSUMUGI_BIN") or DEFAULT_BIN)
    return p if p.is_absolute() else REPO_ROOT / p


def command_path(cmd: str | os.PathLike) -> Path:
    """An engine named on a command line: a path (relative to the current folder) made
    absolute; a bare name looked up on PATH (left as it is when not found there)."""
    s = os.fspath(cmd)
    if os.sep not in s:
        found = shutil.which(s)
        return Path(found) if found else Path(s)
    return Path(s).resolve()


def _trim(lines: list) -> None:
    if len(lines) > 2 * KEEP_LINES:
        del lines[:-KEEP_LINES]


class UsiEngine:
    """One engine process.

    `path`: the binary (default `engine_path()`; a relative path is taken from the current
    folder, a bare name from PATH). `args`: its arguments. `cwd`: the folder it runs in (some
    engines, KomoringHeights among them, read files beside themselves: pass its folder)."""

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        args: list[str] | None = None,
        cwd: str | os.PathLike | None = None,
    ):
        self.path = engine_path() if path is None else command_path(path)
        if not self.path.is_file():
            raise FileNotFoundError(
                f"engine binary not found at {self.path}; build it (cargo build --release) "
                "or set TSUMUGI_BIN"
            )
        self.proc = subprocess.Popen(
            [str(self.path), *(args or [])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,  # line-buffered writes
            cwd=None if cwd is None else str(cwd),
        )
        self._lines: queue.Queue = queue.Queue()
        self._stderr: list[str] = []
        # The stdout lines received so far, in order (the last KEEP_LINES of a long run), for
        # failure messages and debugging.
        self.transcript: list[str] = []
        # From the handshake: the engine's `id name` and the names of the options it declares.
        self.id_name: str | None = None
        self.option_names: set[str] = set()
        self._stdout_thread = threading.Thread(target=self._pump_stdout, daemon=True)
        self._stderr_thread = threading.Thread(target=self._pump_stderr, daemon=True)
        self._stdout_thread.start()
        self._stderr_thread.start()

    # -- background readers ------------------------------------------------------------------

    def _pump_stdout(self) -> None:
        try:
            for line in self.proc.stdout:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass  # the pipe was closed under us (kill): that is the end of stdout
        finally:
            self._lines.put(_EOF)

    def _pump_stderr(self) -> None:
        try:
            for line in self.proc.stderr:
                self._stderr.append(line)
                _trim(self._stderr)
        except (OSError, ValueError):
            pass

    @property
    def stderr(self) -> str:
        """What the engine wrote to stderr so far (the last KEEP_LINES lines of a long run)."""
        return "".join(self._stderr)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def _context(self) -> str:
        tail = "\n".join(self.transcript[-20:])
        err = self.stderr[-2000:]
        return f"\n--- last stdout lines ---\n{tail}\n--- stderr (tail) ---\n{err}"

    # -- protocol ----------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one command line to the engine; EngineDied when it has exited."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as e:
            raise EngineDied(
                f"could not send {line!r}: engine exited (code {self.proc.poll()}): {e}"
                + self._context()
            ) from None

    def read_line(self, timeout: float) -> str:
        """The next stdout line; raises EngineTimeout after `timeout` seconds, EngineDied at EOF."""
        try:
            item = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise EngineTimeout(
                f"no output from engine within {timeout:.1f}s" + self._context()
            ) from None
        if item is _EOF:
            self._lines.put(_EOF)  # later reads see EOF too
            try:
                code = self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = None  # stdout closed, the process not yet gone
            raise EngineDied(f"engine closed stdout (exit code {code})" + self._context())
        self.transcript.append(item)
        _trim(self.transcript)
        return item

    def read_lines(self, timeout: float):
        """The stdout lines as they come, for `timeout` seconds in all: an iterator the caller
        leaves at the line it waits for. Raises EngineTimeout at the deadline, EngineDied at EOF."""
        deadline = time.monotonic() + timeout
        while True:
            yield self.read_line(deadline - time.monotonic())

    def wait_for(self, prefix: str, timeout: float) -> tuple[str, list[str]]:
        """Read lines until one starts with `prefix`.

        Returns (matching line, lines read before it). The timeout covers the whole wait.
        """
        deadline = time.monotonic() + timeout
        before: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineTimeout(
                    f"no line starting with {prefix!r} within {timeout:.1f}s" + self._context()
                )
            try:
                line = self.read_line(left)
            except EngineTimeout:
                raise EngineTimeout(
                    f"no line starting with {prefix!r} within {timeout:.1f}s" + self._context()
                ) from None
            if line.startswith(prefix):
                return line, before
            before.append(line)

    def usi_handshake(
        self,
        timeout: float = 10.0,
        options=(),
        declared_only: bool = False,
        ready_timeout: float | None = None,
    ) -> list[str]:
        """`usi` ... `usiok`, a `setoption` for each of `options` ((name, value) pairs or a
        dict), then `isready` ... `readyok`. Returns the lines before `usiok` (their `id name`
        and option names are kept in `id_name` and `option_names`).

        `declared_only`: send only the options the engine declared (and `USI_*` ones), so one
        set of options can go to different engines. `ready_timeout`: the wait for `readyok`
        (default `timeout`; a large hash table takes a while to allocate)."""
        self.send("usi")
        _, lines = self.wait_for("usiok", timeout)
        for line in lines:
            if line.startswith("id name "):
                self.id_name = line[len("id name "):].strip()
            elif line.startswith("option name "):
                words = line.split()
                if len(words) > 2:
                    self.option_names.add(words[2])
        pairs = options.items() if isinstance(options, dict) else options
        for name, value in pairs:
            if declared_only and name not in self.option_names and not name.startswith("USI_"):
                continue
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok", timeout if ready_timeout is None else ready_timeout)
        return lines

    def kill(self) -> int:
        """End the process at once (a hung engine). Returns the exit code."""
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.wait(timeout=5)

    def close(self, timeout: float = 5.0) -> int:
        """Send `quit`, wait up to `timeout` seconds, then kill. Returns the exit code."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except EngineDied:
                pass
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._stdout_thread.join(timeout=2)
        self._stderr_thread.join(timeout=2)
        return self.proc.returncode

    def __enter__(self) -> "UsiEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def start_engine(
    cmd: str | os.PathLike, options=(), timeout: float = 120.0, declared_only: bool = False
) -> UsiEngine:
    """An engine named on a command line (`command_path`), started in its own folder (some
    engines, KomoringHeights among them, read files beside themselves), after the handshake
    with `options` ((name, value) pairs or a dict; `declared_only` as in `usi_handshake`).
    `timeout` covers each step of the handshake (a large hash table takes a while to
    allocate)."""
    path = command_path(cmd)
    eng = UsiEngine(path, cwd=path.parent)
    try:
        eng.usi_handshake(timeout, options, declared_only)
    except BaseException:
        eng.kill()
        raise
    return eng
