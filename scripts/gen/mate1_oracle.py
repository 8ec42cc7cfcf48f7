#!/usr/bin/env python3
"""Generate tests/data/mate1_oracle.tsv: mate-in-1 verdicts from cshogi for tests/mate1_oracle.rs.

Usage (from the repo root):
    scripts/venv && .venv/bin/python scripts/gen/mate1_oracle.py [--count 12000] [--seed 1]
        [--out tests/data/mate1_oracle.tsv]
    # Problem-set positions (never committed: written under target/ by default):
    .venv/bin/python scripts/gen/mate1_oracle.py --problems ../shared/problems \
        [--out target/mate1_oracle_problems.tsv]

Each output line: `<sfen>\t<cshogi>\t<exhaustive>\t<mating moves>` where
  cshogi      1 if cshogi's `Board.mate_move_in_1ply()` returns a move, 0 if not, `-` when the
              side to move is in check (that function assumes it is not; not called then);
  exhaustive  1 if some legal move of the side to move gives check and leaves the opponent no
              legal move, by cshogi's full legal move list (`legal_moves` includes the optional
              non-promotions and excludes pawn-drop mate), else 0;
  mating      every such move, USI, sorted, comma-separated (`-` if none).
The exhaustive search is the ground truth; `mate_move_in_1ply` is known to miss some distant
checks and interpositions (problems/SOURCES.md), and the line records what it said
so that the test can count its misses.

Generated positions: seeded random set-ups (a defender king, a few pieces of both sides around
it, an attacker with or without a king, the rest of a full set split between the hands; both
colours attack) followed by a random walk biased towards checks and drops; every position on
the walk where the side to move could be asked for a mate (the side *not* to move has a king)
is a candidate. Candidates are deduplicated and sampled so that about 30% have a mate in 1.
Every position is constructed here: none comes from ../shared/problems.

With --problems DIR: every position of DIR/*.tsv (first column; header, comment lines and SFENs
that cshogi or our rules reject skipped) and positions reached by a few random checks and
answers from each, with the same columns; for local runs only (the sets may not be copied into
the repository).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import random
import sys
import time
from pathlib import Path

import cshogi

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT  # noqa: E402
from tsumugi_tools.problems import read_set  # noqa: E402
from tsumugi_tools.sfen_board import board_field  # noqa: E402

# Full set per kind, excluding kings.
FULL_SET = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
HAND_ORDER = "RBGSNLP"


def mate_moves(board: cshogi.Board) -> list[str]:
    """Every legal move that gives check and leaves the opponent without a legal move."""
    out = []
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_check() and not any(True for _ in board.legal_moves):
            out.append(cshogi.move_to_usi(m))
        board.pop()
    return sorted(out)


def describe(board: cshogi.Board) -> tuple[str, str, str, list[str]]:
    """(sfen without move number, cshogi verdict, exhaustive verdict, mating moves)."""
    sfen = " ".join(board.sfen().split()[:3]) + " 1"
    if board.is_check():
        c = "-"
    else:
        c = "1" if board.mate_move_in_1ply() != 0 else "0"
    mates = mate_moves(board)
    return sfen, c, "1" if mates else "0", mates


def has_king(board: cshogi.Board, color: int) -> bool:
    # cshogi: king_square returns 81 (or another off-board value) when there is none; look at
    # the SFEN instead, which does not depend on that convention.
    letter = "K" if color == cshogi.BLACK else "k"
    return letter in board.sfen().split()[0]


def askable(board: cshogi.Board) -> bool:
    """The side to move may be asked for a mate: the side not to move has a king (our SFEN
    validation requires it; after legal play it is never in check)."""
    return has_king(board, cshogi.WHITE if board.turn == cshogi.BLACK else cshogi.BLACK)


# ---- random set-ups ----------------------------------------------------------------------------


def dead(kind: str, promoted: bool, black: bool, rank: int) -> bool:
    """Whether an unpromoted pawn/lance/knight on `rank` (1..9) could never move."""
    if promoted:
        return False
    rel = rank if black else 10 - rank
    return (kind in "PL" and rel == 1) or (kind == "N" and rel <= 2)


def random_setup(rng: random.Random) -> str | None:
    """A random mate-problem-like position; None if the draw was invalid."""
    board: dict[tuple[int, int], str] = {}  # (file, rank) -> SFEN piece text
    attacker_black = rng.random() < 0.6
    # Defender king, mostly near its own back ranks and edges.
    kf = rng.choice([1, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 9])
    kr_rel = rng.choice([1, 1, 1, 2, 2, 3, 4, 5])  # from the defender's side
    # The defender is White when the attacker is Black: White's back rank is rank 1.
    kr = kr_rel if attacker_black else 10 - kr_rel
    board[(kf, kr)] = "k" if attacker_black else "K"
    pool = dict(FULL_SET)
    attacker_king = rng.random() < 0.5

    def take(kind: str) -> bool:
        if pool[kind] == 0:
            return False
        pool[kind] -= 1
        return True

    def place(kind: str, mine: bool, near: int) -> None:
        for _ in range(20):
            if near:
                f = kf + rng.randint(-near, near)
                r = kr + rng.randint(-near, near)
            else:
                f, r = rng.randint(1, 9), rng.randint(1, 9)
            if not (1 <= f <= 9 and 1 <= r <= 9) or (f, r) in board:
                continue
            black = attacker_black == mine
            promoted = kind in "PLNSBR" and rng.random() < (0.35 if mine else 0.1)
            if dead(kind, promoted, black, r):
                continue
            if kind == "P" and not promoted:
                pawn = "P" if black else "p"
                if any(board.get((f, rr)) == pawn for rr in range(1, 10)):
                    continue
            text = ("+" if promoted else "") + (kind if black else kind.lower())
            board[(f, r)] = text
            return
        pool[kind] += 1  # not placed: back to the pool

    # Defender's guards around its king, attacker's pieces nearby.
    for _ in range(rng.randint(0, 5)):
        k = rng.choice("GGSSPPPLNB")
        if take(k):
            place(k, False, 1 if rng.random() < 0.7 else 2)
    for _ in range(rng.randint(0, 4)):
        k = rng.choice("RBGSNLPP+")
        if k == "+":
            k = rng.choice("RB")
        if take(k):
            place(k, True, rng.choice([1, 2, 2, 3, 3, 4, 0]))
    if attacker_king:
        for _ in range(50):
            f, r = rng.randint(1, 9), rng.randint(1, 9)
            if (f, r) not in board and max(abs(f - kf), abs(r - kr)) >= 3:
                board[(f, r)] = "K" if attacker_black else "k"
                break
        else:
            return None
    # Split the rest between the hands: the attacker gets a random share (sometimes little, so
    # that the defender can interpose).
    share = rng.choice([0.15, 0.3, 0.5, 0.7, 1.0])
    hands = {True: {k: 0 for k in FULL_SET}, False: {k: 0 for k in FULL_SET}}  # attacker?
    for k, n in pool.items():
        for _ in range(n):
            hands[rng.random() < share * (0.4 if k == "P" else 1.0)][k] += 1
    black_hand = hands[attacker_black]
    white_hand = hands[not attacker_black]
    hand = "".join((str(black_hand[k]) if black_hand[k] > 1 else "") + k for k in HAND_ORDER if black_hand[k])
    hand += "".join(
        (str(white_hand[k]) if white_hand[k] > 1 else "") + k.lower() for k in HAND_ORDER if white_hand[k]
    )
    side = "b" if attacker_black else "w"
    sfen = f"{board_field(board)} {side} {hand or '-'} 1"
    b = cshogi.Board(sfen)
    # The defender (not to move) must not be in check.
    flipped = cshogi.Board(f"{board_field(board)} {'w' if attacker_black else 'b'} {hand or '-'} 1")
    if flipped.is_check():
        return None
    # The attacker may be in check (it must then answer with a check) only if it has a king.
    if b.is_check() and not attacker_king:
        return None
    if not any(True for _ in b.legal_moves):
        return None
    return sfen


FIXED_STARTS = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 2R2B2G2S2N2L9P2g2s2n2l9p 1",
    "8k/9/9/9/9/9/9/9/K8 w RB2G2S2N2L9Prb2g2s2n2l9p 1",
]


def pick(board: cshogi.Board, rng: random.Random, check_pct: float, drop_pct: float) -> int:
    moves = list(board.legal_moves)
    if rng.random() < check_pct:
        checks = []
        for m in moves:
            board.push(m)
            if board.is_check():
                checks.append(m)
            board.pop()
        if checks:
            return rng.choice(checks)
    if rng.random() < drop_pct:
        drops = [m for m in moves if cshogi.move_is_drop(m)]
        if drops:
            return rng.choice(drops)
    return rng.choice(moves)


def generate(count: int, seed: int, mate_share: float) -> list[tuple[str, str, str, list[str]]]:
    rng = random.Random(seed)
    want_mate = round(count * mate_share)
    want_none = count - want_mate
    mate, none = {}, {}
    walks = 0
    t0 = time.time()
    while len(mate) < want_mate or len(none) < want_none:
        walks += 1
        if rng.random() < 0.03:
            sfen = rng.choice(FIXED_STARTS)
            plies = rng.randint(10, 80)
        else:
            sfen = random_setup(rng)
            if sfen is None:
                continue
            plies = rng.randint(1, 12)
        board = cshogi.Board(sfen)
        for _ in range(plies):
            if askable(board):
                d = describe(board)
                key = d[0]
                if d[2] == "1":
                    if len(mate) < want_mate and key not in none:
                        mate.setdefault(key, d)
                elif len(none) < want_none and key not in mate and rng.random() < 0.5:
                    none.setdefault(key, d)
            if board.is_game_over():
                break
            board.push(pick(board, rng, 0.7, 0.4))
        if walks % 2000 == 0:
            print(
                f"  {walks} walks: {len(mate)} with mate, {len(none)} without, {time.time() - t0:.0f}s",
                file=sys.stderr,
            )
    rows = list(mate.values()) + list(none.values())
    rng.shuffle(rows)
    return rows


def problem_rows(folder: Path, seed: int, walks: int) -> tuple[list[tuple[str, str, str, list[str]]], int]:
    rng = random.Random(seed)
    rows: dict[str, tuple[str, str, str, list[str]]] = {}
    skipped = 0
    for f in sorted(folder.glob("*.tsv")):
        for row in read_set(f):
            sfen = row.sfen
            try:
                board = cshogi.Board(sfen)
            except Exception:
                skipped += 1
                continue
            if len(sfen.split("/")) != 9 or not askable(board):
                skipped += 1  # malformed, or a side not to move without king (we reject those)
                continue
            d = describe(board)
            rows.setdefault(d[0], d)
            for _ in range(walks):
                b = cshogi.Board(sfen)
                for _ in range(rng.randint(1, 4)):
                    if b.is_game_over():
                        break
                    b.push(pick(b, rng, 0.9, 0.2))
                    if askable(b):
                        d = describe(b)
                        rows.setdefault(d[0], d)
    return list(rows.values()), skipped


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mate-share", type=float, default=0.3)
    ap.add_argument("--problems", type=Path, help="problem-set folder (output not for the repo)")
    ap.add_argument("--walks", type=int, default=3, help="random walks per problem position")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    t0 = time.time()
    if a.problems:
        rows, skipped = problem_rows(a.problems, a.seed, a.walks)
        out = a.out or REPO_ROOT / "target" / "mate1_oracle_problems.tsv"
        header = f"# problem-set positions from {a.problems} (+{a.walks} walks each); NOT for the repository"
        print(f"skipped {skipped} problem SFENs", file=sys.stderr)
    else:
        rows = generate(a.count, a.seed, a.mate_share)
        out = a.out or REPO_ROOT / "tests" / "data" / "mate1_oracle.tsv"
        header = f"# scripts/gen/mate1_oracle.py --count {a.count} --seed {a.seed} (cshogi {importlib.metadata.version('cshogi')})"
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as fh:
        fh.write(header + "\n")
        fh.write("# sfen\tcshogi_mate_move_in_1ply\texhaustive\tmating_moves\n")
        for sfen, c, e, mates in rows:
            fh.write(f"{sfen}\t{c}\t{e}\t{','.join(mates) or '-'}\n")
    n_mate = sum(r[2] == "1" for r in rows)
    misses = sum(r[1] == "0" and r[2] == "1" for r in rows)
    false_pos = sum(r[1] == "1" and r[2] == "0" for r in rows)
    in_check = sum(r[1] == "-" for r in rows)
    print(
        f"wrote {len(rows)} positions to {out}: {n_mate} with mate in 1, {in_check} in check; "
        f"cshogi mate_move_in_1ply misses {misses}, false positives {false_pos}; "
        f"{time.time() - t0:.0f}s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
