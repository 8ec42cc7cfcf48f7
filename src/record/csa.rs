//! CSA records (the Computer Shogi Association's format, as floodgate and most engines write
//! it).
//!
//! Read: `'` comments, `V` version, `N+`/`N-` names and `$` headers (ignored), `PI` (the
//! initial position, optionally minus pieces: `PI82HI22KA`), `P1`..`P9` rows (` * ` empty,
//! `+FU`/`-FU`), `P+`/`P-` placements (`P+63FU`) and hands (`P+00KI`, `P-00AL` for every piece
//! not placed yet), the side to move (`+`/`-`), moves (`+7776FU`, `-0055KA`; the piece after
//! the move, so `+8822UM` promotes a bishop), times (`T10`) and a result (`%TORYO`, which ends
//! the moves). Several statements may share a line separated by `,`. The position is the one
//! after the last move.
//!
//! Written ([`write()`]): `V2.2`, the rows, both hands, the side to move, the moves and `%TSUMI`.

use super::board::Setup;
use super::{play, shorten, Format, Record, RecordError};
use crate::shogi::{Color, Move, PieceKind, Position, Square};

/// Whether `line` (trimmed) is recognisably CSA.
pub fn looks_like(line: &str) -> bool {
    let b = line.as_bytes();
    line.starts_with("PI")
        || line.starts_with("P+")
        || line.starts_with("P-")
        || (b.len() >= 2 && b[0] == b'P' && (b'1'..=b'9').contains(&b[1]))
        || line == "+"
        || line == "-"
        || line.starts_with("V2")
        || line.starts_with("N+")
        || line.starts_with("N-")
        || (b.len() >= 7
            && (b[0] == b'+' || b[0] == b'-')
            && b[1..5].iter().all(u8::is_ascii_digit))
}

const CODES: [(&str, PieceKind); 14] = [
    ("FU", PieceKind::Pawn),
    ("KY", PieceKind::Lance),
    ("KE", PieceKind::Knight),
    ("GI", PieceKind::Silver),
    ("KI", PieceKind::Gold),
    ("KA", PieceKind::Bishop),
    ("HI", PieceKind::Rook),
    ("OU", PieceKind::King),
    ("TO", PieceKind::ProPawn),
    ("NY", PieceKind::ProLance),
    ("NK", PieceKind::ProKnight),
    ("NG", PieceKind::ProSilver),
    ("UM", PieceKind::Horse),
    ("RY", PieceKind::Dragon),
];

fn kind_of(code: &str) -> Option<PieceKind> {
    CODES.iter().find(|(c, _)| *c == code).map(|&(_, k)| k)
}

/// The CSA code of a kind (`FU`, `UM`, ...).
pub fn code_of(k: PieceKind) -> &'static str {
    CODES.iter().find(|(_, c)| *c == k).map_or("??", |(s, _)| s)
}

/// A square written as two digits, file then rank (`76`); `None` for `00` and anything else.
fn square(s: &[u8]) -> Option<Square> {
    let (f, r) = (s[0].wrapping_sub(b'1'), s[1].wrapping_sub(b'1'));
    (f < 9 && r < 9).then(|| Square::new(f, r))
}

fn color_of(c: u8) -> Color {
    if c == b'+' {
        Color::Black
    } else {
        Color::White
    }
}

/// Reads a CSA text (see the module docs).
pub fn read(text: &str) -> Result<Record, RecordError> {
    let mut setup = Setup::default();
    let mut any_board = false;
    // The P1..P9 rows seen so far (each once, in order) and the line of `PI`: a board is one
    // form or the other, whole, so a row lost from a file cannot leave another position.
    let mut rows_seen = 0u8;
    let mut pi_line: Option<usize> = None;
    let mut side: Option<Color> = None;
    let mut board_line = 0;
    let mut al: Option<(usize, Color)> = None;
    let mut moves: Vec<(usize, String)> = vec![];
    let mut ended = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches(['\r', '\n']);
        let trimmed = line.trim_start_matches('\u{feff}');
        if trimmed.trim().is_empty() || trimmed.starts_with('\'') {
            continue;
        }
        for stmt in trimmed.split(',') {
            let err = |why: String| RecordError::new(n, why);
            let st = stmt.trim_end();
            let b = st.as_bytes();
            if st.is_empty() || ended {
                continue;
            }
            if st.starts_with('V') || st.starts_with('N') || st.starts_with('$') {
                continue;
            }
            if st.starts_with('T') || st.starts_with('%') {
                if st.starts_with('%') {
                    ended = true;
                }
                continue;
            }
            if !(moves.is_empty() || b[0] == b'+' || b[0] == b'-') {
                return Err(err(format!("'{}' after the moves began", shorten(st, 20))));
            }
            if side.is_some() && st.starts_with('P') {
                return Err(err(format!(
                    "'{}' after the side to move: the position comes before it",
                    shorten(st, 20)
                )));
            }
            if let Some(rest) = st.strip_prefix("PI") {
                if let Some(first) = pi_line {
                    return Err(err(format!("a second PI (the first is on line {first})")));
                }
                if rows_seen > 0 {
                    return Err(err(
                        "PI after P1..P9 rows: a board is one or the other".into()
                    ));
                }
                pi_line = Some(n);
                setup = Setup::of(&Position::startpos());
                any_board = true;
                board_line = board_line.max(n);
                let rb = rest.trim().as_bytes();
                if rb.len() % 4 != 0 {
                    return Err(err("PI: removals come as <square><piece>, e.g. 82HI".into()));
                }
                for ch in rb.chunks(4) {
                    let sq = square(&ch[..2])
                        .ok_or_else(|| err("PI: bad square in a removal".into()))?;
                    let code = std::str::from_utf8(&ch[2..]).unwrap_or("");
                    let k =
                        kind_of(code).ok_or_else(|| err(format!("PI: unknown piece '{code}'")))?;
                    match setup.cells[sq.index()] {
                        Some((_, have)) if have == k => setup.cells[sq.index()] = None,
                        _ => {
                            return Err(err(format!(
                                "PI: no {code} on {}{} to remove",
                                ch[0] as char, ch[1] as char
                            )))
                        }
                    }
                }
                continue;
            }
            if b.len() >= 2 && b[0] == b'P' && (b'1'..=b'9').contains(&b[1]) {
                let rank = b[1] - b'1';
                if pi_line.is_some() {
                    return Err(err(format!(
                        "row P{} after PI: a board is one or the other",
                        rank + 1
                    )));
                }
                if rank != rows_seen {
                    return Err(err(if rank < rows_seen {
                        format!(
                            "row P{} again or out of order (P{} came before)",
                            rank + 1,
                            rows_seen
                        )
                    } else {
                        format!(
                            "row P{} where P{} was expected: a board needs P1..P9 in order",
                            rank + 1,
                            rows_seen + 1
                        )
                    }));
                }
                rows_seen += 1;
                any_board = true;
                board_line = board_line.max(n);
                let mut cells = st.as_bytes()[2..].to_vec();
                if cells.len() > 27 {
                    return Err(err(format!("row P{}: longer than 9 squares", rank + 1)));
                }
                let given = cells.len();
                cells.resize(27, b' ');
                for (i, c) in cells.chunks(3).enumerate() {
                    let sq = Square::new(8 - i as u8, rank);
                    if c == b" * " || c == b"   " {
                        setup.cells[sq.index()] = None;
                        continue;
                    }
                    let code = std::str::from_utf8(&c[1..]).unwrap_or("");
                    let k = match (c[0], kind_of(code)) {
                        (b'+' | b'-', Some(k)) => k,
                        _ => {
                            return Err(err(format!(
                                "row P{}, square {}: '{}' is not ' * ' or a piece such as +FU",
                                rank + 1,
                                9 - i,
                                String::from_utf8_lossy(c)
                            )))
                        }
                    };
                    setup.cells[sq.index()] = Some((color_of(c[0]), k));
                }
                // The last square's closing space may be trimmed away (` *`), no more: a row
                // cut short would otherwise read as empty squares.
                if given < 26 {
                    return Err(err(format!(
                        "row P{}: shorter than 9 squares (3 characters each)",
                        rank + 1
                    )));
                }
                continue;
            }
            if st.starts_with("P+") || st.starts_with("P-") {
                let c = color_of(b[1]);
                let rb = &b[2..];
                if rb.len() % 4 != 0 {
                    return Err(err(format!(
                        "'{}': pieces come as <square><piece>, e.g. 00KI or 63FU",
                        shorten(st, 20)
                    )));
                }
                board_line = board_line.max(n);
                for ch in rb.chunks(4) {
                    let code = std::str::from_utf8(&ch[2..]).unwrap_or("");
                    if &ch[..2] == b"00" {
                        if code == "AL" {
                            al = Some((n, c));
                            continue;
                        }
                        let k = kind_of(code)
                            .filter(|k| PieceKind::HAND.contains(k))
                            .ok_or_else(|| err(format!("'{code}' cannot be held in hand")))?;
                        setup.hands[c.index()][k.index()] += 1;
                    } else {
                        let sq = square(&ch[..2]).ok_or_else(|| {
                            err(format!(
                                "bad square '{}'",
                                String::from_utf8_lossy(&ch[..2])
                            ))
                        })?;
                        let k =
                            kind_of(code).ok_or_else(|| err(format!("unknown piece '{code}'")))?;
                        setup.cells[sq.index()] = Some((c, k));
                        any_board = true;
                    }
                }
                continue;
            }
            if st == "+" || st == "-" {
                if side.is_some() {
                    return Err(err("a second side to move ('+' or '-')".into()));
                }
                side = Some(color_of(b[0]));
                continue;
            }
            if (b[0] == b'+' || b[0] == b'-') && b.len() == 7 {
                moves.push((n, st.to_string()));
                continue;
            }
            return Err(err(format!("not understood as CSA: '{}'", shorten(st, 30))));
        }
    }
    if let Some((_, c)) = al {
        let left = setup.remaining();
        for k in PieceKind::HAND {
            setup.hands[c.index()][k.index()] += left[k.index()];
        }
    }
    if !any_board {
        return Err(RecordError::new(
            0,
            "no position: neither PI nor P1..P9 rows nor P+/P- pieces",
        ));
    }
    if rows_seen > 0 && rows_seen < 9 {
        return Err(RecordError::new(
            board_line,
            format!(
                "the board has rows P1..P{rows_seen} only: P1..P9 are needed, each once, in order"
            ),
        ));
    }
    // The position ends with the side to move; without it a file cut short anywhere in its
    // hands or placements would still read as a (different) position.
    let Some(side) = side else {
        return Err(RecordError::new(
            0,
            "no side to move: the position ends with a '+' or '-' line",
        ));
    };
    setup.side = side;
    let start = setup
        .position()
        .map_err(|e| RecordError::new(board_line, e))?;
    let mut pos = start.clone();
    let mut played = vec![];
    for (n, text) in &moves {
        let m = parse_move(&pos, text).map_err(|e| RecordError::new(*n, e))?;
        play(&mut pos, m, *n, text)?;
        played.push(m);
    }
    Ok(Record {
        format: Format::Csa,
        start,
        moves: played,
        headers: vec![],
    })
}

/// A CSA move (`+7776FU`, `-0055KA`, `+8822UM`) in `pos`.
fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let b = text.as_bytes();
    let c = color_of(b[0]);
    if c != pos.side_to_move() {
        return Err(format!("'{text}' is a move of the side not to move"));
    }
    if !text.is_ascii() {
        return Err(format!("'{}' is not a CSA move", shorten(text, 20)));
    }
    let to = square(&b[3..5]).ok_or_else(|| format!("'{text}': bad destination"))?;
    let k = kind_of(&text[5..7]).ok_or_else(|| format!("'{text}': unknown piece"))?;
    if &b[1..3] == b"00" {
        if !PieceKind::HAND.contains(&k) {
            return Err(format!("'{text}': a {} cannot be dropped", &text[5..7]));
        }
        return Ok(Move::drop(k, to));
    }
    let from = square(&b[1..3]).ok_or_else(|| format!("'{text}': bad origin"))?;
    let p = pos.piece_on(from);
    if p.is_empty() || p.color() != c {
        return Err(format!("'{text}': no piece of the side to move on {from}"));
    }
    let promote = if p.kind() == k {
        false
    } else if p.kind().can_promote() && p.kind().promote() == k {
        true
    } else {
        return Err(format!(
            "'{text}': the piece on {from} is {}, not {}",
            code_of(p.kind()),
            &text[5..7]
        ));
    };
    Ok(Move::normal(from, to, promote))
}

/// One move in CSA (`+7776FU`; the piece after the move).
pub fn move_text(pos: &Position, m: Move) -> String {
    let sign = if pos.side_to_move() == Color::Black {
        '+'
    } else {
        '-'
    };
    let to = format!("{}{}", m.to().file() + 1, m.to().rank() + 1);
    if m.is_drop() {
        return format!("{sign}00{to}{}", code_of(m.drop_kind()));
    }
    let mut k = pos.piece_on(m.from()).kind();
    if m.is_promotion() {
        k = k.promote();
    }
    format!(
        "{sign}{}{}{to}{}",
        m.from().file() + 1,
        m.from().rank() + 1,
        code_of(k)
    )
}

/// A CSA file of `pos` and `line`: comments (`'` lines), the rows, hands, side to move, the
/// moves and `end` (`%TSUMI`, or none).
pub fn write(pos: &Position, line: &[Move], end: Option<&str>, comments: &[String]) -> String {
    let mut s = String::from("V2.2\n");
    for c in comments {
        for l in c.lines() {
            s.push('\'');
            s.push_str(l);
            s.push('\n');
        }
    }
    for r in 0..9u8 {
        s.push_str(&format!("P{}", r + 1));
        for f in (0..9u8).rev() {
            let p = pos.piece_on(Square::new(f, r));
            if p.is_empty() {
                s.push_str(" * ");
            } else {
                s.push(if p.color() == Color::Black { '+' } else { '-' });
                s.push_str(code_of(p.kind()));
            }
        }
        s.push('\n');
    }
    for c in Color::ALL {
        let h = pos.hand(c);
        if h.is_empty() {
            continue;
        }
        s.push_str(if c == Color::Black { "P+" } else { "P-" });
        for k in PieceKind::HAND.iter().rev() {
            for _ in 0..h.count(*k) {
                s.push_str("00");
                s.push_str(code_of(*k));
            }
        }
        s.push('\n');
    }
    s.push_str(if pos.side_to_move() == Color::Black {
        "+\n"
    } else {
        "-\n"
    });
    let mut p = pos.clone();
    for &m in line {
        s.push_str(&move_text(&p, m));
        s.push('\n');
        p.do_move(m);
    }
    if let Some(e) = end {
        s.push_str(e);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pi_with_moves() {
        let t = "V2.2\nN+a\nN-b\n'comment\nPI\n+\n+7776FU,T3\n-3334FU\n+8822UM\n-3122GI\n+0045KA\n%TORYO\n";
        let r = read(t).unwrap();
        assert_eq!(r.moves.len(), 5);
        assert_eq!(
            r.position().to_sfen(),
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
        );
        let r = read("PI82HI22KA\n-\n").unwrap();
        assert_eq!(
            r.position().to_sfen(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
    }

    #[test]
    fn rows_hands_and_al() {
        let empty = " * ".repeat(9);
        let mut t = "P1 *  *  *  *  *  *  * -KE-KY\nP2 *  *  *  *  *  *  * -OU * \n".to_string();
        for r in 3..=9 {
            t.push_str(&format!("P{r}{empty}\n"));
        }
        t.push_str("P+00KI\nP-00AL\n+\n");
        let r = read(&t).unwrap();
        assert_eq!(
            r.position().to_sfen(),
            "7nl/7k1/9/9/9/9/9/9/9 b G2r2b3g4s3n3l18p 1"
        );
        let r = read("P-11OU\nP+22KI\nP+00AL\n+\n").unwrap_err();
        assert!(r.reason.contains("check"), "{r}");
    }

    /// A 9-ply problem (engine-tests' daily KIF) as CSA rows.
    const ROWS: &str = "\
P1 *  *  *  *  *  *  *  *  * 
P2 *  *  *  *  *  *  *  *  * 
P3 *  *  *  *  *  * +FU *  * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  * +KA *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  * +HI *  * 
P8 *  *  *  *  *  *  * -OU-TO
P9 *  *  *  *  *  *  *  *  * 
P+00KI
P-00AL
+
";

    #[test]
    fn csa_board_with_a_missing_row_is_rejected() {
        assert_eq!(
            read(ROWS).unwrap().position().to_sfen(),
            "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1"
        );
        let without = |rows: &[&str]| -> String {
            ROWS.lines()
                .filter(|l| !rows.iter().any(|r| l.starts_with(r)))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        for missing in [&["P3"][..], &["P5", "P6"], &["P1"], &["P9"]] {
            let e = read(&without(missing)).unwrap_err();
            assert!(e.reason.contains("P1..P9"), "{missing:?} missing: {e}");
        }
    }

    #[test]
    fn csa_rows_out_of_order_twice_or_cut_short_are_rejected() {
        let swapped = ROWS
            .replace("P3 ", "PX ")
            .replace("P4 ", "P3 ")
            .replace("PX ", "P4 ");
        assert!(read(&swapped).unwrap_err().reason.contains("order"));
        let twice = ROWS.replace("P8 ", "P7 *  *  *  *  *  *  *  *  * \nP8 ");
        assert!(read(&twice).is_err());
        // A row cut after a piece would leave its last squares empty.
        let cut = ROWS.replace("-OU-TO", "-OU");
        let e = read(&cut).unwrap_err();
        assert!(e.reason.contains("shorter"), "{e}");
        // The closing space of the last square may be trimmed (editors do).
        let trimmed: String = ROWS
            .lines()
            .map(|l| format!("{}\n", l.trim_end()))
            .collect();
        assert_eq!(
            read(&trimmed).unwrap().position().to_sfen(),
            read(ROWS).unwrap().position().to_sfen()
        );
        // PI and rows are two forms of one board, not both.
        assert!(read(&format!("PI\n{ROWS}")).is_err());
    }

    #[test]
    fn csa_position_needs_its_side_to_move_line() {
        // Cut anywhere before its end (here inside the hands), a position must not read.
        let cut = &ROWS[..ROWS.find("P-00AL").unwrap()];
        let e = read(cut).unwrap_err();
        assert!(e.reason.contains("side to move"), "{e}");
        assert!(read("PI\n").is_err());
        assert!(read("PI\n+\nP+00KI\n").is_err());
        // PI and P+/P- placements stay what they were.
        assert!(read("PI82HI22KA\n-\n").is_ok());
        assert!(read("P-11OU\nP+13KI\nP+00KI\nP-00AL\n+\n").is_ok());
    }

    #[test]
    fn written_csa_reads_back_and_faults_name_lines() {
        let p = Position::from_sfen(
            "l3k2nl/4g1gb1/1+S1pspp+P1/p1p6/3n4p/2PPR1P2/P2bPP2P/5GS2/LN1K4L w R2Pgsn2p 50",
        )
        .unwrap();
        let mut list = crate::shogi::MoveList::new();
        p.legal_moves(&mut list);
        let line: Vec<Move> = list.iter().take(1).copied().collect();
        let text = write(&p, &line, Some("%TSUMI"), &["x".into()]);
        let r = read(&text).unwrap();
        assert_eq!(
            r.start.to_sfen().rsplit_once(' ').unwrap().0,
            p.to_sfen().rsplit_once(' ').unwrap().0
        );
        assert_eq!(r.moves, line);
        let e = read("PI\n+\n+7776FU\n+3334FU\n").unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        let e = read("PI\n+\nhello\n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = read("P1 * +XX\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
    }
}
