//! df-pn (Nagai 2002) with df-pn+ initial estimates, hand-dominance table, path-dependent
//! repetition handling (GHI), and a double-count guard: one search over the transposition table.
//!
//! Conventions: OR nodes have the attacker to move, AND nodes the defender. pn is the proof
//! number, dn the disproof number, from the attacker's point of view at both kinds of node.
//! The attacker's hand is what the table stores beside the board key.
//!
//! One concept per file:
//! - [`search`]: the recursive MID procedure (expand, loop over the best child, store).
//! - [`children`]: a node's child records: expansion with df-pn+ estimates, delayed groups,
//!   aggregation of (pn, dn) and selection of the best child.
//! - [`hands`]: proof and disproof hands and lengths of a solved node.
//! - [`threshold`]: the child thresholds (the 1+ε trick).
//! - [`path`]: the current path, repetition (GHI) and parent tags (double counting).
//! - [`confluence`]: double-count elimination: the walk up the parent links to the branch
//!   root of two merging paths, and the marks kept there.
//! - [`monitor`]: limits, stop flag, progress reports and table GC, behind one poll.
//! - [`keys`]: table keys salted with material and attacker.
//!
//! This file holds the search state and the narrow API the driver and the line readers use:
//! prove a position at the end of a path under a length limit, read what the table knows of a
//! position, and ask whether the search was stopped. Nothing outside `dfpn` touches the
//! search's fields.
//!
//! - Length limit (shortest-mate post-search): a node whose attacker would move past the limit
//!   fails with "no mate within 0 plies"; disproofs carry such bounds up (OR: the smallest of the
//!   children's plus one, AND: the refuting child's plus one) and are stored as "no mate within
//!   n plies", which depends on the position and the remaining length only, so transpositions
//!   share them (KomoringHeights' MateLen in its table). A proof is reused only if its length
//!   fits the remaining plies.

mod children;
mod confluence;
mod crew;
mod hands;
mod keys;
mod logged;
mod monitor;
mod numbers;
mod path;
mod search;
mod threshold;

pub(crate) use crew::{run_helper, Crew, Dismissal};
pub use threshold::Threshold;

use super::tt::Table;
use super::value::Value;
use super::{Limits, MateStatus, Progress, Stats, UnknownReason};
use crate::shogi::{Color, Hand, Move, MoveList, Position};
use children::Child;
use monitor::Monitor;
use path::Path;
pub(crate) use path::{CAP_REP, NO_REP};
use std::sync::atomic::AtomicBool;

/// Buffers a search needs, kept by the `Solver` across searches so that a solve allocates and
/// clears nothing (a mate-in-1 costs microseconds, not the milliseconds of fresh buffers).
pub(crate) struct Scratch {
    children: Vec<Child>,
    /// The keys and hands of one node's children, between the prefetch and the lookups of
    /// `expand` (computed once, not once for each).
    child_keys: Vec<(u64, Hand)>,
    frames: Vec<confluence::Frame>,
    masks: confluence::MaskMemory,
    path: path::PathBuffers,
}

impl Scratch {
    pub(crate) fn new() -> Scratch {
        Scratch {
            children: Vec::with_capacity(1 << 16),
            // More than any node has moves (`MAX_MOVES`): no growth on the hot path.
            child_keys: Vec::with_capacity(1024),
            frames: Vec::with_capacity(8192),
            masks: confluence::MaskMemory::new(),
            path: path::PathBuffers::new(),
        }
    }

    /// Forgets the repetition failures remembered for paths (see `path::PathBuffers::forget`).
    pub(crate) fn forget(&mut self) {
        self.path.forget();
        self.masks.forget();
    }

    /// Bytes of the buffers as allocated: what each search thread keeps beside the shared
    /// table (docs/reliability.md, "Memory"). Mapped, and resident only where touched.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.children.capacity() * std::mem::size_of::<Child>()
            + self.frames.capacity() * std::mem::size_of::<confluence::Frame>()
            + self.masks.bytes()
            + self.path.bytes()
    }
}

/// A finished (or interrupted) node: its value, and for a failure that holds on the current
/// path only (a repetition, GHI, or the path cap), the ply just below the shallowest ancestor
/// it depends on, or `CAP_REP` (`NO_REP` when it holds on any path; see `path`); such a
/// failure is never stored as a disproof.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeResult {
    pub v: Value,
    pub rep: u32,
}

/// One df-pn search over a table: the attacker, the length limit, the current path and the
/// monitor of its limits.
pub(crate) struct Search<'a> {
    tt: &'a Table,
    attacker: Color,
    /// Table salt (see `keys::table_salt`).
    salt: u64,
    children: &'a mut Vec<Child>,
    child_keys: &'a mut Vec<(u64, Hand)>,
    /// The nodes on the path with their children in `children` (see `confluence`).
    frames: &'a mut Vec<confluence::Frame>,
    /// The marks of branch roots kept across visits (see `confluence`).
    masks: &'a mut confluence::MaskMemory,
    path: Path<'a>,
    monitor: Monitor<'a>,
    /// Longest mate looked for, in plies from the root (`u32::MAX`: none).
    max_plies: u32,
    threshold: Threshold,
    /// The node `mid` is about to enter was not in the table when its parent was expanded
    /// (see `children`: only a fresh defender's node tests its interpositions for mates in
    /// one, at any ply under a length limit, from `INTERPOSITION_TEST_PLY` on without one).
    node_fresh: bool,
    /// Threshold control (TCA, Kishimoto 2010) is on.
    tca: bool,
    /// TCA's extension count: while positive, nodes search past their thresholds until that
    /// many positions new to the table have been entered (see `search`).
    inc: u32,
    /// Set by `expand`: a child was met before at a shallower ply and is still unsolved.
    old_child: bool,
}

impl<'a> Search<'a> {
    /// A search of `root` with `attacker` mating, within `limits` (time, nodes, length, progress
    /// interval), polling `stop`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a Table,
        scratch: &'a mut Scratch,
        root: &Position,
        attacker: Color,
        limits: &Limits,
        stop: &'a AtomicBool,
        progress: &'a mut dyn FnMut(&Progress),
        threshold: Threshold,
    ) -> Search<'a> {
        let salt = keys::table_salt(root, attacker);
        let max_plies = limits.max_plies.unwrap_or(u32::MAX);
        let mut monitor = Monitor::new(limits, stop, progress);
        monitor.defender_root = root.side_to_move() != attacker;
        Search {
            tt,
            attacker,
            salt,
            children: &mut scratch.children,
            child_keys: &mut scratch.child_keys,
            frames: &mut scratch.frames,
            masks: &mut scratch.masks,
            path: Path::new(&mut scratch.path, salt, max_plies),
            monitor,
            max_plies,
            threshold,
            node_fresh: false,
            tca: threshold.tca,
            inc: 0,
            old_child: false,
        }
    }

    /// Gives the search helpers (`Threads` > 1): every later `prove` and `prove_at` starts them
    /// on the same position, and their nodes count towards the limits and statistics.
    pub fn set_crew(&mut self, crew: &'a Crew) {
        self.monitor.crew = Some(crew);
    }

    /// Runs `mid` on `pos` at `ply` (`grow`: under growing root thresholds, see
    /// `Search::mid_root`), with the helpers (if any) searching the same position (reached from
    /// `root` by `moves`) until it returns.
    fn mid_with_crew(
        &mut self,
        root: &Position,
        moves: &[Move],
        pos: &mut Position,
        ply: u32,
        grow: bool,
    ) -> NodeResult {
        let Some(crew) = self.monitor.crew else {
            return self.mid_root(pos, ply, grow);
        };
        crew.start(root, moves, self.max_plies, grow, self.attacker, self.salt);
        let mut r = self.mid_root(pos, ply, grow);
        if self.monitor.cut {
            // A helper solved the position first: its result is the answer (the main search
            // unwound without storing anything of its own).
            self.monitor.cut = false;
            log::debug!(
                "a helper solved the position first ({} main nodes)",
                self.monitor.nodes
            );
            let solved = crew.take_solved();
            // Only the main search moves the crew's epoch, so the result that set `cut` is
            // still the current job's.
            debug_assert!(solved.is_some(), "cut without a helper's result");
            if let Some(h) = solved {
                r = h;
            }
        }
        crew.finish();
        r
    }

    /// Makes `attacker` the mating side (the table salt follows).
    pub fn set_attacker(&mut self, root: &Position, attacker: Color) {
        self.attacker = attacker;
        self.monitor.defender_root = root.side_to_move() != attacker;
        self.salt = keys::table_salt(root, attacker);
        self.path.reseed(self.salt, self.max_plies);
    }

    /// The mating side.
    pub fn attacker(&self) -> Color {
        self.attacker
    }

    /// The path cap (see [`Threshold::depth_cap`]).
    pub fn depth_cap(&self) -> u32 {
        self.threshold.depth_cap
    }

    /// The length limit in plies from the root (`u32::MAX`: none).
    pub fn limit(&self) -> u32 {
        self.max_plies
    }

    /// Sets the length limit of the following searches.
    pub fn set_limit(&mut self, max_plies: u32) {
        self.max_plies = max_plies;
        self.path.reseed(self.salt, max_plies);
    }

    /// Why the search stopped (time, nodes, stop flag), if it did.
    pub fn aborted(&self) -> Option<&UnknownReason> {
        self.monitor.aborted.as_ref()
    }

    /// Gives the following searches a budget of `nodes` more nodes (`None`: none), after which
    /// they unwind unsolved and [`Search::over_budget`] says so; the solve's own limits are
    /// untouched. For speculative shortest-mate rounds.
    pub fn set_round_budget(&mut self, nodes: Option<u64>) {
        let budget = nodes.map_or(u64::MAX, |n| self.monitor.nodes.saturating_add(n));
        self.monitor.set_budget(budget);
    }

    /// The last search ran out of its round budget (see [`Search::set_round_budget`]).
    pub fn over_budget(&self) -> bool {
        self.monitor.over_budget
    }

    /// Polls the limits now (used by long work outside `mid`); true when stopped.
    pub fn check_abort(&mut self) -> bool {
        self.monitor.poll(self.tt);
        self.monitor.aborted.is_some()
    }

    /// Nodes searched so far (cheap; `stats` also reads the table's occupancy).
    pub fn nodes(&self) -> u64 {
        self.monitor.nodes
    }

    /// Nodes, time, table occupancy and repetitions so far.
    pub fn stats(&self) -> Stats {
        self.monitor.stats(self.tt)
    }

    /// The line shown with progress reports (the best proven so far), with what is established
    /// about it; `None` before any mate is proven.
    pub fn set_reported(&mut self, shown: Option<(Vec<Move>, MateStatus)>) {
        (self.monitor.pv, self.monitor.status) = shown.unzip();
    }

    /// Sends a progress report now, saying what was just established (`Progress::news`).
    pub fn report(&mut self, news: String) {
        self.monitor.report(self.tt, Some(news));
    }

    /// The line last given to [`Search::set_reported`].
    pub fn reported_line(&self) -> Option<&Vec<Move>> {
        self.monitor.pv.as_ref()
    }

    #[inline(always)]
    fn key(&self, pos: &Position) -> u64 {
        pos.board_key() ^ self.salt
    }

    /// What the table knows of `pos` for any length (a proof, a disproof, or bounds).
    pub fn stored(&self, pos: &Position) -> Value {
        self.tt
            .probe(self.key(pos), pos.hand(self.attacker), u32::MAX)
            .v
    }

    /// What the table knows of `pos` with `remaining` plies allowed from it: a proof that fits,
    /// a disproof that covers them, or bounds.
    pub fn stored_within(&self, pos: &Position, remaining: u32) -> Value {
        self.tt
            .probe(self.key(pos), pos.hand(self.attacker), remaining)
            .v
    }

    /// Records a mate of `pos` within `len` plies (by `best` at an attacker node) found outside
    /// the search (`line::shortcut`), for the attacker's exact hand there. The caller must have
    /// proven it: every defence answered, every leaf mated or proven in the table.
    pub fn store_proof(&mut self, pos: &Position, len: u16, best: Move, effort: u32) {
        let v = Value::proven(pos.hand(self.attacker), len, best);
        self.tt.store(self.key(pos), v, 0, effort);
    }

    /// A mate of `pos` within `len` plies (by `best` at an attacker node) to record later with
    /// [`Search::store_noted`], under the same conditions as [`Search::store_proof`]; for
    /// readers that must not change the table while they read it.
    pub fn note_proof(&self, pos: &Position, len: u16, best: Move) -> ProofNote {
        ProofNote {
            key: self.key(pos),
            v: Value::proven(pos.hand(self.attacker), len, best),
        }
    }

    /// Records a proof noted by [`Search::note_proof`].
    pub fn store_noted(&mut self, note: &ProofNote) {
        self.tt.store(note.key, note.v, 0, 1);
    }

    /// Proves or disproves `root` under the current length limit (the path holds just the root).
    pub fn prove(&mut self, root: &mut Position) -> NodeResult {
        self.path.clear();
        let key = self.key(root);
        self.path.push(key, root.hand(self.attacker));
        // Under a length limit (the shortest-mate rounds) no path can dive: the root's
        // thresholds are infinite at once (growing them cost mate3-11 about 1.05 of its time).
        let grow = self.max_plies == u32::MAX;
        let r = if self.monitor.crew.is_some() {
            let start = root.clone();
            self.mid_with_crew(&start, &[], root, 0, grow)
        } else {
            self.mid_root(root, 0, grow)
        };
        self.path.pop();
        r
    }

    /// Proves or disproves the position reached from `root` by `moves` (then `extra`, if
    /// given), with those moves as the search path (so repetitions of the line count as
    /// failures) and a length limit of `max_plies` from the root; the search's own limit is
    /// kept for later searches. The main search alone (the line readers' searches).
    pub fn prove_at(
        &mut self,
        root: &Position,
        moves: &[Move],
        extra: Option<Move>,
        max_plies: u32,
    ) -> NodeResult {
        self.prove_at_inner(root, moves, extra, max_plies, false)
    }

    /// [`Search::prove_at`] that gives up, unsolved, after `max_nodes` nodes (`u64::MAX`:
    /// never), keeping a round budget already set in force: the line readers' re-proofs (see
    /// `line::reprove_budget`).
    pub fn prove_at_capped(
        &mut self,
        root: &Position,
        moves: &[Move],
        extra: Option<Move>,
        max_plies: u32,
        max_nodes: u64,
    ) -> NodeResult {
        let outer = self.monitor.budget();
        let outer_over = self.monitor.over_budget;
        self.monitor
            .set_budget(outer.min(self.monitor.nodes.saturating_add(max_nodes)));
        let r = self.prove_at_inner(root, moves, extra, max_plies, false);
        self.monitor.set_budget(outer);
        self.monitor.over_budget = outer_over || self.monitor.nodes >= outer;
        r
    }

    /// [`Search::prove_at`] with the helpers (if any) searching the same position: for the
    /// driver's rounds. The line readers use `prove_at` alone (see `crew`).
    pub fn prove_at_helped(
        &mut self,
        root: &Position,
        moves: &[Move],
        extra: Option<Move>,
        max_plies: u32,
    ) -> NodeResult {
        self.prove_at_inner(root, moves, extra, max_plies, true)
    }

    fn prove_at_inner(
        &mut self,
        root: &Position,
        moves: &[Move],
        extra: Option<Move>,
        max_plies: u32,
        helped: bool,
    ) -> NodeResult {
        let saved = self.max_plies;
        self.set_limit(max_plies);
        let mut pos = root.clone();
        self.path.clear();
        let k = self.key(&pos);
        self.path.push(k, pos.hand(self.attacker));
        for &m in moves.iter().chain(extra.iter()) {
            pos.do_move(m);
            let k = self.key(&pos);
            self.path.push(k, pos.hand(self.attacker));
        }
        let ply = (moves.len() + extra.is_some() as usize) as u32;
        let r = if helped && self.monitor.crew.is_some() {
            let mut all = moves.to_vec();
            all.extend(extra);
            self.mid_with_crew(root, &all, &mut pos, ply, false)
        } else {
            self.mid_root(&mut pos, ply, false)
        };
        self.path.clear();
        self.set_limit(saved);
        r
    }
}

/// A proof found outside the search, to be stored later (see [`Search::note_proof`]).
#[derive(Clone, Copy, Debug)]
pub struct ProofNote {
    key: u64,
    v: Value,
}

/// The moves of a search node: checks at attacker (OR) nodes, every legal move at defender
/// (AND) nodes.
#[inline]
pub(crate) fn node_moves(pos: &Position, or: bool) -> MoveList {
    let mut list = MoveList::new();
    if or {
        pos.check_moves(&mut list);
    } else {
        pos.legal_moves(&mut list);
    }
    list
}

/// Test set-up shared by the search's and the readers' tests: runs `f` with a one-thread
/// search of `root` (its side to move mating, no limits) over `solver`'s table.
#[cfg(test)]
pub(crate) fn with_search<T>(
    solver: &mut crate::mate::Solver,
    root: &Position,
    f: impl FnOnce(&mut Search) -> T,
) -> T {
    let stop = AtomicBool::new(false);
    let mut progress = |_: &Progress| {};
    let mut s = Search::new(
        &solver.tt,
        &mut solver.scratch,
        root,
        root.side_to_move(),
        &Limits::default(),
        &stop,
        &mut progress,
        Threshold::default(),
    );
    f(&mut s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::{Outcome, PostSearch, SearchResult, Solver};

    fn solve_none(solver: &mut Solver, sfen: &str) -> SearchResult {
        let pos = Position::from_sfen(sfen).unwrap();
        let limits = Limits {
            nodes: Some(1_000_000),
            post_search: PostSearch::None,
            ..Limits::default()
        };
        solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {})
    }

    fn stored_disproof(solver: &Solver, sfen: &str) -> bool {
        let pos = Position::from_sfen(sfen).unwrap();
        let key = pos.board_key() ^ keys::table_salt(&pos, pos.side_to_move());
        let p = solver
            .table()
            .probe(key, pos.hand(pos.side_to_move()), u32::MAX);
        p.found && p.v.dn == 0
    }

    /// Every search thread keeps one `Scratch`. docs/reliability.md states its size per search
    /// thread and scripts/bench/soak.py subtracts it from the measured peak; both are checked
    /// against the code here, so a change of a buffer's size or element cannot leave them
    /// behind. The parts: repetition table 2^20 × 16 bytes (16 MB), path filter 2^16 × 2 bytes
    /// (128 KB), repetition filter 2^19 bits (64 KB), child arena 2^16 × 36 bytes (2.25 MB),
    /// path frames 2^13 × 32 bytes (256 KB), mask memory 2^18 × 16 bytes (4 MB) and its filter
    /// 2^19 bits (64 KB); the repetition table and the mask memory each log up to 2^16 written
    /// slots, 4 bytes each (256 KB), to forget them (see `logged`).
    #[test]
    fn scratch_buffers_are_the_documented_size() {
        assert_eq!(std::mem::size_of::<Child>(), 36);
        assert_eq!(std::mem::size_of::<path::RepEntry>(), 16);
        assert_eq!(std::mem::size_of::<confluence::Frame>(), 32);
        assert_eq!(std::mem::size_of::<confluence::MaskEntry>(), 16);
        let bytes = Scratch::new().bytes();
        // Each logged table (the repetition table, the mask memory) has a log of 2^16 u32.
        let path = (16 << 20) + (256 << 10) + (128 << 10) + (64 << 10);
        let arena = 36 << 16;
        let confluences = (32 << 13) + (4 << 20) + (256 << 10) + (64 << 10);
        assert_eq!(bytes, path + arena + confluences);
        let mb = format!("{:.1}", bytes as f64 / (1 << 20) as f64);
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
        let doc = read("docs/reliability.md");
        let stated = format!("{mb} MB per search thread");
        assert!(
            doc.contains(&stated),
            "docs/reliability.md should say '{stated}'"
        );
        let script = read("scripts/bench/soak.py");
        let constant = format!("PER_THREAD_MB = {mb}\n");
        assert!(
            script.contains(&constant),
            "scripts/bench/soak.py should hold '{}'",
            constant.trim_end()
        );
    }

    /// A round budget (speculative shortest-mate rounds) unwinds the search unsolved without
    /// stopping the solve: nothing is aborted, and the next search without a budget proves.
    #[test]
    fn round_budget_unwinds_without_stopping_the_solve() {
        let root = Position::from_sfen("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1").unwrap();
        with_search(&mut Solver::new(1), &root, |s| {
            s.set_round_budget(Some(10));
            let r = s.prove(&mut root.clone());
            assert!(r.v.pn != 0 && r.v.dn != 0, "{:?}", r.v);
            assert!(s.over_budget() && s.aborted().is_none());
            assert_eq!(s.nodes(), 10);
            s.set_round_budget(None);
            assert!(!s.over_budget());
            assert_eq!(s.prove(&mut root.clone()).v.pn, 0);
        });
    }

    /// A capped proof (the line readers' re-proofs) gives up after its nodes without leaving
    /// the search over a budget, and keeps a round budget already set.
    #[test]
    fn a_capped_proof_gives_up_and_keeps_the_round_budget() {
        let root = Position::from_sfen("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1").unwrap();
        with_search(&mut Solver::new(1), &root, |s| {
            let r = s.prove_at_capped(&root, &[], None, u32::MAX, 10);
            assert!(r.v.pn != 0 && r.v.dn != 0, "{:?}", r.v);
            assert_eq!(s.nodes(), 10);
            assert!(!s.over_budget() && s.aborted().is_none());
            s.set_round_budget(Some(5));
            s.prove_at_capped(&root, &[], None, u32::MAX, 100);
            assert_eq!(s.nodes(), 15);
            assert!(s.over_budget());
            s.set_round_budget(None);
            assert_eq!(
                s.prove_at_capped(&root, &[], None, u32::MAX, 1 << 30).v.pn,
                0
            );
        });
    }

    /// GHI (Kishimoto & Müller 2004) by depth: a failure that comes from repeating a position
    /// of the current path holds on that path only, but at the repeated position itself the
    /// loop lies inside its own subtree on every path, so the failure is stored there.
    /// Constructed perpetual check (dragon against a cornered king: every line of checks returns
    /// to the root): no mate, the search meets repetitions, and the root is stored as disproven
    /// (with a plain "depends on the path" flag nothing below a loop was ever stored, and this
    /// test fails). The other direction, never storing a failure above the position it returns
    /// to, is `tests/mate_sets.rs::repetition_failures_never_make_a_mate_nomate`.
    #[test]
    fn repetition_failure_is_stored_at_the_position_it_returns_to() {
        let root = "8k/7s1/6+R1p/9/9/9/9/9/9 b r2b4g3s4n4l16p 1";
        let mut solver = Solver::new(1);
        let r = solve_none(&mut solver, root);
        assert!(matches!(r.outcome, Outcome::NoMate), "{:?}", r.outcome);
        assert!(r.stats.repetitions > 0, "the search met no repetition");
        assert!(stored_disproof(&solver, root), "root disproof not stored");
    }
}
