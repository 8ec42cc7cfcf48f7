//! Reading the one position of a command: SFEN words (with `moves`), `startpos`, a problem file
//! (SFEN, KIF/KI2, CSA; UTF-8 or Shift_JIS, read by [`crate::record`]) or standard input.

use crate::cli::args::clip_word;
use crate::record;
use crate::shogi::Position;
use std::path::Path;

/// Reads the position of `words` (positional arguments) or `sfen` (`--sfen`): SFEN words
/// (with `moves`), `startpos`, a file, or `-` for standard input. `Err` is the message.
pub fn read_position(words: &[String], sfen: &Option<Vec<String>>) -> Result<Position, String> {
    if let Some(s) = sfen {
        return record::sfen::read_line(&s.join(" ")).map(|r| r.position());
    }
    if words.len() == 1 {
        let w = &words[0];
        if w == "-" {
            let mut bytes = vec![];
            std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
                .map_err(|e| format!("standard input: {e}"))?;
            return record::read_bytes(&bytes)
                .map(|r| r.position())
                .map_err(|e| format!("standard input: {e}"));
        }
        if Path::new(w).is_file() {
            return read_file(Path::new(w));
        }
    }
    let text = words.join(" ");
    if !record::sfen::looks_like(&text) {
        if words.len() == 1 {
            let w = clip_word(&text);
            if looks_like_file_name(&text) {
                return Err(if Path::new(&text).exists() {
                    format!("'{w}' is not a file")
                } else {
                    format!("'{w}': file not found")
                });
            }
            return Err(format!("'{w}' is neither a file nor a SFEN"));
        }
        let files: Vec<&String> = words
            .iter()
            .filter(|w| Path::new(w).is_file() || has_record_extension(w))
            .collect();
        if !files.is_empty() {
            return Err(format!(
                "one position at a time, got {} arguments ({}{}); to solve many, list them in a \
                 file, one per line, and use --batch FILE",
                words.len(),
                files
                    .iter()
                    .take(3)
                    .map(|f| format!("'{}'", clip_word(f)))
                    .collect::<Vec<_>>()
                    .join(", "),
                if files.len() > 3 { ", ..." } else { "" }
            ));
        }
    }
    record::sfen::read_line(&text).map(|r| r.position())
}

/// Whether `w` reads as the name of a problem file rather than a SFEN word: a record file's
/// extension, or a path separator in a single word (a SFEN board has its '/' in a word of its
/// own, followed by more words, and is recognised before this is asked).
pub fn looks_like_file_name(w: &str) -> bool {
    has_record_extension(w)
        || ((w.contains('/') || w.contains('\\')) && !w.contains(char::is_whitespace))
}

/// Whether `w` ends in the extension of a problem file (.kif, .kifu, .ki2, .ki2u, .csa, .sfen,
/// .txt; any case).
pub fn has_record_extension(w: &str) -> bool {
    const EXTENSIONS: [&str; 7] = ["kif", "kifu", "ki2", "ki2u", "csa", "sfen", "txt"];
    Path::new(w)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Reads the position of a problem file; `Err` names the file, the line and the reason.
pub fn read_file(path: &Path) -> Result<Position, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    record::read_bytes(&bytes)
        .map(|r| r.position())
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn two_files_are_one_position_at_a_time() {
        let e = read_position(&words("a.kif b.kif"), &None).unwrap_err();
        assert!(
            e.contains("one position at a time") && e.contains("--batch"),
            "{e}"
        );
        assert!(e.contains("'a.kif'") && !e.contains("bad SFEN"), "{e}");
    }

    #[test]
    fn a_missing_file_is_not_found() {
        for name in [
            "nosuchfile.kif",
            "NOSUCH.CSA",
            "dir/nosuchfile",
            "x.sfen",
            "p.txt",
        ] {
            let e = read_position(&words(name), &None).unwrap_err();
            assert!(e.contains("file not found") && e.contains(name), "{e}");
        }
        let e = read_position(&words("garbage"), &None).unwrap_err();
        assert!(e.contains("neither a file nor a SFEN"), "{e}");
        // A SFEN, as one argument or as words, is still a SFEN.
        let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
        assert!(read_position(&[sfen.to_string()], &None).is_ok());
        assert!(read_position(&words(sfen), &None).is_ok());
        assert!(read_position(&words("startpos"), &None).is_ok());
        // A board of the wrong shape is a SFEN error, not a missing file.
        let e = read_position(&words("4k4/9/9/9 b - 1"), &None).unwrap_err();
        assert!(e.contains("bad SFEN"), "{e}");
    }

    #[test]
    fn a_long_argument_is_not_echoed_whole() {
        let e = read_position(&["y".repeat(100_000)], &None).unwrap_err();
        assert!(e.len() < 200, "{}", e.len());
    }
}
