#!/usr/bin/env python3
"""Constructed flaws for `tsumugi check` (issue 17, "must show").

Takes sound short problems from the shared sets (rules-tricky.tsv rows, then mate3-11.tsv rows,
in file order, odd length <= MAX_LEN), keeps the first N that the check reports without a flaw
of the kinds below and without open questions (game positions' 駒余り is not counted against a
base: mate3-11 rows are positions from games, not composed works), and adds one flaw to each:

* 余詰 at a chosen ply: one piece moved from the defender's hand to the attacker's (else, put
  on an empty square as the attacker's, not giving check) such that, at
  an attacker ply of the main line with at least three plies left, a move of the attacker mates at
  once (checked by cshogi: the line still mates, and that move mates in one there; the latest
  such ply is chosen). The check,
  given the original line, must report `alternative` (or `shorter_mate`) at that ply.
* A longer defence: one piece of the defender's hand put on an empty square (gold, silver,
  bishop, rook, horse or dragon) such that the original line still mates (cshogi) and at its last defender
  ply some evasion that is no interposition (a king move or a capture) leaves no mate in one
  (brute force with cshogi's legal moves). The check must report `longer_defence` or `no_mate`
  at that ply.

The oracle is cshogi: every constructed flaw is established by it before the check runs, never
by tsumugi. Prints one line per problem and a summary; --json writes the rows.

Usage: .venv/bin/python scripts/check_flaws.py [--count 30] [--time-ms 10000] [--json out]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import cshogi

ROOT = Path(__file__).resolve().parent.parent
MAX_LEN = 11
BASE_FLAWS = {"alternative", "shorter_mate", "longer_defence", "fewer_spare_defence", "no_mate"}
HAND_ORDER = "RBGSNLP"


def problems_dir() -> Path:
    return Path(os.environ.get("TSUMUGI_PROBLEMS") or ROOT.parent / "shared" / "problems")


def binary() -> str:
    return os.environ.get("TSUMUGI_BIN") or str(ROOT / "target" / "release" / "tsumugi")


def check(sfen: str, line: str | None, time_ms: int) -> dict:
    args = [binary(), "check", sfen, "--format", "json", "--time-ms", str(time_ms),
            "--hash-mb", "64"]
    if line:
        args += ["--solution", line]
    p = subprocess.run(args, capture_output=True, text=True, timeout=time_ms / 1000 + 60)
    if not p.stdout.strip():
        return {"verdict": "error", "error": p.stderr.strip(), "findings": [], "undecided": []}
    return json.loads(p.stdout)


def legal(b: cshogi.Board) -> list[str]:
    return [cshogi.move_to_usi(m) for m in b.legal_moves]


def mates_in_one(b: cshogi.Board, mv: str) -> bool:
    b.push_usi(mv)
    ok = b.is_check() and b.is_game_over()
    b.pop()
    return ok


def has_mate_in_one(b: cshogi.Board) -> bool:
    return any(mates_in_one(b, m) for m in legal(b))


def line_mates(sfen: str, line: list[str]) -> bool:
    b = cshogi.Board(sfen)
    for i, mv in enumerate(line):
        if mv not in legal(b):
            return False
        b.push_usi(mv)
        if i % 2 == 0 and not b.is_check():
            return False
    return b.is_check() and b.is_game_over()


def split_sfen(sfen: str):
    board, side, hand, *rest = sfen.split()
    return board, side, hand, rest


def parse_hand(hand: str) -> dict[str, int]:
    out: dict[str, int] = {}
    n = ""
    for ch in "" if hand == "-" else hand:
        if ch.isdigit():
            n += ch
        else:
            out[ch] = out.get(ch, 0) + (int(n) if n else 1)
            n = ""
    return out


def write_hand(h: dict[str, int]) -> str:
    s = ""
    for c in "RBGSNLP" + "rbgsnlp":
        k = h.get(c, 0)
        if k:
            s += (str(k) if k > 1 else "") + c
    return s or "-"


def with_hand(sfen: str, h: dict[str, int]) -> str:
    board, side, _, rest = split_sfen(sfen)
    return " ".join([board, side, write_hand(h), *(rest or ["1"])])


def flaw_alternative(sfen: str, line: list[str]):
    """(new sfen, 0-based ply, mating move) or None: the latest attacker ply with at least three
    plies left where one piece more in hand gives a mate in one."""
    side = split_sfen(sfen)[1]
    h = parse_hand(split_sfen(sfen)[2])
    for ply in range(len(line) - 3, -1, -2):
        for k in HAND_ORDER:
            att, dfn = (k, k.lower()) if side == "b" else (k.lower(), k)
            if h.get(dfn, 0) == 0:
                continue
            h2 = dict(h)
            h2[dfn] -= 1
            h2[att] = h2.get(att, 0) + 1
            s2 = with_hand(sfen, h2)
            try:
                b = cshogi.Board(s2)
            except Exception:
                continue
            if not line_mates(s2, line):
                continue
            for mv in line[:ply]:
                b.push_usi(mv)
            for mv in legal(b):
                if mv != line[ply] and mates_in_one(b, mv):
                    return s2, ply, mv
    # Else an extra attacker piece on the board (taken from the defender's hand), not giving
    # check at the start.
    board, _, _, rest = split_sfen(sfen)
    for ply in range(len(line) - 3, -1, -2):
        for k in "GSBR":
            att, dfn = (k, k.lower()) if side == "b" else (k.lower(), k)
            if h.get(dfn, 0) == 0:
                continue
            h2 = dict(h)
            h2[dfn] -= 1
            for f, r in squares():
                nb = place(board, f, r, att)
                if nb is None:
                    continue
                s2 = " ".join([nb, side, write_hand(h2), *(rest or ["1"])])
                try:
                    b = cshogi.Board(s2)
                    b.push_pass()
                    gives_check = b.is_check()
                    b.pop_pass()
                except Exception:
                    continue
                if gives_check or b.is_check() or not line_mates(s2, line):
                    continue
                for mv in line[:ply]:
                    b.push_usi(mv)
                for mv in legal(b):
                    if mv != line[ply] and mates_in_one(b, mv):
                        return s2, ply, mv
    return None


def squares():
    for f in range(1, 10):
        for r in "abcdefghi":
            yield f, r


def place(board: str, f: int, r: str, piece: str) -> str | None:
    rows = board.split("/")
    ri = "abcdefghi".index(r)
    cells: list[str] = []
    i = 0
    row = rows[ri]
    while i < len(row):
        ch = row[i]
        if ch.isdigit():
            cells += [""] * int(ch)
        elif ch == "+":
            cells.append(row[i:i + 2])
            i += 1
        else:
            cells.append(ch)
        i += 1
    col = 9 - f
    if cells[col]:
        return None
    cells[col] = piece
    out, e = "", 0
    for c in cells:
        if not c:
            e += 1
        else:
            out += (str(e) if e else "") + c
            e = 0
    out += str(e) if e else ""
    rows[ri] = out
    return "/".join(rows)


def flaw_defence(sfen: str, line: list[str]):
    """(new sfen, 0-based ply, evasion) or None."""
    if len(line) < 3:
        return None
    ply = len(line) - 2
    board, side, hand, rest = split_sfen(sfen)
    h = parse_hand(hand)
    for k in ["G", "S", "B", "R", "+B", "+R"]:
        dfn = k.lower() if side == "b" else k
        if h.get(dfn[-1], 0) == 0:
            continue
        for f, r in squares():
            nb = place(board, f, r, dfn)
            if nb is None:
                continue
            h2 = dict(h)
            h2[dfn[-1]] -= 1
            s2 = " ".join([nb, side, write_hand(h2), *(rest or ["1"])])
            try:
                b = cshogi.Board(s2)
            except Exception:
                continue
            if b.is_check() or not line_mates(s2, line):
                continue
            for mv in line[:ply]:
                b.push_usi(mv)
            for e in legal(b):
                if e == line[ply] or "*" in e:
                    continue
                b.push_usi(e)
                escapes = not has_mate_in_one(b)
                b.pop()
                # A king move or a capture of the checker: no interposition, so never 無駄合.
                if escapes and (is_king_move(b, e) or captures(b, e)):
                    return s2, ply, e
    return None


def is_king_move(b: cshogi.Board, mv: str) -> bool:
    m = b.move_from_usi(mv)
    return cshogi.piece_to_piece_type(b.piece(cshogi.move_from(m))) == cshogi.KING


def captures(b: cshogi.Board, mv: str) -> bool:
    m = b.move_from_usi(mv)
    return b.piece(cshogi.move_to(m)) != cshogi.NONE


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--time-ms", type=int, default=10000)
    ap.add_argument("--json")
    a = ap.parse_args()
    d = problems_dir()
    if not (d / "rules-tricky.tsv").exists():
        print(f"SKIPPED: problem sets not found at {d}; set TSUMUGI_PROBLEMS")
        return 0
    cands = []
    for name in ("rules-tricky.tsv", "mate3-11.tsv"):
        for row in (d / name).read_text(encoding="utf-8").splitlines()[1:]:
            cols = row.split("\t")
            if len(cols) > 1 and cols[1].isdigit() and int(cols[1]) % 2 == 1 \
                    and 3 <= int(cols[1]) <= MAX_LEN:
                cands.append((name, cols[0]))
    rows = []
    counts = {"base_seen": 0, "base_kept": 0, "base_rejected": 0, "alt_made": 0,
              "alt_named": 0, "def_made": 0, "def_named": 0, "unchanged_sound": 0,
              "unchanged_undecided": 0}
    t0 = time.time()
    for name, sfen in cands:
        if counts["base_kept"] >= a.count:
            break
        counts["base_seen"] += 1
        try:
            cshogi.Board(sfen)
        except Exception:
            continue
        base = check(sfen, None, a.time_ms)
        kinds = {f["kind"] for f in base["findings"]}
        if base["verdict"] in ("error", "nomate") or kinds & BASE_FLAWS or base["undecided"] \
                or len(base["line"].split()) < 3:
            counts["base_rejected"] += 1
            continue
        counts["base_kept"] += 1
        line = base["line"].split()
        if base["verdict"] == "sound":
            counts["unchanged_sound"] += 1
        row = {"set": name, "sfen": sfen, "line": base["line"], "base": base["verdict"],
               "base_kinds": sorted(kinds)}
        # Each flaw: its builder, the report kinds that name it, and its row/count keys.
        for build, kinds_named, key, count in (
                (flaw_alternative, ("alternative", "shorter_mate"), "alternative", "alt"),
                (flaw_defence, ("longer_defence", "no_mate"), "defence", "def")):
            made = build(sfen, line)
            if not made:
                continue
            s2, ply, mv = made
            counts[f"{count}_made"] += 1
            r = check(s2, " ".join(line), a.time_ms)
            named = any(f["kind"] in kinds_named and f["ply"] == ply + 1
                        for f in r["findings"])
            counts[f"{count}_named"] += named
            row[key] = {"sfen": s2, "ply": ply + 1, "move": mv, "named": named,
                        "verdict": r["verdict"]}
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    counts["seconds"] = round(time.time() - t0, 1)
    print("summary", json.dumps(counts))
    if a.json:
        Path(a.json).write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
