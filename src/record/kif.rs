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
    board_char, file_of, kanji_count, kanji_number, kind_of_char, kind_prefix, rank_of,
    resolve_move, square_ja, MoveSpec, Setup,
};
use super::{play, shorten, Format, Record, RecordError};
use crate::shogi::{Color, Move, PieceKind, Position, Square};

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
    let mut moves: Vec<PendingMove> = vec![];
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
            match key.trim() {
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
                _ => {} // other headers: players, date, event, ...
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
    })
}

/// A hand as a KIF list (`飛　角二`, `なし`), rook first.
fn hand_text(pos: &Position, c: Color) -> String {
    let h = pos.hand(c);
    let items: Vec<String> = PieceKind::HAND_WRITING_ORDER
        .iter()
        .filter(|&&k| h.count(k) > 0)
        .map(|&k| format!("{}{}", board_char(k), kanji_number(h.count(k))))
        .collect();
    if items.is_empty() {
        "なし".into()
    } else {
        items.join("　")
    }
}

/// The BOD diagram of `pos` (hands, frame, nine rows, the side to move when White).
pub fn bod(pos: &Position) -> String {
    let mut s = String::new();
    s.push_str(&format!("後手の持駒：{}\n", hand_text(pos, Color::White)));
    s.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
    s.push_str("+---------------------------+\n");
    for r in 0..9u8 {
        s.push('|');
        for f in (0..9u8).rev() {
            let p = pos.piece_on(Square::new(f, r));
            if p.is_empty() {
                s.push_str(" ・");
            } else {
                s.push(if p.color() == Color::White { 'v' } else { ' ' });
                s.push(board_char(p.kind()));
            }
        }
        s.push('|');
        s.push(super::board::KANJI_DIGITS[r as usize]);
        s.push('\n');
    }
    s.push_str("+---------------------------+\n");
    s.push_str(&format!("先手の持駒：{}\n", hand_text(pos, Color::Black)));
    if pos.side_to_move() == Color::White {
        s.push_str("後手番\n");
    }
    s
}

/// One move as KIF move text (`２二金打`, `同　玉(13)`, `同　成銀(43)`, `２三銀(34)`): `同`
/// always followed by a full-width space, and no `不成` (the origin makes a move without `成`
/// a non-promotion), as Kifu for Windows and cshogi write it; cshogi's reader rejects `不成`.
pub fn move_text(pos: &Position, m: Move, prev_to: Option<Square>) -> String {
    let to = m.to();
    let dest = if prev_to == Some(to) {
        "同　".to_string()
    } else {
        square_ja(to)
    };
    if m.is_drop() {
        return format!("{dest}{}打", m.drop_kind().japanese());
    }
    let from = m.from();
    let name = pos.piece_on(from).kind().japanese();
    let suffix = if m.is_promotion() { "成" } else { "" };
    format!(
        "{dest}{name}{suffix}({}{})",
        from.file() + 1,
        from.rank() + 1
    )
}

/// A KIF file of the problem `pos` and its answer: `comments` as `*` lines before the moves,
/// then the moves of `line` numbered from 1, then `end` (`詰み`, or none) and `まで` line.
pub fn write(pos: &Position, line: &[Move], end: Option<&str>, comments: &[String]) -> String {
    write_tree(pos, line, end, comments, &[], &[])
}

/// A line branching off a KIF's main line (a 変化): it replaces the main line from `ply`.
#[derive(Clone, Debug, Default)]
pub struct Variation {
    /// The main line's ply (1-based) whose move it replaces.
    pub ply: usize,
    /// Its moves, from the position before that ply.
    pub moves: Vec<Move>,
    /// Comments after its first move (`*` lines).
    pub comments: Vec<String>,
}

/// One numbered move line, with Kifu for Windows' `+` when another branch follows it.
fn move_line(n: usize, text: &str, branches: bool) -> String {
    format!(
        "{n:>4} {text}   ( 0:00/00:00:00){}\n",
        if branches { "+" } else { "" }
    )
}

fn comment_lines(s: &mut String, comments: &[String]) {
    for c in comments {
        for l in c.lines() {
            s.push('*');
            s.push_str(l);
            s.push('\n');
        }
    }
}

/// [`write`] with comments after main-line moves (`notes`: the ply, 1-based, and the text)
/// and variations, each written as Kifu for Windows writes them: a `変化：N手` block after the
/// main line, the deepest branch first, and `+` at the end of a move line that another branch
/// follows. A variation whose first moves are the main line's starts where it leaves it (one
/// that never leaves it becomes a note); one with a move not legal where it stands is cut
/// there. A variation ending in checkmate ends `詰み`.
pub fn write_tree(
    pos: &Position,
    line: &[Move],
    end: Option<&str>,
    comments: &[String],
    notes: &[(usize, String)],
    variations: &[Variation],
) -> String {
    let mut notes = notes.to_vec();
    // The positions before each main-line ply, and each variation made to leave the main line
    // at its first move.
    let mut before = vec![pos.clone()];
    for &m in line {
        let mut p = before[before.len() - 1].clone();
        p.do_move(m);
        before.push(p);
    }
    let mut vars: Vec<Variation> = vec![];
    for v in variations {
        if v.ply == 0 || v.ply > line.len() + 1 {
            continue;
        }
        let mut v = v.clone();
        while !v.moves.is_empty() && line.get(v.ply - 1) == Some(&v.moves[0]) {
            v.moves.remove(0);
            v.ply += 1;
        }
        if v.moves.is_empty() {
            for c in &v.comments {
                notes.push((v.ply - 1, c.clone()));
            }
            continue;
        }
        vars.push(v);
    }
    // Deepest first: each block then branches off the main line, whichever way a reader walks
    // back to its ply.
    vars.sort_by_key(|v| std::cmp::Reverse(v.ply));
    let mut s = String::from("# ---- tsumugi ----\n");
    s.push_str(&bod(pos));
    s.push_str("手数----指手---------消費時間--\n");
    comment_lines(&mut s, comments);
    let notes_at = |ply: usize| -> Vec<String> {
        notes
            .iter()
            .filter(|(p, _)| *p == ply)
            .map(|(_, t)| t.clone())
            .collect()
    };
    if line.is_empty() {
        comment_lines(&mut s, &notes_at(0));
    }
    let mut prev_to = None;
    for (i, &m) in line.iter().enumerate() {
        let branches = vars.iter().any(|v| v.ply == i + 1);
        s.push_str(&move_line(
            i + 1,
            &move_text(&before[i], m, prev_to),
            branches,
        ));
        comment_lines(&mut s, &notes_at(i + 1));
        prev_to = Some(m.to());
    }
    if let Some(e) = end {
        s.push_str(&move_line(line.len() + 1, e, false));
        if e == "詰み" {
            s.push_str(&format!("まで{}手で詰み\n", line.len()));
        }
    }
    for (k, v) in vars.iter().enumerate() {
        let more_here = vars[k + 1..].iter().any(|w| w.ply == v.ply);
        s.push_str(&format!("\n変化：{}手\n", v.ply));
        let mut p = before[v.ply - 1].clone();
        let mut prev_to = (v.ply >= 2).then(|| line[v.ply - 2].to());
        let mut n = v.ply;
        for (j, &m) in v.moves.iter().enumerate() {
            if !p.legal_move_list().iter().any(|&o| o == m) {
                log::warn!("variation at ply {}: {m} is not legal there; cut", v.ply);
                break;
            }
            s.push_str(&move_line(
                n,
                &move_text(&p, m, prev_to),
                j == 0 && more_here,
            ));
            if j == 0 {
                comment_lines(&mut s, &v.comments);
            }
            prev_to = Some(m.to());
            p.do_move(m);
            n += 1;
        }
        if p.is_checkmated() {
            s.push_str(&move_line(n, "詰み", false));
        }
    }
    s
}

/// The bytes of a KIF text for a file: Shift_JIS (CP932) for a `.kif`, as the format defines
/// it (Kifu for Windows), or UTF-8 for a `.kifu` (`utf8`). Every character this crate writes
/// is in CP932; one that is not (from a comment) becomes a numeric reference (`&#...;`).
pub fn encode(text: &str, utf8: bool) -> Vec<u8> {
    if utf8 {
        return text.as_bytes().to_vec();
    }
    encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A daily-problem style KIF (a made-up problem: ▲２二金打 is mate).
    const DAILY: &str = "\
# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----
表題：詰将棋
作者：tsumugi
後手の持駒：飛　角二　金三　銀四　桂四　香四　歩十七
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・v玉 ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ 歩 ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ 飛|九
+---------------------------+
先手の持駒：金
先手：
後手：
手数----指手---------消費時間--
*1手詰です。
";

    #[test]
    fn bod_diagram() {
        let r = read(DAILY).unwrap();
        assert_eq!(
            r.position().to_sfen(),
            "7k1/9/7P1/9/9/9/9/9/8R b Gr2b3g4s4n4l17p 1"
        );
    }

    #[test]
    fn moves_from_startpos_and_handicap() {
        let t = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打\n   6 投了\n";
        let r = read(t).unwrap();
        assert_eq!(r.moves.len(), 5);
        assert_eq!(
            r.position().to_sfen(),
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
        );
        let r = read("手合割：角落ち\n1 ３四歩(33)\n").unwrap();
        assert_eq!(r.start.side_to_move(), Color::White);
        assert_eq!(r.moves.len(), 1);
    }

    #[test]
    fn ki2_relative_words() {
        let t = "▲７六歩 △３四歩 ▲２二角成 △同　銀\n▲４五角\nまで5手で先手の勝ち\n";
        let r = read(t).unwrap();
        assert_eq!(r.moves.len(), 5);
        // Two golds can go to 5h (from 6i and 4i): 左 is 6i's from Black's side.
        let r = read("▲５八金左").unwrap();
        assert_eq!(r.moves[0].to_string(), "6i5h");
        let r = read("▲５八金右").unwrap();
        assert_eq!(r.moves[0].to_string(), "4i5h");
        let e = read("▲５八金").unwrap_err();
        assert!(e.reason.contains("ambiguous"), "{e}");
    }

    #[test]
    fn kif_board_with_a_missing_or_misplaced_row_is_rejected() {
        let drop_row = |label: &str| -> String {
            DAILY
                .lines()
                .filter(|l| !l.ends_with(label))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        let e = read(&drop_row("|三")).unwrap_err();
        assert!(e.reason.contains("row 四 where row 三"), "{e}");
        // A row written twice, and rows swapped, are named by their rank.
        let twice = DAILY.replace(
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n",
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n",
        );
        assert!(read(&twice).is_err());
        // Without rank labels the count of rows still tells.
        let unlabelled: String = drop_row("|三")
            .lines()
            .map(|l| {
                format!(
                    "{}\n",
                    l.trim_end_matches(|c| "一二三四五六七八九".contains(c))
                )
            })
            .collect();
        assert!(read(&unlabelled).unwrap_err().reason.contains("8 rows"));
    }

    #[test]
    fn kif_diagram_without_a_hand_line_is_rejected() {
        for line in [
            "先手の持駒：金\n",
            "後手の持駒：飛　角二　金三　銀四　桂四　香四　歩十七\n",
        ] {
            let e = read(&DAILY.replace(line, "")).unwrap_err();
            assert!(e.reason.contains("の持駒"), "{e}");
        }
    }

    #[test]
    fn kif_moves_with_a_gap_or_cut_short_are_rejected() {
        let t =
            "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n";
        assert_eq!(read(t).unwrap().moves.len(), 4);
        let e = read(&t.replace("   2 ３四歩(33)\n", "")).unwrap_err();
        assert!(e.reason.contains("missing"), "{e}");
        // `２二角` of `２二角成(88)`: another move (no promotion) if read.
        let e = read(&t.replace("２二角成(88)", "２二角")).unwrap_err();
        assert!(e.reason.contains("origin"), "{e}");
        // KI2: 成 or 不成 is written where the piece may promote.
        let ki2 = "▲７六歩 △３四歩 ▲２二角成 △同　銀\n";
        assert_eq!(read(ki2).unwrap().moves.len(), 4);
        let e = read(&ki2.replace("角成", "角")).unwrap_err();
        assert!(e.reason.contains("不成"), "{e}");
        assert!(read("▲７六歩 △３四歩 ▲２二角不成").is_ok());
    }

    #[test]
    fn file_numbers_spaced_any_way() {
        let t = DAILY.replace(
            "  ９ ８ ７ ６ ５ ４ ３ ２ １",
            " ９  ８  ７  ６  ５  ４  ３  ２  １",
        );
        assert_eq!(
            read(&t).unwrap().position().to_sfen(),
            read(DAILY).unwrap().position().to_sfen()
        );
    }

    #[test]
    fn faults_name_the_line() {
        let e = read("手合割：平手\n1 ７六歩(77)\n2 ７五歩(77)\n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = read("後手の持駒：なし\n| ・ ・|一\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let bad = DAILY.replace("先手の持駒：金", "先手の持駒：玉");
        let e = read(&bad).unwrap_err();
        assert!(e.reason.contains("held"), "{e}");
        let e = read("手合割：平手\nこんにちは\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let e = read("▲７六歩\n△７五歩\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
    }

    #[test]
    fn kif_is_written_in_shift_jis_and_kifu_in_utf8() {
        let text = write(&Position::startpos(), &[], None, &["詰将棋".into()]);
        let sjis = encode(&text, false);
        assert!(std::str::from_utf8(&sjis).is_err(), "a .kif is not UTF-8");
        let (back, _, bad) = encoding_rs::SHIFT_JIS.decode(&sjis);
        assert!(!bad);
        assert_eq!(back, text);
        assert_eq!(encode(&text, true), text.as_bytes());
        assert!(!encode(&text, true).starts_with(b"\xef\xbb\xbf"));
        assert_eq!(
            super::super::read_bytes(&sjis).unwrap().start.to_sfen(),
            Position::startpos().to_sfen()
        );
    }

    #[test]
    fn variations_are_written_as_kifu_for_windows_writes_them() {
        let p = Position::startpos();
        let mv = |s: &str| Move::from_usi(s).unwrap();
        let line: Vec<Move> = ["7g7f", "3c3d", "8h2b+"].iter().map(|m| mv(m)).collect();
        let vars = [
            Variation {
                ply: 2,
                moves: vec![mv("8c8d"), mv("2g2f")],
                comments: vec!["a".into()],
            },
            Variation {
                ply: 3,
                moves: vec![mv("2g2f")],
                comments: vec!["b".into()],
            },
            Variation {
                ply: 2,
                moves: vec![mv("3c3d"), mv("6g6f")],
                comments: vec!["c".into()],
            },
        ];
        // c begins with the main line's ３四歩 and so branches at ply 3, after b (given order
        // within a ply; the deepest ply first).
        let text = write_tree(&p, &line, None, &[], &[(1, "n".into())], &vars);
        let tail = &text[text.find("手数").unwrap()..];
        assert_eq!(
            tail,
            "手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:00/00:00:00)
*n
   2 ３四歩(33)   ( 0:00/00:00:00)+
   3 ２二角成(88)   ( 0:00/00:00:00)+

変化：3手
   3 ２六歩(27)   ( 0:00/00:00:00)+
*b

変化：3手
   3 ６六歩(67)   ( 0:00/00:00:00)
*c

変化：2手
   2 ８四歩(83)   ( 0:00/00:00:00)
*a
   3 ２六歩(27)   ( 0:00/00:00:00)
"
        );
        // Our reader takes the main line and stops at the first 変化.
        assert_eq!(read(&text).unwrap().moves, line);
    }

    #[test]
    fn written_kif_reads_back() {
        let p = Position::startpos();
        let line: Vec<Move> = [
            "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "2b3c", "4e3d", "3c3d",
        ]
        .iter()
        .map(|m| Move::from_usi(m).unwrap())
        .collect();
        let text = write(&p, &line, Some("詰み"), &["test".into()]);
        assert!(
            text.contains("同　銀(31)") && text.contains("同　銀(33)"),
            "{text}"
        );
        let r = read(&text).unwrap();
        assert_eq!(r.start.to_sfen(), p.to_sfen());
        assert_eq!(r.moves, line);
    }
}
