//! Attacks of the one-step pieces (pawn, knight, silver, gold, king), one table per piece and
//! colour, computed at compile time from each piece's offsets.

use super::super::bitboard::Bitboard;
use super::super::types::{Color, Square};

const fn bit(f: i32, r: i32) -> u128 {
    if f < 0 || f > 8 || r < 0 || r > 8 {
        0
    } else {
        1u128 << (f * 9 + r)
    }
}

/// Step attacks from `sq` for Black given (df, dr) offsets; White mirrors dr.
const fn steps(sq: usize, c: usize, offs: &[(i32, i32)]) -> u128 {
    let f = (sq / 9) as i32;
    let r = (sq % 9) as i32;
    let mut b = 0u128;
    let mut i = 0;
    while i < offs.len() {
        let (df, dr) = offs[i];
        let dr = if c == 0 { dr } else { -dr };
        b |= bit(f + df, r + dr);
        i += 1;
    }
    b
}

const PAWN_OFFS: [(i32, i32); 1] = [(0, -1)];
const KNIGHT_OFFS: [(i32, i32); 2] = [(-1, -2), (1, -2)];
const SILVER_OFFS: [(i32, i32); 5] = [(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_OFFS: [(i32, i32); 6] = [(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
pub(super) const KING_OFFS: [(i32, i32); 8] = [
    (0, -1),
    (-1, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, 1),
    (1, 1),
];

const fn step_table(offs: &[(i32, i32)]) -> [[Bitboard; 81]; 2] {
    let mut t = [[Bitboard(0); 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            t[c][sq] = Bitboard(steps(sq, c, offs));
            sq += 1;
        }
        c += 1;
    }
    t
}

static PAWN: [[Bitboard; 81]; 2] = step_table(&PAWN_OFFS);
static KNIGHT: [[Bitboard; 81]; 2] = step_table(&KNIGHT_OFFS);
static SILVER: [[Bitboard; 81]; 2] = step_table(&SILVER_OFFS);
static GOLD: [[Bitboard; 81]; 2] = step_table(&GOLD_OFFS);
pub(super) static KING: [[Bitboard; 81]; 2] = step_table(&KING_OFFS);

/// Pawn attack of colour `c` from `sq`: the square straight ahead.
#[inline(always)]
pub fn pawn_attack(c: Color, sq: Square) -> Bitboard {
    PAWN[c.index()][sq.index()]
}

/// Knight jumps of colour `c` from `sq` (two squares forward, one sideways).
#[inline(always)]
pub fn knight_attack(c: Color, sq: Square) -> Bitboard {
    KNIGHT[c.index()][sq.index()]
}

/// Silver steps of colour `c` from `sq` (diagonals and straight forward).
#[inline(always)]
pub fn silver_attack(c: Color, sq: Square) -> Bitboard {
    SILVER[c.index()][sq.index()]
}

/// Gold steps of colour `c` from `sq` (orthogonals and forward diagonals).
#[inline(always)]
pub fn gold_attack(c: Color, sq: Square) -> Bitboard {
    GOLD[c.index()][sq.index()]
}

/// King steps from `sq` (all eight neighbours).
#[inline(always)]
pub fn king_attack(sq: Square) -> Bitboard {
    KING[0][sq.index()]
}
