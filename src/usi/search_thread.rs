//! The search thread: one long-lived thread that takes jobs from the protocol loop, runs the
//! solver on them, and writes each job's `info` lines and answer itself, so the protocol loop
//! never waits for a search.
//!
//! `Shared` is what the two threads share: the output together with the record of the running
//! search (one lock, see [`super::output`]), the solver behind another lock (held by the search
//! thread while it searches; the protocol loop touches it only when no search is active), and
//! the atomic stop flag polled by the solver. [`Backend`] is what the engine needs from a
//! solver, so the protocol can be tested with scripted ones.

use super::multipv::{first_move_info, first_move_note, refutation_notes, with_multipv};
use super::output::Io;
use super::reply::{info_line, report, status_score, JobKind};
use crate::mate::first_moves::{FirstMove, Verdict};
pub use crate::mate::LazySolver;
use crate::mate::{Limits, Outcome, Progress, Resident, SearchResult};
use crate::shogi::Move;
use crate::shogi::Position;
use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What the engine needs from a mate solver. [`LazySolver`] is the real one; tests use fakes.
pub trait Backend: Send + 'static {
    /// Makes sure a table of `hash_mb` MB exists (allocating or resizing it).
    fn prepare(&mut self, hash_mb: usize);
    /// Empties the table (if any).
    fn clear(&mut self);
    /// Forgets the table's contents for a new game (`usinewgame`), cheaply where the backend
    /// can (see `mate::Solver::new_game`).
    fn new_game(&mut self) {
        self.clear();
    }
    /// Search threads from the next search on (see `mate::Solver::set_threads`).
    fn set_threads(&mut self, _threads: usize) {}
    /// Touches every page of the table now (see `mate::Solver::make_resident`) and says what
    /// came of it (a cut table is smaller: see `allocated_mb`).
    fn make_resident(&mut self) -> Resident {
        Resident::Whole
    }
    /// Size of the allocated table in MB (0 if none).
    fn allocated_mb(&self) -> usize;
    /// Table occupancy in permille (0 without a table).
    fn hashfull(&self) -> u32 {
        0
    }
    /// Drops the table (after a failed search, whose table may be inconsistent).
    fn discard(&mut self);
    /// Runs one search; `prepare` has been called before.
    fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult;
    /// After a search of `pos`, its other checks than `skip` (see
    /// `mate::Solver::other_first_moves`); none by default.
    fn other_first_moves(
        &mut self,
        _pos: &Position,
        _skip: Option<Move>,
        _base_nodes: u64,
        _limits: &Limits,
        _stop: &AtomicBool,
        _found: &mut dyn FnMut(&FirstMove),
    ) -> Vec<FirstMove> {
        Vec::new()
    }
    /// After a search proved `pos` without mate, a refutation of each check (see
    /// `mate::Solver::refutations`); none by default.
    fn refutations(
        &mut self,
        _pos: &Position,
        _limits: &Limits,
        _stop: &AtomicBool,
    ) -> Vec<FirstMove> {
        Vec::new()
    }
}

/// The real solver ([`crate::mate::LazySolver`]: allocated at the first `isready` or `go`, not
/// at start-up, so `usi` is answered at once).
impl Backend for LazySolver {
    fn prepare(&mut self, hash_mb: usize) {
        LazySolver::prepare(self, hash_mb)
    }

    fn clear(&mut self) {
        LazySolver::clear(self)
    }

    fn new_game(&mut self) {
        LazySolver::new_game(self)
    }

    fn set_threads(&mut self, threads: usize) {
        LazySolver::set_threads(self, threads)
    }

    fn make_resident(&mut self) -> Resident {
        LazySolver::make_resident(self)
    }

    fn allocated_mb(&self) -> usize {
        LazySolver::allocated_mb(self)
    }

    fn hashfull(&self) -> u32 {
        LazySolver::hashfull(self)
    }

    fn discard(&mut self) {
        LazySolver::discard(self)
    }

    fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        LazySolver::solve(self, pos, limits, stop, progress)
    }

    fn other_first_moves(
        &mut self,
        pos: &Position,
        skip: Option<Move>,
        base_nodes: u64,
        limits: &Limits,
        stop: &AtomicBool,
        found: &mut dyn FnMut(&FirstMove),
    ) -> Vec<FirstMove> {
        LazySolver::other_first_moves(self, pos, skip, base_nodes, limits, stop, found)
    }

    fn refutations(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<FirstMove> {
        LazySolver::refutations(self, pos, limits, stop)
    }
}

/// What the protocol loop and the search thread share.
pub(super) struct Shared<B, W> {
    /// The output and the record of the running search.
    pub(super) io: Mutex<Io<W>>,
    /// The solver (and its table).
    pub(super) backend: Mutex<B>,
    /// Raised to end the running search; polled by the solver.
    pub(super) stop: AtomicBool,
}

impl<B, W: Write> Shared<B, W> {
    /// An idle engine's shared state: nothing written, no search, the stop flag down.
    pub(super) fn new(out: W, backend: B) -> Shared<B, W> {
        Shared {
            io: Mutex::new(Io::new(out)),
            backend: Mutex::new(backend),
            stop: AtomicBool::new(false),
        }
    }
}

/// One search to run: what the `go` asked for, with the settings in force when it arrived.
pub(super) struct Job {
    /// The answer it owes.
    pub(super) kind: JobKind,
    /// The position searched.
    pub(super) pos: Position,
    /// Its limits.
    pub(super) limits: Limits,
    /// The table size to prepare first.
    pub(super) hash_mb: usize,
    /// Search threads (`Threads`).
    pub(super) threads: usize,
    /// Lines to show (`MultiPV`): with 2 or more, the other checks are searched after the
    /// best line.
    pub(super) multipv: usize,
}

/// A message to the search thread.
pub(super) enum ToSearch {
    /// Run this search.
    Job(Box<Job>),
    /// End the thread.
    Quit,
}

/// Writes a progress report: its `info` line, then its `info string` news if any.
pub(super) fn write_progress<W: Write>(io: &mut Io<W>, p: &Progress) {
    let score = p
        .status
        .as_ref()
        .map(|st| status_score(st, p.defender_root));
    io.line(&info_line(&p.stats, score, p.pv.as_deref()));
    if let Some(news) = &p.news {
        io.info_string(news);
    }
    if let Some(notice) = &p.notice {
        io.info_string(&notice.to_string());
    }
}

/// Prepares a table of `hash_mb` MB on `backend` and says what was allocated, if anything was:
/// the size used, or that less than `hash_mb` could be had (the solver halves a size that
/// cannot be allocated until one can, so the engine keeps serving).
pub(super) fn prepare_table<B: Backend>(backend: &mut B, hash_mb: usize) -> Option<String> {
    let before = backend.allocated_mb();
    backend.prepare(hash_mb);
    let got = backend.allocated_mb();
    if got == before {
        None
    } else if got < hash_mb {
        Some(format!(
            "USI_Hash {hash_mb} MB could not be allocated; using {got} MB"
        ))
    } else {
        Some(format!("USI_Hash {got} MB allocated"))
    }
}

/// Runs one search of `job` with `limits` on the solver, reporting progress to `progress`;
/// with `prepare`, the table is prepared first, on this thread, so a deferred `USI_Hash` never
/// makes the protocol loop wait (a deferred `usinewgame` costs nothing: the protocol loop
/// starts the new game when the `go` arrives). A panic is caught
/// and returned as its message; the table it may have left inconsistent is dropped.
pub(super) fn run_search<B: Backend, W: Write>(
    shared: &Shared<B, W>,
    job: &Job,
    limits: &Limits,
    prepare: bool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<SearchResult, String> {
    let mut backend = shared.backend.lock();
    let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
        if prepare {
            if let Some(note) = prepare_table(&mut *backend, job.hash_mb) {
                shared.io.lock().info_string(&note);
            }
            backend.set_threads(job.threads);
        }
        crate::mate::fault::inject_before_search();
        backend.solve(&job.pos, limits, &shared.stop, progress)
    }));
    r.map_err(|p| {
        let msg = crate::mate::fault::panic_message(&*p);
        log::error!("search panicked: {msg}");
        backend.discard();
        msg
    })
}

/// Writes the end of a job: the notes, the final `info` line and the answer of its result
/// (held, if its search is held, until `stop` or `ponderhit` releases it). Ends the record of
/// the running search unless the answer is held. Before the answer of `go mate`: with
/// `MultiPV` 2 or more and a mate, the best line at once as `info multipv 1`, then the other
/// checks as they are searched and the final set best first (see `usi::multipv`); with a
/// proven "no mate", a refutation of each check.
pub(super) fn deliver<B: Backend, W: Write>(
    shared: &Shared<B, W>,
    job: &Job,
    res: Result<SearchResult, String>,
) {
    let after = match &res {
        Ok(r) if job.kind == JobKind::Mate && !r.defender_root => Some(r.clone()),
        _ => None,
    };
    let (notes, info, answer) = report(job.kind, &job.pos, res);
    let mut lines: Vec<String> = notes.iter().map(|n| format!("info string {n}")).collect();
    match after {
        Some(r) if job.multipv > 1 && matches!(&r.outcome, Outcome::Mate(l) if !l.is_empty()) => {
            {
                let mut io = shared.io.lock();
                for n in &notes {
                    io.info_string(n);
                }
                io.line(&with_multipv(&info, 1));
            }
            lines = multipv_lines(shared, job, &r, &info);
        }
        Some(r) if r.outcome == Outcome::NoMate => {
            lines.push(info);
            let moves = guarded(shared, |b| {
                b.refutations(&job.pos, &left_after(&job.limits, &r), &shared.stop)
            });
            // A backend that gives none for a position with checks has none to give (the
            // scripted ones): nothing is said rather than "no check".
            let mut checks = crate::shogi::MoveList::new();
            job.pos.check_moves(&mut checks);
            if moves.len() == checks.len() {
                lines.extend(
                    refutation_notes(&moves)
                        .iter()
                        .map(|n| format!("info string {n}")),
                );
            }
        }
        _ => lines.push(info),
    }
    let mut io = shared.io.lock();
    for l in &lines {
        io.line(l);
    }
    match io.active.as_mut() {
        Some(a) if a.hold => a.pending = Some(answer),
        _ => {
            io.active = None;
            io.line(&answer);
        }
    }
}

/// The limits left to the work after the search of `r`: its time and nodes subtracted.
fn left_after(limits: &Limits, r: &SearchResult) -> Limits {
    Limits {
        time: limits.time.map(|t| t.saturating_sub(r.stats.time)),
        nodes: limits.nodes.map(|n| n.saturating_sub(r.stats.nodes)),
        ..limits.clone()
    }
}

/// Runs `f` on the backend, a panic caught (the table dropped, nothing returned): the answer
/// already found is still given.
fn guarded<B: Backend, W: Write>(
    shared: &Shared<B, W>,
    f: impl FnOnce(&mut B) -> Vec<FirstMove>,
) -> Vec<FirstMove> {
    let mut backend = shared.backend.lock();
    match std::panic::catch_unwind(AssertUnwindSafe(|| f(&mut *backend))) {
        Ok(v) => v,
        Err(p) => {
            let msg = crate::mate::fault::panic_message(&*p);
            log::error!("search of the other first moves panicked: {msg}");
            backend.discard();
            Vec::new()
        }
    }
}

/// Searches the other checks of a root whose best line `r` found (its final `info` line
/// `info`), writing each mate as it is found as `info multipv k` (k from 2, up to `MultiPV`);
/// returns the final set, best first, each line with its `info string`.
fn multipv_lines<B: Backend, W: Write>(
    shared: &Shared<B, W>,
    job: &Job,
    r: &SearchResult,
    info: &str,
) -> Vec<String> {
    let Outcome::Mate(best) = &r.outcome else {
        return vec![info.to_string()];
    };
    let mut shown = 1;
    let others = guarded(shared, |b| {
        b.other_first_moves(
            &job.pos,
            Some(best[0]),
            r.stats.nodes,
            &left_after(&job.limits, r),
            &shared.stop,
            &mut |fm| {
                if matches!(fm.verdict, Verdict::Mate { .. }) && shown < job.multipv {
                    shown += 1;
                    let mut io = shared.io.lock();
                    io.line(&first_move_info(shown, fm));
                    io.info_string(&first_move_note(shown, fm));
                }
            },
        )
    });
    let mut lines = vec![with_multipv(info, 1)];
    if let Some(st) = &r.status {
        lines.push(format!(
            "info string multipv 1: {} mates: {}",
            best[0],
            st.describe()
        ));
    }
    for (i, fm) in others.iter().take(job.multipv - 1).enumerate() {
        lines.push(first_move_info(i + 2, fm));
        lines.push(format!("info string {}", first_move_note(i + 2, fm)));
    }
    lines
}

/// The search thread's body: runs jobs until [`ToSearch::Quit`] or the channel closes, each
/// to its end in one search, and delivers each answer (see [`deliver`]).
fn search_loop<B: Backend, W: Write + Send + 'static>(
    shared: Arc<Shared<B, W>>,
    jobs: Receiver<ToSearch>,
) {
    while let Ok(ToSearch::Job(job)) = jobs.recv() {
        let res = run_search(&shared, &job, &job.limits, true, &mut |p| {
            write_progress(&mut shared.io.lock(), p)
        });
        deliver(&shared, &job, res);
    }
    log::debug!("search thread exits");
}

/// Starts the search thread (named `usi-search`) on `jobs`. `exited` is dropped when the thread
/// ends, so the protocol loop can wait for that on the other end. The thread is started as
/// every search thread is, by [`crate::mate::spawn_search_thread`] (a search-sized stack, or
/// a smaller one if the system refuses it).
pub(super) fn spawn<B: Backend, W: Write + Send + 'static>(
    shared: Arc<Shared<B, W>>,
    jobs: Receiver<ToSearch>,
    exited: Sender<()>,
) -> std::io::Result<()> {
    crate::mate::spawn_search_thread("usi-search", move || {
        // Dropped when the thread ends: the loop sees the channel disconnect.
        let _exited = exited;
        search_loop(shared, jobs)
    })
    // The thread is never joined: the loop waits on `exited`, with a time limit.
    .map(drop)
}
