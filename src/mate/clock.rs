//! The search's wall clock: [`Instant`] is `std::time::Instant` on every native target, and on
//! WebAssembly (`wasm32`) a reading of the host's monotonic clock.
//!
//! wasm32-unknown-unknown has no clock of its own (`std::time::Instant::now` panics there with
//! "time not implemented on this platform"), so the page hands one in: the module imports
//! `env.tsumugi_now_ms`, which the JavaScript host implements with `performance.now()`
//! (milliseconds as a float, monotonic). Only the operations the search and the USI loop use
//! are provided: `now`, `elapsed`, adding a `Duration` (`+`, `checked_add`),
//! `saturating_duration_since`, and comparison.

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub(crate) use host::Instant;

#[cfg(target_arch = "wasm32")]
mod host {
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds of a monotonic host clock (`performance.now()`).
        fn tsumugi_now_ms() -> f64;
    }

    /// A point on the host's monotonic clock, as the time since the clock's origin.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub(crate) struct Instant(Duration);

    impl Instant {
        /// The host clock now.
        pub(crate) fn now() -> Instant {
            // SAFETY: an imported host function without arguments or memory access; the
            // module's loader (web/worker.js, web/bench.mjs) always provides it.
            let ms = unsafe { tsumugi_now_ms() };
            // A host clock is never negative or NaN; clamp rather than panic if one were.
            let ms = if ms.is_finite() && ms > 0.0 { ms } else { 0.0 };
            Instant(Duration::from_secs_f64(ms / 1000.0))
        }

        /// Time since `self` (zero if the host clock went backwards).
        pub(crate) fn elapsed(&self) -> Duration {
            Instant::now().0.saturating_sub(self.0)
        }

        /// `self + d`, `None` past the range of the clock (as `std::time::Instant`'s).
        pub(crate) fn checked_add(&self, d: Duration) -> Option<Instant> {
            self.0.checked_add(d).map(Instant)
        }

        /// Time from `earlier` to `self`, zero if `earlier` is later.
        pub(crate) fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
    }

    impl std::ops::Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0.saturating_add(d))
        }
    }
}
