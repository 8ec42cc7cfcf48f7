"""Self-check of the test harness (no engine needed): verify_mate_line must accept real mating
lines and reject every kind of wrong one; the USI client must time out, notice a dead engine
and kill a hung one; so must the watched start of cshogi's client."""

import sys
import time

import pytest

from conftest import verify_mate_line
from usi_engine import EngineDied, EngineTimeout, UsiEngine
from usi_helpers import EngineStartFailed, start_cshogi_engine

# Head mate: the gold drops on 5b, defended by the pawn on 5c. No Black king (mate-problem style).
HEAD_MATE = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
# The same with colours swapped: White attacks.
HEAD_MATE_WHITE = "9/9/9/9/9/9/4p4/9/4K4 w 2R2B3G4S4N4L17Pg 1"
# Pawn-drop mate is illegal here (P*1b would mate); the gold drop mates.
PAWN_DROP = "7nk/7p1/8G/9/9/9/9/9/9 b GP2r2b2g4s3n4l16p 1"
# Mate in 3: the rook promotes on 2c with check, then a gold drop mates wherever the king goes.
MATE3 = "7k1/9/6R2/9/9/9/9/9/9 b G 1"


@pytest.mark.parametrize(
    "sfen, line",
    [
        (HEAD_MATE, "G*5b"),
        ("sfen " + HEAD_MATE, ["G*5b"]),
        (HEAD_MATE_WHITE, "G*5h"),
        (PAWN_DROP, "G*1b"),
        (MATE3, "3c2c+ 2a1a G*2a"),
        (MATE3, "3c2c+ 2a3a G*3b"),
    ],
)
def test_accepts_mating_lines(sfen, line):
    ok, reason = verify_mate_line(sfen, line)
    assert ok, reason
    assert reason == "ok"


@pytest.mark.parametrize(
    "sfen, line, why",
    [
        (HEAD_MATE, "G*4b", "not checkmate"),  # check, but the king escapes
        (HEAD_MATE, "G*9i", "does not give check"),
        (HEAD_MATE, "G*5c", "illegal"),  # square occupied
        (HEAD_MATE, "S*5b", "illegal"),  # no silver in hand
        (HEAD_MATE, "", "empty line"),
        (HEAD_MATE_WHITE, "R*5h", "illegal"),  # the rooks are in Black's hand, White to move
        (PAWN_DROP, "P*1b", "illegal"),  # pawn-drop mate
        (MATE3, "3c2c 2a1a G*2a", "not checkmate"),  # unpromoted rook leaves 1b open
        (MATE3, "3c2c+ 2a2b G*2a", "illegal"),  # king walks into the dragon
        (MATE3, "3c2c+ 2a1a G*3b", "does not give check"),
        (MATE3, "3c2c+ 2a1a", ""),  # even length: rejected (read as a defender-first line)
        (MATE3, "3c3a+", "not checkmate"),
        ("not an sfen", "G*5b", "rejects the SFEN"),
    ],
)
def test_rejects_wrong_lines(sfen, line, why):
    ok, reason = verify_mate_line(sfen, line)
    assert not ok
    assert why in reason


# --- the USI client, against stand-in engines written in Python -------------------------------

# Answers usi/isready, echoes anything else, ignores quit and end of input (so close() must kill
# it); floods stderr so a blocked stderr pipe would show.
FAKE_USI = r"""
import sys, time
sys.stderr.write("x" * 200000)
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "usi":
        print("id name fake"); print("usiok", flush=True)
    elif cmd == "isready":
        print("readyok", flush=True)
    elif cmd == "quit":
        pass  # stays alive: close() must kill it
    else:
        print("echo " + cmd, flush=True)
time.sleep(60)
"""


def fake(script):
    return UsiEngine(sys.executable, ["-c", script])


def test_client_handshake_wait_for_and_kill():
    eng = fake(FAKE_USI)
    try:
        assert eng.usi_handshake(timeout=10) == ["id name fake"]
        eng.send("a")
        eng.send("b")
        line, before = eng.wait_for("echo b", timeout=10)
        assert (line, before) == ("echo b", ["echo a"])
    finally:
        start = time.monotonic()
        code = eng.close(timeout=0.5)
    assert code != 0  # killed
    assert time.monotonic() - start < 5
    assert len(eng.stderr) == 200000


def test_client_times_out_on_silent_engine():
    eng = fake("import time; time.sleep(60)")
    try:
        start = time.monotonic()
        with pytest.raises(EngineTimeout):
            eng.read_line(timeout=0.3)
        with pytest.raises(EngineTimeout):
            eng.wait_for("usiok", timeout=0.3)
        assert time.monotonic() - start < 5
    finally:
        eng.close(timeout=0.1)


def test_client_reports_dead_engine():
    eng = fake("print('bye', flush=True)")
    try:
        with pytest.raises(EngineDied):
            eng.wait_for("usiok", timeout=10)
        with pytest.raises(EngineDied):  # EOF stays visible
            eng.read_line(timeout=10)
        assert eng.transcript == ["bye"]
    finally:
        eng.close()


# Declares one option; echoes every other command, so the transcript shows what was sent.
FAKE_WITH_OPTION = r"""
import sys
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "usi":
        print("id name fake 1.0"); print("option name Declared type spin default 1 min 0 max 9")
        print("usiok", flush=True)
    elif cmd == "isready":
        print("readyok", flush=True)
    elif cmd == "quit":
        break
    else:
        print("echo " + cmd, flush=True)
"""


def test_client_handshake_sends_the_declared_options_only_when_asked():
    eng = fake(FAKE_WITH_OPTION)
    try:
        options = {"Declared": 3, "Undeclared": 4, "USI_Hash": 16}
        eng.usi_handshake(timeout=10, options=options, declared_only=True)
        assert eng.id_name == "fake 1.0"
        assert eng.option_names == {"Declared"}
        assert "echo setoption name Declared value 3" in eng.transcript
        assert "echo setoption name USI_Hash value 16" in eng.transcript
        assert not any("Undeclared" in line for line in eng.transcript)
    finally:
        assert eng.close(timeout=5) == 0  # quit ends it


def test_problem_sets_are_looked_up_as_documented(monkeypatch, tmp_path):
    from tsumugi_tools import REPO_ROOT
    from tsumugi_tools.problems import problems_dir, read_set, set_path

    monkeypatch.delenv("TSUMUGI_PROBLEMS", raising=False)
    assert problems_dir() == REPO_ROOT.parent / "shared" / "problems"
    monkeypatch.setenv("TSUMUGI_PROBLEMS", "some/where")
    assert problems_dir() == REPO_ROOT / "some" / "where"
    monkeypatch.setenv("TSUMUGI_PROBLEMS", str(tmp_path))
    f = tmp_path / "s.tsv"
    f.write_text(f"sfen\texpected\tname\n# comment\n\n{HEAD_MATE}\t1\tA\n{MATE3}\tnomate\n")
    assert set_path("s.tsv") == f
    rows = read_set(set_path("s.tsv"))
    assert [(r.line_no, r.sfen, r.plies, r.name) for r in rows] == [
        (4, HEAD_MATE, 1, "A"),
        (5, MATE3, None, ""),
    ]


# --- the watched start of cshogi's client (test_usi_session.py) --------------------------------


def script(tmp_path, name, body):
    """An executable shell script (cshogi's Engine runs a single path, no arguments)."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_cshogi_start_returns_a_connected_engine(tmp_path):
    path = script(tmp_path, "ok", "read cmd\necho 'id name fake'\necho usiok\nread cmd\n")
    eng = start_cshogi_engine(path, 10)
    try:
        assert eng.name == "fake"
    finally:
        eng.proc.kill()
        eng.proc.wait(5)


@pytest.mark.parametrize(
    "body, timeout, message",
    [
        # Exits at once: noticed at once, not after the timeout.
        ("echo 'wine: cannot start' >&2\nexit 7\n", 30, r"exited with code 7 .*wine: cannot start"),
        # Never answers: reported at the timeout, and killed.
        ("echo 'still starting' >&2\nexec sleep 60\n", 1, r"no usiok after 1 s.*still starting"),
    ],
    ids=["exits", "never-answers"],
)
def test_cshogi_start_reports_an_engine_that_does_not_start(tmp_path, body, timeout, message):
    path = script(tmp_path, "engine", body)
    start = time.monotonic()
    with pytest.raises(EngineStartFailed, match=message):
        start_cshogi_engine(path, timeout)
    assert time.monotonic() - start < 10
