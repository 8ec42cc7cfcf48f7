#!/usr/bin/env python3
"""Stop latency of the USI engine: `go mate infinite` on a hard no-mate position, `stop` at a
random moment 10..150 ms in, time until `checkmate timeout`; prints the distribution and how
many stops came within the 50 ms goal. Run it on an idle machine (a loaded one delays the
reply whatever the engine does).

    scripts/venv && .venv/bin/python scripts/bench/stop_latency.py [--trials 100] [--bin PATH]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools.stop_latency import GOAL_S, measure, summary  # noqa: E402
from tsumugi_tools.usi import UsiEngine  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--bin", help="engine binary (default: $TSUMUGI_BIN or target/release/tsumugi)")
    args = ap.parse_args()
    eng = UsiEngine(args.bin)
    try:
        lat = measure(eng, args.trials)
    finally:
        eng.close()
    print(summary(lat))
    within = sum(1 for x in lat if x <= GOAL_S)
    print(f"goal (at least 99% within {GOAL_S * 1000:.0f} ms): "
          f"{'met' if within * 100 >= 99 * len(lat) else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
