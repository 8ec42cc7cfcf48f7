"""Stop latency: during a long `go mate infinite` on a hard no-mate position, the `checkmate`
line must arrive within 50 ms of `stop` in at least 99 of 100 trials. The distribution is
printed (run pytest with -s to see it)."""

from __future__ import annotations

import random
import statistics
import time

import pytest

from usi_engine import EngineTimeout
from usi_helpers import HARD_NOMATE

TRIALS = 100
LIMIT_S = 0.050


def drain(eng, wait: float) -> list[str]:
    """Lines that arrive within `wait` seconds."""
    out = []
    deadline = time.monotonic() + wait
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return out
        try:
            out.append(eng.read_line(left))
        except EngineTimeout:
            return out


@pytest.mark.timeout(60)
def test_stop_latency_distribution(engine):
    engine.send("setoption name USI_Hash value 64")
    engine.usi_handshake()
    engine.send(f"position sfen {HARD_NOMATE}")
    rng = random.Random(20240601)
    latencies = []
    for i in range(TRIALS):
        engine.send("go mate infinite")
        # Stop at varied moments of the search (10..150 ms in).
        early = drain(engine, rng.uniform(0.010, 0.150))
        answered = [l for l in early if l.startswith("checkmate")]
        assert not answered, f"trial {i}: answered before stop: {answered}"
        t0 = time.perf_counter()
        engine.send("stop")
        line, _ = engine.wait_for("checkmate", 5)
        latencies.append(time.perf_counter() - t0)
        assert line == "checkmate timeout", f"trial {i}: {line}"
    ms = sorted(x * 1000 for x in latencies)
    within = sum(1 for x in latencies if x <= LIMIT_S)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)) - 1)]
    summary = (
        f"stop latency over {TRIALS} trials: min {ms[0]:.2f} ms, median "
        f"{statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms; "
        f"{within}/{TRIALS} within {LIMIT_S * 1000:.0f} ms"
    )
    print("\n" + summary)
    assert within >= 99, summary
