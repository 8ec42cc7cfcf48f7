//! The root's first moves (`mate::first_moves`) written for people and programs: each check
//! with its verdict in English and Japanese, and as a JSON object; the refutations of a
//! position without mate likewise. `tsumugi solve` and the web page write them; the USI
//! engine writes its own lines (`usi::multipv`).

use crate::mate::first_moves::{FirstMove, Verdict};
use crate::mate::MateStatus;
use crate::shogi::notation::japanese_line;
use crate::shogi::{Move, Position};
use serde_json::{json, Value};

/// The moves of a first move's line: the mate, or the check and its refuting defence, or the
/// check alone.
pub fn moves(fm: &FirstMove) -> Vec<Move> {
    match &fm.verdict {
        Verdict::Mate { line, .. } => line.clone(),
        Verdict::NoMate(Some(r)) => vec![fm.mv, r.defence],
        Verdict::NoMate(None) | Verdict::Undecided(_) => vec![fm.mv],
    }
}

fn usi(line: &[Move]) -> String {
    line.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What is proven of a mate's length, in Japanese.
fn status_ja(st: &MateStatus) -> String {
    if st.minimal() {
        format!("{}手詰、最短を証明済み", st.upper)
    } else {
        format!(
            "{}手以内の詰みを証明済み (最短は未証明、{}手以上)",
            st.upper, st.lower
        )
    }
}

/// One line for people: the check, its verdict and the line in Japanese notation.
pub fn text_en(pos: &Position, fm: &FirstMove) -> String {
    let ja = japanese_line(pos, &moves(fm));
    match &fm.verdict {
        Verdict::Mate { status, .. } => {
            format!("{} mates: {} ({ja})", fm.mv, status.describe())
        }
        Verdict::NoMate(Some(r)) => format!(
            "{} does not mate (proven): {}{} refutes it, no mate after it ({ja})",
            fm.mv,
            r.defence,
            if r.only_reply {
                ", the only reply,"
            } else {
                ""
            }
        ),
        Verdict::NoMate(None) => format!("{} does not mate (proven)", fm.mv),
        Verdict::Undecided(why) => format!("{}: undecided ({why})", fm.mv),
    }
}

/// [`text_en`] in Japanese.
pub fn text_ja(pos: &Position, fm: &FirstMove) -> String {
    let ja = japanese_line(pos, &moves(fm));
    match &fm.verdict {
        Verdict::Mate { line, status } => {
            format!("{ja} まで{}手で詰み ({})", line.len(), status_ja(status))
        }
        Verdict::NoMate(Some(r)) => format!(
            "{ja} で詰まない (以下詰みなしを証明済み{})",
            if r.only_reply {
                "、唯一の応手"
            } else {
                ""
            }
        ),
        Verdict::NoMate(None) => format!("{ja} は詰まない (証明済み)"),
        Verdict::Undecided(why) => format!("{ja} は未解決 ({})", why.japanese()),
    }
}

/// One JSON object: `move`, `move_ja`, `result` (`mate`, `nomate`, `unknown`), `moves` (USI)
/// and `moves_ja` (the mate, or the check and its refuting defence), `text` and `text_ja`;
/// with a mate `length`, `mate_upper`, `mate_lower`, `minimal`, `status`; without one
/// `refutation` (the defence, or null), `only_reply`; undecided `reason`; `nodes`, `time_ms`.
pub fn json(pos: &Position, fm: &FirstMove) -> Value {
    let line = moves(fm);
    let mut o = json!({
        "move": fm.mv.to_string(),
        "move_ja": japanese_line(pos, &[fm.mv]),
        "moves": usi(&line),
        "moves_ja": japanese_line(pos, &line),
        "text": text_en(pos, fm),
        "text_ja": text_ja(pos, fm),
        "nodes": fm.stats.nodes,
        "time_ms": fm.stats.time.as_millis() as u64,
    });
    match &fm.verdict {
        Verdict::Mate { line, status } => {
            o["result"] = json!("mate");
            o["length"] = json!(line.len());
            o["mate_upper"] = json!(status.upper);
            o["mate_lower"] = json!(status.lower);
            o["minimal"] = json!(status.minimal());
            o["status"] = json!(status.describe());
        }
        Verdict::NoMate(r) => {
            o["result"] = json!("nomate");
            o["refutation"] = json!(r.map(|r| r.defence.to_string()));
            o["only_reply"] = json!(r.is_some_and(|r| r.only_reply));
        }
        Verdict::Undecided(why) => {
            o["result"] = json!("unknown");
            o["reason"] = json!(why.to_string());
        }
    }
    o
}

/// The heading of a position's refutations, in English and Japanese.
pub fn refutations_heading(n: usize) -> (String, String) {
    if n == 0 {
        (
            "no mate: the side to move has no check".into(),
            "不詰: 王手がない".into(),
        )
    } else {
        (
            format!(
                "no mate: each of the {n} checks is refuted by a defence after which there is \
                 proven to be no mate"
            ),
            format!("不詰: {n}通りの王手それぞれに、以下詰みなしを証明済みの応手がある"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::first_moves::Refutation;
    use crate::mate::{Stats, UnknownReason};

    fn pos() -> Position {
        Position::from_sfen("8k/9/7G1/9/9/9/9/9/9 b G 1").unwrap()
    }

    fn fm(mv: &str, verdict: Verdict) -> FirstMove {
        FirstMove {
            mv: Move::from_usi(mv).unwrap(),
            verdict,
            stats: Stats::default(),
        }
    }

    #[test]
    fn each_verdict_in_words_and_json() {
        let p = pos();
        let mate = fm(
            "G*2b",
            Verdict::Mate {
                line: vec![Move::from_usi("G*2b").unwrap()],
                status: MateStatus {
                    upper: 1,
                    lower: 1,
                    longest_defences: true,
                    line_len: 1,
                    composer_len: None,
                },
            },
        );
        let o = json(&p, &mate);
        assert_eq!(
            (o["result"].as_str(), o["length"].as_u64()),
            (Some("mate"), Some(1))
        );
        assert_eq!(o["minimal"], json!(true));
        assert!(text_ja(&p, &mate).contains("まで1手で詰み (1手詰、最短を証明済み)"));
        let refuted = fm(
            "2c1b",
            Verdict::NoMate(Some(Refutation {
                defence: Move::from_usi("1a1b").unwrap(),
                only_reply: true,
            })),
        );
        let o = json(&p, &refuted);
        assert_eq!(o["moves"], json!("2c1b 1a1b"));
        assert_eq!(o["refutation"], json!("1a1b"));
        assert!(
            text_en(&p, &refuted).starts_with("2c1b does not mate (proven): 1a1b, the only reply,")
        );
        assert!(
            text_ja(&p, &refuted).contains("同玉"),
            "{}",
            text_ja(&p, &refuted)
        );
        let open = fm("G*2a", Verdict::Undecided(UnknownReason::Time));
        assert_eq!(json(&p, &open)["result"], json!("unknown"));
        assert!(!text_ja(&p, &open).chars().any(|c| c.is_ascii_alphabetic()));
    }
}
