//! Can `n` pawns and `m` stones still be placed? The test behind the degraded-piece pruning.
//!
//! komori-n's article ("劣化駒"): replace every piece still to place by a "degraded" one that
//! attacks a subset of its squares. Most pieces attack the square straight ahead and degrade to
//! a pawn; the knight and bishop attack neither straight ahead nor behind and degrade to a stone
//! (attacks nothing, may not stand on an attacked square). If the degraded set cannot be placed
//! among the pieces already standing, the original set cannot either (a placement of the
//! originals, with each piece degraded in place, would be one), so the branch is cut.
//!
//! Pawns attack only along their file, so the test is a per-file count. The free squares
//! (inside the area, empty, unattacked) fall into vertical runs. A run's top is "open" when the
//! square above it is off the board or attacked (an empty square a pawn may attack), "closed"
//! when a piece stands there; likewise its bottom. Within a run:
//!
//! * One direction (all pawns face up, the article's algorithm): a pawn on an open top costs
//!   only its square; any other pawn also makes the square above it unusable, so it costs two.
//!   Hence, with F open tops, n pawns leave at most `free - n - max(0, n - F)` squares for
//!   stones, and a run of length L takes at most `[open] + (L - [open]) / 2` pawns. The article
//!   places the cheap pawns first, then the others from the bottom up; the count is the same.
//! * Two directions (each pawn may face either way, the article's extension): an up pawn on an
//!   open top and a down pawn on an open bottom cost one square each; otherwise one empty square
//!   can serve two pawns facing it ("down pawn, empty, up pawn", the article's step 3), so
//!   pawns come in pairs costing three squares or singly costing two. With F the open ends a
//!   run can use (at most its length), R = L - F, the run takes at most F + 2(R / 3) +
//!   [R mod 3 = 2] pawns; over the board, n = F + e pawns waste ceil(e / 2) squares while
//!   e <= 2Q (Q the pairs that fit) and e - Q beyond. Each wasted square serves at most two
//!   pawns, and every run filled past its pairs needs one square for one pawn, so no placement
//!   wastes fewer: the test is exact, as the unit tests confirm by brute force.
//!
//! Only soundness matters for pruning (never answer "no" when the degraded set fits); the
//! tests check exactness.

use crate::shogi::Bitboard;

/// Which way the degraded pawns may face.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pawns {
    /// All face up (Black's pawns, attacking the square above).
    Up,
    /// All face down (White's pawns).
    Down,
    /// Each may face either way.
    Free,
}

/// Squares on rank a (the top of each file).
const RANK_A: u128 = {
    let mut b = 0u128;
    let mut f = 0;
    while f < 9 {
        b |= 1 << (f * 9);
        f += 1;
    }
    b
};

/// Squares on rank i (the bottom of each file).
const RANK_I: u128 = RANK_A << 8;

/// Squares whose neighbour above is in `x`.
#[inline(always)]
fn below(x: u128) -> u128 {
    (x << 1) & !RANK_A
}

/// Squares whose neighbour below is in `x`.
#[inline(always)]
fn above(x: u128) -> u128 {
    (x >> 1) & !RANK_I
}

/// Whether `pawns` pawns (facing as `how` allows) and `stones` stones can be placed on the
/// squares of `area` that are neither in `occ` (pieces standing) nor in `att` (their attacks),
/// without a pawn attacking a piece, a stone or another pawn. Exact (see the module docs).
pub fn placeable(
    area: Bitboard,
    occ: Bitboard,
    att: Bitboard,
    pawns: u32,
    stones: u32,
    how: Pawns,
) -> bool {
    let free = area.0 & !occ.0 & !att.0;
    let n_free = free.count_ones();
    if pawns + stones > n_free {
        return false;
    }
    if pawns == 0 {
        return true;
    }
    let tops = free & !below(free);
    let bottoms = free & !above(free);
    let open_tops = tops & !below(occ.0);
    let open_bottoms = bottoms & !above(occ.0);
    // cheap: pawns costing one square; pairs / singles: the rest (see module docs).
    let (mut cheap, mut pairs, mut singles) = (0u32, 0u32, 0u32);
    let mut t = tops;
    while t != 0 {
        let top = t.trailing_zeros();
        t &= t - 1;
        let bottom = top + (bottoms >> top).trailing_zeros();
        let len = bottom - top + 1;
        let ends = match how {
            Pawns::Up => (open_tops >> top) as u32 & 1,
            Pawns::Down => (open_bottoms >> bottom) as u32 & 1,
            Pawns::Free => {
                (((open_tops >> top) as u32 & 1) + ((open_bottoms >> bottom) as u32 & 1)).min(len)
            }
        };
        cheap += ends;
        let rest = len - ends;
        match how {
            Pawns::Up | Pawns::Down => singles += rest / 2,
            Pawns::Free => {
                pairs += rest / 3;
                singles += u32::from(rest % 3 == 2);
            }
        }
    }
    if pawns > cheap + 2 * pairs + singles {
        return false;
    }
    let extra = pawns.saturating_sub(cheap);
    let wasted = if extra <= 2 * pairs {
        extra.div_ceil(2)
    } else {
        extra - pairs
    };
    stones + pawns + wasted <= n_free
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kikazu::Area;
    use crate::shogi::Square;

    /// Brute force: every assignment of {empty, stone, up pawn, down pawn} to the free squares;
    /// returns, for each pawn count, the most stones placed alongside (-1: that many pawns never
    /// fit).
    fn brute(area: Bitboard, occ: Bitboard, att: Bitboard, how: Pawns) -> Vec<i32> {
        let free: Vec<Square> = (area & !occ & !att).collect();
        let states: u32 = match how {
            Pawns::Free => 4,
            _ => 3,
        };
        let mut best = vec![-1i32; free.len() + 1];
        let total = states.pow(free.len() as u32);
        let mut cell = vec![0u32; free.len()];
        for code in 0..total {
            let mut c = code;
            for x in cell.iter_mut() {
                *x = c % states;
                c /= states;
            }
            // 0 empty, 1 stone, 2 pawn facing the default way, 3 pawn facing down.
            let mut pieces = occ;
            for (i, &sq) in free.iter().enumerate() {
                if cell[i] != 0 {
                    pieces.set(sq);
                }
            }
            let mut ok = true;
            let (mut np, mut ns) = (0usize, 0i32);
            for (i, &sq) in free.iter().enumerate() {
                let dir: i8 = match (cell[i], how) {
                    (0, _) => continue,
                    (1, _) => {
                        ns += 1;
                        continue;
                    }
                    (2, Pawns::Down) => 1,
                    (2, _) => -1,
                    _ => 1,
                };
                np += 1;
                if let Some(t) = sq.offset(0, dir) {
                    if pieces.has(t) {
                        ok = false;
                    }
                }
            }
            if ok {
                best[np] = best[np].max(ns);
            }
        }
        best
    }

    fn check(area: Bitboard, occ: Bitboard, att: Bitboard) {
        for how in [Pawns::Up, Pawns::Down, Pawns::Free] {
            let best = brute(area, occ, att, how);
            for (n, &b) in best.iter().enumerate() {
                for m in 0..=(best.len() as u32) {
                    let truth = b >= 0 && m as i32 <= b;
                    assert_eq!(
                        placeable(area, occ, att, n as u32, m, how),
                        truth,
                        "{how:?} n={n} m={m} area={area:?} occ={occ:?} att={att:?}"
                    );
                }
            }
        }
    }

    /// A small deterministic generator (xorshift), so the test needs no dependency.
    fn rng(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn exact_against_brute_force_on_small_areas() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let areas = [
            Area { files: 1, ranks: 9 },
            Area { files: 2, ranks: 5 },
            Area { files: 3, ranks: 3 },
            Area { files: 4, ranks: 2 },
            Area { files: 3, ranks: 5 },
            Area { files: 2, ranks: 9 },
        ];
        let mut cases = 0;
        for area in areas {
            let mask = area.mask();
            while cases < 60 {
                let (mut occ, mut att) = (Bitboard::EMPTY, Bitboard::EMPTY);
                for sq in mask {
                    match rng(&mut s) % 6 {
                        0 => occ.set(sq),
                        1 => att.set(sq),
                        _ => {}
                    }
                }
                // At most 10 free squares: 4^10 assignments to try.
                if (mask & !occ & !att).count() <= 10 {
                    check(mask, occ, att);
                    cases += 1;
                }
            }
            cases = 0;
        }
    }

    #[test]
    fn article_examples() {
        // An empty file: 5 up pawns (ranks a, c, e, g, i), 6 with free facing.
        let file = Area { files: 1, ranks: 9 }.mask();
        let e = Bitboard::EMPTY;
        assert!(placeable(file, e, e, 5, 0, Pawns::Up));
        assert!(!placeable(file, e, e, 6, 0, Pawns::Up));
        assert!(placeable(file, e, e, 6, 0, Pawns::Free));
        assert!(!placeable(file, e, e, 7, 0, Pawns::Free));
        // Whole board: 45 and 54.
        let all = Bitboard::ALL;
        assert!(placeable(all, e, e, 45, 0, Pawns::Up));
        assert!(!placeable(all, e, e, 46, 0, Pawns::Up));
        assert!(placeable(all, e, e, 54, 0, Pawns::Free));
        assert!(!placeable(all, e, e, 55, 0, Pawns::Free));
    }
}
