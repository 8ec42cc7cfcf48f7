//! `tsumugi perft` and `tsumugi moves`: the rules layer's move generators from the command
//! line (leaf counts to a depth, and the legal, checking or evading moves of one position).

use super::args::{sfen_position, usage_error, MoveKind, MovesArgs, PerftArgs};
use super::output::say;
use crate::shogi::{perft, MoveList, Position};
use std::process::ExitCode;
use std::time::Instant;

/// `tsumugi perft <depth> [<SFEN>|startpos]`.
pub fn cmd_perft(args: PerftArgs) -> ExitCode {
    const SUB: &str = "perft";
    let depth = args.depth;
    let mut pos = match sfen_position(&args.position, &args.sfen) {
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

/// `tsumugi moves [--kind legal|checks|evasions] <SFEN>|startpos`.
pub fn cmd_moves(args: MovesArgs) -> ExitCode {
    const SUB: &str = "moves";
    let pos = match sfen_position(&args.position, &args.sfen) {
        Ok(Some(p)) => p,
        Ok(None) => return usage_error(SUB, "moves needs a position (SFEN or 'startpos')"),
        Err(e) => return usage_error(SUB, &e),
    };
    let mut list = MoveList::new();
    match args.kind {
        MoveKind::Legal => pos.legal_moves(&mut list),
        MoveKind::Checks => pos.check_moves(&mut list),
        MoveKind::Evasions => {
            if !pos.in_check() {
                return usage_error(SUB, "evasions: the side to move is not in check");
            }
            pos.legal_moves(&mut list)
        }
    }
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    say(v.join(" "));
    ExitCode::SUCCESS
}
