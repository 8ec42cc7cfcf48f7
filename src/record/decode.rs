//! Text encodings of problem files: UTF-8 (with or without a byte-order mark), else
//! Shift_JIS/CP932, which Kifu for Windows and older KIF files use. The WHATWG Shift_JIS
//! decoder of `encoding_rs` is CP932 (Microsoft's Shift_JIS, with its extensions).

use super::RecordError;

/// The text of `bytes`: UTF-8 when they are valid UTF-8 (a BOM is dropped), else Shift_JIS.
/// `Err` names the first line that is neither.
pub fn decode(bytes: &[u8]) -> Result<String, RecordError> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok(s.to_string());
    }
    let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
    if !had_errors {
        return Ok(text.into_owned());
    }
    // The first line that decodes in neither encoding.
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let bad_utf8 = std::str::from_utf8(line).is_err();
        let (_, bad_sjis) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(line);
        if bad_utf8 && bad_sjis {
            return Err(RecordError::new(
                i + 1,
                "not text: neither UTF-8 nor Shift_JIS (CP932)",
            ));
        }
    }
    Err(RecordError::new(
        0,
        "not text: neither UTF-8 nor Shift_JIS (CP932)",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_bom_and_shift_jis() {
        assert_eq!(decode("先手".as_bytes()).unwrap(), "先手");
        assert_eq!(decode(b"\xef\xbb\xbfabc").unwrap(), "abc");
        // 先手の持駒：なし in Shift_JIS.
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("先手の持駒：なし\n");
        assert_eq!(decode(&sjis).unwrap(), "先手の持駒：なし\n");
        let e = decode(b"ok\n\xff\xff\xff\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
    }
}
