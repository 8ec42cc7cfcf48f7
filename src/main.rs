//! The `tsumugi` binary: the USI engine (no arguments) and subcommands for people and scripts.

use std::process::ExitCode;
use tsumugi::cli;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    cli::run(&args)
}
