//! The piece-set notation and the board size.
//!
//! A piece set is a run of letters each with an optional count, in komori-n's article's
//! program's notation: `P18L4N4S4G4K2R2B2` is the 40 pieces of a game, `S45` 45 silvers, `+R9`
//! nine dragons. Letters are SFEN's (`P L N S G K R B`), `+` before one promotes it, `X` is a
//! stone; upper case faces as Black's pieces do, lower case as White's. A letter may appear
//! more than once (the counts add up); spaces are ignored.

use super::{Placed, Placement, Unit};
use crate::shogi::{Bitboard, Color, PieceKind, Square};
use std::fmt;

/// The 40 pieces of a game.
pub const STANDARD: &str = "P18L4N4S4G4K2R2B2";

/// A bad piece set, board size or board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// The board area pieces may stand in: the top-right corner of the 9 x 9 board, files 1 to
/// `files` and ranks a to the `ranks`-th. Nothing stands outside it, so a piece's attacks
/// leaving it reach nothing, and the area plays exactly as a board of that size.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Area {
    /// Number of files, 1 to 9.
    pub files: u8,
    /// Number of ranks, 1 to 9.
    pub ranks: u8,
}

impl Area {
    /// The whole board.
    pub const FULL: Area = Area { files: 9, ranks: 9 };

    /// Parses `<files>x<ranks>`, each 1 to 9 (`9x9`, `4x3`).
    pub fn parse(s: &str) -> Result<Area, SpecError> {
        let bad = || SpecError(format!("'{s}' is not <files>x<ranks> with each 1 to 9"));
        let (f, r) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let f: u8 = f.trim().parse().map_err(|_| bad())?;
        let r: u8 = r.trim().parse().map_err(|_| bad())?;
        if !(1..=9).contains(&f) || !(1..=9).contains(&r) {
            return Err(bad());
        }
        Ok(Area { files: f, ranks: r })
    }

    /// The area's squares.
    pub fn mask(self) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for f in 0..self.files {
            for r in 0..self.ranks {
                b.set(Square::new(f, r));
            }
        }
        b
    }

    /// Number of squares.
    pub fn size(self) -> usize {
        self.files as usize * self.ranks as usize
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

/// A multiset of pieces: (unit, facing, how many), one entry per distinct (unit, facing), in
/// the order first written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PieceSet {
    /// The entries; counts are at least 1.
    pub entries: Vec<(Unit, Color, u32)>,
}

impl PieceSet {
    /// Parses the notation (see the module docs).
    pub fn parse(s: &str) -> Result<PieceSet, SpecError> {
        let mut entries: Vec<(Unit, Color, u32)> = Vec::new();
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.is_empty() {
            return Err(SpecError("the piece set is empty".into()));
        }
        let mut i = 0;
        while i < chars.len() {
            let promoted = chars[i] == '+';
            if promoted {
                i += 1;
            }
            let Some(&c) = chars.get(i) else {
                return Err(SpecError(format!(
                    "'{s}': '+' must be followed by a piece letter"
                )));
            };
            i += 1;
            let unit = match (c.to_ascii_uppercase(), PieceKind::from_sfen_char(c)) {
                ('X', _) if promoted => {
                    return Err(SpecError(format!("'{s}': a stone cannot be promoted")));
                }
                ('X', _) => Unit::Stone,
                (_, Some(k)) if promoted && !k.can_promote() => {
                    return Err(SpecError(format!("'{s}': '{c}' cannot be promoted")));
                }
                (_, Some(k)) if promoted => Unit::Piece(k.promote()),
                (_, Some(k)) => Unit::Piece(k),
                (_, None) => {
                    return Err(SpecError(format!(
                        "'{s}': '{c}' is not a piece letter (P L N S G K R B, X for a stone, \
                         + before one to promote it)"
                    )))
                }
            };
            let color = if c.is_ascii_lowercase() {
                Color::White
            } else {
                Color::Black
            };
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let count: u32 = if start == i {
                1
            } else {
                let digits: String = chars[start..i].iter().collect();
                match digits.parse() {
                    Ok(n) if n <= 81 => n,
                    _ => {
                        return Err(SpecError(format!(
                            "'{s}': count {digits} is more than the board's 81 squares"
                        )))
                    }
                }
            };
            if count == 0 {
                continue;
            }
            match entries.iter_mut().find(|e| e.0 == unit && e.1 == color) {
                Some(e) => e.2 += count,
                None => entries.push((unit, color, count)),
            }
        }
        let total: u32 = entries.iter().map(|e| e.2).sum();
        if total == 0 {
            return Err(SpecError(format!("'{s}' holds no piece")));
        }
        if total > 81 {
            return Err(SpecError(format!(
                "'{s}' holds {total} pieces, more than the board's 81 squares"
            )));
        }
        Ok(PieceSet { entries })
    }

    /// Total number of pieces.
    pub fn len(&self) -> usize {
        self.entries.iter().map(|e| e.2 as usize).sum()
    }

    /// Whether the set holds no piece (never, for a parsed one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether some piece is written facing as White's.
    pub fn has_white(&self) -> bool {
        self.entries.iter().any(|e| e.1 == Color::White)
    }
}

impl fmt::Display for PieceSet {
    /// The set in the notation, entries in order, each with its count.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &(u, c, n) in &self.entries {
            let l = u.letters();
            let l = if c == Color::White {
                l.to_ascii_lowercase()
            } else {
                l
            };
            write!(f, "{l}{n}")?;
        }
        Ok(())
    }
}

/// Reads the board part of a SFEN (stones as `X`/`x`) into a placement in `area`: for tests
/// and for checking a placement given by hand. Every piece must stand inside the area.
pub fn parse_board(board: &str, area: Area) -> Result<Placement, SpecError> {
    let bad = |why: &str| SpecError(format!("bad board '{board}': {why}"));
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 9 {
        return Err(bad("it needs 9 ranks"));
    }
    let mut pieces = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let mut f: i32 = 8;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                f -= d as i32;
                continue;
            }
            let promoted = c == '+';
            let c = if promoted {
                chars
                    .next()
                    .ok_or_else(|| bad("'+' at the end of a rank"))?
            } else {
                c
            };
            let unit = if c.eq_ignore_ascii_case(&'x') && !promoted {
                Unit::Stone
            } else {
                match PieceKind::from_sfen_char(c) {
                    Some(k) if promoted && k.can_promote() => Unit::Piece(k.promote()),
                    Some(k) if !promoted => Unit::Piece(k),
                    _ => return Err(bad(&format!("'{c}' is not a piece"))),
                }
            };
            if f < 0 {
                return Err(bad("a rank is longer than 9 files"));
            }
            let sq = Square::new(f as u8, r as u8);
            if !area.mask().has(sq) {
                return Err(bad(&format!("a piece on {sq} is outside the {area} area")));
            }
            let color = if c.is_ascii_lowercase() {
                Color::White
            } else {
                Color::Black
            };
            pieces.push(Placed { sq, unit, color });
            f -= 1;
        }
        if f != -1 {
            return Err(bad("a rank is not 9 files long"));
        }
    }
    Ok(Placement { pieces, area })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_notation() {
        let s = PieceSet::parse(STANDARD).unwrap();
        assert_eq!(s.len(), 40);
        assert_eq!(s.to_string(), STANDARD);
        let s = PieceSet::parse("+R9 P2p P").unwrap();
        assert_eq!(
            s.entries,
            vec![
                (Unit::Piece(PieceKind::Dragon), Color::Black, 9),
                (Unit::Piece(PieceKind::Pawn), Color::Black, 3),
                (Unit::Piece(PieceKind::Pawn), Color::White, 1),
            ]
        );
        assert!(s.has_white());
        assert_eq!(PieceSet::parse("X3").unwrap().len(), 3);
    }

    #[test]
    fn rejects_bad_sets() {
        for bad in [
            "",
            "Q",
            "+G",
            "+K",
            "+X",
            "P+",
            "P82",
            "P50S40",
            "P0",
            "P99999999999",
        ] {
            assert!(PieceSet::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn areas() {
        assert_eq!(Area::parse("4x3").unwrap(), Area { files: 4, ranks: 3 });
        assert_eq!(Area::parse("9x9").unwrap().mask().count(), 81);
        assert_eq!(Area::parse("2x3").unwrap().mask().count(), 6);
        for bad in ["0x3", "10x1", "3", "x", "3x"] {
            assert!(Area::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn boards_outside_the_area_are_refused() {
        assert!(parse_board("8P/9/9/9/9/9/9/9/9", Area { files: 1, ranks: 1 }).is_ok());
        assert!(parse_board("7P1/9/9/9/9/9/9/9/9", Area { files: 1, ranks: 1 }).is_err());
        assert!(parse_board("9/9/9", Area::FULL).is_err());
        assert!(parse_board("10/9/9/9/9/9/9/9/9", Area::FULL).is_err());
    }
}
