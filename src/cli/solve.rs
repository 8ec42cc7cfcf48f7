//! `tsumugi solve`: solve one position and print the answer as the USI reply would be, then
//! what is established about it.

use super::args::{parse_args, usage_error, wants_help};
use super::output::{note, say};
use crate::mate::{Limits, Outcome, PostSearch, SearchResult, Solver, Threshold};
use crate::shogi::notation::japanese_line;
use crate::usi::checkmate_reply;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Usage of `tsumugi solve` (`--help`).
pub const SOLVE_USAGE: &str = "\
usage: tsumugi solve [--time-ms T] [--nodes N] [--hash-mb M] [--threads N]
                     [--post-search shortest|none|composer] [--threshold epsilon:<x>]
                     [--no-defender-root] [--verbose] <SFEN>|startpos
  Prints 'checkmate <moves>', 'checkmate nomate' or 'checkmate timeout' on stdout, then nodes,
  time, nps, hashfull, what is established about the mate (shortest proven, or the interval
  known; whether every defence on the line is a longest one) and the line in Japanese notation
  on stderr (on stdout with --verbose).
  There is no time or node limit by default: the search runs until it has an answer. Ctrl-C
  (SIGINT, SIGTERM, SIGHUP) stops it and prints the best line proven so far with what is
  established about it; a second Ctrl-C exits at once.
  --hash-mb: table size (default 256). --threads: search threads over the one table (default:
  the cores available, at most 8; 1 gives the same search node for node on every run).
  --post-search: after the first proof, the shortest mate (default), nothing, or the shortest
  shown as composers count it.
  --threshold epsilon:<x> sets the 1+ε trick's ε of the child thresholds (default 0.5).
  --no-defender-root: never search the side to move as the defender (by default a side to
  move in check that cannot mate, or whose opponent has no king, is the one being mated).
  Every 5 s a progress line goes to stderr, and after the first second a line each time a
  shorter mate or a lower bound is proven.
  Exit status: 0 for an answer, 2 for bad arguments or a bad SFEN, 130 when interrupted.";

/// Exit status after Ctrl-C (or SIGTERM/SIGHUP), as shells report 128 + SIGINT.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Raised by the signal handler: the running search stops and its answer is printed.
static STOP: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C stop the search instead of killing the process (a proven mate would be lost);
/// a second one exits at once.
#[cfg(not(target_arch = "wasm32"))]
fn install_signal_handler() {
    let r = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED as i32);
        }
    });
    if let Err(e) = r {
        log::warn!("cannot catch Ctrl-C ({e}); it will end the search without an answer");
    }
}

/// WebAssembly has no signals (the command line is not used there; it compiles so that the
/// bindings can share `bench`'s positions).
#[cfg(target_arch = "wasm32")]
fn install_signal_handler() {}

/// `tsumugi solve [options] <SFEN>|startpos` with `rest`, the arguments after `solve`.
pub fn cmd_solve(rest: &[String]) -> ExitCode {
    const SUB: &str = "solve";
    if wants_help(rest) {
        say(SOLVE_USAGE);
        return ExitCode::SUCCESS;
    }
    let args = match parse_args(rest, &["verbose", "no-defender-root"]) {
        Ok(a) => a,
        Err(e) => return usage_error(SUB, &e),
    };
    let known = [
        "time-ms",
        "nodes",
        "hash-mb",
        "threads",
        "post-search",
        "threshold",
        "sfen",
    ];
    if let Err(e) = args.check_known(&known) {
        return usage_error(SUB, &e);
    }
    let pos = match args.position(0) {
        Ok(Some(p)) => p,
        Ok(None) => return usage_error(SUB, "solve needs a position (SFEN or 'startpos')"),
        Err(e) => return usage_error(SUB, &e),
    };
    let time_ms: Option<u64> = match args.parse_num("time-ms") {
        Ok(v) => v,
        Err(e) => return usage_error(SUB, &e),
    };
    let nodes: Option<u64> = match args.parse_num("nodes") {
        Ok(v) => v,
        Err(e) => return usage_error(SUB, &e),
    };
    let hash_mb: usize = match args.parse_num("hash-mb") {
        Ok(v) => v.unwrap_or(256),
        Err(e) => return usage_error(SUB, &e),
    };
    if hash_mb == 0 || hash_mb > 1 << 20 {
        return usage_error(SUB, "--hash-mb must be between 1 and 1048576");
    }
    let threads: usize = match args.parse_num("threads") {
        Ok(v) => v.unwrap_or(crate::mate::default_threads()),
        Err(e) => return usage_error(SUB, &e),
    };
    if threads == 0 || threads > crate::mate::MAX_THREADS {
        let e = format!(
            "--threads must be between 1 and {}",
            crate::mate::MAX_THREADS
        );
        return usage_error(SUB, &e);
    }
    let post_search = match args.get("post-search") {
        None => PostSearch::Shortest,
        Some(v) => match PostSearch::parse(v) {
            Some(p) => p,
            None => {
                let e = format!("--post-search: '{v}' is not shortest, none or composer");
                return usage_error(SUB, &e);
            }
        },
    };
    let threshold = match args.get("threshold") {
        None => Threshold::default(),
        Some(v) => match Threshold::parse(v) {
            Some(t) => t,
            None if v == "kh" => {
                let e = "--threshold kh was dropped: with the shortest-mate search it could loop \
                         without end (issue 20); use epsilon:<x>";
                return usage_error(SUB, e);
            }
            None => {
                let e = format!("--threshold: '{v}' is not epsilon:<x> (0 < x <= 10)");
                return usage_error(SUB, &e);
            }
        },
    };
    let verbose = args.has_switch("verbose");
    let limits = Limits {
        time: time_ms.map(Duration::from_millis),
        nodes,
        post_search,
        // Long searches report progress on stderr so a person knows it is alive.
        info_interval: Some(Duration::from_secs(5)),
        root_is_and_if_checked: !args.has_switch("no-defender-root"),
        ..Limits::default()
    };
    install_signal_handler();
    let root = pos.clone();
    let result = crate::mate::with_search_stack(move || {
        let mut solver = Solver::new(hash_mb);
        solver.threshold = threshold;
        solver.set_threads(threads);
        solver.solve(&root, &limits, &STOP, &mut |p| {
            let st = &p.stats;
            if let Some(news) = &p.news {
                // What was just established, as it happens; a solve of under a second is
                // summed up by its final report alone.
                if st.time < Duration::from_secs(1) {
                    return;
                }
                let line = p.pv.as_ref().map_or(0, |l| l.len());
                note(format_args!(
                    "... {:.1} s: {news} (line shown: {line} plies)",
                    st.time.as_secs_f64()
                ));
                return;
            }
            let best = p
                .status
                .as_ref()
                .map(|s| {
                    format!(
                        ", mate within {} plies proven, looking for shorter",
                        s.upper
                    )
                })
                .unwrap_or_default();
            note(format_args!(
                "... {} s, {} nodes, {} nodes/s, hashfull {}{best}",
                st.time.as_secs(),
                st.nodes,
                st.nps(),
                st.hashfull
            ));
        })
    });
    let interrupted = STOP.load(Ordering::SeqCst);
    say(checkmate_reply(&result.outcome));
    let report = report_text(&pos, &result, interrupted);
    if verbose {
        say(report);
    } else {
        note(report);
    }
    if interrupted {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    }
}

/// The human part of `solve`'s answer: statistics, what is established, the line in Japanese.
fn report_text(pos: &crate::shogi::Position, r: &SearchResult, interrupted: bool) -> String {
    let st = &r.stats;
    let mut info = format!(
        "nodes {} time_ms {} nps {} hashfull {} repetitions {}",
        st.nodes,
        st.time.as_millis(),
        st.nps(),
        st.hashfull,
        st.repetitions
    );
    if interrupted {
        info.push_str("\ninterrupted: the answer is what was established before the signal");
    }
    if r.defender_root {
        info.push_str(
            "\nthe side to move is the one being mated: searched as the defender \
             (the line starts with its move)",
        );
    }
    match &r.outcome {
        Outcome::Mate(line) => {
            info.push_str(&format!("\nlength {}", line.len()));
            if let Some(status) = &r.status {
                info.push('\n');
                info.push_str(&status.describe());
            }
            if !line.is_empty() {
                info.push('\n');
                info.push_str(&japanese_line(pos, line));
            }
        }
        Outcome::NoMate => info.push_str("\nno mate (proven)"),
        Outcome::Unknown(why) => info.push_str(&format!("\nundecided: {why}")),
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 20, item 7: an undecided answer is said in words, not in debug formatting
    /// (`undecided: Time`).
    #[test]
    fn undecided_in_words_item7() {
        let pos = crate::shogi::Position::startpos();
        let r = SearchResult::unknown(crate::mate::UnknownReason::Time);
        let text = report_text(&pos, &r, false);
        assert!(text.ends_with("undecided: time limit reached"), "{text}");
    }
}
