//! Transposition table for df-pn: fixed size, never grows, keyed by the board (side to move
//! included) with the attacker's hand stored in each entry, so that one entry answers for every
//! dominating or dominated hand (Nagai 2002; KomoringHeights' `regular_table`).
//!
//! Layout: clusters of 8 entries, 256 bytes, aligned to 128: the eight keys in the first cache
//! line, the eight bodies in the other three (see `Cluster`); only the key line is prefetched.
//! Every hand of one board shares its cluster, and when a board holds four or more of its full
//! cluster's slots its next entries go to the cluster's buddy, the other of its aligned pair,
//! and the cluster is flagged so that its lookups read both (see `SPILL_AT`). Eight, not four:
//! a board whose king shuffles while pieces are dropped and taken back has many hands, and with
//! four the short proof of one hand was evicted by another's (figures in
//! `docs/bench/table.md`). An entry (32 bytes: the key in the key line, the rest in the body):
//!
//! | field   | bytes | meaning                                                          |
//! |---------|-------|------------------------------------------------------------------|
//! | key     | 8     | board key, bit 0 folded in, generation pattern XORed in           |
//! |         |       | (`stored_key`; 0 = empty slot); its 63 high bits verified on      |
//! |         |       | every hit; bit 0 of a cluster's first is its lock, of its second  |
//! |         |       | the spill flag                                                   |
//! | parent  | 4     | tag of the node that created it: the high 32 bits of its board    |
//! |         |       | key, bit 0 set (`dfpn::path::tag`; the DAG test)                 |
//! | effort  | 3     | search effort spent below this node (for replacement and GC),     |
//! |         |       | saturated at 2^24 - 1                                            |
//! | stamp   | 1     | low 8 bits of the generation that wrote it                       |
//! | v       | 16    | the node's `Value`: pn, dn (4+4), hand (4: proof hand if proven,  |
//! |         |       | disproof hand if disproven), len (2), best move (2)               |
//!
//! Length bounds: a proof holds for every remaining length of at least its `len`, a disproof for
//! every remaining length of at most its `len`. The shortest-mate post-search's depth-limited
//! failures are thus stored as "no mate within n plies" (they depend on the position and the
//! remaining length, not on the path) and shared between transpositions; only repetition
//! failures stay path-dependent. A board and hand may have a proof, a disproof of a shorter
//! length and an unsolved entry (for a longer remaining length) side by side.
//!
//! Files: `layout` (entry, body, slot and cluster, the lock and spill bits, key and generation
//! patterns), `lock` (cluster locks of a shared table), `rules` (lookup and store: dominance,
//! updates, spilling, replacement), `gc` (the collector); this file holds the table itself,
//! its public API and its memory.
//!
//! Replacement: a new entry takes an empty slot, else the slot of the lowest class with the
//! least effort: unsolved entries first, then disproofs within a length, then the rest; a
//! disproof within a length never evicts a proof or an unconditional disproof (the mating line
//! is read from the proofs). When occupancy passes `GC_TRIGGER` permille, `gc` drops every unsolved entry and
//! every length-bounded disproof at or below the median effort of a sample (KomoringHeights'
//! scheme), so long searches keep their expensive results.
//!
//! Generations: a new game (`usinewgame`) must forget everything, and zeroing the table wrote
//! all of it before the next answer (80 ms at 4 GB before a mate in one answered in 0.2 ms; see
//! `docs/bench/newgame.md`). Instead the table counts generations (`Table::new_game`): every
//! key stored and looked up has the generation's pattern XORed in (0 for generation 0, so a
//! zeroed table is generation 0's; splitmix64 of the count otherwise, bit 0 kept free), so an
//! earlier generation's entry matches no lookup and no store, with the same 63 bits of
//! verification as before; and every body carries the generation's low 8 bits (its stamp), so
//! that replacement (`place`), the collector, `hashfull` and the spill decisions count an
//! earlier generation's slot as empty. Nothing is written at a new game, except every 256th,
//! when the stamps come round again and the table is zeroed (otherwise entries of 256 games ago
//! would pass for live and hold their slots). A new game searches exactly as a zeroed table
//! (`tests::a_new_game_holds_what_a_zeroed_table_holds`): `place` takes the first slot that is
//! empty or stale, where a zeroed table takes the first empty one, and where an entry goes
//! depends on what the clusters hold, never on a spill flag, so that a flag left by an earlier
//! generation only makes lookups read the buddy too until a collection sets it again. A table
//! with nothing stored in its generation stays in it at a new game (stamp 0 then stays 0, and
//! `place` reads no body before the key line is full). The line readers read the table through
//! lookups, so they see the new generation only; the solver forgets its remembered mate and
//! repetition failures at the same time (`Solver::new_game`).

mod gc;
mod layout;
mod lock;
mod rules;

pub use gc::GC_TRIGGER;

use super::hugebuf::{HugeBuf, Resident, RESIDENT_STEP};
use super::value::Value;
use layout::{generation_pattern, Cluster, SIDE_MIX, WAYS};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// What a lookup learned about (board, hand).
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// The numbers: a proof or disproof that applies (with its own hand and length), else
    /// bounds from unsolved entries, else (1, 1) with the hand looked up.
    pub v: Value,
    /// Parent tag of the exact-hand entry (for double-count detection), if one exists.
    pub parent: Option<u32>,
    /// Some entry applied.
    pub found: bool,
    /// The shallowest ply from the root at which the exact-hand unsolved entry was searched
    /// (`None`: no such entry, or it was stored without a ply); the threshold control of
    /// `dfpn::search` compares it with the ply at which the position is met now.
    pub shallowest_ply: Option<u16>,
}

/// The transposition table: `mb` megabytes of 8-way clusters, any number of them (see
/// `cluster_index`).
pub struct Table {
    clusters: HugeBuf<Cluster>,
    size_mb: usize,
    /// Several search threads use the table: every cluster access takes its lock.
    shared: bool,
    /// Lock acquisitions that found their cluster held, and the spin rounds they waited
    /// (counted on the contended path only, so the uncontended one stays two instructions).
    lock_waits: AtomicU64,
    lock_spins: AtomicU64,
    /// New games so far (see `Table::new_game`).
    generation: u64,
    /// `generation_pattern(generation)`, folded into every key stored and looked up.
    pattern: u64,
    /// The low 8 bits of `generation`, written into every body stored.
    stamp: u8,
    /// Something was stored since the table was zeroed or moved to its generation: without
    /// it a new game has nothing to forget and stays in the generation (see `new_game`).
    written: AtomicBool,
}

/// Clusters per megabyte.
const CLUSTERS_PER_MB: usize = (1 << 20) / std::mem::size_of::<Cluster>();

/// Memory the system can give now in MB (Linux `MemAvailable`, or the process's memory cgroup's
/// room when less; Windows `GlobalMemoryStatusEx`; `None` where unknown): see
/// [`crate::system`].
pub fn available_memory_mb() -> Option<usize> {
    crate::system::available_memory_mb()
}

/// The largest table (MB) to allocate now when `have` MB of tables are held and freed first:
/// ¾ of the available memory (`None` where that is unknown). Tables are mapped lazily (see
/// `hugebuf`), so the kernel grants more than is free, and a search that fills the table would
/// be killed by the OOM killer; the quarter left is for the search's other buffers, the rest of
/// the system and the page cache.
pub fn hash_limit_mb(have: usize) -> Option<usize> {
    available_memory_mb().map(|avail| ((avail + have) * 3 / 4).max(1))
}

impl Table {
    /// A table of `mb` megabytes (at least 1), or `None` if that much memory cannot be had.
    /// Its pages are zero-filled lazily, on first touch (see `hugebuf`).
    pub fn try_new(mb: usize) -> Option<Table> {
        let mb = mb.max(1);
        let n = mb.checked_mul(CLUSTERS_PER_MB)?;
        Some(Table {
            clusters: HugeBuf::try_new(n)?,
            size_mb: mb,
            shared: false,
            lock_waits: AtomicU64::new(0),
            lock_spins: AtomicU64::new(0),
            generation: 0,
            pattern: 0,
            stamp: 0,
            written: AtomicBool::new(false),
        })
    }

    /// A table of `mb` megabytes, or of the largest half, quarter, ... of it that can be
    /// allocated (`size_mb` says which). Only a process that cannot get 1 MB ends here.
    pub fn new(mb: usize) -> Table {
        let asked = mb.max(1);
        let mut mb = asked;
        loop {
            if let Some(t) = Table::try_new(mb) {
                if mb < asked {
                    log::warn!(
                        "a transposition table of {asked} MB could not be allocated; using {mb} MB"
                    );
                }
                return t;
            }
            if mb == 1 {
                // Nothing else of the engine could be allocated either.
                panic!("out of memory: not even a 1 MB transposition table can be allocated");
            }
            log::debug!(
                "a table of {mb} MB could not be allocated; trying {}",
                mb / 2
            );
            mb /= 2;
        }
    }

    /// Whether several search threads will use the table from now on (then every access to a
    /// cluster takes its lock; one thread takes none). The words are atomics either way, so a
    /// wrong setting can lose consistency between an entry's words but never memory safety.
    pub fn set_shared(&mut self, shared: bool) {
        self.shared = shared;
    }

    /// Whether every access takes its cluster's lock (see [`Table::set_shared`]).
    pub fn is_shared(&self) -> bool {
        self.shared
    }

    /// The buddy of cluster `i`, where its crowded boards spill (see `SPILL_AT`): the other of
    /// its aligned pair, in the same 4 KB page; the last cluster of an odd count has none (its
    /// own index).
    #[inline(always)]
    fn buddy(&self, i: usize) -> usize {
        if i ^ 1 < self.clusters.len() {
            i ^ 1
        } else {
            i
        }
    }

    /// Whether stored key `s` has its home in cluster `i`: `s` is the key itself or, for the
    /// other side to move, the key with `SIDE_MIX` folded in (see `stored_key`), so either may
    /// have been its index.
    fn homed_at(&self, s: u64, i: usize) -> bool {
        self.cluster_index(s) == i || self.cluster_index((s ^ SIDE_MIX) | 1) == i
    }

    /// Lock acquisitions so far that found their cluster held, and the spin rounds they waited
    /// (contention of a shared table; see `docs/bench/threads.md`).
    pub fn lock_waits(&self) -> (u64, u64) {
        (self.lock_waits.load(Relaxed), self.lock_spins.load(Relaxed))
    }

    pub fn size_mb(&self) -> usize {
        self.size_mb
    }

    /// Empties the table; a resident table stays resident, zeroed by `threads` threads.
    pub fn clear(&mut self, threads: usize) {
        self.clusters.zero(threads);
        *self.written.get_mut() = false;
    }

    /// Forgets every entry in O(1): the table moves to a new generation, whose key pattern
    /// differs from every earlier one's, so that no earlier entry matches a lookup or a store
    /// again, and whose stamp marks its entries, so that `place`, `gc`, `hashfull` and the
    /// spill flags count the others' slots as empty. A new game thus writes nothing, where
    /// zeroing the table (`clear`) writes all of it: 80 ms at 4 GB (see
    /// `docs/bench/newgame.md`). Every 256th generation the 8-bit stamps would come round
    /// again and show entries of 256 games ago as live: the table is then zeroed instead.
    ///
    /// A table with nothing stored in its generation stays in it: it holds nothing to forget,
    /// and its stamp then stays 0 where it was (a GUI sends `usinewgame` before the first
    /// search), for which `place` knows no slot is stale and reads no body to find room.
    pub fn new_game(&mut self, threads: usize) {
        if !*self.written.get_mut() {
            return;
        }
        *self.written.get_mut() = false;
        self.generation += 1;
        self.pattern = generation_pattern(self.generation);
        self.stamp = self.generation as u8;
        if self.stamp == 0 {
            self.clear(threads);
        }
    }

    /// Touches every page of the table now, with `threads` threads (see
    /// `HugeBuf::make_resident`): for the moment a GUI waits for anyway (`isready`), so that
    /// the search does not pay the page faults, and so that the memory the table stands for is
    /// held before the search counts on it.
    ///
    /// Memory is watched as the pages are touched: when what is available falls below an
    /// eighth of what was available at the start (plus one step), another process is taking
    /// memory at the same time (alone, the table cannot take more than the three quarters
    /// `hash_limit_mb` allows), and the table is cut where it is rather than have the kernel
    /// kill one of the two when both are full. Returns what came of it: when cut,
    /// [`Table::size_mb`] says what is left; when not whole, the table is emptied (a cut one's
    /// entries sit in clusters chosen for the old size; one not held gives its pages back).
    pub fn make_resident(&mut self, threads: usize) -> Resident {
        let step_mb = RESIDENT_STEP >> 20;
        let floor = available_memory_mb().map(|start| start / 8 + step_mb);
        let got = self.clusters.make_resident(threads, || match floor {
            Some(floor) => available_memory_mb().is_none_or(|now| now >= floor),
            None => true,
        });
        if got != Resident::Whole {
            self.size_mb = self.clusters.len() / CLUSTERS_PER_MB;
            self.clusters.zero(threads);
        }
        got
    }

    /// The cluster of `key`: `key / 2^64` scaled to the number of clusters (Lemire's
    /// multiply-shift), so any number of clusters is used evenly, not only a power of two. The
    /// index comes from the key's high bits (the top `log2(clusters)` or so), which keeps it
    /// apart from bit 0, the side to move, which `stored_key` folds into the other bits. The
    /// entry stores the key and compares its 63 high bits (bit 0 gave way to the lock and spill
    /// bits), so sharing bits with the index loses nothing. (An entry's parent tag, the high 32
    /// bits of its parent's key, is compared with the tags of the path's nodes, never with
    /// the index.)
    #[inline(always)]
    fn cluster_index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Asks the CPU to start loading the key line of `key`'s cluster (a hint; no effect on
    /// results). The key line alone: most lookups miss and read nothing else, and a hit's body
    /// is read from the line the hardware brings beside it or on demand.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let keys = self.clusters[self.cluster_index(key)].keys.as_ptr() as *const i8;
            // SAFETY: the pointer points into our own live allocation; prefetch never faults
            // and has no effect on memory contents.
            unsafe { core::arch::x86_64::_mm_prefetch(keys, core::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Occupancy in permille, from the first 1000 clusters: entries of the current generation.
    pub fn hashfull(&self) -> u32 {
        let n = self.clusters.len().min(1000);
        let used: usize = self.clusters[..n]
            .iter()
            .map(|c| c.slots().filter(|s| s.live(self.stamp)).count())
            .sum();
        (used * 1000 / (n * WAYS)) as u32
    }
}

#[cfg(test)]
mod tests;
