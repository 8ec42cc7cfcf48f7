//! The `tsumugi` binary: the USI engine (no arguments) and subcommands for people and scripts.

use std::process::ExitCode;
use tsumugi::cli;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // Windows passes arguments as UTF-16 (Japanese file names arrive intact); a Unix file name
    // may be bytes in another encoding (Shift_JIS), which `std::env::args` would panic on.
    let mut args = Vec::new();
    for (i, a) in std::env::args_os().skip(1).enumerate() {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(raw) => {
                eprintln!(
                    "error: argument {} ('{}') is not valid Unicode; rename the file or pass it \
                     on standard input ('-')",
                    i + 1,
                    raw.to_string_lossy()
                );
                return ExitCode::from(cli::args::EXIT_USAGE);
            }
        }
    }
    cli::run(&args)
}
