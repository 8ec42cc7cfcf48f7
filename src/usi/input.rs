//! The input side: a reader thread that turns a byte stream into lines for the engine loop.
//!
//! Input is read as bytes, so invalid UTF-8 cannot stop it (it is converted lossily). A line is
//! kept up to [`MAX_LINE_BYTES`]; the rest of an over-long line is read and dropped without being
//! stored, so memory stays bounded whatever arrives, and the engine is told the line was too
//! long instead of acting on a truncated command. End of input, or a read error, ends the
//! stream with [`Input::Eof`], which the engine treats as `quit`.

use crossbeam_channel::Sender;
use std::io::{self, BufRead};

/// Longest accepted line in bytes (without its terminator). A `position` with a 1500-ply move
/// list is about 10 KB.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What the reader thread sends to the engine loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// One line without its `\n` / `\r\n`, lossily decoded.
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`] (its length in bytes, and its first word, which
    /// says what it was meant to do: a dropped `position` must not leave the old one in force);
    /// it was dropped.
    TooLong(usize, String),
    /// End of input (or a read error): the engine quits.
    Eof,
}

/// Reads one line into `buf` (without the `\n`), storing at most `cap` bytes of it. Returns
/// `Ok(None)` at end of input with nothing read, else the full length of the line in bytes,
/// which exceeds `cap` when the stored part was truncated.
pub fn read_line_capped<R: BufRead + ?Sized>(
    r: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(any.then_some(total));
        }
        any = true;
        let (chunk, used, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], i + 1, true),
            None => (avail, avail.len(), false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        total = total.saturating_add(chunk.len());
        r.consume(used);
        if done {
            return Ok(Some(total));
        }
    }
}

/// Turns the raw bytes of a line (without its `\n`; `total` bytes long, of which `buf` holds
/// the first) into an [`Input`].
pub(super) fn to_input(buf: &[u8], total: usize) -> Input {
    if total > MAX_LINE_BYTES {
        let head = &buf[..buf.len().min(64)];
        let word = String::from_utf8_lossy(head)
            .split_ascii_whitespace()
            .next()
            .unwrap_or("")
            .to_string();
        return Input::TooLong(total, word);
    }
    let bytes = buf.strip_suffix(b"\r").unwrap_or(buf);
    Input::Line(String::from_utf8_lossy(bytes).into_owned())
}

/// Reads `r` to the end, sending one [`Input`] per line, then [`Input::Eof`]. Returns early if
/// the engine has gone (the channel is closed).
pub fn pump<R: BufRead>(mut r: R, tx: &Sender<Input>) {
    let mut buf = Vec::with_capacity(256);
    loop {
        match read_line_capped(&mut r, &mut buf, MAX_LINE_BYTES) {
            Ok(Some(total)) => {
                if tx.send(to_input(&buf, total)).is_err() {
                    return;
                }
                // Do not keep a 64 KiB buffer around after one long line.
                if buf.capacity() > 4096 {
                    buf = Vec::with_capacity(256);
                }
            }
            Ok(None) => break,
            Err(e) => {
                log::warn!("reading input failed, treating it as end of input: {e}");
                break;
            }
        }
    }
    let _ = tx.send(Input::Eof);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    fn lines(data: &[u8], cap: usize, bufsize: usize) -> Vec<(Vec<u8>, usize)> {
        let mut r = BufReader::with_capacity(bufsize, Cursor::new(data.to_vec()));
        let mut out = vec![];
        let mut buf = vec![];
        while let Some(n) = read_line_capped(&mut r, &mut buf, cap).unwrap() {
            assert!(buf.len() <= cap);
            out.push((buf.clone(), n));
        }
        out
    }

    #[test]
    fn splits_and_caps() {
        for bufsize in [1, 2, 3, 7, 8192] {
            let got = lines(b"usi\nisready\r\n\nabcdefghij\nlast", 5, bufsize);
            let want: Vec<(Vec<u8>, usize)> = vec![
                (b"usi".to_vec(), 3),
                (b"isrea".to_vec(), 8),
                (vec![], 0),
                (b"abcde".to_vec(), 10),
                (b"last".to_vec(), 4),
            ];
            assert_eq!(got, want, "bufsize {bufsize}");
        }
        assert!(lines(b"", 5, 8).is_empty());
    }

    #[test]
    fn pump_sends_lines_too_long_and_eof() {
        let mut data = b"usi\r\n\xff\xfeok\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 1));
        data.extend_from_slice(b"\nquit");
        let (tx, rx) = crossbeam_channel::unbounded();
        pump(Cursor::new(data), &tx);
        let got: Vec<Input> = rx.try_iter().collect();
        assert_eq!(
            got,
            vec![
                Input::Line("usi".into()),
                Input::Line("\u{FFFD}\u{FFFD}ok".into()),
                Input::TooLong(MAX_LINE_BYTES + 1, "x".repeat(64)),
                Input::Line("quit".into()),
                Input::Eof,
            ]
        );
    }

    #[test]
    fn exactly_max_is_accepted() {
        let mut data = vec![b'a'; MAX_LINE_BYTES];
        data.push(b'\n');
        let (tx, rx) = crossbeam_channel::unbounded();
        pump(Cursor::new(data), &tx);
        match rx.recv().unwrap() {
            Input::Line(l) => assert_eq!(l.len(), MAX_LINE_BYTES),
            other => panic!("{other:?}"),
        }
    }
}
