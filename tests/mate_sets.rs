//! The mate search over the public problem sets in `$TSUMUGI_PROBLEMS` (default
//! `../shared/problems`). These sets are not part of the repository; when a set is absent the
//! tests that need it are reported as ignored, with the path, by the runner (`common::harness`;
//! the core suite never depends on them).
//!
//! `cargo test --release --test mate_sets -- --nocapture` runs a sample of each set;
//! `... -- --ignored --nocapture` runs every position (minutes) and prints the totals.

mod common;
use common::harness;
use common::problems::{problems_path, read_set, set_rows};

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tsumugi::mate::{Limits, Outcome, PostSearch, Solver, UnknownReason};
use tsumugi::shogi::Position;

/// (sfen, expected) rows of a TSV set: expected is a length or "nomate". No rows when the file
/// is missing.
fn load(dir: &Path, file: &str) -> Vec<(String, String)> {
    let path = dir.join(file);
    read_set(&path)
        .unwrap_or_else(|| panic!("cannot read {}", path.display()))
        .iter()
        .map(|r| (r.sfen().to_string(), r.field(1).to_string()))
        .collect()
}

/// The (sfen, expected) rows of set `file`, which the harness made sure is present.
fn set(file: &str) -> Vec<(String, String)> {
    set_rows(file)
        .iter()
        .map(|r| (r.sfen().to_string(), r.field(1).to_string()))
        .collect()
}

struct Totals {
    n: usize,
    solved: usize,
    wrong: Vec<String>,
    unsolved: Vec<String>,
    rejected: Vec<String>,
    nodes: u64,
    time: Duration,
    max_time: Duration,
}

fn run_set(solver: &mut Solver, rows: &[(String, String)], limit: Duration) -> Totals {
    let mut t = Totals {
        n: 0,
        solved: 0,
        wrong: vec![],
        unsolved: vec![],
        rejected: vec![],
        nodes: 0,
        time: Duration::ZERO,
        max_time: Duration::ZERO,
    };
    let stop = AtomicBool::new(false);
    for (sfen, exp) in rows {
        let pos = match Position::from_sfen(sfen) {
            Ok(p) => p,
            Err(e) => {
                t.rejected.push(format!("{sfen}: {e}"));
                continue;
            }
        };
        t.n += 1;
        let limits = Limits {
            time: Some(limit),
            post_search: PostSearch::None,
            // The problem sets' side to move is the attacker, in check or not (SOURCES.md).
            root_is_and_if_checked: false,
            ..Limits::default()
        };
        let start = Instant::now();
        let r = solver.solve(&pos, &limits, &stop, &mut |_| {});
        let el = start.elapsed();
        t.time += el;
        t.max_time = t.max_time.max(el);
        t.nodes += r.stats.nodes;
        let expect_mate = exp != "nomate";
        match (&r.outcome, expect_mate) {
            (Outcome::Mate(line), true) => {
                t.solved += 1;
                let _ = (line, exp);
            }
            (Outcome::NoMate, false) => t.solved += 1,
            // A proof whose line could not be read and verified is a defect, not a timeout
            // (a famous 119-ply problem once read a line that walked in a circle).
            (Outcome::Unknown(UnknownReason::Unverified(why)), _) => t
                .wrong
                .push(format!("{sfen}: proven but unverified: {why}")),
            (Outcome::Unknown(reason), _) => {
                t.unsolved.push(format!("{sfen} ({reason:?}, {el:?})"))
            }
            (o, _) => t.wrong.push(format!("{sfen}: expected {exp}, got {o:?}")),
        }
    }
    t
}

fn report(name: &str, t: &Totals) {
    let nps = t.nodes as f64 / t.time.as_secs_f64().max(1e-9);
    eprintln!(
        "{name}: {}/{} solved, {} wrong, {} unsolved, total {:.2} s, max {:.3} s, {} nodes, {:.0} nodes/s",
        t.solved,
        t.n,
        t.wrong.len(),
        t.unsolved.len(),
        t.time.as_secs_f64(),
        t.max_time.as_secs_f64(),
        t.nodes,
        nps
    );
    for w in &t.wrong {
        eprintln!("  WRONG {w}");
    }
    for r in &t.rejected {
        eprintln!("  rejected by SFEN validation: {r}");
    }
    for u in t.unsolved.iter().take(20) {
        eprintln!("  unsolved {u}");
    }
}

/// Sets every position of which must be answered within the limit (the short problems).
const REQUIRED_SETS: &[&str] = &["mate1.tsv", "mate3-11.tsv", "extra1-9.tsv", "nomate1.tsv"];
/// Sets reported (and checked for wrong answers) but where timeouts are expected: composed
/// problems of hundreds of plies, hard no-mate positions.
const REPORTED_SETS: &[&str] = &[
    "rules-tricky.tsv",
    "famous.tsv",
    "long-ge50.tsv",
    "nomate-curated.tsv",
];

/// Every set of the two lists above.
const ALL_SETS: &[&str] = &[
    "mate1.tsv",
    "mate3-11.tsv",
    "extra1-9.tsv",
    "nomate1.tsv",
    "rules-tricky.tsv",
    "famous.tsv",
    "long-ge50.tsv",
    "nomate-curated.tsv",
];
/// The sets whose rows carry a known strict length.
const KNOWN_LENGTH_SETS: &[&str] = &[
    "mate1.tsv",
    "mate3-11.tsv",
    "extra1-9.tsv",
    "rules-tricky.tsv",
    "famous.tsv",
];

fn run_all(sample: Option<usize>, limit: Duration, include_reported: bool) {
    let dir = problems_path();
    let mut solver = common::solver(256);
    let mut failures = 0;
    for (sets, required) in [(REQUIRED_SETS, true), (REPORTED_SETS, false)] {
        if !required && !include_reported {
            continue;
        }
        for set in sets {
            let rows = load(&dir, set);
            let rows: Vec<_> = match sample {
                Some(k) => rows
                    .iter()
                    .step_by((rows.len() / k).max(1))
                    .cloned()
                    .collect(),
                None => rows,
            };
            let t = run_set(&mut solver, &rows, limit);
            report(set, &t);
            failures += t.wrong.len();
            if sample.is_none() && required {
                failures += t.unsolved.len();
            }
        }
    }
    assert_eq!(
        failures, 0,
        "wrong (or, in the full run, unsolved) answers above"
    );
}

fn sample_of_each_set() {
    // The short sets only, with a generous limit: this runs in scripts/test on a loaded CI box.
    run_all(Some(40), Duration::from_secs(5), false);
}

fn full_sets_within_one_second_each() {
    run_all(None, Duration::from_secs(1), true);
}

/// Composer-grade answers: how often the shortest answer's length equals the set's
/// known length. Prints the exact count and every mismatch; fails only on wrong answers.
fn shortest_lengths_against_known_lengths() {
    let dir = problems_path();
    let mut solver = common::solver(256);
    let stop = AtomicBool::new(false);
    let secs: u64 = std::env::var("TSUMUGI_LEN_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut wrong = 0;
    for set in KNOWN_LENGTH_SETS {
        let rows = load(&dir, set);
        let (mut n, mut equal, mut unsolved) = (0, 0, 0);
        let mut mismatches = vec![];
        for (sfen, exp) in &rows {
            let Ok(known) = exp.parse::<usize>() else {
                continue;
            };
            let Ok(pos) = Position::from_sfen(sfen) else {
                continue;
            };
            n += 1;
            let limits = Limits {
                time: Some(Duration::from_secs(secs)),
                post_search: PostSearch::Shortest,
                // The problem sets' side to move is the attacker, in check or not (SOURCES.md).
                root_is_and_if_checked: false,
                ..Limits::default()
            };
            match solver.solve(&pos, &limits, &stop, &mut |_| {}).outcome {
                Outcome::Mate(line) if line.len() == known => equal += 1,
                Outcome::Mate(line) => {
                    mismatches.push(format!("{sfen}\tknown {known}\tgot {}", line.len()))
                }
                Outcome::NoMate => {
                    wrong += 1;
                    mismatches.push(format!("{sfen}\tknown {known}\tgot nomate (WRONG)"));
                }
                Outcome::Unknown(r) => {
                    unsolved += 1;
                    mismatches.push(format!("{sfen}\tknown {known}\tundecided {r:?}"));
                }
            }
        }
        eprintln!("{set}: {equal}/{n} lengths equal to the known length, {unsolved} undecided in {secs} s");
        for m in &mismatches {
            eprintln!("  {m}");
        }
    }
    assert_eq!(wrong, 0);
}

/// GHI (Kishimoto & Müller 2004) on real problems: a repetition failure may be stored as a
/// disproof only at the node its loops return to (see `mate::dfpn::path`). These famous.tsv
/// rows (0-based, header excluded) were answered `nomate`, though each has a mate, when the
/// search stored repetition failures at every node; each is searched here, first proof only,
/// with a fresh table and 300 000 nodes, as in that experiment.
fn repetition_failures_never_make_a_mate_nomate() {
    let rows = set("famous.tsv");
    let stop = AtomicBool::new(false);
    for i in [37, 45, 80, 164, 191, 216] {
        let (sfen, exp) = &rows[i];
        assert!(exp.parse::<usize>().is_ok(), "row {i} is not a mate: {exp}");
        let pos = Position::from_sfen(sfen).unwrap();
        let limits = Limits {
            nodes: Some(300_000),
            post_search: PostSearch::None,
            root_is_and_if_checked: false,
            ..Limits::default()
        };
        let r = common::solver(256).solve(&pos, &limits, &stop, &mut |_| {});
        assert_ne!(r.outcome, Outcome::NoMate, "famous.tsv row {i}: {sfen}");
    }
}

/// long-ge50.tsv row 1 (353 plies: a horse walks around the king and back, every circle of
/// it a repetition). Its shortest-mate rounds once took over 10 s each, and when failures were
/// first stored at the ancestor they repeat, a failure remembered for a path (found under a
/// length limit) was reused as "no mate at any length", so a position of the shortest line
/// looked disproven and the answer was a 21-ply line with the caveat "the shortest mate is
/// proven to take 353 plies". Now the 353-ply line is read, with minimality proven. The first
/// proof is 533 plies; stepping down 2 plies a round, the bound reached 353 after about 48 s
/// and minimality took over a minute; with galloping rounds (`driver::next_limit`) the whole
/// answer takes about 17 s. With helper threads, a line that could not be read after a round
/// once ended the rounds early with a bound above 353, nothing shorter refuted and a line read
/// by stored lengths (117 plies in one CI run, 233 to 257 here); see
/// `driver::tests::unreadable_shorter_line_does_not_end_the_rounds`.
fn horse_circling_problem_reads_its_shortest_line() {
    let rows = set("long-ge50.tsv");
    let (sfen, exp) = rows[1].clone();
    assert_eq!(exp, "353");
    let (r, news) = tsumugi::mate::with_search_stack(move || {
        let pos = Position::from_sfen(&sfen).unwrap();
        let limits = Limits {
            time: Some(Duration::from_secs(120)),
            root_is_and_if_checked: false,
            ..Limits::default()
        };
        let mut news = Vec::new();
        let r = common::solver(1024).solve(&pos, &limits, &AtomicBool::new(false), &mut |p| {
            news.extend(p.news.clone())
        });
        (r, news)
    });
    let Outcome::Mate(line) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!(
        line.len(),
        353,
        "status {:?}, line {}, news {news:?}",
        r.status,
        line.iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(r.status.unwrap().established());
    // The round that proved 353 a lower bound (a round within 351 that failed) was announced,
    // with the interval it left: "takes 353" once the bound was down to 353, "takes 353 to
    // 357" when it came first (seen with two threads). Which other rounds fail depends on the
    // search (with the threshold control, one thread, the bound steps down 363, 357, 353 and
    // only the last round fails); both forms are tested in
    // `driver::tests::failed_rounds_announce_what_is_left`.
    assert!(
        news.iter().any(
            |n| n == "no mate within 351 plies: the shortest mate takes 353"
                || n.starts_with("no mate within 351 plies: the shortest mate takes 353 to ")
        ),
        "{news:?}"
    );
}

/// Microcosmos (long.tsv, 1525 plies). Its first proof's line is 1581 plies, and each
/// shorter line the shortest-mate rounds found differed from the one before in one place, an
/// 8-ply detour replaced by 4 plies that rejoin it; the first round alone took about a minute.
/// The shortcut pass (`line::shorten`) finds them all at once against the table's proofs, so
/// the known minimum is announced before any round has searched a node: the bound of 1525
/// plies comes with the first proof's node count plus at most the few re-proofs of the
/// reading. The search is stopped there.
fn microcosmos_line_is_shortened_before_any_round() {
    let rows = set("long.tsv");
    let (sfen, _) = rows
        .iter()
        .find(|(_, exp)| exp == "1525")
        .cloned()
        .expect("long.tsv holds Microcosmos (1525 plies)");
    let news = tsumugi::mate::with_search_stack(move || {
        let pos = Position::from_sfen(&sfen).unwrap();
        let limits = Limits {
            time: Some(Duration::from_secs(300)),
            root_is_and_if_checked: false,
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let mut news: Vec<(u64, u32)> = Vec::new();
        let r = common::solver(1024).solve(&pos, &limits, &stop, &mut |p| {
            if let (Some(_), Some(st)) = (&p.news, &p.status) {
                news.push((p.stats.nodes, st.upper));
                if st.upper <= 1525 {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
        });
        assert!(matches!(r.outcome, Outcome::Mate(_)), "{:?}", r.outcome);
        news
    });
    let (first_nodes, first_bound) = news[0];
    assert!(
        first_bound > 1525,
        "the first proof is already minimal: {news:?}"
    );
    let &(nodes, bound) = news.last().unwrap();
    assert_eq!(bound, 1525, "{news:?}");
    assert!(
        nodes - first_nodes < first_nodes / 100,
        "a round searched between the first proof and 1525: {news:?}"
    );
}

fn main() {
    use harness::{needs_sets, slow};
    let microcosmos = "microcosmos_line_is_shortened_before_any_round";
    harness::run(vec![
        // The short sets only, with a generous limit: this runs in scripts/test on a loaded CI box.
        needs_sets("sample_of_each_set", sample_of_each_set, REQUIRED_SETS),
        slow(needs_sets(
            "full_sets_within_one_second_each",
            full_sets_within_one_second_each,
            ALL_SETS,
        )),
        slow(needs_sets(
            "shortest_lengths_against_known_lengths",
            shortest_lengths_against_known_lengths,
            KNOWN_LENGTH_SETS,
        )),
        needs_sets(
            "repetition_failures_never_make_a_mate_nomate",
            repetition_failures_never_make_a_mate_nomate,
            &["famous.tsv"],
        ),
        needs_sets(
            "horse_circling_problem_reads_its_shortest_line",
            horse_circling_problem_reads_its_shortest_line,
            &["long-ge50.tsv"],
        ),
        if common::test_threads() > 1 {
            // With helpers the first proof differs from run to run (one run's pass reached 1527
            // and a round found 1525); the claim is about the one-thread search.
            harness::not_applicable(microcosmos, "checks the one-thread search")
        } else {
            needs_sets(
                microcosmos,
                microcosmos_line_is_shortened_before_any_round,
                &["long.tsv"],
            )
        },
    ]);
}
