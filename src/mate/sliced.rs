//! A solve advanced a slice at a time, for hosts with one thread that must stay responsive
//! between slices: the browser page (`wasm`'s page API) and the USI engine of ShogiHome's web
//! version (`usi::cooperative`).
//!
//! Each slice is one [`Solver::solve`] of the same position on the same solver under the
//! slice's bounds; df-pn then restarts from the root over the kept table, which holds every
//! proof, disproof and number found so far, and the solver's last answer (`driver`'s `last`),
//! so nothing is lost between slices. What a [`SlicedSolve`] keeps across the slices of one
//! search: the nodes and repetitions counted (the user's node limit is over all of them), the
//! time (the user's time limit is over that, see [`SliceClock`]), and the last slice's result,
//! which is what a search ended early (a stop, or the user's limit) answers with, as a native
//! search answers its stop flag.

use super::clock::Instant;
use super::{Limits, Notice, Outcome, Progress, SearchResult, Solver, Stats, UnknownReason};
use crate::shogi::Position;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What the time of a sliced search counts (its limit, its counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceClock {
    /// The wall-clock time since the search started: the USI engine's, whose time limit and
    /// `info time` count from `go`, as the native engine's do.
    SinceStart,
    /// The time spent in slices only: the page's, whose host decides when the next slice runs.
    InSlices,
}

/// One search of one position under the user's limits, advanced a slice at a time.
pub struct SlicedSolve {
    pos: Position,
    /// The user's limits, over the whole search.
    limits: Limits,
    clock: SliceClock,
    /// When the search started.
    started: Instant,
    /// Nodes, repetitions and search time of the slices so far.
    nodes: u64,
    repetitions: u64,
    searched: Duration,
    /// The last slice's result (its counters made the whole search's).
    last: Option<SearchResult>,
    /// The notices of the slices so far, each once (see `Progress::notice`): every slice is a
    /// search of its own and says them again.
    notices: Vec<Notice>,
}

impl SlicedSolve {
    /// A search of `pos` under `limits` (over all its slices), not started yet; its clock
    /// starts now.
    pub fn new(pos: Position, limits: Limits, clock: SliceClock) -> SlicedSolve {
        SlicedSolve {
            pos,
            limits,
            clock,
            started: Instant::now(),
            nodes: 0,
            repetitions: 0,
            notices: Vec::new(),
            searched: Duration::ZERO,
            last: None,
        }
    }

    /// The position searched.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The user's limits of the whole search.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// When the search started.
    pub(crate) fn started(&self) -> Instant {
        self.started
    }

    /// Nodes searched by the slices so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The search's time so far (see [`SliceClock`]).
    pub fn time(&self) -> Duration {
        match self.clock {
            SliceClock::SinceStart => self.started.elapsed(),
            SliceClock::InSlices => self.searched,
        }
    }

    /// The last slice's result (`None` before the first slice), counters the whole search's.
    pub fn last(&self) -> Option<&SearchResult> {
        self.last.as_ref()
    }

    /// The user's limit the search has spent, if any: its time (checked first), else its nodes.
    pub fn limit_spent(&self) -> Option<UnknownReason> {
        if self.limits.time.is_some_and(|t| self.time() >= t) {
            Some(UnknownReason::Time)
        } else if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            Some(UnknownReason::Nodes)
        } else {
            None
        }
    }

    /// The limits of the next slice: the user's, with at most `nodes` nodes and `time` of
    /// search (`None`: no bound of that kind) and never more than what the user's limits leave
    /// (at least a node and a millisecond, so a slice always searches).
    pub fn slice_limits(&self, nodes: Option<u64>, time: Option<Duration>) -> Limits {
        let mut limits = self.limits.clone();
        limits.nodes = match self.limits.nodes {
            Some(n) => {
                let left = n.saturating_sub(self.nodes).max(1);
                Some(nodes.map_or(left, |s| s.min(left)))
            }
            None => nodes,
        };
        limits.time = match self.limits.time {
            Some(t) => {
                let left = t.saturating_sub(self.time()).max(Duration::from_millis(1));
                Some(time.map_or(left, |s| s.min(left)))
            }
            None => time,
        };
        limits
    }

    /// The counters of the whole search, given those of the current slice (`slice`).
    fn whole(&self, slice: &Stats) -> Stats {
        Stats {
            nodes: self.nodes + slice.nodes,
            time: match self.clock {
                SliceClock::SinceStart => self.started.elapsed(),
                SliceClock::InSlices => self.searched + slice.time,
            },
            hashfull: slice.hashfull,
            repetitions: self.repetitions + slice.repetitions,
        }
    }

    /// What the slices have said about the search itself so far (see `Progress::notice`),
    /// each once.
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }

    /// Runs one slice under `limits` (see [`SlicedSolve::slice_limits`]) with `solve` (the
    /// position, the slice's limits and a progress callback in; one `Solver::solve` on the
    /// kept solver, however the host holds it). `progress` receives the slice's reports with
    /// the whole search's counters. Returns the final result when the search is over: solved
    /// (or proven to have no mate), or out of the user's time or nodes (then the answer is
    /// what the slices established, see [`SlicedSolve::finish`]); `None` while it goes on.
    /// An error of `solve` is returned as it is, and the slice is not counted.
    pub fn advance<E>(
        &mut self,
        limits: &Limits,
        progress: &mut dyn FnMut(&Progress),
        solve: impl FnOnce(&Position, &Limits, &mut dyn FnMut(&Progress)) -> Result<SearchResult, E>,
    ) -> Result<Option<SearchResult>, E> {
        let mut notices = Vec::new();
        let mut whole_progress = |p: &Progress| {
            if let Some(n) = &p.notice {
                notices.push(n.clone());
            }
            let p = Progress {
                stats: self.whole(&p.stats),
                ..p.clone()
            };
            progress(&p);
        };
        let r = solve(&self.pos, limits, &mut whole_progress);
        for n in notices {
            if !self.notices.contains(&n) {
                self.notices.push(n);
            }
        }
        let mut r = r?;
        let whole = self.whole(&r.stats);
        self.searched += r.stats.time;
        r.stats = whole;
        self.nodes = r.stats.nodes;
        self.repetitions = r.stats.repetitions;
        if r.interrupted.is_none() {
            self.last = Some(r.clone());
            return Ok(Some(r));
        }
        self.last = Some(r);
        Ok(self.limit_spent().map(|reason| self.finish(reason, 0)))
    }

    /// [`SlicedSolve::advance`] on `solver`, with at most `nodes` nodes and `time` of search
    /// in the slice, no progress reports and no stop flag (the host stops between slices).
    pub fn advance_on(
        &mut self,
        solver: &mut Solver,
        nodes: Option<u64>,
        time: Option<Duration>,
    ) -> Option<SearchResult> {
        let limits = self.slice_limits(nodes, time);
        let stop = AtomicBool::new(false);
        let r = self.advance(&limits, &mut |_| {}, |pos, limits, progress| {
            Ok::<_, std::convert::Infallible>(solver.solve(pos, limits, &stop, progress))
        });
        match r {
            Ok(r) => r,
            Err(never) => match never {},
        }
    }

    /// The answer of the search ended now for `reason` (a stop, or the user's time or node
    /// limit): what its slices established. A slice cut by its own bound reads
    /// `Unknown(Time)` (or `Nodes`, or `Stopped`); the search as a whole ended for `reason`;
    /// any other outcome (a mate, with its status) stands. Before any slice: nothing searched,
    /// with `hashfull` the table's occupancy.
    pub fn finish(&self, reason: UnknownReason, hashfull: u32) -> SearchResult {
        let Some(mut r) = self.last.clone() else {
            let mut r = SearchResult::unknown(reason);
            r.stats = Stats {
                nodes: self.nodes,
                time: self.time(),
                hashfull,
                repetitions: self.repetitions,
            };
            return r;
        };
        if let Outcome::Unknown(
            UnknownReason::Time | UnknownReason::Nodes | UnknownReason::Stopped,
        ) = r.outcome
        {
            r.outcome = Outcome::Unknown(reason.clone());
        }
        r.stats.time = self.time();
        r.interrupted = Some(reason);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mate in 9 (the driver tests' position): a few thousand nodes.
    const MATE9: &str = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1";

    /// Runs `sliced` to its end in slices of `nodes` nodes, on a fresh solver.
    fn run(sliced: &mut SlicedSolve, nodes: u64) -> (SearchResult, usize) {
        let mut solver = Solver::new(16);
        for slices in 1.. {
            if let Some(r) = sliced.advance_on(&mut solver, Some(nodes), None) {
                return (r, slices);
            }
            assert!(slices < 10_000, "the slices never end");
        }
        unreachable!()
    }

    /// Sliced, the search reaches the answer of one solve, and its counters are the whole
    /// search's: nodes summed over the slices, and the time counted in slices the sum of the
    /// slices' times, each counted once.
    #[test]
    fn slices_reach_the_answer_with_whole_counters() {
        let pos = Position::from_sfen(MATE9).unwrap();
        let whole = Solver::new(16).solve(
            &pos,
            &Limits::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let mut sliced = SlicedSolve::new(pos, Limits::default(), SliceClock::InSlices);
        let (r, slices) = run(&mut sliced, 300);
        assert!(slices > 1, "one slice only");
        assert_eq!(r.outcome, whole.outcome);
        assert!(r.status.unwrap().established());
        assert_eq!(r.stats.nodes, sliced.nodes());
        assert_eq!(r.stats.time, sliced.time());
        assert!(sliced.time() <= sliced.started().elapsed());
    }

    /// The user's node limit is over all the slices; the search then ends as that limit, with
    /// what the slices established, at exactly the limit.
    #[test]
    fn user_node_limit_spans_the_slices() {
        let pos = Position::from_sfen(MATE9).unwrap();
        let limits = Limits {
            nodes: Some(50),
            ..Limits::default()
        };
        let mut sliced = SlicedSolve::new(pos, limits, SliceClock::SinceStart);
        let (r, slices) = run(&mut sliced, 20);
        assert_eq!(slices, 3);
        assert_eq!(r.outcome, Outcome::Unknown(UnknownReason::Nodes));
        assert_eq!(r.interrupted, Some(UnknownReason::Nodes));
        assert_eq!(r.stats.nodes, 50);
    }

    /// Ended before its first slice, the search answers with its reason and nothing searched.
    #[test]
    fn finished_before_any_slice_searched_nothing() {
        let pos = Position::from_sfen(MATE9).unwrap();
        let sliced = SlicedSolve::new(pos, Limits::default(), SliceClock::InSlices);
        let r = sliced.finish(UnknownReason::Stopped, 7);
        assert_eq!(r.outcome, Outcome::Unknown(UnknownReason::Stopped));
        assert_eq!((r.stats.nodes, r.stats.hashfull), (0, 7));
        assert!(sliced.last().is_none());
    }

    /// What a slice's search says about itself (the table is full) is kept, each once, for
    /// hosts that show it (the page's progress and answer).
    #[test]
    fn notices_of_the_slices_are_kept_once() {
        let pos = Position::from_sfen("6k2/9/9/9/9/9/9/9/9 b B2GS2L2P2rb2g3s4n2l16p 1").unwrap();
        let limits = Limits {
            nodes: Some(1_500_000),
            ..Limits::default()
        };
        let mut s = SlicedSolve::new(pos, limits, SliceClock::InSlices);
        let mut solver = Solver::new(1);
        let mut slices = 0;
        while s.advance_on(&mut solver, Some(300_000), None).is_none() {
            slices += 1;
            assert!(slices < 20, "the node limit should end it");
        }
        assert_eq!(s.notices(), [Notice::TableFull { mb: 1 }]);
    }
}
