//! KIF and KI2: the Japanese records of Kifu for Windows, ShogiGUI, ShogiHome, Shogidokoro and
//! the Japan Shogi Association's daily problems.
//!
//! Read: header lines `key：value` (`手合割` picks a handicap's initial position; the rest are
//! ignored), a BOD board diagram (`後手の持駒：` / `上手の持駒：`, nine `|` rows of `v`-marked
//! White pieces and ` ・` empty squares, `先手の持駒：` / `下手の持駒：`, `後手番` / `先手番`),
//! comments (`*`, `#`, `&` lines), numbered KIF moves (`   1 ７六歩(77)   ( 0:00/00:00:00)`,
//! `同　歩(23)`, `２二角成(88)`, `５五角打`) and KI2 moves (`▲７六歩 △同　銀右上`, with the
//! relative words 右 左 上 引 寄 直). Moves end at a result (`投了`, `詰み`, ...) or a variation
//! (`変化：`); the position is the one after the last move. A line that is none of these is an
//! error naming it.
//!
//! Written ([`write()`]): a BOD diagram of the problem and its solution as numbered KIF moves
//! with origins, ending `詰み`, as ShogiGUI and ShogiHome open it; [`write_tree`] adds comments
//! and variations (`変化：N手`). [`encode`] makes the file's bytes: Shift_JIS for `.kif` (the
//! format's own encoding), UTF-8 for `.kifu`.

use super::board::{
    file_of, hand_list, kanji_count, kind_of_char, kind_prefix, rank_of, resolve_move, MoveSpec,
    Setup,
};
use super::{play, shorten, Format, Record, RecordError};
use crate::shogi::{Color, Move, PieceKind, Position, Square};

mod write;
pub use write::{bod, encode, move_text, write, write_tree, Variation};

/// Whether `line` (trimmed) is recognisably KIF or KI2.
pub fn looks_like(line: &str) -> bool {
    line.contains('：')
        || line.starts_with('|')
        || line.starts_with("手数")
        || line.starts_with(['▲', '△', '☗', '☖'])
        || line.ends_with("手番")
        || numbered_move(line).is_some()
}

/// The initial position of a handicap named in `手合割` (上手, White, moves first).
fn handicap(name: &str) -> Option<String> {
    const REST: &str = "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    let top = match name {
        "平手" => return Some(crate::shogi::STARTPOS.to_string()),
        "香落ち" => "lnsgkgsn1/1r5b1",
        "右香落ち" => "1nsgkgsnl/1r5b1",
        "角落ち" => "lnsgkgsnl/1r7",
        "飛車落ち" => "lnsgkgsnl/7b1",
        "飛香落ち" => "lnsgkgsn1/7b1",
        "二枚落ち" => "lnsgkgsnl/9",
        "三枚落ち" => "lnsgkgsn1/9",
        "四枚落ち" => "1nsgkgsn1/9",
        "五枚落ち" => "2sgkgsn1/9",
        "左五枚落ち" => "1nsgkgs2/9",
        "六枚落ち" => "2sgkgs2/9",
        "八枚落ち" => "3gkg3/9",
        "十枚落ち" => "4k4/9",
        _ => return None,
    };
    Some(format!("{top}{REST}"))
}

/// `(number, rest)` of a numbered KIF move line (`  12 ７六歩(77) ...`).
fn numbered_move(line: &str) -> Option<(u32, &str)> {
    let t = line.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 5 {
        return None;
    }
    let rest = &t[digits..];
    if !rest.starts_with([' ', '\t', '　']) {
        return None;
    }
    Some((t[..digits].parse().ok()?, rest.trim_start()))
}

/// Results that end the moves of a KIF.
const RESULTS: &[&str] = &[
    "投了",
    "詰み",
    "不詰",
    "中断",
    "千日手",
    "持将棋",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "入玉宣言",
    "宣言勝ち",
    "不戦勝",
    "不戦敗",
    "封じ手",
];

/// One written move (KIF or KI2) read into a [`MoveSpec`]; `prev_to` is the last move's
/// destination (for 同). `Ok(None)` for a result word that ends the moves.
fn parse_move(text: &str, prev_to: Option<Square>) -> Result<Option<MoveSpec>, String> {
    if RESULTS.iter().any(|r| text.starts_with(r)) {
        return Ok(None);
    }
    let mut spec = MoveSpec::default();
    let mut s = text;
    if let Some(rest) = s.strip_prefix('同') {
        spec.to = Some(prev_to.ok_or("同 (same square) with no move before it")?);
        s = rest.trim_start_matches(['　', ' ']);
    } else {
        let mut cs = s.chars();
        let (f, r) = (cs.next(), cs.next());
        let (Some(f), Some(r)) = (f.and_then(file_of), r.and_then(rank_of)) else {
            return Err(format!(
                "'{}' is not a move (expected a square such as ７六 or 同)",
                shorten(text, 20)
            ));
        };
        spec.to = Some(Square::new(f, r));
        s = cs.as_str();
    }
    let (kind, n) =
        kind_prefix(s).ok_or_else(|| format!("'{}': no piece name", shorten(text, 20)))?;
    spec.kind = Some(kind);
    s = &s[n..];
    while let Some(c) = s.chars().next() {
        if !"右左上引寄直行入".contains(c) {
            break;
        }
        spec.relative.push(c);
        s = &s[c.len_utf8()..];
    }
    if let Some(rest) = s.strip_prefix("不成").or_else(|| s.strip_prefix('生')) {
        spec.promotion_written = true;
        s = rest;
    } else if let Some(rest) = s.strip_prefix('成') {
        spec.promote = true;
        spec.promotion_written = true;
        s = rest;
    } else if let Some(rest) = s.strip_prefix('打') {
        spec.drop = true;
        s = rest;
    }
    if let Some(rest) = s.strip_prefix('(') {
        let b = rest.as_bytes();
        if b.len() < 3 || b[2] != b')' {
            return Err(format!("'{}': bad origin square", shorten(text, 20)));
        }
        let (f, r) = (b[0].wrapping_sub(b'1'), b[1].wrapping_sub(b'1'));
        if f == 0xff && r == 0xff {
            // (00): a drop, as some writers mark it.
            spec.drop = true;
        } else if f < 9 && r < 9 {
            spec.from = Some(Square::new(f, r));
        } else {
            return Err(format!("'{}': bad origin square", shorten(text, 20)));
        }
        s = &rest[3..];
    }
    if !s.trim().is_empty() {
        return Err(format!(
            "'{}': unexpected '{}' after the move",
            shorten(text, 20),
            shorten(s.trim(), 10)
        ));
    }
    if spec.kind == Some(PieceKind::King) && spec.drop {
        return Err("a king cannot be dropped".into());
    }
    Ok(Some(spec))
}

/// A hand list (`飛　角二　歩十七`, `なし`) into counts per kind.
fn parse_hand(value: &str) -> Result<[u32; 7], String> {
    let mut h = [0u32; 7];
    let v = value.trim_matches(['　', ' ']);
    if v.is_empty() || v == "なし" {
        return Ok(h);
    }
    for item in v.split(['　', ' ', '、']).filter(|s| !s.is_empty()) {
        let mut cs = item.chars();
        let c = cs.next().unwrap_or(' ');
        let k = kind_of_char(c)
            .filter(|k| PieceKind::HAND.contains(k))
            .ok_or_else(|| format!("'{item}' is not a piece that can be held"))?;
        let rest = cs.as_str();
        let n = if rest.is_empty() {
            1
        } else {
            kanji_count(rest)
                .or_else(|| rest.parse().ok())
                .ok_or_else(|| format!("'{item}': '{rest}' is not a count"))?
        };
        h[k.index()] += n;
    }
    Ok(h)
}

/// What hand-made problem files write for "every piece not on the board or in the other hand"
/// (the defender's hand of a mate problem). No reader we know takes it (cshogi, python-shogi,
/// ShogiHome's tsshogi: checked 2026-11), so a file with it is refused, with the list it
/// stands for, rather than read as something other readers would not read.
const REST_OF_PIECES: [&str; 3] = ["残り全部", "残りの駒全部", "残り全て"];

/// The error for a hand of side `c` written `残り全部` under header `key`: the pieces it
/// stands for in this diagram, written as a KIF hand, for the user to put in its place.
fn rest_of_pieces(setup: &Setup, c: Color, key: &str) -> String {
    let mut left = [0i64; 7];
    for k in PieceKind::HAND {
        left[k.index()] = k.max_count() as i64;
    }
    for (_, k) in setup.cells.iter().flatten() {
        let k = k.unpromote();
        if k != PieceKind::King {
            left[k.index()] -= 1;
        }
    }
    for k in PieceKind::HAND {
        left[k.index()] -= setup.hands[c.flip().index()][k.index()] as i64;
    }
    if left.iter().any(|&n| n < 0) {
        return format!(
            "'{key}：残り全部' (every piece not on the board or in the other hand) is not read, \
             and cannot stand for anything here: the diagram has more pieces of a kind than a \
             set holds"
        );
    }
    let list = hand_list(|k| left[k.index()] as u32, "　");
    format!(
        "'{key}：残り全部' (every piece not on the board or in the other hand) is not read, \
         here or by other KIF readers (cshogi, ShogiHome); write the pieces it stands for: \
         '{key}：{list}'"
    )
}

/// The nine cells of a BOD row, file 9 first.
type Row = [Option<(Color, PieceKind)>; 9];

/// A BOD row (`| ・v桂 ・ ...|三`) into nine cells, file 9 first, and the rank written after
/// it (0-based), if any.
fn parse_row(line: &str) -> Result<(Row, Option<u8>), String> {
    let inner = line.strip_prefix('|').unwrap_or(line);
    let mut cells = [None; 9];
    let mut cs = inner.chars().peekable();
    for (i, cell) in cells.iter_mut().enumerate() {
        let side = match cs.next() {
            Some(' ') | Some('^') | Some('+') => Color::Black,
            Some('v') | Some('V') => Color::White,
            Some('・') => {
                // A writer that drops the leading space of an empty cell.
                continue;
            }
            other => {
                return Err(format!(
                    "board row: square {} starts with {:?}, expected ' ' or 'v'",
                    9 - i,
                    other.map(String::from).unwrap_or_else(|| "the end".into())
                ))
            }
        };
        match cs.next() {
            Some('・') => {}
            Some(c) => {
                let k = kind_of_char(c)
                    .ok_or_else(|| format!("board row: '{c}' is not a piece (square {})", 9 - i))?;
                *cell = Some((side, k));
            }
            None => return Err("board row: fewer than 9 squares".into()),
        }
    }
    if cs.next() != Some('|') {
        return Err("board row: more than 9 squares or no closing '|'".into());
    }
    let label: String = cs.collect();
    let label = label.trim_matches([' ', '　']);
    let rank = match label.chars().next() {
        None => None,
        Some(c) => match super::board::KANJI_DIGITS.iter().position(|&d| d == c) {
            Some(r) if label.chars().count() == 1 => Some(r as u8),
            _ => {
                return Err(format!(
                    "board row: '{}' after the closing '|' is not a rank (一..九)",
                    shorten(label, 10)
                ))
            }
        },
    };
    Ok((cells, rank))
}

struct PendingMove<'a> {
    line: usize,
    text: &'a str,
    side: Option<Color>,
}

/// Reads a KIF or KI2 text (see the module docs).
pub fn read(text: &str) -> Result<Record, RecordError> {
    let mut setup = Setup::default();
    let mut rows: Vec<(usize, Row)> = vec![];
    let mut handicap_pos: Option<(usize, String)> = None;
    let mut side: Option<Color> = None;
    let mut any_diagram = false;
    // Which hand lines a diagram had: both are part of it (a lost one would read as an empty
    // hand).
    let mut hand_lines = [false; 2];
    // A hand written `残り全部` (line, side, header key): see `rest_of_pieces`.
    let mut rest_hand: Option<(usize, Color, String)> = None;
    let mut moves: Vec<PendingMove> = vec![];
    // Headers that say nothing of the position, kept (see `Record::headers`).
    let mut headers: Vec<(String, String)> = vec![];
    let mut last_number = 0;
    let mut ended = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches(['\r', ' ', '\t', '　']);
        let line = line.trim_start_matches('\u{feff}');
        let t = line.trim_start();
        if t.is_empty() || t.starts_with(['#', '*', '&']) {
            continue;
        }
        if t.starts_with("変化：") || t.starts_with("変化:") {
            break; // variations follow the main line
        }
        if ended || t.starts_with("まで") {
            continue;
        }
        if t.starts_with('|') {
            let (cells, rank) = parse_row(t).map_err(|e| RecordError::new(n, e))?;
            // A row's rank, when written, is where it stands: a row lost or repeated is named
            // here rather than shifting the rows below it.
            if let Some(r) = rank {
                if r as usize != rows.len() {
                    return Err(RecordError::new(
                        n,
                        format!(
                            "board row {} where row {} was expected: a diagram needs rows 一..九 in order",
                            super::board::KANJI_DIGITS[r as usize],
                            super::board::KANJI_DIGITS.get(rows.len()).map_or("十".to_string(), |c| c.to_string()),
                        ),
                    ));
                }
            }
            rows.push((n, cells));
            continue;
        }
        // The frame, the file numbers over the board (spaced as each writer likes) and the
        // moves' header.
        let file_numbers = t
            .chars()
            .all(|c| c == ' ' || c == '　' || super::board::FILE_DIGITS.contains(&c));
        if t.starts_with("+--") || file_numbers || t.starts_with("手数") {
            any_diagram |= t.starts_with("+--");
            continue;
        }
        match t {
            "後手番" | "上手番" => {
                side = Some(Color::White);
                continue;
            }
            "先手番" | "下手番" => {
                side = Some(Color::Black);
                continue;
            }
            _ => {}
        }
        if let Some((num, rest)) = numbered_move(t) {
            if !moves.is_empty() && num <= last_number {
                break; // a variation written without its 変化 line
            }
            // Moves are numbered one by one: a gap is a move lost.
            if !moves.is_empty() && num != last_number + 1 {
                return Err(RecordError::new(
                    n,
                    format!("move {num} after move {last_number}: a move is missing"),
                ));
            }
            last_number = num;
            let text = rest.split([' ', '\t']).next().unwrap_or("");
            if RESULTS.iter().any(|r| text.starts_with(r)) {
                ended = true;
                continue;
            }
            // A numbered move names its origin (`(77)`) or is a drop (`打`): without either,
            // a line cut short (`２二角` of `２二角成(88)`) would read as another move.
            if !text.ends_with(')') && !text.ends_with('打') {
                return Err(RecordError::new(
                    n,
                    format!(
                        "'{}': a KIF move ends with its origin, as (77), or 打",
                        shorten(text, 20)
                    ),
                ));
            }
            moves.push(PendingMove {
                line: n,
                text,
                side: None,
            });
            continue;
        }
        if t.starts_with(['▲', '△', '☗', '☖']) {
            let mut rest = t;
            while let Some(c) = rest.chars().next() {
                let s = if c == '▲' || c == '☗' {
                    Color::Black
                } else {
                    Color::White
                };
                rest = &rest[c.len_utf8()..];
                let end = rest.find(['▲', '△', '☗', '☖']).unwrap_or(rest.len());
                let mv = rest[..end].trim_matches([' ', '　', '\t']);
                if RESULTS.iter().any(|r| mv.starts_with(r)) {
                    ended = true;
                    break;
                }
                moves.push(PendingMove {
                    line: n,
                    text: mv,
                    side: Some(s),
                });
                rest = &rest[end..];
            }
            continue;
        }
        if let Some((key, value)) = t.split_once('：').or_else(|| t.split_once(':')) {
            let value = value.trim_matches(['　', ' ']);
            let hand = |v: &str| parse_hand(v).map_err(|e| RecordError::new(n, e));
            if key.trim().ends_with("の持駒") && REST_OF_PIECES.contains(&value) {
                let c = if matches!(key.trim(), "後手の持駒" | "上手の持駒") {
                    Color::White
                } else {
                    Color::Black
                };
                rest_hand = Some((n, c, key.trim().to_string()));
            }
            match key.trim() {
                _ if rest_hand.as_ref().is_some_and(|r| r.0 == n) => {
                    hand_lines[rest_hand.as_ref().map_or(0, |r| r.1.index())] = true;
                    any_diagram = true;
                }
                "後手の持駒" | "上手の持駒" => {
                    setup.hands[Color::White.index()] = hand(value)?;
                    hand_lines[Color::White.index()] = true;
                    any_diagram = true;
                }
                "先手の持駒" | "下手の持駒" => {
                    setup.hands[Color::Black.index()] = hand(value)?;
                    hand_lines[Color::Black.index()] = true;
                    any_diagram = true;
                }
                "手合割" => match handicap(value) {
                    Some(s) => handicap_pos = Some((n, s)),
                    None if value == "その他" => {}
                    None => {
                        return Err(RecordError::new(
                            n,
                            format!("unknown handicap '{}'", shorten(value, 20)),
                        ))
                    }
                },
                "手番" => {
                    side = match value {
                        "先手" | "下手" | "▲" => Some(Color::Black),
                        "後手" | "上手" | "△" => Some(Color::White),
                        _ => return Err(RecordError::new(n, format!("unknown 手番 '{value}'"))),
                    }
                }
                // Other headers (title, composer, players, date, event, ...): kept when they
                // say something.
                k => {
                    if !value.is_empty() {
                        headers.push((k.to_string(), value.to_string()));
                    }
                }
            }
            continue;
        }
        return Err(RecordError::new(
            n,
            format!("not understood as KIF: '{}'", shorten(t, 40)),
        ));
    }
    let start = if !rows.is_empty() {
        let first = rows[0].0;
        if rows.len() != 9 {
            return Err(RecordError::new(
                rows.last().map_or(first, |r| r.0),
                format!("the board diagram has {} rows, expected 9", rows.len()),
            ));
        }
        for (c, name) in [(Color::White, "後手の持駒"), (Color::Black, "先手の持駒")] {
            if !hand_lines[c.index()] {
                return Err(RecordError::new(
                    first,
                    format!("the board diagram has no {name} line (なし when empty)"),
                ));
            }
        }
        for (r, (_, cells)) in rows.iter().enumerate() {
            for (i, c) in cells.iter().enumerate() {
                setup.cells[Square::new(8 - i as u8, r as u8).index()] = *c;
            }
        }
        if let Some((n, c, key)) = &rest_hand {
            return Err(RecordError::new(*n, rest_of_pieces(&setup, *c, key)));
        }
        setup.side = side.unwrap_or(Color::Black);
        setup
            .position()
            .map_err(|e| RecordError::new(first, format!("board diagram: {e}")))?
    } else if any_diagram {
        return Err(RecordError::new(
            0,
            "hands or a frame but no board rows ('|' lines)",
        ));
    } else if let Some((n, sfen)) = handicap_pos {
        Position::from_sfen(&sfen).map_err(|e| RecordError::new(n, e.to_string()))?
    } else if !moves.is_empty() {
        Position::startpos()
    } else {
        return Err(RecordError::new(
            0,
            "no board diagram, handicap or moves: not a position",
        ));
    };
    let mut pos = start.clone();
    let mut played = Vec::with_capacity(moves.len());
    let mut prev_to = None;
    for pm in &moves {
        if let Some(s) = pm.side {
            if s != pos.side_to_move() {
                return Err(RecordError::new(
                    pm.line,
                    format!("'{}' is marked for the side not to move", pm.text),
                ));
            }
        }
        let spec = parse_move(pm.text, prev_to).map_err(|e| RecordError::new(pm.line, e))?;
        let Some(spec) = spec else { break };
        let m = resolve_move(&pos, &spec)
            .map_err(|e| RecordError::new(pm.line, format!("'{}': {e}", shorten(pm.text, 20))))?;
        // KI2 writes 成 or 不成 wherever the piece may promote: a move without either there is
        // one cut short (`▲２二角` of `▲２二角成`), not a non-promotion.
        if pm.side.is_some()
            && !spec.promotion_written
            && !m.is_drop()
            && pos
                .legal_move_list()
                .iter()
                .any(|&o| o == Move::normal(m.from(), m.to(), true))
        {
            return Err(RecordError::new(
                pm.line,
                format!(
                    "'{}': the piece may promote here, so 成 or 不成 is written",
                    shorten(pm.text, 20)
                ),
            ));
        }
        play(&mut pos, m, pm.line, pm.text)?;
        prev_to = Some(m.to());
        played.push(m);
    }
    Ok(Record {
        format: Format::Kif,
        start,
        moves: played,
        headers,
    })
}

#[cfg(test)]
mod tests;
