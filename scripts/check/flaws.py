#!/usr/bin/env python3
"""Constructed flaws for `tsumugi check`.

Bases: composed problems first (rules-tricky.tsv rows, famous.tsv rows of at most MAX_LEN plies),
then mate3-11.tsv and extra1-9.tsv rows, odd length 3..MAX_LEN, in file order. A row is a base when the check
(given no line) reports it `sound`; the first N such rows are kept. Rows it reports flawed,
undecided or 不詰 are counted and skipped.

On every base, with the check's own line (the engine's composer line it reported sound), two
flaws are built separately, each by one change, each established by cshogi (never by tsumugi)
before the check runs:

* 余詰 at a chosen attacker ply: one attacker piece more, in hand or on an empty square (taken
  from the defender's hand when the set holds all of that kind), such that the line is still a
  legal mating line and, at that ply (at least three plies left), another check mates within
  the plies left: at once, in three plies (every evasion answered by a mate in one), or (a hand
  piece only) in five, and whose mates pass through no later position of the line. The
  check, given the line, must report `alternative` (or `shorter_mate`) at that ply.
* A longer defence at a chosen defender ply: one change on the defender's side (a piece more on
  an empty square, taken from the defender's hand when the set holds all of that kind; one of
  its board pieces turned into another kind, swapped with its hand; or a piece more in hand
  when the set is not full, so that nothing is taken from the attacker) such that:
  (a) the line is still the problem's line: legal, every attacker move a check, and it ends
      as in the base (checkmate, or only the interpositions the base's check judged useless);
  (b) the line's own defence at that ply is still mated within the plies the line has left
      after it, every defence counted (cshogi's `mate_move`), so the line's defence lasts no
      longer there in any count; with one ply left, (a) stands for it (the line's last move
      still ends the line as in the base);
  (c) an evasion there that is a defence in every composer count — a king move, a capture, or
      an interposition that no check captures at once ("held": every 無駄合 of the sources in
      docs/composer-rules.md is captured at once) — has no mate within the plies the line
      has left (an exhaustive brute force over cshogi's moves in the relaxed count: the
      defender's moves are only those three kinds, every other interposition left out; a
      relaxed count omits defences, so "no mate within n" there holds in every composer
      count), and
  (d) is still mated: cshogi's `mate_move` finds a mate within NEAR_MAX plies, and
      cshogi's df-pn proves it (its PV replayed: legal, checks, checkmate at the end).
  This is a longer defence proper ("longer"): mated, later than the line. The check, given
  the line, must report `longer_defence` at that ply for that evasion ("named"). When no
  change gives one, an "escape" (c without d: df-pn found no mate within its node cap) is
  reported for information; it is no longer defence and is not counted as one.
  (e) The changed problem is still a mate problem: cshogi's df-pn mates every other evasion
      at that ply and at every other defender ply of the line (an escape opened anywhere
      rejects the change).
  Eligible plies: every defender ply with at most MAX_AFTER plies after the line's defence.
  The relaxed brute force takes its checks from cshogi's check generator
  (`Board.check_moves`); on every attacker position of every base's line the script compares
  it with the legal moves that give check (`check_gen_disagree` counts differences).

The chosen ply cycles over the line's eligible plies from base to base (base k takes eligible
ply k mod their count); when no change makes the flaw there, the other plies are tried, latest
first. 余詰 additions are tried cheapest first: hand pieces, then board pieces of every kind
(promoted ones included) on every empty square; second mates at once before mates in three.
Defender changes are tried nearest the defender's king first.

With --fill, sound bases past the first N are taken for the longer defence only, until N longer
defences are made or the sets run out (the 余詰 half stays on the first N). With --spare-bases
the fill also takes rows whose one flaw is 駒余り (game positions of mate3-11.tsv whose minimal
line is unique: no alternative mate, no longer or shorter defence, nothing undecided; the issue
names these as bases); they are counted in `sound` and apart in `spare_bases`. The summary counts
the bases where no longer defence was made among the first N (`def_skipped`) and past them
(`def_skipped_fill`). A construction search is cut at --build-s seconds, so a slower machine
may make fewer.

Prints one line per base and a summary; --json writes the rows.

Usage: .venv/bin/python scripts/check/flaws.py [--count 30] [--time-ms 10000] [--build-s 90]
       [--fill] [--only alternative|defence] [--json out]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import cshogi

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools.mate_line import verify_mate_line  # noqa: E402
from tsumugi_tools.problems import problems_dir, read_set  # noqa: E402
from tsumugi_tools.usi import engine_path  # noqa: E402

MAX_LEN = 15
# Longest rest (plies after the line's defence) at which a longer defence is built.
MAX_AFTER = 11
# Node cap of one relaxed "no mate within n" proof (the brute force is Python).
RELAXED_NODES = 60_000
# Longest mate cshogi's `mate_move` is asked for after the new evasion.
NEAR_MAX = 15
# Pieces of each kind in a full set (unpromoted letter).
FULL = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2}
HAND_KINDS = "RBGSNLP"
BOARD_KINDS = ["G", "S", "B", "R", "+B", "+R", "N", "L", "P", "+S", "+N", "+L", "+P"]


def check(sfen: str, line: str | None, time_ms: int) -> dict:
    args = [str(engine_path()), "check", sfen, "--format", "json", "--time-ms", str(time_ms),
            "--hash-mb", "64"]
    if line:
        args += ["--solution", line]
    p = subprocess.run(args, capture_output=True, text=True, timeout=time_ms / 1000 + 60)
    if not p.stdout.strip():
        return {"verdict": "error", "error": p.stderr.strip(), "findings": [], "undecided": []}
    return json.loads(p.stdout)


# --- cshogi oracle: legal moves, checks, brute-force mates ---------------------------------

def checks(b: cshogi.Board) -> list[int]:
    out = []
    for m in b.legal_moves:
        b.push(m)
        if b.is_check():
            out.append(m)
        b.pop()
    return out


def attacker_mates(b: cshogi.Board, n: int, relaxed: bool = False) -> bool:
    """The side to move mates within n plies (n odd), every legal defence counted; `relaxed`:
    the defender's interpositions are not counted (an over-approximation of every composer
    count, which omits only some of them)."""
    if n < 1:
        return False
    for m in checks(b):
        b.push(m)
        ok = defender_mated(b, n - 1, relaxed)
        b.pop()
        if ok:
            return True
    return False


def defender_mated(b: cshogi.Board, n: int, relaxed: bool = False) -> bool:
    """The side to move (in check) is mated within n plies (n even); see `attacker_mates`."""
    moves = list(b.legal_moves)
    if relaxed:
        moves = counted_defences(b)
    if not moves:
        return b.is_check()
    if n < 2:
        return False
    for e in moves:
        b.push(e)
        ok = attacker_mates(b, n - 1, relaxed)
        b.pop()
        if not ok:
            return False
    return True


def mates_in(b: cshogi.Board, n: int) -> bool:
    """A mate within n plies (n odd, 3..7): cshogi's mate search proposes the first move, the
    brute force above proves it (every defence after it mated within n - 1 plies)."""
    if n > 7:
        return False
    m = b.mate_move(n)
    if not m:
        return False
    b.push(m)
    ok = b.is_check() and defender_mated(b, n - 1)
    b.pop()
    return ok


def board_after(sfen: str, moves: list[str]) -> cshogi.Board:
    b = cshogi.Board(sfen)
    for mv in moves:
        b.push_usi(mv)
    return b


def end_moves(sfen: str, line: list[str]) -> list[str] | None:
    """The defender's legal moves at the end of `line` (sorted USI), or None when the line is
    not legal from `sfen` or some attacker move of it does not check."""
    b = cshogi.Board(sfen)
    for i, mv in enumerate(line):
        m = b.move_from_usi(mv)
        if m == 0 or m not in list(b.legal_moves):
            return None
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return None
    if not b.is_check():
        return None
    return sorted(cshogi.move_to_usi(m) for m in b.legal_moves)


def line_mates(sfen: str, line: list[str], end: list[str]) -> bool:
    """`line` is still the problem's line from `sfen`: legal, every attacker move checks, and it
    ends as it did in the base (`end`: the defender's moves left there; none for checkmate,
    else only interpositions the check judged useless in the base)."""
    return end_moves(sfen, line) == end


def key(b: cshogi.Board) -> str:
    return " ".join(b.sfen().split()[:3])


# --- SFEN editing ---------------------------------------------------------------------------

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


def board_cells(board: str) -> list[list[str]]:
    rows = []
    for row in board.split("/"):
        cells: list[str] = []
        i = 0
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
        rows.append(cells)
    return rows


def write_board(rows: list[list[str]]) -> str:
    out = []
    for cells in rows:
        s, e = "", 0
        for c in cells:
            if not c:
                e += 1
            else:
                s += (str(e) if e else "") + c
                e = 0
        out.append(s + (str(e) if e else ""))
    return "/".join(out)


def count_kind(sfen: str, k: str) -> int:
    """Pieces of kind `k` (unpromoted letter) in the position, both sides, board and hands."""
    board, _, hand, _ = split_sfen(sfen)
    n = sum(1 for row in board_cells(board) for c in row if c and c[-1].upper() == k)
    h = parse_hand(hand)
    return n + h.get(k, 0) + h.get(k.lower(), 0)


def take_one(sfen: str, k: str, defender_upper: bool) -> dict[str, int] | None:
    """The hands after one more piece of kind `k` enters the position: free when the set is not
    full, else taken from the defender's hand; None when neither."""
    h = parse_hand(split_sfen(sfen)[2])
    if count_kind(sfen, k) < FULL[k]:
        return h
    d = k if defender_upper else k.lower()
    if h.get(d, 0) == 0:
        return None
    h = dict(h)
    h[d] -= 1
    return h


def dead(piece: str, rank: int, black: bool) -> bool:
    """A piece that could never move again (illegal placement): P/L on the last rank, N on the
    last two (rank 0 = a, the top)."""
    r = rank if black else 8 - rank
    base = piece.upper()
    return (base in ("P", "L") and r == 0) or (base == "N" and r <= 1)


def place(sfen: str, kind: str, black: bool) -> list[tuple[str, str]]:
    """Every position with one piece `kind` ('G', '+B', ...) of the given colour put on an empty
    square (no dead piece, no second pawn on a file), with the hands adjusted; (sfen, square)."""
    board, side, _, rest = split_sfen(sfen)
    base = kind[-1]
    hands = take_one(sfen, base, defender_upper=(side == "w"))
    if hands is None:
        return []
    rows = board_cells(board)
    letter = kind if black else kind[:-1] + base.lower()
    king = "k" if side == "b" else "K"
    kr, kc = next(((r, c) for r in range(9) for c in range(9) if rows[r][c] == king), (4, 4))
    out = []
    for ri in range(9):
        for ci in range(9):
            if rows[ri][ci] or (len(kind) == 1 and dead(kind, ri, black)):
                continue
            if kind == "P" and any(rows[r][ci] == letter for r in range(9)):
                continue
            rows[ri][ci] = letter
            nb = write_board(rows)
            rows[ri][ci] = ""
            sq = f"{9 - ci}{'abcdefghi'[ri]}"
            dist = max(abs(ri - kr), abs(ci - kc))
            out.append((dist, " ".join([nb, side, write_hand(hands), *(rest or ["1"])]), sq))
    # Near the defender's king first: there a piece most often changes the play.
    return [(s, sq) for _, s, sq in sorted(out, key=lambda x: x[0])]


def add_to_hand(sfen: str, k: str) -> str | None:
    board, side, _, rest = split_sfen(sfen)
    hands = take_one(sfen, k, defender_upper=(side == "w"))
    if hands is None:
        return None
    a = k if side == "b" else k.lower()
    hands = dict(hands)
    hands[a] = hands.get(a, 0) + 1
    return " ".join([board, side, write_hand(hands), *(rest or ["1"])])


def loads(sfen: str) -> cshogi.Board | None:
    """The position when cshogi accepts it, the side to move is not in check, and the other
    side is not in check either (read with the turn swapped)."""
    board, side, hand, rest = split_sfen(sfen)
    swapped = " ".join([board, "w" if side == "b" else "b", hand, *(rest or ["1"])])
    try:
        b = cshogi.Board(sfen)
        other = cshogi.Board(swapped)
    except Exception:
        return None
    if b.is_check() or other.is_check():
        return None
    return b


# --- the two constructions -------------------------------------------------------------------

def _dist_rank(sfen: str, what: str) -> int:
    """Distance (king steps) from the defender's king of the square named in `what`."""
    board, side, _, _ = split_sfen(sfen)
    rows = board_cells(board)
    king = "k" if side == "b" else "K"
    kr, kc = next(((r, c) for r in range(9) for c in range(9) if rows[r][c] == king), (4, 4))
    sq = what.split()[-1]
    return max(abs("abcdefghi".index(sq[1]) - kr), abs(9 - int(sq[0]) - kc))


def attacker_additions(sfen: str):
    side = split_sfen(sfen)[1]
    for k in HAND_KINDS:
        s2 = add_to_hand(sfen, k)
        if s2:
            yield s2, f"{k} in hand"
    board = [(s2, f"{k} on {sq}") for k in BOARD_KINDS
             for s2, sq in place(sfen, k, black=(side == "b"))]
    yield from sorted(board, key=lambda x: _dist_rank(sfen, x[1]))


def second_mate(sfen: str, line: list[str], ply: int, depth: int, keys: set[str]):
    """A check other than line[ply] after which the defender is mated within `depth` plies and
    whose mates reach no later position of the line (no 手順前後 / 迂回: with depth 2, neither
    the position after any evasion nor after any mating reply is one); the move or None."""
    b = board_after(sfen, line[:ply])
    main = b.move_from_usi(line[ply])
    for m in checks(b):
        if m == main:
            continue
        b.push(m)
        ok = key(b) not in keys and defender_mated(b, depth) and not reaches(b, depth, keys)
        b.pop()
        if ok:
            return cshogi.move_to_usi(m)
    return None


def reaches(b: cshogi.Board, depth: int, keys: set[str]) -> bool:
    """Some evasion, or some mating reply to it (and so on, `depth` plies deep), gives a
    position in `keys`."""
    if depth < 2:
        return False
    for e in list(b.legal_moves):
        b.push(e)
        hit = key(b) in keys
        if not hit:
            for m in checks(b):
                b.push(m)
                if defender_mated(b, depth - 2):
                    hit = key(b) in keys or reaches(b, depth - 2, keys)
                b.pop()
                if hit:
                    break
        b.pop()
        if hit:
            return True
    return False


def flaw_alternative(sfen: str, line: list[str], plies: list[int], deadline: float):
    """(sfen, 0-based ply, alternative move, plies of the second mate, what was added) or None.
    The second mate is counted strictly (every defence), so it is within the line's rest in
    any composer count too."""
    end = end_moves(sfen, line)
    adds = [(s2, what) for s2, what in attacker_additions(sfen)]
    for ply in plies:
        rest = len(line) - ply
        # Mates in five (depth 4) only for hand pieces: the brute force is dearer.
        for depth in (0, 2, 4):
            if depth > rest - 1:
                continue
            for s2, what in adds:
                if time.time() > deadline:
                    return None
                if depth == 4 and "hand" not in what:
                    continue
                if loads(s2) is None or not line_mates(s2, line, end):
                    continue
                b = board_after(s2, [])
                keys = set()
                for mv in line:
                    b.push_usi(mv)
                    keys.add(key(b))
                mv = second_mate(s2, line, ply, depth, keys)
                if mv:
                    return s2, ply, mv, depth + 1, what
    return None


def is_king_move(b: cshogi.Board, m: int) -> bool:
    # A drop's "from" is no square (cshogi encodes the piece there): never a king move.
    return not cshogi.move_is_drop(m) and \
        cshogi.piece_to_piece_type(b.piece(cshogi.move_from(m))) == cshogi.KING


def captures(b: cshogi.Board, m: int) -> bool:
    return not cshogi.move_is_drop(m) and b.piece(cshogi.move_to(m)) != cshogi.NONE


class OutOfBudget(Exception):
    pass


class Relaxed:
    """Brute force over cshogi's moves in the relaxed count (the defender's interpositions not
    counted: an over-approximation of every composer count, which omits only some of them, so
    "no mate within n" here holds in every count). Positions are memoized by SFEN with the
    longest depth proven not to mate and the shortest proven to mate. Checks come from
    cshogi's check generator (`Board.check_moves`), which `checks_agree` compares with the
    legal moves that give check on every position of every line the script reads."""

    def __init__(self, deadline: float, max_nodes: int):
        self.memo: dict[str, tuple[int, int]] = {}
        self.deadline = deadline
        self.nodes = 0
        self.max_nodes = max_nodes

    def attacker(self, b: cshogi.Board, n: int) -> bool:
        if n < 1:
            return False
        k = key(b)
        lo, hi = self.memo.get(k, (-1, 10 ** 9))
        if n <= lo:
            return False
        if n >= hi:
            return True
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 1023 == 0 and time.time() > self.deadline):
            raise OutOfBudget
        res = False
        for m in list(b.check_moves):
            b.push(m)
            ok = self.defender(b, n - 1)
            b.pop()
            if ok:
                res = True
                break
        lo, hi = self.memo.get(k, (-1, 10 ** 9))
        self.memo[k] = (lo, min(hi, n)) if res else (max(lo, n), hi)
        return res

    def defender(self, b: cshogi.Board, n: int) -> bool:
        moves = counted_defences(b)
        if not moves:
            return b.is_check()
        if n < 2:
            return False
        for e in moves:
            b.push(e)
            ok = self.attacker(b, n - 1)
            b.pop()
            if not ok:
                return False
        return True


def held(b: cshogi.Board, e: int) -> bool:
    """After the interposition `e` (defender to move, in check), no legal check of the
    attacker captures the interposed piece at once."""
    to = cshogi.move_to(e)
    b.push(e)
    hit = any(cshogi.move_to(m) == to for m in b.check_moves)
    b.pop()
    return not hit


def defence_kind(b: cshogi.Board, e: int) -> str | None:
    """How the evasion `e` (defender to move, in check) is a defence in every composer count:
    'king', 'capture', 'held' (an interposition no check captures at once: every 無駄合 of
    the sources is captured at once, see docs/composer-rules.md), or None (an interposition
    that may be useless under some convention)."""
    if is_king_move(b, e):
        return "king"
    if captures(b, e):
        return "capture"
    return "held" if held(b, e) else None


def counted_defences(b: cshogi.Board) -> list[int]:
    """The defender's moves counted in the relaxed count: those `defence_kind` names."""
    return [e for e in b.legal_moves if defence_kind(b, e)]


def checks_agree(b: cshogi.Board) -> bool:
    return sorted(b.check_moves) == sorted(checks(b))


def dfpn_mate(b: cshogi.Board, nodes: int) -> list[str] | None:
    """A mate proven by cshogi's df-pn (attacker to move), its PV replayed on a copy and seen
    to be legal, every attacker move a check and the end checkmate; the PV (USI) or None."""
    d = cshogi.DfPn()
    d.set_max_search_node(nodes)
    if not d.search(b):
        return None
    pv = [cshogi.move_to_usi(m) for m in d.get_pv(b)]
    # Odd length: the attacker (to move here) mates; an even line would be a defender root's.
    if len(pv) % 2 == 0 or not verify_mate_line(b.sfen(), pv)[0]:
        return None
    return pv


def mated_within(b: cshogi.Board, n: int) -> bool:
    """The attacker (to move) mates within n plies, every legal defence counted: the brute
    force for n = 1, else cshogi's mate search (`Board.mate_move`)."""
    if n <= 1:
        return attacker_mates(b, 1)
    return bool(b.mate_move(n))


def judge(b: cshogi.Board, after: int, relaxed: Relaxed, want_escape: bool):
    """After an evasion (attacker to move): ('longer', pv) when there is no mate within
    `after` plies in the relaxed count and df-pn proves a mate (pv: its replayed line);
    ('escape', None) when no mate within `after` (relaxed) and none found; else None."""
    # Cheap rejections first: a strict mate within `after` is a mate within it in every count.
    if after >= 3 and b.mate_move(after):
        return None
    try:
        if relaxed.attacker(b, 1):
            return None
    except OutOfBudget:
        return None
    # cshogi's mate search proposes how much longer (up to NEAR_MAX plies); df-pn proves
    # the mate; the brute force proves there is none within `after`.
    near = any(b.mate_move(n) for n in range(after + 2, NEAR_MAX + 1, 2))
    if not near and not want_escape:
        return None
    pv = dfpn_mate(b, 100_000 if near else 20_000)
    if pv is None and not want_escape:
        return None
    try:
        if relaxed.attacker(b, after):
            return None
    except OutOfBudget:
        return None
    return ("longer", pv) if pv else ("escape", None)


def defender_changes(sfen: str):
    """One change on the defender's side: a piece more in hand (only when the set is not full,
    so that no piece is taken from the attacker), a piece more on an empty square (every kind,
    from the defender's hand when the set is full), or one of its board pieces (not the king)
    turned into another kind (the new piece from the defender's hand or the set, the old one
    back to the defender's hand). Nearest the defender's king first. (sfen, what)."""
    board, side, hand, rest = split_sfen(sfen)
    for k in HAND_KINDS:
        if count_kind(sfen, k) < FULL[k]:
            h = parse_hand(hand)
            d = k.lower() if side == "b" else k
            h[d] = h.get(d, 0) + 1
            yield " ".join([board, side, write_hand(h), *(rest or ["1"])]), f"{k} in hand"
    out = [(s2, f"{k} on {sq}") for k in BOARD_KINDS
           for s2, sq in place(sfen, k, black=(side != "b"))]
    rows = board_cells(board)
    black_def = side != "b"
    for ri in range(9):
        for ci in range(9):
            old = rows[ri][ci]
            if not old or old[-1].upper() == "K" or old[-1].isupper() != black_def:
                continue
            for kind in BOARD_KINDS:
                if kind == old.upper():
                    continue
                if len(kind) == 1 and dead(kind, ri, black_def):
                    continue
                letter = kind if black_def else kind[:-1] + kind[-1].lower()
                if kind == "P" and any(rows[r][ci] == letter for r in range(9) if r != ri):
                    continue
                h = parse_hand(hand)
                d = (lambda c: c.upper() if black_def else c.lower())
                new_base, old_base = kind[-1], old[-1].upper()
                if new_base != old_base:
                    if count_kind(sfen, new_base) >= FULL[new_base]:
                        if h.get(d(new_base), 0) == 0:
                            continue
                        h[d(new_base)] -= 1
                        h[d(old_base)] = h.get(d(old_base), 0) + 1
                rows[ri][ci] = letter
                nb = write_board(rows)
                rows[ri][ci] = old
                sq = f"{9 - ci}{'abcdefghi'[ri]}"
                out.append((" ".join([nb, side, write_hand(h), *(rest or ["1"])]),
                            f"{old} made {kind} on {sq}"))
    yield from sorted(out, key=lambda x: _dist_rank(sfen, x[1]))


def flaw_defence(sfen: str, line: list[str], plies: list[int], deadline: float):
    """(sfen, 0-based ply, evasion, 'longer'|'escape', what was changed, pv, kind, main_ok) or
    None.

    One change on the defender's side (`defender_changes`); the line must still be the
    problem's line, and the line's own defence at the ply still mated within the plies left
    (`main_ok`, required: every defence counted, so the evasion is longer than the line's
    defence in any count). The evasion is a defence in every composer count (`defence_kind`:
    a king move, a capture, or an interposition no check captures at once). The changed
    problem must still be a mate problem: df-pn mates every other evasion at that ply and at
    every other defender ply of the line (`others_mated`). An escape is returned only when no
    longer defence is made."""
    end = end_moves(sfen, line)
    adds = list(defender_changes(sfen))
    escape = None  # the first escape: reported only when no longer defence is made
    for ply in plies:
        after = len(line) - ply - 1  # plies the line has left after its own defence
        for s2, what in adds:
            if time.time() > deadline:
                return escape
            if loads(s2) is None or not line_mates(s2, line, end):
                continue
            b = board_after(s2, line[:ply])
            main = b.move_from_usi(line[ply])
            b.push(main)
            # One ply left: (a) already says the line's last move ends it as in the base.
            main_ok = after == 1 or mated_within(b, after)
            b.pop()
            if not main_ok:
                continue
            evasions = list(b.legal_moves)
            for e in evasions:
                if e == main:
                    continue
                kind = defence_kind(b, e)
                if kind is None:
                    continue
                relaxed = Relaxed(deadline, RELAXED_NODES)
                b.push(e)
                got = judge(b, after, relaxed, escape is None)
                b.pop()
                if got is None:
                    continue
                how, pv = got
                if how == "escape":
                    escape = escape or (s2, ply, cshogi.move_to_usi(e), "escape", what, None,
                                        kind, main_ok)
                    continue
                # The changed problem is still a mate problem: every other defence on the line
                # mated, at this ply (but the new evasion) and at the others.
                if not others_mated(s2, line, ply, cshogi.move_to_usi(e)):
                    continue
                return (s2, ply, cshogi.move_to_usi(e), "longer", what, pv, kind, main_ok)
    return escape


def others_mated(sfen: str, line: list[str], ply: int, evasion: str) -> bool:
    """Every evasion other than the line's at every defender ply of the line, and other than
    `evasion` at `ply`, is mated: cshogi's df-pn proves it (node cap 20 000; a mate it does not
    find counts as not mated, so a change is only ever rejected by this, never let through on
    a guess)."""
    b = cshogi.Board(sfen)
    for q, mv in enumerate(line):
        if q % 2 == 1:
            for e in list(b.legal_moves):
                u = cshogi.move_to_usi(e)
                if u == mv or (q == ply and u == evasion):
                    continue
                b.push(e)
                mated = dfpn_mate(b, 20_000) is not None
                b.pop()
                if not mated:
                    return False
        b.push_usi(mv)
    return True


def ply_order(eligible: list[int], k: int) -> list[int]:
    """The chosen ply (eligible[k mod n]) first, then the others latest first."""
    if not eligible:
        return []
    chosen = eligible[k % len(eligible)]
    return [chosen] + [p for p in reversed(eligible) if p != chosen]


def candidates(d: Path):
    for name in ("rules-tricky.tsv", "famous.tsv", "mate3-11.tsv", "extra1-9.tsv"):
        for row in read_set(d / name):
            n = row.plies
            if n is not None and n % 2 == 1 and 3 <= n <= MAX_LEN:
                yield name, row.sfen


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--time-ms", type=int, default=10000)
    ap.add_argument("--build-s", type=float, default=120,
                    help="time cap of each construction (seconds)")
    ap.add_argument("--json")
    ap.add_argument("--fill", action="store_true",
                    help="past the first COUNT sound bases, take further sound bases for the "
                    "longer defence until COUNT are made")
    ap.add_argument("--spare-bases", action="store_true",
                    help="with --fill, also take rows whose one flaw is 駒余り (game positions "
                    "whose minimal line is unique) for the longer defence")
    ap.add_argument("--only", choices=["alternative", "defence"],
                    help="build one kind of flaw only")
    a = ap.parse_args()
    d = problems_dir()
    if not (d / "rules-tricky.tsv").exists():
        print(f"SKIPPED: problem sets not found at {d}; set TSUMUGI_PROBLEMS")
        return 0
    rows = []
    counts = {"seen": 0, "sound": 0, "rejected_flawed": 0, "rejected_undecided": 0,
              "rejected_nomate": 0, "rejected_short": 0, "rejected_other": 0,
              "alt_made": 0, "alt_at_chosen": 0, "alt_in_three": 0, "alt_named": 0,
              "def_at_chosen": 0, "def_longer": 0, "def_longer_named": 0,
              "def_longer_first": 0,
              "def_longer_named_first": 0,
              "def_longer_main_unproven": 0, "def_longer_king": 0, "def_longer_capture": 0,
              "def_longer_held": 0, "def_escape": 0, "def_escape_named": 0, "def_skipped": 0,
              "def_skipped_fill": 0, "spare_bases": 0, "def_longer_spare": 0,
              "def_longer_named_spare": 0,
              "check_gen_disagree": 0}
    seen = set()
    t0 = time.time()
    for name, sfen in candidates(d):
        # The first `count` sound bases get both flaws; past them, bases are taken for the
        # longer defence only, until `count` are made (--fill) or the sets run out.
        if counts["sound"] >= a.count and not (a.fill and counts["def_longer"] < a.count):
            break
        if loads(sfen) is None:
            continue  # not loadable, or the attacker starts in check (no composed problem)
        k = " ".join(sfen.split()[:3])
        if k in seen:
            continue
        seen.add(k)
        counts["seen"] += 1
        base = check(sfen, None, a.time_ms)
        verdict = base["verdict"]
        # Past the first `count` sound bases, --spare-bases also takes a row whose one flaw is
        # 駒余り (a game position whose minimal line is unique: no alternative mate, no longer
        # or shorter defence, nothing undecided), for the longer defence only.
        spare_only = (a.spare_bases and counts["sound"] >= a.count and verdict == "flawed"
                      and not base.get("undecided")
                      and {f["kind"] for f in base["findings"] if f["severity"] == "flaw"}
                      == {"spare_pieces"})
        if spare_only:
            verdict = "sound"
        if verdict != "sound" or len(base.get("line", "").split()) < 3:
            key_ = {"flawed": "rejected_flawed", "undecided": "rejected_undecided",
                    "nomate": "rejected_nomate", "sound": "rejected_short"}.get(
                        verdict, "rejected_other")
            counts[key_] += 1
            print(json.dumps({"set": name, "sfen": sfen, "rejected": verdict,
                              "kinds": sorted({f["kind"] for f in base["findings"]}),
                              "undecided": len(base.get("undecided", []))},
                             ensure_ascii=False), flush=True)
            continue
        i = counts["sound"]
        counts["sound"] += 1
        line = base["line"].split()
        counts["spare_bases"] += spare_only
        row = {"set": name, "sfen": sfen, "line": base["line"],
               "base": "spare_only" if spare_only else "sound"}
        att = ply_order(list(range(0, len(line) - 2, 2)), i)
        # Defender plies with at most MAX_AFTER plies after the line's defence (the relaxed
        # brute force "no mate within n" stays affordable there).
        dfn = ply_order([p for p in range(1, len(line) - 1, 2)
                         if len(line) - p - 1 <= MAX_AFTER], i)
        # cshogi's check generator, which the relaxed brute force uses, against the legal
        # moves that give check, on every position of the line.
        b = cshogi.Board(sfen)
        for j, mv in enumerate(line):
            if j % 2 == 0 and not checks_agree(b):
                counts["check_gen_disagree"] += 1
            b.push_usi(mv)
        first = i < a.count
        row["first_bases"] = first
        made = flaw_alternative(sfen, line, att, time.time() + a.build_s) \
            if a.only != "defence" and first else None
        if made:
            s2, ply, mv, mlen, what = made
            counts["alt_made"] += 1
            counts["alt_at_chosen"] += ply == att[0]
            counts["alt_in_three"] += mlen == 3
            r = check(s2, " ".join(line), a.time_ms)
            named = any(f["kind"] in ("alternative", "shorter_mate") and f["ply"] == ply + 1
                        for f in r["findings"])
            counts["alt_named"] += named
            row["alternative"] = {"sfen": s2, "added": what, "chosen_ply": att[0] + 1,
                                  "ply": ply + 1, "move": mv, "mate_plies": mlen,
                                  "named": named, "verdict": r["verdict"],
                                  "kinds_at_ply": sorted({f["kind"] for f in r["findings"]
                                                          if f["ply"] == ply + 1})}
        made = flaw_defence(sfen, line, dfn, time.time() + a.build_s) \
            if a.only != "alternative" and dfn else None
        if made:
            s2, ply, ev, how, what, pv, kind, main_ok = made
            counts["def_at_chosen"] += ply == dfn[0]
            r = check(s2, " ".join(line), a.time_ms)
            at_ply = [f for f in r["findings"] if f["ply"] == ply + 1]
            # Named: the evasion itself reported at that ply, as the kind it is.
            want = "longer_defence" if how == "longer" else "no_mate"
            named = any(f["kind"] == want and f.get("moves", "").split()[:1] == [ev]
                        for f in at_ply)
            named_kind = any(f["kind"] == want for f in at_ply)
            if how == "longer":
                counts["def_longer"] += 1
                counts["def_longer_named"] += named
                counts["def_longer_first"] += first
                counts["def_longer_named_first"] += named and first
                counts["def_longer_spare"] += spare_only
                counts["def_longer_named_spare"] += named and spare_only
                counts["def_longer_main_unproven"] += not main_ok
                counts[f"def_longer_{kind}"] += 1
            else:
                counts["def_escape"] += 1
                counts["def_escape_named"] += named
            row["defence"] = {"sfen": s2, "added": what, "chosen_ply": dfn[0] + 1,
                              "ply": ply + 1, "plies_left": len(line) - ply - 1,
                              "evasion": ev, "evasion_kind": kind, "how": how,
                              "line_defence_mated_within": main_ok,
                              "mate_after": " ".join(pv) if pv else None,
                              "named": named,
                              "kind_at_ply": named_kind, "verdict": r["verdict"],
                              "kinds_at_ply": sorted({f["kind"] for f in at_ply}),
                              "reported": [f"{f['kind']} {f.get('moves', '')}" for f in at_ply
                                           if f["kind"] in ("longer_defence", "no_mate")]}
        if not (made and made[3] == "longer"):
            counts["def_skipped" if first else "def_skipped_fill"] += 1
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    counts["seconds"] = round(time.time() - t0, 1)
    print("summary", json.dumps(counts))
    if a.json:
        Path(a.json).write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
