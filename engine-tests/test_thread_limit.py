"""A process or thread limit (a container's pid limit, `ulimit -u`) reached: the engine makes
its table ready and searches without the threads it cannot start, instead of panicking."""

from __future__ import annotations

import cgroups
from conftest import verify_mate_line
from usi_engine import UsiEngine

MATE3 = "7k1/9/6R2/9/9/9/9/9/9 b G 1"


def test_isready_and_go_mate_with_no_thread_to_spare():
    with cgroups.make("pids") as (d, _):
        eng = UsiEngine()
        try:
            eng.send("usi")
            eng.wait_for("usiok", 10)
            cgroups.join(d, eng.proc.pid)
            # No thread more than the engine has now: the table's and the search's helpers
            # cannot start.
            (d / "pids.max").write_text((d / "pids.current").read_text().strip())
            eng.send("setoption name Threads value 2")
            eng.send("setoption name USI_Hash value 256")
            eng.send("isready")
            eng.wait_for("readyok", 60)
            eng.send(f"position sfen {MATE3}")
            eng.send("go mate 30000")
            line, _ = eng.wait_for("checkmate", 60)
            moves = line.split()[1:]
            ok, why = verify_mate_line(MATE3, moves)
            assert ok, (line, why)
            assert "panicked" not in eng.stderr, eng.stderr
        finally:
            eng.kill()
