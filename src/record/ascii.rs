//! The ASCII board of df-pn-rust (malt03/df-pn-rust, `examples/*.txt`): the defender's hand on
//! the first line (`歩x16 香x3 桂 銀x3`), a frame of dashes, nine rows of nine cells three
//! columns wide (three spaces for an empty square; `￪` + piece for the attacker's, Black's,
//! pieces, `￬` + piece for the defender's, White's; the half-width arrow and the full-width
//! piece make three columns), a frame, and the attacker's hand on the last line. Black is to
//! move. A `王`/`玉` in a hand list (one example file writes the absent attacker king so) is
//! skipped: SFEN holds no king in hand.

use super::board::{kind_of_char, Setup};
use super::{Format, Record, RecordError};
use crate::shogi::{Color, PieceKind, Square};

const UP: char = '\u{ffea}'; // ￪
const DOWN: char = '\u{ffec}'; // ￬

/// Whether `line` (trimmed) is recognisably this format: a frame of dashes or an arrow.
pub fn looks_like(line: &str) -> bool {
    (line.len() >= 9 && line.chars().all(|c| c == '-')) || line.contains([UP, DOWN])
}

fn is_frame(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 9 && t.chars().all(|c| c == '-')
}

fn parse_hand(line: &str) -> Result<[u32; 7], String> {
    let mut h = [0u32; 7];
    for item in line.split_whitespace() {
        let mut cs = item.chars();
        let c = cs.next().unwrap_or(' ');
        let k = kind_of_char(c).ok_or_else(|| format!("'{item}' is not a piece in hand"))?;
        let rest = cs.as_str();
        let n: u32 = if rest.is_empty() {
            1
        } else {
            rest.strip_prefix(['x', 'X', '×'])
                .and_then(|d| d.parse().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("'{item}': the count must be written x<n>"))?
        };
        if k == PieceKind::King {
            continue;
        }
        if !PieceKind::HAND.contains(&k) {
            return Err(format!("'{item}' cannot be held in hand"));
        }
        h[k.index()] += n;
    }
    Ok(h)
}

fn parse_row(line: &str) -> Result<[Option<(Color, PieceKind)>; 9], String> {
    let mut cells = [None; 9];
    let mut col = 0usize;
    let mut cs = line.trim_end().chars();
    while let Some(c) = cs.next() {
        match c {
            ' ' => col += 1,
            UP | DOWN => {
                // (Not is_multiple_of: the README promises Rust 1.85.)
                if col / 3 * 3 != col || col >= 27 {
                    return Err(format!("a piece at column {} is not on a square", col + 1));
                }
                let p = cs.next().ok_or("an arrow without a piece")?;
                let k = kind_of_char(p).ok_or_else(|| format!("'{p}' is not a piece"))?;
                let side = if c == UP { Color::Black } else { Color::White };
                cells[col / 3] = Some((side, k));
                col += 3;
            }
            other => return Err(format!("'{other}' is neither a space nor ￪/￬")),
        }
    }
    if col > 27 {
        return Err("wider than nine squares".into());
    }
    Ok(cells)
}

/// Reads the board (see the module docs).
pub fn read(text: &str) -> Result<Record, RecordError> {
    let lines: Vec<&str> = text.lines().collect();
    let frames: Vec<usize> = (0..lines.len()).filter(|&i| is_frame(lines[i])).collect();
    if frames.len() != 2 {
        return Err(RecordError::new(
            frames.get(2).map_or(0, |&i| i + 1),
            format!("{} frame lines of dashes, expected 2", frames.len()),
        ));
    }
    let (top, bottom) = (frames[0], frames[1]);
    if bottom - top != 10 {
        return Err(RecordError::new(
            bottom + 1,
            format!("{} rows between the frames, expected 9", bottom - top - 1),
        ));
    }
    let mut setup = Setup::default();
    for (i, line) in lines.iter().enumerate().take(top) {
        if line.trim().is_empty() {
            continue;
        }
        if i + 1 != top {
            return Err(RecordError::new(i + 1, "text before the defender's hand"));
        }
        setup.hands[Color::White.index()] =
            parse_hand(line).map_err(|e| RecordError::new(i + 1, e))?;
    }
    for r in 0..9 {
        let n = top + 1 + r;
        let cells = parse_row(lines[n]).map_err(|e| RecordError::new(n + 1, e))?;
        for (i, c) in cells.iter().enumerate() {
            setup.cells[Square::new(8 - i as u8, r as u8).index()] = *c;
        }
    }
    let mut seen_hand = false;
    for (i, line) in lines.iter().enumerate().skip(bottom + 1) {
        if line.trim().is_empty() {
            continue;
        }
        if seen_hand {
            return Err(RecordError::new(i + 1, "text after the attacker's hand"));
        }
        seen_hand = true;
        setup.hands[Color::Black.index()] =
            parse_hand(line).map_err(|e| RecordError::new(i + 1, e))?;
    }
    setup.side = Color::Black;
    let start = setup.position().map_err(|e| RecordError::new(top + 2, e))?;
    Ok(Record {
        format: Format::Ascii,
        start,
        moves: vec![],
        headers: vec![],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout of df-pn-rust's `examples/five.txt` (a 5-ply problem of the JSA's site).
    const FIVE: &str = "歩x14 香x3 桂x4 銀x2 金 角 飛x2
---------------------------
                     \u{ffec}香   
                           
            \u{ffec}金   \u{ffea}と      
                  \u{ffea}銀   \u{ffec}金
                  \u{ffec}王      
               \u{ffec}歩\u{ffec}歩\u{ffec}歩   
                           
                           
                           
---------------------------
角 金 銀";

    #[test]
    fn reads_the_example_layout() {
        let r = read(FIVE).unwrap();
        assert_eq!(
            r.position().to_sfen(),
            "7l1/9/4g1+P2/6S1g/6k2/5ppp1/9/9/9 b BGS2rbg2s4n3l14p 1"
        );
        assert_eq!(super::super::detect(FIVE).unwrap(), Format::Ascii);
    }

    #[test]
    fn faults_name_the_line() {
        let e = read(&FIVE.replace("\u{ffea}銀", "\u{ffea}象")).unwrap_err();
        assert_eq!(e.line, 6, "{e}");
        let e = read(&FIVE.replace("金 角 飛x2", "金 角 飛x")).unwrap_err();
        assert_eq!(e.line, 1, "{e}");
        let e = read(&FIVE.replace("               \u{ffec}歩", "              \u{ffec}歩"))
            .unwrap_err();
        assert_eq!(e.line, 8, "{e}");
    }
}
