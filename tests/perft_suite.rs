//! Perft suite: every line of `tests/data/perft.txt` (`name<TAB>sfen<TAB>depth<TAB>count<TAB>
//! source`, `#` comments; counts from cshogi, see `scripts/gen/perft_data.py`) is run through
//! our `perft` and must match. Each line with depth ≤ 3 is also counted by a second, independent
//! oracle, `shogi_legality_lite` (as assembled in `tests/common/mod.rs`), so a wrong expected
//! count cannot go unnoticed either; and the cheaper lines additionally by the crate's own
//! `shogi_legality_lite::perft::perft`.
//!
//! `shogi_legality_lite::perft::perft` is slow on positions where both sides hold pawns (its
//! pawn-drop-mate test re-enters itself; ~32 s for all depth-≤3 lines of the current file, 8 s
//! for a single one), so the default test runs it only on lines with expected count ≤
//! `RAW_MAX_COUNT`; the ignored test `perft_suite_raw_oracle_all` runs it on every depth-≤3 line.
//! Each raw run has a time limit; a run that exceeds it is reported as skipped, not failed.
//!
//! `cargo test --release --test perft_suite -- --nocapture` prints a line per position.

mod common;

use common::{oracle_perft, to_partial, OracleInfo};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tsumugi::shogi::{perft, Position};

/// Deepest line the oracles are run on.
const ORACLE_MAX_DEPTH: u32 = 3;
/// In the default test, raw `shogi_legality_lite::perft::perft` only for counts up to this.
const RAW_MAX_COUNT: u64 = 150_000;

struct Line {
    name: String,
    sfen: String,
    depth: u32,
    count: u64,
}

fn load() -> Vec<Line> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let mut lines = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let l = l.trim_end_matches('\r');
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = l.split('\t').collect();
        assert!(
            f.len() >= 4,
            "{path}:{}: expected at least 4 tab-separated fields",
            i + 1
        );
        lines.push(Line {
            name: f[0].to_string(),
            sfen: f[1].to_string(),
            depth: f[2]
                .parse()
                .unwrap_or_else(|_| panic!("{path}:{}: bad depth {:?}", i + 1, f[2])),
            count: f[3]
                .parse()
                .unwrap_or_else(|_| panic!("{path}:{}: bad count {:?}", i + 1, f[3])),
        });
    }
    assert!(!lines.is_empty(), "{path} has no data lines");
    lines
}

/// `shogi_legality_lite::perft::perft` on a worker thread, given up after `limit`.
fn raw_perft(sfen: &str, depth: u32, limit: Duration) -> Option<u64> {
    let p = to_partial(sfen);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(shogi_legality_lite::perft::perft(p, depth as usize).all);
    });
    // On timeout the worker is left running; it dies with the test process.
    rx.recv_timeout(limit).ok()
}

/// Runs the suite; `raw` decides per line whether the raw lite perft also runs.
fn run(raw: impl Fn(&Line) -> bool, raw_limit: Duration) {
    let lines = load();
    let mut failures = Vec::new();
    let mut info = OracleInfo::default();
    let mut oracle_checked = 0;
    let mut raw_checked = 0;
    let mut raw_skipped = Vec::new();
    for l in &lines {
        let mut pos = match Position::from_sfen(&l.sfen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: SFEN rejected: {e} ({})", l.name, l.sfen));
                continue;
            }
        };
        let t = Instant::now();
        let got = perft(&mut pos, l.depth);
        let secs = t.elapsed().as_secs_f64();
        let mut note = String::new();
        if got != l.count {
            failures.push(format!(
                "{}: perft({}) expected {} got {} (sfen {})",
                l.name, l.depth, l.count, got, l.sfen
            ));
        }
        if l.depth <= ORACLE_MAX_DEPTH {
            let t = Instant::now();
            let o = oracle_perft(&to_partial(&l.sfen), l.depth, &mut info);
            oracle_checked += 1;
            note += &format!(" oracle {o} ({:.2}s)", t.elapsed().as_secs_f64());
            if o != l.count {
                failures.push(format!(
                    "{}: oracle (shogi_legality_lite) perft({}) = {o}, file says {}, we say {got} \
                     (sfen {})",
                    l.name, l.depth, l.count, l.sfen
                ));
            }
            if raw(l) {
                let t = Instant::now();
                match raw_perft(&l.sfen, l.depth, raw_limit) {
                    Some(r) => {
                        raw_checked += 1;
                        note += &format!(" raw {r} ({:.2}s)", t.elapsed().as_secs_f64());
                        if r != l.count {
                            failures.push(format!(
                                "{}: shogi_legality_lite::perft::perft({}) = {r}, file says {}, \
                                 we say {got} (sfen {})",
                                l.name, l.depth, l.count, l.sfen
                            ));
                        }
                    }
                    None => {
                        note += " raw timed out";
                        raw_skipped.push(l.name.clone());
                    }
                }
            }
        }
        let mark = if got == l.count { "ok" } else { "MISMATCH" };
        eprintln!(
            "{mark:8} {:28} d{} expected {:>10} got {:>10} ({secs:.2}s){note}",
            l.name, l.depth, l.count, got
        );
    }
    eprintln!(
        "perft suite: {} lines, {} also by the shogi_legality_lite oracle, {} also by its raw \
         perft{}",
        lines.len(),
        oracle_checked,
        raw_checked,
        if raw_skipped.is_empty() {
            String::new()
        } else {
            format!(" (timed out: {raw_skipped:?})")
        }
    );
    if !failures.is_empty() {
        panic!(
            "{} perft failure(s):\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

#[test]
fn perft_suite() {
    run(|l| l.count <= RAW_MAX_COUNT, Duration::from_secs(30));
}

#[test]
#[ignore = "slow: raw shogi_legality_lite perft on every depth<=3 line (~30 s+)"]
fn perft_suite_raw_oracle_all() {
    run(|_| true, Duration::from_secs(300));
}
