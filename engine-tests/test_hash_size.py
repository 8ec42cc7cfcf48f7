"""Table sizes the machine cannot give: reduced or refused in one line, never an abort.

`--hash-mb` accepts up to 1048576 MB and `USI_Hash` up to 65536 MB, more than most machines
have; an allocation can also fail later, when another process has taken the memory meanwhile
(simulated here with an address-space limit, `ulimit -v`).
"""

from __future__ import annotations

import subprocess

from usi_engine import UsiEngine, engine_path

MATE1 = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
ABORTED = (134, -6)  # SIGABRT as an exit status and as Popen reports a signal


def run(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(engine_path()), *args], capture_output=True, text=True, timeout=timeout
    )


def test_solve_and_check_with_a_table_larger_than_memory_warn_in_one_line_and_answer():
    for args in (
        ["solve", "--hash-mb", "1000000", MATE1],
        ["check", "--hash-mb", "1000000", MATE1],
    ):
        r = run(args)
        assert r.returncode not in ABORTED, (args, r.stderr)
        assert "memory allocation" not in r.stderr, r.stderr
        assert r.returncode == 0, (args, r.returncode, r.stderr)
        warnings = [l for l in r.stderr.splitlines() if "--hash-mb 1000000" in l]
        assert len(warnings) == 1, r.stderr
        assert warnings[0].startswith("warning: --hash-mb 1000000 is more than the available"), r.stderr
        if args[0] == "solve":
            assert r.stdout.startswith("checkmate G*5b"), r.stdout


def test_batch_with_a_table_larger_than_memory_warns_once_and_answers(tmp_path):
    problems = tmp_path / "one.tsv"
    problems.write_text(MATE1 + "\n")
    r = run(["solve", "--batch", str(problems), "--jobs", "1", "--hash-mb", "1000000"])
    assert r.returncode not in ABORTED, r.stderr
    assert r.returncode == 0, r.stderr
    assert sum("warning: --hash-mb 1000000" in l for l in r.stderr.splitlines()) == 1, r.stderr
    assert '"result":"mate"' in r.stdout.replace(" ", ""), r.stdout


def limited(args: list[str], kb: int) -> list[str]:
    """`args` run with an address-space limit of `kb` KB: allocations beyond it fail."""
    return ["-c", f'ulimit -v {kb}; exec "$0" "$@"', str(engine_path()), *args]


def test_a_table_that_cannot_be_allocated_is_reduced_and_the_usi_engine_keeps_serving():
    # 4096 MB: over the 3 GB address-space limit, so the allocation fails, and under the cap of
    # 3/4 of the available memory on any machine with 5.5 GB available, so that the cap does
    # not reduce it first (8192 MB was reduced by the cap while other searches held 16 GB).
    eng = UsiEngine("/bin/sh", limited([], 3_000_000))
    try:
        eng.send("usi")
        eng.wait_for("usiok", 10)
        eng.send("setoption name USI_Hash value 4096")
        eng.send("isready")
        _, before = eng.wait_for("readyok", 30)
        notes = [b for b in before if b.startswith("info string USI_Hash 4096 MB could not")]
        assert len(notes) == 1, before
        eng.send(f"position sfen {MATE1}")
        eng.send("go mate 10000")
        line, _ = eng.wait_for("checkmate", 30)
        assert line == "checkmate G*5b"
        eng.send("isready")
        eng.wait_for("readyok", 30)
    finally:
        rc = eng.close()
    assert rc not in ABORTED


def test_solve_with_a_table_that_cannot_be_allocated_reduces_it_and_answers():
    r = subprocess.run(
        ["/bin/sh", *limited(["solve", "--hash-mb", "8192", MATE1], 3_000_000)],
        capture_output=True, text=True, timeout=60,
    )
    assert r.returncode not in ABORTED, r.stderr
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("checkmate G*5b"), r.stdout
    lines = [l for l in r.stderr.splitlines() if "could not be allocated" in l]
    assert len(lines) == 1, r.stderr
