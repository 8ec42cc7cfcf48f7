#!/usr/bin/env python3
"""Generate tests/data/perft.txt: perft counts from cshogi, cross-checked with python-shogi.

Usage (from the repo root):
    scripts/venv && .venv/bin/python scripts/gen/perft_data.py [--out tests/data/perft.txt]
        [--jobs 2] [--no-cross-check]

Perft(d) counts the leaves of the legal-move tree d plies deep (a node without legal moves
before depth d contributes 0). Legal moves are cshogi's `legal_moves`, which include the optional
non-promotions (pawn, lance, knight, silver, bishop, rook), exclude the forced ones (pawn/lance
to the last rank, knight to the last two), nifu, pawn-drop mate and drops where the piece
could never move.

Every position below is constructed here (by hand, or by a seeded random playout from the
start position); none comes from ../shared/problems. Each can assert root features (moves
that must / must not be legal, whether the side to move is in check) so that a position that
no longer shows what its name says fails loudly; mirrored pairs (colours swapped, board
rotated) must give equal counts.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import cshogi
import shogi  # python-shogi, the cross-check

REPO_ROOT = Path(__file__).resolve().parents[2]  # from scripts/gen/
STARTPOS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
# Material of a full set, per piece kind (promoted pieces count as their base kind).
FULL_SET = {"p": 18, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2, "k": 2}


@dataclass
class Pos:
    name: str
    sfen: str
    depth: int
    legal: list[str] = field(default_factory=list)  # root moves that must be legal
    illegal: list[str] = field(default_factory=list)  # root moves that must not be legal
    in_check: bool | None = None  # side to move in check?
    checkers: int | None = None  # 2 = double check (then only king moves are legal)
    mirror_of: str | None = None  # name of a position this one mirrors (counts must be equal)
    expect: int | None = None  # a count known from elsewhere


def random_playout(seed: int, plies: int) -> str:
    """A position after `plies` random legal moves from the start; captures are preferred so
    that both hands fill up. Deterministic for a given seed and cshogi version."""
    rng = random.Random(seed)
    board = cshogi.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        assert moves, f"seed {seed}: game over before {plies} plies"
        captures = [m for m in moves if board.piece(cshogi.move_to(m)) != cshogi.NONE
                    and not cshogi.move_is_drop(m)]
        pool = captures if captures and rng.random() < 0.7 else moves
        board.push(rng.choice(pool))
    return board.sfen()


POSITIONS = [
    Pos("startpos-d1", STARTPOS, 1, expect=30),
    Pos("startpos-d2", STARTPOS, 2, expect=900),
    Pos("startpos-d3", STARTPOS, 3, expect=25470),
    Pos("startpos-d4", STARTPOS, 4, expect=719731),
    # Both sides hold R, B, G, 2S, P; pawns on six files each, so pawn drops only on the other
    # three (nifu), and drops everywhere else.
    Pos("drops-both-hands", "ln2k2nl/9/p1pp1pp1p/9/9/9/P1PP1PP1P/9/LN2K2NL b RBG2SPrbg2sp 1", 2,
        legal=["R*5e", "P*8d", "P*5h", "P*2b"], illegal=["P*9d", "P*4d", "P*5a"]),
    # Black pawn, silver, rook, bishop next to or in the promotion zone; White pieces near hers.
    Pos("promotions-black", "4k4/9/1S5P1/P2RB4/9/1p1b2r2/7s1/9/4K4 b - 1", 3,
        legal=["2c2b", "2c2b+", "8c8b", "8c8b+", "8c7d+", "8c7d", "6d6a", "6d6a+", "5d3b+", "9d9c",
               "9d9c+"],
        illegal=["5d4e+"], in_check=False),
    Pos("promotions-white", "4k4/2s6/2R2B1P1/9/4b1r1P/9/1p5s1/9/4K4 w - 1", 3,
        legal=["8g8h", "8g8h+", "2g2h+", "3e3i+", "5e7g+", "7b7c"], in_check=False),
    # Pawn to the last rank, lance to the last rank, knight to the last two: promotion forced;
    # lance to the second rank: optional. Lance and pawn drops never on the last rank.
    Pos("must-promote", "4k4/P6L1/2N6/5N3/9/3n5/6n2/1l6p/4K4 b LPlp 1", 3,
        legal=["9b9a+", "2b2a+", "7c8a+", "7c6a+", "4d3b+", "4d5b+", "L*1b", "P*1b"],
        illegal=["9b9a", "2b2a", "7c8a", "7c6a", "4d3b", "4d5b", "L*1a", "P*1a"]),
    Pos("must-promote-lance-2nd", "4k4/9/L7L/9/9/9/9/9/4K4 b N 1", 4,
        legal=["9c9b", "9c9b+", "9c9a+", "N*5c"], illegal=["9c9a", "N*5b", "N*1a"]),
    # Pawns on four files per side, plus a tokin on the fifth file: the tokin does not count
    # for nifu, so pawn drops are legal on five files for each side.
    Pos("nifu", "4k4/9/4+ppppp/9/9/9/PPPP+P4/9/4K4 b NLPnlp 1", 3,
        legal=["P*5f", "P*1d", "N*9c", "L*5b"], illegal=["P*6f", "P*9b", "N*5b", "L*5a"]),
    # Black king on 9i. White lance pins the Black lance (which may still slide along the
    # file), White bishop pins the knight, White rook pins the silver on the rank.
    Pos("pins", "l7k/9/6b2/9/L8/9/2N6/9/K3S3r b GPgp 1", 3,
        legal=["9e9a+", "9e9b", "9e9d"], illegal=["7g6e", "7g8e", "5i5h", "5i4h", "5i6h"],
        in_check=False),
    # Black king on 5e in check from the rook on 1e: block (moves or drops), capture nothing,
    # and the king may not step back along the rank (6e stays attacked through the king).
    Pos("check-slider", "4k4/9/9/9/4K3r/9/9/9/9 b GSPgsp 1", 3,
        legal=["5e5d", "G*2e", "P*4e", "S*3e"], illegal=["5e6e", "G*6e"], in_check=True,
        checkers=1),
    # Double check (rook on the file, knight from 6g): only king moves.
    Pos("check-double", "4k4/9/9/9/4r4/9/3n5/9/4K4 b GSPgsp 1", 3, in_check=True, checkers=2,
        illegal=["G*5h", "P*5f"]),
    # Mate-problem style: no Black (attacker) king, the defender holds the rest of the pieces.
    Pos("nokings-black-attacker", "6snl/6gk1/6ppp/9/9/9/9/9/9 b RGr2b2g3s3n3l15p 1", 2,
        legal=["R*2d", "G*1b"], illegal=["G*2a"]),
    # The same rotated, colours swapped: White attacks without a king.
    Pos("nokings-white-attacker", "9/9/9/9/9/9/PPP6/1KG6/LNS6 w R2B2G3S3N3L15Prg 1", 2,
        legal=["r*8f", "g*9h"], illegal=["g*8i"], mirror_of="nokings-black-attacker"),
    # Head mate 4k4 with a gold in hand, no Black king: few attacker moves, so depth 3.
    Pos("nokings-head-mate", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", 3,
        legal=["G*5b", "5c5b", "5c5b+"]),
    # P*1b would mate (2a, 2b are White's own, 1b is defended by the gold on 1c): illegal.
    Pos("pawn-drop-mate", "7nk/7p1/8G/9/9/9/9/9/4K4 b GPrbgsnlp 1", 2,
        legal=["G*1b"], illegal=["P*1b"]),
    Pos("pawn-drop-mate-white", "4k4/9/9/9/9/9/g8/1P7/KN7 w RBGSNLPgp 1", 2,
        legal=["G*9h"], illegal=["P*9h"], mirror_of="pawn-drop-mate"),
    # The gold on 2b could take a pawn on 1b, but it is pinned by the bishop on 5e: still mate,
    # still illegal.
    Pos("pawn-drop-mate-pinned", "7nk/7g1/8G/9/4B4/9/9/9/4K4 b Prgsnlp 1", 2,
        illegal=["P*1b"]),
    # P*1b gives check, defended by the gold, but the king escapes to 2a: legal.
    Pos("pawn-drop-check-escape", "8k/9/8G/9/9/9/9/9/4K4 b Prbgsnlp 1", 2,
        legal=["P*1b"]),
    # P*1b gives check; the king can capture the (undefended) pawn: legal.
    Pos("pawn-drop-check-capture", "7nk/7p1/9/9/9/9/9/9/4K4 b Prbgsnlp 1", 2,
        legal=["P*1b"]),
    # Seeded random playouts from the start position (captures preferred).
    Pos("random-s1-p60", random_playout(1, 60), 3),
    Pos("random-s2-p91", random_playout(2, 91), 3),
    Pos("random-s3-p140", random_playout(3, 140), 2),
]


def flip_turn(sfen: str) -> str:
    parts = sfen.split()
    parts[1] = "w" if parts[1] == "b" else "b"
    return " ".join(parts)


def material(sfen: str) -> dict[str, int]:
    board_part, _, hand = sfen.split()[:3]
    count: dict[str, int] = {}
    for ch in board_part:
        if ch.isalpha():
            count[ch.lower()] = count.get(ch.lower(), 0) + 1
    n = ""
    for ch in hand if hand != "-" else "":
        if ch.isdigit():
            n += ch
        else:
            count[ch.lower()] = count.get(ch.lower(), 0) + int(n or 1)
            n = ""
    return count


def check_position(p: Pos) -> None:
    """Assert the position is sane and shows what its name says."""
    board = cshogi.Board(p.sfen)
    for kind, n in material(p.sfen).items():
        assert n <= FULL_SET[kind], f"{p.name}: {n} pieces of kind {kind}"
    assert not cshogi.Board(flip_turn(p.sfen)).is_check(), f"{p.name}: side not to move in check"
    root = {cshogi.move_to_usi(m) for m in board.legal_moves}
    assert root, f"{p.name}: no legal moves"
    # USI drops are written in upper case for both colours.
    want = {m[0].upper() + m[1:] for m in p.legal}
    bad = {m[0].upper() + m[1:] for m in p.illegal}
    assert want <= root, f"{p.name}: missing {sorted(want - root)}"
    assert not (bad & root), f"{p.name}: unexpectedly legal {sorted(bad & root)}"
    if p.in_check is not None:
        assert board.is_check() == p.in_check, f"{p.name}: in_check is {board.is_check()}"
    if p.checkers == 2:
        king = board.king_square(board.turn)
        assert all(cshogi.move_from(m) == king and not cshogi.move_is_drop(m)
                   for m in board.legal_moves), f"{p.name}: non-king move in double check"


def perft_cshogi(board: cshogi.Board, depth: int) -> int:
    if depth == 1:
        return len(board.legal_moves)
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += perft_cshogi(board, depth - 1)
        board.pop()
    return n


def perft_pyshogi(board: shogi.Board, depth: int) -> int:
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        board.push(m)
        n += perft_pyshogi(board, depth - 1)
        board.pop()
    return n


def first_difference(sfen: str, depth: int) -> str:
    """Walk both trees to the first node whose legal-move sets differ."""
    cb, pb = cshogi.Board(sfen), shogi.Board(sfen)
    path: list[str] = []

    def walk(d: int) -> str | None:
        c = {cshogi.move_to_usi(m) for m in cb.legal_moves}
        p = {m.usi() for m in pb.legal_moves}
        if c != p:
            return (f"after [{' '.join(path)}] ({cb.sfen()}): only cshogi {sorted(c - p)}, "
                    f"only python-shogi {sorted(p - c)}")
        if d == 1:
            return None
        for mv in sorted(c):
            cb.push_usi(mv)
            pb.push_usi(mv)
            path.append(mv)
            found = walk(d - 1)
            path.pop()
            pb.pop()
            cb.pop()
            if found:
                return found
        return None

    return walk(depth) or "no move-set difference found"


def cross_check(p: Pos) -> tuple[str, int | None, str]:
    try:
        board = shogi.Board(p.sfen)
    except Exception as e:  # noqa: BLE001 - any failure means "not supported"
        return p.name, None, f"python-shogi cannot load it: {e!r}"
    try:
        return p.name, perft_pyshogi(board, p.depth), ""
    except Exception as e:  # noqa: BLE001
        return p.name, None, f"python-shogi failed: {e!r}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(REPO_ROOT / "tests" / "data" / "perft.txt"))
    ap.add_argument("--jobs", type=int, default=2, help="processes for the python-shogi check")
    ap.add_argument("--no-cross-check", action="store_true")
    args = ap.parse_args()

    names = [p.name for p in POSITIONS]
    assert len(set(names)) == len(names), "duplicate names"
    by_name = {p.name: p for p in POSITIONS}

    counts: dict[str, int] = {}
    out_of_range = []
    for p in POSITIONS:
        check_position(p)
        t = time.monotonic()
        counts[p.name] = perft_cshogi(cshogi.Board(p.sfen), p.depth)
        print(f"{p.name:28} d{p.depth} {counts[p.name]:>10}  ({time.monotonic() - t:.1f}s)",
              file=sys.stderr)
        if p.expect is not None:
            assert counts[p.name] == p.expect, f"{p.name}: {counts[p.name]} != {p.expect}"
        if not p.name.startswith("startpos") and not 10_000 <= counts[p.name] <= 10_000_000:
            out_of_range.append(p.name)
    assert not out_of_range, f"counts outside 10^4..10^7: {out_of_range}"
    for p in POSITIONS:
        if p.mirror_of:
            q = by_name[p.mirror_of]
            assert p.depth == q.depth and counts[p.name] == counts[q.name], \
                f"mirror pair {p.name}/{q.name} differs: {counts[p.name]} vs {counts[q.name]}"

    problems = []
    if not args.no_cross_check:
        print(f"cross-checking with python-shogi ({args.jobs} processes)...", file=sys.stderr)
        with multiprocessing.Pool(args.jobs) as pool:
            # Biggest first, so the pool stays busy.
            order = sorted(POSITIONS, key=lambda p: -counts[p.name])
            for name, n, err in pool.imap_unordered(cross_check, order):
                if err:
                    problems.append(f"{name}: not cross-checked: {err}")
                elif n != counts[name]:
                    p = by_name[name]
                    problems.append(f"{name}: cshogi {counts[name]} != python-shogi {n}; "
                                    + first_difference(p.sfen, p.depth))
                else:
                    print(f"  {name}: python-shogi agrees", file=sys.stderr)

    source = f"cshogi {_dist_version('cshogi')} legal_moves perft"
    lines = [
        "# Perft counts: name<TAB>sfen<TAB>depth<TAB>count<TAB>source",
        "# count = leaves of the legal-move tree `depth` plies deep (non-promotions included).",
        "# Generated by: scripts/venv && .venv/bin/python scripts/gen/perft_data.py",
        f"# Cross-checked with python-shogi {_dist_version('python-shogi')}: "
        + ("see the notes below." if problems else "every count agrees."),
        "# Positions are constructed by the script, not taken from any problem set.",
    ]
    lines += [f"# note: {msg}" for msg in problems]
    for p in POSITIONS:
        lines.append(f"{p.name}\t{p.sfen}\t{p.depth}\t{counts[p.name]}\t{source}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {len(POSITIONS)} positions to {args.out}", file=sys.stderr)
    for msg in problems:
        print("DISAGREEMENT/NOTE: " + msg, file=sys.stderr)
    return 0


def _dist_version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


if __name__ == "__main__":
    sys.exit(main())
