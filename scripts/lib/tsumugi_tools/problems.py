"""The problem sets: where they are ($TSUMUGI_PROBLEMS, else ../shared/problems beside the
repository) and their rows (`<sfen>\\t<plies|nomate>[\\t<name>\\t...]`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from . import REPO_ROOT

DEFAULT_PROBLEMS = REPO_ROOT.parent / "shared" / "problems"


def problems_dir(arg: str | os.PathLike | None = None) -> Path:
    """The problem-set folder: `arg` (a command line's --problems, relative to the current
    folder), else $TSUMUGI_PROBLEMS (relative to the repository root), else
    ../shared/problems beside the repository. The folder may be missing: callers say so."""
    if arg:
        return Path(arg).resolve()
    p = Path(os.environ.get("TSUMUGI_PROBLEMS") or DEFAULT_PROBLEMS)
    return p if p.is_absolute() else REPO_ROOT / p


def set_path(name: str | os.PathLike, folder: str | os.PathLike | None = None) -> Path:
    """A set's file: `name` in the problem-set folder (`folder`, else `problems_dir()`); an
    absolute `name` stands for itself."""
    p = Path(name)
    return p if p.is_absolute() else problems_dir(folder) / p


@dataclass(frozen=True)
class Row:
    """One problem of a set."""

    line_no: int  # 1-based line number in the file
    sfen: str
    expected: str  # the second column as written: a length in plies or `nomate` ('' if none)
    cols: tuple[str, ...]  # every column of the line

    @property
    def name(self) -> str:
        """The third column (a name in famous.tsv and long.tsv, tags elsewhere), or ''."""
        return self.cols[2] if len(self.cols) > 2 else ""

    @property
    def plies(self) -> int | None:
        """The expected length, None for `nomate` (or anything that is not a number)."""
        return int(self.expected) if self.expected.isdigit() else None


def read_set(path: str | os.PathLike) -> list[Row]:
    """The rows of a set file; blank lines, `#` comments and a `sfen\\t...` header skipped."""
    rows = []
    text = Path(path).read_text(encoding="utf-8")
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#") or line.startswith("sfen\t"):
            continue
        cols = tuple(c.strip() for c in line.split("\t"))
        rows.append(Row(n, cols[0], cols[1] if len(cols) > 1 else "", cols))
    return rows


def matching(rows: list[Row], only) -> list[Row]:
    """The rows whose name contains one of the strings `only` (every row when it is empty)."""
    return [r for r in rows if not only or any(o in r.name for o in only)]
