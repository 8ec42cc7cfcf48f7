//! The root's first moves one by one, over the table the root's own search left:
//!
//! - MultiPV: after the best line, every other check of an attacker root, each with what is
//!   proven of it: a mate with its length (the shortest, or a bound), no mate (with a defence
//!   that refutes it), or undecided. KomoringHeights 1.1 reports the other mating first moves;
//!   here every check gets a verdict, and a mate's length is said to be minimal only when that
//!   was proven.
//! - Refutations: for a root proven to have no mate, each check with a defence after which
//!   there is proven to be no mate (KomoringHeights 1.1 shows one defence to the best try).
//!
//! Each first move is solved as a root of its own: the position after the check, with the
//! defender to move (then, for a refutation, the position after the defence, with the
//! attacker to move). Those positions have the root's material, so they share its table salt
//! and find what the root's search stored. A verdict holds without the root on the path: a
//! disproof or proof of a position holds on any path that reaches it (the table's stored
//! results never depend on the path), and every line is replayed and verified by the solver.
//!
//! The checks are searched in passes under a node budget that doubles from pass to pass
//! (starting from the root's own search's nodes), so that one hard check cannot hold back the
//! verdicts of the others; a pass searches only the checks not yet settled (a mate whose
//! shortest length is not proven yet is searched again, on the warm table, and its verdict
//! replaced only by a better one).

use super::clock::Instant;
use super::driver::RootKind;
use super::{Limits, MateStatus, Outcome, PostSearch, SearchResult, Solver, Stats, UnknownReason};
use crate::shogi::{Move, MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// Node budget of a check in the first pass, at least (see the module's notes).
const FIRST_PASS_NODES: u64 = 100_000;

/// What a first move leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It mates: `line` starts with it (replayed and verified), and `status` says what is
    /// proven of its length, in plies from the root.
    Mate {
        /// The mating line, the check first.
        line: Vec<Move>,
        /// What is proven of its length.
        status: MateStatus,
    },
    /// It does not mate (proven), and a defence that refutes it when one was established.
    NoMate(Option<Refutation>),
    /// Not decided within the limits, and why.
    Undecided(UnknownReason),
}

/// A defence that refutes a check: after it there is proven to be no mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// The defender's move.
    pub defence: Move,
    /// It is the defender's only legal reply.
    pub only_reply: bool,
}

/// A first move of the root and its verdict.
#[derive(Clone, Debug)]
pub struct FirstMove {
    /// The check.
    pub mv: Move,
    /// What it leads to.
    pub verdict: Verdict,
    /// Nodes and time spent on it (every pass, the refutation's searches included).
    pub stats: Stats,
}

impl FirstMove {
    /// Whether nothing more is to be learnt: no mate, or a mate of proven shortest length.
    pub fn settled(&self) -> bool {
        match &self.verdict {
            Verdict::Mate { status, .. } => status.minimal(),
            Verdict::NoMate(_) => true,
            Verdict::Undecided(_) => false,
        }
    }

    /// Sort key, best first: mates by their proven bound (a proven shortest before a bound
    /// of the same length, then the shorter line), then undecided checks, then checks that do
    /// not mate; the move's text last, so the order is the same in every run.
    fn rank(&self) -> (u8, u32, bool, usize, String) {
        let name = self.mv.to_string();
        match &self.verdict {
            Verdict::Mate { line, status } => {
                (0, status.upper, !status.minimal(), line.len(), name)
            }
            Verdict::Undecided(_) => (1, 0, false, 0, name),
            Verdict::NoMate(_) => (2, 0, false, 0, name),
        }
    }
}

/// Sorts first moves best first (see [`FirstMove::rank`]).
pub fn sort_best_first(moves: &mut [FirstMove]) {
    moves.sort_by_cached_key(FirstMove::rank);
}

/// What is established about a line `[check] + line` from what is established about `line`
/// from the position after the check: one ply more, everything else the same.
fn after_first_move(st: &MateStatus) -> MateStatus {
    MateStatus {
        upper: st.upper + 1,
        lower: st.lower + 1,
        longest_defences: st.longest_defences,
        line_len: st.line_len + 1,
        composer_len: st.composer_len.map(|c| c + 1),
    }
}

/// The limits of the whole enquiry: a deadline, a node total, the stop flag.
struct Budget<'a> {
    deadline: Option<Instant>,
    nodes_left: Option<u64>,
    stop: &'a AtomicBool,
}

impl Budget<'_> {
    fn new<'a>(limits: &Limits, stop: &'a AtomicBool) -> Budget<'a> {
        Budget {
            deadline: limits.time.and_then(|t| Instant::now().checked_add(t)),
            nodes_left: limits.nodes,
            stop,
        }
    }

    /// Why no more searching may be done, if that is so.
    fn spent(&self) -> Option<UnknownReason> {
        if self.stop.load(Ordering::Relaxed) {
            Some(UnknownReason::Stopped)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(UnknownReason::Time)
        } else if self.nodes_left == Some(0) {
            Some(UnknownReason::Nodes)
        } else {
            None
        }
    }

    /// Limits of one search of at most `nodes` nodes, within what is left.
    fn limits(&self, nodes: u64, max_plies: Option<u32>, post_search: PostSearch) -> Limits {
        Limits {
            time: self
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
            nodes: Some(self.nodes_left.map_or(nodes, |n| n.min(nodes))),
            max_plies,
            info_interval: None,
            post_search,
            root_is_and_if_checked: true,
        }
    }

    fn charge(&mut self, stats: &mut Stats, r: &SearchResult) {
        stats.nodes += r.stats.nodes;
        stats.time += r.stats.time;
        stats.hashfull = r.stats.hashfull;
        stats.repetitions += r.stats.repetitions;
        if let Some(n) = &mut self.nodes_left {
            *n = n.saturating_sub(r.stats.nodes);
        }
    }
}

impl Solver {
    /// Searches the checks of `pos` (an attacker root: its side to move mates) other than
    /// `skip` (the first move of the best line, already answered) within `limits` (time, nodes
    /// and length for the whole enquiry; its post-search for each mate), in passes (see the
    /// module's notes) whose first gives each check `base_nodes` nodes (the root's search's,
    /// at least [`FIRST_PASS_NODES`]). `found` is called with each verdict as it is reached
    /// (a later pass may report the same move again, better). Returns every check with its
    /// last verdict, best first. The remembered answer of the root (see `Solver::solve`) is
    /// kept.
    pub fn other_first_moves(
        &mut self,
        pos: &Position,
        skip: Option<Move>,
        base_nodes: u64,
        limits: &Limits,
        stop: &AtomicBool,
        found: &mut dyn FnMut(&FirstMove),
    ) -> Vec<FirstMove> {
        let mut checks = MoveList::new();
        pos.check_moves(&mut checks);
        let others: Vec<Move> = checks
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| Some(m) != skip)
            .collect();
        self.first_moves_among(pos, &others, base_nodes, limits, stop, found)
    }

    /// [`Solver::other_first_moves`] for the checks `checks` of `pos` only (each a check of
    /// `pos`): a host that searches in bounded slices (the web page) takes the checks a few at
    /// a time, so that one hard check cannot hold back the others from slice to slice.
    pub fn first_moves_among(
        &mut self,
        pos: &Position,
        checks: &[Move],
        base_nodes: u64,
        limits: &Limits,
        stop: &AtomicBool,
        found: &mut dyn FnMut(&FirstMove),
    ) -> Vec<FirstMove> {
        let mut moves: Vec<FirstMove> = checks
            .iter()
            .map(|&m| FirstMove {
                mv: m,
                verdict: Verdict::Undecided(UnknownReason::Nodes),
                stats: Stats::default(),
            })
            .collect();
        let last = self.last.take();
        let mut budget = Budget::new(limits, stop);
        let child_limit = limits.max_plies.map(|n| n.saturating_sub(1).max(1));
        let mut pass_nodes = base_nodes.max(FIRST_PASS_NODES);
        // Checks a later pass may tell more of: not settled, and their last search was cut by
        // its node budget (one that ended otherwise undecided would end so again).
        let mut open = vec![true; moves.len()];
        loop {
            let mut searched = false;
            for (fm, open) in moves.iter_mut().zip(open.iter_mut()).filter(|(_, o)| **o) {
                if let Some(why) = budget.spent() {
                    if let Verdict::Undecided(old) = &mut fm.verdict {
                        *old = why;
                    }
                    continue;
                }
                searched = true;
                let mut child = pos.clone();
                child.do_move(fm.mv);
                let lim = budget.limits(pass_nodes, child_limit, limits.post_search);
                let r = self.solve_as(&child, RootKind::Defender, &lim, stop, &mut |_| {});
                budget.charge(&mut fm.stats, &r);
                let verdict = match (&r.outcome, &r.best_mate) {
                    (Outcome::Mate(l), _) | (Outcome::Unknown(_), Some(l)) => {
                        let line: Vec<Move> =
                            std::iter::once(fm.mv).chain(l.iter().copied()).collect();
                        let status = r.status.as_ref().map_or_else(
                            || MateStatus {
                                upper: line.len() as u32,
                                lower: 1,
                                longest_defences: false,
                                line_len: line.len() as u32,
                                composer_len: None,
                            },
                            after_first_move,
                        );
                        Verdict::Mate { line, status }
                    }
                    (Outcome::NoMate, _) => {
                        let refutation = self.refute(&child, &mut budget, &mut fm.stats);
                        Verdict::NoMate(refutation.ok().flatten())
                    }
                    (Outcome::Unknown(why), None) => Verdict::Undecided(why.clone()),
                };
                if better(&verdict, &fm.verdict) {
                    fm.verdict = verdict;
                    found(fm);
                } else if let (Verdict::Undecided(_), Verdict::Undecided(_)) =
                    (&verdict, &fm.verdict)
                {
                    // Still undecided: the latest reason.
                    fm.verdict = verdict;
                }
                *open = !fm.settled() && r.interrupted == Some(UnknownReason::Nodes);
            }
            if !searched {
                break;
            }
            pass_nodes = pass_nodes.saturating_mul(2);
        }
        self.last = last;
        sort_best_first(&mut moves);
        moves
    }

    /// For a position with no mate (proven), a refutation of each check (see
    /// [`Solver::refute`]): every check with `NoMate(Some(..))`, or `Undecided` when no
    /// defence could be shown to refute it within `limits` (or `NoMate(None)` had it no legal
    /// reply, which a check of a position without mate always has). Best first (by the
    /// move's text: they all fail).
    pub fn refutations(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<FirstMove> {
        let mut checks = MoveList::new();
        pos.check_moves(&mut checks);
        self.refutations_among(pos, checks.as_slice(), limits, stop)
    }

    /// [`Solver::refutations`] for the checks `checks` of `pos` only (see
    /// [`Solver::first_moves_among`]).
    pub fn refutations_among(
        &mut self,
        pos: &Position,
        checks: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<FirstMove> {
        let last = self.last.take();
        let mut budget = Budget::new(limits, stop);
        let mut out = Vec::new();
        for &m in checks {
            let mut child = pos.clone();
            child.do_move(m);
            let mut stats = Stats::default();
            let verdict = match self.refute(&child, &mut budget, &mut stats) {
                Ok(r) => Verdict::NoMate(r),
                Err(why) => Verdict::Undecided(why),
            };
            out.push(FirstMove {
                mv: m,
                verdict,
                stats,
            });
        }
        self.last = last;
        sort_best_first(&mut out);
        out
    }

    /// A defence of `child` (the defender to move, after a check) after which there is proven
    /// to be no mate: the position after each legal defence solved with the attacker to move
    /// (a stored disproof answers at once), in passes whose node budget doubles (a defence
    /// that is mated leaves the passes), the first proven without mate taken. `Ok(None)`:
    /// every defence is mated (the check mates; never so after a position without mate).
    /// `Err`: none was proven within the budget, or a search ended undecided for another
    /// reason than its budget (why).
    fn refute(
        &mut self,
        child: &Position,
        budget: &mut Budget,
        stats: &mut Stats,
    ) -> Result<Option<Refutation>, UnknownReason> {
        let defences = child.legal_move_list();
        let only_reply = defences.len() == 1;
        let mut open: Vec<Move> = defences.as_slice().to_vec();
        let mut pass_nodes = FIRST_PASS_NODES;
        let mut why = None;
        while !open.is_empty() {
            let mut still = Vec::new();
            for &d in &open {
                if let Some(w) = budget.spent() {
                    return Err(w);
                }
                let mut next = child.clone();
                next.do_move(d);
                let lim = budget.limits(pass_nodes, None, PostSearch::None);
                let r = self.solve_as(&next, RootKind::Attacker, &lim, budget.stop, &mut |_| {});
                budget.charge(stats, &r);
                match r.outcome {
                    Outcome::NoMate => {
                        return Ok(Some(Refutation {
                            defence: d,
                            only_reply,
                        }))
                    }
                    Outcome::Mate(_) => {}
                    // Only a search cut by its node budget can learn more in a later pass.
                    Outcome::Unknown(_) if r.interrupted == Some(UnknownReason::Nodes) => {
                        still.push(d)
                    }
                    Outcome::Unknown(w) => why = Some(w),
                }
            }
            open = still;
            pass_nodes = pass_nodes.saturating_mul(2);
        }
        why.map_or(Ok(None), Err)
    }
}

/// Whether verdict `new` tells more than `old`: any verdict beats an undecided one; a mate
/// beats another with a smaller proven bound, or the same bound with a minimality proof or a
/// shorter line.
pub fn better(new: &Verdict, old: &Verdict) -> bool {
    match (new, old) {
        (Verdict::Undecided(_), _) => false,
        (_, Verdict::Undecided(_)) => true,
        (
            Verdict::Mate {
                line: l1,
                status: s1,
            },
            Verdict::Mate {
                line: l0,
                status: s0,
            },
        ) => (s1.upper, !s1.minimal(), l1.len()) < (s0.upper, !s0.minimal(), l0.len()),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
