//! The engine's replies: the only place that writes the text of `checkmate ...` and
//! `bestmove ...` answers and of `info time ...` lines, and that turns a search result into
//! them together with the `info string` notes saying what the answer establishes.

use crate::mate::{MateStatus, Outcome, SearchResult, Stats, UnknownReason};
use crate::shogi::{Move, Position};

/// Text of the USI `checkmate` reply for a mating line (`checkmate` alone for a side to move
/// that is checkmated already).
pub fn checkmate_line(line: &[Move]) -> String {
    let mut s = String::from("checkmate");
    for m in line {
        s.push(' ');
        s.push_str(&m.to_string());
    }
    s
}

/// Text of the USI `checkmate` reply for an outcome.
pub fn checkmate_reply(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Mate(line) => checkmate_line(line),
        Outcome::NoMate => "checkmate nomate".to_string(),
        Outcome::Unknown(_) => "checkmate timeout".to_string(),
    }
}

/// Which answer a search owes: `checkmate ...` (`go mate`) or `bestmove ...` (plain `go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum JobKind {
    /// `go mate`: a `checkmate` line.
    Mate,
    /// A plain `go`: a `bestmove` line.
    Move,
}

/// The `info time .. nodes .. nps .. hashfull ..` line of a search, with `score mate <N>` when
/// a mate within N plies is proven (`-N` when the side to move is the one mated) and `pv` when
/// a mating line is known.
pub(super) fn info_line(stats: &Stats, score: Option<i64>, pv: Option<&[Move]>) -> String {
    let mut s = format!(
        "info time {} nodes {} nps {} hashfull {}",
        stats.time.as_millis(),
        stats.nodes,
        stats.nps(),
        stats.hashfull
    );
    if let Some(n) = score {
        s.push_str(&format!(" score mate {n}"));
    }
    if let Some(pv) = pv.filter(|pv| !pv.is_empty()) {
        s.push_str(" pv");
        for m in pv {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

/// The USI `score mate` of a mate within `plies`: negative when the side to move is the one
/// being mated.
pub(super) fn mate_score(plies: u32, defender_root: bool) -> i64 {
    if defender_root {
        -(plies as i64)
    } else {
        plies as i64
    }
}

/// The USI `score mate` of what `st` establishes: its proven bound `upper` (the minimum once
/// proven). Never the length of the line shown: a line whose defences are not proven longest
/// can be shorter than any proven bound (木星の旅: a 345-ply line under a proven bound of 511,
/// with 435 the minimum), and saying `score mate 345` would claim a mate in 345.
pub(super) fn status_score(st: &MateStatus, defender_root: bool) -> i64 {
    mate_score(st.upper, defender_root)
}

/// What a search established, as far as the reply tells it.
pub(super) enum Answer {
    /// A mating line (empty: the side to move is checkmated already).
    Mate(Vec<Move>),
    /// Proven: no mate.
    NoMate,
    /// Undecided.
    Unknown,
}

/// The answer line a search owes: `checkmate ...` for `go mate`, `bestmove ...` for a plain
/// `go`.
pub(super) fn answer_text(kind: JobKind, a: &Answer) -> String {
    match (kind, a) {
        (JobKind::Mate, Answer::Mate(line)) => checkmate_line(line),
        (JobKind::Mate, Answer::NoMate) => "checkmate nomate".into(),
        (JobKind::Mate, Answer::Unknown) => "checkmate timeout".into(),
        // A defender-to-move root's line starts with the mover's own best defence.
        (JobKind::Move, Answer::Mate(line)) if !line.is_empty() => format!("bestmove {}", line[0]),
        (JobKind::Move, _) => "bestmove resign".into(),
    }
}

/// Turns the result of a search for a `kind` answer from `pos` (or the message of its panic)
/// into notes (`info string`), the final `info` line and the answer.
pub(super) fn report(
    kind: JobKind,
    pos: &Position,
    res: Result<SearchResult, String>,
) -> (Vec<String>, String, String) {
    let mut notes = Vec::new();
    let r = match res {
        Ok(r) => r,
        Err(e) => {
            notes.push(format!("error: the search failed: {e}"));
            let info = info_line(&Stats::default(), None, None);
            return (notes, info, answer_text(kind, &Answer::Unknown));
        }
    };
    if r.defender_root {
        let why = if pos.king_square(pos.side_to_move().flip()).is_none() {
            "its opponent has no king"
        } else {
            "it is in check and cannot mate; RootIsAndNodeIfChecked"
        };
        notes.push(format!(
            "the side to move is the one being mated ({why}): searched as the defender; the \
             line starts with its move"
        ));
    }
    // The mate layer replays and verifies every line it returns (`Outcome::Mate` and
    // `best_mate` alike), so the lines are printed as they come.
    let best = |notes: &mut Vec<String>| -> Option<Vec<Move>> {
        let line = r.best_mate.clone()?;
        notes.push("mate found before the search ended (maybe not the shortest)".into());
        Some(line)
    };
    let answer = match &r.outcome {
        Outcome::Mate(line) => {
            if let Some(st) = &r.status {
                // What is established (minimal or a bound; defences longest or not).
                notes.push(st.describe());
            }
            if line.is_empty() {
                notes.push("the side to move is checkmated already (mate in 0)".into());
            }
            Answer::Mate(line.clone())
        }
        Outcome::NoMate => Answer::NoMate,
        Outcome::Unknown(reason) => {
            match reason {
                UnknownReason::Stopped | UnknownReason::Time => {}
                UnknownReason::Unverified(_) => notes.push(format!("error: {reason}")),
                UnknownReason::Nodes | UnknownReason::PathCap(_) => notes.push(reason.to_string()),
                UnknownReason::NoMateWithin(n) => {
                    // `checkmate nomate` is 不詰 (no mate) to a GUI, and `MaxPlies` stays set in a GUI's
                    // engine settings from one problem to the next: a forgotten limit would
                    // make it declare 不詰 of every longer problem. So the answer is "undecided"
                    // and the bounded one is said here.
                    notes.push(reason.to_string());
                    notes.push(format!(
                        "MaxPlies {n}: answered checkmate timeout, since mates longer than {n} \
                         plies were not searched (not a proof that there is no mate)"
                    ));
                }
            }
            best(&mut notes).map_or(Answer::Unknown, Answer::Mate)
        }
    };
    let pv = match &answer {
        Answer::Mate(l) => Some(l.as_slice()),
        _ => None,
    };
    let score = pv
        .and(r.status.as_ref())
        .map(|st| status_score(st, r.defender_root));
    let info = info_line(&r.stats, score, pv);
    (notes, info, answer_text(kind, &answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkmate_replies() {
        assert_eq!(checkmate_line(&[]), "checkmate");
        let m = Move::from_usi("G*3i").unwrap();
        assert_eq!(checkmate_reply(&Outcome::Mate(vec![m])), "checkmate G*3i");
        assert_eq!(checkmate_reply(&Outcome::NoMate), "checkmate nomate");
    }

    /// The score is the proven bound, whatever the length of the line shown.
    #[test]
    fn the_score_is_the_proven_bound_not_the_line() {
        let st = |upper, lower, longest_defences, line_len| MateStatus {
            upper,
            lower,
            longest_defences,
            line_len,
            composer_len: None,
        };
        // A line shorter than the bound, its defences not proven longest.
        assert_eq!(status_score(&st(511, 1, false, 345), false), 511);
        // A line longer than the bound (not read to the end before the search ended).
        assert_eq!(status_score(&st(435, 435, false, 457), false), 435);
        // Established: the line's length is the minimum.
        assert_eq!(status_score(&st(435, 435, true, 435), false), 435);
        assert_eq!(status_score(&st(9, 9, true, 9), true), -9);
    }
}
