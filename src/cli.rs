//! Command-line subcommands. Results go to stdout, diagnostics and usage to stderr; bad
//! arguments exit with status 2.

use crate::shogi::{perft, MoveList, Position};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

pub const USAGE: &str = "\
usage:
  tsumugi                          run the USI engine on stdin/stdout
  tsumugi perft <depth> [--sfen <SFEN>]
                                   count leaf nodes; one '<move> <count>' line per root move,
                                   then 'nodes <N> time_ms <T> nps <R>'
  tsumugi moves [--kind legal|checks|evasions] --sfen <SFEN>
                                   print the moves of that kind, sorted, on one line
  tsumugi bench [--hash-mb M] [--threads 1]
                                   solve the built-in positions; deterministic node signature
  tsumugi help                     this text
";

/// Exit code for bad input or bad arguments.
const EXIT_USAGE: u8 = 2;

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {msg}\n\n{USAGE}");
    ExitCode::from(EXIT_USAGE)
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
}

pub fn run(args: &[String]) -> ExitCode {
    let Some(cmd) = args.first() else {
        return crate::usi::run_stdio();
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "perft" => cmd_perft(rest),
        "moves" => cmd_moves(rest),
        "solve" => crate::mate::cli::cmd_solve(rest),
        "bench" => crate::bench::cmd_bench(rest),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        other => usage_error(&format!("unknown subcommand '{other}'")),
    }
}

fn parse_position(args: &Args) -> Result<Position, String> {
    match args.get("sfen") {
        None => Ok(Position::startpos()),
        Some(s) => Position::from_sfen(s).map_err(|e| format!("bad SFEN: {e}")),
    }
}

fn cmd_perft(rest: &[String]) -> ExitCode {
    let args = match parse_args(rest, &[]) {
        Ok(a) => a,
        Err(e) => return usage_error(&e),
    };
    if let Err(e) = args.check_known(&["sfen"]) {
        return usage_error(&e);
    }
    if args.positional.len() != 1 {
        return usage_error("perft needs exactly one <depth>");
    }
    let depth: u32 = match args.positional[0].parse() {
        Ok(d) if (1..=12).contains(&d) => d,
        _ => return usage_error("perft depth must be an integer from 1 to 12"),
    };
    let mut pos = match parse_position(&args) {
        Ok(p) => p,
        Err(e) => return usage_error(&e),
    };
    let start = Instant::now();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut root: Vec<(String, u64)> = Vec::with_capacity(list.len());
    let mut total = 0;
    let out = std::io::stdout();
    let mut out = out.lock();
    for &m in list.as_slice() {
        pos.do_move(m);
        let n = perft(&mut pos, depth - 1);
        pos.undo_move();
        total += n;
        root.push((m.to_string(), n));
    }
    root.sort();
    for (m, n) in &root {
        let _ = writeln!(out, "{m} {n}");
    }
    let ms = start.elapsed().as_millis();
    let nps = (total as f64 / start.elapsed().as_secs_f64().max(1e-9)) as u64;
    let _ = writeln!(out, "nodes {total} time_ms {ms} nps {nps}");
    ExitCode::SUCCESS
}

fn cmd_moves(rest: &[String]) -> ExitCode {
    let args = match parse_args(rest, &[]) {
        Ok(a) => a,
        Err(e) => return usage_error(&e),
    };
    if let Err(e) = args.check_known(&["sfen", "kind"]) {
        return usage_error(&e);
    }
    if !args.positional.is_empty() {
        return usage_error(&format!(
            "unexpected argument '{}' (give the position with --sfen)",
            args.positional[0]
        ));
    }
    if args.get("sfen").is_none() {
        return usage_error("moves needs --sfen <SFEN>");
    }
    let pos = match parse_position(&args) {
        Ok(p) => p,
        Err(e) => return usage_error(&e),
    };
    let mut list = MoveList::new();
    match args.get("kind").unwrap_or("legal") {
        "legal" => pos.legal_moves(&mut list),
        "checks" => pos.check_moves(&mut list),
        "evasions" => {
            if !pos.in_check() {
                return usage_error("evasions: the side to move is not in check");
            }
            pos.legal_moves(&mut list)
        }
        k => return usage_error(&format!("unknown --kind '{k}' (legal, checks or evasions)")),
    }
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    println!("{}", v.join(" "));
    ExitCode::SUCCESS
}
