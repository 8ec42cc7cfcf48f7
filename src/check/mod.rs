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
//!   (無駄合: the static rule `mate::is_useless_interposition`, else `useless`: captured at once,
//!   the defender is still mated as soon without the captured piece, chains judged link by
//!   link) is not a defence. An evasion that lasts longer than the line's defence (or has no
//!   mate) makes the line's defence wrong (早詰 of the given line, or 不詰); one of equal length
//!   is 変同, and one of equal length that leaves the attacker fewer spare pieces is the better
//!   defence by the 駒余り tie-break.
//! - Questions left open by their share are asked again, up to four passes, with the time the
//!   others left.
//! - 駒余り: attacker pieces in hand at the end of the main line.
//! - 変化別詰: in a shorter variation (an evasion off the main line), another first check of
//!   the attacker that also mates within the variation's length (one level off the line).

mod report;

pub use report::{Finding, FindingKind, Report, Severity, Undecided, Verdict};

use crate::mate::{is_useless_interposition, Limits, Outcome, PostSearch, SearchResult, Solver};
use crate::shogi::{Color, Move, MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The convention the check implements, named in every report (see docs/composer-rules.md).
pub const CONVENTION: &str = "tsumugi-check-1: modern 詰将棋 rules (詰将棋パラダイス usage): \
余詰 = another check on a main-line attacker move mating within the remaining length (strict \
count); 最終手余詰 and 手順前後/迂回 reported apart as tolerated; longest defence by composer \
count with 無駄合 not a defence (tsumugi's rule: an interposition captured at once whose piece \
stays spare); among equal lengths the defender avoids 駒余り; 変同 and 変化別詰 are notes";

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

/// Shortest share of the time one question gets (below this a search proves little).
const MIN_SHARE: Duration = Duration::from_millis(20);

/// One position to solve, and why.
struct Question {
    /// Ply (0-based) of the main line where the alternative replaces the line's move.
    ply: usize,
    /// The alternative move (or the line's own defence, asked for its length).
    alt: Move,
}

/// The state of one check: the solver, the clock and the report being written.
struct Checker<'a> {
    solver: Solver,
    stop: &'a AtomicBool,
    start: Instant,
    deadline: Option<Instant>,
    report: Report,
    /// Called every `PROGRESS_EVERY` with what is done so far.
    progress: &'a mut dyn FnMut(&Progress),
    last_progress: Instant,
}

/// How often the progress callback is called.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// What a running check has done so far (for a progress line).
#[derive(Clone, Debug)]
pub struct Progress {
    /// Time since the check started.
    pub elapsed: Duration,
    /// Searches run.
    pub searches: u64,
    /// Findings so far.
    pub findings: usize,
}

impl Checker<'_> {
    /// The time share of one of `left` questions still to ask (the rest of the budget split
    /// evenly, so questions answered early leave their time to the others).
    /// `None` when the check has no time limit.
    fn share(&self, left: usize) -> Option<Duration> {
        let rest = self.deadline?.saturating_duration_since(Instant::now());
        Some((rest / left.max(1) as u32).max(MIN_SHARE))
    }

    /// Solves `pos` within `share` (and `max_plies`), post-search `post`.
    fn solve(
        &mut self,
        pos: &Position,
        share: Option<Duration>,
        max_plies: Option<u32>,
        post: PostSearch,
    ) -> SearchResult {
        let limits = Limits {
            time: share,
            max_plies,
            post_search: post,
            ..Limits::default()
        };
        self.report.searches += 1;
        let r = self.solver.solve(pos, &limits, self.stop, &mut |_| {});
        self.report.nodes += r.stats.nodes;
        if self.last_progress.elapsed() >= PROGRESS_EVERY {
            self.last_progress = Instant::now();
            (self.progress)(&Progress {
                elapsed: self.start.elapsed(),
                searches: self.report.searches,
                findings: self.report.findings.len(),
            });
        }
        r
    }

    fn out_of_time(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A proven mate of `r` within `limit` plies, if `r` has one: its line (verified by the
/// solver) when its proven length is within the limit.
fn mate_within(r: &SearchResult, limit: u32) -> Option<Vec<Move>> {
    let line = match &r.outcome {
        Outcome::Mate(l) => l.clone(),
        _ => r.best_mate.clone()?,
    };
    let upper = r.status.as_ref().map_or(line.len() as u32, |s| s.upper);
    (upper <= limit && line.len() as u32 <= limit).then_some(line)
}

/// The line of `r` when the strict line under it is a proven shortest mate (the line itself
/// is in composer count when `r` came from `PostSearch::Composer`), or `None` when that was
/// not established.
fn exact_mate(r: &SearchResult) -> Option<Vec<Move>> {
    match (&r.outcome, &r.status) {
        (Outcome::Mate(l), Some(s)) if s.minimal() && s.line_len == s.upper => Some(l.clone()),
        _ => None,
    }
}

/// Attacker pieces in hand after `line` from `pos`.
fn spare_after(pos: &Position, line: &[Move], attacker: Color) -> u32 {
    let mut p = pos.clone();
    for &m in line {
        p.do_move(m);
    }
    p.hand(attacker).total()
}

/// Parses USI moves from `pos`, each checked legal. `Err` names the first bad one.
pub fn parse_solution(pos: &Position, text: &str) -> Result<Vec<Move>, String> {
    let mut p = pos.clone();
    let mut out = vec![];
    for (i, w) in text.split_whitespace().enumerate() {
        let m = Move::from_usi(w).ok_or_else(|| format!("move {}: '{w}' is not USI", i + 1))?;
        let legal = p.legal_move_list();
        // `from_usi` knows nothing of the piece; the legal move with the same text is the move.
        let Some(&m) = legal
            .as_slice()
            .iter()
            .find(|l| l.to_string() == m.to_string())
        else {
            return Err(format!(
                "move {}: {w} is not legal in {}",
                i + 1,
                p.to_sfen()
            ));
        };
        p.do_move(m);
        out.push(m);
    }
    Ok(out)
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
            ));
            if opts.solution.is_none() {
                c.report.verdict = Verdict::NoMate;
                c.report.time_ms = start.elapsed().as_millis() as u64;
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
            c.report.time_ms = start.elapsed().as_millis() as u64;
            return c.report;
        }
    };
    c.report.set_line(root, &line);
    if let Err(e) = crate::mate::verify_composed(root, &line, attacker) {
        c.report.error = Some(format!("the line is not a mating line: {e}"));
        c.report.verdict = Verdict::Flawed;
        c.report.time_ms = start.elapsed().as_millis() as u64;
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
                c.report.time_ms = start.elapsed().as_millis() as u64;
                return c.report;
            }
            None => c.report.undecided.push(Undecided::new(
                line.len(),
                root,
                &[],
                "the line ends in check with interpositions left that the check could not \
                 show useless (無駄合)",
            )),
        }
    }
    if let Some(upper) = c.report.strict_upper {
        if (upper as usize) < line.len() && opts.solution.is_some() {
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
                    "a mate in {upper} plies exists (strict count); the line has {}",
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
            &format!("{spare} piece(s) left in the attacker's hand at the end (駒余り)"),
        ));
    }
    c.report.decide();
    if c.report.of(FindingKind::NoMate).any(|f| f.ply == 0) {
        c.report.verdict = Verdict::NoMate;
    }
    c.report.time_ms = start.elapsed().as_millis() as u64;
    c.report
}

/// A line that ends in check but not checkmate (the composers' presentation): `Some(true)`
/// when every defence left is an interposition shown useless (captured, the defender is mated
/// at once without the captured piece, see `useless`), `Some(false)` when the defender has a
/// move that is no interposition (a king move, a capture of the checker) or is not in check,
/// `None` when some interposition was not shown useless.
fn ends_in_useless(c: &mut Checker, root: &Position, line: &[Move]) -> Option<bool> {
    let mut p = root.clone();
    for &m in line {
        p.do_move(m);
    }
    let checkers = p.checkers();
    let ksq = p.king_square(p.side_to_move())?;
    if checkers.is_empty() {
        return Some(false);
    }
    let mut all = Some(true);
    for &e in p.legal_move_list().as_slice() {
        let interposes = !checkers.more_than_one()
            && crate::shogi::attacks::between(ksq, checkers.lsb()).has(e.to())
            && (e.is_drop() || e.from() != ksq);
        if !interposes {
            return Some(false);
        }
        if all.is_none() {
            continue;
        }
        let mut q = p.clone();
        q.do_move(e);
        let share = c.share(4);
        let r = c.solve(&q, share, None, PostSearch::Composer);
        let Some(l) = exact_mate(&r) else {
            all = None;
            continue;
        };
        let full: Vec<Move> = std::iter::once(e).chain(l).collect();
        if useless(c, &p, &full, 0) != Some(true) {
            all = None;
        }
    }
    all
}

/// The composers' line read again from `root` with the check's 無駄合 rule: the attacker plays
/// the engine's composer line (`guide`, then the composer line after each chosen defence); at
/// each defender move every evasion is measured (composer count), useless interpositions (see
/// `useless`) are dropped, and the defender takes the longest, then the one leaving fewer
/// spare pieces, then the guide's. The line ends at mate or where only useless interpositions
/// are left. `None` when a search did not decide or `until` passed.
fn reread(
    c: &mut Checker,
    root: &Position,
    guide: &[Move],
    until: Option<Instant>,
) -> Option<Vec<Move>> {
    let attacker = root.side_to_move();
    let mut p = root.clone();
    let mut out = vec![];
    let mut guide = guide.to_vec();
    while out.len() < 4 * guide.len() + 64 {
        if until.is_some_and(|u| Instant::now() >= u) || c.out_of_time() {
            return None;
        }
        if p.side_to_move() == attacker {
            let m = *guide.first()?;
            guide.remove(0);
            out.push(m);
            p.do_move(m);
            continue;
        }
        let evasions = p.legal_move_list();
        if evasions.is_empty() {
            return p.in_check().then_some(out);
        }
        let mut cands: Vec<(Vec<Move>, usize)> = vec![];
        for &e in evasions.as_slice() {
            let mut next = p.clone();
            next.do_move(e);
            let share = c.share(16);
            let r = c.solve(&next, share, None, PostSearch::Composer);
            let l = exact_mate(&r)?;
            let n = 1 + l.len();
            cands.push((std::iter::once(e).chain(l).collect(), n));
        }
        let base = cands
            .iter()
            .filter(|(f, _)| !interposes(&p, f[0]))
            .map(|x| x.1)
            .max()
            .unwrap_or(0);
        let mut kept = vec![];
        for (full, n) in cands {
            if interposes(&p, full[0]) && n > base && useless(c, &p, &full, base)? {
                continue;
            }
            if interposes(&p, full[0]) && n <= base && is_useless_interposition(&p, &full) {
                continue;
            }
            kept.push((full, n));
        }
        let Some(best) = kept.iter().map(|x| x.1).max() else {
            // Only useless interpositions are left: the line ends at the check.
            return Some(out);
        };
        let guide_first = guide.first().copied();
        let pick = kept
            .into_iter()
            .filter(|x| x.1 == best)
            .min_by_key(|(f, _)| (spare_after(&p, f, attacker), Some(f[0]) != guide_first))?;
        let (full, _) = pick;
        out.push(full[0]);
        p.do_move(full[0]);
        guide = full[1..].to_vec();
    }
    None
}

/// The positions along `line` from `root`, before each ply and after the last.
fn positions(root: &Position, line: &[Move]) -> Vec<Position> {
    let mut out = Vec::with_capacity(line.len() + 1);
    let mut p = Position::from_sfen(&root.to_sfen()).unwrap_or_else(|_| root.clone());
    out.push(p.clone());
    for &m in line {
        p.do_move(m);
        out.push(Position::from_sfen(&p.to_sfen()).unwrap_or_else(|_| p.clone()));
    }
    out
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
    // Defender plies: the shortest mate after each evasion, the line's own defence first.
    let mut lengths: Vec<(usize, Move, Option<Vec<Move>>)> = vec![];
    // Passes: a question left open by its share is asked again with the time the others left
    // (the table keeps the work done), until none is open, the time is out, or `PASSES`.
    const PASSES: usize = 4;
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
            let rest = line.len() - q.ply;
            if p.side_to_move() == attacker {
                attacker_alternative(
                    c,
                    (p, &next),
                    q,
                    share,
                    rest,
                    &Main {
                        keys: &keys,
                        omitted,
                    },
                );
            } else {
                let r = c.solve(&next, share, None, PostSearch::Composer);
                match (&r.outcome, exact_mate(&r)) {
                    (_, Some(l)) => lengths.push((q.ply, q.alt, Some(l))),
                    (Outcome::NoMate, _) => lengths.push((q.ply, q.alt, None)),
                    (Outcome::Mate(_), None) | (Outcome::Unknown(_), _) => {
                        let why = match &r.outcome {
                            Outcome::Unknown(w) => w.to_string(),
                            _ => "shortest mate not proven".into(),
                        };
                        c.report.undecided.push(Undecided::new(
                            q.ply,
                            p,
                            &[q.alt],
                            &format!("how long this defence lasts: {why}"),
                        ));
                    }
                }
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
            ));
        }
    }
    let mut var_questions = vec![];
    for ply in (1..line.len()).step_by(2) {
        let p = &along[ply];
        let here: Vec<_> = lengths.iter().filter(|x| x.0 == ply).collect();
        let Some(main) = here.iter().find(|x| x.1 == line[ply]) else {
            continue;
        };
        let Some(main_line) = &main.2 else {
            c.report.add(Finding::new(
                FindingKind::NoMate,
                ply,
                p,
                &[line[ply]],
                "the line's own defence has no mate (proven)",
            ));
            continue;
        };
        let main_len = main_line.len();
        let main_full: Vec<Move> = std::iter::once(line[ply])
            .chain(main_line.iter().copied())
            .collect();
        let main_spare = spare_after(p, &main_full, attacker);
        for (_, e, l) in here.iter().filter(|x| x.1 != line[ply]) {
            let Some(l) = l else {
                c.report.add(Finding::new(
                    FindingKind::NoMate,
                    ply,
                    p,
                    &[*e],
                    "this defence escapes: no mate after it (proven)",
                ));
                continue;
            };
            let full: Vec<Move> = std::iter::once(*e).chain(l.iter().copied()).collect();
            if l.len() >= main_len {
                match useless(c, p, &full, main_len + 1) {
                    Some(true) => {
                        c.report.useless_interpositions += 1;
                        continue;
                    }
                    Some(false) => {}
                    None => {
                        c.report.undecided.push(Undecided::new(
                            ply,
                            p,
                            &full,
                            "whether this interposition is useless (無駄合) was not decided",
                        ));
                        continue;
                    }
                }
            }
            if l.len() > main_len {
                c.report.add(Finding::new(
                    FindingKind::LongerDefence,
                    ply,
                    p,
                    &full,
                    &format!(
                        "lasts {} plies from here where the line's defence lasts {} (早詰 of the line)",
                        full.len(),
                        main_len + 1
                    ),
                ));
            } else if l.len() == main_len {
                let spare = spare_after(p, &full, attacker);
                if spare < main_spare {
                    c.report.add(Finding::new(
                        FindingKind::FewerSpareDefence,
                        ply,
                        p,
                        &full,
                        &format!(
                            "as long as the line's defence and leaves {spare} spare piece(s) \
                             where the line leaves {main_spare}: the defender's choice (駒余り rule)"
                        ),
                    ));
                } else {
                    c.report.add(Finding::new(
                        FindingKind::EqualVariation,
                        ply,
                        p,
                        &full,
                        &format!(
                            "as long as the line's defence ({} plies from here): 変同",
                            full.len()
                        ),
                    ));
                }
            } else if variations && l.len() >= 3 {
                var_questions.push((ply, *e, l.clone()));
            }
        }
    }
    if variations {
        variation_alternatives(c, &along, &var_questions);
    }
}

/// Whether the defence `full[0]` (from `pos`, defender to move; `full` its line in composer
/// count) is a useless interposition (無駄合) where the line's own defence lasts `main` plies:
/// the static rule (`mate::is_useless_interposition`: captured at once, the piece still spare
/// at the end), or, for an interposition captured at once whose piece the line uses again,
/// the search's answer to "without the captured piece (given back to the defender's hand), is
/// the defender, to move again, still mated within `main` plies (composer count)?". Yes: the
/// interposition gained nothing but two plies and the piece was not needed (狭義の無駄合; it
/// also covers chains of interpositions, each judged after the others are omitted). `None`:
/// the search did not decide within its share.
fn useless(c: &mut Checker, pos: &Position, full: &[Move], main: usize) -> Option<bool> {
    useless_at(c, pos, full, main, 0)
}

/// An interposition: a drop or a move of a piece other than the king onto a square between the
/// king and its single checker.
fn interposes(pos: &Position, e: Move) -> bool {
    let checkers = pos.checkers();
    let Some(ksq) = pos.king_square(pos.side_to_move()) else {
        return false;
    };
    !checkers.is_empty()
        && !checkers.more_than_one()
        && crate::shogi::attacks::between(ksq, checkers.lsb()).has(e.to())
        && (e.is_drop() || e.from() != ksq)
}

/// How many interpositions deep `useless_at` judges chains (each level asks every evasion).
const CHAIN_DEPTH: u32 = 8;

/// `useless` at recursion `depth` (see `defender_len`).
fn useless_at(
    c: &mut Checker,
    pos: &Position,
    full: &[Move],
    main: usize,
    depth: u32,
) -> Option<bool> {
    if is_useless_interposition(pos, full) {
        return Some(true);
    }
    if full.len() < 3 || full[1].is_drop() || full[1].to() != full[0].to() {
        return Some(false);
    }
    let checkers = pos.checkers();
    let (Some(ksq), false) = (
        pos.king_square(pos.side_to_move()),
        checkers.more_than_one(),
    ) else {
        return Some(false);
    };
    if checkers.is_empty()
        || !crate::shogi::attacks::between(ksq, checkers.lsb()).has(full[0].to())
        || (!full[0].is_drop() && full[0].from() == ksq)
    {
        return Some(false);
    }
    let kind = if full[0].is_drop() {
        full[0].drop_kind()
    } else {
        pos.piece_on(full[0].from()).kind().unpromote()
    };
    let mut after = pos.clone();
    after.do_move(full[0]);
    after.do_move(full[1]);
    // The side that captured: the attacker (the defender is to move again).
    let attacker = pos.side_to_move().flip();
    let mut setup = crate::record::board::Setup::of(&after);
    if setup.hands[attacker.index()][kind.index()] == 0 {
        return Some(false);
    }
    setup.hands[attacker.index()][kind.index()] -= 1;
    setup.hands[attacker.flip().index()][kind.index()] += 1;
    let Ok(without) = setup.position() else {
        return Some(false);
    };
    if depth >= CHAIN_DEPTH {
        return None;
    }
    defender_len(c, &without, depth + 1).map(|n| n <= main)
}

/// How long the defender to move at `q` lasts in composer count: the longest of its evasions,
/// each measured by the engine's composer line after it, where an interposition captured at
/// once counts only when it is not useless against the longest evasion that is no
/// interposition (judged by `useless_at`, so chains of interpositions are judged link by
/// link). `usize::MAX`: some evasion escapes mate. `None`: a search did not decide.
fn defender_len(c: &mut Checker, q: &Position, depth: u32) -> Option<usize> {
    let evasions = q.legal_move_list();
    if evasions.is_empty() {
        return q.in_check().then_some(0);
    }
    let mut lens: Vec<(Vec<Move>, usize)> = vec![];
    for &e in evasions.as_slice() {
        let mut next = q.clone();
        next.do_move(e);
        let share = c.share(8);
        let r = c.solve(&next, share, None, PostSearch::Composer);
        match (exact_mate(&r), &r.outcome) {
            (Some(l), _) => {
                let n = 1 + l.len();
                lens.push((std::iter::once(e).chain(l).collect(), n));
            }
            (None, Outcome::NoMate) => return Some(usize::MAX),
            _ => return None,
        }
    }
    let mut best = lens
        .iter()
        .filter(|(f, _)| !interposes(q, f[0]))
        .map(|x| x.1)
        .max()
        .unwrap_or(0);
    lens.sort_by_key(|x| x.1);
    for (full, n) in &lens {
        if *n <= best || !interposes(q, full[0]) {
            continue;
        }
        match useless_at(c, q, full, best, depth)? {
            true => {}
            false => best = *n,
        }
    }
    Some(best)
}

/// The main line as the attacker alternatives see it: the keys of its positions (before each
/// ply and after the last), and the plies its composers' count omitted.
struct Main<'a> {
    keys: &'a [u64],
    omitted: usize,
}

/// One attacker alternative `q` (a check other than the line's at `p`, giving `next`): a mate
/// within the line's remaining `rest` plies is 余詰 (see the module's comment).
fn attacker_alternative(
    c: &mut Checker,
    (p, next): (&Position, &Position),
    q: &Question,
    share: Option<Duration>,
    rest: usize,
    main: &Main,
) {
    let (omitted, keys) = (main.omitted, main.keys);
    if rest == 1 {
        // The line's last move: an alternative mates at once or not at all (no search).
        if next.in_check() && next.legal_move_list().is_empty() {
            c.report.add(Finding::new(
                FindingKind::LastMoveAlternative,
                q.ply,
                p,
                &[q.alt],
                "another mating move at the last ply (最終手余詰, tolerated)",
            ));
        }
        return;
    }
    // Strict limit: the line's rest plus the plies its composers' count omitted (an
    // alternative mating within that strict count but not within `rest` is undecided in
    // composer count).
    let strict_limit = (rest - 1 + omitted) as u32;
    let r = c.solve(next, share, Some(strict_limit), PostSearch::Shortest);
    if let Some(alt_line) = mate_within(&r, strict_limit) {
        let full: Vec<Move> = std::iter::once(q.alt)
            .chain(alt_line.iter().copied())
            .collect();
        // A line that passes through a later position of the main line is the same solution
        // in another order (手順前後 / 迂回).
        let mut pp = next.clone();
        let mut joins = None;
        for (i, &m) in alt_line.iter().enumerate() {
            if let Some(j) = keys.iter().skip(q.ply + 1).position(|&k| k == pp.key()) {
                joins = Some((i, q.ply + 1 + j));
                break;
            }
            pp.do_move(m);
        }
        if joins.is_none() {
            if let Some(j) = keys.iter().skip(q.ply + 1).position(|&k| k == pp.key()) {
                joins = Some((alt_line.len(), q.ply + 1 + j));
            }
        }
        if let Some((_, j)) = joins {
            c.report.add(Finding::new(
                FindingKind::Transposition,
                q.ply,
                p,
                &full,
                &format!(
                    "reaches the main line's position before ply {} (手順前後/迂回)",
                    j + 1
                ),
            ));
        } else if alt_line.len() < rest {
            c.report.add(Finding::new(
                FindingKind::Alternative,
                q.ply,
                p,
                &full,
                &format!(
                    "another mate in {} plies from here, the line needs {rest} (余詰)",
                    full.len()
                ),
            ));
        } else {
            c.report.undecided.push(Undecided::new(
                q.ply,
                p,
                &full,
                &format!(
                    "mates in {} strict plies; whether that is within the line's {rest} in \
                     composer count (無駄合 omitted) was not decided",
                    full.len()
                ),
            ));
        }
        return;
    }
    match &r.outcome {
        Outcome::NoMate => {}
        Outcome::Unknown(crate::mate::UnknownReason::NoMateWithin(_)) => {}
        Outcome::Unknown(why) => c.report.undecided.push(Undecided::new(
            q.ply,
            p,
            &[q.alt],
            &format!("whether this check mates within {} plies: {why}", rest),
        )),
        Outcome::Mate(_) => c.report.undecided.push(Undecided::new(
            q.ply,
            p,
            &[q.alt],
            "mate proven but its length within the limit was not established",
        )),
    }
}

/// 変化別詰: in each shorter variation `(ply, evasion, its shortest line)`, another first check
/// that mates within the variation's length.
fn variation_alternatives(c: &mut Checker, along: &[Position], vars: &[(usize, Move, Vec<Move>)]) {
    let mut asks = vec![];
    for (ply, e, l) in vars {
        let mut p = along[*ply].clone();
        p.do_move(*e);
        let mut list = MoveList::new();
        p.check_moves(&mut list);
        for &m in list.as_slice() {
            if m != l[0] && p.is_legal(m) {
                asks.push((*ply, *e, l.len(), m));
            }
        }
    }
    let total = asks.len();
    for (i, &(ply, e, len, m)) in asks.iter().enumerate() {
        let base = &along[ply];
        if c.out_of_time() {
            c.report
                .undecided
                .push(Undecided::new(ply, base, &[e, m], "変化別詰: no time left"));
            continue;
        }
        let mut p = base.clone();
        p.do_move(e);
        p.do_move(m);
        let share = c.share(total - i);
        let limit = len as u32 - 1;
        let r = c.solve(&p, share, Some(limit), PostSearch::Shortest);
        if let Some(l) = mate_within(&r, limit) {
            let full: Vec<Move> = [e, m].into_iter().chain(l).collect();
            c.report.add(Finding::new(
                FindingKind::VariationAlternative,
                ply,
                base,
                &full,
                &format!(
                    "in the variation of {} plies, another mate (変化別詰)",
                    len + 1
                ),
            ));
        } else if !matches!(
            r.outcome,
            Outcome::NoMate | Outcome::Unknown(crate::mate::UnknownReason::NoMateWithin(_))
        ) {
            c.report.undecided.push(Undecided::new(
                ply,
                base,
                &[e, m],
                "変化別詰: whether this check also mates was not decided",
            ));
        }
    }
}

#[cfg(test)]
mod tests;
