//! The search: pieces placed one at a time, depth first, cut by the degraded-piece test.
//!
//! Pieces are grouped by (unit, facing); the groups go in a fixed order: the long-range pieces
//! first (they leave the fewest squares), then those that degrade to stones, then the rest by
//! decreasing reach, so that what remains degrades mostly to pawns, which the test bounds
//! tightly (see `Plan::new` for the measurement). Identical pieces are placed in increasing
//! square order, so a placement is found once however its identical pieces are permuted:
//! placements are sets of (square, piece, facing), and two that differ only by a left-right
//! mirror are two placements.
//! Under `bidirectional` a piece whose attacks depend on its facing also chooses one (its key
//! is square * 2 + facing); kings, rooks, bishops, horses, dragons and stones face as Black's.
//!
//! After each piece is placed, the pieces still to place are degraded (see [`super::feasible`])
//! and the branch is cut when they cannot be placed; the pieces identical to the one just
//! placed are also tested alone on the squares after it, where they must go. A piece may go on
//! a square that is inside the area, empty and unattacked, and from which it attacks no piece.
//!
//! Threads: the tree is cut at the first depth with enough nodes (64 per thread, or the leaves)
//! and the threads take those subtrees in order from a shared counter. Answers come back in
//! the single-thread order whatever the thread count: the first placement is the first in
//! that order, and `All` lists them in it.

use super::feasible::{placeable, Pawns};
use super::{facing_matters, unit_attacks, Area, PieceSet, Placed, Placement, Unit};
use crate::shogi::{Bitboard, Color, Square};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// What the search is asked for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Count every placement.
    Count,
    /// Stop at the first placement.
    First,
    /// List every placement.
    All,
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The board area.
    pub area: Area,
    /// Each piece may face either way (the two-direction puzzle).
    pub bidirectional: bool,
    /// Count, first or all.
    pub mode: Mode,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Stop when this instant passes (the outcome is then incomplete).
    pub deadline: Option<Instant>,
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Placements found (all of them when `complete`, except in `First` mode).
    pub count: u64,
    /// Of those, how many are their own left-right mirror image.
    pub symmetric: u64,
    /// The first placement (`First`), or none.
    pub first: Option<Placement>,
    /// Search nodes: pieces placed, over all threads.
    pub nodes: u64,
    /// Whether the search ran to its end (every subtree searched, or `First` answered).
    pub complete: bool,
}

impl Outcome {
    /// Placements up to left-right mirroring: each mirror pair once, symmetric ones once.
    pub fn mirror_classes(&self) -> u64 {
        (self.count + self.symmetric) / 2
    }
}

/// One piece to place.
#[derive(Clone, Copy, Debug)]
struct Slot {
    unit: Unit,
    /// The facings the piece may take: `facings[..n_facings]`.
    facings: [Color; 2],
    n_facings: usize,
    /// Whether the next slot holds an identical piece (it must then take a larger key).
    same_as_next: bool,
}

/// The degraded pieces still to place from some slot on: pawns, stones, and their facing.
#[derive(Clone, Copy, Debug)]
struct Degraded {
    pawns: u32,
    stones: u32,
    how: Pawns,
}

/// Whether `u` facing `c` attacks the square straight ahead of it on the board's "up" side
/// (north) and "down" side (south), read from a central square.
fn hits_north_south(u: Unit, c: Color) -> (bool, bool) {
    let centre = Square::new(4, 4);
    let a = unit_attacks(c, u, centre);
    (a.has(Square::new(4, 3)), a.has(Square::new(4, 5)))
}

/// `slots` degraded (see [`super::feasible`]): a piece that attacks the square ahead or behind
/// in each facing it may take becomes a pawn (facing up when it attacks up in all of them,
/// down likewise, else either way), any other a stone.
fn degrade(slots: &[Slot]) -> Degraded {
    let (mut pawns, mut stones, mut all_up, mut all_down) = (0, 0, true, true);
    for s in slots {
        let dirs = s.facings[..s.n_facings]
            .iter()
            .map(|&c| hits_north_south(s.unit, c));
        if dirs.clone().all(|(n, so)| n || so) {
            pawns += 1;
            all_up &= dirs.clone().all(|d| d.0);
            all_down &= dirs.clone().all(|d| d.1);
        } else {
            stones += 1;
        }
    }
    let how = if all_up {
        Pawns::Up
    } else if all_down {
        Pawns::Down
    } else {
        Pawns::Free
    };
    Degraded { pawns, stones, how }
}

/// The search's fixed data, shared by the threads.
struct Plan {
    slots: Vec<Slot>,
    /// `degraded[i]`: the pieces of slots `i..` degraded.
    degraded: Vec<Degraded>,
    /// `same_after[i]`: the pieces identical to slot `i`'s that follow it, degraded.
    same_after: Vec<Degraded>,
    area: Area,
    mask: Bitboard,
}

impl Plan {
    fn new(set: &PieceSet, area: Area, bidirectional: bool) -> Plan {
        // Group order: first the long-range pieces (attacking 8 squares or more on average:
        // rook, bishop, horse, dragon), which leave the fewest squares; then the pieces that
        // degrade to stones (knights, stones), which prune weakly while they wait; then the
        // rest, each tier by decreasing reach. Measured on the 40 pieces, one direction:
        // rook, bishop, knight, king, gold, silver, lance, pawn searches 133,589 nodes, where
        // pure decreasing reach (knights after lances) searched 1,506,482.
        let mut groups: Vec<(Unit, Color, u32, u32)> = set
            .entries
            .iter()
            .map(|&(u, c, n)| {
                let reach: u32 = Square::all().map(|s| unit_attacks(c, u, s).count()).sum();
                (u, c, n, reach)
            })
            .collect();
        let tier = |&(u, c, _, reach): &(Unit, Color, u32, u32)| {
            let facings: &[Color] = if bidirectional && facing_matters(u) {
                &[Color::Black, Color::White]
            } else {
                &[c]
            };
            let stone = facings
                .iter()
                .any(|&f| hits_north_south(u, f) == (false, false));
            if reach >= 8 * 81 {
                0
            } else if stone {
                1
            } else {
                2
            }
        };
        groups.sort_by_key(|g| (tier(g), std::cmp::Reverse(g.3), g.0, g.1));
        let mut slots = Vec::new();
        for &(u, c, n, _) in &groups {
            let (facings, n_facings) = if bidirectional && facing_matters(u) {
                ([Color::Black, Color::White], 2)
            } else if bidirectional {
                ([Color::Black, Color::Black], 1)
            } else {
                ([c, c], 1)
            };
            for k in 0..n {
                slots.push(Slot {
                    unit: u,
                    facings,
                    n_facings,
                    same_as_next: k + 1 < n,
                });
            }
        }
        let degraded = (0..=slots.len()).map(|i| degrade(&slots[i..])).collect();
        // For each slot, the identical pieces after it: they must take larger keys.
        let mut same_after = Vec::with_capacity(slots.len());
        for i in 0..slots.len() {
            let mut j = i;
            while slots[j].same_as_next {
                j += 1;
            }
            same_after.push(degrade(&slots[i + 1..=j]));
        }
        Plan {
            slots,
            degraded,
            same_after,
            area,
            mask: area.mask(),
        }
    }

    /// Whether the pieces after slot `i`, just placed on `sq` giving `occ` and `att`, can still
    /// be placed, degraded. Two necessary conditions: all of them anywhere; and the ones
    /// identical to slot `i`'s on squares after `sq` (they take larger keys). The second makes
    /// the test exact for a tail of identical pawns, so the search never walks into a pawn
    /// placement it cannot finish.
    #[inline]
    fn hopeful(&self, i: usize, sq: Square, occ: Bitboard, att: Bitboard) -> bool {
        let same = self.same_after[i];
        if same.pawns + same.stones > 0 {
            let after = Bitboard(self.mask.0 & !((2u128 << sq.index()) - 1));
            if !placeable(after, occ, att, same.pawns, same.stones, same.how) {
                return false;
            }
        }
        let d = self.degraded[i + 1];
        (same.pawns + same.stones) as usize + i + 1 == self.slots.len()
            || placeable(self.mask, occ, att, d.pawns, d.stones, d.how)
    }
}

/// A node: the pieces placed so far (slots `0..depth`).
#[derive(Clone, Debug)]
struct Node {
    occ: Bitboard,
    att: Bitboard,
    /// (square, facing) of each placed slot.
    stack: Vec<(Square, Color)>,
}

impl Node {
    /// The smallest key (square * 2 + facing) the next slot may take.
    fn min_key(&self, plan: &Plan) -> u32 {
        match self.stack.last() {
            Some(&(sq, c)) if plan.slots[self.stack.len() - 1].same_as_next => key(sq, c) + 1,
            _ => 0,
        }
    }
}

#[inline(always)]
fn key(sq: Square, c: Color) -> u32 {
    sq.index() as u32 * 2 + c.index() as u32
}

/// The child of the node (`occ`, `att`, next slot `i`) with the slot's piece on `sq` facing
/// `c`: its (occupancy, attacks) if the piece attacks no piece there and the pieces after it
/// pass the degraded-piece test. `sq` must be free (in the area, empty, unattacked).
#[inline]
fn child(
    plan: &Plan,
    i: usize,
    occ: Bitboard,
    att: Bitboard,
    sq: Square,
    c: Color,
) -> Option<(Bitboard, Bitboard)> {
    let a = unit_attacks(c, plan.slots[i].unit, sq);
    if (a & occ).is_nonempty() {
        return None;
    }
    let occ = occ | Bitboard::from_square(sq);
    let att = att | a;
    if i + 1 < plan.slots.len() && !plan.hopeful(i, sq, occ, att) {
        return None;
    }
    Some((occ, att))
}

/// What one subtree gave.
#[derive(Default)]
struct Tally {
    count: u64,
    symmetric: u64,
    nodes: u64,
    found: Vec<Placement>,
    stopped: bool,
}

/// The depth-first walk of one subtree.
struct Walker<'a> {
    plan: &'a Plan,
    mode: Mode,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    /// `First`: this subtree's index, and the smallest index with a placement so far; a
    /// subtree after one that has a placement is abandoned (its answer would not be first).
    index: u64,
    best: &'a AtomicU64,
    tally: Tally,
}

impl Walker<'_> {
    /// Walks below `node`; false when the walk must end (first found, deadline, stop).
    fn walk(&mut self, node: &mut Node) -> bool {
        let i = node.stack.len();
        if i == self.plan.slots.len() {
            self.leaf(node);
            return self.mode != Mode::First;
        }
        let slot = self.plan.slots[i];
        let min_key = node.min_key(self.plan);
        let (occ, att) = (node.occ, node.att);
        for sq in self.plan.mask & !occ & !att {
            for &c in &slot.facings[..slot.n_facings] {
                if key(sq, c) < min_key {
                    continue;
                }
                let Some((o, a)) = child(self.plan, i, occ, att, sq, c) else {
                    continue;
                };
                self.tally.nodes += 1;
                if self.tally.nodes & 0xfff == 0 && self.should_stop() {
                    return false;
                }
                node.occ = o;
                node.att = a;
                node.stack.push((sq, c));
                let go_on = self.walk(node);
                node.stack.pop();
                node.occ = occ;
                node.att = att;
                if !go_on {
                    return false;
                }
            }
        }
        true
    }

    /// Polled every 4096 nodes: another thread stopped, the deadline passed, or (`First`) an
    /// earlier subtree has a placement.
    fn should_stop(&mut self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop.store(true, Ordering::Relaxed);
        }
        if self.stop.load(Ordering::Relaxed) {
            self.tally.stopped = true;
        }
        self.tally.stopped
            || (self.mode == Mode::First && self.best.load(Ordering::Relaxed) < self.index)
    }

    fn leaf(&mut self, node: &Node) {
        self.tally.count += 1;
        if is_symmetric(self.plan, node) {
            self.tally.symmetric += 1;
        }
        if self.mode != Mode::Count {
            self.tally.found.push(placement(self.plan, node));
        }
    }
}

/// Whether the placement at `node` is its own left-right mirror image: for each (unit, facing),
/// its set of squares maps onto itself (no allocation: counting visits every leaf).
fn is_symmetric(plan: &Plan, node: &Node) -> bool {
    let mut sets = [0u128; 30];
    for (&(sq, c), s) in node.stack.iter().zip(&plan.slots) {
        sets[s.unit.index() * 2 + c.index()] |= 1u128 << sq.index();
    }
    let files = plan.area.files as usize;
    sets.iter().all(|&b| {
        let mut m = 0u128;
        for f in 0..files {
            m |= ((b >> (9 * f)) & 0x1ff) << (9 * (files - 1 - f));
        }
        m == b
    })
}

fn placement(plan: &Plan, node: &Node) -> Placement {
    Placement {
        pieces: node
            .stack
            .iter()
            .zip(&plan.slots)
            .map(|(&(sq, color), s)| Placed {
                sq,
                unit: s.unit,
                color,
            })
            .collect(),
        area: plan.area,
    }
}

/// The nodes at the first depth holding at least `want` of them (or the leaves), in order.
fn frontier(plan: &Plan, want: usize, nodes: &mut u64) -> Vec<Node> {
    let root = Node {
        occ: Bitboard::EMPTY,
        att: Bitboard::EMPTY,
        stack: Vec::with_capacity(plan.slots.len()),
    };
    let d = plan.degraded[0];
    if !placeable(plan.mask, root.occ, root.att, d.pawns, d.stones, d.how) {
        return Vec::new();
    }
    let mut level = vec![root];
    let mut depth = 0;
    while level.len() < want && depth < plan.slots.len() && !level.is_empty() {
        let mut next = Vec::new();
        for n in &level {
            let slot = plan.slots[depth];
            let min_key = n.min_key(plan);
            for sq in plan.mask & !n.occ & !n.att {
                for &c in &slot.facings[..slot.n_facings] {
                    if key(sq, c) < min_key {
                        continue;
                    }
                    if let Some((occ, att)) = child(plan, depth, n.occ, n.att, sq, c) {
                        let mut stack = n.stack.clone();
                        stack.push((sq, c));
                        next.push(Node { occ, att, stack });
                    }
                }
            }
        }
        *nodes += next.len() as u64;
        level = next;
        depth += 1;
    }
    level
}

/// Searches placements of `set` as `opts` asks. `on_found` receives each placement in `All`
/// mode, in the single-thread order; `progress` receives (subtrees done, subtrees) as they
/// finish.
pub fn search(
    set: &PieceSet,
    opts: &SearchOptions,
    mut on_found: impl FnMut(&Placement),
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Outcome {
    let plan = Plan::new(set, opts.area, opts.bidirectional);
    let threads = opts.threads.max(1);
    let mut out = Outcome::default();
    let level = frontier(&plan, 64 * threads, &mut out.nodes);
    let total = level.len();
    progress(0, total);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // First mode: the smallest subtree index with a placement so far.
    let best = AtomicU64::new(u64::MAX);
    let (tx, rx) = mpsc::channel::<(usize, Tally)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (plan, level, next, stop, best) = (&plan, &level, &next, &stop, &best);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= level.len() {
                    break;
                }
                let mut tally = Tally::default();
                let skip = opts.mode == Mode::First && (k as u64) > best.load(Ordering::Relaxed);
                if !skip && !stop.load(Ordering::Relaxed) {
                    let mut w = Walker {
                        plan,
                        mode: opts.mode,
                        deadline: opts.deadline,
                        stop,
                        index: k as u64,
                        best,
                        tally,
                    };
                    let mut node = level[k].clone();
                    w.walk(&mut node);
                    tally = w.tally;
                    if opts.mode == Mode::First && !tally.found.is_empty() {
                        best.fetch_min(k as u64, Ordering::Relaxed);
                    }
                } else if !skip {
                    tally.stopped = true;
                }
                if tx.send((k, tally)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Collect in subtree order, so that answers come out as one thread would give them.
        let mut pending: BTreeMap<usize, Tally> = BTreeMap::new();
        let mut emitted = 0usize;
        let mut complete = true;
        for (k, t) in rx {
            pending.insert(k, t);
            while let Some(t) = pending.remove(&emitted) {
                emitted += 1;
                progress(emitted, total);
                out.nodes += t.nodes;
                complete &= !t.stopped;
                if opts.mode == Mode::First {
                    if out.first.is_none() {
                        if let Some(p) = t.found.into_iter().next() {
                            out.first = Some(p);
                            out.count = 1;
                            out.symmetric = t.symmetric;
                        }
                    }
                    continue;
                }
                out.count += t.count;
                out.symmetric += t.symmetric;
                for p in &t.found {
                    on_found(p);
                }
            }
        }
        // A First answer is complete once found: the subtrees before it were all searched.
        out.complete = if opts.mode == Mode::First && out.first.is_some() {
            true
        } else {
            complete && emitted == total
        };
    });
    out
}

#[cfg(test)]
mod tests;
