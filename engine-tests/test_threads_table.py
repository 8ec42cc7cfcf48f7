"""Two search threads share one table, which must then take its cluster locks: a reader of a
table without them can take one store's key with another store's value, and so make a false
proof or a false `nomate` (which no replay of a line would catch).

The locking follows the thread count at every solve. GUIs send `USI_Hash` whenever the user
changes it, and a resize builds a new table: `Threads 2`, `isready`, a new `USI_Hash`,
`isready`, and every later search must still lock. The engine checks it where it matters (a
helper refuses to search a table that takes no locks, and the search then ends with an
`info string error`), so a search after the resize shows it."""

from conftest import verify_mate_line
from usi_engine import UsiEngine

from test_panic_guard import MATE31
from usi_helpers import MATE3, NOMATE

BRIEF = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1"


def solve(eng: UsiEngine, sfen: str) -> tuple[str, list[str]]:
    eng.send(f"position sfen {sfen}")
    eng.send("go mate 60000")
    answer, before = eng.wait_for("checkmate", 90)
    errors = [l for l in before if l.startswith("info string error")]
    assert not errors, (sfen, errors, eng.stderr)
    return answer, before


def test_two_threads_lock_the_table_after_usi_hash_changes():
    eng = UsiEngine()
    try:
        eng.usi_handshake()
        eng.send("setoption name Threads value 2")
        eng.send("setoption name USI_Hash value 64")
        eng.send("isready")
        eng.wait_for("readyok", 30)
        solve(eng, MATE3)
        # A new table size, the thread count unchanged.
        for mb in (32, 128):
            eng.send(f"setoption name USI_Hash value {mb}")
            eng.send("isready")
            eng.wait_for("readyok", 30)
            for sfen in (MATE3, BRIEF, MATE31):
                answer, _ = solve(eng, sfen)
                ok, why = verify_mate_line(sfen, answer.split()[1:])
                assert ok, f"USI_Hash {mb}: {sfen}: {answer}: {why}"
            answer, _ = solve(eng, NOMATE)
            assert answer == "checkmate nomate", answer
    finally:
        assert eng.close() == 0
