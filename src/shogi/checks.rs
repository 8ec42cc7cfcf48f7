//! Check generation (every legal move that gives check, and nothing else), evasion existence,
//! and mate-in-1 detection: what a mate search spends its time on.
//!
//! Direct checks are found by reverse attacks: a piece of kind k on square s checks the king on
//! `ksq` iff a k of the defender's colour on `ksq` would attack s. Discovered checks come from our
//! pieces that are the sole blocker between the enemy king and one of our sliders (lance
//! included); such a piece checks with any move that leaves the line. The known traps of check
//! generation (slider direction, enemy blockers, attacker itself in check, pawn-drop mate on the
//! right square) are covered by the tests here and by `tests/checks_differential.rs`.

use super::attacks::*;
use super::bitboard::Bitboard;
use super::movegen::{can_stand_unpromoted, drop_targets, MoveList};
use super::mv::Move;
use super::position::Position;
use super::types::{Color, PieceKind, Square};

/// Squares from which a piece of `k` (colour `us`) would attack `ksq`, with occupancy `occ`.
#[inline(always)]
fn check_squares(us: Color, k: PieceKind, ksq: Square, occ: Bitboard) -> Bitboard {
    attacks(us.flip(), k, ksq, occ)
}

#[inline(always)]
fn is_slider(k: PieceKind) -> bool {
    matches!(
        k,
        PieceKind::Lance
            | PieceKind::Bishop
            | PieceKind::Rook
            | PieceKind::Horse
            | PieceKind::Dragon
    )
}

impl Position {
    /// Every legal move of the side to move that gives check.
    pub fn check_moves(&self, list: &mut MoveList) {
        list.clear();
        self.gen_checks::<false>(list, Bitboard::ALL);
    }

    /// The checking moves of the side to move that land on `targets` only (the search's mate in
    /// one after an interposition looks next to the king and on the interposed piece).
    pub fn check_moves_to(&self, list: &mut MoveList, targets: Bitboard) {
        list.clear();
        self.gen_checks::<false>(list, targets);
    }

    /// Whether the side to move has at least one legal checking move.
    pub fn has_check(&self) -> bool {
        let mut list = MoveList::new();
        self.gen_checks::<true>(&mut list, Bitboard::ALL);
        !list.is_empty()
    }

    /// EARLY: stop after the first move found.
    fn gen_checks<const EARLY: bool>(&self, list: &mut MoveList, mask: Bitboard) {
        let us = self.side;
        let them = us.flip();
        let Some(ksq) = self.king_square(them) else {
            return;
        };
        if self.in_check() {
            // The attacker must answer its own check with a move that also checks: rare in
            // mate problems, so filter the evasions.
            let mut ev = MoveList::new();
            self.legal_moves(&mut ev);
            for &m in ev.as_slice() {
                if mask.has(m.to()) && self.gives_check(m) {
                    list.push(m);
                    if EARLY {
                        return;
                    }
                }
            }
            return;
        }
        let occ = self.occupied();
        let ours = self.pieces_of(us);
        let empty = !occ & mask;

        // Drops first: cheapest, and in mate search often the best.
        let hand = self.hand(us);
        if !hand.is_empty() {
            for k in PieceKind::HAND {
                if !hand.has(k) {
                    continue;
                }
                let targets = drop_targets(self, us, k, check_squares(us, k, ksq, occ) & empty);
                for to in targets {
                    if k == PieceKind::Pawn && self.is_pawn_drop_mate(to) {
                        continue;
                    }
                    list.push(Move::drop(k, to));
                    if EARLY {
                        return;
                    }
                }
            }
        }

        let my_ksq = self.king_square(us);
        let pinned = self.pinned();
        let discoverers = self.slider_blockers_at(ksq, them, us) & ours;

        // Check squares of non-sliding kinds do not depend on which piece moves: compute once.
        let mut step_csq = [Bitboard::EMPTY; 14];
        for k in [
            PieceKind::Pawn,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
        ] {
            step_csq[k.index()] = check_squares(us, k, ksq, occ);
        }
        let near = king_attack(ksq);

        let movers = ours.and_not(self.pieces_kind(PieceKind::King));
        for from in movers {
            let kind = self.board[from.index()].kind();
            let is_disc = discoverers.has(from);
            let occ_wo = occ.and_not(Bitboard::from_square(from));
            // Squares where this piece (as moved, promoted or not) would check.
            let csq_of = |k: PieceKind| -> Bitboard {
                if is_slider(k) {
                    check_squares(us, k, ksq, occ_wo)
                } else if k.is_gold_like() {
                    step_csq[PieceKind::Gold.index()]
                } else if k == PieceKind::King {
                    near
                } else {
                    step_csq[k.index()]
                }
            };
            let mut att = attacks(us, kind, from, occ).and_not(ours);
            if let Some(mk) = my_ksq {
                if pinned.has(from) {
                    att &= line(mk, from);
                }
            }
            if att.is_empty() {
                continue;
            }
            let can_promote = kind.can_promote();
            let promo_kind = if can_promote { kind.promote() } else { kind };
            let csq = csq_of(kind);
            let csq_p = if can_promote {
                csq_of(promo_kind)
            } else {
                Bitboard::EMPTY
            };
            let disc_line = if is_disc {
                line(ksq, from)
            } else {
                Bitboard::ALL
            };
            // Off the line, a discoverer checks whatever it does.
            let off_line = if is_disc {
                att.and_not(disc_line)
            } else {
                Bitboard::EMPTY
            };
            let cand = att & (csq | csq_p | off_line) & mask;
            let from_zone = from.in_promotion_zone(us);
            for to in cand {
                let disc = off_line.has(to);
                if can_promote && (from_zone || to.in_promotion_zone(us)) {
                    if disc || csq_p.has(to) {
                        list.push(Move::normal(from, to, true));
                        if EARLY {
                            return;
                        }
                    }
                    if can_stand_unpromoted(us, kind, to) && (disc || csq.has(to)) {
                        list.push(Move::normal(from, to, false));
                        if EARLY {
                            return;
                        }
                    }
                } else if disc || csq.has(to) {
                    list.push(Move::normal(from, to, false));
                    if EARLY {
                        return;
                    }
                }
            }
        }

        // Our king can only give discovered check.
        if let Some(mk) = my_ksq {
            if discoverers.has(mk) {
                let occ_wo = occ.and_not(Bitboard::from_square(mk));
                let dests = king_attack(mk).and_not(ours).and_not(line(ksq, mk)) & mask;
                for to in dests {
                    if !self.is_attacked(them, to, occ_wo) {
                        list.push(Move::normal(mk, to, false));
                        if EARLY {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Whether the side to move, which must be in check, has any legal move. Returns at the first
    /// one found; cheaper than generating all evasions.
    #[inline]
    pub fn has_evasion(&self) -> bool {
        self.evasion_scan::<true>(&mut None) != 0
    }

    /// For a side to move in check: 0 exactly when it is checkmated, otherwise a cheap estimate
    /// of how many distinct answers it has (safe king moves, captures of the checker, and one per
    /// square on which it can interpose, by a drop or a board move). The df-pn+ initial proof
    /// number of a defender node.
    #[inline]
    pub fn evasion_estimate(&self) -> u32 {
        self.evasion_scan::<false>(&mut None)
    }

    /// [`Position::evasion_estimate`], and how many pieces of the side to move (its king
    /// included) attack `sq`. For `sq` the checker's square (a check by the piece that moved),
    /// the count comes from the scan's own look at captures of the checker, so the search's
    /// df-pn+ support terms cost no second scan (it was 3% of the time of mate3-11's slowest
    /// problems at 3 s a problem).
    #[inline]
    pub fn evasion_estimate_and_guards(&self, sq: Square) -> (u32, u32) {
        let mut checker_attackers = None;
        let n = self.evasion_scan::<false>(&mut checker_attackers);
        let guards = match checker_attackers {
            Some((c, att)) if c == sq => att,
            _ => self.attackers_to(self.side, sq, self.occupied()),
        };
        (n, guards.count())
    }

    /// The scan behind `has_evasion` (EARLY: stop at the first answer) and `evasion_estimate`.
    /// When it looks at captures of a single checker, it leaves the checker's square and the
    /// side to move's attackers of it in `checker_attackers`.
    #[inline(always)]
    fn evasion_scan<const EARLY: bool>(
        &self,
        checker_attackers: &mut Option<(Square, Bitboard)>,
    ) -> u32 {
        debug_assert!(self.in_check());
        let us = self.side;
        let them = us.flip();
        let ksq = match self.king_square(us) {
            Some(k) => k,
            None => return 0,
        };
        let mut n = 0u32;
        let occ = self.occupied();
        let occ_wo = occ.and_not(Bitboard::from_square(ksq));
        let flights = king_attack(ksq)
            .and_not(self.pieces_of(us))
            .and_not(self.attacked_around(them, ksq, occ_wo));
        n += flights.count();
        if EARLY && n != 0 {
            return n;
        }
        let checkers = self.checkers;
        if checkers.more_than_one() {
            return n;
        }
        let c = checkers.lsb();
        let block = between(ksq, c);
        let pinned = self.pinned();
        let defenders = self
            .pieces_of(us)
            .and_not(self.pieces_kind(PieceKind::King));
        // Captures of the checker by anything but the king (the king's are counted above).
        let att = self.attackers_to(us, c, occ);
        if !EARLY {
            *checker_attackers = Some((c, att));
        }
        for d in att & defenders {
            if !pinned.has(d) || line(ksq, d).has(c) {
                n += 1;
                if EARLY {
                    return n;
                }
            }
        }
        if block.is_empty() {
            return n;
        }
        let hand = self.hand(us);
        let their_king = self.king_square(them);
        for b in block {
            // A drop of some kind in hand that may stand on b (a pawn drop that would mate the
            // attacker's king is illegal), or a board move: any unpinned piece attacking b can
            // move there (promoted if it could not stand unpromoted).
            let mut ok = false;
            if !hand.is_empty() {
                for k in PieceKind::HAND {
                    if hand.has(k)
                        && drop_targets(self, us, k, Bitboard::from_square(b)).is_nonempty()
                    {
                        let pawn_mate = k == PieceKind::Pawn
                            && their_king.is_some_and(|tk| pawn_attack(us, b).has(tk))
                            && self.is_pawn_drop_mate(b);
                        if !pawn_mate {
                            ok = true;
                            break;
                        }
                    }
                }
            }
            if !ok {
                for d in self.attackers_to(us, b, occ) & defenders {
                    if !pinned.has(d) || line(ksq, d).has(b) {
                        ok = true;
                        break;
                    }
                }
            }
            if ok {
                n += 1;
                if EARLY {
                    return n;
                }
            }
        }
        n
    }

    /// Whether the side to move is in check and has no legal move.
    #[inline]
    pub fn is_checkmated(&self) -> bool {
        self.in_check() && !self.has_evasion()
    }

    /// A checking move of the side to move that mates at once, if any.
    pub fn mate_in_one(&mut self) -> Option<Move> {
        let mut list = MoveList::new();
        self.check_moves(&mut list);
        self.mate_in_one_from(&list)
    }

    /// As `mate_in_one`, over an already generated check list.
    pub fn mate_in_one_from(&mut self, checks: &MoveList) -> Option<Move> {
        for &m in checks.as_slice() {
            self.do_move(m);
            let mated = !self.has_evasion();
            self.undo_move();
            if mated {
                return Some(m);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checks(sfen: &str) -> Vec<String> {
        let p = Position::from_sfen(sfen).unwrap();
        let mut l = MoveList::new();
        p.check_moves(&mut l);
        let mut v: Vec<String> = l.iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    /// Slow reference: legal moves filtered by "the opponent is in check after the move".
    fn slow_checks(sfen: &str) -> Vec<String> {
        let mut p = Position::from_sfen(sfen).unwrap();
        let legal = p.legal_move_list();
        let mut v = vec![];
        for &m in legal.as_slice() {
            p.do_move(m);
            if p.in_check() {
                v.push(m.to_string());
            }
            p.undo_move();
        }
        v.sort();
        v
    }

    /// The four positions where haitaka 0.3.2's check generator goes wrong.
    #[test]
    fn brief_section_6_positions() {
        for (sfen, n) in [
            ("8k/9/6S2/9/4R4/9/9/9/K8 b - 1", 5),
            ("9/9/4L4/9/4G4/9/4k4/9/K8 b - 1", 1),
            ("4k4/4p4/9/4S4/9/9/9/9/K3R4 b - 1", 0),
            ("4k4/9/9/9/9/9/9/9/r3K4 b G 1", 0),
        ] {
            let c = checks(sfen);
            assert_eq!(c.len(), n, "{sfen}: {c:?}");
            assert_eq!(c, slow_checks(sfen), "{sfen}");
        }
    }

    #[test]
    fn mate_in_one_head_gold() {
        let mut p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
        assert_eq!(p.mate_in_one().map(|m| m.to_string()), Some("G*5b".into()));
        let mut p = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1").unwrap();
        assert_eq!(p.mate_in_one(), None);
    }
}
