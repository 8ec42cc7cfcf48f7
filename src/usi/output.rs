//! The engine's output: the one writer of every line the engine sends (made printable ASCII,
//! see [`sanitize`], and flushed line by line), kept behind one lock with the record of the
//! running search. Writing a search's answer and ending its record happen in one critical
//! section, so a `go` that arrives right after a `checkmate` line always finds the engine idle.

use std::borrow::Cow;
use std::io::Write;

/// Longest `info string` text, in characters (messages may quote user input).
pub(super) const INFO_STRING_MAX: usize = 400;

/// The search that is running, or finished but still holding its answer.
#[derive(Debug)]
pub(super) struct Active {
    /// `go ponder` / `go infinite`: the answer waits for `stop` or `ponderhit`.
    pub(super) hold: bool,
    /// The answer of a finished search whose answer is held.
    pub(super) pending: Option<String>,
}

/// The output and the search record, behind one lock.
pub(super) struct Io<W> {
    out: W,
    /// The search that owes an answer (`None`: idle).
    pub(super) active: Option<Active>,
    /// A write failed already (it is logged once).
    write_failed: bool,
}

impl<W: Write> Io<W> {
    /// An idle engine's output to `out`.
    pub(super) fn new(out: W) -> Io<W> {
        Io {
            out,
            active: None,
            write_failed: false,
        }
    }

    /// Writes one line (ASCII only, see [`sanitize`]) and flushes it.
    pub(super) fn line(&mut self, text: &str) {
        let text = sanitize(text);
        log::debug!("> {text}");
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        let r = self.out.write_all(&bytes).and_then(|_| self.out.flush());
        if let Err(e) = r {
            if !self.write_failed {
                log::warn!("cannot write to the output: {e}");
                self.write_failed = true;
            }
        }
    }

    /// Writes `info string <text>`, the text clipped to [`INFO_STRING_MAX`] characters.
    pub(super) fn info_string(&mut self, text: &str) {
        let text = clip(text, INFO_STRING_MAX);
        self.line(&format!("info string {text}"));
    }
}

/// Makes a line safe for any client: printable ASCII is kept, everything else (control
/// characters, a stray `\r`, non-ASCII) is escaped, so a line can neither be split in two nor
/// trip a client that decodes the output as ASCII or Shift_JIS.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if (' '..='~').contains(&c) {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    Cow::Owned(out)
}

/// `s` cut to `max` characters, with `...` when it was longer (for quoting user input).
pub(super) fn clip(s: &str, max: usize) -> Cow<'_, str> {
    if s.chars().count() <= max {
        Cow::Borrowed(s)
    } else {
        let head: String = s.chars().take(max).collect();
        Cow::Owned(format!("{head}..."))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_escapes_everything_but_printable_ascii() {
        assert_eq!(sanitize("checkmate G*5b"), "checkmate G*5b");
        assert_eq!(sanitize("a\rb\nc\u{0}"), "a\\rb\\nc\\u{0}");
        assert_eq!(sanitize("日"), "\\u{65e5}");
    }
}
