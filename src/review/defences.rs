//! The defence questions: at each defender ply of the main line, how long every legal evasion
//! lasts (composer count), and what that says of the line's own defence: a longer defence
//! (早詰 of the line) or an escape (不詰), 変同 (as long), the 駒余り tie-break (as long, fewer
//! spare pieces left to the attacker), a useless interposition (無駄合, not a defence), or a
//! shorter variation (asked again for 変化別詰).

use super::budget::{exact_mate, Checker};
use super::report::{pieces_en, plies};
use super::report::{Finding, FindingKind, Undecided};
use super::solution::spare_after;
use super::useless::useless;
use super::Question;
use crate::mate::{Outcome, PostSearch};
use crate::shogi::{Color, Move, Position};
use std::time::Duration;

/// How long one evasion lasts: its ply on the main line, the evasion, and the engine's composer
/// line after it (`None`: no mate after it, proven).
pub(super) struct Defence {
    ply: usize,
    evasion: Move,
    line: Option<Vec<Move>>,
}

/// A shorter variation one level off the main line: the ply, the evasion, and the shortest
/// line after it (asked again for 変化別詰).
pub(super) type Variation = (usize, Move, Vec<Move>);

/// The defence question `q` (the evasion `q.alt` at `p`, giving `next`): solves `next` within
/// `share` and records how long it lasts in `lengths`, or what left it undecided.
pub(super) fn measure(
    c: &mut Checker,
    (p, next): (&Position, &Position),
    q: &Question,
    share: Option<Duration>,
    lengths: &mut Vec<Defence>,
) {
    let r = c.solve(next, share, None, PostSearch::Composer);
    let line = match (&r.outcome, exact_mate(&r)) {
        (_, Some(l)) => Some(l),
        (Outcome::NoMate, _) => None,
        (Outcome::Mate(_), None) | (Outcome::Unknown(_), _) => {
            let (why, why_ja) = match &r.outcome {
                Outcome::Unknown(w) => (w.to_string(), w.japanese()),
                _ => (
                    "shortest mate not proven".into(),
                    "最短の詰みを証明できず".into(),
                ),
            };
            c.report.undecided.push(Undecided::new(
                q.ply,
                p,
                &[q.alt],
                &format!("how long this defence lasts: {why}"),
                &format!("この応手で何手かかるか: {why_ja}"),
            ));
            return;
        }
    };
    lengths.push(Defence {
        ply: q.ply,
        evasion: q.alt,
        line,
    });
}

/// Judges every defender ply of `line` (positions `along`) by the measured `lengths`; returns
/// the shorter variations worth asking for 変化別詰 (when `variations`).
pub(super) fn judge(
    c: &mut Checker,
    along: &[Position],
    line: &[Move],
    lengths: &[Defence],
    variations: bool,
) -> Vec<Variation> {
    let attacker = along[0].side_to_move();
    let mut var_questions = vec![];
    for ply in (1..line.len()).step_by(2) {
        let here: Vec<&Defence> = lengths.iter().filter(|d| d.ply == ply).collect();
        judge_ply(
            c,
            (ply, &along[ply]),
            line[ply],
            &here,
            attacker,
            variations,
            &mut var_questions,
        );
    }
    var_questions
}

/// The defences `here` at one defender ply (`ply`, position `p`, the line's defence `own`)
/// against the line's own.
fn judge_ply(
    c: &mut Checker,
    (ply, p): (usize, &Position),
    own: Move,
    here: &[&Defence],
    attacker: Color,
    variations: bool,
    var_questions: &mut Vec<Variation>,
) {
    let Some(main) = here.iter().find(|d| d.evasion == own) else {
        return;
    };
    let Some(main_line) = &main.line else {
        c.report.add(Finding::new(
            FindingKind::NoMate,
            ply,
            p,
            &[own],
            "the line's own defence has no mate (proven)",
            "本手順の応手で不詰 (証明済み)",
        ));
        return;
    };
    let main_len = main_line.len();
    let main_full: Vec<Move> = std::iter::once(own)
        .chain(main_line.iter().copied())
        .collect();
    let main_spare = spare_after(p, &main_full, attacker);
    for d in here.iter().filter(|d| d.evasion != own) {
        let Some(l) = &d.line else {
            c.report.add(Finding::new(
                FindingKind::NoMate,
                ply,
                p,
                &[d.evasion],
                "this defence escapes: no mate after it (proven)",
                "この応手で逃れ: 以下不詰 (証明済み)",
            ));
            continue;
        };
        let full: Vec<Move> = std::iter::once(d.evasion)
            .chain(l.iter().copied())
            .collect();
        if l.len() >= main_len && !counts_as_defence(c, ply, p, &full, main_len) {
            continue;
        }
        if l.len() > main_len {
            c.report.add(Finding::new(
                FindingKind::LongerDefence,
                ply,
                p,
                &full,
                &format!(
                    "lasts {} from here where the line's defence lasts {} (早詰 of the line)",
                    plies(full.len()),
                    main_len + 1
                ),
                &format!(
                    "ここから{}手かかる。本手順の応手は{}手 (本手順は早詰)",
                    full.len(),
                    main_len + 1
                ),
            ));
        } else if l.len() == main_len {
            as_long(c, ply, p, &full, main_spare, attacker);
        } else if variations && l.len() >= 3 {
            var_questions.push((ply, d.evasion, l.clone()));
        }
    }
}

/// Whether a defence `full` at least as long as the line's own (`main_len` plies after it) is
/// one: not a useless interposition (counted in the report), nor one whose 無駄合 question was
/// left open (reported undecided).
fn counts_as_defence(
    c: &mut Checker,
    ply: usize,
    p: &Position,
    full: &[Move],
    main_len: usize,
) -> bool {
    match useless(c, p, full, main_len + 1) {
        Some(true) => {
            c.report.useless_interpositions += 1;
            false
        }
        Some(false) => true,
        None => {
            c.report.undecided.push(Undecided::new(
                ply,
                p,
                full,
                "whether this interposition is useless (無駄合) was not decided",
                "この合駒が無駄合かは未確定",
            ));
            false
        }
    }
}

/// A defence `full` as long as the line's own: the defender's better choice when it leaves the
/// attacker fewer spare pieces than the line's `main_spare` (駒余り rule), else 変同.
fn as_long(
    c: &mut Checker,
    ply: usize,
    p: &Position,
    full: &[Move],
    main_spare: u32,
    attacker: Color,
) {
    let spare = spare_after(p, full, attacker);
    if spare < main_spare {
        c.report.add(Finding::new(
            FindingKind::FewerSpareDefence,
            ply,
            p,
            full,
            &format!(
                "as long as the line's defence and leaves {} \
                 where the line leaves {main_spare}: the defender's choice (駒余り rule)",
                pieces_en(spare)
            ),
            &format!(
                "本手順の応手と同手数で、攻方の持駒の余りが{spare}枚 (本手順は{main_spare}枚): \
                 玉方はこちらを選ぶ (駒余りの規則)"
            ),
        ));
    } else {
        c.report.add(Finding::new(
            FindingKind::EqualVariation,
            ply,
            p,
            full,
            &format!(
                "as long as the line's defence ({} from here): 変同",
                plies(full.len())
            ),
            &format!("本手順の応手と同手数 (ここから{}手): 変同", full.len()),
        ));
    }
}
