"""The board field of an SFEN, written from a dict of pieces: the one writer the Python scripts
share (problem generators and the 利かずの駒並べ checker)."""

from __future__ import annotations


def board_field(cells: dict[tuple[int, int], str]) -> str:
    """`cells` maps (file 1-9, rank 1-9) to a piece letter as SFEN writes it (`+P`, `k`, ...;
    the kikazu checker's stone `X` too); empty squares are absent. Ranks from a to i, files
    from 9 to 1, runs of empty squares as digits."""
    rows = []
    for r in range(1, 10):
        row, empty = "", 0
        for f in range(9, 0, -1):
            p = cells.get((f, r))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)
