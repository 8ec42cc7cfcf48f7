//! Developer tool: runs the solver over a TSV problem file (`<sfen>\t<expected>...`) and prints
//! one line per problem and a summary. For measuring search changes quickly:
//!
//! ```text
//! cargo run --release --example setrun -- ../shared/problems/famous.tsv [--time-ms 1000]
//!     [--post none|shortest] [--hash-mb 256] [--threads 1] [--every K] [--quiet]
//! ```
//!
//! Each problem starts from an empty table (as a fresh `go mate` after `usinewgame` would).
//!
//! Run it through `cargo run`, or build it with `cargo build --release --examples`:
//! `cargo build --release` alone leaves `target/release/examples/setrun` as it was, and a
//! measurement with that binary measures the old search (this happened once; see
//! docs/bench/threads.md).

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tsumugi::mate::{Limits, Outcome, PostSearch, Solver, UnknownReason};
use tsumugi::shogi::Position;

// The tests' reader of problem-set files (header, comments and blank lines skipped).
#[allow(dead_code)]
#[path = "../tests/common/problems.rs"]
mod problems;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let mut time_ms = 1000u64;
    let mut post = PostSearch::None;
    let mut hash_mb = 256usize;
    let mut every = 1usize;
    let mut quiet = false;
    let mut nodes_limit: Option<u64> = None;
    let mut threads = 1usize;
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--time-ms" => time_ms = v.parse().expect("--time-ms"),
            "--post" => post = PostSearch::parse(&v).expect("--post"),
            "--hash-mb" => hash_mb = v.parse().expect("--hash-mb"),
            "--every" => every = v.parse().expect("--every"),
            "--nodes" => nodes_limit = Some(v.parse().expect("--nodes")),
            "--threads" => threads = v.parse().expect("--threads"),
            "--quiet" => {
                quiet = true;
                i += 1;
                continue;
            }
            f => {
                file = Some(f.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let file = file.expect("a TSV file");
    let rows: Vec<(String, String)> = problems::read_set(Path::new(&file))
        .expect("read file")
        .iter()
        .map(|r| (r.sfen().to_string(), r.field(1).to_string()))
        .step_by(every)
        .collect();
    let res = tsumugi::mate::with_search_stack(move || {
        let mut solver = Solver::new(hash_mb);
        solver.set_threads(threads);
        let stop = AtomicBool::new(false);
        let (mut n, mut solved, mut wrong, mut equal, mut at_or_below) = (0, 0, 0, 0, 0);
        let mut nodes = 0u64;
        let mut total = Duration::ZERO;
        let mut times = vec![];
        for (idx, (sfen, exp)) in rows.iter().enumerate() {
            let Ok(pos) = Position::from_sfen(sfen) else {
                println!("{idx}\trejected");
                continue;
            };
            n += 1;
            solver.clear();
            let limits = Limits {
                time: Some(Duration::from_millis(time_ms)),
                nodes: nodes_limit,
                post_search: post,
                // The problem sets' side to move is the attacker, in check or not (SOURCES.md).
                root_is_and_if_checked: false,
                ..Limits::default()
            };
            let t = Instant::now();
            let r = solver.solve(&pos, &limits, &stop, &mut |_| {});
            let el = t.elapsed();
            total += el;
            nodes += r.stats.nodes;
            let got = match &r.outcome {
                Outcome::Mate(l) => {
                    // What is claimed is the proven bound; a line read by following stored
                    // lengths (when the minimax reading gave up) can be shorter.
                    let bound = r.status.as_ref().map_or(l.len(), |s| s.upper as usize);
                    if exp == "nomate" {
                        wrong += 1;
                    } else {
                        solved += 1;
                        times.push(el);
                        match exp.parse::<usize>() {
                            Ok(e) if e == l.len() && bound == e => equal += 1,
                            Ok(e) if bound <= e => at_or_below += 1,
                            _ => {}
                        }
                    }
                    if bound == l.len() {
                        l.len().to_string()
                    } else {
                        format!("{}/bound {bound}", l.len())
                    }
                }
                Outcome::NoMate => {
                    if exp == "nomate" {
                        solved += 1;
                        times.push(el);
                    } else {
                        wrong += 1;
                    }
                    "nomate".to_string()
                }
                Outcome::Unknown(UnknownReason::Unverified(why)) => {
                    wrong += 1;
                    format!("unverified ({why})")
                }
                Outcome::Unknown(_) => "unknown".to_string(),
            };
            if !quiet {
                println!(
                    "{idx}\t{exp}\t{got}\t{:.3}\t{}",
                    el.as_secs_f64(),
                    r.stats.nodes
                );
            }
        }
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        format!(
            "{file}: {solved}/{n} solved, {wrong} wrong, {equal} at the expected length, {} at or below it (by the proven bound), total {:.2} s, median solved {:.3} s, {nodes} nodes, {:.0} nodes/s",
            equal + at_or_below,
            total.as_secs_f64(),
            median.as_secs_f64(),
            nodes as f64 / total.as_secs_f64().max(1e-9)
        )
    });
    println!("{res}");
}
