//! An answer written for people and programs: Japanese, KIF, CSA or one JSON object (the USI
//! reply itself is [`crate::usi::checkmate_reply`]).

use crate::cli::args::OutFormat;
use crate::mate::{Outcome, SearchResult, UnknownReason};
use crate::record::{csa, kif};
use crate::shogi::notation::japanese_line;
use crate::shogi::Position;
use crate::usi::checkmate_reply;

/// The answer in `format` (not `usi`): Japanese, KIF, CSA or one JSON object. `line_no` is the
/// batch input's line.
pub fn answer_text(
    format: OutFormat,
    input: &str,
    line_no: Option<usize>,
    pos: &Position,
    r: &SearchResult,
) -> String {
    let line: &[crate::shogi::Move] = match &r.outcome {
        Outcome::Mate(l) => l,
        _ => &[],
    };
    let mated = matches!(r.outcome, Outcome::Mate(_));
    match format {
        OutFormat::Usi => checkmate_reply(&r.outcome).to_string(),
        OutFormat::Ja => ja_text(pos, r),
        OutFormat::Kif | OutFormat::Kifu => {
            kif::write(pos, line, mated.then_some("詰み"), &r.record_comments())
        }
        OutFormat::Csa => csa::write(pos, line, mated.then_some("%TSUMI"), &r.record_comments()),
        OutFormat::Json => json_answer(input, line_no, pos, r).to_string(),
    }
}

/// Writes an answer's `text` on stdout, a line: in Shift_JIS for `kif` (a .kif's encoding by
/// the format's definition), else as UTF-8.
pub fn write_answer(format: OutFormat, text: &str) {
    if format == OutFormat::Kif {
        crate::cli::output::say_bytes(&kif::encode(&format!("{text}\n"), false));
    } else {
        crate::cli::output::say(text);
    }
}

/// The answer in Japanese: the line and `まで<n>手で詰み`, `不詰`, or `未解決`.
pub fn ja_text(pos: &Position, r: &SearchResult) -> String {
    match &r.outcome {
        Outcome::Mate(l) if l.is_empty() => "詰み (手番側がすでに詰んでいる)".into(),
        Outcome::Mate(l) => {
            let mut text = format!("{} まで{}手で詰み", japanese_line(pos, l), l.len());
            // A composed line's length is the composers' count: said so, with the strict one.
            if let Some((_, ja)) = r.status.as_ref().and_then(|s| s.count_note()) {
                text.push_str(&format!(" ({ja})"));
            }
            text
        }
        Outcome::NoMate => "不詰 (詰みがないことを証明済み)".into(),
        Outcome::Unknown(UnknownReason::NoMateWithin(n)) => {
            format!("{n}手以内の詰みなし (証明済み。{n}手より長い詰みは探していない)")
        }
        Outcome::Unknown(why) => format!("未解決 ({})", why.japanese()),
    }
}

/// One JSON object for an answer: the input, its line in a batch file, the position, the
/// result (`mate`, `nomate`, `no_mate_within` with `max_plies`, `unknown`), the line in USI and Japanese, its length, what is
/// proven about it, nodes and time.
pub fn json_answer(
    input: &str,
    line_no: Option<usize>,
    pos: &Position,
    r: &SearchResult,
) -> serde_json::Value {
    use serde_json::json;
    let mut o = json!({
        "input": input,
        "sfen": pos.to_sfen(),
        "nodes": r.stats.nodes,
        "time_ms": r.stats.time.as_millis() as u64,
        "defender_root": r.defender_root,
    });
    if let Some(n) = line_no {
        o["line"] = json!(n);
    }
    o["result"] = json!(result_word(&r.outcome));
    match &r.outcome {
        Outcome::Mate(l) => {
            o["moves"] = json!(l
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" "));
            o["moves_ja"] = json!(japanese_line(pos, l));
            o["length"] = json!(l.len());
            if let Some(s) = &r.status {
                // `length` is the line's own; the two counts apart, each named.
                o["counting"] = json!(if s.composed() { "composer" } else { "strict" });
                o["composer_length"] = json!(s.composer_len);
                o["strict_length"] = json!(s.line_len);
                o["minimal"] = json!(s.minimal());
                o["longest_defences"] = json!(s.longest_defences);
                o["mate_upper"] = json!(s.upper);
                o["mate_lower"] = json!(s.lower);
                o["status"] = json!(s.describe());
            }
        }
        Outcome::NoMate => {}
        Outcome::Unknown(why @ UnknownReason::NoMateWithin(n)) => {
            o["max_plies"] = json!(n);
            o["reason"] = json!(why.to_string());
        }
        Outcome::Unknown(why) => {
            o["reason"] = json!(why.to_string());
        }
    }
    o
}

/// The `result` of an answer's JSON object: `mate`, `nomate`, `no_mate_within` (with
/// `max_plies`) or `unknown`. A batch counts its answers by this word.
pub fn result_word(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Mate(_) => "mate",
        Outcome::NoMate => "nomate",
        // Proven, but only up to the limit: neither "nomate" nor a mere "unknown".
        Outcome::Unknown(UnknownReason::NoMateWithin(_)) => "no_mate_within",
        Outcome::Unknown(_) => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::SearchResult;

    /// `--format ja` is Japanese throughout: no English words in any outcome's text (USI
    /// moves aside, which `ja_text` does not write).
    #[test]
    fn japanese_answers_hold_no_english() {
        let pos = Position::from_sfen("9/3k5/9/3P5/9/9/9/9/9 b G2r2b4s4n4l17p 1").unwrap();
        let mut outcomes = vec![Outcome::NoMate, Outcome::Mate(vec![])];
        for why in [
            UnknownReason::Stopped,
            UnknownReason::Time,
            UnknownReason::Nodes,
            UnknownReason::Unverified("a gap".into()),
            UnknownReason::NoMateWithin(7),
        ] {
            outcomes.push(Outcome::Unknown(why));
        }
        for o in outcomes {
            let mut r = SearchResult::unknown(UnknownReason::Stopped);
            r.outcome = o.clone();
            let text = ja_text(&pos, &r);
            assert!(
                !text.chars().any(|c| c.is_ascii_alphabetic()),
                "{o:?}: {text}"
            );
        }
    }
}
