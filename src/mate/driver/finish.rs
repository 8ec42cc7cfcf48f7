//! Finishing a root's answer once the search for it is over: settle whether every defence of
//! the line is a longest one (re-reading the line of the proven length when it is not known),
//! state what is established (`MateStatus`), remember the answer for the next solve of the same
//! position, and, if asked, present it as composers count it.

use super::{Proven, Remembered};
use crate::mate::dfpn::Search;
use crate::mate::line;
use crate::mate::{Limits, MateStatus, Outcome, PostSearch};
use crate::shogi::{Move, Position};

/// Step: the answer from what the solve proved (`p`). Why each part: a line is only called
/// established when its length is the proven minimum and every defence on it is a longest one;
/// the answer is kept in `last` so that a warm table never makes a later answer worse (see
/// `run_root`); the composers' presentation is replayed before it replaces the strict line.
pub(super) fn finish(
    s: &mut Search,
    pos: &mut Position,
    limits: &Limits,
    mut p: Proven,
    last: &mut Option<Remembered>,
) -> (Outcome, Option<MateStatus>) {
    settle_defences(s, pos, &mut p);
    let Proven {
        line,
        bounded,
        upper,
        lower,
        longest_defences,
        ..
    } = p;
    let mut status = MateStatus {
        upper: upper as u32,
        lower: lower as u32,
        longest_defences,
        line_len: line.len() as u32,
        composer_len: None,
    };
    s.set_reported(Some((line.clone(), status.clone())));
    *last = Some(Remembered {
        key: pos.key(),
        attacker: s.attacker(),
        line: line.clone(),
        bounded,
        status: status.clone(),
    });
    if limits.post_search == PostSearch::Composer && s.aborted().is_none() {
        let composed = line::compose(s, pos, &line, 0);
        match line::verify_composed(pos, &composed, s.attacker()) {
            Ok(()) if s.aborted().is_none() => {
                if composed != line {
                    // Replaced defences were chosen by reading, not proven longest.
                    status.longest_defences = false;
                    status.composer_len = Some(composed.len() as u32);
                }
                return (Outcome::Mate(composed), Some(status));
            }
            Ok(()) => log::info!("stopped while composing; returning the strict line"),
            Err(e) => log::warn!("composed line failed verification ({e}); strict line kept"),
        }
    }
    (Outcome::Mate(line), Some(status))
}

/// Every defence of the line a longest one: read with a proven refutation of every shorter
/// mate at each defence (needs the minimum), or no choice at any defence. When the minimum is
/// proven and that is not so, the line of exactly the proven length is read again with the
/// longest defences (`line::Target::Exactly`), so the answer shows the minimum's own line.
fn settle_defences(s: &mut Search, pos: &mut Position, p: &mut Proven) {
    p.longest_defences = p.longest_defences || forced_defences(pos, &p.line, p.or_root);
    if p.lower >= p.upper && !p.longest_defences && p.bounded && s.aborted().is_none() {
        p.longest_defences = line::defences_longest(s, pos, &p.line, p.upper);
    }
    let established = p.longest_defences && p.line.len() == p.upper;
    if p.lower >= p.upper && !established && s.aborted().is_none() {
        let exact_line = line::walk(s, pos, line::Target::Exactly(p.upper))
            .and_then(|(l, exact)| line::verify(pos, &l, s.attacker()).map(|()| (l, exact)));
        match exact_line {
            Ok((l, exact)) => {
                p.line = l;
                p.bounded = true;
                p.longest_defences = exact;
            }
            Err(e) => log::info!(
                "could not read a line of the proven length {}: {e}",
                p.upper
            ),
        }
    }
}

/// Whether the defender has a single legal move at every one of its turns on `line` (then every
/// defence is trivially the longest).
fn forced_defences(root: &Position, line: &[Move], or_root: bool) -> bool {
    let mut pos = root.clone();
    for (i, &m) in line.iter().enumerate() {
        let defender_moves = (i % 2 == 1) == or_root;
        if defender_moves && pos.legal_move_list().len() != 1 {
            return false;
        }
        pos.do_move(m);
    }
    true
}
