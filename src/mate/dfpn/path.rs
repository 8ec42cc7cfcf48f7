//! The current search path: repetition detection (GHI), the repetition table, and the parent
//! tags used against double counting.
//!
//! - Repetition (GHI, Kishimoto & Müller 2004): a position whose board equals an ancestor's on
//!   the current path with an attacker hand no better is a failure *on this path only*. Such
//!   results carry up the tree the depth of the ancestor they repeat (the shallowest, when
//!   several are combined) and are not stored as disproofs while that ancestor is above the
//!   node: parents keep them in their local child list for the duration of their own search,
//!   which is exactly the path on which they hold. At the repeated ancestor itself the loop is
//!   inside its own subtree, on every path that reaches it, so there the failure holds on any
//!   path and is stored like any other (KomoringHeights' `repetition_start`; with a plain
//!   "depends on the path" flag, a problem whose attacker can walk in circles, like a horse
//!   chasing a king, stored almost nothing and re-searched every circle in every round).
//!   Failures that still depend on the path are remembered in a table keyed by the hash of the
//!   whole path (KomoringHeights' repetition table): df-pn walks the same path again and again,
//!   and these results may be reused only on exactly that path.
//! - Double counting: a child whose table entry was created under one of our own
//!   ancestors on the current path (its stored parent tag is an ancestor's) is reachable both
//!   from that ancestor directly and through us, so the ancestor would sum its δ twice; the
//!   children code combines it by max instead of sum (a one-step form of the walk in
//!   `confluence`, which follows the links further up the table). Tags are the high half of
//!   the key with bit 0 set (0 = no parent).

use super::super::hugebuf::Zeroable;
use super::logged::LoggedTable;
use crate::shogi::Hand;

/// The `rep` of a result that depends on no repetition (it holds on any path). A result that
/// does carries the ply of the ancestor it repeats plus one (so that it holds at the nodes
/// whose ply is below that), or [`CAP_REP`].
pub(crate) const NO_REP: u32 = u32::MAX;

/// The `rep` of a failure at the path cap (`Threshold::depth_cap`): it depends on the whole
/// path, the root included, so it is stored nowhere (not even at the root, where a repetition
/// of the root itself is a loop in the root's own subtree and holds on any path), and a root
/// that fails with it is unsolved, never disproven. Being the smallest, it wins every
/// combination of repetitions.
pub(crate) const CAP_REP: u32 = 0;

/// A repetition-table slot: the path hash (its low bits, implied by the slot, hold the length
/// limit), the depth of the ancestor the failure depends on, and its length bound (a failure
/// found under a length limit holds within that many plies only).
#[derive(Clone, Copy, Default)]
#[repr(C)]
pub(super) struct RepEntry {
    key: u64,
    depth: u32,
    len: u16,
    _pad: u16,
}

// SAFETY: two integers; all zero bytes is an empty slot (its default).
unsafe impl Zeroable for RepEntry {}

/// Entries of the repetition table (16 MB). It holds repetition failures only (length-limit
/// failures go to the main table). Measured: at 1 << 16 entries (512 KB, cache-resident) a
/// famous search ran up to 18% more nodes/s, but 図巧100番's minimality proof, which meets
/// millions of repetitions, needed 28.6 M nodes instead of 18.0 M and took longer overall.
const REP_TABLE_SIZE: usize = 1 << 20;

/// Bits of the repetition table's filter (64 KB, resident in the core's L2 cache). Every child
/// of every expanded node asks the repetition table about its path, and almost every answer is
/// "nothing": the table is 16 MB, so each question was a cache and TLB miss. A profile of
/// mate3-11 and extra1-9 at 3 s a problem put 29% of all cycles on that one load. The filter
/// answers "certainly nothing" from one bit per position (its board key; set when a failure
/// is recorded for any path that ends there); only a set bit goes on to the table. It changes
/// no answer: a clear bit means no failure was recorded at that position since the table was
/// last cleared. A search that records millions of failures (図巧100番's minimality proof)
/// fills it, and then every question reaches the table as before.
///
/// Keyed by position, not by path hash (as it was first): one position fails by repetition on
/// many paths, so fewer bits are set. On long-ge50 row 49 (two threads, 20 s) 24% of the
/// questions passed the filter against 31%, and about 1% of those that passed found an entry.
/// One thread, 25 M nodes of row 49, 3 pairs in turn (same nodes): median time 0.953 of the
/// path-keyed filter's; mate3-11 and extra1-9 at 3 s a problem (1800 rows, 23,829,050 nodes
/// either way), 5 pairs: 0.996. Larger filters gained nothing measurable (256 KB keyed by
/// position, 3 pairs: 0.987, pairs 0.93-1.04; 512 KB keyed by path hash, one run each: 0.99),
/// nor did a second filter keyed by path hash behind this one (1.01).
const REP_FILTER_BITS: usize = 1 << 19;

/// The tag of a key, as stored in table entries' parent field.
#[inline(always)]
pub(super) fn tag(key: u64) -> u32 {
    (key >> 32) as u32 | 1
}

/// Buffers of the path kept across searches (see `Scratch`).
pub(super) struct PathBuffers {
    /// Count of path nodes per 16 high key bits: a cheap "certainly not on the path" test.
    filter: Vec<u16>,
    /// Path-dependent failures, keyed by path hash, with the length limit they were found
    /// under. Direct-mapped; the path hash is seeded with the table salt, so entries of other
    /// searches never match; `forget` empties it with the main table's clear.
    rep_table: LoggedTable<RepEntry>,
    /// One bit per position (board key) with a failure recorded in `rep_table` since the last
    /// `forget` (see `REP_FILTER_BITS`).
    rep_filter: Vec<u64>,
}

impl PathBuffers {
    pub(super) fn new() -> PathBuffers {
        PathBuffers {
            filter: vec![0; 1 << 16],
            rep_table: LoggedTable::new(REP_TABLE_SIZE),
            rep_filter: vec![0; REP_FILTER_BITS / 64],
        }
    }

    /// Forgets every remembered repetition failure, with the main table's clear: a cleared
    /// solver then searches exactly as a new one (the table is direct-mapped, so which failures
    /// survive depends on what was recorded before). Without it the filter would fill up over
    /// a run of many problems. Only the slots written are cleared (see `logged`).
    pub(super) fn forget(&mut self) {
        self.rep_table.forget();
        self.rep_filter.fill(0);
    }

    /// Bytes of the three buffers as allocated (see `Scratch::bytes`).
    #[cfg(test)]
    pub(super) fn bytes(&self) -> usize {
        self.filter.capacity() * std::mem::size_of::<u16>()
            + self.rep_table.bytes()
            + self.rep_filter.capacity() * std::mem::size_of::<u64>()
    }
}

/// The filter bit of a position's board key.
#[inline(always)]
fn filter_bit(key: u64) -> (usize, u64) {
    let b = (key >> 24) as usize & (REP_FILTER_BITS - 1);
    (b / 64, 1u64 << (b % 64))
}

/// The nodes from the root to the node being searched: board key, attacker hand, path hash.
pub(super) struct Path<'a> {
    nodes: Vec<(u64, Hand, u64)>,
    bufs: &'a mut PathBuffers,
    /// Hash of the empty path: from the table salt.
    seed: u64,
    /// The search's length limit, coded for the repetition table (see `limit_code`).
    limit: u64,
}

/// Bits of a repetition-table entry implied by its index: they hold the length limit instead.
const REP_LOW: u64 = REP_TABLE_SIZE as u64 - 1;

/// A length limit in `REP_LOW`'s bits (limits past it, and "none", saturate: they are all far
/// beyond any line read).
fn limit_code(max_plies: u32) -> u64 {
    (max_plies as u64).min(REP_LOW)
}

impl<'a> Path<'a> {
    pub(super) fn new(bufs: &'a mut PathBuffers, salt: u64, max_plies: u32) -> Path<'a> {
        Path {
            nodes: Vec::with_capacity(4096),
            bufs,
            seed: Self::seed_of(salt),
            limit: limit_code(max_plies),
        }
    }

    fn seed_of(salt: u64) -> u64 {
        salt ^ 0x6A09_E667_F3BC_C909
    }

    /// A new salt (paths hash differently from now on) or length limit.
    pub(super) fn reseed(&mut self, salt: u64, max_plies: u32) {
        self.seed = Self::seed_of(salt);
        self.limit = limit_code(max_plies);
    }

    /// Hash of the current path extended by (key, hand).
    #[inline(always)]
    fn hash_with(&self, key: u64, hand: Hand) -> u64 {
        let top = self.nodes.last().map_or(self.seed, |p| p.2);
        (top.rotate_left(17) ^ key ^ (hand.0 as u64).wrapping_mul(0xFF51_AFD7_ED55_8CCD))
            .wrapping_mul(0xC4CE_B9FE_1A85_EC53)
            | 1
    }

    /// A repetition failure was recorded for the current path extended by (key, hand), under a
    /// length limit at least the current one. A failure on a path holds under any smaller limit (each child
    /// that failed by repetition still repeats, each that failed for want of plies has fewer),
    /// so the shortest-mate rounds, whose limits only shrink, share what earlier rounds found.
    /// Returns the `rep` of that failure (see `NO_REP`), and its length bound.
    #[inline(always)]
    pub(super) fn rep_known(&self, key: u64, hand: Hand) -> Option<(u32, u16)> {
        let (w, bit) = filter_bit(key);
        if self.bufs.rep_filter[w] & bit == 0 {
            return None;
        }
        // The path hash only past the filter: most questions end above.
        let path_hash = self.hash_with(key, hand);
        let e = *self
            .bufs
            .rep_table
            .get(path_hash as usize & (REP_TABLE_SIZE - 1));
        (e.key != 0
            && (e.key & !REP_LOW) == (path_hash & !REP_LOW)
            && (e.key & REP_LOW) >= self.limit)
            .then_some((e.depth, e.len))
    }

    /// Asks the CPU to start loading the repetition-table slot that `rep_known(key, hand)` will
    /// read, when the filter lets the question through (a hint; no effect on results). Once a
    /// long search has recorded failures at most positions the filter passes nearly every
    /// question, and each then waited for a slot of the 16 MB table: a profile of 驚愕の曠野 at
    /// 16 GB after 25 minutes put a third of `mid`'s samples on that one load. Issued beside
    /// the main table's prefetches, the misses overlap instead of coming one after another.
    ///
    /// It also starts loading the path filter's counter of `key`, which `repeats` and
    /// `tag_is_ancestor` read next: the 128 KB counter array does not stay in the core's caches
    /// beside a table of gigabytes, and on 乱 at 4 GB (200 s in) a tenth of `mid`'s samples
    /// waited on that load.
    #[inline(always)]
    pub(super) fn prefetch_rep(&self, key: u64, hand: Hand) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the pointer points into our own live vector; a prefetch never faults and has
        // no effect on memory contents.
        unsafe {
            core::arch::x86_64::_mm_prefetch(
                &self.bufs.filter[(key >> 48) as usize] as *const u16 as *const i8,
                core::arch::x86_64::_MM_HINT_T0,
            );
        }
        let (w, bit) = filter_bit(key);
        if self.bufs.rep_filter[w] & bit == 0 {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        {
            let path_hash = self.hash_with(key, hand);
            let slot = self
                .bufs
                .rep_table
                .get(path_hash as usize & (REP_TABLE_SIZE - 1));
            // SAFETY: the pointer points into our own live allocation; a prefetch never
            // faults and has no effect on memory contents.
            unsafe {
                core::arch::x86_64::_mm_prefetch(
                    slot as *const RepEntry as *const i8,
                    core::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hand;
    }

    /// Records that the node at the end of the path fails on this path (under the current
    /// length limit) within `len` plies, with `depth` its `rep` (see `NO_REP`).
    #[inline(always)]
    pub(super) fn rep_record(&mut self, depth: u32, len: u16) {
        if let Some(&(key, _, ph)) = self.nodes.last() {
            let (w, bit) = filter_bit(key);
            self.bufs.rep_filter[w] |= bit;
            let e = RepEntry {
                key: (ph & !REP_LOW) | self.limit,
                depth,
                len,
                _pad: 0,
            };
            self.bufs
                .rep_table
                .set(ph as usize & (REP_TABLE_SIZE - 1), e);
        }
    }

    #[inline]
    pub(super) fn push(&mut self, key: u64, hand: Hand) {
        let ph = self.hash_with(key, hand);
        self.nodes.push((key, hand, ph));
        self.bufs.filter[(key >> 48) as usize] += 1;
    }

    #[inline]
    pub(super) fn pop(&mut self) {
        let (key, _, _) = self.nodes.pop().expect("path underflow");
        self.bufs.filter[(key >> 48) as usize] -= 1;
    }

    pub(super) fn clear(&mut self) {
        while !self.nodes.is_empty() {
            self.pop();
        }
    }

    /// Whether `t` is the tag of a node on the current path other than its last (the node
    /// being expanded): a child created under such an ancestor is counted twice there.
    #[inline]
    pub(super) fn tag_is_ancestor(&self, t: u32) -> bool {
        if self.bufs.filter[(t >> 16) as usize] == 0 {
            return false;
        }
        let n = self.nodes.len().saturating_sub(1);
        self.nodes[..n].iter().any(|&(k, _, _)| tag(k) == t)
    }

    /// The ply of the deepest node on the current path other than its last whose tag is `t`
    /// (the branch root of a confluence, see `confluence`).
    #[inline]
    pub(super) fn ancestor_ply(&self, t: u32) -> Option<u32> {
        if self.bufs.filter[(t >> 16) as usize] == 0 {
            return None;
        }
        let n = self.nodes.len().saturating_sub(1);
        self.nodes[..n]
            .iter()
            .rposition(|&(k, _, _)| tag(k) == t)
            .map(|i| i as u32)
    }

    /// The position (key, hand) repeats an ancestor's board with an attacker hand no better:
    /// the ply of the deepest such ancestor plus one (the failure holds as long as it is on
    /// the path; see `NO_REP`).
    #[inline]
    pub(super) fn repeats(&self, key: u64, hand: Hand) -> Option<u32> {
        if self.bufs.filter[(key >> 48) as usize] == 0 {
            return None;
        }
        self.nodes
            .iter()
            .rposition(|&(k, h, _)| k == key && h.superior_or_equal(hand))
            .map(|i| i as u32 + 1)
    }

    /// Tag of the parent of the node at the end of the path (the previous entry), 0 at the root.
    #[inline(always)]
    pub(super) fn parent_tag(&self) -> u32 {
        let n = self.nodes.len();
        if n >= 2 {
            tag(self.nodes[n - 2].0)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failure remembered for a path serves that path under its own length limit and every
    /// smaller one, never a larger one, and keeps its length bound and the depth it depends
    /// on: a failure found under a length limit, reused as "no mate at any length" and then
    /// stored as a disproof where its repetition was cleared, made a 335-ply mate (long-ge50)
    /// look unconditionally disproven and lost the shortest line.
    #[test]
    fn remembered_failures_keep_their_limit_length_and_depth() {
        let mut bufs = PathBuffers::new();
        let mut path = Path::new(&mut bufs, 0x1234, 41);
        path.push(7 << 48, Hand::EMPTY);
        let key = 9 << 48;
        assert_eq!(path.rep_known(key, Hand::EMPTY), None);
        path.push(key, Hand::EMPTY);
        path.rep_record(0, 12);
        path.pop();
        assert_eq!(path.rep_known(key, Hand::EMPTY), Some((0, 12)));
        path.reseed(0x1234, 39);
        assert_eq!(
            path.rep_known(key, Hand::EMPTY),
            Some((0, 12)),
            "a smaller limit reuses it"
        );
        path.reseed(0x1234, 43);
        assert_eq!(
            path.rep_known(key, Hand::EMPTY),
            None,
            "a larger limit does not"
        );
        path.reseed(0x1234, u32::MAX);
        assert_eq!(path.rep_known(key, Hand::EMPTY), None, "nor does no limit");
        path.reseed(0x1234, 41);
        assert_eq!(
            path.rep_known(5 << 48, Hand::EMPTY),
            None,
            "another path does not"
        );
        // The same position at the end of another path: its filter bit is set, the table
        // tells the paths apart.
        path.pop();
        path.push(3 << 48, Hand::EMPTY);
        assert_eq!(
            path.rep_known(key, Hand::EMPTY),
            None,
            "nor does another path there"
        );
    }

    /// The filter never hides a recorded failure (many records, each found again), and
    /// forgotten failures are gone while new ones are found.
    #[test]
    fn filter_keeps_every_record_and_forget_drops_them() {
        let mut bufs = PathBuffers::new();
        let mut hashes = vec![];
        {
            let mut path = Path::new(&mut bufs, 0x77, 99);
            for i in 1..=5000u64 {
                path.push(i << 40 | i, Hand::EMPTY);
                path.rep_record(0, 7);
                hashes.push((i << 40 | i, path.nodes.last().unwrap().2));
                path.pop();
            }
            let found = hashes
                .iter()
                .filter(|&&(k, _)| path.rep_known(k, Hand::EMPTY).is_some())
                .count();
            // Direct-mapped slots may overwrite each other, never the filter bits: all that
            // survive in the table are found.
            let in_table = hashes
                .iter()
                .filter(|&&(_, h)| {
                    let e = *path.bufs.rep_table.get(h as usize & (REP_TABLE_SIZE - 1));
                    e.key & !REP_LOW == h & !REP_LOW
                })
                .count();
            assert_eq!(found, in_table);
            assert!(found > 4900, "{found}");
        }
        bufs.forget();
        let mut path = Path::new(&mut bufs, 0x77, 99);
        assert!(hashes
            .iter()
            .all(|&(k, _)| path.rep_known(k, Hand::EMPTY).is_none()));
        assert_eq!(path.rep_known(1 << 40 | 1, Hand::EMPTY), None);
        path.push(1 << 40 | 1, Hand::EMPTY);
        path.rep_record(0, 7);
        path.pop();
        assert_eq!(path.rep_known(1 << 40 | 1, Hand::EMPTY), Some((0, 7)));
    }
}
