//! 変化別詰: in a shorter variation one level off the main line (an evasion that the attacker
//! mates sooner than the line's own defence), another first check of the attacker that also
//! mates within the variation's length. Noted, tolerated by the modern convention.

use super::budget::{mate_within, Checker};
use super::report::plies;
use super::report::{Finding, FindingKind, Undecided};
use crate::mate::{Outcome, PostSearch};
use crate::shogi::{Move, MoveList, Position};

/// 変化別詰: in each shorter variation `(ply, evasion, its shortest line)`, another first check
/// that mates within the variation's length.
pub(super) fn variation_alternatives(
    c: &mut Checker,
    along: &[Position],
    vars: &[(usize, Move, Vec<Move>)],
) {
    let mut asks = vec![];
    for (ply, e, l) in vars {
        let mut p = along[*ply].clone();
        p.do_move(*e);
        let mut list = MoveList::new();
        p.check_moves(&mut list);
        for &m in list.as_slice() {
            if m != l[0] && p.is_legal(m) {
                asks.push((*ply, *e, l.len(), m));
            }
        }
    }
    let total = asks.len();
    for (i, &(ply, e, len, m)) in asks.iter().enumerate() {
        let base = &along[ply];
        if c.out_of_time() {
            c.report.undecided.push(Undecided::new(
                ply,
                base,
                &[e, m],
                "変化別詰: no time left",
                "変化別詰: 時間切れ",
            ));
            continue;
        }
        let mut p = base.clone();
        p.do_move(e);
        p.do_move(m);
        let share = c.share(total - i);
        let limit = len as u32 - 1;
        let r = c.solve(&p, share, Some(limit), PostSearch::Shortest);
        if let Some(l) = mate_within(&r, limit) {
            let full: Vec<Move> = [e, m].into_iter().chain(l).collect();
            c.report.add(Finding::new(
                FindingKind::VariationAlternative,
                ply,
                base,
                &full,
                &format!(
                    "in the variation of {}, another mate (変化別詰)",
                    plies(len + 1)
                ),
                &format!("{}手の変化に別の詰みあり (変化別詰)", len + 1),
            ));
        } else if !matches!(
            r.outcome,
            Outcome::NoMate | Outcome::Unknown(crate::mate::UnknownReason::NoMateWithin(_))
        ) {
            c.report.undecided.push(Undecided::new(
                ply,
                base,
                &[e, m],
                "変化別詰: whether this check also mates was not decided",
                "変化別詰: この王手でも詰むかは未確定",
            ));
        }
    }
}
