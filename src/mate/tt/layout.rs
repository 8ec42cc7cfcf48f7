//! How a table entry is packed: the entry as read out (`Entry`), its body's three words
//! (`Body`), a slot (key word and body, in different cache lines), the 8-slot cluster, and the
//! bits that ride in key words (the lock, the spill flag) and in the body (the generation
//! stamp). Stockfish likewise keeps its entry packing apart from the table's operations. The
//! layout is described in the parent module's docs.

use super::super::hugebuf::Zeroable;
use super::super::value::{Value, NO_MATE};
use crate::shogi::{Hand, Move};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What one slot holds (layout in the module docs), read out of the table.
#[derive(Clone, Copy, Default, Debug)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) parent: u32,
    pub(super) effort: u32,
    /// The generation that wrote it (`Table::stamp`): another's is dead (see `Table::new_game`).
    pub(super) stamp: u8,
    pub(super) v: Value,
}

/// Replacement class, in the order entries are given up (lowest first; see `Table::place`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Class {
    /// Not solved yet: the numbers are estimates.
    Unsolved = 0,
    /// No mate within a length only: cheap to find again, and floods in from the
    /// shortest-mate rounds.
    BoundedDisproof = 1,
    /// A proof, or a disproof at any length: what the mating line is read from.
    Settled = 2,
}

impl Entry {
    #[inline]
    pub(super) fn class(&self) -> Class {
        let v = &self.v;
        if v.pn == 0 || (v.dn == 0 && v.len == NO_MATE) {
            Class::Settled
        } else if v.dn == 0 {
            Class::BoundedDisproof
        } else {
            Class::Unsolved
        }
    }
}

/// The body of one slot (everything but its key) in three words. The words are atomics so that
/// search threads can share the table without `unsafe`: with one thread, relaxed loads and
/// stores compile to plain moves; with several, every access to a cluster holds its lock (see
/// `Table::lock`), so an entry is never read half-written.
#[derive(Default)]
#[repr(C)]
pub(super) struct Body {
    /// parent (low 32 bits), effort (next 24, saturated at `MAX_EFFORT`), generation stamp
    /// (high 8).
    meta: AtomicU64,
    /// pn (low 32), dn (high 32).
    nums: AtomicU64,
    /// hand (low 32), len (next 16), best move (high 16).
    rest: AtomicU64,
}

/// One slot of a cluster: its key word and its body, which live in different cache lines (see
/// `Cluster`).
#[derive(Clone, Copy)]
pub(super) struct Slot<'a> {
    k: &'a AtomicU64,
    b: &'a Body,
}

impl Slot<'_> {
    #[inline(always)]
    pub(super) fn key(&self) -> u64 {
        self.k.load(Relaxed) & !LOCK_BIT
    }

    #[inline(always)]
    pub(super) fn value(&self) -> Value {
        let n = self.b.nums.load(Relaxed);
        let r = self.b.rest.load(Relaxed);
        Value {
            pn: n as u32,
            dn: (n >> 32) as u32,
            hand: Hand(r as u32),
            len: (r >> 32) as u16,
            best: Move((r >> 48) as u16),
        }
    }

    #[inline(always)]
    pub(super) fn parent(&self) -> u32 {
        self.b.meta.load(Relaxed) as u32
    }

    #[inline(always)]
    pub(super) fn effort(&self) -> u32 {
        (self.b.meta.load(Relaxed) >> 32) as u32 & MAX_EFFORT
    }

    #[inline(always)]
    pub(super) fn stamp(&self) -> u8 {
        (self.b.meta.load(Relaxed) >> 56) as u8
    }

    /// Whether the slot holds an entry of the generation stamped `stamp` (see
    /// `Table::new_game`): a slot of another generation counts as empty.
    #[inline(always)]
    pub(super) fn live(&self, stamp: u8) -> bool {
        self.key() != 0 && self.stamp() == stamp
    }

    #[inline(always)]
    pub(super) fn load(&self) -> Entry {
        Entry {
            key: self.key(),
            parent: self.parent(),
            effort: self.effort(),
            stamp: self.stamp(),
            v: self.value(),
        }
    }

    #[inline(always)]
    pub(super) fn set(&self, e: &Entry) {
        // The first key word keeps the lock bit of the cluster while it is held (see
        // `LOCK_BIT`); only the holder writes, so the bit read here is its own.
        self.k
            .store(e.key | (self.k.load(Relaxed) & LOCK_BIT), Relaxed);
        self.b.meta.store(
            e.parent as u64 | (e.effort as u64) << 32 | (e.stamp as u64) << 56,
            Relaxed,
        );
        let v = &e.v;
        self.b
            .nums
            .store(v.pn as u64 | (v.dn as u64) << 32, Relaxed);
        self.b.rest.store(
            v.hand.0 as u64 | (v.len as u64) << 32 | (v.best.0 as u64) << 48,
            Relaxed,
        );
    }

    /// A shorter proof or longer disproof for the same key and hand: new length and move.
    #[inline(always)]
    pub(super) fn set_len(&self, v: &Value, len: u16, best: Move) {
        self.b.rest.store(
            v.hand.0 as u64 | (len as u64) << 32 | (best.0 as u64) << 48,
            Relaxed,
        );
    }

    pub(super) fn clear(&self) {
        self.set(&Entry::default());
    }
}

pub(super) const WAYS: usize = 8;

/// Eight slots in four cache lines: the eight keys first, in one line, then the eight bodies.
/// Most lookups miss (a long search spends two thirds of its nodes on positions new to the
/// table, see `Profile`), and a miss reads the key line only; with whole entries side by side
/// it read all four lines.
#[derive(Default)]
#[repr(C, align(128))]
pub(super) struct Cluster {
    pub(super) keys: [AtomicU64; WAYS],
    bodies: [Body; WAYS],
}

impl Cluster {
    #[inline(always)]
    pub(super) fn slot(&self, i: usize) -> Slot<'_> {
        Slot {
            k: &self.keys[i],
            b: &self.bodies[i],
        }
    }

    #[inline(always)]
    pub(super) fn slots(&self) -> impl Iterator<Item = Slot<'_>> {
        self.keys
            .iter()
            .zip(&self.bodies)
            .map(|(k, b)| Slot { k, b })
    }

    /// Whether key word `k` of this cluster holds no entry (the lock bit aside).
    #[inline(always)]
    pub(super) fn is_empty(k: &AtomicU64) -> bool {
        k.load(Relaxed) & !LOCK_BIT == 0
    }

    /// Whether some board of this cluster has entries in its buddy (see `SPILL_AT`): bit 0 of
    /// the second key word, free like every key word's bit 0 (see `stored_key`).
    #[inline(always)]
    pub(super) fn spilled(&self) -> bool {
        self.keys[1].load(Relaxed) & SPILL_BIT != 0
    }

    pub(super) fn set_spilled(&self, on: bool) {
        let w = &self.keys[1];
        w.store(
            (w.load(Relaxed) & !SPILL_BIT) | (on as u64 * SPILL_BIT),
            Relaxed,
        );
    }

    #[inline(always)]
    pub(super) fn has_empty(&self) -> bool {
        self.keys.iter().any(Cluster::is_empty)
    }

    /// Whether some slot holds an entry of a generation other than `stamp`'s (free for a new
    /// entry, see `Table::new_game`). Reads the bodies: only for a full cluster.
    pub(super) fn has_stale(&self, stamp: u8) -> bool {
        self.slots().any(|s| !s.live(stamp))
    }

    /// Whether a new entry of board `key` written at generation `stamp` goes to the buddy: the
    /// board is crowded here and no slot is empty or of an earlier generation. It depends on
    /// what the cluster holds only, never on its spill flag, so that a flag left by an earlier
    /// generation decides no placement (see `Table::new_game`). Reads the bodies only when
    /// the board is crowded in a full key line.
    #[inline(always)]
    pub(super) fn spills(&self, key: u64, stamp: u8) -> bool {
        self.crowded(key) && !self.has_empty() && !self.has_stale(stamp)
    }

    /// Whether board `key` holds `SPILL_AT` slots or more here.
    #[inline(always)]
    pub(super) fn crowded(&self, key: u64) -> bool {
        self.keys
            .iter()
            .filter(|k| k.load(Relaxed) & !LOCK_BIT == key)
            .count()
            >= SPILL_AT
    }
}

/// The spill flag of a cluster: bit 0 of its second key word (the first's is the lock).
pub(super) const SPILL_BIT: u64 = 1;

/// Entries of one board in its cluster from which its next new entry, if the cluster is full,
/// goes to the buddy cluster (the other of its aligned pair) instead of evicting an entry here.
/// A cluster is chosen by the board alone, so every hand of a board shares eight slots, and in
/// problems where the attacker holds many pieces evicting one hand for another loses work that
/// is then done again. Only crowded boards spill, so the others' lookups read one key line as
/// before; a spilled cluster's lookups read its buddy's key line too. Figures (evictions of the
/// same board's entries, node counts before and after, sixteen slots instead) in
/// `docs/bench/hardest.md`, "A board's hands and its cluster".
pub(super) const SPILL_AT: usize = 4;

/// The cluster lock of a shared table: bit 0 of the cluster's first key word. Keys are stored
/// with bit 0 clear (see `stored_key`), so the bit is free, and the lock lives in the line the
/// probe reads anyway, already prefetched: a separate array of lock stripes that both threads
/// wrote at random left 16 % fewer nodes in a minute at `Threads 2` (figures in
/// `docs/bench/table.md`).
pub(super) const LOCK_BIT: u64 = 1;

/// The pattern `stored_key` folds the side to move in with (even: bit 0 stays the side's).
pub(super) const SIDE_MIX: u64 = 0x6A09_E667_F3BC_C908;

/// The form a key is stored and compared in: bit 0 (the side to move) folded into the other
/// bits by a fixed random pattern, and cleared for the lock. A key and the key that differs
/// from it in the side to move and in the pattern's bits now compare equal: one bit less of
/// verification (the cluster index and the 63 others remain), one lock bit gained.
#[inline(always)]
pub(super) fn stored_key(key: u64) -> u64 {
    (key ^ (key & 1).wrapping_mul(SIDE_MIX)) & !LOCK_BIT
}

// SAFETY: a cluster is atomic integers with no drop glue; all zero bytes are eight empty
// entries (its default).
unsafe impl Zeroable for Cluster {}

const _: () = assert!(std::mem::size_of::<Body>() == 24);
const _: () = assert!(std::mem::size_of::<Cluster>() == 256);

/// The largest effort an entry records (2^24 - 1): the effort shares its word with the
/// generation stamp. Efforts are node counts below a node, compared only with each other (by
/// `place` and `gc`); the few above 16.7 M nodes (the top of a search of many millions) tie.
pub(super) const MAX_EFFORT: u32 = (1 << 24) - 1;

/// The key pattern of generation `g` (see `Table::new_game`): 0 for generation 0, so that a
/// zeroed table is generation 0's; otherwise splitmix64's output function of `g` (Steele,
/// Lea and Flood 2014), even, so that bit 0 stays free for the lock and spill bits.
pub(super) fn generation_pattern(g: u64) -> u64 {
    if g == 0 {
        return 0;
    }
    let mut z = g.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) & !1
}
