"""What a benchmark report says of the machine it ran on, and what a process holds in it."""

from __future__ import annotations

import platform
from pathlib import Path


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what `platform` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def proc_status_kb(pid: int) -> dict[str, int]:
    """The `key:  N kB` fields of /proc/PID/status (VmRSS, VmHWM, RssAnon, ...), in kB; empty
    where there is no such file (not Linux, or the process is gone)."""
    out: dict[str, int] = {}
    try:
        text = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return out
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        words = rest.split()
        if len(words) == 2 and words[1] == "kB" and words[0].isdigit():
            out[key] = int(words[0])
    return out
