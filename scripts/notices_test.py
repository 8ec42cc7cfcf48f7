"""Tests of scripts/notices (the third-party notices of the release files) and of LICENSE.

    .venv/bin/python -m pytest -q scripts/notices_test.py

The crates a build compiles are taken, as the oracle, from `cargo tree -e normal` (cargo's
own view of the build, with its feature resolver), not from the generator's own walk of
`cargo metadata`. Needs cargo and the crates' sources (cargo downloads them when it can);
without them the tests skip with the reason.
"""

import importlib.machinery
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINUX = "x86_64-unknown-linux-gnu"
WINDOWS = "x86_64-pc-windows-gnu"
WASM = "wasm32-unknown-unknown"

MIT_BODY = """Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE."""


def words(text):
    return " ".join(text.split())


def load_notices():
    path = os.path.join(ROOT, "scripts", "notices")
    loader = importlib.machinery.SourceFileLoader("notices", path)
    spec = importlib.util.spec_from_loader("notices", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def need_cargo():
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not on PATH: the notices are generated from cargo metadata")


def run_notices(target):
    need_cargo()
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "notices"),
                        "--target", target], cwd=ROOT, capture_output=True, text=True)
    if r.returncode == 3:
        pytest.skip(f"cargo could not resolve the crates for {target} "
                    f"(offline, sources absent?): {r.stderr.strip()[-300:]}")
    assert r.returncode == 0, r.stderr
    return r.stdout


def cargo_tree(target):
    """{(name, version)} of the crates cargo compiles into tsumugi for `target`."""
    need_cargo()
    r = subprocess.run(["cargo", "tree", "--locked", "-e", "normal", "--target", target,
                        "-p", "tsumugi", "--prefix", "none", "--format", "{p}"],
                       cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cargo tree failed for {target}: {r.stderr.strip()[-300:]}")
    out = set()
    for line in r.stdout.splitlines():
        name, ver = line.split()[:2]
        if name != "tsumugi":
            out.add((name, ver.lstrip("v")))
    assert out, "cargo tree listed no crates"
    return out


def sections(text):
    """{(name, version): section text} of the notices' per-crate sections."""
    parts = re.split(r"^={78}\n(\S+) (\S+)\n={78}\n", text, flags=re.M)
    return {(parts[i], parts[i + 1]): parts[i + 2] for i in range(1, len(parts) - 1, 3)}


def listed(text):
    """{(name, version)} of the list at the top of the notices."""
    head = text.split("=" * 78, 1)[0]
    return {tuple(l.split()[:2]) for l in head.splitlines() if re.match(r"  \S+ \d", l)}


def test_license_is_the_mit_text():
    path = os.path.join(ROOT, "LICENSE")
    assert os.path.isfile(path), "LICENSE is missing"
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.splitlines()
    assert lines[0] == "MIT License"
    assert "Copyright (c) 2026 the tsumugi authors" in lines
    assert words(MIT_BODY) in words(text)
    with open(os.path.join(ROOT, "Cargo.toml"), "rb") as f:
        assert tomllib.load(f)["package"]["license"] == "MIT"


def test_linux_notices_list_every_crate_of_the_build_with_its_licence_text():
    expected = cargo_tree(LINUX)
    text = run_notices(LINUX)
    secs = sections(text)
    assert set(secs) == expected, (
        f"missing: {sorted(expected - set(secs))}; extra: {sorted(set(secs) - expected)}")
    assert listed(text) == expected
    for (name, ver), body in secs.items():
        assert re.search(r"^Licence:    \S", body, re.M), f"{name} {ver}: no licence expression"
        assert re.search(r"^Repository: \S", body, re.M), f"{name} {ver}: no repository"
        # Every section carries a licence text: a file's, or a standard text from another
        # crate; each of them has a licence's wording, not just a heading.
        blocks = re.split(r"^--- .+ ---$", body, flags=re.M)[1:]
        assert blocks, f"{name} {ver}: no licence text"
        for b in blocks:
            assert len(b.split()) > 20, f"{name} {ver}: a licence text of {len(b.split())} words"


def test_dev_dependencies_are_not_listed():
    with open(os.path.join(ROOT, "Cargo.toml"), "rb") as f:
        cargo = tomllib.load(f)
    normal = set(cargo["dependencies"])
    for t in cargo.get("target", {}).values():
        normal |= set(t.get("dependencies", {}))
    dev_only = set(cargo["dev-dependencies"]) - normal
    assert {"haitaka", "shogi_legality_lite"} <= dev_only
    names = {n for n, _ in listed(run_notices(LINUX))}
    assert not names & dev_only, f"dev-dependencies listed: {sorted(names & dev_only)}"
    assert {"clap", "serde_json", "ctrlc", "indicatif"} <= names


def test_windows_and_web_builds_list_their_own_crates():
    win = run_notices(WINDOWS)
    assert set(sections(win)) == cargo_tree(WINDOWS)
    win_names = {n for n, _ in listed(win)}
    assert {"ctrlc", "indicatif", "windows-sys"} <= win_names
    assert "nix" not in win_names
    wasm = run_notices(WASM)
    assert set(sections(wasm)) == cargo_tree(WASM)
    wasm_names = {n for n, _ in listed(wasm)}
    assert not wasm_names & {"ctrlc", "indicatif", "nix", "windows-sys", "libc"}


def fake_crate(tmp_path, name, licence, files):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "Cargo.toml").write_text("")
    for fname, text in files.items():
        (folder / fname).write_text(text)
    pid = f"registry+{name} 1.0.0"
    pkg = {"id": pid, "name": name, "version": "1.0.0", "license": licence,
           "license_file": None, "repository": f"https://example.org/{name}",
           "source": "registry", "manifest_path": str(folder / "Cargo.toml"),
           "targets": [{"kind": ["lib"]}]}
    return pkg


def fake_metadata(tmp_path, crates, dev=()):
    root = {"id": "path+tsumugi", "name": "tsumugi", "version": "0.1.0", "license": "MIT",
            "source": None, "manifest_path": str(tmp_path / "Cargo.toml"), "targets": []}
    deps = [{"pkg": c["id"], "dep_kinds": [{"kind": None, "target": None}]} for c in crates]
    deps += [{"pkg": c["id"], "dep_kinds": [{"kind": "dev", "target": None}]} for c in dev]
    nodes = [{"id": root["id"], "deps": deps}]
    nodes += [{"id": c["id"], "deps": []} for c in list(crates) + list(dev)]
    return {"packages": [root, *crates, *dev], "resolve": {"root": root["id"], "nodes": nodes}}


def test_a_crate_without_licence_file_gets_the_standard_text_from_another_crate(tmp_path):
    notices = load_notices()
    mit = "Copyright (c) 2001 Someone Else\n\n" + MIT_BODY + "\n"
    with_file = fake_crate(tmp_path, "hasfile", "MIT OR Apache-2.0", {"LICENSE-MIT": mit})
    bare = fake_crate(tmp_path, "bare", "MIT", {"README.md": "no licence here"})
    odd = fake_crate(tmp_path, "odd", "Foo-1.0", {})
    tester = fake_crate(tmp_path, "tester", "MIT", {"LICENSE": "dev only"})
    text = notices.render(fake_metadata(tmp_path, [with_file, bare, odd], dev=[tester]), LINUX)
    secs = sections(text)
    assert set(secs) == {("hasfile", "1.0.0"), ("bare", "1.0.0"), ("odd", "1.0.0")}
    assert "Someone Else" in secs[("hasfile", "1.0.0")]
    b = secs[("bare", "1.0.0")]
    assert "ships no licence file" in b
    assert "as in hasfile 1.0.0's LICENSE-MIT" in b
    assert words(MIT_BODY) in words(b)
    assert "Someone Else" not in b, "another crate's copyright line was copied"
    o = secs[("odd", "1.0.0")]
    assert "ships no licence file" in o and "has a text of Foo-1.0" in o
    assert "Permission" not in o, "a licence text was given for a licence no crate has"


def test_licence_ids_reads_old_and_spdx_expressions():
    n = load_notices()
    assert n.licence_ids("MIT/Apache-2.0") == ["MIT", "Apache-2.0"]
    assert n.licence_ids("(Apache-2.0 OR MIT) AND BSD-3-Clause") == [
        "Apache-2.0", "MIT", "BSD-3-Clause"]
    assert n.licence_ids(None) == []
