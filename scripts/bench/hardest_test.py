"""Tests of scripts/bench/hardest.py's pure parts (no engine needed):
.venv/bin/python -m pytest -q scripts/bench/hardest_test.py

The engines' lines below were printed by tsumugi (release build of 2a31573) and
KomoringHeights 1.1.0 over USI (`go mate`, USI_Hash 256), cut after their first moves of pv."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hardest as hb  # noqa: E402

# Constructed here (not from a problem set): gold drop mates a bare king in the corner.
MATE1 = "8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"

# tsumugi on "mate-engine-test (15)" of long.tsv.
TS_15 = [
    "info time 75 nodes 18 nps 239 hashfull 0 score mate 15 pv P*1b 2a1b G*2a 1a2a S*3b 2a1a "
    "1c1b 1a1b G*2c 1b1a 3b2a+ 1a2a 3c3b+ 2a1a 2c2b",
    "info string mate within 15 plies proven",
    "info time 578 nodes 5582 nps 9643 hashfull 0 score mate 15 pv P*1b 2a1b G*2a 1a2a S*3b "
    "2a1a 1c1b 1a1b G*2c 1b1a 3b2a+ 1a2a 3c3b+ 2a1a 2c2b",
    "info string no mate within 13 plies: the shortest mate takes 15",
    "info string mate in 15: shortest proven; every defence on the line is a longest defence",
    "info time 579 nodes 5582 nps 9638 hashfull 0 score mate 15 pv P*1b 2a1b G*2a 1a2a S*3b "
    "2a1a 1c1b 1a1b G*2c 1b1a 3b2a+ 1a2a 3c3b+ 2a1a 2c2b",
    "checkmate P*1b 2a1b G*2a 1a2a S*3b 2a1a 1c1b 1a1b G*2c 1b1a 3b2a+ 1a2a 3c3b+ 2a1a 2c2b",
]

# tsumugi on "YaneuraOu test (25)" of long.tsv, 5 s: a first proof of 35, shortened to 25.
TS_25 = [
    "info time 1001 nodes 101632 nps 101523 hashfull 9",
    "info time 3035 nodes 613433 nps 202107 hashfull 55 score mate 35 pv 7f8e 6c6b G*5b 6a5b "
    "8e5b 6b5b P*5c 5b6c B*7d 6c5c R*5b 5c4d N*3f 2e3f G*3e 4d3e 5b3b+ B*3d 3g3f 3e2f S*3g 2f1e "
    "G*2f 1e1d 2f2e 3d2e 3b2c 1d1e 1g1f 2e1f 2c1c P*1d 1i1f 1e1f L*1g",
    "info string mate within 35 plies proven",
    "info time 3061 nodes 613944 nps 200605 hashfull 55 score mate 31 pv 7f8e 6c6b",
    "info string mate within 31 plies proven",
    "info time 3096 nodes 615881 nps 198910 hashfull 55 score mate 25 pv 7f8e 6c6b",
    "info string mate within 25 plies proven",
    "info string line of 25 plies; shortest mate not proven: between 1 and 25 plies; the line's "
    "defences are not all proven longest (a defender could last longer)",
    "info time 5000 nodes 1159936 nps 231953 hashfull 109 score mate 25 pv 7f8e 6c6b",
]

# KomoringHeights on "mate-engine-test (15)": a mate, then its disproof of 13 (the minimum).
KH_15 = [
    "info time 2 nodes 487 nps 243500 hashfull 0 depth 0 seldepth 12 score mate 15 string # 1st "
    "result: mate in 15(upper_bound:15)",
    "info time 3 nodes 487 nps 162333 hashfull 0 currmove P*1b score mate 15 depth 1 seldepth 12 "
    "pv P*1b 2a1b G*2a 1a2a S*3b 2a1a 1c1b 1a1b G*2c 1b1a 3b2a+ 1a2a 3c3b+ 2a1a 2c2b",
    "info time 14 nodes 7058 nps 504142 hashfull 0 depth 0 seldepth 13 score mate -14 string # "
    "2nd result: {disproof_hand= 歩 銀 金 len=14 amount=14096}",
    "info time 15 nodes 7074 nps 471600 hashfull 0 currmove P*1b score mate 15 depth 0 seldepth "
    "13 pv P*1b 2a1b G*2a 1a2a S*3b 2a1a 1c1b 1a1b G*2c 1b1a 3b2a+ 1a2a 3c3b+ 2a1a 2c2b",
    "checkmate P*1b 2a1b G*2a 1a2a S*3b 2a1a 1c1b 1a1b G*2c 1b1a 3b2a+ 1a2a 3c3b+ 2a1a 2c2b",
]

# KomoringHeights on "YaneuraOu test (25)", 5 s: searching (score cp), then mates 31 to 25 and
# the limit before the disproof of 23.
KH_25 = [
    "info time 1008 nodes 367385 nps 364469 hashfull 20 currmove 7f8e score cp 3756 depth 10 "
    "seldepth 26 pv 7f8e 6c6b G*5b 6a5b 8e9e 6b5c B*6b 5c4b R*4a 4b4a",
    "info time 4548 nodes 1823918 nps 401037 hashfull 110 depth 0 seldepth 48 score mate 31 "
    "string # 1st result: mate in 31(upper_bound:31)",
    "info time 4548 nodes 1823918 nps 401037 hashfull 110 currmove 7f8e score mate 31 depth 1 "
    "seldepth 48 pv 7f8e 6c6b G*5b 6a5b 8e5b 6b5b P*5c 5b5c N*4e 5c5b B*7d R*6c 7d6c+ 7b6c",
    "info time 4554 nodes 1826739 nps 401128 hashfull 110 depth 0 seldepth 48 score mate 29 "
    "string # 2nd result: mate in 29(upper_bound:29)",
    "info time 4640 nodes 1865577 nps 402064 hashfull 113 depth 0 seldepth 48 score mate 25 "
    "string # 4th result: mate in 25(upper_bound:25)",
    "info time 5027 nodes 2034590 nps 404732 hashfull 124 currmove 7f8e score mate 25 depth 18 "
    "seldepth 48 pv 7f8e 6c6b G*5b 6a5b 8e5b 6b5b P*5c 5b5c N*4e 5c5b P*5c 5b6c G*7d 6c6b",
]


def feed(kind, lines, every=0.0):
    w = hb.Watch(kind, every)
    for i, line in enumerate(lines):
        w.feed(line, float(i))
    return w


# -- the info lines' counters ------------------------------------------------------------------


def test_counters_of_both_engines_lines():
    assert hb.parse_counters(TS_25[0]) == {"time": 1001, "nodes": 101632, "nps": 101523,
                                           "hashfull": 9}
    assert hb.parse_counters(TS_15[0]) == {"time": 75, "nodes": 18, "nps": 239, "hashfull": 0}
    assert hb.parse_counters(KH_25[0]) == {"time": 1008, "nodes": 367385, "nps": 364469,
                                           "hashfull": 20}
    assert hb.parse_counters(KH_15[2])["nodes"] == 7058


def test_counters_stop_at_pv_and_string_and_need_nodes():
    assert hb.parse_counters("info string no mate within 13 plies: the shortest mate takes 15") \
        is None
    assert hb.parse_counters(TS_15[-1]) is None  # checkmate
    # A pv or a string part is never read as counters.
    assert hb.parse_counters("info time 5 pv nodes 3 nps 4") is None
    assert hb.parse_counters("info depth 3 string nodes 7") is None
    # Any order; a missing nps or hashfull is simply absent.
    assert hb.parse_counters("info nodes 120 time 10") == {"nodes": 120, "time": 10}


# -- tsumugi -----------------------------------------------------------------------------------


def test_tsumugi_first_proof_and_proven_minimum():
    w = feed("tsumugi", TS_15)
    assert w.first_proof == {"t": 0.0, "upper": 15, "line": 15}
    assert (w.minimal, w.minimal_at, w.lower, w.upper) == (15, 3.0, 15, 15)
    assert w.bounds == [[0.0, None, 15], [3.0, 15, 15]]
    assert w.status.startswith("mate in 15: shortest proven")
    assert w.info_lines == 3 and w.last == [5.0, 5582, 9638, 0] and w.last_time_ms == 579


def test_tsumugi_shortened_lines_without_a_proven_minimum():
    w = feed("tsumugi", TS_25)
    assert w.first_proof == {"t": 1.0, "upper": 35, "line": 35}
    # The final sentence's "between 1 and 25" adds the (trivial) lower bound.
    assert w.bounds == [[1.0, None, 35], [3.0, None, 31], [5.0, None, 25], [7.0, 1, 25]]
    assert (w.minimal, w.lower, w.upper) == (None, 1, 25)
    assert w.series.samples[0] == [0.0, 101632, 101523, 9]


def test_tsumugi_round_news_with_a_range_raises_the_lower_bound_only():
    w = feed("tsumugi", [
        "info time 10 nodes 9 nps 900 hashfull 0 score mate 21 pv 1a1b",
        "info string no mate within 15 plies: the shortest mate takes 17 to 21",
    ])
    assert (w.minimal, w.lower, w.upper) == (None, 17, 21)


def test_tsumugi_negative_score_is_no_proof():
    # A defender-to-move root is not among these problems; its `score mate -N` is not read as
    # the attacker's proof.
    w = feed("tsumugi", ["info time 10 nodes 9 nps 900 hashfull 0 score mate -4 pv 1a1b"])
    assert w.first_proof is None


# -- KomoringHeights ---------------------------------------------------------------------------


def test_kh_first_result_and_disproof_with_a_japanese_hand():
    w = feed("kh", KH_15)
    assert w.first_proof == {"t": 0.0, "upper": 15, "line": 15}
    # The periodic lines' `score mate` are not proofs; the disproof's `score mate -14` neither.
    assert (w.minimal, w.minimal_at, w.lower, w.upper) == (15, 2.0, 15, 15)
    assert w.status.startswith("result: {disproof_hand= 歩 銀 金 len=14")
    assert w.last == [3.0, 7074, 471600, 0]


def test_kh_search_lines_then_mates_cut_by_the_limit():
    w = feed("kh", KH_25)
    assert w.first_proof == {"t": 1.0, "upper": 31, "line": 31}
    assert [b[2] for b in w.bounds] == [31, 29, 25]
    assert w.minimal is None and w.lower is None
    assert w.info_lines == 6  # every line has nodes, the result lines too


def test_kh_line_longer_than_its_bound():
    w = feed("kh", ["info time 9 nodes 50 nps 10 hashfull 1 depth 0 seldepth 9 score mate 619 "
                    "string # 1st result: mate in 619(upper_bound:605)"])
    assert w.first_proof == {"t": 0.0, "upper": 605, "line": 619}
    assert "line 619" in hb.first_proof_text(w.to_json())


def test_kh_disproof_before_any_mate_claims_no_length():
    w = feed("kh", ["info time 1 nodes 5 nps 5 hashfull 0 depth 0 seldepth 1 score mate -8191 "
                    "string # 1st result: {disproof_hand=P len=8191 amount=5}"])
    assert w.first_proof is None and w.minimal is None and w.lower is None


# -- thinning, rates, memory -------------------------------------------------------------------


def test_thinning_keeps_the_last_sample_of_each_interval():
    samples = [[t, i] for i, t in enumerate([0.5, 3.0, 9.9, 10.0, 15.0, 31.0, 35.5])]
    assert hb.thin(samples, 10) == [[9.9, 2], [15.0, 4], [35.5, 6]]
    assert hb.thin(samples, 0) == samples
    assert hb.thin([], 10) == []
    # The last sample is kept whatever the interval.
    assert hb.thin(samples, 1000) == [[35.5, 6]]


def test_watch_thins_its_series_but_not_its_last_sample():
    lines = [f"info time {i * 500} nodes {i * 100} nps 200 hashfull {i}" for i in range(1, 30)]
    w = hb.Watch("tsumugi", 10.0)
    for i, line in enumerate(lines, 1):
        w.feed(line, i * 0.5)
    assert [s[0] for s in w.series.samples] == [9.5, 14.5]
    assert w.last == [14.5, 2900, 200, 29] and w.info_lines == 29


def test_rates_from_node_differences():
    assert hb.rates([[1.0, 100, None, 0], [3.0, 500, None, 0], [3.0, 600, None, 0]]) == \
        [(1.0, 100.0), (3.0, 200.0)]


def test_memory_refusal():
    gb = 1024 * 1024  # kB
    assert hb.memory_refusal(8192, False, 24 * gb) is None
    why = hb.memory_refusal(8192, False, 16 * gb)
    assert "17408 MB" in why and "--one-at-a-time" in why
    assert hb.memory_refusal(8192, True, 16 * gb) is None
    assert "9216 MB" in hb.memory_refusal(8192, True, 6 * gb)
    assert hb.memory_refusal(8192, False, None) is None  # unknown: not refused


def test_judge_answer():
    pytest.importorskip("cshogi")
    assert hb.judge_answer(MATE1, ["G*1b"])["replay"] == "ok"
    assert "does not give check" in hb.judge_answer(MATE1, ["G*5e"])["replay"]
    assert "even length" in hb.judge_answer(MATE1, ["G*1b", "1a1b"])["replay"]
    assert hb.judge_answer(MATE1, ["timeout"])["kind"] == "timeout"
    assert hb.judge_answer(MATE1, ["nomate"])["kind"] == "nomate"


# -- the problems ------------------------------------------------------------------------------


def test_default_problems_by_name_in_the_given_order(tmp_path):
    names = ["ミクロコスモス (Microcosmos)", *reversed(list(hb.DEFAULT_PROBLEMS))]
    names = [n + " (bare king)" if n == "驚愕の曠野" else n for n in names]
    path = tmp_path / "s.tsv"
    path.write_text("# header\n" + "".join(f"{MATE1}\t{i + 1}\t{n}\n"
                                           for i, n in enumerate(names)), encoding="utf-8")
    ps = hb.load_problems(str(path), [])
    assert [hb.base_name(p["name"]) for p in ps] == list(hb.DEFAULT_PROBLEMS)
    assert [p["name"] for p in hb.load_problems(str(path), ["コスモス"])] == [names[0]]
    with pytest.raises(SystemExit, match="no problem"):
        hb.load_problems(str(path), ["nothing like it"])
    path.write_text(f"{MATE1}\t1\tFAIRWAY\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="新桃花源"):
        hb.load_problems(str(path), [])


# -- the report on a synthetic run -------------------------------------------------------------


def engine_result(kind, first=None, bounds=(), minimal=None, minimal_at=None, answer=None,
                  answer_at=None, last=None, error=""):
    lower = bounds[-1][1] if bounds else None
    upper = bounds[-1][2] if bounds else None
    return {"engine": kind, "path": "/x", "id": "x", "options": {"USI_Hash": 64},
            "answer": answer or {"kind": "timeout", "length": None, "moves": [], "replay": ""},
            "answer_at": answer_at, "peak_rss_kb": 3 * 1024 * 1024, "error": error,
            "series": [[10.0, 1_000_000, 100_000, 5], last] if last else [],
            "info_lines": 2, "last": last, "last_time_ms": int(last[0] * 1000) if last else None,
            "first_proof": first, "bounds": [list(b) for b in bounds], "lower": lower,
            "upper": upper, "minimal": minimal, "minimal_at": minimal_at, "status": ""}


def synthetic():
    mate = {"kind": "mate", "length": 1205, "moves": ["x"] * 1205, "replay": "ok"}
    bad = {"kind": "mate", "length": 611, "moves": ["x"] * 611,
           "replay": "move 3 (attacker) 1a1b does not give check"}
    return {
        "meta": {"date": "2030-01-01 00:00", "commit": "abc123", "dirty": False,
                 "cpu": "Test CPU", "cores": 2, "mem_total_gb": 24.0, "platform": "Linux",
                 "command": ["python", "hardest.py", "--time-s", "600"],
                 "engines": {"tsumugi": {"path": "/t", "id": "tsumugi 0.1.0",
                                         "options": {"USI_Hash": 64, "Threads": 1}},
                             "kh": {"path": "/k", "id": "KomoringHeights 1.1.0",
                                    "options": {"USI_Hash": 64, "Threads": 1,
                                                "RootIsAndNodeIfChecked": "false"}}}},
        "settings": {"set": "long.tsv", "only": [], "time_s": 600, "hash_mb": 64,
                     "threads": 1, "one_at_a_time": False, "series_every": 10.0},
        "problems": [
            {"problem": {"name": "新桃花源", "sfen": MATE1, "known": 1205, "line_no": 4},
             "results": {
                 "tsumugi": engine_result("tsumugi", {"t": 120.0, "upper": 1225, "line": 1225},
                                          [(120.0, None, 1225), (300.0, 1205, 1205)], 1205,
                                          300.0, mate, 310.0, [310.0, 62_000_000, 200_000, 400]),
                 "kh": engine_result("kh", {"t": 240.0, "upper": 1209, "line": 1211},
                                     [(240.0, None, 1209)], None, None, None, None,
                                     [599.5, 150_000_000, 250_000, 900])}},
            {"problem": {"name": "FAIRWAY", "sfen": MATE1, "known": 611, "line_no": 9},
             "results": {
                 "tsumugi": engine_result("tsumugi", {"t": 50.0, "upper": 611, "line": 611},
                                          [(50.0, None, 611)], None, None, bad, 600.0,
                                          [600.0, 1000, None, None]),
                 "kh": engine_result("kh", answer={"kind": "nomate", "length": None,
                                                   "moves": [], "replay": ""},
                                     answer_at=20.0, last=[20.0, 5000, 250, 1],
                                     error="the other engine did not start: this one ran "
                                           "alone")}},
        ],
    }


def test_report_of_a_synthetic_run():
    md = hb.report(synthetic())
    assert md.startswith("# Hardest problems: tsumugi and KomoringHeights, 2030-01-01 00:00")
    assert "- commit: abc123" in md and "Test CPU, 2 cores" in md
    assert "`python hardest.py --time-s 600`" in md
    assert "rival: KomoringHeights `/k` (KomoringHeights 1.1.0)" in md
    assert "Published: 1205 plies in 460 s (KomoringHeights v0.5.0, one thread" in md
    assert "Published: 611 plies in 459 s" in md
    # The summary row and the ratio of times to the first proof.
    assert "| 新桃花源 | 1205 | 460 s | 120.0 s | 240.0 s | 0.50 | 1205 @ 310.0 s | timeout |" in md
    assert "time to first proof, tsumugi / KomoringHeights: 0.50 (120.0 s / 240.0 s)." in md
    assert "| first proof | mate within 1225 @ 120.0 s | mate within 1209 (line 1211) @ 240.0 s |" \
        in md
    assert ("| shortest | 1205, proven minimal @ 300.0 s | not proven; best bound: mate within "
            "1209 (@ 240.0 s) |") in md
    assert "| answer | 1205 plies, replayed ok @ 310.0 s | no answer in 600 s (timeout) |" in md
    assert "| nodes at end | 62.0 M | 150.0 M |" in md
    assert "| mean nodes/s | 200.0 k | 250.2 k |" in md
    assert "| hashfull at end | 40.0% | 90.0% |" in md
    assert "| peak RSS | 3.00 GB | 3.00 GB |" in md
    # A line that does not replay, a nomate, and no proof: said so.
    assert "611 plies, NOT a mate: move 3 (attacker) 1a1b does not give check @ 600.0 s" in md
    assert "nomate @ 20.0 s: WRONG (a mate exists)" in md
    assert "KomoringHeights did not prove a mate within 600 s: no ratio." in md
    assert "| hashfull at end | - | 0.1% |" in md
    assert "KomoringHeights: the other engine did not start: this one ran alone." in md


def test_replot_reports_a_saved_run_without_engines(tmp_path, capsys, monkeypatch):
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(synthetic(), ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["hardest.py", "--replot", str(saved)])
    assert hb.main() == 0
    assert capsys.readouterr().out == hb.report(synthetic())


def test_plot_draws_both_panels(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "p.svg"
    assert hb.plot(synthetic(), str(out)) is None
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<?xml") and "<svg" in svg
