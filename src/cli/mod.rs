//! The command line: what the `tsumugi` binary does with its arguments. No arguments runs the
//! USI engine ([`crate::usi`]); a first word names a subcommand for people and scripts.
//!
//! Results go to stdout, diagnostics and usage to stderr; bad arguments print one line of error
//! and a hint, and exit with status 2. `--help` (or `-h`) works on every subcommand. Output to a
//! closed pipe (`tsumugi bench | head -1`) ends the process quietly with status 0.
//!
//! * [`args`]: splitting arguments into options and words, usage errors, exit codes.
//! * [`output`]: writing result and diagnostic lines (the closed-pipe rule).
//! * [`solve`]: `tsumugi solve`, one position solved and explained.
//! * [`bench`](mod@bench): `tsumugi bench`, the built-in positions and their node signature.
//! * [`rules`]: `tsumugi perft` and `tsumugi moves`, the move generator from the command line.

pub mod args;
pub mod bench;
pub mod output;
pub mod rules;
pub mod solve;

use args::usage_error;
use output::say;
use std::process::ExitCode;

/// The top-level usage text (`tsumugi help`).
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
  tsumugi bench [--hash-mb M] [--threads N]
                                   solve the built-in positions; deterministic node signature
  tsumugi help                     this text
  A position is a SFEN (one argument, or several words; a leading 'sfen' is allowed) or
  'startpos'; '--sfen <SFEN>' works too.
";

/// Runs the binary with `args` (without the program name): the USI engine when there are none,
/// else the subcommand they name. Returns the process exit status.
pub fn run(args: &[String]) -> ExitCode {
    let Some(cmd) = args.first() else {
        return crate::usi::run_stdio();
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "perft" => rules::cmd_perft(rest),
        "moves" => rules::cmd_moves(rest),
        "solve" => solve::cmd_solve(rest),
        "bench" => bench::cmd_bench(rest),
        "help" | "--help" | "-h" => {
            say(USAGE.trim_end());
            ExitCode::SUCCESS
        }
        other => usage_error("", &format!("unknown subcommand '{other}'")),
    }
}
