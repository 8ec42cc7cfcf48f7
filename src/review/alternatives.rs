//! 余詰: at each attacker move of the main line, every other check that mates within the plies
//! the line has left (told apart: 最終手余詰 at the last ply, and 手順前後/迂回 where the other
//! mate passes through a later position of the line).

use super::budget::{mate_within, Checker};
use super::report::plies;
use super::report::{Finding, FindingKind, Undecided};
use super::Question;
use crate::mate::{Outcome, PostSearch};
use crate::shogi::{Move, Position};
use std::time::Duration;

/// The main line as the attacker alternatives see it: the keys of its positions (before each
/// ply and after the last), and the plies its composers' count omitted.
pub(super) struct Main<'a> {
    pub(super) keys: &'a [u64],
    pub(super) omitted: usize,
}

/// One attacker alternative `q` (a check other than the line's at `p`, giving `next`): a mate
/// within the line's remaining `rest` plies is 余詰 (see the module's comment).
pub(super) fn attacker_alternative(
    c: &mut Checker,
    (p, next): (&Position, &Position),
    q: &Question,
    share: Option<Duration>,
    rest: usize,
    main: &Main,
) {
    let (omitted, keys) = (main.omitted, main.keys);
    if rest == 1 {
        // The line's last move: an alternative mates at once or not at all (no search).
        if next.in_check() && next.legal_move_list().is_empty() {
            c.report.add(Finding::new(
                FindingKind::LastMoveAlternative,
                q.ply,
                p,
                &[q.alt],
                "another mating move at the last ply (最終手余詰, tolerated)",
                "最終手で別の詰め手あり (最終手余詰、許容)",
            ));
        }
        return;
    }
    // Strict limit: the line's rest plus the plies its composers' count omitted (an
    // alternative mating within that strict count but not within `rest` is undecided in
    // composer count).
    let strict_limit = (rest - 1 + omitted) as u32;
    let r = c.solve(next, share, Some(strict_limit), PostSearch::Shortest);
    if let Some(alt_line) = mate_within(&r, strict_limit) {
        let full: Vec<Move> = std::iter::once(q.alt)
            .chain(alt_line.iter().copied())
            .collect();
        // A line that passes through a later position of the main line is the same solution
        // in another order (手順前後 / 迂回).
        let mut pp = next.clone();
        let mut joins = None;
        for (i, &m) in alt_line.iter().enumerate() {
            if let Some(j) = keys.iter().skip(q.ply + 1).position(|&k| k == pp.key()) {
                joins = Some((i, q.ply + 1 + j));
                break;
            }
            pp.do_move(m);
        }
        if joins.is_none() {
            if let Some(j) = keys.iter().skip(q.ply + 1).position(|&k| k == pp.key()) {
                joins = Some((alt_line.len(), q.ply + 1 + j));
            }
        }
        if let Some((_, j)) = joins {
            c.report.add(Finding::new(
                FindingKind::Transposition,
                q.ply,
                p,
                &full,
                &format!(
                    "reaches the main line's position before ply {} (手順前後/迂回)",
                    j + 1
                ),
                &format!("本手順の{}手目の前の局面に合流 (手順前後/迂回)", j + 1),
            ));
        } else if alt_line.len() < rest {
            c.report.add(Finding::new(
                FindingKind::Alternative,
                q.ply,
                p,
                &full,
                &format!(
                    "another mate in {} from here, the line needs {rest} (余詰)",
                    plies(full.len())
                ),
                &format!(
                    "ここから{}手の別の詰みあり、本手順は{rest}手 (余詰)",
                    full.len()
                ),
            ));
        } else {
            c.report.undecided.push(Undecided::new(
                q.ply,
                p,
                &full,
                &format!(
                    "mates in {} (strict count); whether that is within the line's {rest} in \
                     composer count (無駄合 omitted) was not decided",
                    plies(full.len())
                ),
                &format!(
                    "すべての合駒を数えて{}手で詰む。無駄合を除いて本手順の{rest}手以内かは未確定",
                    full.len()
                ),
            ));
        }
        return;
    }
    match &r.outcome {
        Outcome::NoMate => {}
        Outcome::Unknown(crate::mate::UnknownReason::NoMateWithin(_)) => {}
        Outcome::Unknown(why) => c.report.undecided.push(Undecided::new(
            q.ply,
            p,
            &[q.alt],
            &format!("whether this check mates within {}: {why}", plies(rest)),
            &format!("この王手が{rest}手以内に詰むか: {}", why.japanese()),
        )),
        Outcome::Mate(_) => c.report.undecided.push(Undecided::new(
            q.ply,
            p,
            &[q.alt],
            "mate proven but its length within the limit was not established",
            "詰みは証明したが、手数が制限以内かは未確定",
        )),
    }
}
