#!/usr/bin/env python3
"""What `usinewgame` costs the next answer: `USI_Hash` H, `isready` (the table made resident),
then N rounds of `usinewgame` + `position` of a mate in 1 + `go mate 1000`, each timed from
sending `usinewgame` to reading `checkmate`; prints the median and the range. With `--no-newgame`
the rounds leave `usinewgame` out (the cost of the answer alone). Run it on an idle machine.

    .venv/bin/python scripts/bench/newgame.py [--hash 4096] [--rounds 20] [--bin PATH]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools.machine import cpu_model  # noqa: E402
from tsumugi_tools.usi import UsiEngine  # noqa: E402

# Mate in 1: the gold drops on 5b (engine-tests/usi_helpers.py's HEAD_MATE).
MATE1 = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"


def measure(eng: UsiEngine, rounds: int, newgame: bool) -> list[float]:
    """Seconds from `usinewgame` (or `position` without it) to `checkmate`, per round."""
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        if newgame:
            eng.send("usinewgame")
        eng.send(f"position sfen {MATE1}")
        eng.send("go mate 1000")
        line, _ = eng.wait_for("checkmate", 60)
        out.append(time.perf_counter() - t)
        assert line == "checkmate G*5b", line
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hash", type=int, default=4096, help="USI_Hash in MB")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--no-newgame", action="store_true", help="leave usinewgame out")
    ap.add_argument("--bin", help="engine binary (default: $TSUMUGI_BIN or target/release/tsumugi)")
    args = ap.parse_args()
    eng = UsiEngine(args.bin)
    try:
        eng.send("usi")
        eng.wait_for("usiok", 10)
        eng.send(f"setoption name USI_Hash value {args.hash}")
        eng.send("isready")
        eng.wait_for("readyok", 600)
        ms = [x * 1000 for x in measure(eng, args.rounds, not args.no_newgame)]
    finally:
        eng.close()
    print(f"cpu: {cpu_model()}")
    print(f"USI_Hash {args.hash}, {args.rounds} rounds, usinewgame: {not args.no_newgame}")
    print(f"median {statistics.median(ms):.1f} ms, min {min(ms):.1f}, max {max(ms):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
