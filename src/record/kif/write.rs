//! Writing KIF: the board diagram (BOD), moves in Kifu for Windows' notation, a line with its
//! variations (変化), and the encodings (Shift_JIS for `.kif`, UTF-8 for `.kifu`).

use crate::record::board::{board_char, hand_list, square_ja};
use crate::shogi::{Color, Move, Position, Square};

/// A hand as a KIF list (`飛　角二`, `なし`), rook first.
fn hand_text(pos: &Position, c: Color) -> String {
    let h = pos.hand(c);
    hand_list(|k| h.count(k), "　")
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
        s.push(crate::record::board::KANJI_DIGITS[r as usize]);
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
