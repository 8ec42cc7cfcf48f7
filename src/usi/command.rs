//! USI command parser: one input line → one [`Command`], plus notes about ignored tokens.
//!
//! Pure: no I/O, no engine state, never panics (fuzzed by `tests/fuzz_parsers.rs`). Syntax is
//! checked here; meaning (is the SFEN valid, is the move legal, is the option value in range) is
//! the engine's job, because it needs the position and the option table.
//!
//! Tokens are separated by ASCII whitespace. Command words are case-sensitive, as USI says.

/// A parsed line. `notes` lists tokens that were ignored (unknown `go` parameters, extra words
/// after a complete command); the engine reports each with `info string`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The command of the line.
    pub command: Command,
    /// Notes on ignored tokens, one per note.
    pub notes: Vec<String>,
}

/// One USI command from the GUI (or script).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line.
    Empty,
    /// `usi`: identify and list the options.
    Usi,
    /// `isready`: prepare the table, then `readyok`.
    IsReady,
    /// `setoption name <N> value <rest of line>`; `Err` when the line has no usable name.
    SetOption(Result<SetOption, String>),
    /// `usinewgame`: clear the table.
    UsiNewGame,
    /// `position startpos|sfen ... [moves ...]`; `Err` names what is malformed.
    Position(Result<PositionSpec, String>),
    /// `go ...`: search (a mate search with `go mate`).
    Go(Go),
    /// `stop`: end the running search; its answer follows.
    Stop,
    /// `ponderhit`: the pondered move was played.
    PonderHit,
    /// `gameover win|lose|draw` (the result word, possibly empty).
    GameOver(String),
    /// `quit`: stop and exit.
    Quit,
    /// A first word that is no USI command.
    Unknown(String),
}

/// `setoption name <N> [value <V>]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetOption {
    /// The option name (may contain spaces).
    pub name: String,
    /// Everything after `value`, inner spacing kept; `None` without a `value` keyword.
    pub value: Option<String>,
}

/// The position a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    /// `startpos`: the initial position of a game.
    Startpos,
    /// The SFEN fields as given (space-joined), not yet validated.
    Sfen(String),
}

/// `position ... [moves ...]`, syntax checked only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// Where the moves start.
    pub base: PositionBase,
    /// Move texts after `moves`, not yet validated.
    pub moves: Vec<String>,
}

/// The time argument of `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateTime {
    /// `go mate infinite`, or a bare `go mate`.
    Infinite,
    /// A limit in milliseconds.
    Millis(u64),
    /// An argument that is neither a number nor `infinite` (the token).
    Invalid(String),
}

/// `go` with its parameters. `mate` is `Some` for a mate search (`go mate ...`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `mate <ms>|infinite`: a mate search and its time.
    pub mate: Option<MateTime>,
    /// `ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// Black's remaining time (ms).
    pub btime: Option<u64>,
    /// White's remaining time (ms).
    pub wtime: Option<u64>,
    /// Byoyomi per move (ms).
    pub byoyomi: Option<u64>,
    /// Black's increment per move (ms).
    pub binc: Option<u64>,
    /// White's increment per move (ms).
    pub winc: Option<u64>,
    /// Fixed time for this move (ms).
    pub movetime: Option<u64>,
    /// Node limit of this search.
    pub nodes: Option<u64>,
}

/// Longest token quoted back in a note or error, in characters.
const QUOTE_MAX: usize = 40;

/// A token shortened for messages (the engine escapes non-ASCII when it prints).
pub fn quote(s: &str) -> String {
    if s.chars().count() <= QUOTE_MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(QUOTE_MAX).collect();
        format!("{head}...")
    }
}

/// Tokens with their byte offsets in the line (for "rest of line" values).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i > start {
            // Both ends sit next to ASCII bytes or the line ends, so they are char boundaries.
            out.push((start, &line[start..i]));
        }
    }
    out
}

/// Parses one line (without its line terminator).
pub fn parse(line: &str) -> Parsed {
    let toks = tokens(line);
    let mut notes = Vec::new();
    let Some(&(_, word)) = toks.first() else {
        return Parsed {
            command: Command::Empty,
            notes,
        };
    };
    let args = &toks[1..];
    let command = match word {
        "usi" => simple(Command::Usi, args, &mut notes),
        "isready" => simple(Command::IsReady, args, &mut notes),
        "usinewgame" => simple(Command::UsiNewGame, args, &mut notes),
        "stop" => simple(Command::Stop, args, &mut notes),
        "ponderhit" => simple(Command::PonderHit, args, &mut notes),
        "quit" => simple(Command::Quit, args, &mut notes),
        "gameover" => {
            let result = args.first().map(|t| t.1.to_string()).unwrap_or_default();
            if args.len() > 1 {
                extra(&args[1..], &mut notes);
            }
            Command::GameOver(result)
        }
        "setoption" => Command::SetOption(parse_setoption(line, args)),
        "position" => Command::Position(parse_position(args, &mut notes)),
        "go" => Command::Go(parse_go(args, &mut notes)),
        other => Command::Unknown(other.to_string()),
    };
    Parsed { command, notes }
}

fn simple(c: Command, args: &[(usize, &str)], notes: &mut Vec<String>) -> Command {
    extra(args, notes);
    c
}

fn extra(args: &[(usize, &str)], notes: &mut Vec<String>) {
    for &(_, t) in args {
        notes.push(format!("ignored extra token '{}'", quote(t)));
    }
}

fn parse_setoption(line: &str, args: &[(usize, &str)]) -> Result<SetOption, String> {
    match args.first() {
        Some(&(_, "name")) => {}
        Some(&(_, t)) => {
            return Err(format!(
                "setoption: expected 'name' after setoption, got '{}'",
                quote(t)
            ))
        }
        None => return Err("setoption: missing 'name <option>'".to_string()),
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|&(_, t)| t == "value");
    let name_toks = &rest[..value_at.unwrap_or(rest.len())];
    if name_toks.is_empty() {
        return Err("setoption: missing option name after 'name'".to_string());
    }
    let name = name_toks
        .iter()
        .map(|&(_, t)| t)
        .collect::<Vec<_>>()
        .join(" ");
    let value = value_at.map(|i| {
        let (off, t) = rest[i];
        line[off + t.len()..]
            .trim_matches(|c: char| c.is_ascii_whitespace())
            .to_string()
    });
    Ok(SetOption { name, value })
}

fn parse_position(args: &[(usize, &str)], notes: &mut Vec<String>) -> Result<PositionSpec, String> {
    let moves_at = args.iter().position(|&(_, t)| t == "moves");
    let head = &args[..moves_at.unwrap_or(args.len())];
    let moves: Vec<String> = match moves_at {
        Some(i) => args[i + 1..].iter().map(|&(_, t)| t.to_string()).collect(),
        None => Vec::new(),
    };
    let base = match head.first() {
        None if moves_at.is_some() => {
            return Err("position: missing 'startpos' or 'sfen' before 'moves'".to_string())
        }
        None => return Err("position: missing 'startpos' or 'sfen <SFEN>'".to_string()),
        Some(&(_, "startpos")) => {
            if let Some(&(_, t)) = head.get(1) {
                return Err(format!(
                    "position: unexpected '{}' after startpos (expected 'moves')",
                    quote(t)
                ));
            }
            PositionBase::Startpos
        }
        Some(&(_, "sfen")) => {
            let fields: Vec<&str> = head[1..].iter().map(|&(_, t)| t).collect();
            if fields.is_empty() {
                return Err("position: 'sfen' without a SFEN".to_string());
            }
            PositionBase::Sfen(fields.join(" "))
        }
        // A bare SFEN (cshogi's `engine.position(sfen=S)` sends `position <S>` verbatim):
        // unambiguous, since no other word of `position` contains a '/'. Accepted, with a note.
        Some(&(_, t)) if t.contains('/') => {
            notes.push(
                "position: 'sfen' missing before the SFEN; read as 'position sfen ...'".into(),
            );
            let fields: Vec<&str> = head.iter().map(|&(_, t)| t).collect();
            PositionBase::Sfen(fields.join(" "))
        }
        Some(&(_, t)) => {
            return Err(format!(
                "position: expected 'startpos' or 'sfen', got '{}'",
                quote(t)
            ))
        }
    };
    Ok(PositionSpec { base, moves })
}

/// Words that start a `go` parameter (a bare `go mate` followed by one of these is infinite).
const GO_KEYWORDS: &[&str] = &[
    "mate",
    "ponder",
    "infinite",
    "btime",
    "wtime",
    "byoyomi",
    "binc",
    "winc",
    "movetime",
    "nodes",
    "depth",
    "searchmoves",
];

/// A millisecond or node count. Digits beyond `u64` saturate (they mean "practically forever").
fn parse_count(t: &str) -> Option<u64> {
    let digits = t.strip_prefix('+').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

fn parse_go(args: &[(usize, &str)], notes: &mut Vec<String>) -> Go {
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let t = args[i].1;
        i += 1;
        match t {
            "mate" => {
                let time = match args.get(i).map(|a| a.1) {
                    None => MateTime::Infinite,
                    Some(k) if GO_KEYWORDS.contains(&k) => MateTime::Infinite,
                    Some(v) => {
                        i += 1;
                        if v == "infinite" {
                            MateTime::Infinite
                        } else {
                            match parse_count(v) {
                                Some(ms) => MateTime::Millis(ms),
                                None => MateTime::Invalid(quote(v)),
                            }
                        }
                    }
                };
                go.mate = Some(time);
            }
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "btime" | "wtime" | "byoyomi" | "binc" | "winc" | "movetime" | "nodes" => {
                let v = args.get(i).map(|a| a.1);
                let n = v.and_then(parse_count);
                match n {
                    Some(_) => i += 1,
                    None => {
                        notes.push(match v {
                            Some(v) if !GO_KEYWORDS.contains(&v) => {
                                i += 1;
                                format!("go: ignored '{t}' with bad value '{}'", quote(v))
                            }
                            _ => format!("go: ignored '{t}' without a value"),
                        });
                        continue;
                    }
                }
                let slot = match t {
                    "btime" => &mut go.btime,
                    "wtime" => &mut go.wtime,
                    "byoyomi" => &mut go.byoyomi,
                    "binc" => &mut go.binc,
                    "winc" => &mut go.winc,
                    "movetime" => &mut go.movetime,
                    _ => &mut go.nodes,
                };
                *slot = n;
            }
            other => notes.push(format!("go: ignored unknown token '{}'", quote(other))),
        }
    }
    go
}

#[cfg(test)]
mod tests;
