//! The cluster locks of a shared table: a spin lock in bit 0 of each cluster's first key word
//! (`LOCK_BIT`), taken for one lookup or store.

use super::layout::{Cluster, LOCK_BIT};
use super::Table;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Spin rounds on a held cluster lock before the waiter yields its core (see `Table::lock`); a
/// power of two.
const SPINS_BEFORE_YIELD: u64 = 64;

/// Holds a cluster's lock (when the table is shared) until dropped: the cluster's first key
/// word, whose `LOCK_BIT` it clears on release.
pub(super) struct Guard<'a>(Option<&'a AtomicU64>);

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
    /// Takes the lock of cluster `c` if the table is shared (see `LOCK_BIT`): a spin lock held
    /// for one probe or store (a few dozen instructions), so spinning is cheaper than parking.
    /// After `SPINS_BEFORE_YIELD` rounds the waiter yields its core: with more
    /// threads than cores (`Threads` 8 on this 2-core machine) the holder may have been
    /// preempted, and spinning would burn the rest of the waiter's time slice while the holder
    /// cannot run.
    #[inline(always)]
    pub(super) fn lock<'c>(&self, c: &'c Cluster) -> Guard<'c> {
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
    pub(super) fn lock_pair(&self, a: usize, b: usize) -> (Guard<'_>, Guard<'_>) {
        let (lo, hi) = (a.min(b), a.max(b));
        let first = self.lock(&self.clusters[lo]);
        let second = if hi == lo {
            Guard(None)
        } else {
            self.lock(&self.clusters[hi])
        };
        (first, second)
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
}
