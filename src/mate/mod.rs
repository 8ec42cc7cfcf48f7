//! Mate search: df-pn over a fixed-size transposition table with proof/disproof-hand dominance.
//!
//! The public API is this file and [`result`]: a [`Solver`] owns the table and answers
//! [`Solver::solve`] with a [`SearchResult`]: a mating line replayed and verified before it is
//! returned, a proof that there is none, or undecided with the reason (time, nodes, stop, ...),
//! and what is established about the line ([`MateStatus`]). Knows nothing of USI.
//!
//! Inside, arrows point down only: `driver` (the solve: root kind, first proof, shortest-mate
//! rounds, reading policy) → `dfpn` (the search) and `line` (reading and verifying lines; it
//! reaches the search through a narrow API) → `tt` (the table) → `value` (what is known of a
//! node).
//!
//! Beside the API: [`LazySolver`], a solver allocated on first use (the USI engine's);
//! [`sliced`], a solve advanced a slice at a time for hosts with one thread; and [`bench`], the
//! bench positions and their runner (the search's node signature).

pub mod bench;
pub(crate) mod clock;
mod dfpn;
mod driver;
pub mod fault;
pub mod first_moves;
pub mod hash_size;
mod hugebuf;
mod lazy;
mod line;
pub mod result;
pub mod sliced;
mod tt;
mod value;

pub use dfpn::Threshold;
pub use hugebuf::Resident;
pub use lazy::LazySolver;
pub use line::{
    interposes, is_useless_interposition, useless_interposition, verify as verify_mate_line,
    verify_composed, NarrowQuestion,
};
pub use result::{MateStatus, Notice, Outcome, Progress, SearchResult, Stats, UnknownReason};
pub use tt::{available_memory_mb, hash_limit_mb};

use crate::shogi::Position;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Largest `Limits::max_plies` that means what it says: the table's longest finite length
/// bound (`value::MAX_BOUND`; longer ones are clamped to it).
pub const MAX_PLIES: u32 = value::MAX_BOUND as u32;

/// Limits of one search. `None` means unlimited.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock time of the whole solve (first proof, post-search and line reading).
    pub time: Option<Duration>,
    /// Nodes of the whole solve (exact: the search stops at this count).
    pub nodes: Option<u64>,
    /// Longest mate (in plies) to look for; deeper lines count as failures on that path. With
    /// a limit the answer is a mate within it (the shortest one when the post-search proves
    /// it) or `Unknown(NoMateWithin(n))`, a proven "no mate within n plies" that says nothing
    /// of longer mates; `NoMate` still means no mate at any length. At most [`MAX_PLIES`].
    pub max_plies: Option<u32>,
    /// How often the progress callback is called (`None`: never).
    pub info_interval: Option<Duration>,
    /// What to do after the first proof.
    pub post_search: PostSearch,
    /// A root whose side to move is in check and cannot mate is searched as a defender node
    /// (see `root_kind`; KomoringHeights' `RootIsAndNodeIfChecked`).
    pub root_is_and_if_checked: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: None,
            nodes: None,
            max_plies: None,
            info_interval: None,
            post_search: PostSearch::Shortest,
            root_is_and_if_checked: true,
        }
    }
}

/// Work after the first proof: none, prove the shortest mate (every legal defence counted), or
/// that and then present it as composers do (useless interpositions omitted, see
/// `line::compose`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PostSearch {
    /// Stop at the first proof.
    None,
    /// Prove the shortest mate, every legal defence counted (strict length).
    Shortest,
    /// The shortest mate, shown as composers count it.
    Composer,
}

impl PostSearch {
    /// Parses `none`, `shortest` or `composer` (any case).
    pub fn parse(s: &str) -> Option<PostSearch> {
        match s.to_ascii_lowercase().as_str() {
            "none" => Some(PostSearch::None),
            "shortest" => Some(PostSearch::Shortest),
            "composer" => Some(PostSearch::Composer),
            _ => None,
        }
    }

    /// The name `parse` reads.
    pub fn name(self) -> &'static str {
        match self {
            PostSearch::None => "none",
            PostSearch::Shortest => "shortest",
            PostSearch::Composer => "composer",
        }
    }
}

/// A mate solver owning its transposition table. Reuse one solver for many problems; the table
/// keys are salted with the position's material, so results of one problem never apply to
/// another with different material.
pub struct Solver {
    tt: tt::Table,
    scratch: dfpn::Scratch,
    /// How child thresholds are set (the 1+ε trick's ε, TCA) and the path cap.
    pub threshold: Threshold,
    /// The last mate this solver returned, with what was proven about it: solving the same
    /// position again on the warm table starts from it, so the answer never gets worse.
    last: Option<driver::Remembered>,
    /// Search threads (1: the main search only; see [`Solver::set_threads`]).
    threads: usize,
    /// The helpers' buffers, kept across solves like `scratch`.
    helper_scratch: Vec<dfpn::Scratch>,
}

impl Solver {
    /// A solver with a table of `hash_mb` megabytes (allocated now), or of the largest half,
    /// quarter, ... of it that can be allocated: [`Solver::hash_mb`] says what was got, for the
    /// caller to report. The size is not capped here: callers cap a user's request by
    /// [`hash_limit_mb`] first.
    pub fn new(hash_mb: usize) -> Solver {
        // The slider lookup is chosen once per process (a no-op after the first time).
        crate::shogi::attacks::slider_path();
        Solver {
            tt: tt::Table::new(hash_mb),
            scratch: dfpn::Scratch::new(),
            threshold: Threshold::default(),
            last: None,
            threads: 1,
            helper_scratch: Vec::new(),
        }
    }

    /// A solver with a table of exactly `hash_mb` megabytes, or `None` if that much memory
    /// cannot be allocated (nothing is reduced: for callers that refuse instead).
    pub fn try_new(hash_mb: usize) -> Option<Solver> {
        Some(Solver {
            tt: tt::Table::try_new(hash_mb)?,
            ..Solver::new(1)
        })
    }

    /// Table size in MB.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Reallocates the table (dropping its contents) if the size changes; as in `new`, a size
    /// that cannot be allocated is halved until it can ([`Solver::hash_mb`] says what was got).
    pub fn resize(&mut self, hash_mb: usize) {
        if hash_mb != self.tt.size_mb() {
            // The old table is freed first (replaced by a 1 MB one, whose pages are never
            // touched), so its memory is there for the new one.
            self.tt = tt::Table::new(1);
            self.tt = tt::Table::new(hash_mb);
            self.tt.set_shared(self.threads > 1);
            self.last = None;
            self.forget_repetitions();
        }
    }

    /// Empties the table (and the searches' remembered repetition failures).
    pub fn clear(&mut self) {
        self.last = None;
        self.tt.clear(self.threads);
        self.forget_repetitions();
    }

    /// Forgets what was learnt, as `clear`, without writing the table: it moves to a new
    /// generation whose lookups never match an earlier one's entries (see
    /// `tt::Table::new_game`). Answers, node counts included, are those of a cleared solver
    /// (`solve --batch` relies on it; its engine test compares). For a new problem or game
    /// (`usinewgame`), where a full wipe would write the whole table before the search.
    pub fn new_game(&mut self) {
        self.last = None;
        self.tt.new_game(self.threads);
        self.forget_repetitions();
    }

    /// Touches every page of the table now (with the search's threads), so that the next
    /// search does not pay the page faults; the table stays resident until it is resized or
    /// dropped. If memory runs short meanwhile (another process is taking it), the table is
    /// cut and emptied instead (see `tt::Table::make_resident`), or, where it cannot be cut,
    /// emptied and left not held: this says which, and [`Solver::hash_mb`] what is left, for
    /// the caller to report.
    pub fn make_resident(&mut self) -> Resident {
        // `clock::Instant`: `std::time::Instant::now` panics in the browser (wasm32).
        let t = clock::Instant::now();
        let was = self.tt.size_mb();
        let got = self.tt.make_resident(self.threads);
        if got != Resident::Whole {
            self.last = None;
            self.forget_repetitions();
        }
        match got {
            Resident::Whole => {}
            Resident::Cut => log::warn!(
                "memory ran short while the table was made resident: {} MB of {was} kept",
                self.tt.size_mb()
            ),
            Resident::NotHeld => log::warn!(
                "memory ran short while the table was made resident and it could not be cut: \
                 {was} MB kept, not held"
            ),
        }
        log::info!(
            "table of {} MB made resident in {:.1} s",
            self.tt.size_mb(),
            t.elapsed().as_secs_f64()
        );
        got
    }

    /// Every search buffer forgets its repetition failures, which were found with the table's
    /// results and go with them.
    fn forget_repetitions(&mut self) {
        self.scratch.forget();
        for s in &mut self.helper_scratch {
            s.forget();
        }
    }

    /// Table occupancy in permille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    #[cfg(test)]
    pub(crate) fn table(&self) -> &tt::Table {
        &self.tt
    }

    /// The side that mates in the first search of `pos` (the side to move, unless it is the one
    /// being mated; see [`Limits::root_is_and_if_checked`], `rule` here): what an editor calls
    /// the attacker before solving.
    pub fn mating_side(pos: &Position, rule: bool) -> crate::shogi::Color {
        driver::root_kind(pos, rule).attacker(pos)
    }

    /// Searches for a mate (see [`SearchResult`]): for the side to move, or against it when it
    /// is the one being mated (see [`Limits::root_is_and_if_checked`]). `stop` is polled often
    /// (well under 10 ms); `progress` is called every [`Limits::info_interval`].
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let kind = driver::root_kind(pos, limits.root_is_and_if_checked);
        self.solve_as(pos, kind, limits, stop, progress)
    }

    /// [`Solver::solve`] with the root's kind given (the positions after a first move, whose
    /// side to move is known to be the one mated, whatever checks it has).
    fn solve_as(
        &mut self,
        pos: &Position,
        kind: driver::RootKind,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        // WebAssembly (wasm32-unknown-unknown) has no threads: the main search runs alone.
        let helpers = self.threads > 1 && !cfg!(target_arch = "wasm32");
        // The table takes its locks whenever helpers share it, decided here at every solve
        // from the thread count, whatever happened to the table before (a resize builds a new
        // one): searches over a table that takes no locks can read one store's key with
        // another's value, and so make a false proof or disproof.
        self.tt.set_shared(helpers);
        let mut search = dfpn::Search::new(
            &self.tt,
            &mut self.scratch,
            pos,
            kind.attacker(pos),
            limits,
            stop,
            progress,
            self.threshold,
        );
        if !helpers {
            return driver::solve(&mut search, kind, pos, limits, &mut self.last);
        }
        // Helpers live for this solve only: starting a thread costs tens of microseconds,
        // nothing beside a search.
        let (crew, receivers) = dfpn::Crew::new(self.threads - 1);
        let tt = &self.tt;
        let (waits0, spins0) = tt.lock_waits();
        let threshold = self.threshold;
        // Each helper's buffers go to the first thread that starts for it (a refused spawn
        // drops its closure, so they wait in a slot).
        let slots: Vec<_> = self
            .helper_scratch
            .iter_mut()
            .map(|s| parking_lot::Mutex::new(Some(s)))
            .collect();
        std::thread::scope(|scope| {
            for ((i, jobs), slot) in receivers.into_iter().enumerate().zip(&slots) {
                let crew = &crew;
                let started = start_with_search_stack(|thread| {
                    let jobs = jobs.clone();
                    thread
                        .name(format!("helper-{}", i + 1))
                        .spawn_scoped(scope, move || {
                            let scratch = slot.lock().take().expect("scratch present");
                            dfpn::run_helper(tt, scratch, crew, jobs, stop, threshold, i + 1)
                        })
                })
                .is_ok();
                if !started {
                    log::warn!("cannot start helper thread {}; searching without it", i + 1);
                }
            }
            search.set_crew(&crew);
            // Dismissed when this closure ends, also by a panic of the main search: the
            // helpers then return and the scope with them, and the panic reaches the caller.
            let dismissal = dfpn::Dismissal(&crew);
            let r = driver::solve(&mut search, kind, pos, limits, &mut self.last);
            drop(search);
            drop(dismissal);
            if let Some(failure) = crew.failure() {
                // A helper panicked (a bug) and the main search stopped: the solve fails as a
                // panic of its own would, and its caller answers it (the USI engine's guard
                // writes the error and `checkmate timeout`, and drops the table).
                panic!("{failure}");
            }
            // Contention of the shared table, for the scaling note (docs/bench/threads.md).
            let (waits, spins) = tt.lock_waits();
            log::info!(
                "{} threads: {} nodes ({} by the helpers), table lock waits {} ({:.3} per 1000 \
                 nodes), spin rounds {}",
                self.threads,
                r.stats.nodes,
                crew.helper_nodes(),
                waits - waits0,
                (waits - waits0) as f64 * 1000.0 / r.stats.nodes.max(1) as f64,
                spins - spins0
            );
            r
        })
    }

    /// Search threads from the next solve on: the main search and `n - 1` helpers over the
    /// one table (see `dfpn::crew`). With 1 (the default) the search is exactly the
    /// single-threaded one, node for node.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
        self.tt.set_shared(self.threads > 1);
        self.helper_scratch.truncate(self.threads - 1);
        while self.helper_scratch.len() < self.threads - 1 {
            self.helper_scratch.push(dfpn::Scratch::new());
        }
    }

    /// Search threads (see [`Solver::set_threads`]).
    pub fn threads(&self) -> usize {
        self.threads
    }
}

/// Most search threads a solver takes (see [`Solver::set_threads`]).
pub const MAX_THREADS: usize = 256;

/// The default number of search threads (USI `Threads`, `solve --threads`): the machine's
/// available parallelism, capped at 8. Past a few threads a shared-table df-pn gains little and
/// each thread costs its own buffers (about 18 MB) and table traffic; a user with more cores can
/// still ask for them.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// Starts `f` on a thread named `name` with a stack large enough for the deepest searches (the
/// df-pn recursion goes one frame per ply; Microcosmos needs over 1500): [`SEARCH_STACK_BYTES`],
/// or 64 MB if the system refuses to reserve that much. Every search thread starts here.
pub fn spawn_search_thread<T: Send + 'static>(
    name: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<std::thread::JoinHandle<T>> {
    // `spawn` drops its closure when it fails, so the work waits in a shared slot that the
    // thread that does start takes it from.
    let slot = std::sync::Arc::new(parking_lot::Mutex::new(Some(f)));
    start_with_search_stack(|thread| {
        let theirs = slot.clone();
        thread.name(name.into()).spawn(move || {
            let f = theirs.lock().take().expect("search closure present");
            f()
        })
    })
}

/// Starts a thread with `spawn`, given a builder with [`SEARCH_STACK_BYTES`] of stack, or,
/// if the system refuses to reserve that much, one with [`FALLBACK_STACK_BYTES`]: the one
/// place a search thread's stack is chosen (the search thread of [`spawn_search_thread`] and
/// the helpers of `Threads` > 1). Each refusal is logged; the last one is returned when both
/// are refused. `spawn` may be called twice, so the work it starts must survive a refused
/// attempt (a refused `spawn` drops its closure).
fn start_with_search_stack<H>(
    mut spawn: impl FnMut(std::thread::Builder) -> std::io::Result<H>,
) -> std::io::Result<H> {
    let mut last_err = None;
    for stack in [SEARCH_STACK_BYTES, FALLBACK_STACK_BYTES] {
        match spawn(std::thread::Builder::new().stack_size(stack)) {
            Ok(h) => return Ok(h),
            Err(e) => {
                log::warn!("cannot start a search thread with {stack} bytes of stack: {e}");
                last_err = Some(e);
            }
        }
    }
    Err(last_err.expect("tried at least once"))
}

/// Runs `f` on a search thread (see [`spawn_search_thread`]) and waits for its result.
pub fn with_search_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    spawn_search_thread("search", f)
        .expect("spawn search thread")
        .join()
        .expect("search thread panicked")
}

/// Stack size for search threads: frames are small (children live in a shared arena), so this
/// is generous for tens of thousands of plies; only the touched pages are committed.
pub const SEARCH_STACK_BYTES: usize = 512 << 20;

/// Stack of a search thread when the system refuses [`SEARCH_STACK_BYTES`].
const FALLBACK_STACK_BYTES: usize = 64 << 20;
