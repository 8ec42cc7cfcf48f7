//! Transposition table for df-pn: fixed size, never grows, keyed by the board (side to move
//! included) with the attacker's hand stored in each entry, so that one entry answers for every
//! dominating or dominated hand (Nagai 2002; KomoringHeights' `regular_table`).
//!
//! Layout: clusters of 8 entries, 256 bytes, aligned to 128: the eight keys in the first cache
//! line, the eight bodies in the other three (see `Cluster`); only the key line is prefetched.
//! Every hand of one board shares its cluster, and when a board holds four or more of its full
//! cluster's slots its next entries go to the cluster's buddy, the other of its aligned pair,
//! and the cluster is flagged so that its lookups read both (see `SPILL_AT`). A board whose king shuffles
//! while pieces are dropped and taken back has many: with 4 entries, the short proof of one hand
//! was evicted by another hand's, leaving a longer proof borrowed from a smaller hand whose moves
//! led back onto the reading path. The first minimax reading of 世界大戦 (395 plies) then failed
//! (208,755 positions read, 1,249 re-proven) and a 141-ply walk was shown under a bound of 601;
//! with 8 entries it reads at once (429 plies). First proofs within 1 M nodes, famous.tsv: 191
//! solved either way (86 and 88 at the set's length), at the same speed. An entry (32 bytes: the
//! key in the key line, the rest in the body):
//!
//! | field   | bytes | meaning                                                          |
//! |---------|-------|------------------------------------------------------------------|
//! | key     | 8     | board key, bit 0 folded in (`stored_key`; 0 = empty slot);        |
//! |         |       | verified on every hit; bit 0 of a cluster's first is its lock    |
//! | parent  | 4     | low bits of the board key of the node that created it (DAG test) |
//! | amount  | 3     | search effort spent below this node (for replacement and GC),     |
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
//! Replacement: a new entry takes an empty slot, else the slot of the lowest class with the
//! least amount: unsolved entries first, then disproofs within a length, then the rest; a
//! disproof within a length never evicts a proof or an unconditional disproof (the mating line
//! is read from the proofs). When occupancy passes `GC_TRIGGER` permille, `gc` drops every unsolved entry and
//! every length-bounded disproof at or below the median amount of a sample (KomoringHeights'
//! scheme), so long searches keep their expensive results.
//!
//! Generations: a new game (`usinewgame`) must forget everything, and zeroing the table wrote
//! all of it before the next answer (80 ms at 4 GB for a mate in one answered in 0.2 ms; see
//! `docs/bench/newgame.md`). Instead the table counts generations (`Table::new_game`): every
//! key stored and looked up has the generation's pattern XORed in (0 for generation 0, so a
//! zeroed table is generation 0's; splitmix64 of the count otherwise, bit 0 kept free), so an
//! earlier generation's entry matches no lookup and no store, with the same 63 bits of
//! verification as before; and every body carries the generation's low 8 bits (its stamp), so
//! that replacement (`place`, which reads bodies only when the key line is full), the
//! collector, `hashfull` and the spill decisions count an earlier generation's slot as empty.
//! Nothing is written at a new game, except every 256th, when the stamps come round again and
//! the table is zeroed (otherwise entries of 256 games ago would pass for live and hold their
//! slots). A spill flag left by an earlier generation only makes lookups read the buddy too
//! until a collection sets it again. The line readers read the table through lookups, so they
//! see the new generation only; the solver forgets its remembered mate and repetition failures
//! at the same time (`Solver::new_game`).

use super::hugebuf::{HugeBuf, Zeroable, RESIDENT_STEP};
use super::value::{Value, INF, NO_MATE};
use crate::shogi::{Hand, Move};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What one slot holds (layout in the module docs), read out of the table.
#[derive(Clone, Copy, Default, Debug)]
struct Entry {
    key: u64,
    parent: u32,
    amount: u32,
    /// The generation that wrote it (`Table::stamp`): another's is dead (see `Table::new_game`).
    stamp: u8,
    v: Value,
}

impl Entry {
    /// Replacement class: 0 unsolved, 1 disproof within a length only (cheap to find again),
    /// 2 proof or unconditional disproof.
    #[inline]
    fn class(&self) -> u8 {
        let v = &self.v;
        if v.pn == 0 || (v.dn == 0 && v.len == NO_MATE) {
            2
        } else if v.dn == 0 {
            1
        } else {
            0
        }
    }
}

/// The body of one slot (everything but its key) in three words. The words are atomics so that
/// search threads can share the table without `unsafe`: with one thread, relaxed loads and
/// stores compile to plain moves; with several, every access to a cluster holds its lock (see
/// `Table::lock`), so an entry is never read half-written.
#[derive(Default)]
#[repr(C)]
struct Body {
    /// parent (low 32 bits), amount (next 24, saturated at `MAX_AMOUNT`), generation stamp
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
struct Slot<'a> {
    k: &'a AtomicU64,
    b: &'a Body,
}

impl Slot<'_> {
    #[inline(always)]
    fn key(&self) -> u64 {
        self.k.load(Relaxed) & !LOCK_BIT
    }

    #[inline(always)]
    fn value(&self) -> Value {
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
    fn parent(&self) -> u32 {
        self.b.meta.load(Relaxed) as u32
    }

    #[inline(always)]
    fn amount(&self) -> u32 {
        (self.b.meta.load(Relaxed) >> 32) as u32 & MAX_AMOUNT
    }

    #[inline(always)]
    fn stamp(&self) -> u8 {
        (self.b.meta.load(Relaxed) >> 56) as u8
    }

    /// Whether the slot holds an entry of the generation stamped `stamp` (see
    /// `Table::new_game`): a slot of another generation counts as empty.
    #[inline(always)]
    fn live(&self, stamp: u8) -> bool {
        self.key() != 0 && self.stamp() == stamp
    }

    #[inline(always)]
    fn load(&self) -> Entry {
        Entry {
            key: self.key(),
            parent: self.parent(),
            amount: self.amount(),
            stamp: self.stamp(),
            v: self.value(),
        }
    }

    #[inline(always)]
    fn set(&self, e: &Entry) {
        // The first key word keeps the lock bit of the cluster while it is held (see
        // `LOCK_BIT`); only the holder writes, so the bit read here is its own.
        self.k
            .store(e.key | (self.k.load(Relaxed) & LOCK_BIT), Relaxed);
        self.b.meta.store(
            e.parent as u64 | (e.amount as u64) << 32 | (e.stamp as u64) << 56,
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
    fn set_len(&self, v: &Value, len: u16, best: Move) {
        self.b.rest.store(
            v.hand.0 as u64 | (len as u64) << 32 | (best.0 as u64) << 48,
            Relaxed,
        );
    }

    fn clear(&self) {
        self.set(&Entry::default());
    }
}

const WAYS: usize = 8;

/// Eight slots in four cache lines: the eight keys first, in one line, then the eight bodies.
/// Most lookups miss (a long search spends two thirds of its nodes on positions new to the
/// table, see `Profile`), and a miss reads the key line only; with whole entries side by side
/// it read all four lines.
#[derive(Default)]
#[repr(C, align(128))]
struct Cluster {
    keys: [AtomicU64; WAYS],
    bodies: [Body; WAYS],
}

impl Cluster {
    #[inline(always)]
    fn slot(&self, i: usize) -> Slot<'_> {
        Slot {
            k: &self.keys[i],
            b: &self.bodies[i],
        }
    }

    #[inline(always)]
    fn slots(&self) -> impl Iterator<Item = Slot<'_>> {
        self.keys
            .iter()
            .zip(&self.bodies)
            .map(|(k, b)| Slot { k, b })
    }

    /// Whether key word `k` of this cluster holds no entry (the lock bit aside).
    #[inline(always)]
    fn is_empty(k: &AtomicU64) -> bool {
        k.load(Relaxed) & !LOCK_BIT == 0
    }

    /// Whether some board of this cluster has entries in its buddy (see `SPILL_AT`): bit 0 of
    /// the second key word, free like every key word's bit 0 (see `stored_key`).
    #[inline(always)]
    fn spilled(&self) -> bool {
        self.keys[1].load(Relaxed) & SPILL_BIT != 0
    }

    fn set_spilled(&self, on: bool) {
        let w = &self.keys[1];
        w.store(
            (w.load(Relaxed) & !SPILL_BIT) | (on as u64 * SPILL_BIT),
            Relaxed,
        );
    }

    #[inline(always)]
    fn has_empty(&self) -> bool {
        self.keys.iter().any(Cluster::is_empty)
    }

    /// Whether some slot holds an entry of a generation other than `stamp`'s (free for a new
    /// entry, see `Table::new_game`). Reads the bodies: only for a full cluster.
    fn has_stale(&self, stamp: u8) -> bool {
        self.slots().any(|s| !s.live(stamp))
    }

    /// Whether board `key` holds `SPILL_AT` slots or more here.
    #[inline(always)]
    fn crowded(&self, key: u64) -> bool {
        self.keys
            .iter()
            .filter(|k| k.load(Relaxed) & !LOCK_BIT == key)
            .count()
            >= SPILL_AT
    }
}

/// The spill flag of a cluster: bit 0 of its second key word (the first's is the lock).
const SPILL_BIT: u64 = 1;

/// Entries of one board in its cluster from which its next new entry, if the cluster is full,
/// goes to the buddy cluster (the other of its aligned pair) instead of evicting an entry here.
/// A cluster is chosen by the board alone, so every hand of a board shares eight slots, and in
/// problems where the attacker holds many pieces the search meets many hands of one board:
/// evicting one of them for another loses work that is then done again. Measured with
/// `RUST_LOG=info` counters, one thread, 2 GB, the first 16.8 M-node interval: in 明日香 624,871
/// of 16.6 M stores evicted an entry, 517,343 of them an entry of the same board (and 4.9 M of
/// 16.5 M stores at 38 % occupancy, 8 GB); in Ambergris 821,629 and 771,181 of 15.0 M; in 乱,
/// 新桃花源 and FAIRWAY 9-30 k, half of them the same board's. Only crowded boards spill, so
/// the others' lookups read one key line as before; a spilled cluster's lookups read its
/// buddy's key line too. Measured 2026-11-26, one thread: Ambergris at 2 GB, answered with its
/// shortest (619) in 27.7 M nodes and 63 s instead of 68.4 M and 110 s; the first proof of 乱
/// at 4 GB in 55.1 M nodes instead of 92.4 M; 新桃花源, FAIRWAY and Microcosmos within 5 % of
/// their node counts; Microcosmos' first 15 M nodes in 0.94 of the time (5 pairs in turn).
/// (Sixteen slots a cluster instead, two key lines per lookup: Ambergris in 17.4 M nodes, 乱
/// in 106.9 M at 15 % fewer nodes per second.)
const SPILL_AT: usize = 4;

/// The cluster lock of a shared table: bit 0 of the cluster's first key word. Keys are stored
/// with bit 0 clear (see `stored_key`), so the bit is free, and the lock lives in the line the
/// probe reads anyway, already prefetched. It used to be a separate array of 65,536 lock
/// stripes (64 KB) that both threads wrote at random: nearly every acquisition then took a
/// line the other core had just written, and a locked instruction waits for it. 乱 at
/// `Threads 2`, 8 GB, nodes in the first 60 s, alternating, two runs each: 36.2 and 39.4 M
/// with the stripes, 43.5 and 46.1 M with this bit, 46.0 and 45.9 M with no lock at all (a
/// measurement build, unsafe for answers).
const LOCK_BIT: u64 = 1;

/// The pattern `stored_key` folds the side to move in with (even: bit 0 stays the side's).
const SIDE_MIX: u64 = 0x6A09_E667_F3BC_C908;

/// The form a key is stored and compared in: bit 0 (the side to move) folded into the other
/// bits by a fixed random pattern, and cleared for the lock. A key and the key that differs
/// from it in the side to move and in the pattern's bits now compare equal: one bit less of
/// verification (the cluster index and the 63 others remain), one lock bit gained.
#[inline(always)]
fn stored_key(key: u64) -> u64 {
    (key ^ (key & 1).wrapping_mul(SIDE_MIX)) & !LOCK_BIT
}

// SAFETY: a cluster is atomic integers with no drop glue; all zero bytes are eight empty
// entries (its default).
unsafe impl Zeroable for Cluster {}

const _: () = assert!(std::mem::size_of::<Body>() == 24);
const _: () = assert!(std::mem::size_of::<Cluster>() == 256);

/// Spin rounds on a held cluster lock before the waiter yields its core (see `Table::lock`); a
/// power of two.
const SPINS_BEFORE_YIELD: u64 = 64;

/// The largest effort an entry records (2^24 - 1): the amount shares its word with the
/// generation stamp. Efforts are node counts below a node, compared only with each other (by
/// `place` and `gc`); the few above 16.7 M nodes (the top of a search of many millions) tie.
const MAX_AMOUNT: u32 = (1 << 24) - 1;

/// The key pattern of generation `g` (see `Table::new_game`): 0 for generation 0, so that a
/// zeroed table is generation 0's; otherwise splitmix64's output function of `g` (Steele,
/// Lea and Flood 2014), even, so that bit 0 stays free for the lock and spill bits.
fn generation_pattern(g: u64) -> u64 {
    if g == 0 {
        return 0;
    }
    let mut z = g.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) & !1
}

/// Occupancy (permille) at which a garbage collection runs.
pub const GC_TRIGGER: u32 = 900;

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
    /// The shallowest ply from the root at which the exact-hand unsolved entry was searched,
    /// plus one (0: none); the threshold control of `dfpn::search` compares it with the ply
    /// at which the position is met now.
    pub depth: u16,
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
}

/// Clusters per megabyte.
const CLUSTERS_PER_MB: usize = (1 << 20) / std::mem::size_of::<Cluster>();

/// Memory the system can give now in MB (Linux `MemAvailable`, Windows
/// `GlobalMemoryStatusEx`; `None` where unknown): see [`crate::system`].
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

/// Holds a cluster's lock (when the table is shared) until dropped: the cluster's first key
/// word, whose `LOCK_BIT` it clears on release.
struct Guard<'a>(Option<&'a AtomicU64>);

impl Drop for Guard<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(w) = self.0 {
            // While the bit is set only the holder changes the word (the others' `fetch_or`
            // writes it unchanged), so a load and a store lose nothing.
            w.store(
                w.load(Relaxed) & !LOCK_BIT,
                std::sync::atomic::Ordering::Release,
            );
        }
    }
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

    /// Takes the lock of cluster `c` if the table is shared (see `LOCK_BIT`): a spin lock held
    /// for one probe or store (a few dozen instructions), so spinning is cheaper than parking.
    /// After `SPINS_BEFORE_YIELD` rounds the waiter yields its core: with more
    /// threads than cores (`Threads` 8 on this 2-core machine) the holder may have been
    /// preempted, and spinning would burn the rest of the waiter's time slice while the holder
    /// cannot run.
    #[inline(always)]
    fn lock<'c>(&self, c: &'c Cluster) -> Guard<'c> {
        if !self.shared {
            return Guard(None);
        }
        let w = &c.keys[0];
        if w.fetch_or(LOCK_BIT, std::sync::atomic::Ordering::Acquire) & LOCK_BIT != 0 {
            self.lock_slow(w);
        }
        Guard(Some(w))
    }

    /// Locks clusters `a` and `b` (the lower index first, so that two threads locking the same
    /// pair never wait for each other; `a == b` locks it once).
    #[inline]
    fn lock_pair(&self, a: usize, b: usize) -> (Guard<'_>, Guard<'_>) {
        let (lo, hi) = (a.min(b), a.max(b));
        let first = self.lock(&self.clusters[lo]);
        let second = if hi == lo {
            Guard(None)
        } else {
            self.lock(&self.clusters[hi])
        };
        (first, second)
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

    /// The contended path of `lock`: spin (then yield) until `w`'s lock bit is taken, counting the wait.
    #[cold]
    #[inline(never)]
    fn lock_slow(&self, w: &AtomicU64) {
        let mut spins = 0u64;
        loop {
            // Reads while it is held, so that the waiter does not take the line from the
            // holder at every round.
            while w.load(Relaxed) & LOCK_BIT != 0 {
                spins += 1;
                if spins & (SPINS_BEFORE_YIELD - 1) == 0 {
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
            }
            if w.fetch_or(LOCK_BIT, std::sync::atomic::Ordering::Acquire) & LOCK_BIT == 0 {
                break;
            }
        }
        self.lock_waits.fetch_add(1, Relaxed);
        self.lock_spins.fetch_add(spins, Relaxed);
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
    }

    /// Forgets every entry in O(1): the table moves to a new generation, whose key pattern
    /// differs from every earlier one's, so that no earlier entry matches a lookup or a store
    /// again, and whose stamp marks its entries, so that `place`, `gc`, `hashfull` and the
    /// spill flags count the others' slots as empty. A new game thus writes nothing, where
    /// zeroing the table (`clear`) writes all of it: 320 ms at 4 GB (see
    /// `docs/bench/newgame.md`). Every 256th generation the 8-bit stamps would come round
    /// again and show entries of 256 games ago as live: the table is then zeroed instead.
    pub fn new_game(&mut self, threads: usize) {
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
    /// kill one of the two when both are full. Returns `false` when cut: [`Table::size_mb`]
    /// says what is left, and the table is emptied (entries sit in clusters chosen for the old
    /// size).
    pub fn make_resident(&mut self, threads: usize) -> bool {
        let step_mb = RESIDENT_STEP >> 20;
        let floor = available_memory_mb().map(|start| start / 8 + step_mb);
        let whole = self.clusters.make_resident(threads, || match floor {
            Some(floor) => available_memory_mb().is_none_or(|now| now >= floor),
            None => true,
        });
        if !whole {
            self.size_mb = self.clusters.len() / CLUSTERS_PER_MB;
            self.clusters.zero(threads);
        }
        whole
    }

    /// The cluster of `key`: `key / 2^64` scaled to the number of clusters (Lemire's
    /// multiply-shift), so any number of clusters is used evenly, not only a power of two. The
    /// index comes from the key's high bits (the top `log2(clusters)` or so), which keeps it
    /// independent of the low bits that carry their own meaning: bit 0 is the side to move and
    /// the low 32 bits are the parent tag compared by the double-count test. The entry stores
    /// the full key and compares all 64 bits, so sharing bits with the index loses nothing.
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

    /// Looks up (key, hand) with `remaining` plies allowed from here (`u32::MAX`: no limit):
    /// exact entries give their numbers; dominance gives proofs (our hand ⊇ proof hand, mate
    /// within `remaining`), disproofs (our hand ⊆ disproof hand, no mate within at least
    /// `remaining`) and bounds from unsolved entries.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand, remaining: u32) -> Probe {
        let h = self.cluster_index(key);
        let home = &self.clusters[h];
        let key = stored_key(key) ^ self.pattern;
        let guard = self.lock(home);
        if !home.spilled() {
            return Self::probe_in(home.slots(), key, hand, remaining);
        }
        drop(guard);
        self.probe_spilled(h, key, hand, remaining)
    }

    /// `probe` of a spilled cluster `h` (stored key `key`): it and its buddy. Out of line, so
    /// that the common path stays small where it is inlined.
    #[cold]
    #[inline(never)]
    fn probe_spilled(&self, h: usize, key: u64, hand: Hand, remaining: u32) -> Probe {
        let b = self.buddy(h);
        let _guards = self.lock_pair(h, b);
        let both = self.clusters[h].slots().chain(self.clusters[b].slots());
        Self::probe_in(both, key, hand, remaining)
    }

    /// `probe` over the slots given (stored key `key`).
    #[inline(always)]
    fn probe_in<'c>(
        slots: impl Iterator<Item = Slot<'c>>,
        key: u64,
        hand: Hand,
        remaining: u32,
    ) -> Probe {
        let mut r = Probe {
            v: Value::unsolved(1, 1, hand),
            parent: None,
            found: false,
            depth: 0,
        };
        let mut proof: Option<(Value, Slot)> = None;
        for e in slots {
            if e.key() != key {
                continue;
            }
            let ev = &e.value();
            if ev.pn == 0 {
                // Of several usable proofs, the shortest.
                if hand.superior_or_equal(ev.hand)
                    && ev.len as u32 <= remaining
                    && proof.is_none_or(|(p, _)| ev.len < p.len)
                {
                    proof = Some((*ev, e));
                }
            } else if ev.dn == 0 {
                if ev.hand.superior_or_equal(hand)
                    && (ev.len == NO_MATE || ev.len as u32 >= remaining)
                {
                    return Probe {
                        v: Value { pn: INF, ..*ev },
                        parent: Some(e.parent()),
                        found: true,
                        depth: 0,
                    };
                }
            } else if ev.hand == hand {
                r.v.pn = r.v.pn.max(ev.pn);
                r.v.dn = r.v.dn.max(ev.dn);
                r.parent = Some(e.parent());
                r.v.best = ev.best;
                r.found = true;
                // An unsolved entry's length field holds its shallowest ply (see `store`).
                r.depth = ev.len;
            } else if hand.superior_or_equal(ev.hand) {
                // More attacker pieces than there: at least as hard to disprove.
                r.v.dn = r.v.dn.max(ev.dn);
            } else if ev.hand.superior_or_equal(hand) {
                // Fewer pieces: at least as hard to prove.
                r.v.pn = r.v.pn.max(ev.pn);
            }
        }
        if let Some((v, e)) = proof {
            return Probe {
                v: Value { dn: INF, ..v },
                parent: Some(e.parent()),
                found: true,
                depth: 0,
            };
        }
        r
    }

    /// Stores what is known of (key, `v.hand`): `parent` is the tag of the node that created
    /// the entry, `amount` the effort spent below it. An unsolved `v` carries in its length
    /// field the ply from the root it was searched at, plus one (0: unknown); the entry keeps
    /// the smallest (`Probe::depth`). Solved results replace the entries they
    /// dominate. A board crowded in its full cluster spills into the buddy (see `SPILL_AT`).
    #[inline]
    pub fn store(&self, key: u64, v: Value, parent: u32, amount: u32) {
        let h = self.cluster_index(key);
        let home = &self.clusters[h];
        let new = Entry {
            key: stored_key(key) ^ self.pattern,
            parent,
            amount: amount.min(MAX_AMOUNT),
            stamp: self.stamp,
            v,
        };
        {
            let _guard = self.lock(home);
            if !home.spilled() {
                if Self::update(home, &new) || Self::replace_redundant(home, &new) {
                    return;
                }
                if home.has_empty()
                    || !home.crowded(new.key)
                    || self.buddy(h) == h
                    || home.has_stale(new.stamp)
                {
                    Self::place(home, &new);
                    return;
                }
            }
        }
        // Between the two locks a collection may run and set the spill flags again from what
        // the pair holds; the flag is therefore set in `store_spilled`, under the pair's locks.
        #[cfg(test)]
        BETWEEN_LOCKS.with(|f| {
            if let Some(f) = f.get() {
                f(self)
            }
        });
        self.store_spilled(h, &new);
    }

    /// `store` into spilled cluster `h`: the board may have entries in it and in its buddy.
    /// Out of line, as `probe_spilled`.
    #[cold]
    #[inline(never)]
    fn store_spilled(&self, h: usize, new: &Entry) {
        let (home, b) = (&self.clusters[h], self.buddy(h));
        let buddy = &self.clusters[b];
        let _guards = self.lock_pair(h, b);
        if Self::update(home, new)
            || Self::update(buddy, new)
            || Self::replace_redundant(home, new)
            || Self::replace_redundant(buddy, new)
        {
            return;
        }
        if home.crowded(new.key) {
            // Under both locks, so that no collection (which sets every pair's flags from its
            // contents, see `gc`) can clear it before the entry is in the buddy.
            home.set_spilled(true);
            Self::place(buddy, new);
        } else {
            Self::place(home, new);
        }
    }

    /// Same key, hand and kind (proof, disproof, unsolved) in `c`: updates it in place and says
    /// so. A proof keeps the shorter length, a disproof the longer; an unsolved entry keeps the
    /// larger effort. A solved result replaces the unsolved entry of its hand; an unsolved
    /// result beside a solved one (a bound too short for the current length limit) takes a slot
    /// of its own.
    #[inline(always)]
    fn update(c: &Cluster, new: &Entry) -> bool {
        let Value {
            pn,
            dn,
            hand,
            len,
            best,
        } = new.v;
        let kind = |pn: u32, dn: u32| (pn == 0) as u8 | (((dn == 0) as u8) << 1);
        let new_kind = kind(pn, dn);
        for slot in c.slots() {
            if slot.key() != new.key {
                continue;
            }
            let ev = slot.value();
            if ev.hand != hand {
                continue;
            }
            let old_kind = kind(ev.pn, ev.dn);
            if old_kind == new_kind {
                match new_kind {
                    1 => {
                        if len < ev.len {
                            slot.set_len(&ev, len, best);
                        }
                    }
                    2 => {
                        if len > ev.len {
                            slot.set_len(&ev, len, best);
                        }
                    }
                    _ => {
                        let amount = new.amount.max(slot.amount());
                        // Unsolved: the length field keeps the shallowest ply seen (plus
                        // one, 0 = none).
                        let len = match (ev.len, len) {
                            (0, l) | (l, 0) => l,
                            (a, b) => a.min(b),
                        };
                        slot.set(&Entry {
                            amount,
                            v: Value { len, ..new.v },
                            ..*new
                        });
                    }
                }
                return true;
            }
            if old_kind == 0 {
                let amount = new.amount.max(slot.amount());
                slot.set(&Entry { amount, ..*new });
                return true;
            }
        }
        false
    }

    /// A proof makes entries of this board with superior hands redundant (unsolved ones, and
    /// proofs at least as long), and a disproof those with inferior hands (disproofs of at most
    /// its length; unsolved ones only if it holds at any length): a solved `new` takes such a
    /// slot of `c` and says so. A proof and a shorter disproof never make each other redundant.
    #[inline(always)]
    fn replace_redundant(c: &Cluster, new: &Entry) -> bool {
        let Value {
            pn, dn, hand, len, ..
        } = new.v;
        if pn != 0 && dn != 0 {
            return false;
        }
        let unsolved = |e: &Value| e.pn != 0 && e.dn != 0;
        for slot in c.slots() {
            if slot.key() != new.key {
                continue;
            }
            let ev = &slot.value();
            let redundant = if pn == 0 {
                ev.hand.superior_or_equal(hand) && (unsolved(ev) || (ev.pn == 0 && ev.len >= len))
            } else {
                hand.superior_or_equal(ev.hand)
                    && ((ev.dn == 0 && ev.len <= len) || (unsolved(ev) && len == NO_MATE))
            };
            if redundant {
                slot.set(new);
                return true;
            }
        }
        false
    }

    /// Puts `new` in an empty slot of `c`, else in place of the cheapest of the lowest class
    /// (unsolved, then length-bounded disproofs, then proofs and unconditional disproofs). A
    /// bounded disproof never evicts a proof: they come in floods from the shortest-mate rounds
    /// and would push out the proofs the mating line is read from. An unsolved entry may
    /// (dropping it instead made df-pn lose its numbers and thrash: a famous problem went from
    /// 24 s to unsolved in 60 s).
    #[inline(always)]
    fn place(c: &Cluster, new: &Entry) {
        // An empty slot is found in the key line alone; the bodies are read only when the
        // cluster is full.
        if let Some(i) = c.keys.iter().position(Cluster::is_empty) {
            c.slot(i).set(new);
            return;
        }
        let new_class = new.class();
        let mut victim = 0;
        let mut best_score = u64::MAX;
        for (i, slot) in c.slots().enumerate() {
            let e = slot.load();
            if e.stamp != new.stamp {
                // An earlier generation's: as good as empty.
                c.slot(i).set(new);
                return;
            }
            let score = ((e.class() as u64) << 40) | e.amount as u64;
            if score < best_score {
                best_score = score;
                victim = i;
            }
        }
        if new_class == 1 && (best_score >> 40) as u8 > new_class {
            return;
        }
        c.slot(victim).set(new);
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

    /// Makes room: drops every unsolved entry and length-bounded disproof whose effort is at or
    /// below the median of a sample (KomoringHeights' scheme, which keeps expensive results),
    /// and, when the table would still be over `GC_TARGET` permille full, the cheapest proofs
    /// and disproofs too, enough of them to bring it there.
    ///
    /// Solved entries used to be kept whatever their cost, and in a small table they filled it.
    /// Microcosmos at 128 MB, one thread, 300 s (measured 2026-11-26): the table was 533‰ full
    /// after the first collection and 790‰ after the ninth (60 s); from 44 M nodes on (about
    /// 80 s) every check found it over `GC_TRIGGER` and swept it, freeing almost nothing:
    /// 399 collections, 431 k nodes/s over the run, the shortest mate not proven. With
    /// solved entries dropped down to the target: 16 collections, each leaving the table
    /// about 600‰ full, 469 k nodes/s, and the shortest mate (1525) proven at 288 s. Ambergris
    /// at 16 MB, 60 s (the other core busy): 26 collections; from the fifth on each dropped
    /// about 110,000 unsolved and 23,000-50,000 solved entries (9-19% of the solved ones) and
    /// kept about 110,000 unsolved and 210,000 solved, leaving the table 600-640‰ full. Dropping
    /// a proof or disproof costs only the effort to find it again: a node's value is derived
    /// from its children's when it is solved and stored as a fact about the position, never
    /// contradicted by what the table forgets later, so answers do not depend on the table
    /// size; the line readers prove again any gap they meet.
    pub fn gc(&self) -> GcReport {
        let n = self.clusters.len().min(4096);
        let mut low: Vec<u32> = Vec::new();
        let mut high: Vec<u32> = Vec::new();
        for c in &self.clusters[..n] {
            let _guard = self.lock(c);
            for e in c.slots().map(|s| s.load()) {
                if e.key != 0 && e.stamp == self.stamp {
                    if e.class() < 2 {
                        low.push(e.amount);
                    } else {
                        high.push(e.amount);
                    }
                }
            }
        }
        low.sort_unstable();
        high.sort_unstable();
        let low_pivot = low.get(low.len() / 2).copied();
        // Sampled entries left after the first rule, against the target.
        let low_dropped = low_pivot.map_or(0, |p| low.partition_point(|&a| a <= p));
        let left = low.len() - low_dropped + high.len();
        let target = n * WAYS * GC_TARGET as usize / 1000;
        let high_pivot = (left > target && !high.is_empty()).then(|| {
            // At most half of the solved entries at once: the rest of the room comes from the
            // next collection, which finds the new unsolved entries first.
            let k = (left - target).min(high.len() / 2).max(1);
            let pivot = high[k - 1];
            // Many entries share the cheapest amounts (a mate in one costs 1), so "at or below
            // the pivot" could drop far more than k: of the entries at the pivot itself, drop
            // the fraction that makes k, chosen by key bits (uniform, independent of amount).
            // Without it one collection of Microcosmos at 128 MB dropped 1,015,516 solved
            // entries and left the table 392‰ full, far below the target.
            let below = high.partition_point(|&a| a < pivot);
            let at = high.partition_point(|&a| a <= pivot) - below;
            let share = ((k - below) * 256).div_ceil(at).min(256) as u32;
            (pivot, share)
        });
        let mut report = GcReport::default();
        // By aligned pairs, each the buddy of the other (see `SPILL_AT`), so that the spill
        // flags are set again from what is left: a cluster is spilled while its buddy holds an
        // entry homed in it.
        for i in (0..self.clusters.len()).step_by(2) {
            let j = self.buddy(i);
            let _guards = self.lock_pair(i, j);
            for x in if j == i { i..i + 1 } else { i..j + 1 } {
                self.sweep(x, low_pivot, high_pivot, &mut report);
            }
            if j != i {
                let (ci, cj) = (&self.clusters[i], &self.clusters[j]);
                let foreign = |c: &Cluster, at: usize| {
                    c.slots()
                        .any(|s| s.live(self.stamp) && !self.homed_at(s.key() ^ self.pattern, at))
                };
                ci.set_spilled(foreign(cj, j));
                cj.set_spilled(foreign(ci, i));
            }
        }
        report
    }

    /// The sweep of `gc` over cluster `x` (locked by the caller): drops what the pivots say.
    fn sweep(
        &self,
        x: usize,
        low_pivot: Option<u32>,
        high_pivot: Option<(u32, u32)>,
        report: &mut GcReport,
    ) {
        {
            let c = &self.clusters[x];
            for slot in c.slots() {
                let e = slot.load();
                if e.key == 0 {
                    continue;
                }
                if e.stamp != self.stamp {
                    // An earlier generation's (see `new_game`): dead, and not counted.
                    slot.clear();
                    continue;
                }
                let solved = e.class() == 2;
                let drop = if solved {
                    high_pivot.is_some_and(|(p, share)| {
                        e.amount < p || (e.amount == p && ((e.key >> 16) as u8 as u32) < share)
                    })
                } else {
                    low_pivot.is_some_and(|p| e.amount <= p)
                };
                match (solved, drop) {
                    (false, true) => report.unsolved_dropped += 1,
                    (false, false) => report.unsolved_kept += 1,
                    (true, true) => report.solved_dropped += 1,
                    (true, false) => report.solved_kept += 1,
                }
                if drop {
                    slot.clear();
                }
            }
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Run by `Table::store` between its lock of the home cluster and `store_spilled`'s lock of
    /// the pair, to interleave another table operation there deterministically.
    static BETWEEN_LOCKS: std::cell::Cell<Option<fn(&Table)>> = const { std::cell::Cell::new(None) };
}

/// Occupancy (permille) a garbage collection brings the table down to at least, dropping the
/// cheapest solved entries when the unsolved ones are not enough (see `Table::gc`).
pub const GC_TARGET: u32 = 600;

/// What one garbage collection dropped and kept, in entries: "unsolved" counts unsolved
/// entries and length-bounded disproofs, "solved" proofs and unconditional disproofs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GcReport {
    pub unsolved_dropped: u64,
    pub unsolved_kept: u64,
    pub solved_dropped: u64,
    pub solved_kept: u64,
}

#[cfg(test)]
mod tests;
