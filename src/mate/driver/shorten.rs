//! Shortcut passes over a minimax line (`line::shorten`): a few plies of search from each
//! attacker position of the line for a mate shorter than its remainder there, against the
//! table's proofs, then a new reading; repeated while a pass finds something. Microcosmos
//! (1525 plies): the first proof's line of 1581 plies became 1525 in one pass of 0.1 s (761
//! positions improved, 27,612 searched), where the rounds (`rounds`) took 124 s to get there,
//! 62 s of it in the first round (measured when the passes came; before them, at `55a9dbe`,
//! 1525 came at 147.7 s).

use super::reading::{publish, read_line};
use super::Proven;
use crate::mate::clock::Instant;
use crate::mate::dfpn::Search;
use crate::mate::line;
use crate::shogi::Position;

/// Shortest line given shortcut passes (see `shorten_line`).
const SHORTCUT_MIN_LINE: usize = 64;

/// Plies searched from each attacker position of the line for a shortcut (see
/// `line::shortcut`): passes start at the first depth and go two plies deeper while a pass finds
/// nothing, up to the last.
const SHORTCUT_DEPTHS: std::ops::RangeInclusive<u32> = 4..=8;

/// Step: shortens a minimax line (`p.bounded`) by shortcut passes (`line::shorten`), reading
/// the line again after each pass that stored a shorter proof; each shorter line read is a
/// proven bound and is published. A pass that finds nothing is repeated two plies deeper, up to the last of
/// `SHORTCUT_DEPTHS`; all the passes of one call together visit at most as many positions as
/// the search has nodes so far (a pass visit costs about a third of a search node), so they
/// take at most about a third of the time spent.
///
/// Why deeper: 雪月花 (famous.tsv row 217, the set's length 353, KomoringHeights' 30 s bound;
/// 1 thread, 1024 MB) is first proven at 523 plies. Passes of 4 plies took it to 399 and found
/// no more, and the round within 397 did not finish in the remaining 25 s; 6 plies reached 351
/// (two passes, 0.16 s), 8 plies 319 (two passes, 0.7 s), where KomoringHeights' rounds reach
/// 353 at 10.7 s and 317 at 26 s. Its detours are ladders of 30 plies on the edge file where
/// one of 6 does, whose shorter form needs 6 or 8 plies to rejoin the line.
pub(super) fn shorten_line(s: &mut Search, pos: &mut Position, p: &mut Proven, minimax: &mut bool) {
    let (bounded, lower) = (p.bounded, p.lower);
    let (line, upper) = (&mut p.line, &mut p.upper);
    // On a short line the rounds are cheap and find the same shortcuts; the passes' own cost
    // (about a millisecond each with the reading after them, not counted as nodes) was 10% of
    // mate3-11's time at 3 s a problem with no threshold, and 8% of extra1-9's at 32 plies.
    if !bounded || line.len() < SHORTCUT_MIN_LINE {
        return;
    }
    let mut depth = *SHORTCUT_DEPTHS.start();
    let mut budget = s.nodes() as usize;
    while budget > 0 {
        let t0 = Instant::now();
        let pass = line::shorten(s, pos, line, depth, budget);
        budget = budget.saturating_sub(pass.visits);
        log::debug!(
            "shortcut pass of {depth} plies over {} plies: {} improved, {} positions{}, {} ms",
            line.len(),
            pass.improved,
            pass.visits,
            if pass.exhausted {
                " (budget spent)"
            } else {
                ""
            },
            t0.elapsed().as_millis()
        );
        if pass.stopped {
            return;
        }
        // A pass shortened the line only if the reading after it is shorter. Improved
        // positions off the line (or ties) leave it as long as it was: that is a pass that
        // found nothing for the line, so the next one goes deeper, as after a pass that
        // improved nothing. Ending the passes there instead left 雪月花 (famous.tsv row 217)
        // at 369 plies with two threads in one run of two: its 6-ply pass improved 4
        // positions and the line stayed 369, so the 8-ply pass that took the other run from
        // 367 to 343 (106 improved, 0.6 s) never ran, and the round within 367 then used the
        // remaining 27 s unfinished.
        let shortened = pass.improved > 0
            && match read_line(s, pos, minimax) {
                Ok((l, true)) if l.len() < line.len() => {
                    *upper = (*upper).min(l.len());
                    *line = l;
                    publish(
                        s,
                        line,
                        *upper,
                        lower,
                        format!("mate within {upper} plies proven"),
                    );
                    true
                }
                Ok((_, true)) => false,
                Ok((_, false)) => return,
                Err(e) => {
                    log::info!("no line read after a shortcut pass: {e}");
                    return;
                }
            };
        if !shortened {
            if depth >= *SHORTCUT_DEPTHS.end() {
                return;
            }
            depth += 2;
        }
    }
}
