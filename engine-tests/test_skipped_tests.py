"""A Rust test that cannot run because an input is absent (the shared problem sets) must be
reported by the test runner as ignored, with the reason, never counted as passed.

Runs the Rust test files that read the problem sets with `TSUMUGI_PROBLEMS` pointing at an
empty folder, and checks what the runner says of each test that needs a set."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

# (test file, tests in it that need a problem set).
NEEDS_SETS = {
    "mate_sets": [
        "sample_of_each_set",
        "repetition_failures_never_make_a_mate_nomate",
        "horse_circling_problem_reads_its_shortest_line",
    ],
    "mate_regressions": [
        "rules_non_promotion",
        "rules_pawn_drop_mate",
        "ghi_positions_on_a_mate_line_stay_mates_with_a_warm_table",
        "spare_pieces_tie_break",
    ],
    "mate1_oracle": ["mate1_problem_sets"],
    "threads": ["stop_ends_the_helpers_too"],
}


@pytest.mark.parametrize("test_file", sorted(NEEDS_SETS))
def test_tests_without_problem_sets_are_reported_ignored_not_passed(test_file, tmp_path):
    if shutil.which("cargo") is None:
        pytest.skip("cargo not found")
    empty = tmp_path / "no-problems"
    empty.mkdir()
    env = dict(os.environ, TSUMUGI_PROBLEMS=str(empty))
    for name in NEEDS_SETS[test_file]:
        # One exact filter a run: libtest-mimic takes a single filter.
        cmd = ["cargo", "test", "--release", "--test", test_file, "--", "--exact", name]
        r = subprocess.run(
            cmd, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=1200
        )
        out = r.stdout + r.stderr
        assert r.returncode == 0, out[-4000:]
        line = re.search(rf"^test {re.escape(name)} \.\.\. (.*)$", out, re.M)
        assert line, f"{name} not run:\n{out[-4000:]}"
        verdict = line.group(1)
        assert verdict.startswith("ignored"), f"{name}: {verdict!r}"
        # The reason names the folder looked in.
        assert str(empty) in verdict, verdict
        summary = re.search(r"test result: ok\. (\d+) passed; \d+ failed; (\d+) ignored", out)
        assert summary, out[-4000:]
        assert (summary.group(1), summary.group(2)) == ("0", "1"), summary.group(0)
