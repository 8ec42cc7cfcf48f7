//! Time management: how long a search may run (a `go mate` time, or a plain `go`'s share of
//! the game clock) and how long after that the protocol loop stops a solver that overran it.

use super::command::Go;
use crate::shogi::Color;
use std::time::Duration;

/// Time after a timed `go mate` limit at which the loop raises the stop flag itself, in case
/// the solver overran its own time limit.
pub(super) const MATE_BACKSTOP: Duration = Duration::from_millis(1000);
/// The same for a timed plain `go` (a game clock is less forgiving).
pub(super) const MOVE_BACKSTOP: Duration = Duration::from_millis(200);
/// Time of a plain `go` that gives no clock information at all.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(3);
/// Times above this (30 days) are treated as no limit, so no deadline arithmetic overflows.
const MAX_TIME_MS: u64 = 30 * 24 * 3600 * 1000;

/// Time limit of a search from a millisecond count (`None`: no limit).
pub(super) fn ms_limit(ms: u64) -> Option<Duration> {
    (ms <= MAX_TIME_MS).then(|| Duration::from_millis(ms))
}

/// Thinking time of a plain `go` (`None`: until `stop`). From `movetime`, else from the clock
/// of the side to move: a twentieth of the remaining time plus increment and byoyomi, less a
/// safety margin; 3 s when no clock is given.
pub(super) fn move_budget(go: &Go, side: Color) -> Option<Duration> {
    if go.infinite || go.ponder {
        return None;
    }
    if let Some(ms) = go.movetime {
        return ms_limit(ms);
    }
    let (time, inc) = match side {
        Color::Black => (go.btime, go.binc),
        Color::White => (go.wtime, go.winc),
    };
    if time.is_none() && inc.is_none() && go.byoyomi.is_none() {
        return Some(DEFAULT_MOVE_TIME);
    }
    let (t, inc, byo) = (time.unwrap_or(0), inc.unwrap_or(0), go.byoyomi.unwrap_or(0));
    let total = t.saturating_add(inc).saturating_add(byo);
    let budget = (t / 20).saturating_add(inc).saturating_add(byo).min(total);
    let budget = budget - (budget / 5).min(300);
    ms_limit(budget.max(10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_budget_rules() {
        let go = |f: fn(&mut Go)| {
            let mut g = Go::default();
            f(&mut g);
            g
        };
        let ms = |d: Option<Duration>| d.map(|d| d.as_millis());
        assert_eq!(ms(move_budget(&go(|_| {}), Color::Black)), Some(3000));
        assert_eq!(
            ms(move_budget(&go(|g| g.infinite = true), Color::Black)),
            None
        );
        assert_eq!(
            ms(move_budget(&go(|g| g.ponder = true), Color::Black)),
            None
        );
        assert_eq!(
            ms(move_budget(&go(|g| g.movetime = Some(500)), Color::Black)),
            Some(500)
        );
        // White's clock: 10000/20 + 100 = 600, less 120.
        let g = go(|g| {
            g.btime = Some(0);
            g.wtime = Some(10000);
            g.winc = Some(100)
        });
        assert_eq!(ms(move_budget(&g, Color::White)), Some(480));
        // Nothing left: the minimum.
        let g = go(|g| {
            g.btime = Some(0);
            g.byoyomi = Some(0)
        });
        assert_eq!(ms(move_budget(&g, Color::Black)), Some(10));
        let g = go(|g| g.btime = Some(u64::MAX));
        assert_eq!(ms(move_budget(&g, Color::Black)), None);
    }
}
