//! The seeded pseudo-random numbers of the randomized tests and benches, and a random-move
//! picker built on them: xorshift64* (Vigna), small and deterministic, so a seed names the same
//! positions and inputs on every machine without a `rand` dependency.
//!
//! The files that use it were written with their own copies, seeded in different ways; each
//! keeps its own seeding ([`Rng::from_state`] or [`Rng::mixed`] with its own salt) so that it
//! still tests the positions and inputs it always did.

use tsumugi::shogi::{Move, MoveList, Position};

/// Odd 64-bit multiplier (2^64 / golden ratio) that spreads nearby seeds apart.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// xorshift64* generator.
pub struct Rng(u64);

impl Rng {
    /// Starts from `state` as it is; 0 becomes 1 (xorshift never leaves the all-zero state).
    pub fn from_state(state: u64) -> Rng {
        Rng(state.max(1))
    }

    /// Starts from `seed` spread by a multiplication and xored with `salt`, then drops four
    /// outputs, so that nearby seeds give unrelated sequences from the first draw on.
    pub fn mixed(seed: u64, salt: u64) -> Rng {
        let mut r = Rng::from_state(seed.wrapping_mul(GOLDEN) ^ salt);
        for _ in 0..4 {
            r.next();
        }
        r
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`), from the high bits by multiplication.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// In `0..n` (`n > 0`) by remainder: slightly biased and from the low bits, which is what
    /// the parser fuzz test drew with; kept so its inputs stay the same.
    pub fn below_by_remainder(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.next() % 100 < percent as u64
    }
}

/// Picks a move from `list` (not empty): a checking move with probability `check_pct` (when
/// there is one), else a drop with probability `drop_pct` (when there is one), else any move.
/// Checks are chosen among the listed moves with `gives_check`, not by the check generator,
/// which some of the tests check.
pub fn pick(pos: &Position, list: &MoveList, rng: &mut Rng, check_pct: u32, drop_pct: u32) -> Move {
    let moves = list.as_slice();
    if rng.chance(check_pct) {
        let checks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.gives_check(m))
            .collect();
        if !checks.is_empty() {
            return checks[rng.below(checks.len())];
        }
    }
    if rng.chance(drop_pct) {
        let drops: Vec<Move> = moves.iter().copied().filter(|m| m.is_drop()).collect();
        if !drops.is_empty() {
            return drops[rng.below(drops.len())];
        }
    }
    moves[rng.below(moves.len())]
}
