"""A small USI client for driving the tsumugi binary from tests.

Every read has a timeout: a reader thread moves stdout lines into a queue, so a dead or silent
engine makes a test fail with `EngineTimeout`/`EngineDied` instead of hanging it. Stderr is
drained by its own thread into memory (the engine may log freely without ever blocking on a full
pipe) and is shown in error messages.
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BIN = REPO_ROOT / "target" / "release" / "tsumugi"

# Marks the end of stdout in the line queue.
_EOF = object()


class EngineError(AssertionError):
    """The engine did not answer as expected. An AssertionError, so pytest reports it as a failure."""


class EngineTimeout(EngineError):
    pass


class EngineDied(EngineError):
    pass


def engine_path() -> Path:
    """The binary under test: $TSUMUGI_BIN, else target/release/tsumugi under the repo root."""
    p = Path(os.environ.get("TSUMUGI_BIN") or DEFAULT_BIN)
    return p if p.is_absolute() else REPO_ROOT / p


class UsiEngine:
    def __init__(self, path: str | os.PathLike | None = None, args: list[str] | None = None):
        self.path = Path(path) if path is not None else engine_path()
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
        )
        self._lines: queue.Queue = queue.Queue()
        self._stderr: list[str] = []
        # Every stdout line received so far, in order (for failure messages and debugging).
        self.transcript: list[str] = []
        self._stdout_thread = threading.Thread(target=self._pump_stdout, daemon=True)
        self._stderr_thread = threading.Thread(target=self._pump_stderr, daemon=True)
        self._stdout_thread.start()
        self._stderr_thread.start()

    # -- background readers ------------------------------------------------------------------

    def _pump_stdout(self) -> None:
        try:
            for line in self.proc.stdout:
                self._lines.put(line.rstrip("\r\n"))
        finally:
            self._lines.put(_EOF)

    def _pump_stderr(self) -> None:
        for line in self.proc.stderr:
            self._stderr.append(line)

    @property
    def stderr(self) -> str:
        """What the engine wrote to stderr so far."""
        return "".join(self._stderr)

    def _context(self) -> str:
        tail = "\n".join(self.transcript[-20:])
        err = self.stderr[-2000:]
        return f"\n--- last stdout lines ---\n{tail}\n--- stderr (tail) ---\n{err}"

    # -- protocol ----------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one command line to the engine."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineDied(
                f"could not send {line!r}: engine exited (code {self.proc.poll()}): {e}"
                + self._context()
            ) from None

    def read_line(self, timeout: float) -> str:
        """The next stdout line; raises EngineTimeout after `timeout` seconds, EngineDied at EOF."""
        try:
            item = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineTimeout(
                f"no output from engine within {timeout:.1f}s" + self._context()
            ) from None
        if item is _EOF:
            self._lines.put(_EOF)  # later reads see EOF too
            code = self.proc.wait(timeout=5)
            raise EngineDied(f"engine closed stdout (exit code {code})" + self._context())
        self.transcript.append(item)
        return item

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

    def usi_handshake(self, timeout: float = 10.0) -> list[str]:
        """`usi` ... `usiok`, then `isready` ... `readyok`. Returns the lines before `usiok`."""
        self.send("usi")
        _, lines = self.wait_for("usiok", timeout)
        self.send("isready")
        self.wait_for("readyok", timeout)
        return lines

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
                self.proc.kill()
                self.proc.wait(timeout=5)
        self._stdout_thread.join(timeout=2)
        self._stderr_thread.join(timeout=2)
        return self.proc.returncode

    def __enter__(self) -> "UsiEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
