"""Fresh v1 cgroups for the engine tests that need a limit only a cgroup gives (a pid limit, a
memory limit): made below the test process's own cgroup of the controller, removed afterwards.

`make(controller)` skips the calling test, with the reason, when the test is not run as root or
the controller is not mounted writable at /sys/fs/cgroup/<controller>.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from pathlib import Path

import pytest

ROOT = Path("/sys/fs/cgroup")
_count = itertools.count()


def own_path(controller: str) -> str:
    """This process's cgroup of the v1 `controller`, as /proc/self/cgroup gives it ("/x/y")."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path
    pytest.skip(f"no {controller} line in /proc/self/cgroup")


@contextlib.contextmanager
def make(controller: str, settings: dict[str, str] | None = None):
    """A fresh cgroup of `controller` with `settings` (file name: value) written; yields
    (directory, path as /proc/<pid>/cgroup names it). Removed at the end, once its processes
    have ended (the caller ends them)."""
    if os.geteuid() != 0:
        pytest.skip(f"not root: cannot make a {controller} cgroup")
    mount = ROOT / controller
    if not (mount / "cgroup.procs").is_file():
        pytest.skip(f"no v1 {controller} controller mounted at {mount}")
    parent = own_path(controller).rstrip("/")
    name = f"tsumugi-test-{os.getpid()}-{next(_count)}"
    path = f"{parent}/{name}"
    d = mount / path.lstrip("/")
    try:
        d.mkdir()
    except OSError as e:
        pytest.skip(f"cannot make the cgroup {d}: {e}")
    try:
        for file, value in (settings or {}).items():
            (d / file).write_text(value)
        yield d, path
    finally:
        # The processes may take a moment to leave after they are killed.
        for _ in range(50):
            try:
                d.rmdir()
                break
            except OSError:
                time.sleep(0.1)
        else:
            d.rmdir()


def join(d: Path, pid: int) -> None:
    """Moves the process `pid` (all its threads) into the cgroup `d`."""
    (d / "cgroup.procs").write_text(str(pid))


def threads_of(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))
