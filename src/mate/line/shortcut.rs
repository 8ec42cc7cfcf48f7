//! Shortening a proven line where it is long: at each attacker position of the line,
//! a small full-width search for a mate shorter than the line's remainder there, whose leaves
//! are mates or proofs already in the table. Proofs it finds are stored, so the next minimax
//! reading (`line::read_minimax`) follows them and its length is again a proven bound.
//!
//! Why: the shortest-mate rounds re-prove from the root with the limit two plies lower. On a
//! long problem a round that finds a shorter mate first fails along the old line from its end
//! back to where the line can be shortened, refuting every alternative check on the way:
//! Microcosmos' round from 1581 plies to 1577 searched 37 M nodes (62 s, spread evenly over
//! all depths), and each shorter line it found differed from the previous one in a single
//! place, a detour of 8 plies replaced by 4 that joined the old line again
//! (`3a4a 4b3b 2a3a 3b2b N*3d ...` became `N*3d 3c3d 3a4a 4b3b`). A search of a few plies from
//! each position of the line finds every such detour at once, against the table's proofs of
//! the positions where it rejoins the line.

use super::super::dfpn::{node_moves, Search};
use crate::shogi::movegen::MAX_MOVES;
use crate::shogi::{Move, Position};

/// What one pass over a line found.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Pass {
    /// Attacker positions of the line given a shorter proof than the line's remainder.
    pub improved: usize,
    /// Positions searched (leaves answered by the table not counted).
    pub visits: usize,
    /// The search was stopped (time, nodes, stop flag) during the pass.
    pub stopped: bool,
    /// The pass gave up on its budget of positions (it stored what it had found).
    pub exhausted: bool,
}

/// Looks, at every attacker position of `line` (played from `root`), for a mate at least two
/// plies shorter than the line's remainder, by a search of at most `depth` plies whose leaves
/// are mates or table proofs that fit; stores each proof found. The line's positions are
/// visited from its end back to the root, so a shortcut found deep in the line is in the table
/// when the positions before it are searched. The pass ends early after `budget` positions.
pub(crate) fn shorten(
    s: &mut Search,
    root: &Position,
    line: &[Move],
    depth: u32,
    budget: usize,
) -> Pass {
    let mut positions = Vec::with_capacity(line.len() + 1);
    let mut pos = root.clone();
    positions.push(pos.clone());
    for &m in line {
        pos.do_move(m);
        positions.push(pos.clone());
    }
    let mut look = Look {
        s,
        visits: 0,
        budget,
        stopped: false,
        exhausted: false,
    };
    let mut pass = Pass::default();
    for (d, p) in positions.iter_mut().enumerate().rev() {
        if p.side_to_move() != look.s.attacker() {
            continue;
        }
        let remainder = (line.len() - d) as u32;
        if remainder < 3 {
            continue;
        }
        if look.or_node(p, remainder - 2, depth).is_some() {
            pass.improved += 1;
        }
        if look.stopped || look.exhausted {
            break;
        }
    }
    pass.visits = look.visits;
    pass.stopped = look.stopped;
    pass.exhausted = look.exhausted;
    pass
}

struct Look<'s, 'a> {
    s: &'s mut Search<'a>,
    visits: usize,
    budget: usize,
    stopped: bool,
    exhausted: bool,
}

impl Look<'_, '_> {
    /// Counts a searched position and polls the search's limits now and then; false once the
    /// search is stopped or the budget spent.
    fn visit(&mut self) -> bool {
        self.visits += 1;
        if self.visits % 4096 == 0 && self.s.check_abort() {
            self.stopped = true;
        }
        self.exhausted |= self.visits > self.budget;
        !self.stopped && !self.exhausted
    }

    /// What the table settles about `pos` within `budget` plies: `Some(Some(len))` for a proof
    /// that fits, `Some(None)` for a refutation that covers them, `None` when it must be
    /// searched.
    fn table(&self, pos: &Position, budget: u32) -> Option<Option<u16>> {
        let v = self.s.stored_within(pos, budget);
        if v.pn == 0 {
            Some(Some(v.len))
        } else if v.dn == 0 {
            Some(None)
        } else {
            None
        }
    }

    /// The length of a mate of attacker-to-move `pos` within `budget` plies, searching at most
    /// `depth` more plies; stores the proof it finds. Lengths strictly decrease down the tree,
    /// so no proof found here can depend on a cycle.
    fn or_node(&mut self, pos: &mut Position, budget: u32, depth: u32) -> Option<u16> {
        if budget == 0 {
            return None;
        }
        if let Some(known) = self.table(pos, budget) {
            return known;
        }
        if depth == 0 || !self.visit() {
            return None;
        }
        let checks = node_moves(pos, true);
        // Checks whose position already has a proof first, shortest first: they are the ones
        // likely to mate within the budget, and each success lowers the budget of the rest.
        let mut order = [(u16::MAX, Move::NONE); MAX_MOVES];
        let order = &mut order[..checks.len()];
        for (slot, &m) in order.iter_mut().zip(checks.as_slice()) {
            pos.do_move(m);
            let v = self.s.stored_within(pos, u32::MAX);
            pos.undo_move();
            *slot = (if v.pn == 0 { v.len } else { u16::MAX }, m);
        }
        order.sort_unstable_by_key(|&(l, _)| l);
        let mut budget = budget;
        let mut best: Option<(u16, Move)> = None;
        for &(_, m) in order.iter() {
            if budget == 0 {
                break;
            }
            pos.do_move(m);
            let r = self.and_node(pos, budget - 1, depth - 1);
            pos.undo_move();
            if let Some(len) = r {
                let len = len + 1;
                best = Some((len, m));
                // Only a mate shorter still is worth more (OR lengths share their parity).
                budget = (len as u32).saturating_sub(2);
            }
            if self.stopped || self.exhausted {
                return None;
            }
        }
        let (len, m) = best?;
        self.s.store_proof(pos, len, m, 1);
        Some(len)
    }

    /// The length of a mate of defender-to-move `pos` (in check) within `budget` plies,
    /// searching at most `depth` more plies: every legal move must be answered.
    fn and_node(&mut self, pos: &mut Position, budget: u32, depth: u32) -> Option<u16> {
        if let Some(known) = self.table(pos, budget) {
            return known;
        }
        let evasions = node_moves(pos, false);
        if evasions.is_empty() {
            return Some(0);
        }
        if budget < 2 || depth == 0 || !self.visit() {
            return None;
        }
        let mut worst = 0u16;
        for &m in evasions.as_slice() {
            pos.do_move(m);
            let r = self.or_node(pos, budget - 1, depth - 1);
            pos.undo_move();
            worst = worst.max(r? + 1);
        }
        self.s.store_proof(pos, worst, Move::NONE, 1);
        Some(worst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::line::{read_minimax, verify, with_detour_proven};

    /// Mate in 3, but the check G*3b only mates in 5. With the table knowing just the G*3b
    /// proof, the minimax reading gives a line of at least 5 plies; one pass finds the 3-ply
    /// mate (two plies of search from the root, then a mate in one) and stores it, and the
    /// reading then gives 3 plies.
    #[test]
    fn a_pass_finds_a_shorter_mate_the_table_did_not_hold() {
        with_detour_proven(|s, root, detour| {
            let attacker = s.attacker();
            let r = s.stored(&{
                let mut after = root.clone();
                after.do_move(detour);
                after
            });
            s.store_proof(root, r.len + 1, detour, 1);
            let long = read_minimax(s, root, 10_000).unwrap();
            verify(root, &long, attacker).unwrap();
            assert!(long.len() >= 5 && long[0] == detour, "{long:?}");

            // With a budget of one position the pass gives up at once and stores nothing.
            let spent = shorten(s, root, &long, 4, 1);
            assert!(spent.exhausted && spent.improved == 0, "{spent:?}");
            assert!(s.stored(root).len >= 5);
            let pass = shorten(s, root, &long, 4, usize::MAX);
            assert!(
                pass.improved >= 1 && !pass.stopped && !pass.exhausted,
                "{pass:?}"
            );
            assert_eq!(s.stored(root).len, 3);
            let short = read_minimax(s, root, 10_000).unwrap();
            verify(root, &short, attacker).unwrap();
            assert_eq!(short.len(), 3, "{short:?}");
            // Nothing shorter than the minimum can be found: a second pass improves nothing.
            assert_eq!(shorten(s, root, &short, 4, usize::MAX).improved, 0);
        });
    }
}
