//! `tsumugi solve`: solve one position and print the answer as the USI reply would be.

use super::{Limits, Outcome, PostSearch, Solver};
use crate::cli::{parse_args, USAGE};
use crate::shogi::notation::japanese_line;
use crate::shogi::Position;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub const SOLVE_USAGE: &str = "\
usage: tsumugi solve [--time-ms T] [--nodes N] [--hash-mb M] [--post-search shortest|none|composer]
                     [--threshold kh|epsilon:<x>] [--verbose] <SFEN>|startpos
  Prints 'checkmate <moves>', 'checkmate nomate' or 'checkmate timeout' on stdout, then nodes,
  time, nps, hashfull and the line in Japanese notation on stderr (on stdout with --verbose).
  --threshold picks the child threshold rule (default epsilon:0.5, the 1+ε trick; kh is
  KomoringHeights' second-best + 1).
  Every 5 s a progress line goes to stderr.
  Exit status 0 for any of these answers, 2 for bad arguments or a bad SFEN.";

fn bad(msg: &str) -> ExitCode {
    eprintln!("error: {msg}\n\n{SOLVE_USAGE}\n\n{USAGE}");
    ExitCode::from(2)
}

/// Text of the USI `checkmate` reply for an outcome.
pub fn checkmate_reply(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Mate(line) => {
            let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            format!("checkmate {}", moves.join(" "))
        }
        Outcome::NoMate => "checkmate nomate".to_string(),
        Outcome::Unknown(_) => "checkmate timeout".to_string(),
    }
}

pub fn cmd_solve(rest: &[String]) -> ExitCode {
    let args = match parse_args(rest, &["verbose"]) {
        Ok(a) => a,
        Err(e) => return bad(&e),
    };
    if let Err(e) = args.check_known(&["time-ms", "nodes", "hash-mb", "post-search", "threshold"]) {
        return bad(&e);
    }
    let sfen = args.positional.join(" ");
    if sfen.is_empty() {
        return bad("solve needs a position (SFEN or 'startpos')");
    }
    let pos = match Position::from_sfen(&sfen) {
        Ok(p) => p,
        Err(e) => return bad(&format!("bad SFEN: {e}")),
    };
    let time_ms: Option<u64> = match args.parse_num("time-ms") {
        Ok(v) => v,
        Err(e) => return bad(&e),
    };
    let nodes: Option<u64> = match args.parse_num("nodes") {
        Ok(v) => v,
        Err(e) => return bad(&e),
    };
    let hash_mb: usize = match args.parse_num("hash-mb") {
        Ok(v) => v.unwrap_or(256),
        Err(e) => return bad(&e),
    };
    if hash_mb == 0 || hash_mb > 1 << 20 {
        return bad("--hash-mb must be between 1 and 1048576");
    }
    let post_search = match args.get("post-search") {
        None => PostSearch::Shortest,
        Some(v) => match PostSearch::parse(v) {
            Some(p) => p,
            None => {
                return bad(&format!(
                    "--post-search: '{v}' is not shortest, none or composer"
                ))
            }
        },
    };
    let verbose = args.has_switch("verbose");
    let threshold = match args.get("threshold") {
        None => super::Threshold::default(),
        Some(v) => match super::Threshold::parse(v) {
            Some(t) => t,
            None => return bad(&format!("--threshold: '{v}' is not kh or epsilon:<x>")),
        },
    };
    let limits = Limits {
        time: time_ms.map(Duration::from_millis),
        nodes,
        post_search,
        // Long searches report progress on stderr so a person knows it is alive.
        info_interval: Some(Duration::from_secs(5)),
        ..Limits::default()
    };
    let (result, pos) = super::with_search_stack(move || {
        let mut solver = Solver::new(hash_mb);
        solver.threshold = threshold;
        let stop = AtomicBool::new(false);
        let r = solver.solve(&pos, &limits, &stop, &mut |p| {
            let st = &p.stats;
            let best =
                p.pv.as_ref()
                    .map(|l| format!(", mate in {} proven, looking for shorter", l.len()))
                    .unwrap_or_default();
            eprintln!(
                "... {} s, {} nodes, {} nodes/s, hashfull {}{best}",
                st.time.as_secs(),
                st.nodes,
                st.nps(),
                st.hashfull
            );
        });
        (r, pos)
    });
    println!("{}", checkmate_reply(&result.outcome));
    let st = &result.stats;
    let mut info = format!(
        "nodes {} time_ms {} nps {} hashfull {} repetitions {}",
        st.nodes,
        st.time.as_millis(),
        st.nps(),
        st.hashfull,
        st.repetitions
    );
    match &result.outcome {
        Outcome::Mate(line) => {
            info.push_str(&format!(
                "\nlength {}\n{}",
                line.len(),
                japanese_line(&pos, line)
            ));
        }
        Outcome::NoMate => info.push_str("\nno mate"),
        Outcome::Unknown(r) => info.push_str(&format!("\nundecided: {r:?}")),
    }
    if verbose {
        println!("{info}");
    } else {
        eprintln!("{info}");
    }
    ExitCode::SUCCESS
}
