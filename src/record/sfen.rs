//! SFEN records: one position written as SFEN, optionally as a USI `position` command, with
//! moves: `[position] sfen <board> <side> <hand> [n] [moves m1 m2 ...]`,
//! `[position] startpos [moves ...]`, or the bare SFEN fields. Lines starting with `#` are
//! comments; one position per text.

use super::{play, shorten, Format, Record, RecordError};
use crate::shogi::{Move, Position};

/// Whether `line` (trimmed) starts a SFEN record.
pub fn looks_like(line: &str) -> bool {
    let first = line.split_ascii_whitespace().next().unwrap_or("");
    matches!(first, "position" | "sfen" | "startpos")
        || (first.matches('/').count() == 8 && first.is_ascii())
}

/// Reads the one position of `text`.
pub fn read(text: &str) -> Result<Record, RecordError> {
    let mut found: Option<(usize, &str)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if found.is_some() {
            return Err(RecordError::new(
                i + 1,
                "a second position: a file holds one (solve many with --batch)",
            ));
        }
        found = Some((i + 1, line));
    }
    let Some((n, line)) = found else {
        return Err(RecordError::new(0, "empty input: no position"));
    };
    read_line_whole(line, true).map_err(|reason| RecordError::new(n, reason))
}

/// Reads one line holding a SFEN record; `Err` is the reason. The move number may be left
/// out (as people type a position on the command line); a file's SFEN needs it ([`read`]).
pub fn read_line(line: &str) -> Result<Record, String> {
    read_line_whole(line, false)
}

/// [`read_line`], with the move number required when `whole`: a file's SFEN with all four
/// fields, so that a line cut short inside its hand is not read as another hand.
fn read_line_whole(line: &str, whole: bool) -> Result<Record, String> {
    let mut words: Vec<&str> = line.split_ascii_whitespace().collect();
    if words.first() == Some(&"position") {
        words.remove(0);
    }
    let (pos_words, move_words) = match words.iter().position(|w| *w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let fields = pos_words.iter().filter(|w| **w != "sfen").count();
    if whole && pos_words != ["startpos"] && fields == 3 {
        return Err(
            "bad SFEN: no move number (a SFEN has 4 fields: board, side, hand, move number)".into(),
        );
    }
    let start = Position::from_sfen(&pos_words.join(" ")).map_err(|e| format!("bad SFEN: {e}"))?;
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(move_words.len());
    for (i, w) in move_words.iter().enumerate() {
        let m = Move::from_usi(w)
            .ok_or_else(|| format!("move {}: '{}' is not a USI move", i + 1, shorten(w, 20)))?;
        play(&mut pos, m, 0, w).map_err(|e| format!("move {}: {}", i + 1, e.reason))?;
        moves.push(m);
    }
    Ok(Record {
        format: Format::Sfen,
        start,
        moves,
        headers: vec![],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_and_moves() {
        let plain = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        for t in [
            plain.to_string(),
            format!("sfen {plain}"),
            format!("position sfen {plain}"),
            format!("# a comment\n\n  {plain}  \n"),
        ] {
            let r = read(&t).unwrap();
            assert_eq!(r.position().to_sfen(), plain, "{t}");
        }
        let r = read("position startpos moves 7g7f 3c3d").unwrap();
        assert_eq!(r.moves.len(), 2);
        assert_eq!(
            r.position().to_sfen(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
    }

    #[test]
    fn sfen_file_cut_inside_its_hand_is_rejected() {
        let whole = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        assert!(read(whole).is_ok());
        // Cut after `2b`: a valid hand, a different position, and no move number.
        let e = read("4k4/9/4P4/9/9/9/9/9/9 b G2r2b").unwrap_err();
        assert!(e.reason.contains("move number"), "{e}");
        assert!(read("sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b moves 5c5b+").is_err());
        // Typed words may leave the number out.
        assert!(read_line("4k4/9/4P4/9/9/9/9/9/9 b G2r2b").is_ok());
        assert!(read("startpos moves 7g7f").is_ok());
    }

    #[test]
    fn faults_name_the_line_and_move() {
        let e = read("\nstartpos moves 7g7f 3c3d 2g2c").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("move 3"), "{e}");
        let e = read("startpos moves 7g7x").unwrap_err();
        assert!(e.reason.contains("not a USI move"), "{e}");
        let e = read("startpos\nstartpos").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(read("sfen 9/9 b - 1")
            .unwrap_err()
            .reason
            .contains("bad SFEN"));
    }
}
