"""Tests of the texts scripts/release ships (scripts/release-files/) and of its archive lists.

    .venv/bin/python -m pytest -q scripts/release_files_test.py

The engine's options are read from src/usi/options.rs (the `option name` lines it declares)
and, when a built binary is at hand (TSUMUGI_BIN, else target/release/tsumugi), from its
reply to `usi`; without one that test skips with the path it looked at.
"""

import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = os.path.join(ROOT, "scripts", "release-files")
README_EN = os.path.join(FILES, "README.txt")
README_JA = os.path.join(FILES, "README-ja.txt")
README_LINUX = os.path.join(FILES, "README-linux.md")
READMES = [README_EN, README_JA, README_LINUX]
GUI_ADDRESSES = [
    "http://shogigui.siganus.com/",
    "http://shogidokoro.starfree.jp/",
    "https://sunfish-shogi.github.io/shogihome/",
]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def release_script():
    return read(os.path.join(ROOT, "scripts", "release"))


def archive_list(name):
    """The files scripts/release requires in an archive (its `<name>_files=(...)` line)."""
    m = re.search(rf"^{name}_files=\(([^)]*)\)$", release_script(), re.M)
    assert m, f"scripts/release has no {name}_files=(...) line"
    return m.group(1).split()


def declared_in_source():
    src = read(os.path.join(ROOT, "src", "usi", "options.rs"))
    decl = src[src.index("pub fn declarations()"):src.index("pub fn set(")]
    names = re.findall(r'"option name (\w+) type', decl)
    assert len(names) >= 8 and "MaxPlies" in names, names
    return names


@pytest.mark.parametrize("path", READMES, ids=os.path.basename)
def test_every_declared_option_is_in_the_readme(path):
    text = read(path)
    missing = [n for n in declared_in_source() if not re.search(rf"\b{n}\b", text)]
    assert not missing, f"{os.path.basename(path)} does not name {missing}"


def test_the_binary_declares_what_the_source_declares():
    binary = os.environ.get("TSUMUGI_BIN") or os.path.join(ROOT, "target", "release", "tsumugi")
    if not os.path.isfile(binary):
        pytest.skip(f"no built binary at {binary} (cargo build --release, or set TSUMUGI_BIN)")
    r = subprocess.run([binary], input="usi\nquit\n", capture_output=True, text=True,
                       timeout=30)
    names = re.findall(r"^option name (\S+) type", r.stdout, re.M)
    assert "usiok" in r.stdout, r.stdout
    assert names == declared_in_source()
    for path in READMES:
        text = read(path)
        assert all(re.search(rf"\b{n}\b", text) for n in names), os.path.basename(path)


@pytest.mark.parametrize("path", READMES, ids=os.path.basename)
def test_readme_has_the_report_address_and_the_gui_addresses(path):
    text = read(path)
    assert "@ISSUES@" in text
    assert "@VERSION@" in text
    for address in GUI_ADDRESSES:
        assert address in text, f"{os.path.basename(path)} lacks {address}"
    assert "bug tracker of the project" not in text


@pytest.mark.parametrize("path", READMES, ids=os.path.basename)
def test_readme_names_the_licence_files(path):
    text = read(path)
    licence = "LICENSE" if path == README_LINUX else "LICENSE.txt"
    assert licence in text and "THIRD-PARTY-NOTICES.txt" in text


def test_linux_readme_names_only_files_of_the_tarball_and_no_cargo():
    text = read(README_LINUX)
    shipped = set(archive_list("linux"))
    assert not re.search(r"cargo", text, re.I), "the Linux README mentions cargo"
    # Markdown links: addresses only, or files of the tarball.
    for target in re.findall(r"\]\(([^)]+)\)", text):
        assert target.startswith(("http://", "https://")) or target in shipped, target
    without_urls = re.sub(r"https?://\S+", " ", text)
    # File names with an extension, and paths with a slash (./tsumugi is the binary).
    for name in re.findall(r"[\w.-]+\.(?:md|txt|rs|toml|py|sh|json|html|js|wasm)\b",
                           without_urls):
        assert name in shipped, f"the Linux README names {name}, not in the tarball"
    # SFEN boards (nine ranks joined by slashes) and fractions (3/4) are not paths.
    without_sfen = re.sub(r"[1-9+A-Za-z]+(?:/[1-9+A-Za-z]+){8}|\b\d+/\d+\b", " ", without_urls)
    for path in re.findall(r"[\w.~-]*/[\w./-]+", without_sfen):
        assert path in ("./tsumugi",), f"the Linux README names the path {path}"
    for name in shipped:
        assert name in text, f"the Linux README does not describe {name}"


def test_archive_lists_hold_licence_notices_and_readmes():
    assert {"tsumugi", "README.md", "LICENSE", "THIRD-PARTY-NOTICES.txt"} <= set(
        archive_list("linux"))
    assert {"tsumugi.exe", "README.txt", "README-ja.txt", "LICENSE.txt",
            "THIRD-PARTY-NOTICES.txt"} <= set(archive_list("windows"))
    for name in ("web", "shogihome"):
        assert {"LICENSE", "THIRD-PARTY-NOTICES.txt"} <= set(archive_list(name))


def test_both_windows_readmes_get_a_byte_order_mark():
    # Both hold Japanese (README.txt the GUIs' menu names); old Notepad reads a BOM-less
    # file as Shift_JIS.
    for path in (README_EN, README_JA):
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", read(path)), path
    calls = re.findall(r"^\s*to_windows_text (\S+) (\S+)(.*)$", release_script(), re.M)
    readmes = {dest: rest.strip() for _, dest, rest in calls if "README" in dest}
    assert set(readmes) == {'"$wdir/README.txt"', '"$wdir/README-ja.txt"'}, readmes
    assert all(rest == "bom" for rest in readmes.values()), readmes


def test_docs_name_what_the_archives_hold():
    release_md = read(os.path.join(ROOT, "docs", "release.md"))
    readme = read(os.path.join(ROOT, "README.md"))
    windows = readme[readme.index("### Windows"):]
    windows = windows[:windows.index("\n#", 1)]
    for name in archive_list("windows"):
        assert name in release_md, f"docs/release.md does not name {name}"
        assert name in windows, f"README's Windows section does not name {name}"
    for name in archive_list("linux"):
        assert name in release_md, f"docs/release.md does not name {name}"
    assert "--allow-no-address" in release_md and "repository" in release_md
