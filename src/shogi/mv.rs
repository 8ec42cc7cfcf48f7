//! Moves as a compact 16-bit integer, with USI text both ways (`7g7f`, `8h2b+`, `P*5e`).
//!
//! Bits 0..7: destination square. Bits 7..14: origin square (0..81) or, for a drop,
//! 81 + the dropped kind. Bit 14: promotion. `Move::NONE` (0, "1a to 1a") is never a real move.

use super::types::{PieceKind, Square};
use std::fmt;

/// A move packed into 16 bits (see module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(pub u16);

impl Move {
    /// The null move (0), never a real move.
    pub const NONE: Move = Move(0);

    /// A board move from `from` to `to`, promoting if `promote`.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 14)
    }

    /// A drop of a piece of kind `k` from the hand onto `to`.
    #[inline(always)]
    pub const fn drop(k: PieceKind, to: Square) -> Move {
        Move(to.index() as u16 | (81 + k as u16) << 7)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 & 0x7f) as usize)
    }

    /// Whether the move drops a piece from the hand.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        ((self.0 >> 7) & 0x7f) >= 81
    }

    /// Origin square of a board move.
    #[inline(always)]
    pub const fn from(self) -> Square {
        debug_assert!(!self.is_drop());
        Square::from_index(((self.0 >> 7) & 0x7f) as usize)
    }

    /// Kind dropped by a drop move.
    #[inline(always)]
    pub const fn drop_kind(self) -> PieceKind {
        debug_assert!(self.is_drop());
        PieceKind::from_index((((self.0 >> 7) & 0x7f) - 81) as usize)
    }

    /// Whether the move promotes the moving piece.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (1 << 14) != 0
    }

    /// Whether this is `Move::NONE`.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Parses USI move text. Only the syntax is checked here; legality is the position's job.
    pub fn from_usi(s: &str) -> Option<Move> {
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let k = PieceKind::from_sfen_char(b[0] as char)?;
            if !b[0].is_ascii_uppercase() || k == PieceKind::King {
                return None;
            }
            return Some(Move::drop(k, Square::from_usi(&b[2..4])?));
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return None,
        };
        let from = Square::from_usi(&b[0..2])?;
        let to = Square::from_usi(&b[2..4])?;
        if from == to {
            return None;
        }
        Some(Move::normal(from, to, promote))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return write!(f, "none");
        }
        if self.is_drop() {
            write!(f, "{}*{}", self.drop_kind().sfen_char(), self.to())
        } else {
            write!(f, "{}{}", self.from(), self.to())?;
            if self.is_promotion() {
                write!(f, "+")?;
            }
            Ok(())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trip() {
        for s in ["7g7f", "8h2b+", "P*5e", "R*1a", "1i9a", "9a1i+"] {
            assert_eq!(Move::from_usi(s).unwrap().to_string(), s);
        }
        for s in [
            "", "7g7", "7g7g", "K*5e", "p*5e", "P*0e", "7g7f=", "7g7f++", "0a1a",
        ] {
            assert!(Move::from_usi(s).is_none(), "{s}");
        }
        let m = Move::from_usi("G*5b").unwrap();
        assert!(m.is_drop());
        assert_eq!(m.drop_kind(), PieceKind::Gold);
    }
}
