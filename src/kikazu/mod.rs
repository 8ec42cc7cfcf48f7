//! 利かずの駒並べ (kikazu no koma narabe): place shogi pieces on the board so that no piece
//! stands on a square another piece attacks.
//!
//! The puzzle's rules (komori-n's article, 2020): pieces are unpromoted unless written
//! promoted, two pawns on one file are allowed, and so are pieces with no further move (a pawn
//! on rank a). In the one-direction puzzle every piece faces as Black's does (or as the spec
//! says: lower case is White's); in the two-direction puzzle (`bidirectional`) the search
//! chooses each piece's facing.
//!
//! Attacks are the empty board's. In a valid placement no slider's ray can meet a piece (the
//! first piece on it would stand on an attacked square), so every ray runs to the edge and the
//! occupancy-dependent attack equals the empty-board one; the rule is then a pairwise one, "no
//! piece on a square in another piece's empty-board attack set", and the search never has to
//! recompute an attack.
//!
//! * [`spec`]: the piece-set notation (`P18L4N4S4G4K2R2B2`) and the board size.
//! * [`feasible`]: the pawn-and-stone placeability test behind the degraded-piece pruning.
//! * [`search`]: the depth-first search (count, first, all), split over threads.
//! * [`Placement`]: one answer, written as SFEN or drawn.

pub mod feasible;
pub mod search;
pub mod spec;

use crate::shogi::attacks;
use crate::shogi::{Bitboard, Color, PieceKind, Square};
use std::sync::OnceLock;

pub use search::{search, Mode, Outcome, SearchOptions};
pub use spec::{Area, PieceSet, SpecError};

/// What stands on a square: a shogi piece kind, or the article's "stone" (石), which attacks
/// nothing but may not stand on an attacked square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Unit {
    /// A shogi piece (promoted kinds allowed).
    Piece(PieceKind),
    /// A stone.
    Stone,
}

impl Unit {
    /// Index 0..15 into the attack table: the piece kind's index, 14 for the stone.
    #[inline(always)]
    pub const fn index(self) -> usize {
        match self {
            Unit::Piece(k) => k.index(),
            Unit::Stone => 14,
        }
    }

    /// The SFEN-style letters, Black's case: `P`, `+R`, and `X` for the stone (not SFEN).
    pub fn letters(self) -> String {
        match self {
            Unit::Piece(k) if k.is_promoted() => format!("+{}", k.sfen_char()),
            Unit::Piece(k) => k.sfen_char().to_string(),
            Unit::Stone => "X".to_string(),
        }
    }

    /// One-character Japanese name for drawings (promoted: the usual one-character forms).
    pub fn kanji(self) -> &'static str {
        match self {
            Unit::Stone => "石",
            Unit::Piece(k) => match k {
                PieceKind::ProPawn => "と",
                PieceKind::ProLance => "杏",
                PieceKind::ProKnight => "圭",
                PieceKind::ProSilver => "全",
                PieceKind::Horse => "馬",
                PieceKind::Dragon => "龍",
                other => other.japanese(),
            },
        }
    }
}

type AttackTable = [[[Bitboard; 81]; 15]; 2];

/// Empty-board attacks of every unit for both facings, built once.
fn attack_table() -> &'static AttackTable {
    static T: OnceLock<Box<AttackTable>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([[[Bitboard::EMPTY; 81]; 15]; 2]);
        for c in Color::ALL {
            for k in PieceKind::ALL {
                for sq in Square::all() {
                    t[c.index()][k.index()][sq.index()] =
                        attacks::attacks(c, k, sq, Bitboard::EMPTY);
                }
            }
            // The stone's row stays empty.
        }
        t
    })
}

/// The squares `u` facing `c` attacks from `sq` on an otherwise empty board.
#[inline(always)]
pub fn unit_attacks(c: Color, u: Unit, sq: Square) -> Bitboard {
    attack_table()[c.index()][u.index()][sq.index()]
}

/// Whether turning `u` around changes what it attacks (pawn, lance, knight, silver, gold and
/// the gold-like promoted pieces do; king, rook, bishop, horse, dragon and stone do not).
pub fn facing_matters(u: Unit) -> bool {
    Square::all().any(|sq| unit_attacks(Color::Black, u, sq) != unit_attacks(Color::White, u, sq))
}

/// One piece of a placement.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Placed {
    /// Where it stands.
    pub sq: Square,
    /// What it is.
    pub unit: Unit,
    /// Which way it faces (Black: towards rank a).
    pub color: Color,
}

/// A placement: every piece with its square and facing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Placement {
    /// The pieces, in the order the search placed them.
    pub pieces: Vec<Placed>,
    /// The board area they stand in.
    pub area: Area,
}

impl Placement {
    /// What stands on `sq`, if anything.
    pub fn at(&self, sq: Square) -> Option<Placed> {
        self.pieces.iter().copied().find(|p| p.sq == sq)
    }

    /// The board part of a SFEN (9 x 9, rank a first, file 9 first), stones as `X`; the
    /// pieces stand in the area's corner at files 1.. and ranks a.., the rest is empty.
    pub fn sfen_board(&self) -> String {
        let mut s = String::new();
        for r in 0..9u8 {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for f in (0..9u8).rev() {
                match self.at(Square::new(f, r)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let l = p.unit.letters();
                        s.push_str(&match p.color {
                            Color::Black => l,
                            Color::White => l.to_ascii_lowercase(),
                        });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s
    }

    /// A full SFEN (Black to move, no hands, move 1), so that shogi tools read the board.
    pub fn sfen(&self) -> String {
        format!("{} b - 1", self.sfen_board())
    }

    /// The placement mirrored left to right within its area.
    pub fn mirrored(&self) -> Placement {
        let files = self.area.files;
        let mut pieces: Vec<Placed> = self
            .pieces
            .iter()
            .map(|p| Placed {
                sq: Square::new(files - 1 - p.sq.file(), p.sq.rank()),
                ..*p
            })
            .collect();
        pieces.sort();
        Placement {
            pieces,
            area: self.area,
        }
    }

    /// The area drawn as a BOD-style diagram: file numbers on top, `v` before a piece facing
    /// as White's, `・` on an empty square, rank numerals on the right.
    pub fn picture(&self) -> String {
        const FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
        const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
        let (nf, nr) = (self.area.files, self.area.ranks);
        let mut out = String::from(" ");
        for f in (0..nf).rev() {
            out.push(' ');
            out.push_str(FILES[f as usize]);
        }
        out.push('\n');
        let rule = format!("+{}+\n", "-".repeat(3 * nf as usize));
        out.push_str(&rule);
        for r in 0..nr {
            out.push('|');
            for f in (0..nf).rev() {
                match self.at(Square::new(f, r)) {
                    None => out.push_str(" ・"),
                    Some(p) => {
                        out.push(if p.color == Color::White { 'v' } else { ' ' });
                        out.push_str(p.unit.kanji());
                    }
                }
            }
            out.push('|');
            out.push_str(RANKS[r as usize]);
            out.push('\n');
        }
        out.push_str(&rule);
        out
    }

    /// Whether the placement obeys the rule: every piece in the area, one per square, and none
    /// on a square another attacks (checked pairwise with the empty-board attacks, see the
    /// module docs). A check independent of the search's bookkeeping, for tests.
    pub fn is_valid(&self) -> bool {
        let area = self.area.mask();
        let mut occ = Bitboard::EMPTY;
        for p in &self.pieces {
            if !area.has(p.sq) || occ.has(p.sq) {
                return false;
            }
            occ.set(p.sq);
        }
        self.pieces.iter().all(|p| {
            // The occupancy-dependent attacks, as the rules define them, must reach no piece.
            let a = match p.unit {
                Unit::Piece(k) => attacks::attacks(p.color, k, p.sq, occ),
                Unit::Stone => Bitboard::EMPTY,
            };
            (a & occ).is_empty()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facings() {
        assert!(facing_matters(Unit::Piece(PieceKind::Pawn)));
        assert!(facing_matters(Unit::Piece(PieceKind::Gold)));
        assert!(facing_matters(Unit::Piece(PieceKind::ProPawn)));
        assert!(!facing_matters(Unit::Piece(PieceKind::King)));
        assert!(!facing_matters(Unit::Piece(PieceKind::Rook)));
        assert!(!facing_matters(Unit::Piece(PieceKind::Dragon)));
        assert!(!facing_matters(Unit::Stone));
    }

    #[test]
    fn article_40_piece_example_is_valid_and_round_trips() {
        // The 40-piece placement drawn in komori-n's article.
        let board = "G1LLLLP1G/1R7/P1PSSSP1G/7R1/K1PSPPP1P/3N1N3/K1P1P1P1P/3P1P2N/G1PBPBP1N";
        let p = spec::parse_board(board, Area::FULL).unwrap();
        assert_eq!(p.pieces.len(), 40);
        assert!(p.is_valid());
        assert_eq!(p.sfen_board(), board);
        assert_eq!(p.mirrored().mirrored().sfen_board(), board);
        // One pawn more, on 8c: the rook on 8b attacks it.
        let bad = spec::parse_board(
            "G1LLLLP1G/1R7/PPPSSSP1G/7R1/K1PSPPP1P/3N1N3/K1P1P1P1P/3P1P2N/G1PBPBP1N",
            Area::FULL,
        )
        .unwrap();
        assert!(!bad.is_valid());
    }

    #[test]
    fn picture_draws_white_pieces_and_stones() {
        let p = spec::parse_board("9/9/9/9/9/9/9/9/6p1X", Area::FULL).unwrap();
        let pic = p.picture();
        assert!(pic.contains("v歩 ・ 石|九"), "{pic}");
        // File numbers, two rules, nine ranks.
        assert_eq!(pic.lines().count(), 12);
    }
}
