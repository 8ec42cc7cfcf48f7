//! The shared problem sets: where they are (`$TSUMUGI_PROBLEMS`, default `../shared/problems`)
//! and how a set file is read. A set is a TSV file whose first column is a SFEN and whose other
//! columns depend on the set (the expected length or `nomate`, tags, sources; see the sets'
//! `SOURCES.md`); a header line (`sfen\t...`), comment lines (`#`) and blank lines are not rows.
//!
//! Used by the tests (through `mod common`), and by a bench and an example through `#[path]`, so
//! it needs nothing but `std`.

use std::path::{Path, PathBuf};

/// Where the problem sets are expected: `$TSUMUGI_PROBLEMS`, or `../shared/problems` beside the
/// repository. Not checked; see [`problems_dir`].
pub fn problems_path() -> PathBuf {
    std::env::var("TSUMUGI_PROBLEMS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/problems"))
}

/// The shared problem sets (`$TSUMUGI_PROBLEMS`, default `../shared/problems`), or `None` after
/// printing a visible SKIPPED line: tests that need them never fail or pass silently without.
pub fn problems_dir() -> Option<PathBuf> {
    let dir = problems_path();
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: problem sets not found at {} (set TSUMUGI_PROBLEMS)",
            dir.display()
        );
        None
    }
}

/// The path of set `file` in the problem folder. For tests run through
/// [`super::harness::needs_sets`], which ignores them when the file is absent: here it must be
/// present, so its absence is a failure (it vanished mid-run), never a silent pass.
pub fn set_path(file: &str) -> PathBuf {
    let path = problems_path().join(file);
    assert!(path.is_file(), "{} not found", path.display());
    path
}

/// The rows of set `file` (see [`set_path`]); panics when it cannot be read.
pub fn set_rows(file: &str) -> Vec<Row> {
    let path = set_path(file);
    read_set(&path).unwrap_or_else(|| panic!("cannot read {}", path.display()))
}

/// Every set file (`*.tsv`) in `dir`, in file-name order; empty when `dir` cannot be read.
pub fn set_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    files.sort();
    files
}

/// One row of a problem set.
#[derive(Clone, Debug)]
pub struct Row {
    /// Its line number in the file, from 1 (for messages).
    pub line: usize,
    /// Its tab-separated fields, each trimmed; the first is the SFEN.
    pub fields: Vec<String>,
}

impl Row {
    /// The position (first field).
    pub fn sfen(&self) -> &str {
        self.field(0)
    }

    /// Field `i` (from 0), or `""` when the row has fewer fields.
    pub fn field(&self, i: usize) -> &str {
        self.fields.get(i).map_or("", String::as_str)
    }
}

/// The rows of the set file at `path`, in order; `None` when it cannot be read.
pub fn read_set(path: &Path) -> Option<Vec<Row>> {
    let text = std::fs::read_to_string(path).ok()?;
    let rows = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let fields: Vec<String> = l.split('\t').map(|f| f.trim().to_string()).collect();
            let first = fields[0].as_str();
            let not_a_row = first.is_empty() || first.starts_with('#') || first == "sfen";
            (!not_a_row).then_some(Row {
                line: i + 1,
                fields,
            })
        })
        .collect();
    Some(rows)
}
