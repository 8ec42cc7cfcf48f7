//! The solve driver: decides the root's kind, runs the first proof, reads the line, runs the
//! shortest-mate post-search, decides what is established about the answer, and checks every
//! line it accepts by replay.
//!
//! One file a step: this file decides the root's kind and runs the steps in order (`run_root`:
//! the first proof, its line, the remembered answer; then, for a side to move in check without a
//! mate, the same as the defender); `shorten` holds the shortcut passes, `rounds` the
//! shortest-mate rounds, `reading` the line readings and what each proves, `finish` the
//! answer's status, the remembered answer and the composers' presentation.
//!
//! The shortest-mate post-search alternates two steps until a round fails:
//! - shortcut passes (`shorten`, over `line::shorten`): a few plies of search from each
//!   attacker position of the line for a mate shorter than its remainder there, then a new
//!   minimax reading; repeated while a pass finds something.
//! - a round (`rounds`: KomoringHeights' post-search, prove or refute a mate within a length
//!   below the proven one), swept from the end of the line back to the root. The length tried
//!   gallops down while rounds find mates and is bisected once one fails; a round below the
//!   bound minus two is speculative and has a node budget. Every refuted length is announced
//!   as a lower bound.
//!
//! Measured at `31e8aa6` (2048 MB, one thread, scripts/bench/shortest.py, see
//! docs/bench/shortest.md): Microcosmos' 1525-ply line 26.5 s after `go mate`, 0.7 s after
//! the first proof (KomoringHeights in the same run: 138.8 s); long-ge50 row 1, 353 plies,
//! minimal proven in 16 s (stepping two plies a round: over 60 s).
//!
//! The driver is the only caller of both the search (`dfpn`) and the line readers (`line`);
//! readers reach the search only through its narrow API (`Search::prove_at`, `stored`).

mod finish;
mod reading;
mod rounds;
mod shorten;
#[cfg(test)]
mod tests;

use super::clock::Instant;
use super::dfpn::{Search, CAP_REP};
use super::value::NO_MATE;
use super::{Limits, MateStatus, Outcome, PostSearch, SearchResult, UnknownReason};
use crate::shogi::{Color, Move, MoveList, Position};
use reading::{better_line, proven_bound, publish, read_line};

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
/// a side to move in check without a mate, the same as the defender (`as_defender`). `last` is
/// the solver's previous answer (see `run_root`).
pub(super) fn solve(
    s: &mut Search,
    kind: RootKind,
    root: &Position,
    limits: &Limits,
    last: &mut Option<Remembered>,
) -> SearchResult {
    let mut pos = root.clone();
    let (mut outcome, mut status) = run_root(s, &mut pos, limits, last);
    if kind == RootKind::AttackerThenDefender && (outcome == Outcome::NoMate || within(&outcome)) {
        (outcome, status) = as_defender(s, root, &mut pos, limits, last, outcome);
    }
    result(s, root, outcome, status)
}

/// A refutation only within the user's length limit (a proven bound, not "no mate").
fn within(o: &Outcome) -> bool {
    matches!(o, Outcome::Unknown(UnknownReason::NoMateWithin(_)))
}

/// Step, the defender-root case: the side to move is in check and has no mate (`first`), so
/// the root is searched again with the other side attacking, as KomoringHeights'
/// `RootIsAndNodeIfChecked` does (GUIs ask for mate at the defender's turn when stepping
/// through a solution). "No mate" only when both searches prove it at every length; one
/// refuted only within the length limit makes the answer "no mate within the limit".
fn as_defender(
    s: &mut Search,
    root: &Position,
    pos: &mut Position,
    limits: &Limits,
    last: &mut Option<Remembered>,
    first: Outcome,
) -> (Outcome, Option<MateStatus>) {
    log::info!("the side to move in check has no mate; searching it as the defender");
    s.set_attacker(root, root.side_to_move().flip());
    let (outcome, status) = run_root(s, pos, limits, last);
    if outcome == Outcome::NoMate && within(&first) {
        return (first, status);
    }
    (outcome, status)
}

/// Step, the result: the outcome with the search's counters, its best line so far (for an
/// undecided answer), whether the root was searched as the defender, and why the search was
/// cut short, if it was.
fn result(
    s: &Search,
    root: &Position,
    outcome: Outcome,
    status: Option<MateStatus>,
) -> SearchResult {
    SearchResult {
        best_mate: s.reported_line().cloned(),
        outcome,
        stats: s.stats(),
        status,
        defender_root: s.attacker() != root.side_to_move(),
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

/// What the solve of one root has established so far, carried from step to step.
pub(super) struct Proven {
    /// The line kept (the strict count), verified by replay.
    line: Vec<Move>,
    /// `line` is a minimax reading, so its length is a proven bound (see `read_line`).
    bounded: bool,
    /// A mate within `upper` plies is proven, and none within fewer than `lower`.
    upper: usize,
    lower: usize,
    /// Every defence of `line` is known to be a longest one.
    longest_defences: bool,
    /// The root is an attacker (OR) node.
    or_root: bool,
}

/// Searches the root, reads its line and, with a post-search, the shortest mate, one step after
/// another (`first_proof`, `first_line`, `Proven::resume`, `shorten::shorten_line`,
/// `rounds::shortest_mate`, `finish::finish`). Returns the outcome and, with a mate, what is
/// established about it (see `MateStatus`). `last` is the solver's previous answer: if it is
/// for this position, the search starts from it (a warm table must never make an answer worse:
/// a second `go mate` on the same position printed a 187-ply line with a short defence after a
/// 403-ply one), and it is replaced by this answer.
fn run_root(
    s: &mut Search,
    pos: &mut Position,
    limits: &Limits,
    last: &mut Option<Remembered>,
) -> (Outcome, Option<MateStatus>) {
    let user_limit = limits.max_plies.unwrap_or(u32::MAX);
    s.set_limit(user_limit);
    s.set_reported(None);
    let proof_len = match first_proof(s, pos, user_limit) {
        Ok(len) => len,
        Err(outcome) => return (outcome, None),
    };
    let mut minimax = true;
    let mut p = match first_line(s, pos, proof_len, &mut minimax) {
        Ok(p) => p,
        Err(outcome) => return (outcome, None),
    };
    p.resume(last.take(), pos.key(), s.attacker());
    publish(
        s,
        &p.line,
        p.upper,
        p.lower,
        format!("mate within {} plies proven", p.upper),
    );
    if limits.post_search != PostSearch::None {
        shorten::shorten_line(s, pos, &mut p, &mut minimax);
        rounds::shortest_mate(s, pos, &mut p, user_limit, &mut minimax);
    }
    s.set_limit(user_limit);
    finish::finish(s, pos, limits, p, last)
}

/// Step, the first proof: df-pn from the root under the user's length limit. Returns the
/// proof's length, or the outcome when there is no proof to read a line from: stopped or out
/// of limits, no mate (at any length, or only within the limit: a proven bound, not a proof
/// that there is none), or a root left unsolved.
fn first_proof(s: &mut Search, pos: &mut Position, user_limit: u32) -> Result<u16, Outcome> {
    let (n0, t0) = (s.nodes(), Instant::now());
    let r = s.prove(pos);
    log::debug!(
        "first search: {} nodes, {} ms",
        s.nodes() - n0,
        t0.elapsed().as_millis()
    );
    if let Some(reason) = s.aborted().cloned() {
        return Err(Outcome::Unknown(reason));
    }
    if r.v.dn == 0 && r.rep == CAP_REP {
        // Failed at the path cap on every path: no proof of anything (see `CAP_REP`).
        return Err(Outcome::Unknown(UnknownReason::PathCap(s.depth_cap())));
    }
    if r.v.dn == 0 {
        if r.v.len != NO_MATE {
            // Refuted only within the user's length limit: a proven bound, not a proof that
            // there is no mate.
            // (The proof's own bound: never below the limit at the root, and what is proven
            // in the unexpected case that it is.)
            let n = (r.v.len as u32).min(user_limit);
            return Err(Outcome::Unknown(UnknownReason::NoMateWithin(n)));
        }
        return Err(Outcome::NoMate);
    }
    if r.v.pn != 0 {
        let why = format!("root left unsolved (pn {}, dn {})", r.v.pn, r.v.dn);
        return Err(Outcome::Unknown(UnknownReason::Unverified(why)));
    }
    Ok(r.v.len)
}

/// Step, reading the line of the first proof (`read_line`, verified by replay) and what it
/// proves: a mate within `upper` plies (the proof's length, or a minimax line's), and none
/// within fewer than `lower` (a mate takes at least one check; a defender-to-move root may be
/// mated already). A proof whose line cannot be read is an unverified answer, never a mate.
fn first_line(
    s: &mut Search,
    pos: &mut Position,
    proof_len: u16,
    minimax: &mut bool,
) -> Result<Proven, Outcome> {
    let t0 = Instant::now();
    let (line, bounded) = match read_line(s, pos, minimax) {
        Ok(l) => l,
        Err(e) => {
            if let Some(reason) = s.aborted().cloned() {
                return Err(Outcome::Unknown(reason));
            }
            log::warn!("mate proven but no verified line: {e}");
            return Err(Outcome::Unknown(UnknownReason::Unverified(e)));
        }
    };
    log::debug!(
        "line read: {} plies, {} ms",
        line.len(),
        t0.elapsed().as_millis()
    );
    let or_root = pos.side_to_move() == s.attacker();
    Ok(Proven {
        upper: proven_bound(proof_len, &line, bounded),
        lower: if or_root { 1 } else { 0 },
        line,
        bounded,
        longest_defences: false,
        or_root,
    })
}

impl Proven {
    /// Step, starting from the solver's previous answer (`last`) when it is for this position
    /// (`key`) and attacker: its bounds are proven too, and its line is kept if it is known to
    /// have the longest defences or is the better line (`better_line`). Why: a warm table must
    /// never make an answer worse.
    fn resume(&mut self, last: Option<Remembered>, key: u64, attacker: Color) {
        let Some(m) = last.filter(|m| m.key == key && m.attacker == attacker) else {
            return;
        };
        self.upper = self.upper.min(m.status.upper as usize);
        self.lower = self.lower.max(m.status.lower as usize);
        let kept_longest = m.status.longest_defences;
        if kept_longest || better_line(m.bounded, m.line.len(), self.bounded, self.line.len()) {
            self.line = m.line;
            self.bounded = m.bounded;
            self.longest_defences = kept_longest;
        }
    }
}
