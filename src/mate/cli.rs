//! `tsumugi solve` (in progress).
use std::process::ExitCode;
pub fn cmd_solve(_rest: &[String]) -> ExitCode {
    ExitCode::from(2)
}
