#!/usr/bin/env python3
"""Positions along a mating line: the attacker to move after N plies of it, written as a problem
set that scripts/bench/hardest.py reads, so that two searches can be compared on the parts of a
long problem (docs/bench/hardest.md, "明日香 along KomoringHeights' line").

    .venv/bin/python scripts/bench/ladder.py --json run.json --problem 明日香 --engine kh \\
        --after 600,640,680,700,720 --out /tmp/ladder/long.tsv
    TSUMUGI_PROBLEMS=/tmp/ladder .venv/bin/python scripts/bench/hardest.py --only A199 ...

The line is an engine's answer from a hardest.py `--json` file (`--json`, `--problem`,
`--engine`: tsumugi or kh), or given as `--sfen` and `--moves` (USI moves, space-separated).
It is checked with cshogi (`tsumugi_tools.mate_line`): a line that is not an attacker's mating
line (an illegal move, a move that does not check, no checkmate at the end) is an error. Each N
must be even (the attacker to move) and below the line's length. A row is
`<sfen>\\t<plies left>\\tA<plies left>` (the plies left are those of this line, an upper bound
of the position's shortest mate)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cshogi

# The modules shared with the other scripts and the engine tests (scripts/lib/tsumugi_tools).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from tsumugi_tools.mate_line import verify_mate_line  # noqa: E402


class LadderError(ValueError):
    """The line or the requested plies cannot give a ladder."""


def line_from_json(path: Path, problem: str, engine: str) -> tuple[str, list[str]]:
    """(start SFEN, USI moves) of `engine`'s answer to `problem` in a hardest.py JSON file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for p in data.get("problems", []):
        if p["problem"]["name"] != problem:
            continue
        result = p["results"].get(engine)
        if result is None:
            raise LadderError(f"{path}: no {engine} result for {problem}")
        answer = result.get("answer") or {}
        if answer.get("kind") != "mate" or not answer.get("moves"):
            raise LadderError(f"{path}: {engine} gave no mating line for {problem}")
        return p["problem"]["sfen"], list(answer["moves"])
    raise LadderError(f"{path}: no problem named {problem}")


def ladder(sfen: str, moves: list[str], after: list[int]) -> list[tuple[str, int, str]]:
    """(SFEN, plies left, name) of the position after each of `after` plies of the line, which
    must be an attacker's mating line (checked by `verify_mate_line`, the scripts' oracle)."""
    if len(moves) % 2 == 0:
        raise LadderError(f"a line of {len(moves)} plies: an attacker's mate has an odd length")
    ok, reason = verify_mate_line(sfen, moves)
    if not ok:
        raise LadderError(f"not a mating line: {reason}")
    for n in after:
        if n % 2 or n < 0 or n >= len(moves):
            raise LadderError(
                f"{n} plies: need an even number below the line's {len(moves)} (attacker to move)"
            )
    board = cshogi.Board(sfen)
    rows = {}
    for i in range(max(after, default=0) + 1):
        if i in after:
            left = len(moves) - i
            rows[i] = (board.sfen(), left, f"A{left}")
        board.push_usi(moves[i])
    return [rows[n] for n in sorted(rows)]


def write_set(rows: list[tuple[str, int, str]], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    text = "# ladder <sfen>\t<plies left>\t<name>\n"
    text += "".join(f"{s}\t{left}\t{name}\n" for s, left, name in rows)
    out.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path, help="a hardest.py --json file")
    ap.add_argument("--problem", help="the problem's name in it")
    ap.add_argument("--engine", default="kh", choices=["kh", "tsumugi"])
    ap.add_argument("--sfen", help="the start position (instead of --json)")
    ap.add_argument("--moves", help="the line, USI moves separated by spaces (with --sfen)")
    ap.add_argument("--after", required=True, help="plies, comma-separated, each even")
    ap.add_argument("--out", type=Path, required=True, help="the set to write (long.tsv)")
    args = ap.parse_args(argv)
    try:
        if args.json:
            if not args.problem:
                raise LadderError("--json needs --problem")
            sfen, moves = line_from_json(args.json, args.problem, args.engine)
        elif args.sfen and args.moves:
            sfen, moves = args.sfen, args.moves.split()
        else:
            raise LadderError("give --json and --problem, or --sfen and --moves")
        try:
            after = [int(x) for x in args.after.split(",") if x.strip()]
        except ValueError:
            raise LadderError(f"--after {args.after!r}: plies must be integers") from None
        rows = ladder(sfen, moves, after)
    except (LadderError, OSError, KeyError, json.JSONDecodeError) as e:
        print(f"ladder: {e}", file=sys.stderr)
        return 2
    write_set(rows, args.out)
    for s, left, name in rows:
        print(f"{name}\t{left} plies left\t{s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
