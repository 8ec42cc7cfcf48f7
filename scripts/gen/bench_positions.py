#!/usr/bin/env python3
"""Generate the positions of `tsumugi bench` (src/cli/bench.rs, `POSITIONS`).

Nothing here is copied from a problem set: every position is made up by this script, from a
seeded random generator, in one of two ways:

- `playout`: random games from the start position (captures, promotions and checks weighted up
  so the kings get exposed), stopped after 40..160 plies; the final position is a candidate when
  the side to move has a check (attacker = side to move, both kings on the board, sometimes the
  attacker is itself in check).
- `tsume`: classic problem form: the defender king (White) near its back rank, 0..4 defender
  pieces beside it, 1..3 attacker pieces on the board, 1..3 in the attacker's hand, the defender
  holding every other piece; no attacker king.

Each candidate is solved with `tsumugi solve --nodes <budget>` (shortest mate); the answer and the
node count decide its bucket (mate length 1..15+, or no mate). `select` then picks a spread of
buckets and prints the Rust array, sorted by node count (increasing difficulty).

Usage:
  scripts/gen/bench_positions.py generate --out /tmp/cands.tsv [--count 4000] [--seed 1] [--budget 400000]
  scripts/gen/bench_positions.py select /tmp/cands.tsv [--max-nodes 300000]   # prints the Rust array

The current set: `generate --count 4000 --seed 1 --budget 400000` (3428 candidates: 394 mates,
2947 no mates, 88 undecided), then `select --max-nodes 300000` (mates whose proof hit the budget
are left out: their line need not be the shortest).

The answers printed in the array are what the engine found when the array was made; the bench
prints its own answers each run (they are not asserted, the search is allowed to change).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

import cshogi

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools import REPO_ROOT as ROOT  # noqa: E402
from tsumugi_tools.sfen_board import board_field  # noqa: E402

BIN = ROOT / "target" / "release" / "tsumugi"

# Piece counts of a full set per unpromoted kind (SFEN letters).
FULL = {"r": 2, "b": 2, "g": 4, "s": 4, "n": 4, "l": 4, "p": 18}
HAND_ORDER = "rbgsnlp"


def solve(sfen: str, budget: int) -> tuple[str, int, int] | None:
    """(answer, length, nodes): answer is 'mate', 'nomate' or 'unknown'. None on a bad SFEN."""
    r = subprocess.run(
        [str(BIN), "solve", "--hash-mb", "32", "--nodes", str(budget), sfen],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if r.returncode != 0:
        return None
    first = r.stdout.strip().split()
    nodes = 0
    for line in r.stderr.splitlines():
        if line.startswith("nodes "):
            nodes = int(line.split()[1])
    if first[1] == "nomate":
        return "nomate", 0, nodes
    if first[1] == "timeout":
        return "unknown", 0, nodes
    return "mate", len(first) - 1, nodes


def playout(rng: random.Random) -> str | None:
    b = cshogi.Board()
    plies = rng.randint(40, 160)
    for _ in range(plies):
        moves = list(b.legal_moves)
        if not moves or b.is_game_over():
            return None
        weights = []
        for m in moves:
            w = 1.0
            if cshogi.move_cap(m):
                w += 4.0
            if cshogi.move_is_promotion(m):
                w += 2.0
            weights.append(w)
        b.push(rng.choices(moves, weights)[0])
    if b.is_game_over():
        return None
    return b.sfen()


def tsume(rng: random.Random) -> str:
    board: dict[tuple[int, int], str] = {}  # (file 1..9, rank 1..9) -> SFEN piece
    used = {k: 0 for k in FULL}
    kf, kr = rng.randint(1, 9), rng.randint(1, 3)
    board[(kf, kr)] = "k"

    def place(letter: str, near: int, ranks: tuple[int, int], white: bool) -> None:
        kind = letter.lower()
        if used[kind] >= FULL[kind]:
            return
        for _ in range(20):
            f = min(9, max(1, kf + rng.randint(-near, near)))
            r = rng.randint(*ranks)
            if (f, r) in board:
                continue
            # Dead squares: pawn/lance on the last rank, knight on the last two (for its side).
            last = 9 if white else 1
            if kind in "pl" and r == last:
                continue
            if kind == "n" and (r >= 8 if white else r <= 2):
                continue
            if kind == "p" and any(
                p == ("p" if white else "P") and ff == f for (ff, _), p in board.items()
            ):
                continue
            promoted = kind in "rbsnlp" and rng.random() < (0.15 if white else 0.3)
            if promoted and kind in "sln" and rng.random() < 0.5:
                promoted = False
            sym = kind if white else kind.upper()
            board[(f, r)] = ("+" if promoted else "") + sym
            used[kind] += 1
            return

    for _ in range(rng.randint(0, 4)):
        place(rng.choice("gsnlpbr"), 2, (1, 4), True)
    for _ in range(rng.randint(1, 3)):
        place(rng.choice("rbgsnlp"), 3, (1, 6), False)
    hand_b = {}
    for _ in range(rng.randint(1, 3)):
        k = rng.choice("rbggssnlp")
        if used[k] < FULL[k]:
            used[k] += 1
            hand_b[k] = hand_b.get(k, 0) + 1
    hand_w = {k: FULL[k] - used[k] for k in FULL}

    def hand_str(h: dict[str, int], upper: bool) -> str:
        s = ""
        for k in HAND_ORDER:
            n = h.get(k, 0)
            if n:
                s += (str(n) if n > 1 else "") + (k.upper() if upper else k)
        return s

    hand = hand_str(hand_b, True) + hand_str(hand_w, False)
    return f"{board_field(board)} b {hand or '-'} 1"


def generate(args) -> None:
    rng = random.Random(args.seed)
    seen = set()
    with open(args.out, "a") as out:
        for i in range(args.count):
            kind = "tsume" if i % 2 else "playout"
            sfen = tsume(rng) if kind == "tsume" else playout(rng)
            if sfen is None or sfen in seen:
                continue
            seen.add(sfen)
            b = cshogi.Board(sfen)
            if not any(True for _ in b.legal_moves):
                continue
            r = solve(sfen, args.budget)
            if r is None:
                continue
            ans, length, nodes = r
            in_check = int(b.is_check())
            out.write(f"{sfen}\t{kind}\t{ans}\t{length}\t{nodes}\t{in_check}\n")
            out.flush()
            if i % 100 == 0:
                print(f"{i}/{args.count}", file=sys.stderr)


# How many positions to take per bucket: (answer, length range) -> count.
BUCKETS = [
    ("mate", (1, 1), 3),
    ("mate", (3, 3), 3),
    ("mate", (5, 5), 4),
    ("mate", (7, 7), 4),
    ("mate", (9, 9), 4),
    ("mate", (11, 11), 3),
    ("mate", (13, 13), 2),
    ("mate", (15, 19), 2),
    ("mate", (21, 99), 1),
    ("nomate", (0, 0), 4),
]
# Least node count per answer kind: most random positions are trivial no-mates; keep real work.
MIN_NODES = {"mate": 1, "nomate": 2000}


def select(args) -> None:
    rows = []
    for line in open(args.cands):
        sfen, kind, ans, length, nodes, in_check = line.rstrip("\n").split("\t")
        rows.append((sfen, kind, ans, int(length), int(nodes), int(in_check)))
    rng = random.Random(args.seed)
    picked = []
    for ans, (lo, hi), n in BUCKETS:
        pool = [
            r for r in rows
            if r[2] == ans and lo <= r[3] <= hi and MIN_NODES[ans] <= r[4] <= args.max_nodes
        ]
        # Prefer a mix of both generators and, within a bucket, a spread of node counts.
        pool.sort(key=lambda r: r[4])
        if len(pool) > n:
            # One from each of n equal slices of the pool sorted by node count.
            chunks = [pool[len(pool) * j // n : len(pool) * (j + 1) // n] for j in range(n)]
            chosen = [rng.choice(c) for c in chunks]
        else:
            chosen = pool
        picked += chosen
    # One or two where the attacker starts in check, if any were made.
    in_check = [r for r in rows if r[5] and r[2] == "mate" and r[4] <= args.max_nodes and r not in picked]
    picked += in_check[:2]
    picked.sort(key=lambda r: r[4])
    total = sum(r[4] for r in picked)
    print(f"// {len(picked)} positions, {total} nodes when generated", file=sys.stderr)
    for sfen, kind, ans, length, nodes, ic in picked:
        note = f"{ans} {length}" if ans == "mate" else ans
        extra = ", attacker in check" if ic else ""
        print(f"    // {kind}: {note}{extra} ({nodes} node{'' if nodes == 1 else 's'})")
        print(f'    "{sfen}",')


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--out", required=True)
    g.add_argument("--count", type=int, default=4000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--budget", type=int, default=400_000)
    s = sub.add_parser("select")
    s.add_argument("cands")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--max-nodes", type=int, default=250_000)
    args = ap.parse_args()
    generate(args) if args.cmd == "generate" else select(args)


if __name__ == "__main__":
    main()
