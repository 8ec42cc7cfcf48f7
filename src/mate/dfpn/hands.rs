//! Proof and disproof hands, and length bounds, of solved nodes (Nagai 2002's hand rules,
//! with KomoringHeights' refinements).
//!
//! - Proof hands. OR: the proving child's proof hand plus the piece it dropped, minus the piece
//!   it captured. AND: the per-kind max over the children's, plus every piece the defender could
//!   have interposed had the attacker not held it.
//! - Disproof hands. OR: the per-kind min over the children's (converted back as above),
//!   without kinds the attacker lacks, since holding one might enable a checking drop. AND: the
//!   refuting child's, capped at our count of a kind the defender dropped.
//! - Lengths. OR proven: the shortest proven child's plus one. AND proven: the longest child's
//!   plus one. Disproven: "no mate within n" bounds carried up (OR: the smallest of the
//!   children's plus one, AND: the refuting child's plus one); `NO_MATE` stays.

use super::super::value::{Value, MAX_BOUND, NO_MATE};
use super::{NodeResult, Search, NO_REP};
use crate::shogi::attacks::between;
use crate::shogi::movegen::drop_targets;
use crate::shogi::{Hand, Move, PieceKind, Position};

/// Hand with one more `k`, kept within the field (and within the real piece count).
#[inline]
fn plus(mut h: Hand, k: PieceKind) -> Hand {
    if h.count(k) < Hand::FULL.count(k) {
        h.add(k);
    }
    h
}

#[inline]
fn minus(mut h: Hand, k: PieceKind) -> Hand {
    if h.has(k) {
        h.sub(k);
    }
    h
}

/// The attacker's hand at `pos` that corresponds to `child_hand` after the attacker's move `mv`:
/// the dropped piece back in hand, the captured one out of it.
#[inline]
pub(super) fn hand_before(pos: &Position, mv: Move, child_hand: Hand) -> Hand {
    if mv.is_drop() {
        return plus(child_hand, mv.drop_kind());
    }
    let cap = pos.piece_on(mv.to());
    if cap.is_empty() {
        child_hand
    } else {
        minus(child_hand, cap.kind().unpromote())
    }
}

/// A child's disproof length seen from its parent: one ply more (`NO_MATE` stays).
#[inline(always)]
fn bound_up(len: u16) -> u16 {
    if len == NO_MATE {
        NO_MATE
    } else {
        (len + 1).min(MAX_BOUND)
    }
}

/// Disproof hand of an OR node with no check at all: more of a kind we already hold adds no
/// move, a kind we lack might (a drop), so held kinds may grow to the maximum, others stay 0.
pub(super) fn no_check_disproof_hand(hand: Hand) -> Hand {
    let mut dh = Hand::EMPTY;
    for k in PieceKind::HAND {
        if hand.has(k) {
            dh.set_count(k, Hand::FULL.count(k));
        }
    }
    dh
}

impl Search<'_> {
    /// Proof hand of an AND node (defender in check) where the proof relies on the defender's
    /// current hand: every kind the defender lacks but could drop on a square between the king
    /// and a single checker would be in its hand if we held fewer, so we must keep all of ours.
    pub(super) fn add_interposition_pieces(&self, pos: &Position, mut ph: Hand) -> Hand {
        let defender = pos.side_to_move();
        let checkers = pos.checkers();
        if checkers.is_empty() || checkers.more_than_one() {
            return ph;
        }
        let Some(ksq) = pos.king_square(defender) else {
            return ph;
        };
        let block = between(ksq, checkers.lsb());
        if block.is_empty() {
            return ph;
        }
        let dh = pos.hand(defender);
        let ah = pos.hand(self.attacker);
        for k in PieceKind::HAND {
            if dh.count(k) == 0
                && ah.count(k) > ph.count(k)
                && drop_targets(pos, defender, k, block).is_nonempty()
            {
                ph.set_count(k, ah.count(k));
            }
        }
        ph
    }

    /// The result of a solved node (pn == 0 or dn == 0, from `aggregate`) from its children
    /// [base..]: the hand and length it holds for, and its proving move.
    pub(super) fn finish(
        &self,
        pos: &Position,
        or: bool,
        hand: Hand,
        base: usize,
        pn: u32,
    ) -> NodeResult {
        let ch = &self.children[base..];
        if or {
            if pn == 0 {
                // Proven by the shortest proven child.
                let c = ch
                    .iter()
                    .filter(|c| c.v.pn == 0)
                    .min_by_key(|c| c.v.len)
                    .expect("a proven child");
                let ph = hand_before(pos, c.mv, c.v.hand);
                let v = Value::proven(ph.min(hand), c.v.len.saturating_add(1), c.mv);
                NodeResult { v, rep: NO_REP }
            } else {
                // Every check fails: the weakest common disproof hand, and the shortest length
                // within which every check is refuted (plus our move).
                let mut dh = Hand::FULL;
                let mut bound = NO_MATE;
                let mut rep = NO_REP;
                for c in ch {
                    bound = bound.min(bound_up(c.v.len));
                    dh = dh.min(hand_before(pos, c.mv, c.v.hand));
                    rep = rep.min(c.rep);
                }
                // A kind we lack might give a checking drop if we had it.
                for k in PieceKind::HAND {
                    if !hand.has(k) {
                        dh.set_count(k, 0);
                    }
                }
                NodeResult {
                    v: Value::disproven(dh.max(hand), bound),
                    rep,
                }
            }
        } else if pn == 0 {
            // Every evasion is mated: the union of proof hands, and interposition pieces.
            let mut ph = Hand::EMPTY;
            let mut len = 0u16;
            for c in ch {
                ph = ph.max(c.v.hand);
                len = len.max(c.v.len);
            }
            let ph = self.add_interposition_pieces(pos, ph).min(hand);
            NodeResult {
                v: Value::proven(ph, len.saturating_add(1), Move::NONE),
                rep: NO_REP,
            }
        } else {
            // Refuted: prefer a refutation that does not depend on the path (or depends on the
            // deepest ancestor), then the one that holds for the longest length.
            let c = ch
                .iter()
                .filter(|c| c.v.dn == 0)
                .min_by_key(|c| (std::cmp::Reverse(c.rep), std::cmp::Reverse(c.v.len)))
                .expect("a disproven child");
            let mut dh = c.v.hand;
            if c.mv.is_drop() {
                let k = c.mv.drop_kind();
                dh.set_count(k, dh.count(k).min(hand.count(k)));
            }
            NodeResult {
                v: Value::disproven(dh.max(hand), bound_up(c.v.len)),
                rep: c.rep,
            }
        }
    }
}
