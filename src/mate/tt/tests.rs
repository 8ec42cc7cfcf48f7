use super::gc::GC_TARGET;
use super::layout::*;
use super::rules::BETWEEN_LOCKS;
use super::*;
use crate::mate::value::{INF, NO_MATE};
use crate::shogi::Hand;
use crate::shogi::{Move, PieceKind};
use std::sync::atomic::Ordering::Relaxed;

/// Stores (pn, dn, len) for (key, hand) with no parent and the given effort.
fn put(t: &mut Table, key: u64, hand: Hand, (pn, dn, len): (u32, u32, u16), effort: u32) {
    let v = Value {
        pn,
        dn,
        hand,
        len,
        best: Move::NONE,
    };
    t.store(key, v, 0, effort);
}

fn hand(kinds: &[PieceKind]) -> Hand {
    let mut h = Hand::EMPTY;
    for &k in kinds {
        h.add(k);
    }
    h
}

#[test]
fn proof_and_disproof_dominance() {
    let mut t = Table::new(1);
    let g = hand(&[PieceKind::Gold]);
    let gs = hand(&[PieceKind::Gold, PieceKind::Silver]);
    let s = hand(&[PieceKind::Silver]);
    put(&mut t, 42, g, (0, INF, 3), 1);
    assert_eq!(
        t.probe(42, gs, u32::MAX).v.pn,
        0,
        "superior hand reuses the proof"
    );
    assert_ne!(t.probe(42, s, u32::MAX).v.pn, 0, "other hand does not");
    assert!(!t.probe(43, gs, u32::MAX).found, "other key never matches");
    put(&mut t, 7, gs, (INF, 0, NO_MATE), 1);
    assert_eq!(
        t.probe(7, g, u32::MAX).v.dn,
        0,
        "inferior hand reuses the disproof"
    );
    assert_ne!(t.probe(7, hand(&[PieceKind::Rook]), u32::MAX).v.dn, 0);
}

#[test]
fn length_bounds() {
    let mut t = Table::new(1);
    let g = hand(&[PieceKind::Gold]);
    // Mate within 11 plies, no mate within 9: both true at once, both kept.
    put(&mut t, 11, g, (0, INF, 11), 1);
    put(&mut t, 11, g, (INF, 0, 9), 1);
    assert_eq!(t.probe(11, g, 11).v.pn, 0, "proof within its length");
    assert_eq!(t.probe(11, g, u32::MAX).v.pn, 0, "proof without limit");
    let p = t.probe(11, g, 10);
    assert!(p.v.pn != 0 && p.v.dn != 0, "neither holds for 10 plies");
    assert_eq!(t.probe(11, g, 9).v.dn, 0, "disproof within its length");
    assert_eq!(t.probe(11, g, 3).v.dn, 0, "and any shorter one");
    assert_eq!(t.probe(11, Hand::EMPTY, 9).v.dn, 0, "inferior hand");
    // An unsolved entry for a longer limit sits beside the disproof.
    put(&mut t, 11, g, (4, 6, 0), 1);
    assert_eq!(t.probe(11, g, 9).v.dn, 0, "disproof kept");
    assert_eq!((t.probe(11, g, 10).v.pn, t.probe(11, g, 10).v.dn), (4, 6));
    // A longer disproof replaces the shorter; a shorter proof the longer.
    put(&mut t, 11, g, (INF, 0, 10), 1);
    assert_eq!(t.probe(11, g, 10).v.dn, 0);
    put(&mut t, 11, g, (0, INF, 13), 1);
    assert_eq!(t.probe(11, g, 12).v.len, 11, "the shorter proof stays");
    // Unconditional disproof.
    put(&mut t, 12, g, (INF, 0, NO_MATE), 1);
    assert_eq!(t.probe(12, g, u32::MAX).v.dn, 0);
}

#[test]
fn bounds_from_unsolved_entries() {
    let mut t = Table::new(1);
    let g = hand(&[PieceKind::Gold]);
    let gs = hand(&[PieceKind::Gold, PieceKind::Silver]);
    put(&mut t, 9, g, (5, 7, 0), 1);
    let p = t.probe(9, gs, u32::MAX);
    assert_eq!(p.v.dn, 7, "superior hand: dn at least the inferior's");
    assert_eq!(p.v.pn, 1);
    put(&mut t, 9, gs, (4, 2, 0), 1);
    let p = t.probe(9, g, u32::MAX);
    assert_eq!(
        (p.v.pn, p.v.dn),
        (5, 7),
        "exact entry, pn bounded below by superior's 4"
    );
}

/// A key spread over all 64 bits, as Zobrist keys are (`k` > 0 gives a non-zero key).
fn spread(k: u64) -> u64 {
    k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[test]
fn gc_keeps_solved_and_expensive_entries() {
    let mut t = Table::new(1);
    for k in 1..2000u64 {
        put(&mut t, spread(k), Hand::EMPTY, (3, 3, 0), k as u32);
    }
    put(&mut t, spread(5 << 40), Hand::EMPTY, (0, INF, 1), 0);
    t.gc();
    assert!(t.probe(spread(5 << 40), Hand::EMPTY, u32::MAX).found);
    assert!(t.probe(spread(1999), Hand::EMPTY, u32::MAX).found);
    assert!(!t.probe(spread(1), Hand::EMPTY, u32::MAX).found);
}

/// A table full of proofs (the state a long search in a small table reaches) is brought down
/// to about `GC_TARGET` by dropping the cheapest of them; the most expensive stay. Before,
/// solved entries were never collected, and such a table stayed full whatever the collector did.
#[test]
fn gc_of_a_table_full_of_proofs_drops_the_cheapest_down_to_the_target() {
    let mut t = Table::new(1);
    let slots = (CLUSTERS_PER_MB * WAYS) as u64;
    for k in 1..=slots * 2 {
        put(
            &mut t,
            spread(k),
            Hand::EMPTY,
            (0, INF, 1),
            (k % 1000) as u32 + 1,
        );
    }
    let before = t.hashfull();
    assert!(before > GC_TRIGGER, "filled: {before}");
    let r = t.gc();
    let after = t.hashfull();
    assert!(r.solved_dropped > 0, "{r:?}");
    assert!(
        (GC_TARGET - 60..=GC_TARGET + 60).contains(&after),
        "{before}‰ -> {after}‰, {r:?}"
    );
    let kept: Vec<u32> = t
        .clusters
        .iter()
        .flat_map(|c| c.slots().map(|s| s.load()))
        .filter(|e| e.key != 0)
        .map(|e| e.effort)
        .collect();
    let cheapest_kept = *kept.iter().min().unwrap();
    assert!(
        cheapest_kept > 100,
        "cheap proofs go first: {cheapest_kept}"
    );
}

/// Entries that share one effort (mates in one all cost 1) are dropped in the share that
/// reaches the target, not all of them.
#[test]
fn gc_drops_a_share_of_equally_cheap_proofs_not_all() {
    let mut t = Table::new(1);
    let slots = (CLUSTERS_PER_MB * WAYS) as u64;
    for k in 1..=slots * 2 {
        put(&mut t, spread(k), Hand::EMPTY, (0, INF, 1), 1);
    }
    t.gc();
    let after = t.hashfull();
    assert!(
        (GC_TARGET - 60..=GC_TARGET + 60).contains(&after),
        "{after}‰"
    );
}

/// The size asked is the size used: 1000 MB is 1000 MB of clusters, not the 512 MB of the
/// power of two below it (pages are touched lazily, so this costs no memory).
#[test]
fn a_table_of_any_size_has_all_the_clusters_asked_for() {
    for mb in [1usize, 3, 200, 1000] {
        let t = Table::try_new(mb).unwrap();
        assert_eq!(t.size_mb(), mb);
        assert_eq!(t.clusters.len(), mb * CLUSTERS_PER_MB, "{mb} MB");
        assert_eq!(t.clusters.len() * std::mem::size_of::<Cluster>(), mb << 20);
    }
}

/// Keys index every cluster of a table that is not a power of two, evenly, and never one
/// past the end; what is stored at either end is found again.
#[test]
fn the_index_of_a_non_power_of_two_table_covers_all_its_clusters() {
    let t = Table::try_new(3).unwrap();
    let n = t.clusters.len();
    assert_eq!(n, 3 * CLUSTERS_PER_MB);
    assert_eq!(t.cluster_index(0), 0);
    assert_eq!(t.cluster_index(u64::MAX), n - 1);
    let mut hits = vec![0u32; n];
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..n * 32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        hits[t.cluster_index(x)] += 1;
    }
    assert!(hits.iter().all(|&h| h > 0), "a cluster no key reaches");
    // The last third (beyond the 2 MB a power of two would give) gets its third of keys.
    let tail: u32 = hits[2 * n / 3..].iter().sum();
    let share = tail as f64 / (n * 32) as f64;
    assert!((0.32..0.35).contains(&share), "last third gets {share}");
    for key in [1u64, u64::MAX - 1] {
        put_tagged(&t, key, 5);
        assert!(t.probe(key, Hand::EMPTY, u32::MAX).found);
    }
}

/// A size no machine has is refused with `None`, and a smaller one is still allocated.
#[test]
fn an_impossible_table_size_is_refused_not_aborted() {
    // 2^44 MB (2^64 bytes) on a 64-bit target, 4095 MB on a 32-bit one: neither can be had.
    let huge = usize::MAX >> 20;
    assert!(Table::try_new(usize::MAX).is_none(), "MB overflow");
    assert!(Table::try_new(huge).is_none(), "the whole address space");
    let t = Table::new(huge);
    assert!(
        t.size_mb() < huge && t.size_mb() >= 1,
        "halved until it fits"
    );
    assert_eq!(t.clusters.len(), t.size_mb() * CLUSTERS_PER_MB);
}

/// Threads sharing the table never see an entry half-written: each store writes one tag
/// into two different words (the numbers and the parent), and every probe must read them
/// from the same store. Few keys, so the threads collide on the same clusters all the time.
/// (With `set_shared(false)` it fails at once: checked. A ThreadSanitizer run of this test,
/// `-Zsanitizer=thread -Zbuild-std` on nightly, reports no race.)
#[test]
fn shared_table_never_shows_a_half_written_entry() {
    let mut t = Table::new(1);
    t.set_shared(true);
    let t = &t;
    on_four_threads(200_000, |x| {
        let key = (x % 16 + 1) << 20;
        let tag = ((x >> 32) as u32 & 0xffff) | 1;
        put_tagged(t, key, tag);
        let p = t.probe(key, Hand::EMPTY, u32::MAX);
        if p.found {
            assert_eq!(p.parent, Some(p.v.pn), "torn entry");
            assert_eq!(p.v.pn, p.v.dn, "torn entry");
        }
    });
}

/// Calls `f` `rounds` times on each of four threads at once, with a pseudo-random number
/// (xorshift, seeded per thread) each time.
fn on_four_threads(rounds: usize, f: impl Fn(u64) + Sync) {
    let f = &f;
    std::thread::scope(|s| {
        for w in 0..4u64 {
            s.spawn(move || {
                let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ (w + 1);
                for _ in 0..rounds {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    f(x);
                }
            });
        }
    });
}

/// An unsolved entry for `key` (empty hand) whose pn, dn and parent are all `tag`.
fn put_tagged(t: &Table, key: u64, tag: u32) {
    t.store(key, Value::unsolved(tag, tag, Hand::EMPTY), tag, 1);
}

/// The lock bit shares the first key word of a shared table's cluster: an entry in that slot is
/// found while the cluster is unlocked and after it is overwritten, the bit is clear whenever
/// no access is under way, and it never makes an empty slot count as used. The side to move
/// (key bit 0, which stored keys give up to the lock) still tells two boards apart.
#[test]
fn the_lock_bit_in_the_first_key_word_hides_nothing() {
    for shared in [false, true] {
        let mut t = Table::new(1);
        t.set_shared(shared);
        assert_eq!(t.hashfull(), 0);
        // Both sides to move of one board: the same cluster (the index comes from the high
        // bits), two entries.
        let black = spread(77) & !1;
        let white = black | 1;
        put(&mut t, black, Hand::EMPTY, (0, INF, 5), 1);
        put(&mut t, white, Hand::EMPTY, (INF, 0, NO_MATE), 1);
        let idx = t.cluster_index(black);
        assert_eq!(t.cluster_index(white), idx);
        let unlocked = |t: &Table| {
            t.clusters[idx]
                .keys
                .iter()
                .all(|k| k.load(Relaxed) & LOCK_BIT == 0)
        };
        assert!(unlocked(&t), "left locked");
        assert_eq!(
            t.probe(black, Hand::EMPTY, u32::MAX).v.pn,
            0,
            "shared {shared}"
        );
        assert_eq!(
            t.probe(white, Hand::EMPTY, u32::MAX).v.dn,
            0,
            "shared {shared}"
        );
        // Overwrite the entry in slot 0 (the lock's word) and find the new value.
        put(&mut t, black, Hand::EMPTY, (0, INF, 3), 1);
        assert_eq!(t.probe(black, Hand::EMPTY, u32::MAX).v.len, 3);
        assert!(unlocked(&t), "left locked");
        let used: usize = t
            .clusters
            .iter()
            .map(|c| c.keys.iter().filter(|k| !Cluster::is_empty(k)).count())
            .sum();
        assert_eq!(used, 2);
    }
}

/// The `n`th (below 21) of the hands of two pieces of different kinds: distinct hands of one
/// board, none superior to another, so that a lookup finds each by its own entry alone.
fn pair_hand(n: usize) -> Hand {
    use PieceKind::*;
    let kinds = [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook];
    let pairs = (0..7).flat_map(|a| (a + 1..7).map(move |b| (a, b)));
    let (a, b) = pairs.clone().nth(n).expect("21 pairs");
    hand(&[kinds[a], kinds[b]])
}

/// A board with more hands than a cluster has slots keeps all of them: once it fills its
/// cluster with `SPILL_AT` or more entries, the next ones go to the buddy, and lookups read
/// both. With eight slots and no buddy the ninth hand evicted one of the first eight.
#[test]
fn a_crowded_board_spills_into_its_buddy_and_keeps_every_hand() {
    for shared in [false, true] {
        let mut t = Table::new(1);
        t.set_shared(shared);
        let key = spread(99) & !1;
        let h = t.cluster_index(key);
        for n in 0..2 * WAYS {
            put(
                &mut t,
                key,
                pair_hand(n),
                (n as u32 + 2, n as u32 + 3, 0),
                1,
            );
        }
        for n in 0..2 * WAYS {
            let p = t.probe(key, pair_hand(n), u32::MAX);
            assert!(p.found, "hand {n} lost (shared {shared})");
            assert_eq!((p.v.pn, p.v.dn), (n as u32 + 2, n as u32 + 3));
        }
        assert!(t.clusters[h].spilled());
        let in_buddy = t.clusters[t.buddy(h)]
            .slots()
            .filter(|s| s.key() == stored_key(key))
            .count();
        assert_eq!(in_buddy, WAYS);
        // A board with one entry in the full, spilled cluster takes a slot there, not the
        // buddy's, and is found.
        let other = key ^ 0x100;
        assert_eq!(t.cluster_index(other), h);
        put(&mut t, other, Hand::EMPTY, (7, 7, 0), 1);
        assert!(t.probe(other, Hand::EMPTY, u32::MAX).found);
        assert!(t.clusters[h].slots().any(|s| s.key() == stored_key(other)));
    }
}

/// A collection sets each spill flag again from what it leaves: cleared when the buddy keeps
/// nothing of the cluster's boards, kept (and the spilled entries found) when it does.
#[test]
fn gc_sets_the_spill_flags_from_what_is_left() {
    for spilled_are_expensive in [false, true] {
        let mut t = Table::new(1);
        let key = spread(99) & !1;
        let h = t.cluster_index(key);
        // The first WAYS hands fill the cluster, the next WAYS go to the buddy.
        for n in 0..2 * WAYS {
            let home = n < WAYS;
            let effort = if home != spilled_are_expensive {
                1000
            } else {
                1
            };
            put(&mut t, key, pair_hand(n), (5, 5, 0), effort);
        }
        // Other boards, so that the collection's median effort (500) falls between.
        for k in 0..20u64 {
            put(&mut t, spread(1000 + k), Hand::EMPTY, (5, 5, 0), 500);
        }
        assert!(t.clusters[h].spilled());
        t.gc();
        assert_eq!(t.clusters[h].spilled(), spilled_are_expensive);
        for n in 0..2 * WAYS {
            let kept = (n < WAYS) != spilled_are_expensive;
            assert_eq!(
                t.probe(key, pair_hand(n), u32::MAX).found,
                kept,
                "hand {n}, spilled entries expensive: {spilled_are_expensive}"
            );
        }
    }
}

/// Threads storing and probing many hands of one board, so that it spills and every access
/// takes both clusters' locks, never see a half-written entry.
#[test]
fn a_spilled_board_shared_by_threads_never_shows_a_half_written_entry() {
    let mut t = Table::new(1);
    t.set_shared(true);
    let t = &t;
    let key = spread(99) & !1;
    on_four_threads(100_000, |x| {
        let hand = pair_hand((x % 21) as usize);
        let tag = ((x >> 32) as u32 & 0xffff) | 1;
        t.store(key, Value::unsolved(tag, tag, hand), tag, 1);
        let p = t.probe(key, hand, u32::MAX);
        if p.found {
            assert_eq!(p.parent, Some(p.v.pn), "torn entry");
            assert_eq!(p.v.pn, p.v.dn, "torn entry");
        }
    });
    assert!(t.clusters[t.cluster_index(key)].spilled());
}

/// An unsolved entry keeps the shallowest ply it was stored from (TCA's "met before at a
/// shallower ply"), whatever the order of the stores, and gives it with the exact hand only;
/// the numbers read back are the last stored, with the length field cleared.
#[test]
fn unsolved_entries_keep_their_shallowest_ply() {
    let mut t = Table::new(1);
    let g = hand(&[PieceKind::Gold]);
    put(&mut t, 42, g, (3, 4, 6), 1);
    assert_eq!(t.probe(42, g, u32::MAX).shallowest_ply, Some(5));
    put(&mut t, 42, g, (5, 2, 4), 1);
    put(&mut t, 42, g, (7, 2, 9), 1);
    let p = t.probe(42, g, u32::MAX);
    assert_eq!(
        (p.shallowest_ply, p.v.pn, p.v.dn, p.v.len),
        (Some(3), 7, 2, 0)
    );
    assert_eq!(t.probe(42, Hand::EMPTY, u32::MAX).shallowest_ply, None);
    put(&mut t, 42, g, (0, INF, 3), 1);
    assert_eq!(
        t.probe(42, g, u32::MAX).shallowest_ply,
        None,
        "a proof has no ply"
    );
}

/// A collection that runs after `store` has found a board crowded in its full cluster and
/// before the entry is placed in the buddy sets the pair's spill flags from what the pair holds
/// then (nothing in the buddy): the flag must still be set when the entry lands there, or its
/// lookups, which read the buddy only when the flag is set, never find it.
#[test]
fn a_collection_between_the_two_locks_of_a_spilling_store_leaves_the_entry_visible() {
    let mut t = Table::new(1);
    let key = spread(99) & !1;
    let h = t.cluster_index(key);
    // Proofs of hands none superior to another, expensive, alone in the table: the collection
    // keeps them all (no unsolved entries, and the table far below `GC_TARGET`).
    for n in 0..WAYS {
        put(&mut t, key, pair_hand(n), (0, INF, 1), 1_000_000);
    }
    assert!(!t.clusters[h].spilled());
    BETWEEN_LOCKS.with(|f| {
        f.set(Some(|t: &Table| {
            let r = t.gc();
            assert_eq!(r.solved_dropped, 0, "{r:?}");
        }))
    });
    put(&mut t, key, pair_hand(WAYS), (0, INF, 1), 1_000_000);
    BETWEEN_LOCKS.with(|f| f.set(None));
    assert!(
        t.clusters[t.buddy(h)]
            .slots()
            .any(|s| s.key() == stored_key(key)),
        "the entry went to the buddy"
    );
    assert!(t.clusters[h].spilled(), "spill flag lost");
    for n in 0..=WAYS {
        assert_eq!(t.probe(key, pair_hand(n), u32::MAX).v.pn, 0, "hand {n}");
    }
}

/// After a new game nothing stored before is found, whatever its kind, and the table reads
/// empty; what is stored afterwards is found.
#[test]
fn a_new_game_forgets_every_entry_without_writing_the_table() {
    for shared in [false, true] {
        let mut t = Table::new(1);
        t.set_shared(shared);
        let g = hand(&[PieceKind::Gold]);
        for k in 1..3000u64 {
            put(&mut t, spread(k), g, (0, INF, 3), k as u32);
        }
        put(&mut t, 7, g, (INF, 0, NO_MATE), 1);
        put(&mut t, 8, g, (4, 5, 2), 1);
        assert!(t.hashfull() > 0);
        let written = |t: &Table| {
            t.clusters
                .iter()
                .flat_map(|c| c.keys.iter())
                .filter(|k| k.load(Relaxed) & !LOCK_BIT != 0)
                .count()
        };
        let before = written(&t);
        t.new_game(1);
        assert_eq!(written(&t), before, "the table is not written");
        assert_eq!(t.hashfull(), 0, "an earlier game's entries are not counted");
        for k in [spread(1), spread(2999), 7, 8] {
            assert!(
                !t.probe(k, g, u32::MAX).found,
                "{k} found (shared {shared})"
            );
        }
        put(&mut t, 7, g, (0, INF, 5), 1);
        assert_eq!(t.probe(7, g, u32::MAX).v.pn, 0);
        assert_eq!(t.probe(7, g, u32::MAX).v.len, 5);
    }
}

/// A cluster full of an earlier game's proofs gives every slot to the new game's entries, even
/// to disproofs within a length, which never evict a proof of the same game.
#[test]
fn an_earlier_games_entries_give_their_slots_to_the_new_ones() {
    let mut t = Table::new(1);
    let base = spread(99) & !1;
    let h = t.cluster_index(base);
    let board = |n: usize| base ^ ((n as u64 + 1) << 8);
    for n in 0..WAYS {
        assert_eq!(t.cluster_index(board(n)), h);
        put(&mut t, board(n), Hand::EMPTY, (0, INF, 1), 1_000_000);
    }
    // In the same game a bounded disproof finds no room among proofs.
    put(&mut t, board(WAYS), Hand::EMPTY, (INF, 0, 9), 1);
    assert!(!t.probe(board(WAYS), Hand::EMPTY, 9).found);
    t.new_game(1);
    for n in 0..WAYS {
        put(&mut t, board(WAYS + n), Hand::EMPTY, (INF, 0, 9), 1);
    }
    for n in 0..WAYS {
        assert_eq!(
            t.probe(board(WAYS + n), Hand::EMPTY, 9).v.dn,
            0,
            "board {n} of the new game lost"
        );
    }
    assert_eq!(
        t.clusters[h].slots().filter(|s| s.live(t.stamp)).count(),
        WAYS
    );
}

/// A crowded board of the new game in a cluster full of an earlier game's entries takes the
/// home cluster's dead slots instead of spilling; a collection drops the dead entries, and
/// counts only the live.
#[test]
fn dead_slots_count_as_room_for_spilling_and_collecting() {
    let mut t = Table::new(1);
    let key = spread(99) & !1;
    let h = t.cluster_index(key);
    for n in 0..WAYS {
        put(&mut t, key, pair_hand(n), (0, INF, 1), 1_000_000);
    }
    t.new_game(1);
    for n in 0..WAYS {
        put(&mut t, key, pair_hand(n), (3, 3, 0), 5);
    }
    assert!(!t.clusters[h].spilled(), "spilled with dead slots at home");
    assert!(t.clusters[t.buddy(h)].keys.iter().all(Cluster::is_empty));
    t.new_game(1);
    put(&mut t, key, pair_hand(0), (3, 3, 0), 5);
    let r = t.gc();
    assert_eq!(r.unsolved_dropped + r.unsolved_kept, 1, "{r:?}");
    assert_eq!(r.solved_dropped + r.solved_kept, 0, "{r:?}");
    let written = t.clusters[h]
        .keys
        .iter()
        .filter(|k| !Cluster::is_empty(k))
        .count();
    assert_eq!(written, r.unsolved_kept as usize, "dead entries dropped");
}

/// Generations are told apart by an 8-bit stamp: when it comes round again (every 256th new
/// game) the table is zeroed, so that no entry of 256 games ago passes for a live one.
#[test]
fn the_256th_new_game_zeroes_the_table() {
    let mut t = Table::new(1);
    for g in 1..256 {
        // Something stored in every game, else the new game stays in its generation.
        put(&mut t, 5 + g, Hand::EMPTY, (0, INF, 1), 1);
        t.new_game(1);
        assert_eq!(t.stamp, g as u8);
        assert!(t
            .clusters
            .iter()
            .any(|c| !c.keys.iter().all(Cluster::is_empty)));
    }
    put(&mut t, 5, Hand::EMPTY, (0, INF, 1), 1);
    t.new_game(1);
    assert_eq!(t.stamp, 0);
    assert!(t
        .clusters
        .iter()
        .all(|c| c.keys.iter().all(Cluster::is_empty)));
    assert_eq!(t.hashfull(), 0);
    put(&mut t, 5, Hand::EMPTY, (0, INF, 1), 1);
    assert!(t.probe(5, Hand::EMPTY, u32::MAX).found);
}

/// A new game with nothing stored since the last (a GUI's `usinewgame` before the first
/// search, or between problems that stored nothing) stays in its generation: stamp 0 stays 0,
/// for which placing an entry reads no body.
#[test]
fn a_new_game_with_nothing_stored_stays_in_its_generation() {
    let mut t = Table::new(1);
    t.new_game(1);
    t.new_game(1);
    assert_eq!((t.generation, t.stamp), (0, 0));
    put(&mut t, 5, Hand::EMPTY, (0, INF, 1), 1);
    t.new_game(1);
    assert_eq!((t.generation, t.stamp), (1, 1));
    assert!(!t.probe(5, Hand::EMPTY, u32::MAX).found);
    t.new_game(1);
    assert_eq!(t.generation, 1, "nothing stored in generation 1");
    put(&mut t, 5, Hand::EMPTY, (0, INF, 1), 1);
    t.clear(1);
    t.new_game(1);
    assert_eq!(t.generation, 1, "a zeroed table holds nothing to forget");
}

/// Efforts saturate at `MAX_EFFORT` rather than spill into the stamp.
#[test]
fn an_effort_past_24_bits_saturates_and_keeps_the_entry_live() {
    let mut t = Table::new(1);
    t.new_game(1);
    put(&mut t, 5, Hand::EMPTY, (3, 3, 0), u32::MAX);
    let s = t.clusters[t.cluster_index(5)]
        .slots()
        .find(|s| s.key() != 0)
        .unwrap();
    assert_eq!(s.effort(), MAX_EFFORT);
    assert!(s.live(t.stamp));
    assert_eq!(t.hashfull(), 0, "one entry is below a permille");
    assert!(t.probe(5, Hand::EMPTY, u32::MAX).found);
}

/// The parent walk finds an unsolved entry from its board's tag (the high half of the key,
/// bit 32 forced), whatever the side-to-move bit folded into the stored key, in a table of
/// any size and in a later generation; it skips solved entries and boards with no parent, and
/// reads the buddy of a spilled cluster.
#[test]
fn a_parent_step_finds_the_entry_named_by_a_tag() {
    let tag_of = |k: u64| (k >> 32) as u32 | 1;
    for mb in [1, 3] {
        let mut t = Table::new(mb);
        for _generation in 0..2 {
            for (i, side) in [(1u64, 0u64), (2, 1)] {
                let key = spread(i * 7919) & !1 | side;
                let v = Value::unsolved(5, 9, Hand::EMPTY);
                t.store(key, v, 0xABCD_0001, 1);
                assert_eq!(t.parent_step(tag_of(key)), Some((0xABCD_0001, 5, 9)));
                // A neighbour's tag names nothing.
                assert_eq!(t.parent_step(tag_of(key) ^ 0x100), None);
            }
            let solved = spread(31337) & !1;
            t.store(
                solved,
                Value::proven(Hand::EMPTY, 3, Move::NONE),
                0x1111_0001,
                1,
            );
            assert_eq!(t.parent_step(tag_of(solved)), None, "a proof is no step");
            let orphan = spread(4242) & !1;
            put(&mut t, orphan, Hand::EMPTY, (2, 2, 0), 1);
            assert_eq!(t.parent_step(tag_of(orphan)), None, "no parent recorded");
            t.new_game(1);
            assert_eq!(
                t.parent_step(tag_of(spread(7919) & !1)),
                None,
                "a dead generation"
            );
        }
    }
    // A crowded board spills: the entries in the buddy are found too, once the home's are
    // solved.
    let t = Table::new(1);
    let key = spread(99) & !1;
    for n in 0..8 {
        t.store(
            key,
            Value::proven(pair_hand(n), 1, Move::NONE),
            0x2222_0001,
            1,
        );
    }
    t.store(key, Value::unsolved(4, 4, pair_hand(9)), 0x3333_0001, 1);
    assert_eq!(t.parent_step(tag_of(key)), Some((0x3333_0001, 4, 4)));
}

/// A new game searches exactly as a zeroed table: after the same stores, every entry of the
/// new generation sits in the slot where a zeroed table put it, with the same contents, and
/// every lookup answers the same. Two things broke this before: `place` took the first empty
/// slot after an earlier game's, where a zeroed table took the earlier game's (the first slot
/// decides which of two equal proofs a lookup gives); and a spill flag left by the earlier
/// game sent a crowded board's entry to the buddy while its home cluster had room.
#[test]
fn a_new_game_holds_what_a_zeroed_table_holds() {
    let mut zeroed = Table::new(1);
    let mut fresh = Table::new(1);
    // A few boards in two neighbouring clusters (buddies) and one elsewhere, with many hands,
    // so that clusters fill, boards crowd and spill, and entries are replaced.
    let base = spread(99) & !1;
    let board = |n: u64| base ^ ((n + 1) << 8);
    let other = spread(12345) & !1;
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut stores = |n: usize, tables: &mut [&mut Table], keys: &mut Vec<(u64, Hand)>| {
        for _ in 0..n {
            let r = next();
            // One crowded board (it spills), another beside it, three boards elsewhere, and
            // single entries spread over the table (clusters left part full by the first game).
            let key = match r % 10 {
                0..=3 => board(0),
                4 | 5 => board(1),
                6 | 7 => other ^ (((r >> 8) % 3 + 1) << 8),
                _ => spread(1000 + (r >> 8) % 64),
            };
            let hand = pair_hand((r >> 16) as usize % 21);
            let len = ((r >> 24) % 9) as u16 + 1;
            let v = match (r >> 32) % 4 {
                0 => (0, INF, len),
                1 => (INF, 0, len),
                2 => (INF, 0, NO_MATE),
                _ => ((r >> 40) as u32 % 50 + 1, (r >> 48) as u32 % 50 + 1, 0),
            };
            let effort = (r >> 56) as u32 + 1;
            for t in tables.iter_mut() {
                put(t, key, hand, v, effort);
            }
            keys.push((key, hand));
        }
    };
    let mut keys = vec![];
    stores(400, &mut [&mut zeroed, &mut fresh], &mut keys);
    let h = zeroed.cluster_index(board(0));
    assert!(
        zeroed.clusters[h].spilled() || zeroed.clusters[zeroed.buddy(h)].spilled(),
        "the first game spills (else the test shows nothing of spill flags)"
    );
    zeroed.clear(1);
    fresh.new_game(1);
    keys.clear();
    for round in 0..4 {
        stores(60, &mut [&mut zeroed, &mut fresh], &mut keys);
        for (i, (a, b)) in zeroed
            .clusters
            .iter()
            .zip(fresh.clusters.iter())
            .enumerate()
        {
            for (j, (sa, sb)) in a.slots().zip(b.slots()).enumerate() {
                let ea = (sa.key() != 0).then(|| sa.load());
                let eb = sb.live(fresh.stamp).then(|| {
                    let mut e = sb.load();
                    e.key ^= fresh.pattern;
                    e.stamp = 0;
                    e
                });
                let same = match (ea, eb) {
                    (None, None) => true,
                    (Some(x), Some(y)) => format!("{x:?}") == format!("{y:?}"),
                    _ => false,
                };
                assert!(same, "round {round}, cluster {i} slot {j}: {ea:?} / {eb:?}");
            }
        }
        for &(k, hd) in &keys {
            for remaining in [1, 5, u32::MAX] {
                let (pa, pb) = (
                    zeroed.probe(k, hd, remaining),
                    fresh.probe(k, hd, remaining),
                );
                assert_eq!(format!("{pa:?}"), format!("{pb:?}"), "{k:x} {hd:?}");
            }
        }
    }
}
