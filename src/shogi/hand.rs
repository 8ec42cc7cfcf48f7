//! Pieces in hand, packed into one `u32` so that "hand A holds at least hand B" is one
//! subtraction and one mask test (the proof/disproof-hand dominance of the mate search's table).
//!
//! Layout (low to high), each field followed by one always-zero guard bit that catches the borrow
//! of a field whose subtraction went negative:
//!
//! | kind   | bits  | max | guard |
//! |--------|-------|-----|-------|
//! | pawn   | 0..5  | 18  | 5     |
//! | lance  | 6..9  | 4   | 9     |
//! | knight | 10..13| 4   | 13    |
//! | silver | 14..17| 4   | 17    |
//! | bishop | 18..20| 2   | 20    |
//! | rook   | 21..23| 2   | 23    |
//! | gold   | 24..27| 4   | 27    |

use super::types::PieceKind;
use std::fmt;

/// The pieces one side holds in hand, packed per kind (see module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Hand(pub u32);

const SHIFT: [u32; 7] = [0, 6, 10, 14, 18, 21, 24];
const WIDTH: [u32; 7] = [5, 3, 3, 3, 2, 2, 3];
const FIELD_MASK: [u32; 7] = [
    0x1f,
    0x7 << 6,
    0x7 << 10,
    0x7 << 14,
    0x3 << 18,
    0x3 << 21,
    0x7 << 24,
];
const BORROW: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 20) | (1 << 23) | (1 << 27);

impl Hand {
    /// Nothing in hand.
    pub const EMPTY: Hand = Hand(0);

    /// Every piece a side could hold at most (18 pawns, 4 of each minor, 2 bishops, 2 rooks).
    pub const FULL: Hand =
        Hand(18 | (4 << 6) | (4 << 10) | (4 << 14) | (2 << 18) | (2 << 21) | (4 << 24));

    /// How many of `k` are held.
    #[inline(always)]
    pub const fn count(self, k: PieceKind) -> u32 {
        let i = k as usize;
        (self.0 & FIELD_MASK[i]) >> SHIFT[i]
    }

    /// Whether at least one `k` is held.
    #[inline(always)]
    pub const fn has(self, k: PieceKind) -> bool {
        self.0 & FIELD_MASK[k as usize] != 0
    }

    /// Adds one `k` (a kind that can be held in hand).
    #[inline(always)]
    pub fn add(&mut self, k: PieceKind) {
        debug_assert!((k as usize) < 7);
        self.0 += 1 << SHIFT[k as usize];
    }

    /// Removes one `k`, which must be held.
    #[inline(always)]
    pub fn sub(&mut self, k: PieceKind) {
        debug_assert!(self.has(k));
        self.0 -= 1 << SHIFT[k as usize];
    }

    /// Sets the count of `k`; `n` must fit the field (see table).
    #[inline]
    pub fn set_count(&mut self, k: PieceKind, n: u32) {
        let i = k as usize;
        debug_assert!(n < (1 << WIDTH[i]));
        self.0 = (self.0 & !FIELD_MASK[i]) | (n << SHIFT[i]);
    }

    /// Whether nothing is held.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `self` holds at least as many of every kind as `other` (self ⊇ other).
    #[inline(always)]
    pub const fn superior_or_equal(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW == 0
    }

    /// Per-kind minimum.
    #[inline]
    pub fn min(self, o: Hand) -> Hand {
        let mut r = 0;
        for m in FIELD_MASK {
            r |= (self.0 & m).min(o.0 & m);
        }
        Hand(r)
    }

    /// Per-kind maximum.
    #[inline]
    pub fn max(self, o: Hand) -> Hand {
        let mut r = 0;
        for m in FIELD_MASK {
            r |= (self.0 & m).max(o.0 & m);
        }
        Hand(r)
    }

    /// Bitmask of kinds present (bit i = `PieceKind::HAND[i]`).
    #[inline]
    pub fn kinds_mask(self) -> u8 {
        let mut bits = 0u8;
        for (i, m) in FIELD_MASK.iter().enumerate() {
            if self.0 & m != 0 {
                bits |= 1 << i;
            }
        }
        bits
    }

    /// Total number of pieces.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, "-");
        }
        for k in PieceKind::HAND_WRITING_ORDER {
            let n = self.count(k);
            if n > 1 {
                write!(f, "{n}")?;
            }
            if n > 0 {
                write!(f, "{}", k.sfen_char())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_hand_counts() {
        assert_eq!(Hand::FULL.count(PieceKind::Pawn), 18);
        assert_eq!(Hand::FULL.count(PieceKind::Gold), 4);
        assert_eq!(Hand::FULL.count(PieceKind::Rook), 2);
        assert_eq!(Hand::FULL.total(), 38);
    }

    #[test]
    fn dominance_is_per_kind() {
        let mut a = Hand::EMPTY;
        let mut b = Hand::EMPTY;
        a.add(PieceKind::Gold);
        a.add(PieceKind::Pawn);
        b.add(PieceKind::Gold);
        assert!(a.superior_or_equal(b));
        assert!(!b.superior_or_equal(a));
        b.add(PieceKind::Rook);
        assert!(!a.superior_or_equal(b));
        assert!(!b.superior_or_equal(a));
        // Exhaustive over small counts of two kinds against the slow definition.
        for p1 in 0..4 {
            for s1 in 0..4 {
                for p2 in 0..4 {
                    for s2 in 0..4 {
                        let mut x = Hand::EMPTY;
                        x.set_count(PieceKind::Pawn, p1);
                        x.set_count(PieceKind::Silver, s1);
                        let mut y = Hand::EMPTY;
                        y.set_count(PieceKind::Pawn, p2);
                        y.set_count(PieceKind::Silver, s2);
                        assert_eq!(x.superior_or_equal(y), p1 >= p2 && s1 >= s2);
                        let m = x.min(y);
                        assert_eq!(m.count(PieceKind::Pawn), p1.min(p2));
                        assert_eq!(x.max(y).count(PieceKind::Silver), s1.max(s2));
                    }
                }
            }
        }
    }
}
