//! df-pn search (work in progress in this commit).
use super::*;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Threshold {
    KhPlusOne,
    Epsilon(f32),
}

impl Default for Threshold {
    fn default() -> Self {
        Threshold::KhPlusOne
    }
}

pub(super) fn solve(
    _s: &mut Solver,
    _pos: &Position,
    _limits: &Limits,
    _stop: &AtomicBool,
    _progress: &mut dyn FnMut(&Progress),
) -> SearchResult {
    SearchResult {
        outcome: Outcome::Unknown(UnknownReason::Stopped),
        stats: Stats::default(),
        best_mate: None,
    }
}
