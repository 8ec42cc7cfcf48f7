//! The solve driver: decides the root's kind, runs the first proof, reads the line, runs the
//! shortest-mate post-search, decides what is established about the answer, and checks every
//! line it accepts by replay.
//!
//! The shortest-mate post-search alternates two steps until a round fails:
//! - shortcut passes (`line::shorten`): a few plies of search from each attacker position of
//!   the line for a mate shorter than its remainder there, against the table's proofs, then a
//!   new minimax reading; repeated while a pass finds something. Microcosmos (1525 plies): the
//!   first proof's line of 1581 plies became 1525 in one pass of 0.1 s (761 positions
//!   improved, 27,612 searched), where the rounds below took 124 s to get there, 62 s of it in
//!   the first round (measured at this commit; before, at `55a9dbe`, 1525 came at 147.7 s).
//! - a round (KomoringHeights' post-search: prove or refute a mate within a length below the
//!   proven one), swept from the end of the line back to the root (see `round`). The length
//!   tried gallops down while rounds find mates and is bisected once one fails (`next_limit`);
//!   a round below the bound minus two is speculative and has a node budget. Every refuted
//!   length is announced as a lower bound.
//!
//! Measured at `31e8aa6` (2048 MB, one thread, scripts/bench/shortest.py, see
//! docs/bench/shortest.md): Microcosmos' 1525-ply line 26.5 s after `go mate`, 0.7 s after
//! the first proof (KomoringHeights in the same run: 138.8 s); long-ge50 row 1, 353 plies,
//! minimal proven in 16 s (stepping two plies a round: over 60 s).
//!
//! The driver is the only caller of both the search (`dfpn`) and the line readers (`line`);
//! readers reach the search only through its narrow API (`Search::prove_at`, `stored`).

use super::clock::Instant;
use super::dfpn::{NodeResult, Search};
use super::line;
use super::value::NO_MATE;
use super::{Limits, MateStatus, Outcome, PostSearch, SearchResult, UnknownReason};
use crate::shogi::{Color, Move, MoveList, Position};

/// Which side the root search treats as the attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RootKind {
    /// The side to move mates (the usual problem).
    Attacker,
    /// The side to move is being mated: the root is a defender (AND) node.
    Defender,
    /// The side to move is in check but has checking moves: it is searched as the attacker
    /// first, and as the defender if it has no mate.
    AttackerThenDefender,
}

/// The root's kind, decided from the kings and the check (KomoringHeights decides the same way;
/// its `RootIsAndNodeIfChecked` is our `rule`): a side to move without a king can only attack,
/// one whose opponent has no king can only defend; with both kings on the board and the side
/// to move in check, it defends when the rule is on and no legal move of its own gives check
/// (so it cannot mate), and otherwise attacks first (GUIs ask for mate at the defender's turn
/// when stepping through a solution; the problem sets also hold attackers in check that mate).
pub(super) fn root_kind(pos: &Position, rule: bool) -> RootKind {
    let us = pos.side_to_move();
    if pos.king_square(us).is_none() {
        return RootKind::Attacker;
    }
    if pos.king_square(us.flip()).is_none() {
        return RootKind::Defender;
    }
    if !rule || !pos.in_check() {
        return RootKind::Attacker;
    }
    let mut checks = MoveList::new();
    pos.check_moves(&mut checks);
    if checks.is_empty() {
        RootKind::Defender
    } else {
        RootKind::AttackerThenDefender
    }
}

impl RootKind {
    /// The mating side of the first search.
    pub(super) fn attacker(self, root: &Position) -> Color {
        let us = root.side_to_move();
        if self == RootKind::Defender {
            us.flip()
        } else {
            us
        }
    }
}

/// Solves `root` with `s`, a search made for it with `kind.attacker(root)` attacking: the first
/// proof, the line, the shortest-mate rounds and the reading policy (see `run_root`); then, for
/// a side to move in check without a mate, the same as the defender. `last` is the solver's
/// previous answer (see `run_root`).
pub(super) fn solve(
    s: &mut Search,
    kind: RootKind,
    root: &Position,
    limits: &Limits,
    last: &mut Option<Remembered>,
) -> SearchResult {
    let us = root.side_to_move();
    let mut pos = root.clone();
    let (mut outcome, mut status) = run_root(s, &mut pos, limits, last);
    let within = |o: &Outcome| matches!(o, Outcome::Unknown(UnknownReason::NoMateWithin(_)));
    if kind == RootKind::AttackerThenDefender && (outcome == Outcome::NoMate || within(&outcome)) {
        log::info!("the side to move in check has no mate; searching it as the defender");
        s.set_attacker(root, us.flip());
        let first = outcome;
        (outcome, status) = run_root(s, &mut pos, limits, last);
        // "No mate" only when both searches prove it at every length; one refuted only
        // within the length limit makes the answer "no mate within the limit".
        if outcome == Outcome::NoMate && within(&first) {
            outcome = first;
        }
    }
    SearchResult {
        best_mate: s.reported_line().cloned(),
        outcome,
        stats: s.stats(),
        status,
        defender_root: s.attacker() != us,
        interrupted: s.aborted().cloned(),
    }
}

/// The last mating line of a solver, with what was proven about it (see `Solver::last`).
pub(super) struct Remembered {
    key: u64,
    attacker: Color,
    /// The strict line, whether it is a minimax reading (see `read_line`), and what was
    /// established about it.
    line: Vec<Move>,
    bounded: bool,
    status: MateStatus,
}

/// Whether a line read now (`bounded`: a minimax reading, see `read_line`) should replace the
/// line kept so far: a minimax reading beats one that follows stored lengths (whose defences may
/// be mated faster than the longest defence); among minimax readings the shorter wins (each is
/// a proven bound); among lines that follow stored lengths the longer wins, since a short one
/// only says that its defender chose badly (a 353-ply problem showed a 21-ply line so while its
/// proven bound was 471).
fn better_line(bounded: bool, len: usize, kept_bounded: bool, kept_len: usize) -> bool {
    match (bounded, kept_bounded) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => len < kept_len,
        (false, false) => len > kept_len,
    }
}

/// Searches the root, reads its line and, with a post-search, the shortest mate. Returns the
/// outcome and, with a mate, what is established about it (see `MateStatus`). `last` is the
/// solver's previous answer: if it is for this position, the search starts from it (a warm
/// table must never make an answer worse: a second `go mate` on the
/// same position printed a 187-ply line with a short defence after a 403-ply one), and it is
/// replaced by this answer.
fn run_root(
    s: &mut Search,
    pos: &mut Position,
    limits: &Limits,
    last: &mut Option<Remembered>,
) -> (Outcome, Option<MateStatus>) {
    let user_limit = limits.max_plies.unwrap_or(u32::MAX);
    s.set_limit(user_limit);
    s.set_reported(None);
    let or_root = pos.side_to_move() == s.attacker();
    let (n0, t0) = (s.nodes(), Instant::now());
    let r = s.prove(pos);
    let proof_ms = t0.elapsed().as_millis();
    log::debug!("first search: {} nodes, {proof_ms} ms", s.nodes() - n0);
    if let Some(reason) = s.aborted().cloned() {
        return (Outcome::Unknown(reason), None);
    }
    if r.v.dn == 0 {
        if r.v.len != NO_MATE {
            // Refuted only within the user's length limit: a proven bound, not a proof that
            // there is no mate.
            // (The proof's own bound: never below the limit at the root, and what is proven
            // in the unexpected case that it is.)
            let n = (r.v.len as u32).min(user_limit);
            return (Outcome::Unknown(UnknownReason::NoMateWithin(n)), None);
        }
        return (Outcome::NoMate, None);
    }
    if r.v.pn != 0 {
        let why = format!("root left unsolved (pn {}, dn {})", r.v.pn, r.v.dn);
        return (Outcome::Unknown(UnknownReason::Unverified(why)), None);
    }
    let mut minimax = true;
    let (mut line, mut line_bounded) = match read_line(s, pos, &mut minimax) {
        Ok(l) => l,
        Err(e) => {
            if let Some(reason) = s.aborted().cloned() {
                return (Outcome::Unknown(reason), None);
            }
            log::warn!("mate proven but no verified line: {e}");
            return (Outcome::Unknown(UnknownReason::Unverified(e)), None);
        }
    };
    log::debug!(
        "line read: {} plies, {} ms",
        line.len(),
        t0.elapsed().as_millis() - proof_ms
    );
    // What is proven: a mate within `upper` plies (the proof's length, or a minimax line's),
    // and none within fewer than `lower` (a mate takes at least one check; a defender-to-move
    // root may be mated already).
    let mut upper = proven_bound(r.v.len, &line, line_bounded);
    let mut lower = if or_root { 1 } else { 0 };
    let mut longest_defences = false;
    if let Some(m) = last
        .take()
        .filter(|m| m.key == pos.key() && m.attacker == s.attacker())
    {
        upper = upper.min(m.status.upper as usize);
        lower = lower.max(m.status.lower as usize);
        let kept_longest = m.status.longest_defences;
        if kept_longest || better_line(m.bounded, m.line.len(), line_bounded, line.len()) {
            line = m.line;
            line_bounded = m.bounded;
            longest_defences = kept_longest;
        }
    }
    publish(
        s,
        &line,
        upper,
        lower,
        format!("mate within {upper} plies proven"),
    );
    if limits.post_search != PostSearch::None {
        shorten_line(
            s,
            pos,
            &mut line,
            line_bounded,
            &mut upper,
            lower,
            &mut minimax,
        );
        // Shortest mate: rounds prove or refute a mate within a limit below `upper` until
        // `lower` meets it (KomoringHeights' post-search, with the limit chosen by
        // `next_limit`). Proofs in the table longer than the limit are ignored by `mid`;
        // failures at the limit are stored as "no mate within n plies" (see `tt`) and reused
        // by later rounds. `line_bounded`: the line came from the minimax reading, so its
        // length is a proven bound, never below the true minimum; such a line is kept over one
        // that follows stored lengths.
        // A round below `upper - 2` is speculative: it may land just under the minimum, where
        // refuting is hardest, before the cheap rounds above have shortened the line. It gets
        // a budget of `SPECULATION_BUDGET` times the nodes the whole solve has searched so far
        // (halved for each one abandoned before); past that it is abandoned, and the rounds
        // step down two plies at a time until three more have found mates. Measured on
        // famous.tsv row 56 (無双1番): proven 39 after 3.4 s, the gallop tried 23 and was still
        // refuting it at 30 s, leaving a 47-ply line where stepping reached 25.
        let mut step = 1usize;
        let mut found = 0usize;
        let mut bisect = false;
        let mut abandoned = 0u32;
        while upper >= lower + 2 {
            let limit = next_limit(lower, upper, step, bisect).min(user_limit);
            s.set_limit(limit);
            let speculative = (limit as usize) + 2 < upper;
            let budget = s.nodes().saturating_mul(SPECULATION_BUDGET) >> abandoned.min(16);
            s.set_round_budget(speculative.then_some(budget));
            let (n0, t0) = (s.nodes(), Instant::now());
            let r = round(s, pos, &line, line_bounded, limit);
            let over_budget = s.over_budget();
            s.set_round_budget(None);
            if over_budget {
                log::debug!(
                    "round within {limit}: over its budget after {} nodes; stepping by two",
                    s.nodes() - n0
                );
                abandoned += 1;
                (step, found, bisect) = (1, 0, false);
                continue;
            }
            log::debug!(
                "round within {limit}: pn {} len {} in {} nodes, {} ms",
                r.v.pn,
                r.v.len,
                s.nodes() - n0,
                t0.elapsed().as_millis()
            );
            if s.aborted().is_some() {
                log::info!("stopped while looking for a mate shorter than {upper}");
                break;
            }
            if r.v.pn != 0 {
                if r.v.dn != 0 || limit >= user_limit {
                    break;
                }
                // No mate within `limit` (it has the parity of every mate from here).
                lower = limit as usize + 2;
                bisect = true;
                let news = if lower >= upper {
                    format!("no mate within {limit} plies: the shortest mate takes {upper}")
                } else {
                    format!(
                        "no mate within {limit} plies: the shortest mate takes {lower} to {upper}"
                    )
                };
                log::debug!("{news}");
                publish(s, &line, upper, lower, news);
                continue;
            }
            if l_is_stuck(r.v.len as usize, limit) {
                break;
            }
            // A mate within the limit is proven, whether or not its line can be read.
            upper = upper.min(r.v.len as usize);
            // Gallop only once three rounds in a row have found mates, and only above
            // `GALLOP_MIN_BOUND` plies: short problems end in a few rounds, and a speculative
            // one there is mostly an extra failing round (mate3-11 at 3 s a problem: 9% more
            // nodes galloping from the first round), or one abandoned over its budget whose
            // unsolved entries, numbers found under a shorter limit, mislead the next rounds
            // (an extra1-9 problem: 73 K nodes for a round that took 1 K).
            found += 1;
            if found >= GALLOP_AFTER && upper >= GALLOP_MIN_BOUND {
                step *= 2;
            }
            let (n0, t0) = (s.nodes(), Instant::now());
            let read = read_line(s, pos, &mut minimax);
            log::debug!(
                "reading: {} nodes, {} ms",
                s.nodes() - n0,
                t0.elapsed().as_millis()
            );
            match read {
                Ok((l, bounded)) => {
                    log::debug!("mate within {limit}: found {} plies", l.len());
                    upper = upper.min(proven_bound(r.v.len, &l, bounded));
                    if better_line(bounded, l.len(), line_bounded, line.len()) {
                        line = l;
                        line_bounded = bounded;
                        longest_defences = false;
                    }
                    publish(
                        s,
                        &line,
                        upper,
                        lower,
                        format!("mate within {upper} plies proven"),
                    );
                    shorten_line(
                        s,
                        pos,
                        &mut line,
                        line_bounded,
                        &mut upper,
                        lower,
                        &mut minimax,
                    );
                }
                Err(e) => {
                    // The bound is proven whether or not a line can be read now: keep the
                    // line kept so far and go on with the rounds. Ending here left the answer
                    // at a bound above the minimum with time to spare: long-ge50 row 1 (353
                    // plies) with six threads, 4 runs in about 80 under load, stopped at "mate
                    // within 357" or "379", none shorter refuted, a few seconds into a 120 s
                    // budget, showing lines of 233-257 plies read by stored lengths. The rounds
                    // end anyway: each one lowers `upper` or raises `lower`, and once they meet
                    // the exact line is read below.
                    if s.aborted().is_some() {
                        break;
                    }
                    log::info!("shorter mate proven but its line was not read: {e}");
                    publish(
                        s,
                        &line,
                        upper,
                        lower,
                        format!("mate within {upper} plies proven"),
                    );
                }
            }
        }
    }
    s.set_limit(user_limit);
    // Every defence of the line a longest one: read with a proven refutation of every shorter
    // mate at each defence (needs the minimum), or no choice at any defence.
    longest_defences = longest_defences || forced_defences(pos, &line, or_root);
    if lower >= upper && !longest_defences && line_bounded && s.aborted().is_none() {
        longest_defences = line::defences_longest(s, pos, &line, upper);
    }
    let established = longest_defences && line.len() == upper;
    if lower >= upper && !established && s.aborted().is_none() {
        let exact_line = line::walk(s, pos, line::Target::Exactly(upper))
            .and_then(|(l, exact)| line::verify(pos, &l, s.attacker()).map(|()| (l, exact)));
        match exact_line {
            Ok((l, exact)) => {
                line = l;
                line_bounded = true;
                longest_defences = exact;
            }
            Err(e) => log::info!("could not read a line of the proven length {upper}: {e}"),
        }
    }
    let mut status = MateStatus {
        upper: upper as u32,
        lower: lower as u32,
        longest_defences,
        line_len: line.len() as u32,
        composer_len: None,
    };
    s.set_reported(Some((line.clone(), status.clone())));
    *last = Some(Remembered {
        key: pos.key(),
        attacker: s.attacker(),
        line: line.clone(),
        bounded: line_bounded,
        status: status.clone(),
    });
    if limits.post_search == PostSearch::Composer && s.aborted().is_none() {
        let composed = line::compose(s, pos, &line, 0);
        match line::verify_composed(pos, &composed, s.attacker()) {
            Ok(()) if s.aborted().is_none() => {
                if composed != line {
                    // Replaced defences were chosen by reading, not proven longest.
                    status.longest_defences = false;
                    status.composer_len = Some(composed.len() as u32);
                }
                return (Outcome::Mate(composed), Some(status));
            }
            Ok(()) => log::info!("stopped while composing; returning the strict line"),
            Err(e) => log::warn!("composed line failed verification ({e}); strict line kept"),
        }
    }
    (Outcome::Mate(line), Some(status))
}

/// The length limit of the next shortest-mate round, given that a mate within `upper` plies
/// is proven and none within fewer than `lower`: `upper - 2j`, which keeps the parity every
/// mate from this root has (so a failure at it proves `lower = limit + 2`). Galloping, `j` is
/// `step` (1, 2, 4, ... while rounds find mates); bisecting (after a round failed), it is half
/// the candidates left, rounded up, so the top candidate `upper - 2` is tried when one or two
/// are left. Never below `lower`.
///
/// Why: the rounds step down two plies at a time, and on a problem whose first proof is far
/// above its minimum most of them are cheap but there are many: long-ge50 row 1 (353 plies)
/// was first proven at 533, and its rounds went down 2 plies at a time, reaching 353 after
/// about 48 s (1024 MB); a round far below the minimum fails cheaply, since a short length
/// limit cuts the search shallow.
fn next_limit(lower: usize, upper: usize, step: usize, bisect: bool) -> u32 {
    let candidates = (upper - lower) / 2;
    let j = if bisect {
        candidates.div_ceil(2)
    } else {
        step.min(candidates)
    };
    (upper - 2 * j.max(1)) as u32
}

/// One round of the shortest-mate search: a mate within `limit` plies from the root, or none.
/// The round first searches attacker positions of `line` (the shortest line proven so far,
/// from the root `pos`) `SWEEP_STRIDE` plies apart, from its end back to the root, each with the
/// moves before it as its path and `limit` as the same absolute limit, so that each proves or
/// refutes a mate within `limit - d` plies from ply d; then the root. Bottom-up, the line's
/// positions have their strongest refutation ("no mate within the remainder minus two") in the
/// table before the searches above them reach them, by the line or by a detour that arrives
/// later with less to spare; from the root alone, df-pn reached them first by detours, refuted
/// them within those smaller lengths, and did the work again for the line's own. Microcosmos'
/// proof that no mate within 1523 plies exists: 237 M nodes (275 s) from the root, 88 M (129
/// s) swept at every attacker position, 89 M (110 s) every 32 plies; 図巧100番's answer: 22.3 M
/// nodes from the root, 15.6 M swept. Every position is too many on short lines: the sweep
/// insists on refuting the line's own defences where the root search finds an easier escape
/// (extra1-9 at 3 s a problem took 5.2 s instead of 1.7 s), and 32 plies leaves those alone.
/// A line read by following stored lengths, not minimax, is no guide (its remainders bound
/// nothing): the root is searched at once. When a position of the line has a mate within the
/// limit, the sweep stops and the root is searched.
fn round(
    s: &mut Search,
    pos: &mut Position,
    line: &[Move],
    bounded: bool,
    limit: u32,
) -> NodeResult {
    if !bounded {
        return s.prove(pos);
    }
    let or_root = pos.side_to_move() == s.attacker();
    let stride = SWEEP_STRIDE;
    // Attacker positions `stride` plies apart (rounded to an attacker ply), the deepest one
    // `stride` plies from the end of the line.
    let plies = (1..line.len().saturating_sub(stride - 1))
        .rev()
        .filter(|&d| (d % 2 == 0) == or_root && (d as u32) < limit)
        .step_by(stride / 2);
    for d in plies {
        let r = s.prove_at_helped(pos, &line[..d], None, limit);
        if s.aborted().is_some() || s.over_budget() {
            break;
        }
        if r.v.pn == 0 {
            log::debug!(
                "sweep: ply {d} of the line has a mate within {}",
                limit - d as u32
            );
            break;
        }
    }
    s.prove(pos)
}

/// Rounds that must find mates, stepping down two plies, before the step starts doubling.
const GALLOP_AFTER: usize = 3;

/// A speculative round's node budget, in multiples of the nodes searched so far. Measured on
/// long-ge50 row 1 (353 plies, 1024 MB; its useful speculative rounds fail below the minimum
/// and give lower bounds) and famous.tsv row 56 (25 plies, 30 s): with 1, row 1's rounds were
/// abandoned again and again and its minimum took 36 s; with 2, 60 s was not enough (an
/// abandoned round's unsolved entries, numbers found under a shorter limit, misled the next
/// round); with 4, 17.7 s. Row 56 reached 25 plies in 6 to 8 s with each.
const SPECULATION_BUDGET: u64 = 4;

/// Proven bound (plies) below which the rounds never gallop.
const GALLOP_MIN_BOUND: usize = 64;

/// Shortest line given shortcut passes (see `shorten_line`).
const SHORTCUT_MIN_LINE: usize = 64;

/// Plies between the line positions a round's sweep searches (see `round`).
const SWEEP_STRIDE: usize = 32;

/// Plies searched from each attacker position of the line for a shortcut (see
/// `line::shortcut`): passes start at the first depth and go two plies deeper while a pass finds
/// nothing, up to the last.
const SHORTCUT_DEPTHS: std::ops::RangeInclusive<u32> = 4..=8;

/// Shortens a minimax line (`bounded`) by shortcut passes (`line::shorten`), reading the line
/// again after each pass that stored a shorter proof; each shorter line read is a proven bound
/// and is published. A pass that finds nothing is repeated two plies deeper, up to the last of
/// `SHORTCUT_DEPTHS`; all the passes of one call together visit at most as many positions as
/// the search has nodes so far (a pass visit costs about a third of a search node), so they
/// take at most about a third of the time spent.
///
/// Why deeper: 雪月花 (famous.tsv row 217, the set's length 353, KomoringHeights' 30 s bound;
/// 1 thread, 1024 MB) is first proven at 523 plies. Passes of 4 plies took it to 399 and found
/// no more, and the round within 397 did not finish in the remaining 25 s; 6 plies reached 351
/// (two passes, 0.16 s), 8 plies 319 (two passes, 0.7 s), where KomoringHeights' rounds reach
/// 353 at 10.7 s and 317 at 26 s. Its detours are ladders of 30 plies on the edge file where
/// one of 6 does, whose shorter form needs 6 or 8 plies to rejoin the line.
fn shorten_line(
    s: &mut Search,
    pos: &mut Position,
    line: &mut Vec<Move>,
    bounded: bool,
    upper: &mut usize,
    lower: usize,
    minimax: &mut bool,
) {
    // On a short line the rounds are cheap and find the same shortcuts; the passes' own cost
    // (about a millisecond each with the reading after them, not counted as nodes) was 10% of
    // mate3-11's time at 3 s a problem with no threshold, and 8% of extra1-9's at 32 plies.
    if !bounded || line.len() < SHORTCUT_MIN_LINE {
        return;
    }
    let mut depth = *SHORTCUT_DEPTHS.start();
    let mut budget = s.nodes() as usize;
    while budget > 0 {
        let t0 = Instant::now();
        let pass = line::shorten(s, pos, line, depth, budget);
        budget = budget.saturating_sub(pass.visits);
        log::debug!(
            "shortcut pass of {depth} plies over {} plies: {} improved, {} positions{}, {} ms",
            line.len(),
            pass.improved,
            pass.visits,
            if pass.exhausted {
                " (budget spent)"
            } else {
                ""
            },
            t0.elapsed().as_millis()
        );
        if pass.stopped {
            return;
        }
        // A pass shortened the line only if the reading after it is shorter. Improved
        // positions off the line (or ties) leave it as long as it was: that is a pass that
        // found nothing for the line, so the next one goes deeper, as after a pass that
        // improved nothing. Ending the passes there instead left 雪月花 (famous.tsv row 217)
        // at 369 plies with two threads in one run of two: its 6-ply pass improved 4
        // positions and the line stayed 369, so the 8-ply pass that took the other run from
        // 367 to 343 (106 improved, 0.6 s) never ran, and the round within 367 then used the
        // remaining 27 s unfinished.
        let shortened = pass.improved > 0
            && match read_line(s, pos, minimax) {
                Ok((l, true)) if l.len() < line.len() => {
                    *upper = (*upper).min(l.len());
                    *line = l;
                    publish(
                        s,
                        line,
                        *upper,
                        lower,
                        format!("mate within {upper} plies proven"),
                    );
                    true
                }
                Ok((_, true)) => false,
                Ok((_, false)) => return,
                Err(e) => {
                    log::info!("no line read after a shortcut pass: {e}");
                    return;
                }
            };
        if !shortened {
            if depth >= *SHORTCUT_DEPTHS.end() {
                return;
            }
            depth += 2;
        }
    }
}

/// Shows `line` with what is proven so far (a mate within `upper` plies, none within fewer than
/// `lower`) in progress reports from now on, and reports `news` at once.
fn publish(s: &mut Search, line: &[Move], upper: usize, lower: usize, news: String) {
    let status = MateStatus {
        upper: upper as u32,
        lower: lower as u32,
        longest_defences: false,
        line_len: line.len() as u32,
        composer_len: None,
    };
    s.set_reported(Some((line.to_vec(), status)));
    s.report(news);
}

/// Whether the defender has a single legal move at every one of its turns on `line` (then every
/// defence is trivially the longest).
fn forced_defences(root: &Position, line: &[Move], or_root: bool) -> bool {
    let mut pos = root.clone();
    for (i, &m) in line.iter().enumerate() {
        let defender_moves = (i % 2 == 1) == or_root;
        if defender_moves && pos.legal_move_list().len() != 1 {
            return false;
        }
        pos.do_move(m);
    }
    true
}

/// Most positions one minimax reading may visit (memory: see `read_line`).
const MINIMAX_MAX_POSITIONS: usize = 1_000_000;

/// Reads the mating line after a proof: by minimax over the stored proofs (`line::read_minimax`:
/// its length is the length the attacker can force with them, a proven bound that is never
/// below the true minimum), or, when the table lacks a proof on the way, by following stored
/// lengths and proving lost nodes again (`line::walk` with any target; its defences may be mated faster than
/// the proof's length, so its length bounds nothing).
/// Returns the line and whether it is a minimax reading. Once a minimax reading
/// has given up on its budget, `minimax` is cleared and later calls of the same solve follow
/// stored lengths at once: each round of the shortest-mate search would otherwise spend the
/// whole budget again (a 353-ply problem spent most of 30 s so).
fn read_line(
    s: &mut Search,
    pos: &mut Position,
    minimax: &mut bool,
) -> Result<(Vec<Move>, bool), String> {
    #[cfg(test)]
    if tests::refuse_reading() {
        return Err("reading refused by the test".into());
    }
    if *minimax {
        // Reading is bounded absolutely: its memo takes about 40 bytes a position, and the
        // process must stay within the table size plus 64 MB. The budget is not tied to this
        // search's nodes: with a warm table (a second `go mate` on the same position) the
        // proofs were built by an earlier search, and a budget of half of this one's few nodes
        // gave up on the reading, so the answer fell back to stored lengths and printed a
        // 187-ply line with a short defence where the cold search had printed 403.
        match line::read_minimax(s, pos, MINIMAX_MAX_POSITIONS) {
            Ok(l) => match line::verify(pos, &l, s.attacker()) {
                Ok(()) => return Ok((l, true)),
                Err(e) => log::warn!("minimax line failed verification: {e}"),
            },
            Err(gave_up) => *minimax = !gave_up,
        }
        log::debug!("minimax reading failed; following stored lengths");
    }
    let (l, _) = line::walk(s, pos, line::Target::Any)?;
    line::verify(pos, &l, s.attacker())?;
    Ok((l, false))
}

/// The shortest mate proven so far: the proof's length, or a minimax line's if shorter.
fn proven_bound(proof_len: u16, line: &[Move], minimax: bool) -> usize {
    let proof_len = proof_len as usize;
    if minimax {
        proof_len.min(line.len())
    } else {
        proof_len
    }
}

/// The proof claims a length over the limit it was searched with: stop rather than loop.
fn l_is_stuck(proven_len: usize, limit: u32) -> bool {
    proven_len > limit as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::{SearchResult, Solver, Threshold};
    use std::sync::atomic::AtomicBool;

    const BRIEF: &str = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1";

    thread_local! {
        /// Readings `read_line` still performs on this thread before it refuses every one
        /// (`None`: it never refuses).
        static READS_LEFT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
    }

    /// Whether `read_line` must fail now (see `READS_LEFT`).
    pub(super) fn refuse_reading() -> bool {
        READS_LEFT.with(|r| match r.get() {
            Some(0) => true,
            Some(n) => {
                r.set(Some(n - 1));
                false
            }
            None => false,
        })
    }

    /// A line that cannot be read after a round proved a shorter mate must not end the
    /// shortest-mate search: the bound is proven either way. It did end it, and long-ge50's
    /// 353-ply horse-circling problem with six threads (4 runs in about 80 under load) was
    /// answered "mate within 357 to 379, none shorter refuted" a few seconds into a 120 s
    /// budget, with a 233-ply line read by stored lengths. Here the first proof's line is read
    /// and every later reading fails: the rounds must still go down to the minimum (5: the
    /// first proof is 9 plies, rounds prove 7 and 5 and refute 3) and read its exact line.
    #[test]
    fn unreadable_shorter_line_does_not_end_the_rounds() {
        let pos = Position::from_sfen("7nk/9/9/9/9/9/9/9/9 b 2RB2G2S 1").unwrap();
        let mut solver = Solver::new(16);
        READS_LEFT.with(|r| r.set(Some(1)));
        let r = solver.solve(
            &pos,
            &Limits::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let refused = READS_LEFT.with(|r| r.replace(None)) == Some(0);
        assert!(refused, "the rounds never read a line");
        let Outcome::Mate(line) = r.outcome else {
            panic!("{:?}", r.outcome)
        };
        let st = r.status.unwrap();
        assert_eq!((st.lower, st.upper), (5, 5), "{st:?}");
        assert_eq!(line.len(), 5);
        line::verify(&pos, &line, Color::Black).unwrap();
        assert!(st.established(), "{st:?}");
    }

    /// `--threshold kh` looped for good in the shortest-mate rounds; the rule
    /// is gone, and the default rule's post-search ends on the same problem.
    #[test]
    fn kh_threshold_dropped_and_post_search_ends_item3() {
        assert_eq!(Threshold::parse("kh"), None);
        let mut solver = Solver::new(16);
        let pos = Position::from_sfen(BRIEF).unwrap();
        let limits = Limits {
            nodes: Some(2_000_000),
            ..Limits::default()
        };
        let r = solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        assert!(
            matches!(&r.outcome, Outcome::Mate(l) if l.len() == 9),
            "{:?}",
            r.outcome
        );
        assert!(r.status.unwrap().established());
    }

    /// The next round's limit gallops down from the proven bound while rounds find
    /// mates, then halves the interval; it always keeps the parity of the mates and stays
    /// within [lower, upper - 2], so a failure at it proves `lower = limit + 2`. The figures are
    /// long-ge50 row 1's rounds (first proof 533, minimum 353).
    #[test]
    fn next_limit_gallops_then_bisects() {
        assert_eq!(next_limit(1, 533, 1, false), 531);
        assert_eq!(next_limit(1, 523, 2, false), 519);
        assert_eq!(next_limit(1, 399, 64, false), 271);
        assert_eq!(next_limit(1, 9, 8, false), 1, "never below the lower bound");
        assert_eq!(next_limit(273, 399, 128, true), 335);
        assert_eq!(next_limit(353, 367, 1, true), 359);
        assert_eq!(next_limit(353, 357, 1, true), 355, "two left: the top one");
        assert_eq!(next_limit(353, 355, 1, true), 353, "one left");
        for lower in (0..40).step_by(1) {
            for upper in ((lower + 2)..90).step_by(2) {
                for step in [1, 2, 4, 64] {
                    for bisect in [false, true] {
                        let l = next_limit(lower, upper, step, bisect) as usize;
                        assert!(
                            l >= lower && l + 2 <= upper,
                            "{lower} {upper} {step} {bisect}"
                        );
                        assert_eq!((upper - l) % 2, 0);
                    }
                }
            }
        }
    }

    /// `--nodes 10` searched 256 nodes (the polling interval).
    #[test]
    fn node_limit_is_exact_item7() {
        let mut solver = Solver::new(16);
        let pos = Position::from_sfen(BRIEF).unwrap();
        for n in [1, 10, 300] {
            let limits = Limits {
                nodes: Some(n),
                ..Limits::default()
            };
            let r = solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
            assert_eq!(r.stats.nodes, n);
            if n < 100 {
                assert_eq!(r.outcome, Outcome::Unknown(UnknownReason::Nodes));
            } else {
                // Mate proven, then stopped in the shortest-mate rounds: not minimal.
                assert!(!r.status.unwrap().minimal());
            }
            solver.clear();
        }
    }

    /// A search stopped during the shortest-mate rounds returned its line
    /// with nothing said about it. The status says the shortest is not proven.
    #[test]
    fn stopped_shortest_search_reports_an_interval_item2() {
        let mut solver = Solver::new(16);
        let pos = Position::from_sfen(BRIEF).unwrap();
        let first = solver.solve(
            &pos,
            &Limits {
                post_search: PostSearch::None,
                ..Limits::default()
            },
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let Outcome::Mate(line) = first.outcome else {
            panic!("{:?}", first.outcome)
        };
        let st = first.status.unwrap();
        // Without a post-search nothing shorter was refuted.
        assert!(!st.minimal() && !st.established(), "{st:?}");
        assert!(
            st.describe().contains("shortest mate not proven"),
            "{}",
            st.describe()
        );
        assert_eq!(st.line_len as usize, line.len());
    }

    /// A composed answer names each of its two lengths: the composers' count (the line shown)
    /// and the strict count (what the search proved), each with what is proven of it. The
    /// sentence used to open with "mate in 9: shortest proven" beside a 3-ply line, stating
    /// the strict length as the line's.
    #[test]
    fn composed_answer_labels_the_composer_and_the_strict_count() {
        let mut solver = Solver::new(16);
        let pos = Position::from_sfen(BRIEF).unwrap();
        let limits = Limits {
            post_search: PostSearch::Composer,
            ..Limits::default()
        };
        let r = solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        let Outcome::Mate(line) = r.outcome else {
            panic!("{:?}", r.outcome)
        };
        assert_eq!(line.len(), 3);
        let text = r.status.unwrap().describe();
        let (composer, strict) = text
            .split_once("; strict count (every defence counted): ")
            .unwrap_or_else(|| panic!("no labelled strict count: {text}"));
        assert!(
            composer.starts_with("composer's count: 3 plies, the line shown"),
            "{text}"
        );
        assert!(!composer.contains('9'), "{text}");
        assert_eq!(strict, "mate in 9, shortest proven", "{text}");
    }

    /// Solves `sfen` with at most `max_plies` plies (the default post-search).
    fn solve_within(sfen: &str, max_plies: u32) -> SearchResult {
        let pos = Position::from_sfen(sfen).unwrap();
        let limits = Limits {
            max_plies: Some(max_plies),
            ..Limits::default()
        };
        let r = Solver::new(16).solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        if let Outcome::Mate(line) = &r.outcome {
            line::verify(&pos, line, pos.side_to_move()).unwrap();
        }
        r
    }

    /// `max_plies` answers "is there a mate within N plies?": a mate within N (the shortest,
    /// proven, with the post-search), else a proven "no mate within N", never "no mate".
    #[test]
    fn max_plies_proves_or_refutes_a_mate_within_the_limit() {
        // A mate in 3 (mate3-11.tsv's first row, written here).
        const MATE3: &str =
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";
        for (sfen, n, mate) in [
            (MATE3, 3, Some(3)),
            (MATE3, 4, Some(3)),
            (MATE3, 1, None),
            (BRIEF, 9, Some(9)),
            (BRIEF, 7, None),
            (BRIEF, 8, None),
            ("7nk/9/9/9/9/9/9/9/9 b 2RB2G2S 1", 3, None),
            ("7nk/9/9/9/9/9/9/9/9 b 2RB2G2S 1", 5, Some(5)),
        ] {
            let r = solve_within(sfen, n);
            match mate {
                Some(len) => {
                    assert!(
                        matches!(&r.outcome, Outcome::Mate(l) if l.len() == len),
                        "{sfen} within {n}: {:?}",
                        r.outcome
                    );
                    let st = r.status.unwrap();
                    assert!(st.established(), "{sfen} within {n}: {st:?}");
                }
                None => assert_eq!(
                    r.outcome,
                    Outcome::Unknown(UnknownReason::NoMateWithin(n)),
                    "{sfen} within {n}"
                ),
            }
        }
    }

    /// Under a length limit a position with no mate at all is still "no mate", proven; and
    /// the "no mate within" answer says in words that longer mates were not searched.
    #[test]
    fn max_plies_keeps_a_proof_of_no_mate_and_words_the_bound() {
        // Black has no checks at all.
        let r = solve_within("4k4/9/9/9/9/9/9/9/4K4 b - 1", 5);
        assert_eq!(r.outcome, Outcome::NoMate);
        assert_eq!(
            UnknownReason::NoMateWithin(7).to_string(),
            "no mate within 7 plies (proven; longer mates not searched)"
        );
    }

    /// A defender-to-move root (the attacker has no king) is searched as a
    /// defender node; the line starts with the defender's move and has even length.
    #[test]
    fn defender_to_move_root_item8() {
        // After B*1c of the example: White to move, Black has no king.
        let mut pos =
            Position::from_sfen("7l1/9/4g1+P2/6S1g/6k2/5ppp1/9/9/9 b BGS2rbg2s4n3l14p 1").unwrap();
        pos.do_move(Move::from_usi("B*1c").unwrap());
        let mut solver = Solver::new(16);
        let r = solver.solve(
            &pos,
            &Limits::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(r.defender_root);
        let Outcome::Mate(line) = r.outcome else {
            panic!("{:?}", r.outcome)
        };
        assert_eq!(line.len() % 2, 0);
        line::verify(&pos, &line, pos.side_to_move().flip()).unwrap();
        assert!(r.status.unwrap().established());
    }
}
