//! The repository speaks of the product: no text file may refer to how the work on it was
//! organised (a work session or work item numbered, the notes it was planned from, tickets), words a
//! reader outside the project cannot resolve. An upstream project's issue may be cited when the
//! line (or the line before it) names that project; those projects are listed in
//! `THIRD_PARTY`.
//!
//! And the paths the texts name under `scripts/` and `engine-tests/` (usage lines, docs, comments)
//! exist, so a moved or renamed script cannot leave a stale reference behind.

use std::fs;
use std::path::{Path, PathBuf};

/// Folders never read: build output, installed packages, VCS data, test screenshots.
const SKIP_DIRS: &[&str] = &["target", ".venv", "node_modules", ".git", "test-results"];

/// The files read: source, scripts and documentation.
const TEXT_EXTS: &[&str] = &[
    "rs", "md", "py", "mjs", "js", "html", "css", "toml", "sh", "yml", "yaml", "txt",
];

/// Upstream projects whose issues the documentation cites as sources.
const THIRD_PARTY: &[&str] = &[
    "komoringheights",
    "shtsume",
    "tsumeshogi-solver",
    "of the same repository",
];

/// Words after which a number means one of our own work items.
const COUNTED: &[&str] = &["session", "sessions", "issue", "issues", "item", "items"];

/// Phrases that only this project's history explains.
// Written with escapes, so that this file does not hold the words it looks for.
const PHRASES: &[&str] = &[
    "seed art\u{69}cle",
    "the br\u{69}ef",
    "br\u{69}ef §",
    "ticket",
    // The names of the tools of the machine the project was built on, which a reader does
    // not have: a measurement says what was run (alternating pairs, a profiler), not by what.
    "f\u{61}rm-bench",
    "f\u{61}rm-studio",
];

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The offending words of one lowercased line, if any.
fn offence(line: &str) -> Option<String> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    for (i, &(at, _)) in chars.iter().enumerate() {
        if i > 0 && is_word_char(chars[i - 1].1) {
            continue;
        }
        let rest = &line[at..];
        for word in COUNTED {
            if let Some(after) = rest.strip_prefix(word) {
                // The word, then a number (after a space, `#` or `-`); a plural is its own word.
                let after = after
                    .strip_prefix(' ')
                    .or_else(|| after.strip_prefix('-'))
                    .unwrap_or("");
                let after = after.strip_prefix('#').unwrap_or(after);
                let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
                if !digits.is_empty() {
                    return Some(format!("{word} {digits}"));
                }
            }
        }
        for phrase in PHRASES {
            if let Some(after) = rest.strip_prefix(phrase) {
                if !after.starts_with(is_word_char) || *phrase == "ticket" {
                    return Some(phrase.to_string());
                }
            }
        }
    }
    None
}

fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIP_DIRS.contains(&name.as_str()) {
                text_files(&path, out);
            }
            continue;
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        // Extension-less files under scripts/ (at any depth) and .ci/ are shell or Python
        // scripts.
        let script = ext.is_empty()
            && path
                .ancestors()
                .skip(1)
                .filter_map(|p| p.file_name())
                .any(|p| p == "scripts" || p == ".ci");
        if TEXT_EXTS.contains(&ext) || script {
            out.push(path);
        }
    }
}

#[test]
fn no_text_file_refers_to_how_the_work_was_organised() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let this_file = root.join(file!());
    let mut files = Vec::new();
    text_files(root, &mut files);
    assert!(
        files.len() > 50,
        "found only {} text files under {}",
        files.len(),
        root.display()
    );
    let mut found = Vec::new();
    for path in files {
        if path == this_file {
            continue;
        }
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let mut previous = String::new();
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if let Some(words) = offence(&lower) {
                let window = format!("{previous} {lower}");
                let upstream = THIRD_PARTY.iter().any(|p| window.contains(p));
                if !(upstream && words.starts_with("issue")) {
                    let shown = path.strip_prefix(root).unwrap_or(&path).display();
                    found.push(format!("{shown}:{}: '{words}': {}", n + 1, line.trim()));
                }
            }
            previous = lower;
        }
    }
    assert!(
        found.is_empty(),
        "{} line(s) refer to how the work was organised; say what the product does instead:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_word_check_catches_what_it_should_and_nothing_else() {
    for bad in [
        "docs/bench/threads.md, s\u{65}ssion 17): a helper",
        "s\u{65}ssions 17-24",
        "(\u{69}ssue 20, \u{69}tem 3)",
        "\u{49}ssue #13: the next round",
        "\u{69}tem 7: an undecided answer",
        "the br\u{69}ef's problem",
        "seed art\u{69}cle 003",
        "the s\u{65}ssion-15 runs",
        "timed with `f\u{61}rm-bench -n 7`",
    ] {
        assert!(offence(&bad.to_lowercase()).is_some(), "missed: {bad}");
    }
    for good in [
        "one USI session",
        "engine-tests/test_usi_session.py",
        "a session of the protocol ends with quit",
        "the tissue 3 of",
        "briefly introduced",
        "48 items",
    ] {
        assert!(
            offence(&good.to_lowercase()).is_none(),
            "false alarm: {good}"
        );
    }
}

/// The folders whose paths `every_named_script_path_exists` checks.
const CHECKED_ROOTS: &[&str] = &["scripts/", "engine-tests/"];

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-')
}

/// The paths under `CHECKED_ROOTS` that a line names, as written (`scripts/bench/run`,
/// `engine-tests/conftest.py`); not the tail of a longer path (`$root/scripts/venv`), nor a
/// pattern (`engine-tests/test_*.py`, `scripts/<name>`). A sentence's full stop is not part of
/// the path.
fn named_paths(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for root in CHECKED_ROOTS {
        for (at, _) in line.match_indices(root) {
            if line[..at].chars().next_back().is_some_and(is_path_char) {
                continue;
            }
            let rest = &line[at..];
            let end = rest.find(|c: char| !is_path_char(c)).unwrap_or(rest.len());
            if rest[end..].starts_with(['*', '<', '{']) {
                continue;
            }
            out.push(rest[..end].trim_end_matches('.').to_string());
        }
    }
    out
}

#[test]
fn every_named_script_path_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    text_files(root, &mut files);
    let mut missing = Vec::new();
    let mut seen = 0;
    for path in files {
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for named in named_paths(line) {
                seen += 1;
                if !root.join(&named).exists() {
                    let shown = path.strip_prefix(root).unwrap_or(&path).display();
                    missing.push(format!("{shown}:{}: {named}", n + 1));
                }
            }
        }
    }
    assert!(seen > 50, "found only {seen} paths under {CHECKED_ROOTS:?}");
    assert!(
        missing.is_empty(),
        "{} reference(s) to paths that do not exist (moved or renamed?):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn the_path_reader_takes_paths_as_the_texts_write_them() {
    assert_eq!(
        named_paths("run `scripts/bench/run --help`."),
        ["scripts/bench/run"]
    );
    assert_eq!(
        named_paths("(scripts/check/kikazu.py)."),
        ["scripts/check/kikazu.py"]
    );
    assert_eq!(
        named_paths("see scripts/lib/tsumugi_tools/ and engine-tests/conftest.py, then"),
        ["scripts/lib/tsumugi_tools/", "engine-tests/conftest.py"]
    );
    assert!(named_paths("py_tests=(engine-tests/test_*.py)").is_empty());
    assert!(named_paths("cd $root/scripts/venv; web/shogihome/scripts/x").is_empty());
    assert!(named_paths("scripts/<name>.py").is_empty());
}
