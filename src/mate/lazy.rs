//! A solver allocated when first needed: a front end that must answer at once (the USI
//! engine's `usi`) holds one, and the table is allocated at the first `isready` or search,
//! not at start-up. Dropped after a failed search (its table may be inconsistent) and
//! allocated again on the next use.

use super::first_moves::FirstMove;
use super::hash_size::USI_DEFAULT_MB_HERE;
use super::{Limits, Progress, Resident, SearchResult, Solver};
use crate::shogi::{Move, Position};
use std::sync::atomic::AtomicBool;

/// A [`Solver`] allocated on first use (see the module's notes).
pub struct LazySolver {
    solver: Option<Solver>,
    /// The table size of a solver allocated by a search before any [`LazySolver::prepare`].
    default_mb: usize,
}

impl Default for LazySolver {
    /// No solver yet; a search before any `prepare` allocates the USI default size.
    fn default() -> LazySolver {
        LazySolver {
            solver: None,
            default_mb: USI_DEFAULT_MB_HERE,
        }
    }
}

impl LazySolver {
    /// Makes sure a table of `hash_mb` MB exists (allocating the solver, or resizing its
    /// table; see [`Solver::resize`]).
    pub fn prepare(&mut self, hash_mb: usize) {
        match &mut self.solver {
            Some(s) => s.resize(hash_mb),
            None => self.solver = Some(Solver::new(hash_mb)),
        }
    }

    /// Empties the table, if there is one ([`Solver::clear`]).
    pub fn clear(&mut self) {
        if let Some(s) = &mut self.solver {
            s.clear();
        }
    }

    /// Forgets what the table holds for a new game, at no cost ([`Solver::new_game`]).
    pub fn new_game(&mut self) {
        if let Some(s) = &mut self.solver {
            s.new_game();
        }
    }

    /// Search threads from the next search on ([`Solver::set_threads`]).
    pub fn set_threads(&mut self, threads: usize) {
        if let Some(s) = &mut self.solver {
            s.set_threads(threads);
        }
    }

    /// Touches every page of the table now ([`Solver::make_resident`]); without a solver
    /// there is nothing to touch.
    pub fn make_resident(&mut self) -> Resident {
        self.solver
            .as_mut()
            .map_or(Resident::Whole, Solver::make_resident)
    }

    /// Size of the allocated table in MB (0 without a solver).
    pub fn allocated_mb(&self) -> usize {
        self.solver.as_ref().map_or(0, |s| s.hash_mb())
    }

    /// Table occupancy in permille (0 without a solver).
    pub fn hashfull(&self) -> u32 {
        self.solver.as_ref().map_or(0, |s| s.hashfull())
    }

    /// Drops the solver and its table.
    pub fn discard(&mut self) {
        self.solver = None;
    }

    /// [`Solver::solve`], allocating the solver first if there is none.
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let default_mb = self.default_mb;
        self.solver
            .get_or_insert_with(|| Solver::new(default_mb))
            .solve(pos, limits, stop, progress)
    }

    /// [`Solver::other_first_moves`]; nothing without a solver (no search has run).
    pub fn other_first_moves(
        &mut self,
        pos: &Position,
        skip: Option<Move>,
        base_nodes: u64,
        limits: &Limits,
        stop: &AtomicBool,
        found: &mut dyn FnMut(&FirstMove),
    ) -> Vec<FirstMove> {
        self.solver.as_mut().map_or_else(Vec::new, |s| {
            s.other_first_moves(pos, skip, base_nodes, limits, stop, found)
        })
    }

    /// [`Solver::refutations`]; nothing without a solver (no search has run).
    pub fn refutations(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<FirstMove> {
        self.solver
            .as_mut()
            .map_or_else(Vec::new, |s| s.refutations(pos, limits, stop))
    }
}
