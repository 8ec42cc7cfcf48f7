//! 81-square bitboard in a `u128` (bit i = square i, file-major; bits 81..128 always zero).
//!
//! A `u128` compiles to two 64-bit registers; the operations we need (and, or, shifts, popcount,
//! lowest bit) are two or three instructions each, and one type avoids the split-board bookkeeping
//! of the `[u64; 2]` layouts (Apery, YaneuraOu) in everything but the PEXT slider lookup.

use super::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of board squares, one bit per square (see module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// All 81 board bits.
pub const BOARD_MASK: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard(BOARD_MASK);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether no square is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether at least one square is set.
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Adds `sq`.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// Number of squares set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one bit set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Lowest square; the board must be non-empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index(self.0.trailing_zeros() as usize)
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(Square::from_index(sq))
        }
    }

    /// Squares in `self` but not in `o`.
    #[inline(always)]
    pub const fn and_not(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & !o.0)
    }

    /// The 64-bit halves, for PEXT.
    #[inline(always)]
    pub const fn lo(self) -> u64 {
        self.0 as u64
    }

    /// The high 64 bits (squares 64..81), for PEXT.
    #[inline(always)]
    pub const fn hi(self) -> u64 {
        (self.0 >> 64) as u64
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_MASK)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Drawn as a board seen from Black: file 9 on the left, rank a on top.
        writeln!(f)?;
        for r in 0..9u8 {
            for fi in (0..9u8).rev() {
                let c = if self.has(Square::new(fi, r)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pop_iterates_in_square_order() {
        let mut b = Bitboard::EMPTY;
        b.set(Square::from_index(80));
        b.set(Square::from_index(3));
        b.set(Square::from_index(64));
        let v: Vec<usize> = b.map(|s| s.index()).collect();
        assert_eq!(v, vec![3, 64, 80]);
        assert!(b.more_than_one());
        assert!(!Bitboard::from_square(Square::from_index(70)).more_than_one());
        assert_eq!((!Bitboard::EMPTY).count(), 81);
    }
}
