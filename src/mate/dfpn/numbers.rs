//! A node's numbers from its children: φ the least "easy" number of a child, δ the sum of the
//! others, with confluent children (foreign or merged, see `children` and `confluence`) and
//! those of a large δ combined by max instead of summed; and the δ threshold the selected child
//! gets from the node's.
//!
//! - Large δ by max (KomoringHeights' `kForceSumPnDn` rule, at INF / 1024): a child whose δ has
//!   reached `LARGE_DELTA` is combined by max. Summed, a few such children (most often the same
//!   subtree counted through several moves) put the node's δ at the cap, the parent's selection
//!   never leaves it, and the path grows to the ply cap. What it was for: 明日香's main line
//!   searched at median ply 4,900-5,100 without it. Alone it cost FAIRWAY's first proof 9% of
//!   nodes (53.90 M against 49.30 M; 乱 the same 77.69 M, 新桃花源 127.69 M against 127.07 M,
//!   one thread, 8 GB, 2026-11-28); with the growing root thresholds of `search` the three
//!   took 48.90 M, 63.98 M and 124.26 M.
//! - The room of a child combined by max (KomoringHeights' `NewThdeltaForBestMove`): the
//!   node's δ reaches its threshold once such a child's δ alone, added to the summed children's,
//!   does, whatever the other max-combined children hold; so the child's δ threshold is the
//!   node's less the summed δ (`Numbers::summed`), not less the node's whole δ as for a summed
//!   child. Giving it only the summed child's room sent it back to its parent early, again and
//!   again. Measured on 明日香's 11 positions after 700, 702, ..., 720 plies of
//!   KomoringHeights' line (one thread, 8 GB, 40 M nodes each): all 11 proven in 219.7 M
//!   nodes against 10 in 262.8 M; 乱's first proof over 2, 4 and 8 GB 261.1 M nodes against
//!   301.0 M (2026-11-29). 明日香 itself, beside KomoringHeights (8 GB, 8,313 s, 2026-12-01):
//!   no proof with it either (4.8 G nodes; KomoringHeights' first proof at 2,531.4 s).

use super::super::value::INF;
use super::children::Child;

/// A δ from which a child is combined by max, not summed (see the module docs).
pub(super) const LARGE_DELTA: u32 = INF >> 10;

/// Whether `c` (unsolved or not) has its δ combined by max, not summed, at its node (`or`:
/// the node is the attacker's): a confluent child (foreign or merged) or one of a large δ.
#[inline]
pub(super) fn combined_by_max(or: bool, c: &Child) -> bool {
    let delta = if or { c.v.dn } else { c.v.pn };
    c.foreign || c.merged || delta >= LARGE_DELTA
}

/// A node's numbers from its children (see `aggregate_in`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Numbers {
    pub pn: u32,
    pub dn: u32,
    /// The δ of the children that are summed, without those combined by max (at most `INF`):
    /// what a max-combined child's δ threshold leaves room for (see the module docs).
    pub summed: u32,
}

/// The numbers of a node whose children are `ch`.
#[inline]
pub(super) fn aggregate_in(or: bool, ch: &[Child]) -> Numbers {
    // φ: min over children of the "easy" number; δ: sum of the other, own children summed
    // and confluent (foreign or merged) children and those of a large δ by max.
    let mut min_v = INF;
    let mut sum_own: u64 = 0;
    let mut max_foreign: u32 = 0;
    for c in ch.iter().filter(|c| !c.delayed) {
        let (phi, delta) = if or {
            (c.v.pn, c.v.dn)
        } else {
            (c.v.dn, c.v.pn)
        };
        min_v = min_v.min(phi);
        if combined_by_max(or, c) {
            max_foreign = max_foreign.max(delta);
        } else {
            sum_own += delta as u64;
        }
    }
    let sum = (sum_own + max_foreign as u64).min(INF as u64) as u32;
    let sum = if min_v == 0 { INF } else { sum.min(INF - 1) };
    let summed = sum_own.min(INF as u64) as u32;
    if or {
        Numbers {
            pn: min_v,
            dn: sum,
            summed,
        }
    } else {
        Numbers {
            pn: sum,
            dn: min_v,
            summed,
        }
    }
}

/// The δ threshold of the child `c` selected at a node whose numbers are `n` and whose δ
/// threshold is `node_delta_th` (below `INF`: the node is searched only while its δ is below
/// it): the most the child's δ may reach, its siblings unchanged, before the node's δ reaches
/// its threshold. A summed child may use what the node's δ lacks of the threshold; a child
/// combined by max whatever the summed children leave of it, since the node's δ is theirs
/// plus the largest max-combined δ (see the module docs, the room of a max-combined child).
#[inline]
pub(super) fn child_delta_threshold(or: bool, n: Numbers, node_delta_th: u32, c: &Child) -> u32 {
    if node_delta_th >= INF {
        return INF;
    }
    if combined_by_max(or, c) {
        node_delta_th.saturating_sub(n.summed).max(1)
    } else {
        let (node_delta, child_delta) = if or { (n.dn, c.v.dn) } else { (n.pn, c.v.pn) };
        node_delta_th
            .saturating_sub(node_delta)
            .saturating_add(child_delta)
            .min(INF)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::dfpn::NO_REP;
    use crate::mate::value::Value;
    use crate::shogi::{Hand, Move};

    fn child(pn: u32, dn: u32) -> Child {
        Child {
            mv: Move::NONE,
            v: Value::unsolved(pn, dn, Hand::EMPTY),
            rep: NO_REP,
            foreign: false,
            merged: false,
            tag: 0,
            parent: 0,
            delayed: false,
            next: 0,
            fresh: false,
        }
    }
    /// δ sums the children below `LARGE_DELTA` and takes the max of those at or above it, at
    /// both kinds of node; φ stays the min.
    #[test]
    fn a_large_delta_is_combined_by_max() {
        let big = LARGE_DELTA;
        let or_kids = [child(3, 5), child(4, big), child(7, big + 9), child(2, 6)];
        let n = |pn, dn, summed| Numbers { pn, dn, summed };
        assert_eq!(aggregate_in(true, &or_kids), n(2, 5 + 6 + big + 9, 11));
        let and_kids = [child(big + 1, 4), child(big, 2), child(10, 8)];
        assert_eq!(aggregate_in(false, &and_kids), n(10 + big + 1, 2, 10));
        let small = [child(big - 1, 1), child(big - 1, 1)];
        assert_eq!(
            aggregate_in(false, &small),
            n(2 * (big - 1), 1, 2 * (big - 1))
        );
    }

    /// A max-combined child's δ threshold is what the summed children leave of the node's,
    /// whatever the other max-combined children hold; a summed child's is what the node's δ
    /// lacks of it. The examples are at an OR node (δ = dn); at AND the roles of pn and dn swap.
    #[test]
    fn a_max_combined_child_has_the_room_the_summed_children_leave() {
        let big = LARGE_DELTA;
        // Summed δ 30 (10 + 20), max-combined 50 (foreign) and big + 5: node dn 30 + big + 5.
        let mut kids = [child(1, 10), child(2, 20), child(3, 50), child(4, big + 5)];
        kids[2].foreign = true;
        let n = aggregate_in(true, &kids);
        assert_eq!((n.dn, n.summed), (30 + big + 5, 30));
        let th = 2 * big;
        assert_eq!(child_delta_threshold(true, n, th, &kids[2]), th - 30);
        assert_eq!(child_delta_threshold(true, n, th, &kids[3]), th - 30);
        // A summed child: the threshold less the node's δ, plus its own.
        assert_eq!(
            child_delta_threshold(true, n, th, &kids[1]),
            th - (30 + big + 5) + 20
        );
        assert_eq!(child_delta_threshold(true, n, INF, &kids[2]), INF);
        let and_kids = [child(7, 1), child(big, 2)];
        let n = aggregate_in(false, &and_kids);
        assert_eq!((n.pn, n.summed), (7 + big, 7));
        assert_eq!(child_delta_threshold(false, n, th, &and_kids[1]), th - 7);
    }

    /// For any children, the child's δ threshold is exactly where the node's δ would reach the
    /// node's threshold: at the threshold the node's aggregated δ reaches it, one below it stays
    /// under (checked by `aggregate_in` itself, on pseudo-random nodes of both kinds).
    #[test]
    fn a_child_at_its_delta_threshold_brings_the_node_to_its_own() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let mut checked = 0;
        for _ in 0..20_000 {
            let or = next(2) == 0;
            let n_kids = 1 + next(5) as usize;
            let mut kids: Vec<Child> = (0..n_kids)
                .map(|_| {
                    let d = if next(4) == 0 {
                        LARGE_DELTA + next(1000) as u32
                    } else {
                        1 + next(100) as u32
                    };
                    let phi = 1 + next(50) as u32;
                    let mut c = if or { child(phi, d) } else { child(d, phi) };
                    c.foreign = next(4) == 0;
                    c.merged = next(6) == 0;
                    c
                })
                .collect();
            let n = aggregate_in(or, &kids);
            let node_delta = if or { n.dn } else { n.pn };
            let th = node_delta + 1 + next(3 * LARGE_DELTA as u64) as u32;
            let i = next(n_kids as u64) as usize;
            let cth = child_delta_threshold(or, n, th, &kids[i]);
            let delta_with = |kids: &mut [Child], d: u32| {
                let mut k = kids.to_vec();
                if or {
                    k[i].v.dn = d;
                } else {
                    k[i].v.pn = d;
                }
                let m = aggregate_in(or, &k);
                if or {
                    m.dn
                } else {
                    m.pn
                }
            };
            // Only where the child's kind (summed or by max) stays the same between the two
            // δ values: a summed child that crosses `LARGE_DELTA` changes its combination.
            let by_max = combined_by_max(or, &kids[i]);
            let same_kind = |d: u32| {
                let mut k = kids[i];
                if or {
                    k.v.dn = d;
                } else {
                    k.v.pn = d;
                }
                combined_by_max(or, &k) == by_max
            };
            if cth > 1 && cth < INF && same_kind(cth) && same_kind(cth - 1) {
                assert!(delta_with(&mut kids, cth) >= th, "{or} {i} {th} {cth}");
                assert!(delta_with(&mut kids, cth - 1) < th, "{or} {i} {th} {cth}");
                checked += 1;
            }
        }
        assert!(checked > 5_000, "only {checked} nodes checked");
    }
}
