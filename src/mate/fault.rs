//! Faults: the message of a caught panic, and the test-only fault injection that exercises
//! the paths that answer one.
//!
//! A bug that panics inside a search must end that search with an answer (the USI engine
//! writes `info string error: ...` and `checkmate timeout`) and leave the engine serving, with
//! one thread or several. The build with the `fault-injection` feature (never a release; see
//! `scripts/test`) panics on purpose where the environment asks, so the end-to-end tests can
//! show it (`engine-tests/test_panic_guard.py`):
//!
//! * `TSUMUGI_INJECT_SEARCH_PANICS=N`: the first N USI searches panic before they start;
//! * `TSUMUGI_INJECT_PANIC=helper:N` or `main:N`: once per process, a search helper (or the
//!   main search while it has helpers) panics when it has searched N nodes.

/// The message of a panic payload (`panic!` with a string, or formatted).
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}

/// Where a search can be made to panic (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(not(feature = "fault-injection"), allow(dead_code))]
pub(crate) enum Point {
    /// A helper thread's search.
    Helper,
    /// The main search while it has helpers.
    Main,
}

/// Panics if the environment asks for a fault at `point` after `nodes` nodes (and none was
/// injected yet in this process). Does nothing in a build without `fault-injection`.
#[cfg(feature = "fault-injection")]
pub(crate) fn inject_at(point: Point, nodes: u64) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::OnceLock;
    static PLAN: OnceLock<Option<(Point, u64)>> = OnceLock::new();
    static DONE: AtomicBool = AtomicBool::new(false);
    let plan = PLAN.get_or_init(|| {
        let v = std::env::var("TSUMUGI_INJECT_PANIC").ok()?;
        let (at, n) = v.split_once(':')?;
        let point = match at {
            "helper" => Point::Helper,
            "main" => Point::Main,
            _ => return None,
        };
        Some((point, n.parse().ok()?))
    });
    if let Some((p, n)) = *plan {
        if p == point && nodes >= n && !DONE.swap(true, Ordering::SeqCst) {
            panic!("fault injected for a test ({point:?} search, {nodes} nodes)");
        }
    }
}

/// Does nothing: the build has no fault injection.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub(crate) fn inject_at(_point: Point, _nodes: u64) {}

/// Test-only fault injection (built with `--features fault-injection`, never in a release):
/// with `TSUMUGI_INJECT_SEARCH_PANICS=N` the first N searches panic before they start.
#[cfg(feature = "fault-injection")]
pub fn inject_before_search() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static PANICKED: AtomicU64 = AtomicU64::new(0);
    let n: u64 = std::env::var("TSUMUGI_INJECT_SEARCH_PANICS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if PANICKED.fetch_add(1, Ordering::Relaxed) < n {
        panic!("fault injected for a test");
    }
}

/// Does nothing: the build has no fault injection.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn inject_before_search() {}
