//! Empty-board geometry: rays, the forward and full reach of the sliders (for "could this
//! slider ever see that square"), the squares strictly between two squares and the whole line
//! through them.

use super::super::bitboard::Bitboard;
use super::super::types::{Color, Square};
use super::step::KING_OFFS;

/// Squares reached from `sq` walking (df, dr) until and including the first occupied square.
pub(super) const fn ray(sq: usize, df: i32, dr: i32, occ: u128) -> u128 {
    let mut f = (sq / 9) as i32 + df;
    let mut r = (sq % 9) as i32 + dr;
    let mut b = 0u128;
    while f >= 0 && f <= 8 && r >= 0 && r <= 8 {
        let s = 1u128 << (f * 9 + r);
        b |= s;
        if occ & s != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    b
}

/// Inner squares of a ray (the ray without its last, edge square): the occupancy that matters
/// to the PEXT-indexed tables.
#[cfg(target_arch = "x86_64")]
pub(super) const fn ray_inner(sq: usize, df: i32, dr: i32) -> u128 {
    let full = ray(sq, df, dr, 0);
    if full == 0 {
        return 0;
    }
    // The edge square is the farthest one along the ray.
    let mut f = (sq / 9) as i32;
    let mut r = (sq % 9) as i32;
    while f + df >= 0 && f + df <= 8 && r + dr >= 0 && r + dr <= 8 {
        f += df;
        r += dr;
    }
    full & !(1u128 << (f * 9 + r))
}

/// Squares ahead of `sq` for colour c on its file (the lance's direction), no blockers.
const fn forward_table() -> [[Bitboard; 81]; 2] {
    let mut t = [[Bitboard(0); 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        t[0][sq] = Bitboard(ray(sq, 0, -1, 0));
        t[1][sq] = Bitboard(ray(sq, 0, 1, 0));
        sq += 1;
    }
    t
}

pub(super) static FORWARD: [[Bitboard; 81]; 2] = forward_table();

/// Rook (index 0) and bishop (index 1) attacks on an empty board: a slider of that kind can
/// attack `sq` only from one of these squares, so one lookup rules out most slider tests.
const fn pseudo_table() -> [[Bitboard; 81]; 2] {
    let mut t = [[Bitboard(0); 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        t[0][sq] =
            Bitboard(ray(sq, 0, 1, 0) | ray(sq, 0, -1, 0) | ray(sq, 1, 0, 0) | ray(sq, -1, 0, 0));
        t[1][sq] =
            Bitboard(ray(sq, 1, 1, 0) | ray(sq, 1, -1, 0) | ray(sq, -1, 1, 0) | ray(sq, -1, -1, 0));
        sq += 1;
    }
    t
}

static PSEUDO: [[Bitboard; 81]; 2] = pseudo_table();

/// Empty-board lance, bishop and rook reach (for "could this slider ever see that square").
#[inline(always)]
pub fn lance_pseudo(c: Color, sq: Square) -> Bitboard {
    FORWARD[c.index()][sq.index()]
}

/// Empty-board bishop reach from `sq`.
#[inline(always)]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    PSEUDO[1][sq.index()]
}

/// Empty-board rook reach from `sq`.
#[inline(always)]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    PSEUDO[0][sq.index()]
}

const fn between_table() -> [[Bitboard; 81]; 81] {
    let mut t = [[Bitboard(0); 81]; 81];
    let dirs: [(i32, i32); 8] = KING_OFFS;
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            let mut f = (a / 9) as i32 + df;
            let mut r = (a % 9) as i32 + dr;
            let mut acc = 0u128;
            while f >= 0 && f <= 8 && r >= 0 && r <= 8 {
                let b = (f * 9 + r) as usize;
                t[a][b] = Bitboard(acc);
                acc |= 1u128 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

const fn line_table() -> [[Bitboard; 81]; 81] {
    let mut t = [[Bitboard(0); 81]; 81];
    let dirs: [(i32, i32); 8] = KING_OFFS;
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            let full = ray(a, df, dr, 0) | ray(a, -df, -dr, 0) | (1u128 << a);
            let mut f = (a / 9) as i32 + df;
            let mut r = (a % 9) as i32 + dr;
            while f >= 0 && f <= 8 && r >= 0 && r <= 8 {
                t[a][(f * 9 + r) as usize] = Bitboard(full);
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

/// The squares within two files and three ranks of each square: the only squares from which a
/// step or a knight's jump (two ranks forward, one file aside) can reach one of its eight
/// neighbours.
const fn king_zone_reach_table() -> [Bitboard; 81] {
    let mut t = [Bitboard(0); 81];
    let mut a = 0;
    while a < 81 {
        let (fa, ra) = ((a / 9) as i32, (a % 9) as i32);
        let mut b = 0usize;
        while b < 81 {
            let (fb, rb) = ((b / 9) as i32, (b % 9) as i32);
            let (df, dr) = (fb - fa, rb - ra);
            if df >= -2 && df <= 2 && dr >= -3 && dr <= 3 {
                t[a].0 |= 1u128 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

static KING_ZONE_REACH: [Bitboard; 81] = king_zone_reach_table();

/// Squares from which a non-sliding piece (or a horse's or dragon's step) can attack a
/// neighbour of `sq`: a superset, for "which steppers need looking at".
#[inline(always)]
pub fn king_zone_reach(sq: Square) -> Bitboard {
    KING_ZONE_REACH[sq.index()]
}

static BETWEEN: [[Bitboard; 81]; 81] = between_table();
static LINE: [[Bitboard; 81]; 81] = line_table();

/// Squares strictly between a and b if they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line through a and b (both included) if they share a line, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}
