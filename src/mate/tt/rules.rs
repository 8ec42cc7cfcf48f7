//! Lookup and store rules: dominance of hands (a proof for a hand proves every superior hand, a
//! disproof every inferior one; Nagai 2002), length bounds, updates in place, redundant entries,
//! spilling into the buddy cluster, and replacement in a full cluster.

use super::layout::{stored_key, Class, Cluster, Entry, Slot, MAX_EFFORT, SIDE_MIX};
use super::{Probe, Table};
use crate::mate::value::{Value, INF, NO_MATE};
use crate::shogi::Hand;
use std::sync::atomic::Ordering::Relaxed;

/// What an entry says of its key and hand, for `Table::update`: a result updates in place the
/// entry of its own kind (or an unsolved one).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Unsolved,
    Proof,
    Disproof,
}

impl Kind {
    #[inline(always)]
    fn of(pn: u32, dn: u32) -> Kind {
        if pn == 0 {
            Kind::Proof
        } else if dn == 0 {
            Kind::Disproof
        } else {
            Kind::Unsolved
        }
    }
}

impl Table {
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
            shallowest_ply: None,
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
                        shallowest_ply: None,
                    };
                }
            } else if ev.hand == hand {
                r.v.pn = r.v.pn.max(ev.pn);
                r.v.dn = r.v.dn.max(ev.dn);
                r.parent = Some(e.parent());
                r.v.best = ev.best;
                r.found = true;
                // An unsolved entry's length field holds its shallowest ply plus one, 0 for
                // none (see `store`).
                r.shallowest_ply = ev.len.checked_sub(1);
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
                shallowest_ply: None,
            };
        }
        r
    }

    /// One step up the parent links, for the search's double-count elimination: an unsolved
    /// entry of the board whose parent tag is `tag` (the high 32 bits of its key with bit 0
    /// set, as `store`'s `parent` is given), as (its own parent's tag, pn, dn). Any unsolved
    /// entry of that board answers (the tag names a board, not a hand); `None` when there is
    /// none, or it has no parent. A tag names up to two clusters (the index comes from the
    /// key's high bits, and the tag leaves out bit 32 and the low half), and their buddies
    /// when spilled; each is read under its lock.
    pub fn parent_step(&self, tag: u32) -> Option<(u32, u32, u32)> {
        let lo = self.cluster_index(((tag & !1) as u64) << 32);
        let hi = self.cluster_index(((tag | 1) as u64) << 32 | 0xFFFF_FFFF);
        (lo..=hi.min(lo + 1)).find_map(|h| {
            let home = &self.clusters[h];
            let guard = self.lock(home);
            if !home.spilled() {
                return self.parent_step_in(home.slots(), tag);
            }
            drop(guard);
            let b = self.buddy(h);
            let _guards = self.lock_pair(h, b);
            self.parent_step_in(home.slots().chain(self.clusters[b].slots()), tag)
        })
    }

    /// `parent_step` over the slots given. A stored key is the key with its side-to-move bit
    /// folded in (`stored_key`), so its high half is compared both ways.
    fn parent_step_in<'c>(
        &self,
        slots: impl Iterator<Item = Slot<'c>>,
        tag: u32,
    ) -> Option<(u32, u32, u32)> {
        let high = |k: u64| (k >> 32) as u32 | 1;
        for e in slots {
            if !e.live(self.stamp) {
                continue;
            }
            let k = e.key() ^ self.pattern;
            if high(k) != tag && high(k ^ SIDE_MIX) != tag {
                continue;
            }
            let v = e.value();
            let parent = e.parent();
            if v.pn != 0 && v.dn != 0 && parent != 0 {
                return Some((parent, v.pn, v.dn));
            }
        }
        None
    }

    /// Stores what is known of (key, `v.hand`): `parent` is the tag of the node that created
    /// the entry, `effort` the effort spent below it. An unsolved `v` carries in its length
    /// field the ply from the root it was searched at, plus one (0: unknown); the entry keeps
    /// the smallest (`Probe::shallowest_ply`). Solved results replace the entries they
    /// dominate. A board crowded in its full cluster spills into the buddy (see `SPILL_AT`).
    #[inline]
    pub fn store(&self, key: u64, v: Value, parent: u32, effort: u32) {
        // Read before written, so that the line stays shared between threads once set.
        if !self.written.load(Relaxed) {
            self.written.store(true, Relaxed);
        }
        let h = self.cluster_index(key);
        let home = &self.clusters[h];
        let new = Entry {
            key: stored_key(key) ^ self.pattern,
            parent,
            effort: effort.min(MAX_EFFORT),
            stamp: self.stamp,
            v,
        };
        {
            let _guard = self.lock(home);
            if !home.spilled() {
                if Self::update(home, &new) || Self::replace_redundant(home, &new) {
                    return;
                }
                if self.buddy(h) == h || !home.spills(new.key, new.stamp) {
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
        // The same test as `store`'s (`Cluster::spills`): a flag set by an earlier generation
        // brings a store here but changes no placement.
        if home.spills(new.key, new.stamp) {
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
        let new_kind = Kind::of(pn, dn);
        for slot in c.slots() {
            if slot.key() != new.key {
                continue;
            }
            let ev = slot.value();
            if ev.hand != hand {
                continue;
            }
            let old_kind = Kind::of(ev.pn, ev.dn);
            if old_kind == new_kind {
                match new_kind {
                    Kind::Proof => {
                        if len < ev.len {
                            slot.set_len(&ev, len, best);
                        }
                    }
                    Kind::Disproof => {
                        if len > ev.len {
                            slot.set_len(&ev, len, best);
                        }
                    }
                    Kind::Unsolved => {
                        let effort = new.effort.max(slot.effort());
                        // Unsolved: the length field keeps the shallowest ply seen (plus
                        // one, 0 = none).
                        let len = match (ev.len, len) {
                            (0, l) | (l, 0) => l,
                            (a, b) => a.min(b),
                        };
                        slot.set(&Entry {
                            effort,
                            v: Value { len, ..new.v },
                            ..*new
                        });
                    }
                }
                return true;
            }
            if old_kind == Kind::Unsolved {
                let effort = new.effort.max(slot.effort());
                slot.set(&Entry { effort, ..*new });
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
    ///
    /// An earlier generation's slot counts as empty, and the first slot that is either is
    /// taken, as in a zeroed table: the order of a cluster's slots decides which of two equal
    /// proofs a lookup gives, so a new game that took another slot searched differently.
    #[inline(always)]
    fn place(c: &Cluster, new: &Entry) {
        // An empty slot is found in the key line alone; the bodies are read only when the
        // cluster is full, or, after a new game, for the slots before the first empty one.
        if let Some(i) = c.keys.iter().position(Cluster::is_empty) {
            // Stamp 0 is generation 0's, or a multiple of 256's, whose table was zeroed: no
            // slot of it is stale.
            let j = if new.stamp == 0 {
                i
            } else {
                (0..i)
                    .find(|&j| c.slot(j).stamp() != new.stamp)
                    .unwrap_or(i)
            };
            c.slot(j).set(new);
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
            let score = ((e.class() as u64) << 40) | e.effort as u64;
            if score < best_score {
                best_score = score;
                victim = i;
            }
        }
        if new_class == Class::BoundedDisproof && best_score >> 40 > Class::BoundedDisproof as u64 {
            return;
        }
        c.slot(victim).set(new);
    }
}

#[cfg(test)]
thread_local! {
    /// Run by `Table::store` between its lock of the home cluster and `store_spilled`'s lock of
    /// the pair, to interleave another table operation there deterministically.
    pub(super) static BETWEEN_LOCKS: std::cell::Cell<Option<fn(&Table)>> = const { std::cell::Cell::new(None) };
}
