//! The df-pn MID procedure (Nagai 2002): expand a node, then search its best child under
//! thresholds until the node's numbers pass its own thresholds or it is solved, and store the
//! result. Expansion, selection and the hand rules live in `children`, `threshold` and `hands`,
//! so this file is the recursion only.

use super::super::value::{Value, INF, NO_MATE};
use super::hands::no_check_disproof_hand;
use super::numbers::child_delta_threshold;
use super::path::tag;
use super::{node_moves, NodeResult, Search, NO_REP};
use crate::shogi::{Hand, Move, Position};

impl Search<'_> {
    /// df-pn from the search's root `pos` (at `ply`): MID under thresholds that start at 1 and
    /// grow by `Threshold::root_growth` each time the root returns unsolved, to its numbers
    /// times that factor plus one, until it is solved or the search stops (KomoringHeights
    /// grows its root thresholds so). A root called with infinite thresholds, as Nagai's df-pn
    /// does, gives its children δ thresholds of about `INF` all the way down (each child may use
    /// what its siblings leave of the node's own), so a subtree whose δ keeps growing is never
    /// sent back and the path can dive to the ply cap (驚愕の曠野 searched at plies 3,500-3,940
    /// for an hour). Finite root thresholds bound δ as well as φ. First proofs, one thread,
    /// 8 GB, both builds at once (2026-11-28, with the large-δ rule of `children` in both):
    /// 乱 63.98 M nodes against 77.69 M, FAIRWAY 48.90 M against 53.90 M.
    pub(super) fn mid_root(&mut self, pos: &mut Position, ply: u32, grow: bool) -> NodeResult {
        let f = self.threshold.root_growth as f64;
        if !grow || f <= 1.0 {
            return self.mid(pos, INF, INF, ply);
        }
        let next = |v: u32, th: u32| th.max((v as f64 * f + 1.0).min(INF as f64) as u32);
        let (mut th_pn, mut th_dn) = (1, 1);
        loop {
            let r = self.mid(pos, th_pn, th_dn, ply);
            let done = r.v.pn == 0 || r.v.dn == 0 || self.monitor.halted();
            if done || (th_pn >= INF && th_dn >= INF) {
                return r;
            }
            th_pn = next(r.v.pn, th_pn);
            th_dn = next(r.v.dn, th_dn);
        }
    }

    /// The df-pn MID procedure on `pos` (which is on the path already), at `ply` from the root,
    /// with thresholds `th_pn`, `th_dn`.
    pub(super) fn mid(
        &mut self,
        pos: &mut Position,
        th_pn: u32,
        th_dn: u32,
        ply: u32,
    ) -> NodeResult {
        // Set by the parent for this node only (see `children`).
        let fresh = std::mem::replace(&mut self.node_fresh, false);
        let stopped = self.monitor.enter_node(self.tt, ply, fresh);
        let hand = pos.hand(self.attacker);
        let key = self.key(pos);
        let or = pos.side_to_move() == self.attacker;
        let node_start = self.monitor.nodes;
        if stopped {
            return NodeResult {
                v: Value::unsolved(1, 1, hand),
                rep: NO_REP,
            };
        }

        let list = node_moves(pos, or);
        if list.is_empty() {
            let v = if or {
                Value::disproven(no_check_disproof_hand(hand), NO_MATE)
            } else {
                Value::proven(
                    self.add_interposition_pieces(pos, Hand::EMPTY),
                    0,
                    Move::NONE,
                )
            };
            self.tt.store(key, v, 0, 1);
            return NodeResult { v, rep: NO_REP };
        }

        let base = self.children.len();
        self.expand(pos, &list, or, hand, ply, tag(key), fresh);
        let old = self.tca && self.old_child;
        self.push_frame(ply, base, or, key, hand);
        // The walk needs the best child; the first turn of `mid_loop` takes the same choice
        // instead of scanning the children again.
        let first = if self.threshold.dce && self.children.len() > base {
            let choice = self.select(or, base);
            self.eliminate_double_count(choice.0);
            Some(choice)
        } else {
            None
        };
        let mut result = self.mid_loop(pos, or, hand, th_pn, th_dn, ply, base, old, fresh, first);
        self.pop_frame();
        self.children.truncate(base);
        if result.rep > ply {
            // Every repetition it depends on returns to this node or below: the loop is in
            // its own subtree on any path that reaches it (see `path`). A failure at the path
            // cap (`CAP_REP`) is never cleared.
            result.rep = NO_REP;
        }

        if !self.monitor.halted() {
            let effort = (self.monitor.nodes - node_start).min(u32::MAX as u64) as u32;
            if result.v.dn == 0 && result.rep != NO_REP {
                // A failure on this path only: never a table disproof (GHI).
                self.path.rep_record(result.rep, result.v.len);
            } else {
                let mut v = result.v;
                if v.pn != 0 && v.dn != 0 {
                    // An unsolved entry remembers the shallowest ply it was searched at (TCA).
                    v.len = (ply + 1).min(u16::MAX as u32) as u16;
                }
                self.tt.store(key, v, self.path.parent_tag(), effort);
            }
        }
        result
    }

    /// Searches the best child of the node whose children are [base..] until the node is
    /// solved or its numbers reach the thresholds (or the search stops). `first`: `select`'s
    /// choice made on entering the node, if it was made, for the first turn.
    ///
    /// TCA (Kishimoto 2010, as KomoringHeights extends it to a count): a node with an unsolved
    /// child met before at a shallower ply (`old`) may be taking its numbers from a loop or a
    /// confluence above it, and df-pn can then go round without progress. Such a node raises
    /// the extension count; while it is positive every node searches past its thresholds
    /// (to its numbers plus one), and each position new to the table that is entered uses
    /// one of it. A node that had the extension returns once it is used up. A node new to the
    /// table (`fresh`) whose numbers pass its thresholds as soon as it is expanded goes back to
    /// its parent without raising the count (as KomoringHeights does not search such a child
    /// at all). Measured against raising it there (one thread, 8 GB, first proofs): 乱 85.2 M
    /// nodes against 89.6 M, FAIRWAY 46.7 M against 49.7 M, 新桃花源 120.1 M against 122.5 M;
    /// famous.tsv within 1 M nodes a problem 195 solved against 193.
    #[allow(clippy::too_many_arguments)]
    fn mid_loop(
        &mut self,
        pos: &mut Position,
        or: bool,
        hand: Hand,
        th_pn0: u32,
        th_dn0: u32,
        ply: u32,
        base: usize,
        old: bool,
        fresh: bool,
        mut first: Option<(usize, u32)>,
    ) -> NodeResult {
        let orig_inc = self.inc;
        let mut searched = false;
        loop {
            let numbers = self.aggregate(or, base);
            let (pn, dn) = (numbers.pn, numbers.dn);
            if !searched && old && !(fresh && (pn >= th_pn0 || dn >= th_dn0)) {
                self.inc += 1;
            }
            if pn == 0 || dn == 0 {
                self.inc = self.inc.min(orig_inc);
                return self.finish(pos, or, hand, base, pn);
            }
            let (th_pn, th_dn) = if self.inc > 0 {
                (
                    th_pn0.max(pn.saturating_add(1).min(INF)),
                    th_dn0.max(dn.saturating_add(1).min(INF)),
                )
            } else {
                (th_pn0, th_dn0)
            };
            let used_up = searched && self.inc == 0 && orig_inc > 0;
            if pn >= th_pn || dn >= th_dn || used_up || self.monitor.halted() {
                self.inc = self.inc.min(orig_inc);
                return NodeResult {
                    v: Value::unsolved(pn, dn, hand),
                    rep: NO_REP,
                };
            }
            searched = true;
            let (best, second_phi) = first.take().unwrap_or_else(|| self.select(or, base));
            let c = self.children[base + best];
            // φ/δ of the node and of the child: (pn, dn) at OR, (dn, pn) at AND.
            let (node_phi_th, node_delta_th) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let child_phi_th = self.threshold.child_phi(node_phi_th, second_phi);
            let child_delta_th = child_delta_threshold(or, numbers, node_delta_th, &c);
            let (cth_pn, cth_dn) = if or {
                (child_phi_th, child_delta_th)
            } else {
                (child_delta_th, child_phi_th)
            };

            pos.do_move(c.mv);
            let ck = self.key(pos);
            let chand = pos.hand(self.attacker);
            self.path.push(ck, chand);
            self.node_fresh = c.fresh;
            self.set_current_child(best);
            if c.fresh && self.inc > 0 {
                self.inc -= 1;
            }
            let r = self.mid(pos, cth_pn, cth_dn, ply + 1);
            self.path.pop();
            pos.undo_move();

            let my_tag = self.top_tag();
            let slot = &mut self.children[base + best];
            // A child that comes back with the numbers it was called with made no progress:
            // df-pn returns from a node only once its numbers pass a threshold they were
            // below, so apart from the unwinding of a stop or a round's budget this counts
            // searches going round without moving (see `Profile`).
            self.monitor
                .count_call(slot.v.pn == r.v.pn && slot.v.dn == r.v.dn);
            slot.v = r.v;
            slot.rep = r.rep;
            slot.foreign = false;
            slot.fresh = false;
            // Its entry, if stored, now names this node as its creator.
            slot.parent = my_tag;
            self.activate(or, base, best);
        }
    }
}
