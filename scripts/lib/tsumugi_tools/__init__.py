"""What tsumugi's Python scripts (scripts/) and end-to-end tests (engine-tests/) share:

- `usi`: the USI client (start an engine, send, read with timeouts, notice a dead engine, kill
  a hung one);
- `problems`: the problem-set folder and its TSV files;
- `mate_line`: the cshogi check of a mating line;
- `machine`: the CPU model a benchmark report names;
- `sfen_board`: the board field of an SFEN, written from a dict of pieces;
- `stop_latency`: the `stop` latency measurement (a test and a benchmark).

A script puts `scripts/lib` on `sys.path` at its top; `engine-tests/pytest.ini` names it in
`pythonpath`.
"""

from pathlib import Path

# scripts/lib/tsumugi_tools/__init__.py -> the repository root.
REPO_ROOT = Path(__file__).resolve().parents[3]
