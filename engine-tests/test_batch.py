"""`tsumugi solve --batch`: answers verified with cshogi, output order (--ordered and
as finished), answers independent of the problems before, --skip-done, --shard, and a run killed mid-way (SIGKILL, and Ctrl-C) then resumed
with `--skip-done out >> out`: every input answered exactly once, nothing lost or doubled.

Needs ../shared/problems (TSUMUGI_PROBLEMS); skips visibly without it.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

from conftest import problems_dir, verify_mate_line
from usi_engine import engine_path

OPTS = ["--hash-mb", "16", "--time-ms", "30000"]


def positions(every: int) -> list[str]:
    d = problems_dir()
    rows = []
    for name in ("mate3-11.tsv", "extra1-9.tsv"):
        rows += [r.split("\t")[0] for r in (d / name).read_text().splitlines() if r.strip()]
    return rows[::every]


def write_input(path: Path, sfens: list[str], extra: bool = True) -> dict[int, str]:
    """Writes the batch input (with a comment, a blank line and a bad line when `extra`);
    returns {line number: text} of the lines that are positions or bad lines."""
    lines = ["# a batch of mate problems", ""] if extra else []
    lines += sfens
    if extra:
        lines.insert(len(lines) // 2, "not a position at all")
    path.write_text("\n".join(lines) + "\n")
    return {i + 1: l for i, l in enumerate(lines) if l and not l.startswith("#")}


def answers(text: str) -> list[dict]:
    return [json.loads(l) for l in text.splitlines()]


def check_answers(out: list[dict], expected: dict[int, str]):
    """Each expected line answered exactly once; every mate verified by cshogi."""
    keys = Counter((o["line"], o["input"]) for o in out)
    assert all(n == 1 for n in keys.values()), [k for k, n in keys.items() if n > 1]
    assert set(keys) == set(expected.items())
    for o in out:
        if o["input"] == "not a position at all":
            assert o["result"] == "error" and "neither a file nor a SFEN" in o["error"] or \
                "No such file" in o["error"], o
            continue
        assert o["result"] == "mate", o
        ok, why = verify_mate_line(o["sfen"], o["moves"])
        assert ok, (why, o)


def run_batch(inp: Path, *extra, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run([str(engine_path()), "solve", "--batch", str(inp), *OPTS, *extra],
                          capture_output=True, text=True, timeout=timeout)


def test_ordered_and_as_finished(tmp_path):
    inp = tmp_path / "in.txt"
    expected = write_input(inp, positions(every=30))
    r = run_batch(inp, "--jobs", "2", "--ordered")
    assert r.returncode == 1, r.stderr  # the bad line is an error answer: status 1
    out = answers(r.stdout)
    check_answers(out, expected)
    assert [o["line"] for o in out] == sorted(expected), "not in input order"
    assert "1 error" in r.stderr and "batch:" in r.stderr, r.stderr
    # As finished: the same positions answered, the same shortest lengths where both runs
    # proved them (a time limit makes the searches timing-dependent).
    r2 = run_batch(inp, "--jobs", "2")
    out2 = answers(r2.stdout)
    check_answers(out2, expected)
    first = {o["line"]: o for o in out}
    for o in out2:
        a = first[o["line"]]
        assert a["result"] == o["result"], (a, o)
        if a.get("minimal") and o.get("minimal"):
            assert a["length"] == o["length"], (a, o)


def test_answers_do_not_depend_on_the_problems_before(tmp_path):
    """Each problem of a batch is searched as by a new solver: the same nodes and line in
    input order, in reverse order, and solved alone. (Between problems the table moves to a
    new generation and the search's own tables clear the slots they wrote, nothing more: a
    leftover would change a count here.)"""
    sfens = positions(every=40)

    def no_limit(inp):
        return subprocess.run([str(engine_path()), "solve", "--batch", str(inp), "--hash-mb",
                               "16", "--time-ms", "0", "--jobs", "1", "--ordered"],
                              capture_output=True, text=True, timeout=600)

    fwd, rev = tmp_path / "fwd.txt", tmp_path / "rev.txt"
    write_input(fwd, sfens, extra=False)
    write_input(rev, sfens[::-1], extra=False)
    runs = []
    for inp in (fwd, rev):
        r = no_limit(inp)
        assert r.returncode == 0, r.stderr
        runs.append({o["input"]: (o["result"], o["nodes"], o["moves"]) for o in answers(r.stdout)})
    assert runs[0] == runs[1]
    for sfen in sfens[:: max(1, len(sfens) // 6)]:
        one = tmp_path / "one.txt"
        write_input(one, [sfen], extra=False)
        r = no_limit(one)
        (o,) = answers(r.stdout)
        assert (o["result"], o["nodes"], o["moves"]) == runs[0][sfen], sfen


def test_stdin_shard_and_skip_done(tmp_path):
    sfens = positions(every=60)
    inp = tmp_path / "in.txt"
    expected = write_input(inp, sfens, extra=False)
    # Shards of a file on standard input: disjoint, and together the whole.
    seen = []
    for i in range(3):
        r = subprocess.run([str(engine_path()), "solve", "--batch", "-", "--shard", f"{i}/3",
                            *OPTS, "--jobs", "1"], input=inp.read_text(), capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        got = answers(r.stdout)
        assert all((o["line"] - 1) % 3 == i for o in got)
        seen += got
    check_answers(seen, expected)
    # --skip-done: keep a third of the answers and a partial line, resume, appending.
    out = tmp_path / "out.jsonl"
    kept = [json.dumps(o) for o in seen[: len(seen) // 3]]
    out.write_text("\n".join(kept) + "\n" + json.dumps(seen[-1])[:25])
    with out.open("a") as f:
        r = subprocess.run([str(engine_path()), "solve", "--batch", str(inp), "--skip-done",
                            str(out), *OPTS], stdout=f, stderr=subprocess.PIPE, text=True,
                           timeout=600)
    assert r.returncode == 0, r.stderr
    assert "partial last line" in r.stderr and f"{len(kept)} already answered" in r.stderr
    check_answers(answers(out.read_text()), expected)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_killed_midway_then_resumed(tmp_path, sig):
    inp = tmp_path / "in.txt"
    expected = write_input(inp, positions(every=9), extra=False)
    out = tmp_path / "out.jsonl"
    with out.open("ab") as f:
        p = subprocess.Popen([str(engine_path()), "solve", "--batch", str(inp), *OPTS,
                              "--jobs", "2", "--skip-done", str(out)],
                             stdout=f, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 300
        while out.read_bytes().count(b"\n") < 20 and p.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        p.send_signal(sig)
        rc = p.wait(timeout=60)
        p.stderr.close()
    first = out.read_bytes().count(b"\n")
    assert first < len(expected), "the run finished before it was killed: nothing tested"
    if sig == signal.SIGINT:
        assert rc == 130, rc
    with out.open("ab") as f:
        r = subprocess.run([str(engine_path()), "solve", "--batch", str(inp), *OPTS,
                            "--jobs", "2", "--skip-done", str(out)],
                           stdout=f, stderr=subprocess.PIPE, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert f"({first} already answered" in r.stderr or "partial" in r.stderr, r.stderr
    check_answers(answers(out.read_text()), expected)


def test_progress_bar_only_on_a_terminal(tmp_path):
    """On a terminal (a pty made by util-linux `script`) stderr shows the progress bar; piped,
    it shows only the plain summary lines."""
    import shutil
    if shutil.which("script") is None:
        pytest.skip("SKIPPED: no `script` command to give tsumugi a terminal")
    inp = tmp_path / "in.txt"
    n = len(write_input(inp, positions(every=60), extra=False))
    out, typescript = tmp_path / "out.jsonl", tmp_path / "typescript"
    cmd = f"'{engine_path()}' solve --batch '{inp}' {' '.join(OPTS)} --jobs 2 > '{out}'"
    r = subprocess.run(["script", "-qec", cmd, str(typescript)], capture_output=True,
                       timeout=600)
    assert r.returncode == 0, r
    tty = typescript.read_bytes().decode(errors="replace")
    assert f"/{n} " in tty and "[" in tty and "batch:" in tty, tty[-500:]
    assert len(out.read_text().splitlines()) == n
    piped = run_batch(inp, "--jobs", "2")
    assert f"/{n} " not in piped.stderr and "batch:" in piped.stderr, piped.stderr


def mate1_positions(n: int) -> list[str]:
    rows = (problems_dir() / "mate1.tsv").read_text().splitlines()
    return [r.split("\t")[0] for r in rows if r.strip() and not r.startswith("#")][:n]


# 無双19 (31 plies): some 1.6 M nodes with one thread and a 64 MB table, seconds even on a fast
# host; the first run is interrupted while it is still being searched, the resumed run solves it.
SLOW = "3gS2n1/1pk1Pp3/4p1Lp1/1Gpp3l1/4n4/3N5/+p1B2r3/2R2N3/9 b BGg3s2l10p 1"
SUMMARY_RE = re.compile(r"batch: (\d+) answered \(([^)]*)\)")


def test_ordered_ctrl_c_writes_the_finished_prefix_and_counts_only_it(tmp_path):
    """--ordered --jobs 2 with a slow third line: after Ctrl-C the output holds every finished
    answer that input order lets through (lines 1-2), the summary counts exactly those, the
    answers that finished after the slow line are counted apart, and `--skip-done` resumes with
    exactly the rest, the whole file then in input order."""
    quick = mate1_positions(30)
    lines = quick[:2] + [SLOW] + quick[2:]
    inp = tmp_path / "in.txt"
    inp.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    opts = ["--hash-mb", "64", "--ordered", "--jobs", "2"]
    with out.open("ab") as f:
        p = subprocess.Popen([str(engine_path()), "solve", "--batch", str(inp), *opts,
                              "--skip-done", str(out)], stdout=f, stderr=subprocess.PIPE,
                             text=True)
        deadline = time.monotonic() + 120
        while out.read_bytes().count(b"\n") < 2 and p.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        # The 28 mates in 1 after the slow line finish in well under this.
        time.sleep(1.0)
        assert p.poll() is None, "the slow line finished before the interruption: nothing tested"
        p.send_signal(signal.SIGINT)
        rc = p.wait(timeout=60)
        err = p.stderr.read()
    assert rc == 130, (rc, err)
    written = answers(out.read_text())
    assert [o["line"] for o in written] == [1, 2], written
    m = SUMMARY_RE.search(err)
    assert m, err
    assert int(m.group(1)) == len(written), err
    assert m.group(2) == f"{len(written)} mate", err
    held = re.search(r"; (\d+) finished after an unfinished line and were not written", err)
    assert held and int(held.group(1)) > 0, err
    with out.open("ab") as f:
        r = subprocess.run([str(engine_path()), "solve", "--batch", str(inp), *opts,
                            "--skip-done", str(out)], stdout=f, stderr=subprocess.PIPE,
                           text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "(2 already answered" in r.stderr, r.stderr
    m = SUMMARY_RE.search(r.stderr)
    assert m and int(m.group(1)) == len(lines) - 2, r.stderr
    final = answers(out.read_text())
    assert [o["line"] for o in final] == list(range(1, len(lines) + 1)), final
    for o in final:
        assert o["result"] == "mate", o
        ok, why = verify_mate_line(o["sfen"], o["moves"])
        assert ok, (why, o)


FRAME_RE = re.compile(r"(\d+)/(\d+) ([^\r\n\x1b]*?) \(eta")


def test_progress_last_frame_matches_the_summary(tmp_path):
    """On a terminal, the last progress frame drawn says what the summary says: all N done and
    the same counts by result (the frame is drawn as it stands, not left a step behind)."""
    import shutil
    if shutil.which("script") is None:
        pytest.skip("SKIPPED: no `script` command to give tsumugi a terminal")
    quick = mate1_positions(100)
    inp = tmp_path / "in.txt"
    inp.write_text("\n".join(quick) + "\n")
    out, typescript = tmp_path / "out.jsonl", tmp_path / "typescript"
    cmd = (f"'{engine_path()}' solve --batch '{inp}' --hash-mb 16 --jobs 2 --ordered "
           f"> '{out}'")
    r = subprocess.run(["script", "-qec", cmd, str(typescript)], capture_output=True,
                       timeout=600)
    assert r.returncode == 0, r
    tty = typescript.read_bytes().decode(errors="replace")
    summary = SUMMARY_RE.search(tty)
    assert summary, tty[-500:]
    frames = FRAME_RE.findall(tty[: summary.start()])
    assert frames, tty[-500:]
    pos, total, msg = frames[-1]
    n = len(quick)
    assert (int(pos), int(total)) == (n, n), frames[-3:]
    assert int(summary.group(1)) == n and msg == summary.group(2), (frames[-3:], summary.group(0))
    assert len(out.read_text().splitlines()) == n
