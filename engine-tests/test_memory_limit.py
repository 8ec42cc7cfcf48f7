"""A memory cgroup's limit (a container's, a job's) below the table size asked for: the table is
reduced to what the cgroup allows, in one line that names the cgroup, and the engine answers
instead of being killed by the cgroup's OOM killer."""

from __future__ import annotations

import subprocess

import cgroups
from conftest import verify_mate_line
from usi_engine import UsiEngine, engine_path

MATE1 = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
MATE3 = "7k1/9/6R2/9/9/9/9/9/9 b G 1"
LIMIT = 512 << 20


def inside(d) -> list[str]:
    """A command line that joins the cgroup `d` and then runs the engine with the arguments."""
    return ["-c", f'echo $$ > {d / "cgroup.procs"} && exec "$0" "$@"', str(engine_path())]


def test_usi_hash_over_a_cgroup_limit_is_reduced_naming_the_cgroup():
    with cgroups.make("memory", {"memory.limit_in_bytes": str(LIMIT)}) as (d, path):
        eng = UsiEngine("/bin/sh", inside(d))
        try:
            eng.send("usi")
            eng.wait_for("usiok", 10)
            eng.send("setoption name USI_Hash value 2048")
            eng.send("isready")
            _, before = eng.wait_for("readyok", 60)
            notes = [l for l in before if l.startswith("info string USI_Hash 2048 MB")]
            assert len(notes) == 1, before
            want = f"info string USI_Hash 2048 MB is more than the memory limit of cgroup {path} allows (512 MB limit, "
            assert notes[0].startswith(want), (notes[0], want)
            used = int(notes[0].split("using ")[1].split(" MB")[0])
            assert 0 < used < 512, notes[0]
            eng.send(f"position sfen {MATE3}")
            eng.send("go mate 30000")
            line, _ = eng.wait_for("checkmate", 60)
            ok, why = verify_mate_line(MATE3, line.split()[1:])
            assert ok, (line, why)
            eng.send("isready")
            eng.wait_for("readyok", 60)
        finally:
            rc = eng.close()
        assert rc == 0, (rc, eng.stderr)


def test_solve_over_a_cgroup_limit_warns_naming_the_cgroup_and_answers():
    with cgroups.make("memory", {"memory.limit_in_bytes": str(LIMIT)}) as (d, path):
        r = subprocess.run(
            ["/bin/sh", *inside(d), "solve", "--hash-mb", "2048", MATE1],
            capture_output=True, text=True, timeout=120,
        )
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert r.stdout.startswith("checkmate G*5b"), r.stdout
    warnings = [l for l in r.stderr.splitlines() if l.startswith("warning: --hash-mb 2048")]
    want = f"warning: --hash-mb 2048 is more than the memory limit of cgroup {path} allows (512 MB limit, "
    assert len(warnings) == 1 and warnings[0].startswith(want), (r.stderr, want)
