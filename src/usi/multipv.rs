//! The USI text of a root's other first moves (`MultiPV`) and of the refutations of a position
//! without mate: `info multipv k ...` lines as GUIs read them (`multipv k`, then `score mate N`
//! where a mate is proven, `pv` last: ShogiHome and ShogiGUI keep the latest line of each k),
//! and beside each an `info string` that says in words what is proven of it.

use super::reply::{info_line, status_score};
use crate::mate::first_moves::{FirstMove, Verdict};

/// `info ...` as `info multipv k ...`.
pub(super) fn with_multipv(info: &str, k: usize) -> String {
    match info.strip_prefix("info ") {
        Some(rest) => format!("info multipv {k} {rest}"),
        None => info.to_string(),
    }
}

/// The `info multipv k` line of a first move: a mate with its proven bound as the score and
/// its line; a check that does not mate with no score and its refuting defence after it; an
/// undecided check with no score and itself alone.
pub(super) fn first_move_info(k: usize, fm: &FirstMove) -> String {
    let line = match &fm.verdict {
        Verdict::Mate { line, status } => {
            info_line(&fm.stats, Some(status_score(status, false)), Some(line))
        }
        Verdict::NoMate(Some(r)) => info_line(&fm.stats, None, Some(&[fm.mv, r.defence])),
        Verdict::NoMate(None) | Verdict::Undecided(_) => info_line(&fm.stats, None, Some(&[fm.mv])),
    };
    with_multipv(&line, k)
}

/// What line `k` claims, in words (an `info string`).
pub(super) fn first_move_note(k: usize, fm: &FirstMove) -> String {
    let mv = fm.mv;
    match &fm.verdict {
        Verdict::Mate { status, .. } => format!("multipv {k}: {mv} mates: {}", status.describe()),
        Verdict::NoMate(Some(r)) => format!(
            "multipv {k}: {mv} does not mate (proven): {}{} refutes it, no mate after it",
            r.defence,
            if r.only_reply {
                ", the only reply,"
            } else {
                ""
            }
        ),
        Verdict::NoMate(None) => format!("multipv {k}: {mv} does not mate (proven)"),
        Verdict::Undecided(why) => format!("multipv {k}: {mv}: undecided ({why})"),
    }
}

/// The `info string` notes of a position proven to have no mate: each check with the defence
/// after which there is proven to be no mate, or why none was established.
pub(super) fn refutation_notes(moves: &[FirstMove]) -> Vec<String> {
    if moves.is_empty() {
        return vec!["no mate: the side to move has no check".into()];
    }
    let mut notes = vec![format!(
        "no mate: each of the {} checks is refuted by the defence after it (no mate after \
         the defence, proven)",
        moves.len()
    )];
    for fm in moves {
        notes.push(match &fm.verdict {
            Verdict::NoMate(Some(r)) => format!(
                "refutation {} {}{}",
                fm.mv,
                r.defence,
                if r.only_reply {
                    " (the only reply)"
                } else {
                    ""
                }
            ),
            Verdict::NoMate(None) | Verdict::Mate { .. } => {
                format!("refutation of {}: none established", fm.mv)
            }
            Verdict::Undecided(why) => {
                format!("refutation of {}: not established ({why})", fm.mv)
            }
        });
    }
    notes
}
