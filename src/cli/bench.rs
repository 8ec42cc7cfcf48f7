//! `tsumugi bench`: solve the bench positions (`mate::bench`: a fixed, embedded set) and print
//! a node-count signature, one line per position and the totals.

use super::args::BenchArgs;
use super::kit::search::fit_hash_mb;
use super::output::{note, say};
// The list and its runner live in `mate::bench`, which the browser build uses too.
pub use crate::mate::bench::{run_positions, totals, BenchLine, NODE_LIMIT, POSITIONS};
use std::process::ExitCode;

/// `tsumugi bench [--hash-mb M] [--threads N]`.
pub fn cmd_bench(args: BenchArgs) -> ExitCode {
    let hash_mb = fit_hash_mb(args.hash_mb, 1);
    let threads = args.threads as usize;
    let lines = crate::mate::with_search_stack(move || {
        run_positions(POSITIONS, hash_mb, threads, NODE_LIMIT, &mut |l| say(l))
    });
    let (nodes, time, nps) = totals(&lines);
    // Which slider lookup ran (it changes the speed, never the nodes), for comparing builds.
    note(format_args!(
        "slider lookup: {}",
        crate::shogi::attacks::slider_path().name()
    ));
    say(format_args!(
        "nodes {nodes} time_ms {} nps {nps}",
        time.as_millis()
    ));
    ExitCode::SUCCESS
}
