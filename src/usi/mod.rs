//! USI protocol (in progress).
use std::process::ExitCode;
pub fn run_stdio() -> ExitCode {
    ExitCode::SUCCESS
}
