"""Tests of rate_plot.py: the rates over a window, the table and the argument errors."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import rate_plot  # noqa: E402


def write_csv(path: Path, rows: list[tuple[float, int | str, int | str]]) -> str:
    lines = ["elapsed_s,nodes,hashfull,rss_mb"]
    lines += [f"{t},{n},{h},1.0" for t, n, h in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_rates_are_taken_over_the_window_not_between_neighbours():
    # 1000 nodes/s for 60 s, then a 30 s stall, then 1000 nodes/s again.
    samples = [(0.0, 0, 0), (30.0, 30_000, 1), (60.0, 60_000, 2), (90.0, 60_000, 3),
               (120.0, 90_000, 4)]
    r = dict(rate_plot.rates(samples, 60.0))
    assert r[30.0] == 1000.0
    assert r[60.0] == 1000.0
    # Over the 60 s before 90 s: 30,000 nodes in 60 s, not 0 (the stall alone).
    assert r[90.0] == 500.0
    assert r[120.0] == 500.0


def test_table_reads_the_csv_and_skips_rows_without_nodes(tmp_path, capsys):
    csv_path = write_csv(tmp_path / "a.csv", [(0, "", ""), (60, 60_000, 100), (600, 600_000, 500),
                                             (1200, 1_200_000, 700)])
    assert rate_plot.main(["--series", f"run={csv_path}", "--window", "600", "--at", "10,20,30"]) == 0
    out = capsys.readouterr().out
    assert "| 10 | 1 | 500 |" in out  # 540,000 nodes over 540 s
    assert "| 20 | 1 | 700 |" in out  # 600,000 over the last 600 s
    assert "| 30 | - | - |" in out  # past the run's end


def test_bad_series_argument_is_refused(tmp_path, capsys):
    assert rate_plot.main(["--series", "no-equals-sign"]) == 2
    assert "LABEL=CSV" in capsys.readouterr().err
    one = write_csv(tmp_path / "one.csv", [(0, 5, 1)])
    assert rate_plot.main(["--series", f"x={one}"]) == 2
    assert "fewer than two samples" in capsys.readouterr().err


def test_minutes_that_are_not_numbers_are_refused(tmp_path, capsys):
    csv_path = write_csv(tmp_path / "a.csv", [(0, 0, 0), (60, 60_000, 100)])
    assert rate_plot.main(["--series", f"run={csv_path}", "--at", "ten"]) == 2
    assert "--at" in capsys.readouterr().err
