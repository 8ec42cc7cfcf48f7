//! Slider lookups: the file (rook and lance) by a shift and a 9 x 128 table, the rank and both
//! diagonals by a 7-bit index gathered with PEXT (see `pext`) into per-square tables; horse and
//! dragon add the king's steps.

use super::super::bitboard::Bitboard;
use super::super::types::{Color, Square};
use super::lines::{ray, ray_inner, FORWARD};
use super::pext::pext_portable;
#[cfg(target_arch = "x86_64")]
use super::pext::{pext_bmi2, use_pext};
use super::step::KING;

/// The three PEXT-indexed lines: rank (horizontal), diagonal, anti-diagonal.
const LINE_DIRS: [[(i32, i32); 2]; 3] = [[(1, 0), (-1, 0)], [(1, 1), (-1, -1)], [(1, -1), (-1, 1)]];

/// The inner squares of one line through a square, as masks of the board's two 64-bit halves,
/// and how many bits the low half's mask has (where the high half's index bits start).
#[derive(Clone, Copy)]
pub(super) struct LineMask {
    pub(super) lo: u64,
    pub(super) hi: u64,
    lo_bits: u32,
}

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

pub(super) static LINE_MASKS: [[LineMask; 3]; 81] = line_masks();

/// Deposits the low bits of `idx` into the set bits of `mask` (software PDEP, build time only).
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

#[inline(always)]
fn line_attack(sq: Square, line: usize, occ: Bitboard) -> Bitboard {
    let m = &LINE_MASKS[sq.index()][line];
    #[cfg(target_arch = "x86_64")]
    let idx = if use_pext() {
        pext_bmi2(occ.lo(), m.lo) | (pext_bmi2(occ.hi(), m.hi) << m.lo_bits)
    } else {
        pext_portable(occ.lo(), m.lo) | (pext_portable(occ.hi(), m.hi) << m.lo_bits)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let idx = pext_portable(occ.lo(), m.lo) | (pext_portable(occ.hi(), m.hi) << m.lo_bits);
    LINE_ATTACKS[sq.index()][line][idx as usize]
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
