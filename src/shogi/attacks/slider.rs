//! Slider lookups: the file (rook and lance) by a shift and a 9 x 128 table; the rank and both
//! diagonals by a 7-bit index gathered with PEXT (see `pext`) into per-square tables where
//! PEXT is fast, else by the obstruction difference (below), which needs no table; horse and
//! dragon add the king's steps.

use super::super::bitboard::Bitboard;
use super::super::types::{Color, Square};
#[cfg(target_arch = "x86_64")]
use super::lines::ray_inner;
use super::lines::{ray, FORWARD};
#[cfg(target_arch = "x86_64")]
use super::pext::{pext_bmi2, use_pext};
use super::step::KING;

/// The three PEXT-indexed lines: rank (horizontal), diagonal, anti-diagonal.
const LINE_DIRS: [[(i32, i32); 2]; 3] = [[(1, 0), (-1, 0)], [(1, 1), (-1, -1)], [(1, -1), (-1, 1)]];

/// The inner squares of one line through a square, as masks of the board's two 64-bit halves,
/// and how many bits the low half's mask has (where the high half's index bits start).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct LineMask {
    pub(super) lo: u64,
    pub(super) hi: u64,
    lo_bits: u32,
}

#[cfg(target_arch = "x86_64")]
const fn line_masks() -> [[LineMask; 3]; 81] {
    let mut t = [[LineMask {
        lo: 0,
        hi: 0,
        lo_bits: 0,
    }; 3]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut l = 0;
        while l < 3 {
            let m = ray_inner(sq, LINE_DIRS[l][0].0, LINE_DIRS[l][0].1)
                | ray_inner(sq, LINE_DIRS[l][1].0, LINE_DIRS[l][1].1);
            t[sq][l] = LineMask {
                lo: m as u64,
                hi: (m >> 64) as u64,
                lo_bits: (m as u64).count_ones(),
            };
            l += 1;
        }
        sq += 1;
    }
    t
}

#[cfg(target_arch = "x86_64")]
static LINE_MASKS: [[LineMask; 3]; 81] = line_masks();

/// Deposits the low bits of `idx` into the set bits of `mask` (software PDEP, build time only).
#[cfg(target_arch = "x86_64")]
const fn pdep(mut idx: u128, mut mask: u128) -> u128 {
    let mut out = 0u128;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if idx & 1 != 0 {
            out |= low;
        }
        idx >>= 1;
        mask &= mask - 1;
    }
    out
}

#[cfg(target_arch = "x86_64")]
const fn line_attacks() -> [[[Bitboard; 128]; 3]; 81] {
    let mut t = [[[Bitboard(0); 128]; 3]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut l = 0;
        while l < 3 {
            let (d0, d1) = (LINE_DIRS[l][0], LINE_DIRS[l][1]);
            let mask = ray_inner(sq, d0.0, d0.1) | ray_inner(sq, d1.0, d1.1);
            let n = mask.count_ones();
            let mut idx = 0u128;
            while idx < (1u128 << n) {
                let occ = pdep(idx, mask);
                t[sq][l][idx as usize] =
                    Bitboard(ray(sq, d0.0, d0.1, occ) | ray(sq, d1.0, d1.1, occ));
                idx += 1;
            }
            l += 1;
        }
        sq += 1;
    }
    t
}

#[cfg(target_arch = "x86_64")]
static LINE_ATTACKS: [[[Bitboard; 128]; 3]; 81] = line_attacks();

/// FILE_ATTACKS[rank][inner occupancy of the file, 7 bits] = 9-bit row of attacked ranks.
const fn file_attacks() -> [[u16; 128]; 9] {
    let mut t = [[0u16; 128]; 9];
    let mut r = 0;
    while r < 9 {
        let mut idx = 0;
        while idx < 128 {
            let occ = (idx as u128) << 1; // ranks 1..7 (b..h) of file 1
            let a = ray(r, 0, 1, occ) | ray(r, 0, -1, occ);
            t[r][idx] = a as u16;
            idx += 1;
        }
        r += 1;
    }
    t
}

static FILE_ATTACKS: [[u16; 128]; 9] = file_attacks();

/// The two halves of one line through a square, each to the board's edge: the squares below
/// the square's index and those above it.
#[derive(Clone, Copy)]
struct LineRays {
    lower: u128,
    upper: u128,
}

const fn line_rays() -> [[LineRays; 3]; 81] {
    let mut t = [[LineRays { lower: 0, upper: 0 }; 3]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut l = 0;
        while l < 3 {
            // Direction 0 raises the file, so the square index (file-major), on every line.
            let (d0, d1) = (LINE_DIRS[l][0], LINE_DIRS[l][1]);
            t[sq][l] = LineRays {
                upper: ray(sq, d0.0, d0.1, 0),
                lower: ray(sq, d1.0, d1.1, 0),
            };
            l += 1;
        }
        sq += 1;
    }
    t
}

static LINE_RAYS: [[LineRays; 3]; 81] = line_rays();

/// HIGHEST_BIT[n] = the bit with n leading zeros: a load in place of a variable 128-bit shift.
static HIGHEST_BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut n = 0;
    while n < 128 {
        t[n] = 1u128 << (127 - n);
        n += 1;
    }
    t
};

/// A line's attacks by the obstruction difference (M. Hoffmann, chessprogramming.org): on a
/// line whose squares below and above the slider are the bits below and above its index, the
/// nearest blocker below is the most significant occupied bit of the lower half (bit 0 when
/// there is none: the whole lower half is then attacked), and subtracting it from the upper
/// half's occupancy borrows through every bit from there to the nearest blocker above, which
/// the XOR with the occupancy turns into exactly the span between the two blockers, both
/// included. A few branch-free integer operations and 32 bytes of masks a line: no 500 KB
/// table to keep in cache, and no data-dependent branch to mispredict (the bit-by-bit PEXT
/// loop it replaced had one per mask bit).
#[inline(always)]
fn line_attack_od(sq: Square, line: usize, occ: Bitboard) -> Bitboard {
    let r = &LINE_RAYS[sq.index()][line];
    let lower = occ.0 & r.lower;
    let upper = occ.0 & r.upper;
    let nearest_below = HIGHEST_BIT[(lower | 1).leading_zeros() as usize];
    let span = upper ^ upper.wrapping_sub(nearest_below);
    Bitboard(span & (r.lower | r.upper))
}

#[inline(always)]
fn line_attack(sq: Square, line: usize, occ: Bitboard) -> Bitboard {
    #[cfg(target_arch = "x86_64")]
    if use_pext() {
        let m = &LINE_MASKS[sq.index()][line];
        let idx = pext_bmi2(occ.lo(), m.lo) | (pext_bmi2(occ.hi(), m.hi) << m.lo_bits);
        return LINE_ATTACKS[sq.index()][line][idx as usize];
    }
    line_attack_od(sq, line, occ)
}

/// Rook attacks along the file only.
#[inline(always)]
pub fn file_attack(sq: Square, occ: Bitboard) -> Bitboard {
    let shift = sq.file() as u32 * 9;
    let idx = ((occ.0 >> (shift + 1)) & 0x7f) as usize;
    Bitboard((FILE_ATTACKS[sq.rank() as usize][idx] as u128) << shift)
}

/// Rook attacks along the rank only.
#[inline(always)]
pub fn rank_attack(sq: Square, occ: Bitboard) -> Bitboard {
    line_attack(sq, 0, occ)
}

/// Rook attacks from `sq` given occupancy `occ`.
#[inline(always)]
pub fn rook_attack(sq: Square, occ: Bitboard) -> Bitboard {
    file_attack(sq, occ) | line_attack(sq, 0, occ)
}

/// Bishop attacks from `sq` given occupancy `occ`.
#[inline(always)]
pub fn bishop_attack(sq: Square, occ: Bitboard) -> Bitboard {
    line_attack(sq, 1, occ) | line_attack(sq, 2, occ)
}

/// Lance attacks of colour `c` from `sq`: straight ahead up to the first piece.
#[inline(always)]
pub fn lance_attack(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    file_attack(sq, occ) & FORWARD[c.index()][sq.index()]
}

/// Horse attacks: bishop lines plus the one-step king moves.
#[inline(always)]
pub fn horse_attack(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_attack(sq, occ) | KING[0][sq.index()]
}

/// Dragon attacks: rook lines plus the one-step king moves.
#[inline(always)]
pub fn dragon_attack(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attack(sq, occ) | KING[0][sq.index()]
}
