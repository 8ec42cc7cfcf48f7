//! Checking a composed mate problem (作品検討): is the intended line the only solution, does
//! every defence on it last longest, are spare pieces left, what do the defender's
//! alternatives one level off the line do. The rules and their sources are in
//! `docs/composer-rules.md`; the convention this code implements is [`CONVENTION`].
//!
//! Every finding comes from a search that proved it; every question a search left open within
//! its share of the time is reported as undecided (never as sound): "undecided is an answer".
//!
//! How the questions are asked (all lengths in plies, counted strictly: every legal defence,
//! useless interpositions included, unless said otherwise):
//! - The problem: the shortest mate from the root (strict bounds), and the composers' line
//!   (`PostSearch::Composer`) when no solution is given, read again with the 無駄合 rule below
//!   (`reread`).
//! - 余詰 at attacker ply i (the main line has `r` plies left there): every other check `c` is
//!   played and the position after it solved with a length limit of `r - 1` plus the plies the
//!   engine's composer count omitted (a mate within `r - 1` is 余詰 in either count; one only
//!   within the larger limit is undecided). A mate whose line passes through a later position
//!   of the main line is a transposition (手順前後 / 迂回) and reported apart; a check that mates
//!   at once where the main line's last move does is 最終手余詰, reported apart (tolerated).
//! - At defender ply i every legal evasion `e` (the line's own included) is solved, its length
//!   taken in composer count (the engine's composer line after it). A useless interposition
//!   (無駄合: `mate::useless_interposition`, the engine's one rule, with its 狭義無駄合 question
//!   asked by search in `useless`: captured at once, the defender is still mated as soon
//!   without the captured piece, chains judged link by link) is not a defence. An evasion that lasts longer than the line's defence (or has no
//!   mate) makes the line's defence wrong (早詰 of the given line, or 不詰); one of equal length
//!   is 変同, and one of equal length that leaves the attacker fewer spare pieces is the better
//!   defence by the 駒余り tie-break.
//! - Questions left open by their share are asked again, up to four passes, with the time the
//!   others left.
//! - 駒余り: attacker pieces in hand at the end of the main line.
//! - 変化別詰: in a shorter variation (an evasion off the main line), another first check of
//!   the attacker that also mates within the variation's length (one level off the line).
//!
//! The files, one concept each: `budget` (the time shared among the questions, and how
//! one is asked), `solution` (the line judged: given, or the engine's read again), `useless`
//! (無駄合 by search), `alternatives` (余詰), `defences` (longest defences, 駒余り, 変同),
//! `variations` (変化別詰), `report` (the answer, text and JSON); this file the public API and
//! the order the questions are asked in.

mod alternatives;
mod budget;
mod defences;
pub mod first_moves;
mod report;
mod solution;
mod useless;
mod variations;

pub use budget::Progress;
pub use report::{Finding, FindingKind, Report, Severity, Undecided, Verdict};
pub use solution::{parse_solution, LineFailure};

use alternatives::{attacker_alternative, Main};
use budget::{Checker, MIN_SHARE};
use defences::Defence;
use report::{pieces_en, plies};
use solution::{ends_in_useless, hand_after, positions, reread, spare_after};
use variations::variation_alternatives;

use crate::mate::{Outcome, PostSearch, Solver};
use crate::shogi::{Color, Move, MoveList, Position};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The convention the check implements, named in every report (see docs/composer-rules.md).
pub const CONVENTION: &str = "tsumugi-check-1: modern 詰将棋 rules (詰将棋パラダイス usage): \
余詰 = another check on a main-line attacker move mating within the remaining length (strict \
count); 最終手余詰 and 手順前後/迂回 reported apart as tolerated; longest defence by composer \
count with 無駄合 not a defence (tsumugi's rule: an interposition captured at once whose piece \
stays spare); among equal lengths the defender avoids 駒余り; 変同 and 変化別詰 are notes";

/// [`CONVENTION`] in Japanese, for the Japanese report.
pub const CONVENTION_JA: &str = "tsumugi-check-1: 現代の詰将棋の規則 (詰将棋パラダイスの慣用): \
余詰 = 本手順の攻方の手で、別の王手が残り手数以内に詰む (すべての合駒を数えて); 最終手余詰と\
手順前後/迂回は許容として別に示す; 玉方の最長の応手は無駄合を応手に数えずに決める (tsumugi の規則: \
すぐに取られ、取った駒が余る合駒は無駄合); 同手数なら玉方は駒余りを避ける; 変同と変化別詰は注";

/// What to check and with what budget.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The intended line from the root (attacker first); `None`: the engine's composer line.
    pub solution: Option<Vec<Move>>,
    /// Wall-clock budget of the whole check, shared among its questions (`None`: no limit,
    /// each question searched until decided).
    pub time: Option<Duration>,
    /// Transposition table size (MB), one table for every question.
    pub hash_mb: usize,
    /// Look for 変化別詰 in the variations (one more search per check in each variation).
    pub variations: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            solution: None,
            time: Some(Duration::from_secs(60)),
            hash_mb: crate::mate::hash_size::DEFAULT_MB,
            variations: true,
        }
    }
}

/// One position to solve, and why.
struct Question {
    /// Ply (0-based) of the main line where the alternative replaces the line's move.
    ply: usize,
    /// The alternative move (or the line's own defence, asked for its length).
    alt: Move,
}

/// Checks the problem `root` (attacker to move) as `opts` asks. `stop` ends it early (what is
/// left is reported undecided). Runs searches: call it on a thread with a large stack
/// (`mate::with_search_stack`), as `Solver::solve` needs.
pub fn check(root: &Position, opts: &CheckOptions, stop: &AtomicBool) -> Report {
    check_with_progress(root, opts, stop, &mut |_| {})
}

/// [`check`], calling `progress` every few seconds with what is done so far.
pub fn check_with_progress(
    root: &Position,
    opts: &CheckOptions,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Report {
    let start = Instant::now();
    let mut c = Checker {
        solver: Solver::new(opts.hash_mb),
        stop,
        start,
        deadline: opts.time.map(|t| start + t),
        report: Report::new(root),
        progress,
        last_progress: start,
    };
    c.solver.set_threads(1);
    let attacker = root.side_to_move();
    if root.king_square(attacker.flip()).is_none() {
        c.report.error = Some("the side not to move has no king: nothing to mate".into());
        c.report.verdict = Verdict::Undecided;
        return c.report;
    }
    // The problem itself: the shortest mate and the composers' line (a quarter of the budget at
    // most; the alternatives need the rest).
    let share = opts.time.map(|t| (t / 4).max(MIN_SHARE));
    let r = c.solve(root, share, None, PostSearch::Composer);
    let composed = match &r.outcome {
        Outcome::Mate(l) => Some(l.clone()),
        Outcome::NoMate => {
            c.report.add(Finding::new(
                FindingKind::NoMate,
                0,
                root,
                &[],
                "no mate (proven)",
                "不詰 (証明済み)",
            ));
            if opts.solution.is_none() {
                c.report.verdict = Verdict::NoMate;
                c.report.time_ms = c.elapsed_ms();
                return c.report;
            }
            // A given line: its questions still show where it fails.
            None
        }
        Outcome::Unknown(why) => {
            c.report.undecided.push(Undecided::new(
                0,
                root,
                &[],
                &format!("the problem's own solve: {why}"),
                &format!("問題そのものの探索: {}", why.japanese()),
            ));
            None
        }
    };
    if let Some(s) = &r.status {
        c.report.strict_lower = Some(s.lower);
        c.report.strict_upper = Some(s.upper);
        c.report.strict_minimal = s.minimal();
    }
    let omitted = r
        .status
        .as_ref()
        .zip(composed.as_ref())
        .map_or(0, |(s, l)| s.line_len.saturating_sub(l.len() as u32));
    if let (Some(l), Some(s)) = (&composed, &r.status) {
        if s.minimal() {
            c.report.composer_length = Some(l.len() as u32);
        }
    }
    let composed_line = composed.clone();
    let line = match (&opts.solution, composed) {
        (Some(l), _) => {
            c.report.solution_given = true;
            l.clone()
        }
        (None, Some(l)) => {
            // The engine's composer mode omits only interpositions its static rule sees; the
            // line is read again with the check's own 無駄合 rule when the time allows.
            let until = opts.time.map(|t| Instant::now() + t / 4);
            match reread(&mut c, root, &l, until) {
                Some(better) if better != l => {
                    c.report.reread = true;
                    better
                }
                _ => l,
            }
        }
        (None, None) => {
            c.report.verdict = Verdict::Undecided;
            c.report.time_ms = c.elapsed_ms();
            return c.report;
        }
    };
    c.report.set_line(root, &line);
    let line = match given_line_checked(&mut c, root, line, composed_line.as_deref()) {
        Ok(line) => line,
        Err(()) => {
            c.report.time_ms = c.elapsed_ms();
            return c.report;
        }
    };
    if let Err(e) = crate::mate::verify_composed(root, &line, attacker) {
        c.report.error = Some(format!("the line is not a mating line: {e}"));
        c.report.verdict = Verdict::Flawed;
        c.report.time_ms = c.elapsed_ms();
        return c.report;
    }
    if crate::mate::verify_mate_line(root, &line, attacker).is_err() {
        match ends_in_useless(&mut c, root, &line) {
            Some(true) => {}
            Some(false) => {
                c.report.error = Some(
                    "the line does not end in mate: the defender can still move a king or \
                     capture the checker"
                        .into(),
                );
                c.report.verdict = Verdict::Flawed;
                c.report.time_ms = c.elapsed_ms();
                return c.report;
            }
            None => c.report.undecided.push(Undecided::new(
                line.len(),
                root,
                &[],
                "the line ends in check with interpositions left that the check could not \
                 show useless (無駄合)",
                "手順の最後に王手が残り、無駄合と示せない合駒がある",
            )),
        }
    }
    if let Some(upper) = c.report.strict_upper {
        if (upper as usize) < line.len() && c.report.solution_given {
            // A shorter mate than the given line: the alternatives below show where it leaves
            // the line; this says it exists whatever the time left.
            let shorter = match &r.outcome {
                Outcome::Mate(l) => l.clone(),
                _ => vec![],
            };
            c.report.add(Finding::new(
                FindingKind::ShorterMate,
                0,
                root,
                &shorter,
                &format!(
                    "a mate in {} exists (strict count); the line has {}",
                    plies(upper as usize),
                    line.len()
                ),
                &format!(
                    "すべての合駒を数えて{upper}手の詰みあり。本手順は{}手",
                    line.len()
                ),
            ));
        }
    }
    ask_questions(&mut c, root, &line, omitted as usize, opts.variations);
    // 駒余り at the end of the main line.
    let spare = spare_after(root, &line, attacker);
    c.report.spare_at_end = spare;
    if spare > 0 {
        c.report.add(Finding::new(
            FindingKind::SparePieces,
            line.len(),
            root,
            &[],
            &format!(
                "{} left in the attacker's hand at the end: {} (駒余り)",
                pieces_en(spare),
                report::hand_en(&hand_after(root, &line))
            ),
            &format!(
                "詰め上がりで攻方の持駒に{}が余る (駒余り)",
                report::hand_ja(&hand_after(root, &line))
            ),
        ));
    }
    c.report.decide();
    if c.report.of(FindingKind::NoMate).any(|f| f.ply == 0) {
        c.report.verdict = Verdict::NoMate;
    }
    c.report.time_ms = c.elapsed_ms();
    c.report
}

/// A given line that is not a mating line says nothing of the problem: where it fails is
/// reported (`Report::given_line`), and the problem is judged on the engine's composer line
/// instead (`Ok` of it), or, without one, the check ends (`Err`: no mate, or undecided). A
/// line that mates, or one the walk cannot show to fail, is kept (`Ok` of it) and judged as
/// before.
fn given_line_checked(
    c: &mut Checker,
    root: &Position,
    line: Vec<Move>,
    composed: Option<&[Move]>,
) -> Result<Vec<Move>, ()> {
    let attacker = root.side_to_move();
    if !c.report.solution_given {
        return Ok(line);
    }
    let mates = crate::mate::verify_composed(root, &line, attacker).is_ok()
        && (crate::mate::verify_mate_line(root, &line, attacker).is_ok()
            || ends_in_useless(c, root, &line) != Some(false));
    if mates {
        return Ok(line);
    }
    let Some(failure) = solution::locate_failure(c, root, &line) else {
        return Ok(line);
    };
    c.report.given_line = Some(failure);
    match composed {
        Some(l) => {
            c.report.solution_given = false;
            c.report.set_line(root, l);
            Ok(l.to_vec())
        }
        None => {
            if c.report.of(FindingKind::NoMate).any(|f| f.ply == 0) {
                c.report.verdict = Verdict::NoMate;
            } else {
                c.report.verdict = Verdict::Undecided;
            }
            Err(())
        }
    }
}

/// Asks every question of the main line `line` (see the module's comment).
fn ask_questions(
    c: &mut Checker,
    root: &Position,
    line: &[Move],
    omitted: usize,
    variations: bool,
) {
    let attacker = root.side_to_move();
    let along = positions(root, line);
    let keys: Vec<u64> = along.iter().map(|p| p.key()).collect();
    let questions = questions(&along, line, attacker);
    let main = Main {
        keys: &keys,
        omitted,
    };
    let lengths = ask_in_passes(c, &questions, &along, line, &main);
    let var_questions = defences::judge(c, &along, line, &lengths, variations);
    if variations {
        variation_alternatives(c, &along, &var_questions);
    }
}

/// The questions of the main line `line` (positions `along`): at each attacker ply every other
/// legal check, at each defender ply every legal evasion (the line's own included).
fn questions(along: &[Position], line: &[Move], attacker: Color) -> Vec<Question> {
    let mut questions = vec![];
    for (ply, p) in along.iter().enumerate().take(line.len()) {
        let mut list = MoveList::new();
        if p.side_to_move() == attacker {
            p.check_moves(&mut list);
            for &m in list.as_slice() {
                if m != line[ply] && p.is_legal(m) {
                    questions.push(Question { ply, alt: m });
                }
            }
        } else {
            for &m in p.legal_move_list().as_slice() {
                questions.push(Question { ply, alt: m });
            }
        }
    }
    questions
}

/// Asks `questions` in passes: a question left open by its share is asked again with the time
/// the others left (the table keeps the work done), until none is open, the time is out, or
/// `PASSES`; what is still open then is reported undecided. Returns the defences' lengths.
fn ask_in_passes(
    c: &mut Checker,
    questions: &[Question],
    along: &[Position],
    line: &[Move],
    main: &Main,
) -> Vec<Defence> {
    const PASSES: usize = 4;
    let attacker = along[0].side_to_move();
    // Defender plies: the shortest mate after each evasion, the line's own defence first.
    let mut lengths = vec![];
    let mut pending: Vec<usize> = (0..questions.len()).collect();
    let mut open: Vec<(usize, Vec<Undecided>)> = vec![];
    for pass in 0..PASSES {
        let total = pending.len();
        let mut again = vec![];
        for (k, &qi) in pending.iter().enumerate() {
            let q = &questions[qi];
            if c.out_of_time() {
                again.push(qi);
                continue;
            }
            let share = c.share(total - k);
            let before = c.report.undecided.len();
            let p = &along[q.ply];
            let mut next = p.clone();
            next.do_move(q.alt);
            if p.side_to_move() == attacker {
                let rest = line.len() - q.ply;
                attacker_alternative(c, (p, &next), q, share, rest, main);
            } else {
                defences::measure(c, (p, &next), q, share, &mut lengths);
            }
            if c.report.undecided.len() > before {
                let u = c.report.undecided.split_off(before);
                open.retain(|(i, _)| *i != qi);
                open.push((qi, u));
                again.push(qi);
            } else {
                open.retain(|(i, _)| *i != qi);
            }
        }
        log::debug!("check pass {pass}: {} questions open", again.len());
        pending = again;
        if pending.is_empty() || c.out_of_time() {
            break;
        }
    }
    for qi in pending {
        if let Some((_, u)) = open.iter_mut().find(|(i, _)| *i == qi) {
            c.report.undecided.append(u);
        } else {
            let q = &questions[qi];
            c.report.undecided.push(Undecided::new(
                q.ply,
                &along[q.ply],
                &[q.alt],
                "no time left",
                "時間切れ",
            ));
        }
    }
    lengths
}

#[cfg(test)]
mod tests;
