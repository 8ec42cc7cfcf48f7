"""Bad input never crashes or hangs the engine and loses nothing: after each bad input (or
sequence) a `go mate` on a valid position still answers with a correct mating line.

Each case: the bad lines (str, or bytes for raw garbage), the substring expected in an
`info string` (None: any or none), and the answer the bad input itself owes, if it contains a
`go mate` (e.g. `go mate junk` answers `checkmate timeout`)."""

from __future__ import annotations

import pytest

from conftest import verify_mate_line
from usi_engine import UsiEngine
from usi_helpers import HEAD_MATE, MATE3, assert_silent, go_mate, send_bytes

GOOD = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"

# (id, lines, expected info-string substring or None, answers owed by the bad lines)
CASES = [
    ("sfen-empty", ["position sfen"], "'sfen' without a SFEN", []),
    ("sfen-8-ranks", ["position sfen 4k4/9/4P4/9/9/9/9/9 b G 1"], "ranks", []),
    ("sfen-10-ranks", ["position sfen 3+P1k2/9/6/+rB4/9/9/9/9/9/9 b RPb4g4s4l16p 1"],
     "ranks", []),
    ("sfen-wide-rank", ["position sfen 4k5/9/4P4/9/9/9/9/9/9 b G 1"], "squares", []),
    ("sfen-bad-side", ["position sfen 4k4/9/4P4/9/9/9/9/9/9 x G 1"], "side to move", []),
    ("sfen-bad-hand-char", ["position sfen 4k4/9/4P4/9/9/9/9/9/9 b Q 1"], "hand", []),
    ("sfen-hand-count-0", ["position sfen 4k4/9/4P4/9/9/9/9/9/9 b 0G 1"], "hand", []),
    ("sfen-too-many-pawns", ["position sfen 4k4/9/4P4/9/9/9/9/9/9 b 18P 1"], "too many", []),
    ("sfen-two-kings-one-side", ["position sfen 4k4/9/4P4/9/9/9/9/9/3kK4 b G 1"], "error", []),
    ("sfen-nifu", ["position sfen 4k4/9/4P4/9/4P4/9/9/9/9 b G 1"], "error", []),
    ("sfen-dead-pawn", ["position sfen P3k4/9/9/9/9/9/9/9/9 b G 1"], "error", []),
    ("sfen-extra-field", [f"position sfen {GOOD} junk"], "junk", []),
    ("sfen-bad-move-number", ["position sfen 4k4/9/4P4/9/9/9/9/9/9 b G 0"], "move number", []),
    ("sfen-promoted-gold", ["position sfen 4k4/9/4+G4/9/9/9/9/9/9 b G 1"], "promoted", []),
    ("position-alone", ["position"], "missing", []),
    ("position-unknown-base", ["position foo bar"], "'foo'", []),
    ("position-startpos-junk", ["position startpos 7g7f"], "'7g7f'", []),
    ("move-illegal-2nd", ["position startpos moves 7g7f 7g7f"], "move 2 '7g7f' is illegal", []),
    ("move-bad-syntax", ["position startpos moves 7g7x"], "move 1 '7g7x' is not a USI move", []),
    ("move-drop-not-in-hand", ["position startpos moves P*5e"], "move 1 'P*5e' is illegal", []),
    ("move-onto-occupied", [f"position sfen {GOOD} moves G*5c"], "move 1 'G*5c' is illegal", []),
    ("move-king-drop", [f"position sfen {GOOD} moves K*5b"], "move 1 'K*5b'", []),
    ("move-3rd-of-5", ["position startpos moves 7g7f 3c3d 1a1b 8c8d 2g2f"],
     "move 3 '1a1b' is illegal", []),
    ("bad-position-then-go", ["position sfen 9/9 b - 1", "go mate 1000"],
     "no valid position", ["checkmate timeout"]),
    ("bad-move-then-go", ["position startpos moves 1a1b", "go mate 1000"],
     "move 1 '1a1b'", ["checkmate timeout"]),
    ("garbage-bytes", [b"\x00\xff\xfe\x80garbage\x1b[31m\x07\n"], "unknown command", []),
    ("invalid-utf8-sfen", [b"position sfen \xe6\x97\xa5\xff b - 1\n"], "bad SFEN", []),
    ("utf8-japanese", ["position sfen 四段 b - 1"], "bad SFEN", []),
    ("overlong-line", ["position sfen " + "a" * 70000], "ignored a line of 70014 bytes", []),
    ("overlong-binary-1mb", [bytes(b for b in range(256) if b != 10) * 4112 + b"\n"],
     "ignored a line", []),
    ("overlong-valid-looking", ["go mate 1000 " + "x " * 40000], "ignored a line", []),
    ("lone-cr-and-tabs", ["\r", "\t \t", " "], None, []),
    ("nul-inside-command", [b"isready\x00\n"], "unknown command", []),
    ("setoption-hash-text", ["setoption name USI_Hash value abc"], "not an integer", []),
    ("setoption-hash-zero", ["setoption name USI_Hash value 0"], "out of range", []),
    ("setoption-hash-huge", ["setoption name USI_Hash value 99999999999999"], "out of range", []),
    ("setoption-threads-0", ["setoption name Threads value 0"], "out of range", []),
    ("setoption-threads-huge", ["setoption name Threads value 257"], "out of range", []),
    ("setoption-unknown", ["setoption name NoSuchOption value 1"], "unknown option", []),
    ("setoption-combo-bad", ["setoption name PostSearch value longest"], "PostSearch", []),
    ("setoption-check-bad", ["setoption name USI_Ponder value maybe"], "USI_Ponder", []),
    ("setoption-no-value", ["setoption name USI_Hash"], "missing", []),
    ("setoption-no-name", ["setoption"], "missing", []),
    ("setoption-nodes-negative", ["setoption name NodesLimit value -5"], "out of range", []),
    ("go-mate-junk", ["go mate junk"], "bad time", ["checkmate timeout"]),
    ("go-mate-negative", ["go mate -100"], "bad time", ["checkmate timeout"]),
    ("go-mate-float", ["go mate 1.5"], "bad time", ["checkmate timeout"]),
    ("stop-when-idle", ["stop"], None, []),
    ("ponderhit-when-idle", ["ponderhit"], "ponderhit ignored", []),
    ("gameover-when-idle", ["gameover win"], None, []),
    ("unknown-command", ["foo bar baz"], "unknown command 'foo'", []),
    ("uppercase-command", ["ISREADY"], "unknown command", []),
    ("go-mate-zero", ["go mate 0"], None, ["checkmate"]),
    ("go-mate-trailing-junk", ["go mate 1000 junk"], "ignored unknown token 'junk'",
     ["checkmate"]),
]


def run_case(eng: UsiEngine, lines, expect_info, owed) -> list[str]:
    """Send the bad lines, collect the owed answers, sync with isready; returns all lines."""
    seen: list[str] = []
    for l in lines:
        if isinstance(l, bytes):
            send_bytes(eng, l)
        else:
            eng.send(l)
    for want in owed:
        line, before = eng.wait_for("checkmate", 15)
        seen += before + [line]
        assert line.startswith(want), f"expected {want!r}, got {line!r}"
    eng.send("isready")
    line, before = eng.wait_for("readyok", 15)
    seen += before
    # Nothing but info lines (and the owed answers) may come out of bad input.
    for s in before:
        assert s.startswith("info "), f"unexpected output {s!r}"
        assert all(0x20 <= ord(c) < 0x7F for c in s), f"non-ASCII output {s!r}"
    if expect_info is not None:
        infos = [s for s in seen if s.startswith("info string")]
        assert any(expect_info in s for s in infos), (
            f"no info string containing {expect_info!r}; got {infos}"
        )
    return seen


def check_still_serving(eng: UsiEngine) -> None:
    moves, _ = go_mate(eng, HEAD_MATE, "10000", timeout=20)
    ok, reason = verify_mate_line(HEAD_MATE, moves)
    assert ok, reason
    assert moves == ["G*5b"]


@pytest.mark.parametrize("case_id, lines, expect_info, owed", CASES, ids=[c[0] for c in CASES])
def test_bad_input_then_working_go_mate(engine, case_id, lines, expect_info, owed):
    engine.usi_handshake()
    run_case(engine, lines, expect_info, owed)
    check_still_serving(engine)
    assert_silent(engine, 0.1)


def test_all_bad_inputs_in_one_session(engine):
    """The whole table in one process, each case followed by a working go mate, and a mate in
    3 at the end (the table, options and position state survived everything)."""
    engine.usi_handshake()
    for case_id, lines, expect_info, owed in CASES:
        try:
            run_case(engine, lines, expect_info, owed)
            check_still_serving(engine)
        except AssertionError as e:
            raise AssertionError(f"case {case_id}: {e}") from None
    moves, _ = go_mate(engine, MATE3, "10000")
    ok, reason = verify_mate_line(MATE3, moves)
    assert ok and len(moves) == 3, (moves, reason)
    assert engine.proc.poll() is None


def test_bad_position_error_is_repeated_at_go(engine):
    engine.usi_handshake()
    engine.send("position startpos moves 7g7f 3c3d 8h2b+ 3a2b 2b3c")
    line, _ = engine.wait_for("info string error:", 5)
    assert "move 5 '2b3c'" in line and "is illegal in" in line, line
    engine.send("go mate 1000")
    line, before = engine.wait_for("checkmate", 5)
    assert line == "checkmate timeout"
    assert any("no valid position" in b and "move 5 '2b3c'" in b for b in before), before
    # A plain go on the same state resigns, with the same error.
    engine.send("go btime 1000 wtime 1000")
    line, before = engine.wait_for("bestmove", 5)
    assert line == "bestmove resign"
    check_still_serving(engine)
