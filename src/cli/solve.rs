//! `tsumugi solve`: solve one position and write the answer as `--format` asks (the USI reply
//! by default, then what is established about it). [`super::run`] sends `--batch` to the batch
//! command instead, which shares `solve`'s options and nothing else of this file.
//!
//! The position comes from SFEN words, `--sfen`, a file or standard input
//! ([`super::kit::input`]).

use super::args::{clip_message, usage_error, OutFormat, SolveArgs, EXIT_USAGE};
use super::kit::answer::{answer_text, json_answer, write_answer};
use super::kit::input::read_position;
use super::kit::search::{fit_hash_mb, hold_table, limits_of, solver_of};
use super::kit::stop::{install_signal_handler, EXIT_INTERRUPTED, STOP};
use super::output::{note, say};
use crate::mate::first_moves::{FirstMove, Verdict};
use crate::mate::{Outcome, SearchResult, UnknownReason};
use crate::shogi::notation::japanese_line;
use crate::shogi::Position;
use crate::usi::checkmate_reply;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// `tsumugi solve [options] <position>`.
pub fn cmd_solve(args: SolveArgs) -> ExitCode {
    const SUB: &str = "solve";
    for (given, name) in [
        (args.jobs.is_some(), "--jobs"),
        (args.ordered, "--ordered"),
        (args.skip_done.is_some(), "--skip-done"),
        (args.shard.is_some(), "--shard"),
    ] {
        if given {
            return usage_error(SUB, &format!("{name} is a batch option: it needs --batch"));
        }
    }
    if args.position.is_empty() && args.sfen.is_none() {
        return usage_error(
            SUB,
            "solve needs a position (SFEN, 'startpos', a file or '-')",
        );
    }
    let pos = match read_position(&args.position, &args.sfen) {
        Ok(p) => p,
        Err(e) => {
            note(format_args!(
                "error: {}\nhint: 'tsumugi solve --help' says what a position may be",
                clip_message(&e)
            ));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let format = args.format.unwrap_or(OutFormat::Usi);
    let threads = args
        .search
        .threads
        .map_or_else(crate::mate::default_threads, |t| t as usize);
    let limits = limits_of(&args.search, true);
    let mut opts = args.search.clone();
    opts.hash_mb = fit_hash_mb(opts.hash_mb, 1) as u64;
    install_signal_handler();
    let root = pos.clone();
    let multipv = args.multipv as usize;
    let time_limit = limits.time;
    let (result, hash_mb, first_moves) = crate::mate::with_search_stack(move || {
        let mut solver = solver_of(&opts, threads);
        hold_table(&mut solver);
        let r = solver.solve(&root, &limits, &STOP, &mut |p| {
            let st = &p.stats;
            if let Some(notice) = &p.notice {
                note(format_args!("... {:.1} s: {notice}", st.time.as_secs_f64()));
                return;
            }
            if let Some(news) = &p.news {
                // What was just established, as it happens; a solve of under a second is
                // summed up by its final report alone.
                if st.time < Duration::from_secs(1) {
                    return;
                }
                let t = st.time.as_secs_f64();
                match &p.pv {
                    Some(l) => note(format_args!(
                        "... {t:.1} s: {news} (line shown: {} plies)",
                        l.len()
                    )),
                    None => note(format_args!("... {t:.1} s: {news}")),
                }
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
        });
        let first_moves = first_moves_after(&mut solver, &root, &r, &limits, multipv, time_limit);
        (r, solver.hash_mb(), first_moves)
    });
    let interrupted = STOP.load(Ordering::SeqCst);
    let mut report = report_text(&pos, &result, hash_mb, interrupted);
    if let Some(fm) = &first_moves {
        report.push_str(&first_moves_text(&pos, &result, fm, false));
    }
    let input = if let Some(s) = &args.sfen {
        s.join(" ")
    } else {
        args.position.join(" ")
    };
    match format {
        OutFormat::Usi => {
            say(checkmate_reply(&result.outcome));
            if args.verbose {
                say(report);
            } else {
                note(report);
            }
        }
        OutFormat::Json => {
            let mut o = json_answer(&input, None, &pos, &result);
            if let Some(fm) = &first_moves {
                let key = if result.outcome == Outcome::NoMate {
                    "refutations"
                } else {
                    "first_moves"
                };
                o[key] = fm
                    .iter()
                    .map(|m| crate::review::first_moves::json(&pos, m))
                    .collect();
            }
            write_answer(OutFormat::Json, &o.to_string());
            note(report);
        }
        other => {
            let mut text = answer_text(other, &input, None, &pos, &result);
            if other == OutFormat::Ja {
                if let Some(fm) = &first_moves {
                    text.push_str(&first_moves_text(&pos, &result, fm, true));
                }
            }
            write_answer(other, text.trim_end());
            note(report);
        }
    }
    if interrupted {
        ExitCode::from(EXIT_INTERRUPTED)
    } else if args.search.max_plies > 0 {
        // The bounded question's answer, for scripts checking a stated length.
        match &result.outcome {
            Outcome::Mate(_) => ExitCode::SUCCESS,
            Outcome::NoMate | Outcome::Unknown(UnknownReason::NoMateWithin(_)) => {
                ExitCode::from(EXIT_NO_MATE_WITHIN)
            }
            Outcome::Unknown(_) => ExitCode::from(EXIT_UNDECIDED),
        }
    } else {
        ExitCode::SUCCESS
    }
}

/// After `solve`: with a mate and `multipv` 2 or more, the other checks (the root's remaining
/// time and nodes for them all, see `mate::Solver::other_first_moves`), at most `multipv - 1`
/// of them, best first; with a proven "no mate", a refutation of every check. `None` when
/// there is nothing to add.
fn first_moves_after(
    solver: &mut crate::mate::Solver,
    root: &Position,
    r: &SearchResult,
    limits: &crate::mate::Limits,
    multipv: usize,
    time_limit: Option<Duration>,
) -> Option<Vec<FirstMove>> {
    if r.defender_root || STOP.load(Ordering::SeqCst) {
        return None;
    }
    let left = crate::mate::Limits {
        time: time_limit.map(|t| t.saturating_sub(r.stats.time)),
        nodes: limits.nodes.map(|n| n.saturating_sub(r.stats.nodes)),
        info_interval: None,
        ..limits.clone()
    };
    match &r.outcome {
        Outcome::Mate(line) if multipv > 1 && !line.is_empty() => {
            // Each mate found is told as it comes once the search of the others has run a
            // second (a quick one is summed up by the report alone).
            let start = std::time::Instant::now();
            let mut all = solver.other_first_moves(
                root,
                Some(line[0]),
                r.stats.nodes,
                &left,
                &STOP,
                &mut |fm| {
                    if matches!(fm.verdict, Verdict::Mate { .. })
                        && start.elapsed() >= Duration::from_secs(1)
                    {
                        note(format_args!(
                            "... another mating first move: {}",
                            crate::review::first_moves::text_en(root, fm)
                        ));
                    }
                },
            );
            all.truncate(multipv - 1);
            Some(all)
        }
        Outcome::NoMate => Some(solver.refutations(root, &left, &STOP)),
        _ => None,
    }
}

/// The other first moves (numbered from 2, the best line being 1) or the refutations, as
/// lines to add to the report: in English, or in Japanese (`ja`).
fn first_moves_text(pos: &Position, r: &SearchResult, fms: &[FirstMove], ja: bool) -> String {
    use crate::review::first_moves::{refutations_heading, text_en, text_ja};
    let mut out = String::new();
    if r.outcome == Outcome::NoMate {
        let (en, jp) = refutations_heading(fms.len());
        out.push_str(&format!("\n{}", if ja { jp } else { en }));
        for fm in fms {
            let t = if ja {
                text_ja(pos, fm)
            } else {
                text_en(pos, fm)
            };
            out.push_str(&format!("\n  {t}"));
        }
        return out;
    }
    out.push_str(if ja {
        "\n他の初手 (2から、最善手順が1):"
    } else {
        "\nother first moves (from 2; the best line is 1):"
    });
    for (i, fm) in fms.iter().enumerate() {
        let t = if ja {
            text_ja(pos, fm)
        } else {
            text_en(pos, fm)
        };
        out.push_str(&format!("\n  {}. {t}", i + 2));
    }
    out
}

/// Exit status of `solve --max-plies N` when there is no mate within N plies (proven).
pub const EXIT_NO_MATE_WITHIN: u8 = 1;

/// Exit status of `solve --max-plies N` when a time or node limit ended the search undecided.
pub const EXIT_UNDECIDED: u8 = 3;

/// The human part of `solve`'s answer: statistics (with the table size used), what is established, the line in Japanese.
fn report_text(pos: &Position, r: &SearchResult, hash_mb: usize, interrupted: bool) -> String {
    let st = &r.stats;
    let mut info = format!(
        "nodes {} time_ms {} nps {} hashfull {} repetitions {} hash_mb {hash_mb}",
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
            if r.status.as_ref().is_some_and(|s| s.composed()) {
                info.push_str(" (composer's count)");
            }
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
        Outcome::Unknown(why @ UnknownReason::NoMateWithin(_)) => {
            info.push_str(&format!("\n{why}"));
        }
        Outcome::Unknown(why) => info.push_str(&format!("\nundecided: {why}")),
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An undecided answer is said in words, not in debug formatting
    /// (`undecided: Time`).
    #[test]
    fn undecided_is_said_in_words() {
        let pos = Position::startpos();
        let r = SearchResult::unknown(UnknownReason::Time);
        let text = report_text(&pos, &r, 16, false);
        assert!(text.ends_with("undecided: time limit reached"), "{text}");
    }
}
