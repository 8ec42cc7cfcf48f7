//! Problem records in and out: the file formats people keep positions in, read into a
//! [`Position`] and written back with a solution. Rules-level: knows positions and moves,
//! nothing of search or protocol.
//!
//! Read ([`read_bytes`], [`read_text`]), with the format detected from the text:
//! * SFEN, with or without a `sfen ` / `position sfen ` prefix, `startpos`, and `moves ...`
//!   ([`sfen`]);
//! * KIF and KI2 (Kifu for Windows, ShogiGUI, ShogiHome, the Japan Shogi Association's daily
//!   problems): a BOD board diagram (`後手の持駒：`, `|` rows, `先手の持駒：`, `後手番`), a
//!   handicap line (`手合割：`), numbered KIF moves (`   1 ７六歩(77)`) or KI2 moves (`▲７六歩`);
//!   the position is the one after the last move ([`kif`]);
//! * the ASCII board of df-pn-rust (`￪`/`￬` pieces between two frames of dashes, hands above
//!   and below) ([`ascii`]);
//! * CSA (`P1`..`P9` rows, `PI` with removed pieces, `P+`/`P-` placements and hands with
//!   `00AL`, the side to move `+`/`-`, moves `+7776FU`) ([`csa`]).
//!
//! Files may be UTF-8 (with or without BOM) or Shift_JIS/CP932 ([`decode`]). Every fault is a
//! [`RecordError`] naming the line and the reason; nothing here panics on any input (fuzzed in
//! `tests/fuzz_parsers.rs`).
//!
//! Written: KIF with a BOD diagram and the solution ([`kif::write`]), CSA ([`csa::write`]).

pub mod ascii;
pub mod board;
pub mod csa;
pub mod decode;
pub mod kif;
pub mod sfen;

use crate::shogi::{Move, Position};
use std::fmt;

/// The format a record was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// SFEN or a USI `position` command.
    Sfen,
    /// KIF or KI2 (with or without a BOD diagram).
    Kif,
    /// CSA.
    Csa,
    /// The ASCII board of df-pn-rust.
    Ascii,
}

impl Format {
    /// The name used in messages and JSON (`sfen`, `kif`, `csa`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Sfen => "sfen",
            Format::Kif => "kif",
            Format::Csa => "csa",
            Format::Ascii => "ascii",
        }
    }
}

/// Why a text is not a position: the line (1-based; 0 when the fault is the whole text) and the
/// reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The 1-based line of the fault, 0 for the text as a whole.
    pub line: usize,
    /// What is wrong there.
    pub reason: String,
}

impl RecordError {
    /// An error at `line` (1-based; 0 for the whole text).
    pub fn new(line: usize, reason: impl Into<String>) -> RecordError {
        RecordError {
            line,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for RecordError {}

/// A record read: the position it starts from and the moves played from there.
#[derive(Clone, Debug)]
pub struct Record {
    /// The format it was read in.
    pub format: Format,
    /// The starting position (a diagram, a handicap's, or the initial position).
    pub start: Position,
    /// The moves played from `start`, each legal.
    pub moves: Vec<Move>,
    /// The file's own headers, in order, that say nothing of the position (a KIF's `作品名`,
    /// `作者`, `発表誌`, ...): kept for what is written from the record (`tsumugi check`'s
    /// KIF). Empty for the other formats.
    pub headers: Vec<(String, String)>,
}

impl Record {
    /// The position after the last move, without history (what a mate problem asks about).
    pub fn position(&self) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves {
            p.do_move(m);
        }
        // Through SFEN: a fresh position whose move number counts the moves played.
        Position::from_sfen(&p.to_sfen()).unwrap_or(p)
    }
}

/// Reads a record from file bytes: decodes them ([`decode::decode`]), then [`read_text`].
pub fn read_bytes(bytes: &[u8]) -> Result<Record, RecordError> {
    let text = decode::decode(bytes)?;
    read_text(&text)
}

/// Reads a record from text, detecting its format ([`detect`]).
pub fn read_text(text: &str) -> Result<Record, RecordError> {
    match detect(text)? {
        Format::Sfen => sfen::read(text),
        Format::Kif => kif::read(text),
        Format::Csa => csa::read(text),
        Format::Ascii => ascii::read(text),
    }
}

/// Reads what a person pastes or opens (the browser page's position box and file input): a
/// file's bytes or typed text, as [`read_bytes`] reads a file. Text of one line that is no
/// recognisable record is read as SFEN, as `tsumugi solve` reads its SFEN words, so a malformed
/// SFEN is told what is wrong with it (`bad SFEN: ...`) rather than that it is no record; such a
/// fault and any fault of one-line text is at line 0 (the line number would say nothing).
pub fn read_input(bytes: &[u8]) -> Result<Record, RecordError> {
    let text = decode::decode(bytes)?;
    let one_line = text.lines().filter(|l| !l.trim().is_empty()).count() <= 1;
    let read = if one_line && detect(&text).is_err() {
        sfen::read_line(text.trim()).map_err(|reason| RecordError::new(0, reason))
    } else {
        read_text(&text)
    };
    read.map_err(|e| {
        if one_line {
            RecordError::new(0, e.reason)
        } else {
            e
        }
    })
}

/// The format of `text`, from its first meaningful lines: a SFEN or `position` line; KIF's
/// Japanese (`手合割`, `の持駒`, a `|` board row, numbered or ▲△ moves); CSA's `P1`, `PI`,
/// `P+`, `+`/`-`, `V2` or moves. `Err` names the first line that is none of these.
pub fn detect(text: &str) -> Result<Format, RecordError> {
    let mut first_unknown: Option<(usize, &str)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if line.is_empty() {
            continue;
        }
        if sfen::looks_like(line) {
            return Ok(Format::Sfen);
        }
        if kif::looks_like(line) {
            return Ok(Format::Kif);
        }
        if ascii::looks_like(line) {
            return Ok(Format::Ascii);
        }
        if csa::looks_like(line) {
            return Ok(Format::Csa);
        }
        // Comments and headers may come first in KIF ('#', '*', 'key：value') and CSA (''').
        if line.starts_with('#') || line.starts_with('*') || line.starts_with('\'') {
            continue;
        }
        if first_unknown.is_none() {
            first_unknown = Some((i + 1, line));
        }
    }
    Err(match first_unknown {
        None => RecordError::new(0, "empty input: no position"),
        Some((n, l)) => RecordError::new(
            n,
            format!(
                "not a position: '{}' is neither SFEN, KIF nor CSA",
                shorten(l, 60)
            ),
        ),
    })
}

/// `s` cut to at most `max` characters (with `...`), for messages.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push_str("...");
        t
    }
}

/// Plays `moves` from `start` (each checked legal by `check`), turning a fault into an error at
/// the line the move was on.
pub(crate) fn play(
    pos: &mut Position,
    m: Move,
    line: usize,
    text: &str,
) -> Result<(), RecordError> {
    if !pos.is_legal(m) {
        return Err(RecordError::new(
            line,
            format!(
                "illegal move '{}' ({m}) in {}",
                shorten(text, 30),
                pos.to_sfen()
            ),
        ));
    }
    pos.do_move(m);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_format() {
        assert_eq!(detect("startpos").unwrap(), Format::Sfen);
        assert_eq!(
            detect("position sfen 4k4/9/9/9/9/9/9/9/9 b G 1").unwrap(),
            Format::Sfen
        );
        assert_eq!(detect("# c\n手合割：平手\n").unwrap(), Format::Kif);
        assert_eq!(detect("'c\nPI\n+\n").unwrap(), Format::Csa);
        let e = detect("\nhello world\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(detect("").unwrap_err().reason.contains("empty"));
    }

    #[test]
    fn pasted_position_command_with_moves_is_the_position_after_them() {
        let root = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1";
        let text = format!("position sfen {root} moves G*3i 2h1i 3g1g");
        let r = read_input(text.as_bytes()).unwrap();
        assert_eq!(r.format, Format::Sfen);
        assert_eq!(r.moves.len(), 3);
        assert_eq!(
            r.position().to_sfen(),
            "9/9/6P2/9/4B4/9/8R/8+p/6G1k w rb3g4s4n4l16p 4"
        );
    }

    #[test]
    fn pasted_one_line_faults_say_what_is_wrong_without_a_line_number() {
        let e = read_input(b"9/9/9/9/9 b - 1").unwrap_err();
        assert_eq!(e.line, 0);
        assert!(e.reason.starts_with("bad SFEN: board has 5 ranks"), "{e}");
        let e = read_input(b"position sfen 4k4/9/9/9/9/9/9/9/9 b - 1 moves 5a5b").unwrap_err();
        assert_eq!(e.line, 0, "{e}");
        assert!(e.reason.contains("move 1"), "{e}");
        assert!(read_input(b"").unwrap_err().reason.contains("empty"));
    }

    #[test]
    fn pasted_kif_diagram_and_shift_jis_file_are_read() {
        let bod = "後手の持駒：飛　角　金三　銀四　桂四　香四　歩十六　\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ 歩 ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ 角 ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ 飛 ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・v玉vと|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金　\n";
        let r = read_input(bod.as_bytes()).unwrap();
        assert_eq!(r.format, Format::Kif);
        assert_eq!(
            r.position().to_sfen(),
            "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1"
        );
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(bod);
        assert_eq!(
            read_input(&sjis).unwrap().position().to_sfen(),
            r.position().to_sfen()
        );
    }
}
