//! Command-line subcommands. Results go to stdout, diagnostics and usage to stderr; bad
//! arguments print one line of error and a hint, and exit with status 2. `--help` (or `-h`)
//! works on every subcommand. Output to a closed pipe (`tsumugi bench | head -1`) ends the
//! process quietly with status 0.

use crate::shogi::{perft, MoveList, Position};
use std::fmt::Display;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

pub const USAGE: &str = "\
usage:
  tsumugi                          run the USI engine on stdin/stdout
  tsumugi solve [options] <SFEN>|startpos
                                   solve one position; prints the USI answer
                                   ('tsumugi solve --help' lists the options)
  tsumugi perft <depth> [<SFEN>|startpos]
                                   count leaf nodes; one '<move> <count>' line per root move,
                                   then 'nodes <N> time_ms <T> nps <R>'
  tsumugi moves [--kind legal|checks|evasions] <SFEN>|startpos
                                   print the moves of that kind, sorted, on one line
  tsumugi bench [--hash-mb M] [--threads 1]
                                   solve the built-in positions; deterministic node signature
  tsumugi help                     this text
  A position is a SFEN (one argument, or several words; a leading 'sfen' is allowed) or
  'startpos'; '--sfen <SFEN>' works too.
";

const PERFT_USAGE: &str = "\
usage: tsumugi perft <depth> [<SFEN>|startpos]
  Counts the leaf nodes of the legal-move tree to <depth> (1-12) from the position (default:
  the start position). Prints one '<move> <count>' line per root move, sorted, then
  'nodes <N> time_ms <T> nps <R>'.";

const MOVES_USAGE: &str = "\
usage: tsumugi moves [--kind legal|checks|evasions] <SFEN>|startpos
  Prints the legal moves of the side to move (or only its checks, or its evasions when in
  check), sorted, on one line.";

/// Exit code for bad input or bad arguments.
pub const EXIT_USAGE: u8 = 2;

/// Writes one line to stdout. A closed pipe ends the process quietly with status 0 (what a
/// reader like `head` expects); other write errors cannot be reported anywhere better and are
/// ignored.
pub fn say(text: impl Display) {
    write_line(&mut std::io::stdout().lock(), text);
}

/// Writes one line to stderr, as [`say`] does to stdout.
pub fn note(text: impl Display) {
    write_line(&mut std::io::stderr().lock(), text);
}

fn write_line(w: &mut dyn Write, text: impl Display) {
    let r = writeln!(w, "{text}").and_then(|_| w.flush());
    if let Err(e) = r {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

/// One line of error and a hint where the usage is; status 2.
pub fn usage_error(sub: &str, msg: &str) -> ExitCode {
    let help = if sub.is_empty() {
        "tsumugi help".to_string()
    } else {
        format!("tsumugi {sub} --help")
    };
    note(format_args!("error: {msg}\nhint: '{help}' shows the usage"));
    ExitCode::from(EXIT_USAGE)
}

/// Whether the arguments ask for help (`--help` or `-h` anywhere).
pub fn wants_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

/// Splits `args` into `--flag value` options and positional words. A SFEN value may be given
/// as one quoted argument or as several words after `--sfen` (up to the next `--flag`).
pub struct Args {
    pub positional: Vec<String>,
    pub options: Vec<(String, String)>,
    pub switches: Vec<String>,
}

pub fn parse_args(args: &[String], switches: &[&str]) -> Result<Args, String> {
    let mut out = Args {
        positional: vec![],
        options: vec![],
        switches: vec![],
    };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if let Some(name) = a.strip_prefix("--") {
            if switches.contains(&name) {
                out.switches.push(name.to_string());
                i += 1;
                continue;
            }
            let mut j = i + 1;
            let mut vals = vec![];
            while j < args.len() && !args[j].starts_with("--") {
                vals.push(args[j].clone());
                j += 1;
                // Only --sfen takes several words.
                if name != "sfen" {
                    break;
                }
            }
            if vals.is_empty() {
                return Err(format!("option --{name} needs a value"));
            }
            out.options.push((name.to_string(), vals.join(" ")));
            i = j;
        } else {
            out.positional.push(a.clone());
            i += 1;
        }
    }
    Ok(out)
}

impl Args {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn has_switch(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }

    /// Rejects options not in `known`.
    pub fn check_known(&self, known: &[&str]) -> Result<(), String> {
        for (n, _) in &self.options {
            if !known.contains(&n.as_str()) {
                return Err(format!("unknown option --{n}"));
            }
        }
        Ok(())
    }

    pub fn parse_num<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => v
                .parse::<T>()
                .map(Some)
                .map_err(|_| format!("--{name}: '{v}' is not a valid number")),
        }
    }

    /// The position of a subcommand, taken the same way by every one: `--sfen <SFEN>`, or the
    /// positional words from `skip` on (a SFEN as one argument or several words, or
    /// `startpos`). `None` when neither is given.
    pub fn position(&self, skip: usize) -> Result<Option<Position>, String> {
        let words = self.positional.get(skip..).unwrap_or(&[]);
        let text = match (self.get("sfen"), words.is_empty()) {
            (Some(_), false) => {
                return Err(format!(
                    "two positions given: --sfen and '{}'",
                    words.join(" ")
                ))
            }
            (Some(s), true) => s.to_string(),
            (None, false) => words.join(" "),
            (None, true) => return Ok(None),
        };
        Position::from_sfen(&text)
            .map(Some)
            .map_err(|e| format!("bad SFEN: {e}"))
    }
}

pub fn run(args: &[String]) -> ExitCode {
    let Some(cmd) = args.first() else {
        return crate::usi::run_stdio();
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "perft" => cmd_perft(rest),
        "moves" => cmd_moves(rest),
        "solve" => crate::solve::cmd_solve(rest),
        "bench" => crate::bench::cmd_bench(rest),
        "help" | "--help" | "-h" => {
            say(USAGE.trim_end());
            ExitCode::SUCCESS
        }
        other => usage_error("", &format!("unknown subcommand '{other}'")),
    }
}

fn cmd_perft(rest: &[String]) -> ExitCode {
    const SUB: &str = "perft";
    if wants_help(rest) {
        say(PERFT_USAGE);
        return ExitCode::SUCCESS;
    }
    let args = match parse_args(rest, &[]) {
        Ok(a) => a,
        Err(e) => return usage_error(SUB, &e),
    };
    if let Err(e) = args.check_known(&["sfen"]) {
        return usage_error(SUB, &e);
    }
    let Some(depth) = args.positional.first() else {
        return usage_error(SUB, "perft needs a <depth>");
    };
    let depth: u32 = match depth.parse() {
        Ok(d) if (1..=12).contains(&d) => d,
        _ => return usage_error(SUB, "perft depth must be an integer from 1 to 12"),
    };
    let mut pos = match args.position(1) {
        Ok(p) => p.unwrap_or_else(Position::startpos),
        Err(e) => return usage_error(SUB, &e),
    };
    let start = Instant::now();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut root: Vec<(String, u64)> = Vec::with_capacity(list.len());
    let mut total = 0;
    for &m in list.as_slice() {
        pos.do_move(m);
        let n = perft(&mut pos, depth - 1);
        pos.undo_move();
        total += n;
        root.push((m.to_string(), n));
    }
    root.sort();
    for (m, n) in &root {
        say(format_args!("{m} {n}"));
    }
    let ms = start.elapsed().as_millis();
    let nps = (total as f64 / start.elapsed().as_secs_f64().max(1e-9)) as u64;
    say(format_args!("nodes {total} time_ms {ms} nps {nps}"));
    ExitCode::SUCCESS
}

fn cmd_moves(rest: &[String]) -> ExitCode {
    const SUB: &str = "moves";
    if wants_help(rest) {
        say(MOVES_USAGE);
        return ExitCode::SUCCESS;
    }
    let args = match parse_args(rest, &[]) {
        Ok(a) => a,
        Err(e) => return usage_error(SUB, &e),
    };
    if let Err(e) = args.check_known(&["sfen", "kind"]) {
        return usage_error(SUB, &e);
    }
    let pos = match args.position(0) {
        Ok(Some(p)) => p,
        Ok(None) => return usage_error(SUB, "moves needs a position (SFEN or 'startpos')"),
        Err(e) => return usage_error(SUB, &e),
    };
    let mut list = MoveList::new();
    match args.get("kind").unwrap_or("legal") {
        "legal" => pos.legal_moves(&mut list),
        "checks" => pos.check_moves(&mut list),
        "evasions" => {
            if !pos.in_check() {
                return usage_error(SUB, "evasions: the side to move is not in check");
            }
            pos.legal_moves(&mut list)
        }
        k => {
            return usage_error(
                SUB,
                &format!("unknown --kind '{k}' (legal, checks or evasions)"),
            )
        }
    }
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    say(v.join(" "));
    ExitCode::SUCCESS
}
