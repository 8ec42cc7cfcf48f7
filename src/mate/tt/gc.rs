//! The collector: when the table passes `GC_TRIGGER` permille, drop the cheap entries
//! (KomoringHeights' scheme) and set the spill flags again from what is left.

use super::layout::{Class, Cluster, WAYS};
use super::Table;

/// Occupancy (permille) at which a garbage collection runs.
pub const GC_TRIGGER: u32 = 900;

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

impl Table {
    /// Makes room: drops every unsolved entry and length-bounded disproof whose effort is at or
    /// below the median of a sample (KomoringHeights' scheme, which keeps expensive results),
    /// and, when the table would still be over `GC_TARGET` permille full, the cheapest proofs
    /// and disproofs too, enough of them to bring it there.
    ///
    /// Solved entries are dropped too because, kept whatever their cost, they filled a small
    /// table and every check then swept it for nothing (figures in `docs/bench/table.md` and
    /// `docs/bench/small-tables.md`). Dropping a proof or disproof costs only the effort to
    /// find it again: a node's value is derived
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
                    if e.class() != Class::Settled {
                        low.push(e.effort);
                    } else {
                        high.push(e.effort);
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
            // Many entries share the cheapest efforts (a mate in one costs 1), so "at or below
            // the pivot" could drop far more than k: of the entries at the pivot itself, drop
            // the fraction that makes k, chosen by key bits (uniform, independent of effort);
            // without it a collection fell far below the target (`docs/bench/table.md`).
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
                let solved = e.class() == Class::Settled;
                let drop = if solved {
                    high_pivot.is_some_and(|(p, share)| {
                        e.effort < p || (e.effort == p && ((e.key >> 16) as u8 as u32) < share)
                    })
                } else {
                    low_pivot.is_some_and(|p| e.effort <= p)
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
