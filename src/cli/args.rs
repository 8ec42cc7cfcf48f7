//! Command-line arguments: splitting them into `--flag value` options, switches and positional
//! words, reading a position from them the same way in every subcommand, and the usage errors
//! and exit status that bad arguments get.

use super::output::note;
use crate::shogi::Position;
use std::process::ExitCode;

/// Exit code for bad input or bad arguments.
pub const EXIT_USAGE: u8 = 2;

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
    /// The words that are neither options nor their values, in order.
    pub positional: Vec<String>,
    /// `(name, value)` of each `--name value`, in order (a repeated option appears twice).
    pub options: Vec<(String, String)>,
    /// The switches given (`--name` without a value), by name.
    pub switches: Vec<String>,
}

/// Splits `args` into [`Args`]; `switches` names the flags that take no value. `Err` holds the
/// message for a usage error (an option without its value).
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
    /// The value of option `name` (the last one when it is repeated).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether switch `name` was given.
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

    /// The value of option `name` as a number (`None` when absent); `Err` names the option and
    /// the text that is not a number.
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
