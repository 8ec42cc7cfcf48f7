//! A position being set up from a diagram (a KIF/BOD board, CSA `P1`..`P9` rows): squares,
//! hands and the side to move, turned into a validated [`Position`] through SFEN so that every
//! format gets the same checks as `position sfen` (see `shogi::sfen`).
//!
//! Also the Japanese names the KIF formats share: full-width file digits, kanji rank and count
//! numerals, and piece names.

use crate::shogi::{Color, Move, PieceKind, Position, Square};

/// A board diagram being filled in.
#[derive(Clone, Debug)]
pub struct Setup {
    /// `cells[square index]`: the piece there, if any.
    pub cells: [Option<(Color, PieceKind)>; 81],
    /// Pieces in hand per colour, indexed by `PieceKind::HAND` order (the kind's index).
    pub hands: [[u32; 7]; 2],
    /// The side to move.
    pub side: Color,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            cells: [None; 81],
            hands: [[0; 7]; 2],
            side: Color::Black,
        }
    }
}

impl Setup {
    /// The setup of `pos` (board, hands, side to move).
    pub fn of(pos: &Position) -> Setup {
        let mut s = Setup {
            side: pos.side_to_move(),
            ..Setup::default()
        };
        for sq in Square::all() {
            let p = pos.piece_on(sq);
            if !p.is_empty() {
                s.cells[sq.index()] = Some((p.color(), p.kind()));
            }
        }
        for c in Color::ALL {
            for k in PieceKind::HAND {
                s.hands[c.index()][k.index()] = pos.hand(c).count(k);
            }
        }
        s
    }

    /// The SFEN of this setup (move number 1). Not validated: [`Setup::position`] does that.
    pub fn sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        for r in 0..9u8 {
            let mut empty = 0;
            for f in (0..9u8).rev() {
                match self.cells[Square::new(f, r).index()] {
                    None => empty += 1,
                    Some((c, k)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if k.is_promoted() {
                            s.push('+');
                        }
                        let ch = k.sfen_char();
                        s.push(if c == Color::White {
                            ch.to_ascii_lowercase()
                        } else {
                            ch
                        });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r < 8 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::Black {
            " b "
        } else {
            " w "
        });
        let mut hand = String::new();
        for c in Color::ALL {
            for k in PieceKind::HAND_WRITING_ORDER {
                let n = self.hands[c.index()][k.index()];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                let ch = k.sfen_char();
                hand.push(if c == Color::White {
                    ch.to_ascii_lowercase()
                } else {
                    ch
                });
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        s.push_str(&hand);
        s.push_str(" 1");
        s
    }

    /// The validated position (the SFEN checks: piece counts, pawns on a file, pieces that can
    /// never move, kings, the side not to move in check).
    pub fn position(&self) -> Result<Position, String> {
        Position::from_sfen(&self.sfen()).map_err(|e| format!("the position is not valid: {e}"))
    }

    /// Every piece not on the board and not in a hand (kings excepted), per kind: what CSA's
    /// `00AL` gives to one side.
    pub fn remaining(&self) -> [u32; 7] {
        let mut left = [0u32; 7];
        for k in PieceKind::HAND {
            left[k.index()] = k.max_count() as u32;
        }
        for (_, k) in self.cells.iter().flatten() {
            let u = k.unpromote();
            if u != PieceKind::King {
                left[u.index()] = left[u.index()].saturating_sub(1);
            }
        }
        for h in &self.hands {
            for k in PieceKind::HAND {
                left[k.index()] = left[k.index()].saturating_sub(h[k.index()]);
            }
        }
        left
    }
}

/// Full-width file digits, file 1 first (KIF destination squares).
pub const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji rank numerals, rank 1 (a) first.
pub const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The 0-based index of a file digit (full-width, or ASCII as some writers use).
pub fn file_of(c: char) -> Option<u8> {
    if let Some(i) = FILE_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u8);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'1'),
        _ => None,
    }
}

/// The 0-based index of a rank numeral (kanji, or a digit as some writers use).
pub fn rank_of(c: char) -> Option<u8> {
    if let Some(i) = KANJI_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u8);
    }
    file_of(c)
}

/// The square written as a full-width file digit and a kanji rank (`２二`).
pub fn square_ja(sq: Square) -> String {
    format!(
        "{}{}",
        FILE_DIGITS[sq.file() as usize],
        KANJI_DIGITS[sq.rank() as usize]
    )
}

/// A kanji count as in a hand list (`二` .. `十八`); `None` for anything else.
pub fn kanji_count(s: &str) -> Option<u32> {
    let mut chars = s.chars().peekable();
    let mut n = 0;
    if chars.peek() == Some(&'十') {
        chars.next();
        n = 10;
    }
    match chars.next() {
        None if n == 10 => Some(10),
        None => None,
        Some(c) => {
            let d = KANJI_DIGITS.iter().position(|&d| d == c)? as u32 + 1;
            if chars.next().is_some() {
                return None;
            }
            if n == 0 && d == 1 {
                return Some(1);
            }
            Some(n + d)
        }
    }
}

/// A hand as KIF writes it, rook first (`飛　角二`), items joined by `sep`, `なし` when empty;
/// `count` gives the pieces of each kind. The one writer of hand lists: KIF diagrams, the
/// check's Japanese report (`、`), the `残り全部` error.
pub fn hand_list(count: impl Fn(PieceKind) -> u32, sep: &str) -> String {
    let items: Vec<String> = PieceKind::HAND_WRITING_ORDER
        .iter()
        .filter(|&&k| count(k) > 0)
        .map(|&k| format!("{}{}", board_char(k), kanji_number(count(k))))
        .collect();
    if items.is_empty() {
        "なし".into()
    } else {
        items.join(sep)
    }
}

/// The kanji for a count of 2 or more (`二` .. `十八`), empty for 1.
pub fn kanji_number(n: u32) -> String {
    let mut s = String::new();
    if n >= 10 {
        s.push('十');
    }
    let d = n % 10;
    if d > 0 && n > 1 {
        s.push(KANJI_DIGITS[d as usize - 1]);
    }
    s
}

/// The piece a one-character board name stands for (BOD cells, hand lists): 歩 香 桂 銀 金 角
/// 飛 玉/王 と 杏 圭 全 馬 龍/竜.
pub fn kind_of_char(c: char) -> Option<PieceKind> {
    Some(match c {
        '歩' => PieceKind::Pawn,
        '香' => PieceKind::Lance,
        '桂' => PieceKind::Knight,
        '銀' => PieceKind::Silver,
        '金' => PieceKind::Gold,
        '角' => PieceKind::Bishop,
        '飛' => PieceKind::Rook,
        '玉' | '王' => PieceKind::King,
        'と' => PieceKind::ProPawn,
        '杏' => PieceKind::ProLance,
        '圭' => PieceKind::ProKnight,
        '全' => PieceKind::ProSilver,
        '馬' => PieceKind::Horse,
        '龍' | '竜' => PieceKind::Dragon,
        _ => return None,
    })
}

/// The one-character board name of a kind (BOD cells).
pub fn board_char(k: PieceKind) -> char {
    match k {
        PieceKind::Pawn => '歩',
        PieceKind::Lance => '香',
        PieceKind::Knight => '桂',
        PieceKind::Silver => '銀',
        PieceKind::Gold => '金',
        PieceKind::Bishop => '角',
        PieceKind::Rook => '飛',
        PieceKind::King => '玉',
        PieceKind::ProPawn => 'と',
        PieceKind::ProLance => '杏',
        PieceKind::ProKnight => '圭',
        PieceKind::ProSilver => '全',
        PieceKind::Horse => '馬',
        PieceKind::Dragon => '龍',
    }
}

/// The piece name at the start of `s` in move text (成香 成桂 成銀 before the one-character
/// names), with its length in bytes.
pub fn kind_prefix(s: &str) -> Option<(PieceKind, usize)> {
    for (name, k) in [
        ("成香", PieceKind::ProLance),
        ("成桂", PieceKind::ProKnight),
        ("成銀", PieceKind::ProSilver),
    ] {
        if s.starts_with(name) {
            return Some((k, name.len()));
        }
    }
    let c = s.chars().next()?;
    Some((kind_of_char(c)?, c.len_utf8()))
}

/// How a written move names its piece and origin; [`resolve_move`] finds the one legal move
/// that fits.
#[derive(Clone, Debug, Default)]
pub struct MoveSpec {
    /// Destination square.
    pub to: Option<Square>,
    /// The kind of the moving piece before the move (or the dropped kind).
    pub kind: Option<PieceKind>,
    /// `Some(true)` for 成, `Some(false)` for 不成 or no mark; board moves only.
    pub promote: bool,
    /// 成 or 不成 (生) was written.
    pub promotion_written: bool,
    /// Written as a drop (打).
    pub drop: bool,
    /// The origin square when written (`(77)`).
    pub from: Option<Square>,
    /// KI2's relative words: 右 左 上 引 寄 直 (行 as 上).
    pub relative: String,
}

/// The legal move of `pos` that `spec` describes; `Err` says why there is none or several.
pub fn resolve_move(pos: &Position, spec: &MoveSpec) -> Result<Move, String> {
    let Some(to) = spec.to else {
        return Err("no destination square".into());
    };
    let Some(kind) = spec.kind else {
        return Err("no piece named".into());
    };
    let us = pos.side_to_move();
    let legal = pos.legal_move_list();
    let fits = |m: &Move, drops: bool| -> bool {
        if m.to() != to {
            return false;
        }
        if drops {
            return m.is_drop() && m.drop_kind() == kind;
        }
        !m.is_drop()
            && pos.piece_on(m.from()).kind() == kind
            && m.is_promotion() == spec.promote
            && spec.from.is_none_or(|f| f == m.from())
    };
    let mut cands: Vec<Move> = if spec.drop {
        legal.iter().copied().filter(|m| fits(m, true)).collect()
    } else {
        let board: Vec<Move> = legal.iter().copied().filter(|m| fits(m, false)).collect();
        // KI2 writes a drop without 打 when no piece on the board can reach the square.
        if board.is_empty() && spec.from.is_none() && !spec.promote && spec.relative.is_empty() {
            legal.iter().copied().filter(|m| fits(m, true)).collect()
        } else {
            board
        }
    };
    // Relative words, read from the mover's side: 上 up the board, 引 back, 寄 sideways,
    // 直 straight up; 右/左 the piece furthest right/left among those still in question.
    let forward = |m: &Move| -> i32 {
        let (f, t) = (m.from().rank() as i32, m.to().rank() as i32);
        if us == Color::Black {
            f - t
        } else {
            t - f
        }
    };
    for w in spec.relative.chars() {
        cands.retain(|m| match w {
            '上' | '行' | '入' => forward(m) > 0,
            '引' => forward(m) < 0,
            '寄' => forward(m) == 0,
            '直' => forward(m) > 0 && m.from().file() == m.to().file(),
            _ => true,
        });
    }
    for w in spec.relative.chars() {
        if w != '右' && w != '左' || cands.len() < 2 {
            continue;
        }
        // From Black's side the right is file 1; from White's, file 9.
        let key = |m: &Move| -> i32 {
            let f = m.from().file() as i32;
            let rightness = if us == Color::Black { -f } else { f };
            if w == '右' {
                rightness
            } else {
                -rightness
            }
        };
        let best = cands.iter().map(key).max().unwrap_or(0);
        cands.retain(|m| key(m) == best);
    }
    match cands.len() {
        1 => Ok(cands[0]),
        0 => Err(format!(
            "no legal move of a {} {}to {}{}",
            kind_name(kind),
            if spec.drop { "dropped " } else { "" },
            to,
            spec.from.map(|f| format!(" from {f}")).unwrap_or_default()
        )),
        n => Err(format!(
            "ambiguous: {n} legal moves of a {} to {} fit ({})",
            kind_name(kind),
            to,
            cands
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn kind_name(k: PieceKind) -> String {
    k.japanese().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_counts_round_trip() {
        for n in 1..=18 {
            let s = if n == 1 {
                "一".to_string()
            } else {
                kanji_number(n)
            };
            assert_eq!(kanji_count(&s), Some(n), "{s}");
        }
        assert_eq!(kanji_count("十"), Some(10));
        assert_eq!(kanji_count(""), None);
        assert_eq!(kanji_count("二二"), None);
    }

    #[test]
    fn setup_round_trips_sfen() {
        for s in [
            crate::shogi::STARTPOS,
            "l3k2nl/4g1gb1/1+S1pspp+P1/p1p6/3n4p/2PPR1P2/P2bPP2P/5GS2/LN1K4L w R2Pgsn2p 1",
        ] {
            let p = Position::from_sfen(s).unwrap();
            assert_eq!(Setup::of(&p).position().unwrap().to_sfen(), s);
        }
    }
}
