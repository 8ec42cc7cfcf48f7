//! Output lines of the subcommands: results on stdout ([`say`]), diagnostics on stderr
//! ([`note`]), each flushed; a reader that closes the pipe early ends the process quietly.

use std::fmt::Display;
use std::io::Write;

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

/// Writes `bytes` to stdout as they are (a Shift_JIS `.kif`), as [`say`] does a line.
pub fn say_bytes(bytes: &[u8]) {
    let mut out = std::io::stdout().lock();
    let r = out.write_all(bytes).and_then(|_| out.flush());
    if let Err(e) = r {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

fn write_line(w: &mut dyn Write, text: impl Display) {
    let r = writeln!(w, "{text}").and_then(|_| w.flush());
    if let Err(e) = r {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}
