"""A build with nothing changed is a no-op: the build script (which records the commit for
`tsumugi --version`) watches only git files that exist. Cargo counts a watched file that is
missing as changed, so watching `.git/packed-refs` in a clone without one reran the script and
recompiled the crate (with full LTO in a release build: about a minute) at every
`cargo build`/`cargo run`.

Checked in a fresh clone of this repository, with and without `packed-refs`, with `cargo check`
(the build script's fingerprint is the same as a build's, and a check takes seconds)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cargo_check(clone: Path, target: Path) -> str:
    """`cargo check -v --lib` in `clone`; the combined output (Cargo writes to stderr)."""
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    env.pop("TSUMUGI_COMMIT", None)
    r = subprocess.run(
        ["cargo", "check", "-v", "--lib"],
        cwd=clone, env=env, capture_output=True, text=True, timeout=900,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout + r.stderr


def assert_fresh(out: str, case: str) -> None:
    lines = [l.strip() for l in out.splitlines() if "tsumugi" in l]
    assert any(l.startswith("Fresh tsumugi") for l in lines), (case, lines)
    assert not any(l.startswith(("Dirty tsumugi", "Compiling tsumugi")) for l in lines), (
        case, lines)


def test_a_build_with_nothing_changed_rebuilds_nothing(tmp_path):
    if shutil.which("cargo") is None or shutil.which("git") is None:
        pytest.skip("cargo or git not on PATH")
    if not (ROOT / ".git").exists():
        pytest.skip(f"{ROOT} is not a git checkout")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-local", str(ROOT), str(clone)], check=True)
    git_dir = clone / ".git"
    # The repository's own target folder: the dependencies' check artifacts are there already
    # (clippy builds them), and the clone's crate has a unit of its own (its path differs).
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    packed = git_dir / "packed-refs"
    # With packed-refs (a fresh clone packs its remote refs), then without: a clone whose refs
    # are all loose files, as a clone made otherwise or a repository never packed has.
    if not packed.exists():
        subprocess.run(["git", "-C", str(clone), "pack-refs", "--all"], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", "-B", "main"], check=True)
    assert packed.exists()
    cargo_check(clone, target)
    assert_fresh(cargo_check(clone, target), "with packed-refs")
    packed.unlink()
    branch = subprocess.run(["git", "-C", str(clone), "symbolic-ref", "-q", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert (git_dir / branch).exists(), f"the branch {branch} should be a loose ref"
    cargo_check(clone, target)  # the watched packed-refs went: one rerun is right
    assert_fresh(cargo_check(clone, target), "without packed-refs")
    assert_fresh(cargo_check(clone, target), "without packed-refs, again")
