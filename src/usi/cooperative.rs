//! The USI engine without threads, for hosts that give it one thread and call back: the
//! WebAssembly engine of ShogiHome's web version (`specs/wasm-engine-abi.md` in ShogiHome's
//! repository: one `postMessage` per command, then `poll()` every 10 ms until `bestmove` or
//! `checkmate` arrives).
//!
//! Every command is handled by the native engine's protocol loop ([`Engine`]: the same
//! parser, options, positions, time management and replies), so both answer alike by
//! construction. Only the running of searches differs: instead of the search thread,
//! [`SliceRunner`] keeps the search and [`Cooperative::poll`] advances it by one *slice*: a
//! solve on the same table bounded by a short time, after which df-pn restarts from the root
//! with every proof, disproof and number kept, and the solver's last answer (`mate::driver`'s
//! `last`), so nothing is lost between slices. The slices are `mate::sliced`'s, as the browser
//! page's (`wasm`) are. Between slices the host delivers messages, so a `stop` ends the search
//! within the `postMessage` call that brings it, with what the slices established, as a native
//! search answers its stop flag.
//!
//! What is kept across the slices of one search: the nodes counted (the user's node limit is
//! over all of them) and the wall-clock time since `go` (the time limit is over that; `info
//! time` shows it), both by `mate::sliced`; here, when the next periodic `info` line is due,
//! and the last established bounds sent (a restarted slice establishes again what the previous
//! one had: that is not news and is not sent twice).
//!
//! Differences from the native engine, all asked for by the ABI: after `quit` (or
//! [`Cooperative::terminate`]) nothing more is written, not even the answer of a search that
//! was running (natively `quit` stops the search and its answer is still written); and
//! `Threads` is 1 (see `options::THREADS_MAX`).

use super::engine::{Engine, Runner};
use super::input::to_input;
use super::search_thread::{deliver, run_search, write_progress, Backend, Job, LazySolver, Shared};
use crate::mate::clock::Instant;
use crate::mate::sliced::{SliceClock, SlicedSolve};
use crate::mate::{Notice, Progress, UnknownReason};
use parking_lot::Mutex;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// Shortest slice: a short problem ends in its first slice.
const SLICE_MIN: Duration = Duration::from_millis(50);
/// Longest slice: how long a message (a `stop`) may wait for the running slice.
const SLICE_MAX: Duration = Duration::from_millis(200);

/// The length of the next slice of a search that has run for `elapsed`: a twentieth of that,
/// between [`SLICE_MIN`] and [`SLICE_MAX`] (the policy of the browser page's worker,
/// `web/worker.js`). Each slice restarts df-pn from the root, which costs a little; longer
/// searches take longer slices so that cost stays small beside the search.
fn slice_length(elapsed: Duration) -> Duration {
    (elapsed / 20).clamp(SLICE_MIN, SLICE_MAX)
}

/// The engine's output, kept in memory until the host takes it.
#[derive(Clone, Default)]
pub struct OutputBuffer(Arc<Mutex<Vec<u8>>>);

impl Write for OutputBuffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A search in progress, advanced one slice at a time (`mate::sliced`).
struct Running {
    job: Box<Job>,
    /// The search of the job's position under its limits, time counted since `go`.
    sliced: SlicedSolve,
    /// The table has been prepared for the job (at its first slice).
    prepared: bool,
    /// When the next periodic `info` line is due (`None`: no periodic lines, `PvInterval 0`).
    next_info: Option<Instant>,
    /// The bounds (upper, lower) of the last news sent.
    published: Option<(u32, u32)>,
    /// The notices sent (see `Progress::notice`).
    noticed: Vec<Notice>,
}

impl Running {
    fn new(job: Box<Job>) -> Running {
        let sliced = SlicedSolve::new(job.pos.clone(), job.limits.clone(), SliceClock::SinceStart);
        let next_info = job.limits.info_interval.map(|i| sliced.started() + i);
        Running {
            job,
            sliced,
            prepared: false,
            next_info,
            published: None,
            noticed: Vec::new(),
        }
    }
}

/// Keeps the search the protocol loop starts, for [`Cooperative::poll`] to advance.
#[derive(Default)]
pub(super) struct SliceRunner {
    current: Option<Running>,
}

impl Runner for SliceRunner {
    fn start(&mut self, job: Box<Job>) -> Result<(), Box<Job>> {
        self.current = Some(Running::new(job));
        Ok(())
    }

    fn shutdown(&mut self) {
        self.current = None;
    }
}

/// Ends `run` for `reason` (a stop, or the user's time or node limit): the answer is what its
/// slices established (`SlicedSolve::finish`), as a native search's answer after its stop flag
/// or limit. Delivered as the search thread delivers (`search_thread::deliver`).
fn finish<B: Backend, W: Write>(shared: &Shared<B, W>, run: Running, reason: UnknownReason) {
    // The table's occupancy counts only for a search ended before its first slice.
    let hashfull = match run.sliced.last() {
        Some(_) => 0,
        None => shared.backend.lock().hashfull(),
    };
    deliver(shared, &run.job, Ok(run.sliced.finish(reason, hashfull)));
}

/// The USI engine driven by its host: [`Cooperative::command`] for each line in,
/// [`Cooperative::poll`] to advance a search, [`Cooperative::take_output`] for the lines out.
pub struct Cooperative {
    engine: Engine<LazySolver, OutputBuffer, SliceRunner>,
    out: OutputBuffer,
    /// `quit` arrived (or [`Cooperative::terminate`]): nothing more is done or written.
    quit: bool,
}

impl Default for Cooperative {
    fn default() -> Self {
        Self::new()
    }
}

impl Cooperative {
    /// An idle engine (nothing is allocated before `isready` or the first `go`).
    pub fn new() -> Cooperative {
        let out = OutputBuffer::default();
        let shared = Arc::new(Shared::new(out.clone(), LazySolver::default()));
        Cooperative {
            engine: Engine::new(shared, SliceRunner::default()),
            out,
            quit: false,
        }
    }

    /// Handles one command line (several, if it holds newlines; a trailing `\r` is dropped). A
    /// `stop` (or `gameover`, or `quit`) ends a running search here, within this call.
    pub fn command(&mut self, text: &str) {
        for line in text.split('\n') {
            if self.quit {
                return;
            }
            // The reader thread's rules: `\r` dropped, over-long lines refused.
            let input = to_input(line.as_bytes(), line.len());
            if !self.engine.handle(input) {
                self.terminate();
                return;
            }
            self.settle();
        }
    }

    /// Advances the running search by one slice (see [`slice_length`]); does nothing when no
    /// search runs. Returns whether a search is still running afterwards.
    pub fn poll(&mut self) -> bool {
        if self.quit {
            return false;
        }
        if self.engine.deadline.is_some_and(|d| Instant::now() >= d) {
            self.engine.on_deadline();
        }
        if !self.settle() {
            self.slice();
        }
        self.searching()
    }

    /// Whether a search is running (the host should go on polling).
    pub fn searching(&self) -> bool {
        !self.quit && self.engine.runner.current.is_some()
    }

    /// Whether the engine has quit (`quit` or [`Cooperative::terminate`]).
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// The lines written since the last call, each ending in `\n`.
    pub fn take_output(&mut self) -> String {
        let bytes = std::mem::take(&mut *self.out.0.lock());
        // The output is printable ASCII (`output::sanitize`).
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Ends the engine: a running search is dropped without an answer, the table freed, and
    /// nothing more is written (the ABI's rule for `quit` and `terminate()`).
    pub fn terminate(&mut self) {
        self.quit = true;
        self.engine.runner.current = None;
        self.engine.shared.backend.lock().discard();
        self.out.0.lock().clear();
    }

    /// A raised stop flag (`stop`, `gameover`, the deadline after `ponderhit`) ends the
    /// running search now. Returns whether it did.
    fn settle(&mut self) -> bool {
        if !self.engine.shared.stop.load(Ordering::SeqCst) {
            return false;
        }
        match self.engine.runner.current.take() {
            Some(run) => {
                finish(&self.engine.shared, run, UnknownReason::Stopped);
                true
            }
            None => false,
        }
    }

    /// Runs one slice of the running search, and ends it when it is over: solved, or out of
    /// the user's time or nodes.
    fn slice(&mut self) {
        let Some(mut run) = self.engine.runner.current.take() else {
            return;
        };
        let shared = &*self.engine.shared;
        if let Some(reason) = run.sliced.limit_spent() {
            return finish(shared, run, reason);
        }
        let mut limits = run
            .sliced
            .slice_limits(None, Some(slice_length(run.sliced.time())));
        // The solver calls back when the next periodic line is due (and, if that is within
        // the slice, every so often after it: the lines are written on this search's schedule).
        let now = Instant::now();
        limits.info_interval = run.next_info.map(|at| {
            at.saturating_duration_since(now)
                .max(Duration::from_millis(1))
        });
        let interval = run.job.limits.info_interval;
        let next_info = &mut run.next_info;
        let published = &mut run.published;
        let noticed = &mut run.noticed;
        // Reports come with the whole search's counters (`SlicedSolve::advance`).
        let mut progress = |p: &Progress| {
            if let Some(n) = &p.notice {
                // Each slice is a search of its own, which says it again: once per `go`.
                if !noticed.contains(n) {
                    noticed.push(n.clone());
                    shared.io.lock().info_string(&n.to_string());
                }
                return;
            }
            if p.news.is_some() {
                let bounds = p.status.as_ref().map(|s| (s.upper, s.lower));
                if bounds.is_some() && bounds == *published {
                    // Established again by a restarted slice: not news.
                    return;
                }
                *published = bounds;
            } else {
                let now = Instant::now();
                if next_info.is_none_or(|at| now < at) {
                    return;
                }
                *next_info = interval.and_then(|i| now.checked_add(i));
            }
            write_progress(&mut shared.io.lock(), p);
        };
        let (job, prepare) = (&run.job, !run.prepared);
        let res = run
            .sliced
            .advance(&limits, &mut progress, |_, limits, progress| {
                run_search(shared, job, limits, prepare, progress)
            });
        run.prepared = true;
        match res {
            Err(e) => deliver(shared, &run.job, Err(e)),
            // Solved (or proven unsolvable), or out of the user's time or nodes: the answer,
            // as the search thread writes it.
            Ok(Some(r)) => deliver(shared, &run.job, Ok(r)),
            Ok(None) => self.engine.runner.current = Some(run),
        }
    }
}

#[cfg(test)]
mod tests;
