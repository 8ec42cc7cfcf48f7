//! Basic value types: colour, square, piece kind, piece.
//!
//! Squares are file-major: index = (file - 1) * 9 + (rank - 1), so USI `1a` is 0, `1i` is 8,
//! `9i` is 80. A file is then 9 contiguous bits of a bitboard, which makes file (rook and lance)
//! attacks a shift and a table lookup.

use std::fmt;

/// Side: Black (先手, `b`, moves "up" towards rank a) or White (後手, `w`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Black (先手), the side that moves first.
    Black = 0,
    /// White (後手).
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White, for indexing per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A board square, 0..81, file-major (see module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const NUM: usize = 81;

    /// From 0-based file (0 = file 1) and 0-based rank (0 = rank a).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 9 && rank < 9);
        Square(file * 9 + rank)
    }

    /// The square with index `i` (0..81).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        debug_assert!(i < 81);
        Square(i as u8)
    }

    /// Index 0..81 (file-major).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file: 0 is file 1 (the right edge from Black's side).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9
    }

    /// 0-based rank: 0 is rank a (White's back rank).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9
    }

    /// Rank as seen from `c`: 0 is `c`'s farthest rank (rank a for Black, rank i for White).
    #[inline(always)]
    pub const fn relative_rank(self, c: Color) -> u8 {
        match c {
            Color::Black => self.rank(),
            Color::White => 8 - self.rank(),
        }
    }

    /// Whether the square lies in `c`'s promotion zone (the three farthest ranks).
    #[inline(always)]
    pub const fn in_promotion_zone(self, c: Color) -> bool {
        self.relative_rank(c) < 3
    }

    /// Offset by (file, rank) deltas, `None` off the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f > 8 || r < 0 || r > 8 {
            None
        } else {
            Some(Square::new(f as u8, r as u8))
        }
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// Parses USI square notation such as `7g`.
    pub fn from_usi(s: &[u8]) -> Option<Square> {
        if s.len() != 2 {
            return None;
        }
        let f = s[0].wrapping_sub(b'1');
        let r = s[1].wrapping_sub(b'a');
        if f < 9 && r < 9 {
            Some(Square::new(f, r))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file() + 1, (b'a' + self.rank()) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Piece kinds. The seven kinds that can be held in hand come first (0..7), in the order of the
/// packed hand layout; promoted kinds are the unpromoted kind with bit 3 set, so promotion is
/// `| 8` and demotion `& 7`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// Pawn (歩).
    Pawn = 0,
    /// Lance (香).
    Lance = 1,
    /// Knight (桂).
    Knight = 2,
    /// Silver general (銀).
    Silver = 3,
    /// Bishop (角).
    Bishop = 4,
    /// Rook (飛).
    Rook = 5,
    /// Gold general (金).
    Gold = 6,
    /// King (玉).
    King = 7,
    /// Promoted pawn (と).
    ProPawn = 8,
    /// Promoted lance (成香).
    ProLance = 9,
    /// Promoted knight (成桂).
    ProKnight = 10,
    /// Promoted silver (成銀).
    ProSilver = 11,
    /// Horse, promoted bishop (馬).
    Horse = 12,
    /// Dragon, promoted rook (龍).
    Dragon = 13,
}

impl PieceKind {
    /// Number of piece kinds.
    pub const NUM: usize = 14;
    /// Every kind, in index order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];
    /// Kinds that can be held in hand, in hand-layout order.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
    ];

    /// Kinds that can be held in hand, in the order SFEN and KIF write hands: rook, bishop,
    /// gold, silver, knight, lance, pawn.
    pub const HAND_WRITING_ORDER: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ];

    /// The kind with index `i` (0..14).
    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceKind {
        Self::ALL[i]
    }

    /// Index 0..14 (the discriminant).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether the kind can promote: pawn, lance, knight, silver, bishop or rook.
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) < 6
    }

    /// Whether the kind is a promoted one.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// The promoted kind; only for kinds that `can_promote`.
    #[inline(always)]
    pub const fn promote(self) -> PieceKind {
        debug_assert!(self.can_promote());
        Self::ALL[(self as usize) | 8]
    }

    /// The unpromoted kind (what goes to the hand when captured); King stays King.
    #[inline(always)]
    pub const fn unpromote(self) -> PieceKind {
        Self::ALL[(self as usize) & 7]
    }

    /// Moves like a gold: gold and the four promoted minor pieces.
    #[inline(always)]
    pub const fn is_gold_like(self) -> bool {
        matches!(
            self,
            PieceKind::Gold
                | PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver
        )
    }

    /// How many of this (unpromoted) kind exist in a full set: used by SFEN validation.
    pub const fn max_count(self) -> u8 {
        match self.unpromote() {
            PieceKind::Pawn => 18,
            PieceKind::Lance | PieceKind::Knight | PieceKind::Silver | PieceKind::Gold => 4,
            PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
            _ => 0,
        }
    }

    /// SFEN letter (Black's, upper case) without the promotion mark.
    pub const fn sfen_char(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }

    /// Kind of an SFEN letter of either case (unpromoted); `None` for any other character.
    pub fn from_sfen_char(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'L' => PieceKind::Lance,
            'N' => PieceKind::Knight,
            'S' => PieceKind::Silver,
            'G' => PieceKind::Gold,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'K' => PieceKind::King,
            _ => return None,
        })
    }

    /// Japanese name as used in move notation (歩, 香, ... と, 成香, 馬, 龍).
    pub const fn japanese(self) -> &'static str {
        match self {
            PieceKind::Pawn => "歩",
            PieceKind::Lance => "香",
            PieceKind::Knight => "桂",
            PieceKind::Silver => "銀",
            PieceKind::Gold => "金",
            PieceKind::Bishop => "角",
            PieceKind::Rook => "飛",
            PieceKind::King => "玉",
            PieceKind::ProPawn => "と",
            PieceKind::ProLance => "成香",
            PieceKind::ProKnight => "成桂",
            PieceKind::ProSilver => "成銀",
            PieceKind::Horse => "馬",
            PieceKind::Dragon => "龍",
        }
    }
}

/// A coloured piece, or no piece. Packed: bits 0-3 = kind + 1 (0 = empty), bit 4 = colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    /// No piece (an empty square).
    pub const EMPTY: Piece = Piece(0);

    /// The piece of colour `c` and kind `k`.
    #[inline(always)]
    pub const fn new(c: Color, k: PieceKind) -> Piece {
        Piece(((c as u8) << 4) | (k as u8 + 1))
    }

    /// Whether this is `Piece::EMPTY`.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Kind of a non-empty piece.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        debug_assert!(self.0 != 0);
        PieceKind::from_index(((self.0 & 15) - 1) as usize)
    }

    /// Colour of a non-empty piece.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 16 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Dense index 0..28 for Zobrist tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.color() as usize) * 14 + self.kind() as usize
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, ".");
        }
        let k = self.kind();
        let c = k.sfen_char();
        let c = if self.color() == Color::White {
            c.to_ascii_lowercase()
        } else {
            c
        };
        if k.is_promoted() {
            write!(f, "+{c}")
        } else {
            write!(f, "{c}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_layout_is_file_major() {
        assert_eq!(Square::from_usi(b"1a").unwrap().index(), 0);
        assert_eq!(Square::from_usi(b"1i").unwrap().index(), 8);
        assert_eq!(Square::from_usi(b"9i").unwrap().index(), 80);
        assert_eq!(Square::from_usi(b"7g").unwrap().to_string(), "7g");
        assert!(Square::from_usi(b"0a").is_none());
        assert!(Square::from_usi(b"1j").is_none());
    }

    #[test]
    fn promotion_is_a_bit() {
        for k in PieceKind::ALL {
            if k.can_promote() {
                assert_eq!(k.promote().unpromote(), k);
                assert!(k.promote().is_promoted());
            }
        }
        assert_eq!(PieceKind::Bishop.promote(), PieceKind::Horse);
        assert_eq!(PieceKind::Rook.promote(), PieceKind::Dragon);
        assert!(!PieceKind::Gold.can_promote());
    }

    #[test]
    fn piece_packing_round_trips() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(p.kind(), k);
                assert_eq!(p.color(), c);
                assert!(!p.is_empty());
            }
        }
    }
}
