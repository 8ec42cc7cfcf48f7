//! `tsumugi perft` and `tsumugi moves`: the rules layer's move generators from the command
//! line (leaf counts to a depth, and the legal, checking or evading moves of one position).

use super::args::{parse_args, usage_error, wants_help};
use super::output::say;
use crate::shogi::{perft, MoveList, Position};
use std::process::ExitCode;
use std::time::Instant;

/// Usage of `tsumugi perft` (`--help`).
pub const PERFT_USAGE: &str = "\
usage: tsumugi perft <depth> [<SFEN>|startpos]
  Counts the leaf nodes of the legal-move tree to <depth> (1-12) from the position (default:
  the start position). Prints one '<move> <count>' line per root move, sorted, then
  'nodes <N> time_ms <T> nps <R>'.";

/// Usage of `tsumugi moves` (`--help`).
pub const MOVES_USAGE: &str = "\
usage: tsumugi moves [--kind legal|checks|evasions] <SFEN>|startpos
  Prints the legal moves of the side to move (or only its checks, or its evasions when in
  check), sorted, on one line.";

/// `tsumugi perft <depth> [<SFEN>|startpos]` with `rest`, the arguments after `perft`.
pub fn cmd_perft(rest: &[String]) -> ExitCode {
    const SUB: &str = "perft";
    if wants_help(rest) {
        say(PERFT_USAGE);
        return ExitCode::SUCCESS;
    }
    let args = match parse_args(rest, &[]) {
        Ok(a) => a,
        Err(e) => return usage_error(SUB, &e),
    };
    if let Err(e) = args.check_known(&["sfen"]) {
        return usage_error(SUB, &e);
    }
    let Some(depth) = args.positional.first() else {
        return usage_error(SUB, "perft needs a <depth>");
    };
    let depth: u32 = match depth.parse() {
        Ok(d) if (1..=12).contains(&d) => d,
        _ => return usage_error(SUB, "perft depth must be an integer from 1 to 12"),
    };
    let mut pos = match args.position(1) {
        Ok(p) => p.unwrap_or_else(Position::startpos),
        Err(e) => return usage_error(SUB, &e),
    };
    let start = Instant::now();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut root: Vec<(String, u64)> = Vec::with_capacity(list.len());
    let mut total = 0;
    for &m in list.as_slice() {
        pos.do_move(m);
        let n = perft(&mut pos, depth - 1);
        pos.undo_move();
        total += n;
        root.push((m.to_string(), n));
    }
    root.sort();
    for (m, n) in &root {
        say(format_args!("{m} {n}"));
    }
    let ms = start.elapsed().as_millis();
    let nps = (total as f64 / start.elapsed().as_secs_f64().max(1e-9)) as u64;
    say(format_args!("nodes {total} time_ms {ms} nps {nps}"));
    ExitCode::SUCCESS
}

/// `tsumugi moves [--kind legal|checks|evasions] <SFEN>|startpos` with `rest`, the arguments
/// after `moves`.
pub fn cmd_moves(rest: &[String]) -> ExitCode {
    const SUB: &str = "moves";
    if wants_help(rest) {
        say(MOVES_USAGE);
        return ExitCode::SUCCESS;
    }
    let args = match parse_args(rest, &[]) {
        Ok(a) => a,
        Err(e) => return usage_error(SUB, &e),
    };
    if let Err(e) = args.check_known(&["sfen", "kind"]) {
        return usage_error(SUB, &e);
    }
    let pos = match args.position(0) {
        Ok(Some(p)) => p,
        Ok(None) => return usage_error(SUB, "moves needs a position (SFEN or 'startpos')"),
        Err(e) => return usage_error(SUB, &e),
    };
    let mut list = MoveList::new();
    match args.get("kind").unwrap_or("legal") {
        "legal" => pos.legal_moves(&mut list),
        "checks" => pos.check_moves(&mut list),
        "evasions" => {
            if !pos.in_check() {
                return usage_error(SUB, "evasions: the side to move is not in check");
            }
            pos.legal_moves(&mut list)
        }
        k => {
            return usage_error(
                SUB,
                &format!("unknown --kind '{k}' (legal, checks or evasions)"),
            )
        }
    }
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    say(v.join(" "));
    ExitCode::SUCCESS
}
