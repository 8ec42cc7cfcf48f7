//! `tsumugi_bench`: the bench in the browser build, the same list, runner and settings as
//! `tsumugi bench` (`mate::bench`), so both builds measure the same thing.

use super::ffi::{install_panic_hook, set_reply};
use super::page::MAX_HASH_MB;
// The bench's own default table (16 MB), not the page's.
use crate::mate::bench::{run_positions, totals, DEFAULT_HASH_MB, NODE_LIMIT, POSITIONS};
use serde_json::json;

/// Runs `tsumugi bench`'s positions (`mate::bench`: the same list, node limit and settings, a
/// fresh `hash_mb` table per position, one thread) and replies `{"lines": [...], "nodes": N,
/// "time_ms": T, "nps": R}`; each line is `tsumugi bench`'s text for that position. Takes a
/// few seconds; the node total equals the native build's.
#[no_mangle]
pub extern "C" fn tsumugi_bench(hash_mb: f64) -> i32 {
    install_panic_hook();
    let hash_mb = if hash_mb >= 1.0 {
        // Capped like `tsumugi_start`'s; a size the browser still cannot give is halved until
        // it can (`Solver::new`).
        (hash_mb as usize).min(MAX_HASH_MB)
    } else {
        DEFAULT_HASH_MB
    };
    let lines = run_positions(POSITIONS, hash_mb, 1, NODE_LIMIT, &mut |_| {});
    let (nodes, time, nps) = totals(&lines);
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    set_reply(&json!({
        "lines": text,
        "nodes": nodes,
        "time_ms": time.as_secs_f64() * 1000.0,
        "nps": nps,
    }));
    0
}
