//! Double counting where two paths of the search graph merge (confluences).
//!
//! df-pn sums δ over a node's children (dn at an OR node, pn at an AND node) as if their
//! subtrees were disjoint. When two children of an ancestor lead to one position, that
//! position's δ is counted twice there, the ancestor looks harder than it is, and the search
//! leaves it for worse branches; on problems of hundreds of plies whose lines cross many times
//! the overestimates pile up (Kishimoto 2010 surveys the problem; KomoringHeights follows
//! parent links in its table to find the merge point, as this module does).
//!
//! Two guards, both changing only how δ is combined (children marked are combined by max
//! instead of sum), never a proof or a disproof (a sum is 0 exactly when its max is):
//! - One step (`children::expand`): a child whose table entry was created under an ancestor
//!   on the current path other than the node itself is "foreign" at the node.
//! - The walk (`eliminate_double_count`): when a node is entered, its best child's parent
//!   links are followed up the table (each entry keeps the tag of the node that created it).
//!   If they reach a node on the current path (the branch root), the child of the branch root
//!   on the current path and the child the links came through are "merged" there, for as long
//!   as the branch root stays on the path. The walk gives up where the numbers show that the
//!   merging subtree is only a small part of a node's δ (a gap of more than `GAP` between a
//!   node and its child on either path): there the double count does not matter.
//! - Memory of the marks (`MaskMemory`): a branch root's marks are kept, per thread, in a
//!   small direct-mapped table keyed by its board and hand, and set again whenever the node is
//!   expanded later, on any path (KomoringHeights keeps them in its table entries; ours have
//!   no room). Without it the marks lasted only while the branch root stayed on the path, and
//!   every later visit summed the two children again.
//!
//! Measured (2026-11-28, AMD EPYC family 25, one thread, 8 GB, nodes to the first proof; a
//! one-thread search is deterministic, so node counts compare across runs):
//!
//! | | no walk (`no-dce`) | walk, marks while on the path | walk, marks kept |
//! |---|---:|---:|---:|
//! | FAIRWAY | 46.70 M | 48.65 M | 45.06 M |
//! | 乱 | 85.25 M | 84.47 M | 77.69 M |
//! | 新桃花源 | 120.14 M | 121.33 M | 127.07 M |
//!
//! So the kept marks, on by default: 0.965, 0.911 and 1.058 of the nodes (sum 0.991).
//! 明日香 is not proven either way in 33-49 minutes: its search still runs down paths of
//! 3,000-4,000 plies where rooks, golds and lances are dropped, interposed and taken on one
//! file, the hands changing each time so that no position repeats. `tsumugi bench`: 426,955
//! nodes without the walk, 417,437 with it.

use super::super::hugebuf::Zeroable;
use super::super::value::INF;
use super::children::Child;
use super::logged::LoggedTable;
use super::numbers::aggregate_in;
use super::path::tag;
use super::Search;
use crate::shogi::Hand;

/// A node on the current path, for finding the branch root of a confluence.
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    ply: u32,
    /// Its children are the arena's records from `base` to the next frame's `base`.
    base: u32,
    /// The child being searched (`u32::MAX`: none yet).
    cur: u32,
    or: bool,
    /// Its table key and the attacker's hand (the key of its marks in `MaskMemory`).
    key: u64,
    hand: Hand,
}

/// A node's marks: its key (board and hand, see `mask_key`) and the children (by index, the
/// first 64) marked as merged.
#[derive(Clone, Copy, Default)]
#[repr(C)]
pub(crate) struct MaskEntry {
    key: u64,
    mask: u64,
}

// SAFETY: two integers; all zero bytes is an empty slot (its default).
unsafe impl Zeroable for MaskEntry {}

/// Entries of the mask memory (4 MB). Marks are rare beside nodes (a confluence is found at a
/// small share of the nodes), so a slot taken by another node costs only a re-discovery.
const MASK_TABLE_SIZE: usize = 1 << 18;

/// Bits of the mask memory's filter (64 KB), one per board key: "certainly no marks" without
/// touching the table at most expansions.
const MASK_FILTER_BITS: usize = 1 << 19;

/// The marks of branch roots, kept across visits (see the module docs). One per search thread,
/// in its `Scratch`.
pub(crate) struct MaskMemory {
    slots: LoggedTable<MaskEntry>,
    filter: Vec<u64>,
}

impl MaskMemory {
    pub(super) fn new() -> MaskMemory {
        MaskMemory {
            slots: LoggedTable::new(MASK_TABLE_SIZE),
            filter: vec![0; MASK_FILTER_BITS / 64],
        }
    }

    /// Forgets every mark (with the table's clear, as the repetition table does).
    pub(super) fn forget(&mut self) {
        self.slots.forget();
        self.filter.fill(0);
    }

    /// Bytes as allocated (see `Scratch::bytes`).
    #[cfg(test)]
    pub(super) fn bytes(&self) -> usize {
        self.slots.bytes() + self.filter.capacity() * std::mem::size_of::<u64>()
    }

    #[inline(always)]
    fn filter_bit(key: u64) -> (usize, u64) {
        let b = (key >> 20) as usize & (MASK_FILTER_BITS - 1);
        (b / 64, 1u64 << (b % 64))
    }

    /// The marks of the node (key, hand), if remembered.
    #[inline]
    pub(super) fn get(&self, key: u64, hand: Hand) -> Option<u64> {
        let (w, bit) = Self::filter_bit(key);
        if self.filter[w] & bit == 0 {
            return None;
        }
        let k = mask_key(key, hand);
        let e = *self.slots.get(k as usize & (MASK_TABLE_SIZE - 1));
        (e.key == k).then_some(e.mask)
    }

    /// Remembers the marks of the node (key, hand).
    fn put(&mut self, key: u64, hand: Hand, mask: u64) {
        let (w, bit) = Self::filter_bit(key);
        self.filter[w] |= bit;
        let k = mask_key(key, hand);
        self.slots.set(
            k as usize & (MASK_TABLE_SIZE - 1),
            MaskEntry { key: k, mask },
        );
    }
}

/// The mask memory's key of a node: its board key and the attacker's hand, never 0.
#[inline(always)]
fn mask_key(key: u64, hand: Hand) -> u64 {
    (key ^ (hand.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(23) | 1
}

/// The largest difference between a node's δ and its child's on a merging path for which the
/// child's share still counts (KomoringHeights uses three of its units).
const GAP: u32 = 3;

impl Search<'_> {
    /// Puts the node at `ply` (its children from `base`, its key `key`, the attacker's hand
    /// `hand`) on the frame stack, and marks the children remembered as merged there.
    #[inline]
    pub(super) fn push_frame(&mut self, ply: u32, base: usize, or: bool, key: u64, hand: Hand) {
        self.frames.push(Frame {
            ply,
            base: base as u32,
            cur: u32::MAX,
            or,
            key,
            hand,
        });
        if let Some(mut mask) = self.masks.get(key, hand) {
            let kids = &mut self.children[base..];
            while mask != 0 {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if let Some(k) = kids.get_mut(i) {
                    k.merged = true;
                }
            }
        }
    }

    #[inline]
    pub(super) fn pop_frame(&mut self) {
        self.frames.pop();
    }

    /// Records that the top node searches its child `i` now.
    #[inline]
    pub(super) fn set_current_child(&mut self, i: usize) {
        if let Some(f) = self.frames.last_mut() {
            f.cur = i as u32;
        }
    }

    /// The tag of the node on top of the frame stack.
    #[inline]
    pub(super) fn top_tag(&self) -> u32 {
        self.frames.last().map_or(0, |f| tag(f.key))
    }

    /// Follows the parent links of `best`, the best child of the node on top of the frame
    /// stack (its index among the node's children, as `select` chose it), and marks the
    /// confluence's two children at its branch root (see the module docs). The walk marks
    /// children of the node's ancestors only, never its own, so the node's choice stands.
    pub(super) fn eliminate_double_count(&mut self, best: usize) {
        let Some(&top) = self.frames.last() else {
            return;
        };
        let base = top.base as usize;
        let top_tag = tag(top.key);
        if self.children.len() <= base + best {
            return;
        }
        let c: Child = self.children[base + best];
        if c.parent == 0 || c.parent == top_tag || c.v.pn == 0 || c.v.dn == 0 {
            return;
        }
        let (mut x_tag, mut x_pn, mut x_dn) = (c.tag, c.v.pn, c.v.dn);
        let mut parent = c.parent;
        // The parent of the chain's node has the type of the node on top at first.
        let mut parent_or = top.or;
        let (mut pn_flag, mut dn_flag) = (true, true);
        for _ in 0..top.ply {
            if parent == 0 || parent == top_tag {
                return;
            }
            if let Some(root_ply) = self.path.ancestor_ply(parent) {
                if (parent_or && dn_flag) || (!parent_or && pn_flag) {
                    self.monitor.confluences += 1;
                    self.mark_confluence(root_ply, parent_or, x_tag);
                }
                return;
            }
            let Some((next, pn, dn)) = self.tt.parent_step(parent) else {
                return;
            };
            dn_flag &= dn <= x_dn.saturating_add(GAP);
            pn_flag &= pn <= x_pn.saturating_add(GAP);
            if !pn_flag && !dn_flag {
                return;
            }
            (x_tag, x_pn, x_dn, parent) = (parent, pn, dn, next);
            parent_or = !parent_or;
        }
    }

    /// Marks, at the frame of `root_ply` (an OR node if `root_or`), its child on the current
    /// path and its child tagged `x_tag` as merged, unless a node of the same type between it
    /// and the top takes most of its δ from other children.
    fn mark_confluence(&mut self, root_ply: u32, root_or: bool, x_tag: u32) {
        let n = self.frames.len();
        for j in (0..n.saturating_sub(1)).rev() {
            let f = self.frames[j];
            let end = self.frames[j + 1].base as usize;
            let kids = &mut self.children[f.base as usize..end];
            if f.ply < root_ply || f.or != root_or && f.ply == root_ply || f.cur == u32::MAX {
                return;
            }
            if f.ply == root_ply {
                kids[f.cur as usize].merged = true;
                if let Some(k) = kids.iter_mut().find(|k| k.tag == x_tag) {
                    k.merged = true;
                }
                let mask = kids
                    .iter()
                    .take(64)
                    .enumerate()
                    .filter(|(_, k)| k.merged)
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                self.masks.put(f.key, f.hand, mask);
                return;
            }
            if f.or == root_or {
                let n = aggregate_in(f.or, kids);
                let delta = if f.or { n.dn } else { n.pn };
                let c = &kids[f.cur as usize];
                let child_delta = if f.or { c.v.dn } else { c.v.pn };
                if delta < INF && delta > child_delta.saturating_add(GAP) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::bench::POSITIONS;
    use crate::mate::dfpn::with_search;
    use crate::mate::Solver;
    use crate::shogi::Position;

    /// Marks are found again by board and hand, not by another hand of the board, and forgotten
    /// with the table.
    #[test]
    fn the_mask_memory_answers_for_its_node_only() {
        let mut m = MaskMemory::new();
        let h = Hand(0x21);
        assert_eq!(m.get(0xDEAD_BEEF_0000_1234, h), None);
        m.put(0xDEAD_BEEF_0000_1234, h, 0b1010);
        assert_eq!(m.get(0xDEAD_BEEF_0000_1234, h), Some(0b1010));
        assert_eq!(m.get(0xDEAD_BEEF_0000_1234, Hand(0x22)), None);
        assert_eq!(m.get(0xDEAD_BEEF_0000_1235, h), None);
        m.forget();
        assert_eq!(m.get(0xDEAD_BEEF_0000_1234, h), None);
    }

    /// On the bench's problems the walk up the parent links finds branch roots (a walk that
    /// never reached the path, say from tags that name no entry, would find none), their
    /// marks are remembered, and every problem gets the verdict it gets without the walk.
    #[test]
    fn the_walk_finds_confluences_and_remembers_their_marks() {
        let mut found = Vec::new();
        for sfen in POSITIONS {
            let root = Position::from_sfen(sfen).unwrap();
            let verdict = |dce: bool| {
                let mut solver = Solver::new(16);
                let mut pos = root.clone();
                with_search(&mut solver, &root, |s| {
                    s.threshold.dce = dce;
                    let r = s.prove(&mut pos);
                    let kept = s.masks.filter.iter().any(|&w| w != 0);
                    ((r.v.pn == 0, r.v.dn == 0), s.monitor.confluences, kept)
                })
            };
            let (with, n, kept) = verdict(true);
            let (without, none, _) = verdict(false);
            assert_eq!(with, without, "{sfen}");
            assert!(with.0 || with.1, "{sfen}: solved");
            assert_eq!(none, 0, "no walk when it is off");
            assert_eq!(n > 0, kept, "{sfen}: marks found and kept go together");
            found.push(n);
        }
        eprintln!("confluences per problem: {found:?}");
        assert!(found.iter().filter(|&&n| n > 0).count() >= 3, "{found:?}");
    }
}
