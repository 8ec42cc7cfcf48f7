"""Stop: during a long `go mate infinite` on a hard no-mate position, every `stop` (100 of
them, at varied moments) is answered with `checkmate timeout`, never earlier, and within a
second (a bound for a hang or a search that ignores the flag, loose enough for a loaded
machine). The latency distribution is printed (pytest -s); the 50 ms goal is a benchmark
figure: `scripts/bench/stop_latency.py`."""

from __future__ import annotations

import pytest

from tsumugi_tools.stop_latency import measure, summary

TRIALS = 100
BOUND_S = 1.0


@pytest.mark.timeout(120)
def test_every_stop_answered(engine):
    latencies = measure(engine, TRIALS)
    text = summary(latencies)
    print("\n" + text)
    slow = [f"{x * 1000:.0f} ms" for x in latencies if x > BOUND_S]
    assert not slow, f"stops answered after more than {BOUND_S} s: {slow}; {text}"
