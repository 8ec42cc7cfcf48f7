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
}
