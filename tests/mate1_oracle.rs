//! Mate-in-1 (`Position::mate_in_one`) against cshogi.
//!
//! `tests/data/mate1_oracle.tsv` is written by `scripts/gen/mate1_oracle.py` (seeded; positions of
//! its own making, none from the problem sets): per position, whether cshogi's
//! `Board.mate_move_in_1ply()` finds a mate, whether an exhaustive search with cshogi's full
//! legal move list finds one (every legal move that checks and leaves no legal reply), and all
//! such mating moves. The exhaustive verdict is the truth: `mate_move_in_1ply` is known to miss
//! some distant checks and interpositions, and its misses are counted, not failed.
//!
//! For every position: our `mate_in_one` must agree with the exhaustive verdict; the move it
//! returns must be one of cshogi's mating moves and must mate when replayed with our own legal
//! move generator (check given, no legal reply); and the set of our checks that mate (by
//! `has_evasion`) must equal cshogi's set of mating moves.
//!
//! With the problem sets (`$TSUMUGI_PROBLEMS`, default `../shared/problems`): every position of
//! `mate1.tsv` must have a mate in 1 and none of `nomate1.tsv` may. With
//! `scripts/gen/mate1_oracle.py --problems <dir>` run beforehand, its output
//! (`$TSUMUGI_MATE1_PROBLEMS`, default `target/mate1_oracle_problems.tsv`, never committed) is
//! checked like the data file. A test whose input is absent is reported as ignored, with
//! the reason, by the runner (`common::harness`); it never counts as passed.

mod common;
use common::harness;
use common::problems::{problems_path, read_set};

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use tsumugi::shogi::{MoveList, Position};

struct Row {
    line: usize,
    sfen: String,
    /// cshogi's `mate_move_in_1ply` verdict; `None` when the side to move is in check (the
    /// function is not meant for that and was not called).
    cshogi: Option<bool>,
    /// Exhaustive verdict over cshogi's legal moves.
    exhaustive: bool,
    /// cshogi's mating moves (USI).
    mates: BTreeSet<String>,
}

fn read_rows(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            f.len(),
            4,
            "{}:{}: expected 4 columns",
            path.display(),
            i + 1
        );
        let flag = |s: &str| match s {
            "0" => false,
            "1" => true,
            _ => panic!("{}:{}: bad flag {s:?}", path.display(), i + 1),
        };
        let mates: BTreeSet<String> = if f[3] == "-" {
            BTreeSet::new()
        } else {
            f[3].split(',').map(str::to_string).collect()
        };
        let exhaustive = flag(f[2]);
        assert_eq!(
            exhaustive,
            !mates.is_empty(),
            "{}:{}",
            path.display(),
            i + 1
        );
        rows.push(Row {
            line: i + 1,
            sfen: f[0].to_string(),
            cshogi: (f[1] != "-").then(|| flag(f[1])),
            exhaustive,
            mates,
        });
    }
    rows
}

#[derive(Default)]
struct Stats {
    positions: u64,
    with_mate: u64,
    in_check: u64,
    /// Positions where cshogi's `mate_move_in_1ply` found no mate but one exists.
    cshogi_misses: u64,
    /// Positions where it claimed a mate that the exhaustive search does not confirm.
    cshogi_false: u64,
    /// Mating moves compared (cshogi's, summed).
    mating_moves: u64,
    /// SFENs our parser rejects (only tolerated for problem-set positions, see `check_row`).
    rejected: u64,
    failures: Vec<String>,
}

impl Stats {
    fn fail(&mut self, msg: String) {
        if self.failures.len() < 30 {
            self.failures.push(msg);
        }
    }

    fn finish(&self, what: &str) {
        eprintln!(
            "{what}: {} positions ({} with a mate in 1, {} with the side to move in check), {} \
             mating moves compared; cshogi mate_move_in_1ply misses {} and false mates {} \
             (exhaustive search decides); {} SFENs rejected by our parser; {} real failures",
            self.positions,
            self.with_mate,
            self.in_check,
            self.mating_moves,
            self.cshogi_misses,
            self.cshogi_false,
            self.rejected,
            self.failures.len()
        );
        for f in &self.failures {
            eprintln!("FAIL {f}");
        }
        assert!(self.failures.is_empty(), "{what}: {}", self.failures[0]);
    }
}

/// Replays `m` with our legal move generator: it must be legal, give check, and leave no legal
/// reply.
fn mates_by_replay(pos: &mut Position, usi: &str) -> bool {
    let list = pos.legal_move_list();
    let Some(&m) = list.iter().find(|m| m.to_string() == usi) else {
        return false;
    };
    pos.do_move(m);
    let mated = pos.in_check() && pos.legal_move_list().is_empty();
    pos.undo_move();
    mated
}

/// Checks one row. A SFEN our parser rejects is a failure when `strict` (our generated data is
/// valid by construction), otherwise counted (problem sets hold a few faulty SFENs).
fn check_row(row: &Row, st: &mut Stats, where_: &str, strict: bool) {
    let mut pos = match Position::from_sfen(&row.sfen) {
        Ok(p) => p,
        Err(e) => {
            st.rejected += 1;
            if strict {
                st.fail(format!(
                    "{where_}:{} our parser rejects {}: {e}",
                    row.line, row.sfen
                ));
            }
            return;
        }
    };
    st.positions += 1;
    st.mating_moves += row.mates.len() as u64;
    if row.exhaustive {
        st.with_mate += 1;
    }
    if pos.in_check() {
        st.in_check += 1;
    }
    match row.cshogi {
        Some(false) if row.exhaustive => st.cshogi_misses += 1,
        Some(true) if !row.exhaustive => st.cshogi_false += 1,
        _ => {}
    }
    let sfen = &row.sfen;

    let ours = pos.mate_in_one();
    if ours.is_some() != row.exhaustive {
        st.fail(format!(
            "{where_}:{} mate_in_one = {:?}, exhaustive search says {} ({:?}) in {sfen}",
            row.line,
            ours.map(|m| m.to_string()),
            row.exhaustive,
            row.mates
        ));
    }
    if let Some(m) = ours {
        let usi = m.to_string();
        if !row.mates.contains(&usi) {
            st.fail(format!(
                "{where_}:{} mate_in_one returns {usi}, not a mate for cshogi in {sfen}",
                row.line
            ));
        }
        if !mates_by_replay(&mut pos, &usi) {
            st.fail(format!(
                "{where_}:{} mate_in_one returns {usi}, no mate when replayed in {sfen}",
                row.line
            ));
        }
    }

    // Every mating check, by the engine's own fast test (`has_evasion`) and by replay with the
    // full legal generator, must be exactly cshogi's set.
    let mut checks = MoveList::new();
    pos.check_moves(&mut checks);
    let mut fast = BTreeSet::new();
    let mut slow = BTreeSet::new();
    for &m in checks.as_slice() {
        pos.do_move(m);
        if !pos.has_evasion() {
            fast.insert(m.to_string());
        }
        if pos.legal_move_list().is_empty() {
            slow.insert(m.to_string());
        }
        pos.undo_move();
    }
    if fast != row.mates || slow != row.mates {
        st.fail(format!(
            "{where_}:{} mating checks in {sfen}: cshogi {:?}, ours by has_evasion {fast:?}, by \
             replay {slow:?}",
            row.line, row.mates
        ));
    }
}

fn data_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/mate1_oracle.tsv")
}

fn mate1_against_cshogi() {
    let rows = read_rows(&data_path());
    assert!(
        rows.len() >= 10_000,
        "only {} positions in the data",
        rows.len()
    );
    let mut st = Stats::default();
    for r in &rows {
        check_row(r, &mut st, "mate1_oracle.tsv", true);
    }
    st.finish("mate1 vs cshogi (generated positions)");
    // The data is meant to be about 30% positions with a mate.
    let share = st.with_mate as f64 / st.positions as f64;
    assert!((0.2..=0.5).contains(&share), "mate share {share:.2}");
}

/// `mate1.tsv`: all mate in 1 (our move must mate by replay); `nomate1.tsv`: none has one.
fn mate1_problem_sets() {
    let dir = problems_path();
    let mut failures = Vec::new();
    for (file, expect) in [("mate1.tsv", true), ("nomate1.tsv", false)] {
        let path = dir.join(file);
        let rows = read_set(&path).unwrap_or_else(|| panic!("cannot read {}", path.display()));
        let (mut n, mut rejected) = (0, 0);
        for row in &rows {
            let sfen = row.sfen();
            let Ok(mut pos) = Position::from_sfen(sfen) else {
                rejected += 1;
                continue;
            };
            n += 1;
            let m = pos.mate_in_one();
            if m.is_some() != expect {
                failures.push(format!(
                    "{file}:{}: mate_in_one = {m:?} in {sfen}",
                    row.line
                ));
            } else if let Some(m) = m {
                if !mates_by_replay(&mut pos, &m.to_string()) {
                    failures.push(format!("{file}:{}: {m} does not mate in {sfen}", row.line));
                }
            }
        }
        eprintln!(
            "mate1 problem set {file}: {n} positions, expected mate in 1: {expect}, {rejected} \
             SFENs rejected by our parser"
        );
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
}

/// Where the cshogi verdicts on problem-set positions are, when generated locally.
fn problem_verdicts_path() -> PathBuf {
    std::env::var("TSUMUGI_MATE1_PROBLEMS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/mate1_oracle_problems.tsv")
        })
}

/// The cshogi verdicts on problem-set positions, when generated locally.
fn mate1_problem_positions_against_cshogi() {
    let rows = read_rows(&problem_verdicts_path());
    let mut st = Stats::default();
    for r in &rows {
        check_row(r, &mut st, "mate1_oracle_problems.tsv", false);
    }
    st.finish("mate1 vs cshogi (problem-set positions)");
}

fn main() {
    harness::run(vec![
        harness::test("mate1_against_cshogi", mate1_against_cshogi),
        harness::needs_sets(
            "mate1_problem_sets",
            mate1_problem_sets,
            &["mate1.tsv", "nomate1.tsv"],
        ),
        harness::needs_files(
            "mate1_problem_positions_against_cshogi",
            mate1_problem_positions_against_cshogi,
            || vec![problem_verdicts_path()],
            "generate it with `.venv/bin/python scripts/gen/mate1_oracle.py --problems ../shared/problems`",
        ),
    ]);
}
