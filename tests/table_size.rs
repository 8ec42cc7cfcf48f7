//! Answers must not depend on the table size. A deterministic sample of the short problem sets
//! (every 6th row of `mate3-11.tsv` and `extra1-9.tsv`, in file order) is solved by one thread
//! with the default shortest-mate post-search, once with a 1 MB table and once with a 256 MB
//! table, under the same node limit (so no position can hang the test). A 1 MB table overflows
//! on the longer of these problems and the search then runs on replaced entries; what it says
//! must still hold. For each position:
//!
//! (a) when both answers prove the shortest length, it is the same length;
//! (b) neither size answers `nomate` where the other finds a mate (nor where the set knows one);
//! (c) every mating line given (the answer's, or the best one before a limit) replays as a mate
//!     under the independent legal-move oracle (`shogi_legality_lite`, `common::oracle_mate_line`:
//!     legal moves, every attacker move a check, checkmate at the end), and no proof is left
//!     without a verified line;
//! (d) a proven shortest length equals the set's known length (column 2);
//!
//! and, so that the test cannot pass by proving nothing, every sampled position gets a proven
//! shortest length at both sizes (they are problems of at most 11 plies, far within the limit).
//! Every failing position is printed with both answers.
//!
//! The sets are not part of the repository: a trial whose set is absent is reported as ignored,
//! with the path, by the runner (`common::harness`; `TSUMUGI_PROBLEMS` says where they are).

mod common;
use common::harness;
use common::problems::{set_rows, Row};

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tsumugi::mate::{Limits, Outcome, PostSearch, SearchResult, Solver, UnknownReason};
use tsumugi::shogi::{Move, Position};

/// Every `SAMPLE_EVERY`th row of a set, from its first row.
const SAMPLE_EVERY: usize = 6;
/// Nodes of one solve (first proof, shortest-mate rounds and line reading): a bound so that no
/// position can hang the test, about 7 times the most any sampled position took when this was
/// written (1.43 M, a mate3-11 problem at 1 MB; each trial prints its largest).
const NODE_LIMIT: u64 = 10_000_000;
/// The two table sizes compared, in MB.
const SMALL_MB: usize = 1;
const LARGE_MB: usize = 256;

/// The mating line an answer gives: the outcome's, or the best one proven before a limit.
fn line_of(r: &SearchResult) -> Option<&[Move]> {
    match &r.outcome {
        Outcome::Mate(line) => Some(line),
        _ => r.best_mate.as_deref(),
    }
}

/// The shortest length the answer proves, if it proves one.
fn proven_shortest(r: &SearchResult) -> Option<u32> {
    line_of(r)?;
    r.status.as_ref().filter(|s| s.minimal()).map(|s| s.upper)
}

fn usi_line(line: &[Move]) -> Vec<String> {
    line.iter().map(|m| m.to_string()).collect()
}

/// One answer on one line, for the failure report.
fn describe(r: &SearchResult) -> String {
    let what = match &r.outcome {
        Outcome::Mate(_) => "mate".to_string(),
        Outcome::NoMate => "nomate".to_string(),
        Outcome::Unknown(why) => format!("undecided ({why})"),
    };
    let status = r
        .status
        .as_ref()
        .map_or(String::new(), |s| format!("; {}", s.describe()));
    let line = line_of(r).map_or(String::new(), |l| {
        format!("; line {} plies: {}", l.len(), usi_line(l).join(" "))
    });
    format!("{what}{status}{line}; {} nodes", r.stats.nodes)
}

/// What is wrong with the two answers for `row` (empty when nothing is).
fn disagreements(row: &Row, small: &SearchResult, large: &SearchResult) -> Vec<String> {
    let sfen = row.sfen();
    let known: Option<u32> = row.field(1).parse().ok();
    let mut bad = Vec::new();
    let sizes = [(SMALL_MB, small), (LARGE_MB, large)];
    for (mb, r) in sizes {
        // (c) every line shown is a mate under the oracle.
        if let Some(line) = line_of(r) {
            if let Err(why) = common::oracle_mate_line(sfen, &usi_line(line)) {
                bad.push(format!("(c) the {mb} MB line is not a mate: {why}"));
            }
        }
        if let Outcome::Unknown(UnknownReason::Unverified(why)) = &r.outcome {
            bad.push(format!(
                "(c) {mb} MB proved a mate but read no verified line: {why}"
            ));
        }
        // (b) against the set.
        if r.outcome == Outcome::NoMate && known.is_some() {
            bad.push(format!(
                "(b) {mb} MB answers nomate, the set knows a mate in {}",
                row.field(1)
            ));
        }
        // (d) against the set.
        if let (Some(p), Some(k)) = (proven_shortest(r), known) {
            if p != k {
                bad.push(format!(
                    "(d) {mb} MB proves the shortest mate takes {p} plies, the set knows {k}"
                ));
            }
        }
        // The sample is far within the limit at both sizes: an answer that proves no shortest
        // length is an answer the table size spoiled (or a test that proves nothing).
        if proven_shortest(r).is_none() && known.is_some() {
            bad.push(format!("{mb} MB proves no shortest length"));
        }
    }
    // (b) against each other.
    let mate = |r: &SearchResult| line_of(r).is_some();
    if (small.outcome == Outcome::NoMate && mate(large))
        || (large.outcome == Outcome::NoMate && mate(small))
    {
        bad.push(format!(
            "(b) one size answers nomate, the other a mate ({SMALL_MB} MB: {}, {LARGE_MB} MB: {})",
            if mate(small) { "mate" } else { "nomate" },
            if mate(large) { "mate" } else { "nomate" },
        ));
    }
    // (a) both proven shortest: the same length.
    if let (Some(a), Some(b)) = (proven_shortest(small), proven_shortest(large)) {
        if a != b {
            bad.push(format!(
                "(a) proven shortest lengths differ: {a} plies at {SMALL_MB} MB, {b} at {LARGE_MB} MB"
            ));
        }
    }
    bad
}

/// Solves `pos` on `solver`'s emptied table: each answer depends on its position and table
/// size only, not on the positions solved before it.
fn solve(solver: &mut Solver, pos: &Position) -> SearchResult {
    solver.clear();
    let limits = Limits {
        nodes: Some(NODE_LIMIT),
        post_search: PostSearch::Shortest,
        // The problem sets' side to move is the attacker, in check or not (SOURCES.md).
        root_is_and_if_checked: false,
        ..Limits::default()
    };
    solver.solve(pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

/// Part `part` (from 0) of `parts` of the sample of `set`: every `parts`th sampled row from the
/// `part`th, so each part holds problems of every length the set has.
fn check_sample(set: &str, part: usize, parts: usize) {
    let rows = set_rows(set);
    let sample: Vec<&Row> = rows
        .iter()
        .step_by(SAMPLE_EVERY)
        .skip(part)
        .step_by(parts)
        .collect();
    assert!(!sample.is_empty(), "{set}: no rows");
    // One solver per size for the whole part: the 256 MB table is allocated once and emptied
    // for each position (which returns its pages), not allocated per position.
    let mut small = Solver::new(SMALL_MB);
    let mut large = Solver::new(LARGE_MB);
    assert_eq!(small.hash_mb(), SMALL_MB);
    assert_eq!(
        large.hash_mb(),
        LARGE_MB,
        "could not allocate {LARGE_MB} MB"
    );
    let mut failures = Vec::new();
    let (mut time_small, mut time_large) = (Duration::ZERO, Duration::ZERO);
    let (mut max_nodes_small, mut max_nodes_large) = (0, 0);
    for row in &sample {
        let sfen = row.sfen();
        let pos = Position::from_sfen(sfen)
            .unwrap_or_else(|e| panic!("{set} line {}: {sfen}: {e}", row.line));
        let start = Instant::now();
        let a = solve(&mut small, &pos);
        time_small += start.elapsed();
        let start = Instant::now();
        let b = solve(&mut large, &pos);
        time_large += start.elapsed();
        max_nodes_small = max_nodes_small.max(a.stats.nodes);
        max_nodes_large = max_nodes_large.max(b.stats.nodes);
        let bad = disagreements(row, &a, &b);
        if !bad.is_empty() {
            failures.push(format!(
                "{set} line {}: {sfen} (known {})\n    {}\n    {SMALL_MB} MB: {}\n    {LARGE_MB} MB: {}",
                row.line,
                row.field(1),
                bad.join("\n    "),
                describe(&a),
                describe(&b)
            ));
        }
    }
    eprintln!(
        "{set} part {}/{parts}: {} positions, {} failing; {SMALL_MB} MB {:.2} s (max {max_nodes_small} \
         nodes), {LARGE_MB} MB {:.2} s (max {max_nodes_large} nodes), node limit {NODE_LIMIT}",
        part + 1,
        sample.len(),
        failures.len(),
        time_small.as_secs_f64(),
        time_large.as_secs_f64(),
    );
    assert!(
        failures.is_empty(),
        "{} of {} positions of {set} answered differently at {SMALL_MB} MB and {LARGE_MB} MB, or \
         wrongly:\n{}",
        failures.len(),
        sample.len(),
        failures.join("\n")
    );
}

fn answers_at_1_mb_and_256_mb_agree_mate3_11_part_1() {
    check_sample("mate3-11.tsv", 0, 2);
}

fn answers_at_1_mb_and_256_mb_agree_mate3_11_part_2() {
    check_sample("mate3-11.tsv", 1, 2);
}

fn answers_at_1_mb_and_256_mb_agree_extra1_9() {
    check_sample("extra1-9.tsv", 0, 1);
}

fn main() {
    use harness::needs_sets;
    harness::run(vec![
        needs_sets(
            "answers_at_1_mb_and_256_mb_agree_mate3_11_part_1",
            answers_at_1_mb_and_256_mb_agree_mate3_11_part_1,
            &["mate3-11.tsv"],
        ),
        needs_sets(
            "answers_at_1_mb_and_256_mb_agree_mate3_11_part_2",
            answers_at_1_mb_and_256_mb_agree_mate3_11_part_2,
            &["mate3-11.tsv"],
        ),
        needs_sets(
            "answers_at_1_mb_and_256_mb_agree_extra1_9",
            answers_at_1_mb_and_256_mb_agree_extra1_9,
            &["extra1-9.tsv"],
        ),
    ]);
}
