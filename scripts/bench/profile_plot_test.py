"""Tests of profile_plot.py: reading the profile lines, the table, the argument errors."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import profile_plot  # noqa: E402


def line(stamp: str, nodes: int, secs: float, fresh: int, plies: str, hashfull: int) -> str:
    return (f"[{stamp} INFO  tsumugi::mate::dfpn::monitor] search profile: {nodes} nodes in "
            f"{secs} s ({int(nodes / secs)} nodes/s), {fresh} of them new positions "
            f"({100 * fresh / nodes:.2f}%); 5 of {nodes} children searched came back unchanged; "
            f"plies {plies}; hashfull {hashfull}")


LOG = [
    "[2026-11-28T11:07:28Z INFO  tsumugi::mate] table of 16384 MB made resident in 31.0 s",
    line("2026-11-28T11:08:30Z", 1_000_000, 60.0, 600_000, "p10 10 p50 20 p90 30 max 40", 100),
    "... 60 s, 1000 nodes, 16 nodes/s, hashfull 100",
    line("2026-11-28T11:10:30Z", 3_000_000, 120.0, 300_000, "p10 100 p50 200 p90 8191+ max 8191+", 300),
]


def test_intervals_are_timed_from_the_start_of_the_first():
    run = profile_plot.read_log(LOG)
    assert [iv.end_s for iv in run] == [60.0, 180.0]
    assert [iv.total for iv in run] == [1_000_000, 4_000_000]
    assert run[0].fresh_pct == 60.0 and run[1].fresh_pct == 10.0
    assert run[1].knps == 25.0
    # The last bucket's "8191+" reads as 8191.
    assert (run[1].p50, run[1].p90, run[1].max_ply) == (200, 8191, 8191)


def test_table_takes_the_last_line_by_each_minute(tmp_path, capsys):
    log = tmp_path / "engine.err"
    log.write_text("\n".join(LOG) + "\n", encoding="utf-8")
    assert profile_plot.main(["--series", f"run={log}", "--at", "0.5,1,2,3,10"]) == 0
    out = capsys.readouterr().out
    assert "| 0.5 | - |" in out  # before the first line
    assert "| 1 | 1 | 17 | 60% | 10 / 20 / 30 | 40 | 100 |" in out
    assert "| 2 | 1 | 17 | 60% |" in out  # the second interval ends at 3 minutes
    assert "| 3 | 4 | 25 | 10% | 100 / 200 / 8191 | 8191 | 300 |" in out
    assert "| 10 | - |" in out  # past the run's end


def test_bad_arguments_are_refused(tmp_path, capsys):
    empty = tmp_path / "empty.err"
    empty.write_text("nothing here\n", encoding="utf-8")
    assert profile_plot.main(["--series", "no-equals-sign"]) == 2
    assert profile_plot.main(["--series", f"run={tmp_path / 'missing.err'}"]) == 2
    assert profile_plot.main(["--series", f"run={empty}"]) == 2
    assert "RUST_LOG=info" in capsys.readouterr().err
    log = tmp_path / "engine.err"
    log.write_text("\n".join(LOG) + "\n", encoding="utf-8")
    assert profile_plot.main(["--series", f"run={log}", "--at", "ten"]) == 2
