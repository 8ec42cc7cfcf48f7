//! Mate search: df-pn over a fixed-size transposition table with proof/disproof-hand dominance.
//!
//! The side to move at the root is always the attacker. `Solver::solve` returns a verified mating
//! line, a proof that there is none, or `Unknown` with the reason (time, nodes, stop, ...).
//! Knows nothing of USI.

mod dfpn;
mod hugebuf;
mod pv;
pub mod tt;

pub use dfpn::Threshold;
pub use pv::{verify as verify_mate_line, verify_composed};

use crate::shogi::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Limits of one search. `None` means unlimited.
#[derive(Clone, Debug)]
pub struct Limits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// Longest mate (in plies) to look for; deeper lines count as failures on that path.
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
/// `pv::is_useless_interposition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PostSearch {
    None,
    Shortest,
    Composer,
}

impl PostSearch {
    pub fn parse(s: &str) -> Option<PostSearch> {
        match s.to_ascii_lowercase().as_str() {
            "none" => Some(PostSearch::None),
            "shortest" => Some(PostSearch::Shortest),
            "composer" => Some(PostSearch::Composer),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PostSearch::None => "none",
            PostSearch::Shortest => "shortest",
            PostSearch::Composer => "composer",
        }
    }
}

/// Why a search ended without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownReason {
    Stopped,
    Time,
    Nodes,
    /// Found a proof but could not read a verified line from it (logged in detail).
    Unverified(String),
    /// The search reached the length limit everywhere it looked.
    Depth,
}

impl std::fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnknownReason::Stopped => f.write_str("stopped"),
            UnknownReason::Time => f.write_str("time limit reached"),
            UnknownReason::Nodes => f.write_str("node limit reached"),
            UnknownReason::Unverified(why) => write!(f, "mate proven but no verified line ({why})"),
            UnknownReason::Depth => f.write_str("length limit reached"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A verified mating line from the root: attacker first (odd length), or, when the root is
    /// a defender node (`SearchResult::defender_root`), defender first (even length).
    Mate(Vec<Move>),
    NoMate,
    Unknown(UnknownReason),
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    pub time: Duration,
    /// Table occupancy in permille.
    pub hashfull: u32,
    /// Children found repeating a position of the current path (or a path-dependent failure
    /// remembered for exactly this path): failures that hold on this path only (GHI) and are
    /// never stored in the table as disproofs.
    pub repetitions: u64,
}

impl Stats {
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s <= 0.0 {
            0
        } else {
            (self.nodes as f64 / s) as u64
        }
    }
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub outcome: Outcome,
    pub stats: Stats,
    /// With `Outcome::Unknown` after a stop: a proven, verified line found before the stop
    /// (possibly not the shortest), if any.
    pub best_mate: Option<Vec<Move>>,
    /// What is established about the line of `Outcome::Mate` (or `best_mate`).
    pub status: Option<MateStatus>,
    /// The root was searched as a defender node: the side to move is the one being mated, and
    /// the line starts with its move.
    pub defender_root: bool,
}

impl SearchResult {
    /// A result with nothing established (for searches that did not run).
    pub fn unknown(reason: UnknownReason) -> SearchResult {
        SearchResult {
            outcome: Outcome::Unknown(reason),
            stats: Stats::default(),
            best_mate: None,
            status: None,
            defender_root: false,
        }
    }
}

/// What is established about a reported mating line. Lengths are in plies, counted from the
/// root; every legal defence counts (strict length).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateStatus {
    /// A mate within `upper` plies is proven (the shortest proof found). The line shown may be
    /// longer (it was not read before the search ended) or, when its defences are not proven
    /// longest, shorter.
    pub upper: u32,
    /// No mate within fewer plies exists (proven; the trivial bound when nothing was refuted).
    pub lower: u32,
    /// Every defender move of the line is proven a longest defence: the line has the proven
    /// minimal length and each defence was shown to have no shorter mate, or the defender had
    /// one legal move only.
    pub longest_defences: bool,
    /// Length of the strict line (before the composers' presentation, if any).
    pub line_len: u32,
    /// The line shown is the composers' presentation (useless interpositions omitted) of the
    /// strict line.
    pub composed: bool,
}

impl MateStatus {
    /// The shortest mate is known exactly.
    pub fn minimal(&self) -> bool {
        self.lower >= self.upper
    }

    /// The line is a shortest mate with longest defences: nothing is left to say.
    pub fn established(&self) -> bool {
        self.minimal() && self.longest_defences && self.line_len == self.upper
    }

    /// One sentence for people (USI `info string`, `solve`'s report) on what is established.
    pub fn describe(&self) -> String {
        let n = self.line_len;
        let defences = if self.longest_defences {
            "every defence on the line is a longest defence"
        } else {
            "the line's defences are not all proven longest (a defender could last longer)"
        };
        let mut text = if self.minimal() {
            if n == self.upper {
                format!("mate in {n}: shortest proven; {defences}")
            } else {
                format!(
                    "the shortest mate is proven to take {} plies, but the line shown has {n} \
                     (the search ended before the shortest line was read); {defences}",
                    self.upper
                )
            }
        } else {
            format!(
                "line of {n} plies; shortest mate not proven: between {} and {} plies; \
                 {defences}",
                self.lower, self.upper
            )
        };
        if self.composed {
            text.push_str(
                "; shown as composers count (useless interpositions omitted), lengths strict",
            );
        }
        text
    }
}

/// Progress report passed to the callback every `Limits::info_interval`.
#[derive(Clone, Debug)]
pub struct Progress {
    pub stats: Stats,
    /// The current best line if a mate is already proven (shortest search still running).
    pub pv: Option<Vec<Move>>,
}

/// A mate solver owning its transposition table. Reuse one solver for many problems; the table
/// keys are salted with the position's material, so results of one problem never apply to
/// another with different material.
pub struct Solver {
    tt: tt::Table,
    scratch: dfpn::Scratch,
    pub threshold: Threshold,
    /// The last mate this solver returned, with what was proven about it: solving the same
    /// position again on the warm table starts from it, so the answer never gets worse.
    last: Option<dfpn::Remembered>,
}

impl Solver {
    /// A solver with a table of `hash_mb` megabytes (allocated now).
    pub fn new(hash_mb: usize) -> Solver {
        Solver {
            tt: tt::Table::new(hash_mb),
            scratch: dfpn::Scratch::new(),
            threshold: Threshold::default(),
            last: None,
        }
    }

    /// Table size in MB.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Reallocates the table (dropping its contents) if the size changes.
    pub fn resize(&mut self, hash_mb: usize) {
        if hash_mb != self.tt.size_mb() {
            self.tt = tt::Table::new(hash_mb);
            self.last = None;
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.last = None;
        self.tt.clear();
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches for a mate for the side to move. `stop` is polled often (well under 10 ms).
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        dfpn::solve(self, pos, limits, stop, progress)
    }
}

/// Starts `f` on a thread named `name` with a stack large enough for the deepest searches (the
/// df-pn recursion goes one frame per ply; Microcosmos needs over 1500): [`SEARCH_STACK_BYTES`],
/// or 64 MB if the system refuses to reserve that much. Every search thread starts here.
pub fn spawn_search_thread<T: Send + 'static>(
    name: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<std::thread::JoinHandle<T>> {
    let mut f = Some(f);
    let mut last_err = None;
    for stack in [SEARCH_STACK_BYTES, FALLBACK_STACK_BYTES] {
        // `spawn` consumes the closure only when it succeeds, so a retry needs it back: hand it
        // over through a shared slot.
        let slot = std::sync::Arc::new(parking_lot::Mutex::new(f.take()));
        let theirs = slot.clone();
        let r = std::thread::Builder::new()
            .name(name.into())
            .stack_size(stack)
            .spawn(move || {
                let f = theirs.lock().take().expect("search closure present");
                f()
            });
        match r {
            Ok(h) => return Ok(h),
            Err(e) => {
                log::warn!("cannot start a search thread with {stack} bytes of stack: {e}");
                last_err = Some(e);
                f = slot.lock().take();
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
