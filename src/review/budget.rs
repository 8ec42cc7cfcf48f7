//! The time budget shared among the check's questions, and the one way a question is asked:
//! [`Checker::solve`] runs a search within its share, counts it in the report and calls the
//! progress callback now and then.

use super::report::Report;
use crate::mate::{Limits, Outcome, PostSearch, SearchResult, Solver};
use crate::shogi::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Shortest share of the time one question gets (below this a search proves little).
pub(super) const MIN_SHARE: Duration = Duration::from_millis(20);

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

/// The state of one check: the solver, the clock and the report being written.
pub(super) struct Checker<'a> {
    pub(super) solver: Solver,
    pub(super) stop: &'a AtomicBool,
    pub(super) start: Instant,
    pub(super) deadline: Option<Instant>,
    pub(super) report: Report,
    /// Called every `PROGRESS_EVERY` with what is done so far.
    pub(super) progress: &'a mut dyn FnMut(&Progress),
    pub(super) last_progress: Instant,
}

impl Checker<'_> {
    /// The time share of one of `left` questions still to ask (the rest of the budget split
    /// evenly, so questions answered early leave their time to the others).
    /// `None` when the check has no time limit.
    pub(super) fn share(&self, left: usize) -> Option<Duration> {
        let rest = self.deadline?.saturating_duration_since(Instant::now());
        Some((rest / left.max(1) as u32).max(MIN_SHARE))
    }

    /// Solves `pos` within `share` (and `max_plies`), post-search `post`.
    pub(super) fn solve(
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

    /// Whether the check was stopped or its budget is spent.
    pub(super) fn out_of_time(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Milliseconds since the check started, for the report.
    pub(super) fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// A proven mate of `r` within `limit` plies, if `r` has one: its line (verified by the
/// solver) when its proven length is within the limit.
pub(super) fn mate_within(r: &SearchResult, limit: u32) -> Option<Vec<Move>> {
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
pub(super) fn exact_mate(r: &SearchResult) -> Option<Vec<Move>> {
    match (&r.outcome, &r.status) {
        (Outcome::Mate(l), Some(s)) if s.minimal() && s.line_len == s.upper => Some(l.clone()),
        _ => None,
    }
}
