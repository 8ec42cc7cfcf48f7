#!/usr/bin/env python3
"""Independent check of 利かずの駒並べ placements (`tsumugi kikazu`) with python-shogi.

Reads placements as SFEN (lines `sfen <board> b - 1` as the binary prints them, or bare SFEN or
board strings; other lines are ignored) from the files named, or standard input, and checks
each with python-shogi's own attack computation: no piece (either colour, whichever way it
faces) stands on a square that a piece of either colour attacks. Stones (`X`, not SFEN) are
taken off the board and their squares must be unattacked too: in a valid placement no ray
reaches any piece, so removing the stones changes no attack (and a stone on a ray is attacked
either way).

    tsumugi kikazu --all | scripts/check/kikazu.py --pieces P18L4N4S4G4K2R2B2 --expect 3720

--pieces checks each placement holds exactly that multiset (case ignored with
--bidirectional); --expect N checks the number of distinct placements. Exit status 0 when every
check holds, 1 otherwise (each failure is named on stderr).

Also importable: `violations(board)` and `brute_force(...)` serve the engine tests.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from collections import Counter

from pathlib import Path

import shogi

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools.sfen_board import board_field  # noqa: E402


def parse_spec(spec: str, bidirectional: bool = False) -> Counter:
    """`P18L4+R2x3` -> Counter({'P': 18, 'L': 4, '+R': 2, 'x': 3}); case folded to upper when
    `bidirectional` (facing is then the search's choice). Written independently of the
    binary's parser."""
    out: Counter = Counter()
    for m in re.finditer(r"(\+?[A-Za-z])(\d*)", spec.replace(" ", "")):
        letter, n = m.group(1), int(m.group(2) or 1)
        if bidirectional:
            letter = letter.upper()
        out[letter] += n
    return out


def board_of(line: str) -> str | None:
    """The board field of a `sfen ...` line or a bare SFEN/board; None for other lines."""
    words = line.split()
    if not words:
        return None
    if words[0] == "sfen":
        words = words[1:]
    if not words or words[0].count("/") != 8:
        return None
    return words[0]


def cells(board: str) -> dict[tuple[int, int], str]:
    """{(file 1..9, rank 1..9): piece letters} of a board field (letters as written)."""
    out = {}
    for r, row in enumerate(board.split("/"), start=1):
        f = 9
        for tok in re.findall(r"\d|\+?[A-Za-z]", row):
            if tok.isdigit():
                f -= int(tok)
            else:
                out[(f, r)] = tok
                f -= 1
        if f != 0:
            raise ValueError(f"rank {r} of {board!r} is not 9 files long")
    return out


def violations(board: str) -> list[str]:
    """The squares (USI names) of pieces or stones standing on an attacked square, by
    python-shogi's attack tables."""
    cs = cells(board)
    stones = {sq for sq, p in cs.items() if p.upper() == "X"}
    real = {sq: p for sq, p in cs.items() if sq not in stones}
    b = shogi.Board(board_field(real) + " b - 1")
    bad = []
    for (f, r) in cs:
        # python-shogi squares: 0 is 9a, files 9..1 left to right, ranks a..i top to bottom.
        sq = (r - 1) * 9 + (9 - f)
        if b.is_attacked_by(shogi.BLACK, sq) or b.is_attacked_by(shogi.WHITE, sq):
            bad.append(f"{f}{'abcdefghi'[r - 1]}")
    return bad


def multiset(board: str, bidirectional: bool) -> Counter:
    c: Counter = Counter()
    for p in cells(board).values():
        c[p.upper() if bidirectional else p] += 1
    return c


def brute_force(spec: str, files: int, ranks: int, bidirectional: bool) -> set[str]:
    """Every valid placement of `spec` on the files 1..`files`, ranks 1..`ranks` corner, as
    board fields, by trying every assignment (identical pieces as combinations) and asking
    python-shogi. Only for small boards and sets. With `bidirectional`, pieces whose attacks
    do not depend on facing (K, R, B, +R, +B, X) are written upper case, as the binary does."""
    squares = [(f, r) for f in range(1, files + 1) for r in range(1, ranks + 1)]
    kinds = sorted(parse_spec(spec, bidirectional).items())
    symmetric = {"K", "R", "B", "+R", "+B", "X"}
    found: set[str] = set()

    def rec(i: int, free: list, cs: dict):
        if i == len(kinds):
            board = board_field(cs)
            if not violations(board):
                found.add(board)
            return
        letter, n = kinds[i]
        for chosen in itertools.combinations(free, n):
            rest = [s for s in free if s not in chosen]
            if bidirectional and letter.upper() not in symmetric:
                faces = (letter, letter.lower())
                for flips in itertools.product([0, 1], repeat=n):
                    for sq, fl in zip(chosen, flips):
                        cs[sq] = faces[fl]
                    rec(i + 1, rest, cs)
            else:
                for sq in chosen:
                    cs[sq] = letter
                rec(i + 1, rest, cs)
            for sq in chosen:
                del cs[sq]

    rec(0, squares, {})
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="files of placements (default: standard input)")
    ap.add_argument("--pieces", help="the piece set each placement must hold")
    ap.add_argument("--bidirectional", action="store_true",
                    help="facing free: compare --pieces ignoring case")
    ap.add_argument("--expect", type=int, help="the number of distinct placements expected")
    args = ap.parse_args()
    lines = []
    if args.files:
        for name in args.files:
            with open(name, encoding="utf-8") as fh:
                lines += fh.read().splitlines()
    else:
        lines = sys.stdin.read().splitlines()
    want = parse_spec(args.pieces, args.bidirectional) if args.pieces else None
    boards = [b for b in map(board_of, lines) if b]
    ok = True
    for board in boards:
        bad = violations(board)
        if bad:
            ok = False
            print(f"attacked: {' '.join(bad)} in {board}", file=sys.stderr)
        if want is not None and multiset(board, args.bidirectional) != want:
            ok = False
            print(f"wrong pieces: {board}", file=sys.stderr)
    distinct = len(set(boards))
    if distinct != len(boards):
        ok = False
        print(f"{len(boards) - distinct} placements repeated", file=sys.stderr)
    if args.expect is not None and distinct != args.expect:
        ok = False
        print(f"{distinct} distinct placements, expected {args.expect}", file=sys.stderr)
    print(f"checked {len(boards)} placements ({distinct} distinct): "
          f"{'all valid' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
