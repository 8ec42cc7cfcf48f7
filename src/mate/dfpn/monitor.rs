//! The search monitor: node counting, the stop flag, the time and node limits, progress reports
//! and table garbage collection, behind one poll every few hundred nodes (KomoringHeights keeps
//! the same duties in its `SearchMonitor`).
//!
//! Polling is cheap enough to keep `stop` latency well under 10 ms (256 nodes take well under a
//! millisecond), and the node limit is honoured exactly: the next poll is never scheduled past
//! it.

use super::super::clock::Instant;
use super::super::fault;
use super::super::tt::{Table, GC_TRIGGER};
use super::super::{Limits, MateStatus, Notice, Progress, Stats, UnknownReason};
use super::crew::Crew;
use crate::shogi::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Nodes between polls of the stop flag, clock and node limit: a few milliseconds at most.
const POLL_INTERVAL: u64 = 256;
/// Nodes between occupancy checks (and garbage collections).
const GC_CHECK_INTERVAL: u64 = 1 << 16;
/// Nodes before a search's first occupancy check: a search of a browser or cooperative host
/// runs in slices of 50-200 ms, each a search of its own of some 10,000-50,000 nodes, and with
/// the first check at `GC_CHECK_INTERVAL` a full table was never collected there (and never
/// said it was full). A check reads 1000 clusters' key lines, a few microseconds beside the
/// milliseconds 4096 nodes take.
const FIRST_GC_CHECK: u64 = 1 << 12;
/// Nodes between the search profile's log lines (`RUST_LOG=info`): about 40 s at 400 k
/// nodes/s.
const PROFILE_INTERVAL: u64 = 1 << 24;
/// Plies the profile tells apart; deeper nodes count in the last bucket (shown as `8191+`).
/// 1024 was too few: 明日香 (703 plies) dives past 4,000 plies seven minutes into its search, a
/// chain of drops and captures on one file whose hands never repeat, and with 1024 the log
/// showed only "1023" for it (docs/bench/hardest.md).
const PROFILE_PLIES: usize = 8192;

/// Where the nodes of a long search go, for the log (`RUST_LOG=info`, one line every
/// `PROFILE_INTERVAL` nodes): how many were positions the table did not hold when their parent
/// was expanded, and at which plies the nodes were. A search whose nodes are nearly all known
/// positions is re-walking its tree (thresholds creeping up), not reaching new ground; its
/// hashfull stands still although it counts millions of nodes a second. Counted per interval
/// and cleared after each line.
struct Profile {
    fresh: u64,
    /// Children searched, and those of them that came back with the numbers they had.
    calls: u64,
    stuck: u64,
    /// u64: a helper thread never logs, so its counts are never cleared.
    by_ply: [u64; PROFILE_PLIES],
    since: u64,
    since_time: Instant,
}

impl Profile {
    fn new(start: Instant) -> Profile {
        Profile {
            fresh: 0,
            calls: 0,
            stuck: 0,
            by_ply: [0; PROFILE_PLIES],
            since: 0,
            since_time: start,
        }
    }

    /// The ply below which `q` of the interval's nodes were (`q` in 0..=1).
    fn ply_quantile(&self, total: u64, q: f64) -> usize {
        let want = (total as f64 * q).ceil() as u64;
        let mut seen = 0u64;
        for (ply, &n) in self.by_ply.iter().enumerate() {
            seen += n;
            if seen >= want.max(1) {
                return ply;
            }
        }
        PROFILE_PLIES - 1
    }

    /// The log line of the interval that ends at `nodes`, and a fresh interval.
    fn line(&mut self, nodes: u64, hashfull: u32) -> String {
        let total = nodes - self.since;
        let secs = self.since_time.elapsed().as_secs_f64();
        let max = self.by_ply.iter().rposition(|&n| n != 0).unwrap_or(0);
        let max = if max == PROFILE_PLIES - 1 {
            format!("{max}+")
        } else {
            max.to_string()
        };
        let s = format!(
            "search profile: {total} nodes in {secs:.1} s ({:.0} nodes/s), {} of them new \
             positions ({:.2}%); {} of {} children searched came back unchanged; plies p10 {} \
             p50 {} p90 {} max {max}; hashfull {hashfull}",
            total as f64 / secs.max(1e-9),
            self.fresh,
            100.0 * self.fresh as f64 / total.max(1) as f64,
            self.stuck,
            self.calls,
            self.ply_quantile(total, 0.1),
            self.ply_quantile(total, 0.5),
            self.ply_quantile(total, 0.9),
        );
        self.fresh = 0;
        self.calls = 0;
        self.stuck = 0;
        self.by_ply = [0; PROFILE_PLIES];
        self.since = nodes;
        self.since_time = Instant::now();
        s
    }
}

pub(super) struct Monitor<'a> {
    stop: &'a AtomicBool,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Why the search stopped, once it has.
    pub aborted: Option<UnknownReason>,
    /// Node count at which the current speculative round gives up (`u64::MAX`: none); see
    /// `Search::set_round_budget`.
    budget: u64,
    /// The current round reached its budget: the search unwinds as if stopped, but the solve
    /// goes on.
    pub over_budget: bool,
    /// A helper solved the current position first: unwind and take its result.
    pub cut: bool,
    /// Nodes searched (not counted once stopped).
    pub nodes: u64,
    /// Path-dependent repetition failures met (see `Stats::repetitions`).
    pub repetitions: u64,
    /// Confluences found by following parent links (see `confluence`).
    pub confluences: u64,
    next_poll: u64,
    next_gc_check: u64,
    info_interval: Option<Duration>,
    next_info: Option<Instant>,
    progress: &'a mut dyn FnMut(&Progress),
    /// The line reported with progress (the best proven so far).
    pub pv: Option<Vec<Move>>,
    /// What is established about it, and whether the root is a defender node.
    pub status: Option<MateStatus>,
    /// The root is a defender node (the side to move is being mated).
    pub defender_root: bool,
    /// The main search's helpers, whose nodes count towards the limits and the statistics.
    pub crew: Option<&'a Crew>,
    /// For a helper: its crew and job; the job being over stops it like the stop flag.
    pub helper_of: Option<(&'a Crew, u64)>,
    /// A helper's nodes already added to its crew's count.
    flushed: u64,
    /// The search has said that the table is too small for what it has proven.
    said_table_full: bool,
    /// Where the nodes go (logged, see `Profile`); boxed to keep the monitor small.
    profile: Box<Profile>,
    next_profile: u64,
}

impl<'a> Monitor<'a> {
    pub(super) fn new(
        limits: &Limits,
        stop: &'a AtomicBool,
        progress: &'a mut dyn FnMut(&Progress),
    ) -> Monitor<'a> {
        let start = Instant::now();
        Monitor {
            stop,
            start,
            deadline: limits.time.map(|t| start + t),
            node_limit: limits.nodes,
            aborted: None,
            budget: u64::MAX,
            over_budget: false,
            cut: false,
            nodes: 0,
            repetitions: 0,
            confluences: 0,
            next_poll: POLL_INTERVAL.min(limits.nodes.unwrap_or(u64::MAX)),
            next_gc_check: FIRST_GC_CHECK,
            info_interval: limits.info_interval,
            next_info: limits.info_interval.map(|i| start + i),
            progress,
            pv: None,
            status: None,
            defender_root: false,
            crew: None,
            helper_of: None,
            flushed: 0,
            said_table_full: false,
            profile: Box::new(Profile::new(start)),
            next_profile: PROFILE_INTERVAL,
        }
    }

    /// Nodes searched by this search and its helpers.
    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes + self.crew.map_or(0, |c| c.nodes.load(Ordering::Relaxed))
    }

    /// Adds a helper's nodes since the last flush to its crew's count.
    pub(super) fn flush_helper_nodes(&mut self) {
        if let Some((crew, _)) = self.helper_of {
            crew.nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
        }
    }

    /// Sends a progress report now, with `news` (see `Progress::news`).
    pub(super) fn report(&mut self, tt: &Table, news: Option<String>) {
        self.send(tt, news, None);
    }

    /// Sends a progress report now, with `news` and `notice`.
    fn send(&mut self, tt: &Table, news: Option<String>, notice: Option<Notice>) {
        let p = Progress {
            stats: self.stats(tt),
            pv: self.pv.clone(),
            status: self.status.clone(),
            defender_root: self.defender_root,
            news,
            notice,
        };
        (self.progress)(&p);
    }

    /// Counts a node about to be searched and polls when due; true when the search is stopped.
    /// Nodes are not counted once stopped: a node limit is exact (line readings may still call
    /// in before they notice the stop).
    #[inline(always)]
    pub(super) fn enter_node(&mut self, tt: &Table, ply: u32, fresh: bool) -> bool {
        if !self.halted() {
            self.nodes += 1;
            self.profile.fresh += fresh as u64;
            self.profile.by_ply[(ply as usize).min(PROFILE_PLIES - 1)] += 1;
            if self.nodes >= self.next_poll {
                self.poll(tt);
            }
        }
        self.halted()
    }

    /// Counts a child searched by `mid_loop`; `unchanged`: it came back with the numbers it
    /// had (see `Profile`).
    #[inline(always)]
    pub(super) fn count_call(&mut self, unchanged: bool) {
        self.profile.calls += 1;
        self.profile.stuck += unchanged as u64;
    }

    /// The node count at which the current round gives up (`u64::MAX`: none).
    pub(super) fn budget(&self) -> u64 {
        self.budget
    }

    /// Sets the node count at which the current round gives up (`u64::MAX`: none).
    pub(super) fn set_budget(&mut self, budget: u64) {
        self.budget = budget;
        self.over_budget = false;
        self.next_poll = self.next_poll.min(budget.max(self.nodes + 1));
    }

    /// The search must unwind: stopped for good, over the current round's budget, or beaten to
    /// the answer by a helper (`cut`).
    #[inline(always)]
    pub(super) fn halted(&self) -> bool {
        self.aborted.is_some() || self.over_budget || self.cut
    }

    pub(super) fn stats(&self, tt: &Table) -> Stats {
        Stats {
            nodes: self.total_nodes(),
            time: self.start.elapsed(),
            hashfull: tt.hashfull(),
            repetitions: self.repetitions,
        }
    }

    #[cold]
    pub(super) fn poll(&mut self, tt: &Table) {
        // The node limit is honoured exactly (`--nodes 10` searches 10 nodes, not a polling
        // interval's 256).
        self.next_poll = (self.nodes + POLL_INTERVAL)
            .min(self.node_limit.unwrap_or(u64::MAX))
            .min(self.budget.max(self.nodes + 1));
        if self.nodes >= self.budget {
            self.over_budget = true;
        }
        if self.stop.load(Ordering::Relaxed) {
            self.aborted = Some(UnknownReason::Stopped);
            return;
        }
        if let Some((crew, epoch)) = self.helper_of {
            // A helper: no limits, reports or GC of its own; it stops when its job is over.
            fault::inject_at(fault::Point::Helper, self.nodes);
            self.flush_helper_nodes();
            if crew.is_over(epoch) {
                self.aborted = Some(UnknownReason::Stopped);
            }
            return;
        }
        if let Some(crew) = self.crew {
            fault::inject_at(fault::Point::Main, self.nodes);
            if crew.failed() {
                // A helper panicked: the solve ends (see `Solver::solve`).
                self.aborted = Some(UnknownReason::Stopped);
                return;
            }
            if crew.solved_now() {
                self.cut = true;
                return;
            }
        }
        let now = Instant::now();
        if let Some(d) = self.deadline {
            if now >= d {
                self.aborted = Some(UnknownReason::Time);
                return;
            }
        }
        if let Some(n) = self.node_limit {
            if self.total_nodes() >= n {
                self.aborted = Some(UnknownReason::Nodes);
                return;
            }
        }
        if let (Some(next), Some(iv)) = (self.next_info, self.info_interval) {
            if now >= next {
                self.next_info = Some(now + iv);
                self.report(tt, None);
            }
        }
        if self.nodes >= self.next_profile {
            self.next_profile = self.nodes + PROFILE_INTERVAL;
            log::info!(
                "{}; confluences so far {}",
                self.profile.line(self.nodes, tt.hashfull()),
                self.confluences
            );
        }
        if self.nodes >= self.next_gc_check {
            self.next_gc_check = self.nodes + GC_CHECK_INTERVAL;
            if tt.hashfull() >= GC_TRIGGER {
                let t = Instant::now();
                let r = tt.gc();
                log::info!(
                    "table gc at {} nodes: {} ms; dropped {} unsolved and {} solved entries, \
                     kept {} unsolved and {} solved; hashfull now {}",
                    self.nodes,
                    t.elapsed().as_millis(),
                    r.unsolved_dropped,
                    r.solved_dropped,
                    r.unsolved_kept,
                    r.solved_kept,
                    tt.hashfull()
                );
                if r.solved_dropped > 0 && !self.said_table_full {
                    // Said once per search: the answer stays sound, but a user waiting on a
                    // long search should know that a larger table would help.
                    self.said_table_full = true;
                    let notice = Notice::TableFull { mb: tt.size_mb() };
                    self.send(tt, None, Some(notice));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The profile's line counts the interval's new positions and its ply quantiles, then
    /// starts a new interval.
    #[test]
    fn profile_line_reports_new_positions_and_plies_of_its_interval() {
        let mut p = Profile::new(Instant::now());
        // 100 nodes: 10 at ply 3, 80 at ply 20, 10 at ply 5000 (a dive far below any mate's
        // length, which the log must show as it is); 25 new.
        p.by_ply[3] = 10;
        p.by_ply[20] = 80;
        p.by_ply[5000] = 10;
        p.fresh = 25;
        p.calls = 90;
        p.stuck = 2;
        let line = p.line(100, 844);
        assert!(line.contains("100 nodes"), "{line}");
        assert!(line.contains("25 of them new positions (25.00%)"), "{line}");
        assert!(
            line.contains("2 of 90 children searched came back unchanged"),
            "{line}"
        );
        assert!(line.contains("p10 3 p50 20 p90 20 max 5000;"), "{line}");
        assert!(line.contains("hashfull 844"), "{line}");
        assert_eq!((p.fresh, p.calls, p.stuck), (0, 0, 0));
        assert!(p.by_ply.iter().all(|&n| n == 0));
        let line = p.line(150, 844);
        assert!(line.contains("50 nodes"), "{line}");
        // Deeper than the profile tells apart: shown as such.
        p.by_ply[PROFILE_PLIES - 1] = 1;
        let line = p.line(151, 844);
        assert!(line.contains("max 8191+;"), "{line}");
    }
}
