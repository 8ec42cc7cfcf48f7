//! The command line: what the `tsumugi` binary does with its arguments. No arguments runs the
//! USI engine ([`crate::usi`]); a first word names a subcommand for people and scripts.
//!
//! Results go to stdout, diagnostics and usage to stderr; bad arguments print one line of error
//! and a hint, and exit with status 2. `--help` (or `-h`) works on every subcommand. Output to a
//! closed pipe (`tsumugi bench | head -1`) ends the process quietly with status 0.
//!
//! Layers, each file importing only from those above it (no command imports another):
//!
//! * [`output`]: writing result and diagnostic lines (the closed-pipe rule). Imports nothing.
//! * [`args`]: the grammar (clap): subcommands, options, help, usage errors, exit codes.
//!   Imports `output` (and `mate::hash_size` for the table sizes), no command.
//! * [`kit`]: what the commands share: the stop flag and Ctrl-C, reading a position, limits and
//!   solvers from the options, answers as Japanese/KIF/CSA/JSON. Imports `args`, `output`.
//! * the commands, each importing `kit`, `args` and `output` only:
//! * [`solve`]: `tsumugi solve`, one position (SFEN or a problem file) solved and explained,
//!   written as `--format` asks.
//! * [`batch`]: `tsumugi solve --batch`, many positions on every core, JSON lines out,
//!   resumable and shardable (dispatched by [`run`], beside `solve`).
//! * [`bench`](mod@bench): `tsumugi bench`, the built-in positions and their node signature.
//! * [`rules`]: `tsumugi perft` and `tsumugi moves`, the move generator from the command line.
//! * [`check`](mod@check): `tsumugi check`, a composed problem checked (余詰, defences).
//! * [`kikazu`](mod@kikazu): `tsumugi kikazu`, the 利かずの駒並べ puzzle.
//!
//! This file routes the parsed arguments to the commands and imports `args` and the commands.

pub mod args;
#[cfg(not(target_arch = "wasm32"))]
pub mod batch;
pub mod bench;
pub mod check;
pub mod kikazu;
pub mod kit;
pub mod output;
pub mod rules;
pub mod solve;

use args::Command;
use std::process::ExitCode;

/// Runs the binary with `args` (without the program name): the USI engine when there are none,
/// else the subcommand they name. Returns the process exit status.
pub fn run(args: &[String]) -> ExitCode {
    // Choose the slider lookup (PEXT or the obstruction difference) once, before any search.
    crate::shogi::attacks::slider_path();
    if args.is_empty() {
        return crate::usi::run_stdio();
    }
    let cli = match args::parse(args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    match cli.command {
        None => crate::usi::run_stdio(),
        Some(Command::Solve(a)) => {
            // `--batch` is a command of its own that shares `solve`'s options.
            #[cfg(not(target_arch = "wasm32"))]
            if a.batch.is_some() {
                return batch::run(a);
            }
            solve::cmd_solve(a)
        }
        Some(Command::Perft(a)) => rules::cmd_perft(a),
        Some(Command::Moves(a)) => rules::cmd_moves(a),
        Some(Command::Bench(a)) => bench::cmd_bench(a),
        Some(Command::Kikazu(a)) => kikazu::cmd_kikazu(a),
        Some(Command::Check(a)) => check::cmd_check(a),
    }
}
