//! WebAssembly bindings: the mate solver for a browser page or any other JavaScript host,
//! compiled for `wasm32-unknown-unknown` (see `scripts/build-web`). Not built natively.
//!
//! The search runs in *slices*: [`tsumugi_start`] sets a position up, each
//! [`tsumugi_advance`] searches for at most a given number of nodes or milliseconds and
//! returns, and the next call goes on (df-pn restarted from the root over the same table, which
//! keeps every proof, disproof and number found so far, and the solver's last answer; see
//! `mate::driver`'s `last`). A host with one thread (a Web Worker, a GUI's engine process
//! polled by the GUI) stays responsive between slices: a stop is [`tsumugi_stop`], answered at
//! once with what is established, exactly as a native search answers its stop flag.
//!
//! Strings cross the boundary as UTF-8 in the module's memory: the host asks
//! [`tsumugi_alloc`] for a buffer, writes its request there and passes pointer and length; every
//! call leaves its answer, a JSON object, in a reply buffer read through [`tsumugi_reply_ptr`]
//! and [`tsumugi_reply_len`] (valid until the next call). Numbers of nodes and milliseconds are
//! `f64`, what JavaScript has. The host provides one import, `env.tsumugi_now_ms` (a monotonic
//! clock in milliseconds, `performance.now()`; see `mate::clock`) and `env.tsumugi_log(ptr,
//! len)`, which receives a panic's message (UTF-8) before the module traps.
//!
//! The answer text (`answer` in the final reply) is exactly the line `tsumugi solve` prints on
//! stdout for the same position and settings (`usi::checkmate_reply`).

use crate::mate::{Limits, Outcome, PostSearch, SearchResult, Solver, UnknownReason};
use crate::record;
use crate::shogi::notation::japanese_line;
use crate::shogi::{Color, Move, Position};
use crate::usi::checkmate_reply;
use crate::usi::cooperative::Cooperative;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Table size when the request names none (MB): large enough for a few minutes of search in a
/// browser tab, small enough for a phone.
const DEFAULT_HASH_MB: usize = crate::mate::hash_size::BROWSER_DEFAULT_MB;
/// Largest table a request may ask for (MB); wasm32 addresses 4 GB in all.
const MAX_HASH_MB: usize = crate::mate::hash_size::BROWSER_MAX_MB;

#[link(wasm_import_module = "env")]
extern "C" {
    /// Receives a UTF-8 message (a panic's) for the host's console.
    fn tsumugi_log(ptr: *const u8, len: usize);
}

/// One search in progress (or finished), advanced slice by slice.
struct Job {
    pos: Position,
    limits: Limits,
    /// The user's limits over the whole search (all slices).
    time: Option<Duration>,
    nodes: Option<u64>,
    /// Nodes and search time of the slices so far.
    spent_nodes: u64,
    spent_time: Duration,
    /// The last slice's result.
    last: Option<SearchResult>,
    /// The final reply, once the search is over.
    done: Option<Value>,
}

#[derive(Default)]
struct State {
    solver: Option<Solver>,
    job: Option<Job>,
    reply: Vec<u8>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

fn set_reply(v: &Value) {
    STATE.with(|s| s.borrow_mut().reply = v.to_string().into_bytes());
}

/// The request at `ptr..ptr+len` as text (lossy: the host writes UTF-8).
///
/// # Safety
/// `ptr` must point to `len` readable bytes (a buffer from [`tsumugi_alloc`]).
unsafe fn request(ptr: *const u8, len: usize) -> String {
    if len == 0 {
        return String::new();
    }
    // SAFETY: the caller guarantees `len` readable bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Sends panics to the host's console (`env.tsumugi_log`) before the module traps: with
/// `panic = "abort"` the message would otherwise be lost.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let msg = format!("tsumugi panicked: {info}");
            // SAFETY: the host reads `msg.len()` bytes at `msg.as_ptr()` during the call only.
            unsafe { tsumugi_log(msg.as_ptr(), msg.len()) };
        }));
    });
}

/// A buffer of `len` bytes for a request (freed with [`tsumugi_free`]).
#[no_mangle]
pub extern "C" fn tsumugi_alloc(len: usize) -> *mut u8 {
    let mut v = vec![0u8; len.max(1)];
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Frees a buffer of [`tsumugi_alloc`].
///
/// # Safety
/// `ptr` and `len` must be exactly what `tsumugi_alloc(len)` returned and was given, not freed
/// before.
#[no_mangle]
pub unsafe extern "C" fn tsumugi_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes a live allocation of `tsumugi_alloc(len)`, whose capacity is
    // `len.max(1)`.
    unsafe { drop(Vec::from_raw_parts(ptr, 0, len.max(1))) };
}

/// Where the last call's reply (UTF-8 JSON) starts.
#[no_mangle]
pub extern "C" fn tsumugi_reply_ptr() -> *const u8 {
    STATE.with(|s| s.borrow().reply.as_ptr())
}

/// The last call's reply length in bytes.
#[no_mangle]
pub extern "C" fn tsumugi_reply_len() -> usize {
    STATE.with(|s| s.borrow().reply.len())
}

/// Reads a position as `tsumugi solve` reads a file or its SFEN words ([`record::read_input`]):
/// SFEN or a USI `position` command with `moves`, KIF/KI2 (board diagrams, moves), CSA, in
/// UTF-8 or Shift_JIS bytes (a file's, passed as they are). Reply: `{"ok": true, "sfen":
/// <the position after the moves, normalised>, "side": "b"|"w", "in_check": bool, "attacker":
/// "b"|"w" (the side that mates, `Solver::mating_side`), "format": "sfen"|"kif"|"csa"|"ascii"}`
/// or `{"ok": false, "error": <what is wrong, as tsumugi solve says it>, "line": <1-based line
/// of the fault, 0 for the text as a whole>, "reason": <the error without its line>}`.
/// Returns 0 when the position is valid, 1 otherwise.
///
/// # Safety
/// `ptr` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn tsumugi_inspect(ptr: *const u8, len: usize) -> i32 {
    install_panic_hook();
    let bytes: &[u8] = if len == 0 {
        &[]
    } else {
        // SAFETY: the caller guarantees `len` readable bytes at `ptr`.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    };
    match record::read_input(bytes) {
        Ok(r) => {
            let p = r.position();
            let color = |c: Color| if c == Color::Black { "b" } else { "w" };
            set_reply(&json!({
                "ok": true,
                "sfen": p.to_sfen(),
                "side": color(p.side_to_move()),
                "in_check": p.in_check(),
                "attacker": color(Solver::mating_side(&p, true)),
                "format": r.format.name(),
            }));
            0
        }
        Err(e) => {
            set_reply(&json!({
                "ok": false,
                "error": e.to_string(),
                "line": e.line,
                "reason": e.reason,
            }));
            1
        }
    }
}

/// Sets up a search. The request is JSON: `{"sfen": S, "mode": "strict"|"composer"|"first",
/// "time_ms": T, "nodes": N, "hash_mb": M, "defender_root": bool, "max_plies": P}`; all but
/// `sfen` optional (`max_plies`: mates of at most P plies only, `solve --max-plies`; 0: none)
/// (`strict`: the shortest mate, every defence counted, `tsumugi solve`'s default; `composer`:
/// `--post-search composer`; `first`: `--post-search none`; no time or node limit; 128 MB;
/// `defender_root` true). The solver is made afresh (as `tsumugi solve` starts). Returns 0 (reply `{"ok": true, "sfen": ...}`) or 1 (reply
/// `{"ok": false, "error": ...}`; nothing is set up).
///
/// # Safety
/// `ptr` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn tsumugi_start(ptr: *const u8, len: usize) -> i32 {
    install_panic_hook();
    // SAFETY: forwarded from the caller.
    let text = unsafe { request(ptr, len) };
    match start(&text) {
        Ok(sfen) => {
            set_reply(&json!({"ok": true, "sfen": sfen}));
            0
        }
        Err(e) => {
            STATE.with(|s| s.borrow_mut().job = None);
            set_reply(&json!({"ok": false, "error": e}));
            1
        }
    }
}

fn start(text: &str) -> Result<String, String> {
    let req: Value = serde_json::from_str(text).map_err(|e| format!("request is not JSON: {e}"))?;
    let sfen = req["sfen"].as_str().ok_or("request has no \"sfen\"")?;
    let pos = Position::from_sfen(sfen).map_err(|e| format!("bad SFEN: {e}"))?;
    let post_search = match req["mode"].as_str().unwrap_or("strict") {
        "strict" | "shortest" => PostSearch::Shortest,
        "composer" => PostSearch::Composer,
        "first" | "none" => PostSearch::None,
        m => return Err(format!("mode '{m}' is not strict, composer or first")),
    };
    let positive = |key: &str| -> Result<Option<u64>, String> {
        match &req[key] {
            Value::Null => Ok(None),
            v => match v.as_f64() {
                Some(x) if x >= 0.0 && x.fract() == 0.0 => Ok((x > 0.0).then_some(x as u64)),
                _ => Err(format!(
                    "\"{key}\" must be a whole number of 0 or more, got {v}"
                )),
            },
        }
    };
    let time = positive("time_ms")?.map(Duration::from_millis);
    let nodes = positive("nodes")?;
    // A mate within this many plies, or a proven "no mate within" it (0 or absent: no limit).
    let max_plies = match positive("max_plies")? {
        Some(n) if n > crate::mate::MAX_PLIES as u64 => {
            return Err(format!(
                "\"max_plies\" must be at most {}",
                crate::mate::MAX_PLIES
            ))
        }
        n => n.map(|n| n as u32),
    };
    let hash_mb = positive("hash_mb")?.unwrap_or(DEFAULT_HASH_MB as u64) as usize;
    if hash_mb == 0 || hash_mb > MAX_HASH_MB {
        return Err(format!("\"hash_mb\" must be between 1 and {MAX_HASH_MB}"));
    }
    let limits = Limits {
        post_search,
        root_is_and_if_checked: req["defender_root"].as_bool().unwrap_or(true),
        max_plies,
        ..Limits::default()
    };
    let normalised = pos.to_sfen();
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        // A fresh solver, as `tsumugi solve` makes: `Solver::clear` empties the table but
        // keeps the path-dependent repetition results of the same position (sound, but a
        // second solve would then differ from the native one node for node). Drop the old one
        // first: both tables at once may not fit.
        s.solver = None;
        // Refused, not reduced, if the browser cannot give that much (a failed allocation
        // would otherwise abort the module): the page says so and may ask for less.
        let Some(solver) = Solver::try_new(hash_mb) else {
            return Err(format!(
                "\"hash_mb\" {hash_mb}: a table of {hash_mb} MB could not be allocated; ask for less"
            ));
        };
        s.solver = Some(solver);
        s.job = Some(Job {
            pos,
            limits,
            time,
            nodes,
            spent_nodes: 0,
            spent_time: Duration::ZERO,
            last: None,
            done: None,
        });
        Ok(())
    })?;
    Ok(normalised)
}

/// Searches the position of [`tsumugi_start`] for at most `max_nodes` nodes and `max_ms`
/// milliseconds (either 0 or less: no bound of that kind; the user's limits of the request
/// bound the search too), then returns: 0 while the search goes on (reply: progress, see
/// `progress_json`), 1 when it is over (reply: the answer, see `final_json`), -1 without a
/// search to advance. Calling it again after the end repeats the answer.
#[no_mangle]
pub extern "C" fn tsumugi_advance(max_nodes: f64, max_ms: f64) -> i32 {
    install_panic_hook();
    STATE.with(|s| {
        let mut guard = s.borrow_mut();
        let st = &mut *guard;
        let (Some(job), Some(solver)) = (st.job.as_mut(), st.solver.as_mut()) else {
            st.reply = json!({"error": "no search: call tsumugi_start first"})
                .to_string()
                .into_bytes();
            return -1;
        };
        if let Some(done) = &job.done {
            st.reply = done.to_string().into_bytes();
            return 1;
        }
        let mut limits = job.limits.clone();
        let mut slice_nodes = (max_nodes >= 1.0).then_some(max_nodes as u64);
        if let Some(n) = job.nodes {
            let left = n.saturating_sub(job.spent_nodes).max(1);
            slice_nodes = Some(slice_nodes.map_or(left, |s| s.min(left)));
        }
        let mut slice_time = (max_ms > 0.0).then(|| Duration::from_secs_f64(max_ms / 1000.0));
        if let Some(t) = job.time {
            let left = t
                .saturating_sub(job.spent_time)
                .max(Duration::from_millis(1));
            slice_time = Some(slice_time.map_or(left, |s| s.min(left)));
        }
        limits.nodes = slice_nodes;
        limits.time = slice_time;
        let stop = AtomicBool::new(false);
        let r = solver.solve(&job.pos, &limits, &stop, &mut |_| {});
        job.spent_nodes += r.stats.nodes;
        job.spent_time += r.stats.time;
        let over_user_limit = job.nodes.is_some_and(|n| job.spent_nodes >= n)
            || job.time.is_some_and(|t| job.spent_time >= t);
        let finished = r.interrupted.is_none() || over_user_limit;
        let hashfull = solver.hashfull();
        job.last = Some(r);
        if finished {
            let reason = job.last.as_ref().and_then(|r| r.interrupted.clone());
            // A slice cut by the user's limit ends as that limit: time or nodes.
            let reason = reason.map(|_| {
                if job.nodes.is_some_and(|n| job.spent_nodes >= n) {
                    UnknownReason::Nodes
                } else {
                    UnknownReason::Time
                }
            });
            let done = final_json(job, reason, hashfull);
            st.reply = done.to_string().into_bytes();
            job.done = Some(done);
            1
        } else {
            st.reply = progress_json(job, hashfull).to_string().into_bytes();
            0
        }
    })
}

/// Ends the search: the answer is what was established by the last slice (as after a stop of
/// the native search). Returns 1 (reply: the answer) or -1 without a search.
#[no_mangle]
pub extern "C" fn tsumugi_stop() -> i32 {
    install_panic_hook();
    STATE.with(|s| {
        let mut guard = s.borrow_mut();
        let st = &mut *guard;
        let Some(job) = st.job.as_mut() else {
            st.reply = json!({"error": "no search to stop"})
                .to_string()
                .into_bytes();
            return -1;
        };
        if job.done.is_none() {
            let hashfull = st.solver.as_ref().map_or(0, |s| s.hashfull());
            let done = final_json(job, Some(UnknownReason::Stopped), hashfull);
            job.done = Some(done);
        }
        st.reply = job
            .done
            .as_ref()
            .expect("set above")
            .to_string()
            .into_bytes();
        1
    })
}

/// Runs `tsumugi bench`'s positions (`cli::bench`: the same list, node limit and settings, a
/// fresh `hash_mb` table per position, one thread) and replies `{"lines": [...], "nodes": N,
/// "time_ms": T, "nps": R}`; each line is `tsumugi bench`'s text for that position. Takes a
/// few seconds; the node total equals the native build's.
#[no_mangle]
pub extern "C" fn tsumugi_bench(hash_mb: f64) -> i32 {
    install_panic_hook();
    use crate::cli::bench::{run_positions, totals, NODE_LIMIT, POSITIONS};
    let hash_mb = if hash_mb >= 1.0 {
        // Capped like `tsumugi_solve`'s; a size the browser still cannot give is halved until
        // it can (`Solver::new`).
        (hash_mb as usize).min(MAX_HASH_MB)
    } else {
        crate::mate::hash_size::BENCH_MB
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

/// The counters of the whole search so far.
fn counters(job: &Job, hashfull: u32) -> Value {
    let secs = job.spent_time.as_secs_f64();
    let nps = if secs > 0.0 {
        (job.spent_nodes as f64 / secs) as u64
    } else {
        0
    };
    json!({
        "nodes": job.spent_nodes,
        "time_ms": (secs * 1000.0).round() as u64,
        "nps": nps,
        "hashfull": hashfull,
    })
}

/// A line from the root as the page shows it: USI moves, Japanese notation per move, and the
/// SFEN of every position along it (the root first), for stepping through.
fn line_json(root: &Position, line: &[Move]) -> Value {
    let usi: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    let japanese: Vec<String> = if line.is_empty() {
        Vec::new()
    } else {
        japanese_line(root, line)
            .split(' ')
            .map(str::to_string)
            .collect()
    };
    let mut p = root.clone();
    let mut sfens = vec![p.to_sfen()];
    for &m in line {
        p.do_move(m);
        sfens.push(p.to_sfen());
    }
    json!({"usi": usi, "japanese": japanese, "sfens": sfens})
}

/// Progress between slices: `{"done": false, "nodes", "time_ms", "nps", "hashfull", "upper",
/// "lower", "line"}`, where `upper`/`lower` bound the shortest mate once one is proven and
/// `line` is the best line so far (see `line_json`), else null.
fn progress_json(job: &Job, hashfull: u32) -> Value {
    let mut v = counters(job, hashfull);
    v["done"] = json!(false);
    let r = job.last.as_ref();
    let line = r.and_then(|r| match &r.outcome {
        Outcome::Mate(l) => Some(l.clone()),
        _ => r.best_mate.clone(),
    });
    let status = r.and_then(|r| r.status.clone());
    v["upper"] = json!(status.as_ref().map(|s| s.upper));
    v["lower"] = json!(status.as_ref().map(|s| s.lower));
    v["line"] = line.map_or(Value::Null, |l| line_json(&job.pos, &l));
    v
}

/// The answer: `{"done": true, "answer": <tsumugi solve's stdout line>, "outcome":
/// "mate"|"nomate"|"no_mate_within" (with `max_plies`: none within it, proven; longer mates
/// not searched)|"unknown", "reason": <why undecided, or why a mate's search ended early>,
/// "status": <what is established, in a sentence>, "upper", "lower", "minimal",
/// "longest_defences", "composed", "composer_length", "strict_length", "line_len", "count_note"
/// (with a composed line: `{"en", "ja"}`, the note naming its count and the strict one, else
/// null), "defender_root", "line": <line_json of the mate, or of the best mate found before
/// the end when undecided>, and the counters}`.
fn final_json(job: &Job, ended_early: Option<UnknownReason>, hashfull: u32) -> Value {
    let mut v = counters(job, hashfull);
    v["done"] = json!(true);
    let Some(r) = &job.last else {
        // Stopped before the first slice.
        let reason = ended_early.unwrap_or(UnknownReason::Stopped);
        v["answer"] = json!(checkmate_reply(&Outcome::Unknown(reason.clone())));
        v["outcome"] = json!("unknown");
        v["reason"] = json!(reason.to_string());
        v["line"] = Value::Null;
        return v;
    };
    // A slice cut by its own bound reads `Unknown(Time)` or `Unknown(Nodes)`; the search as a
    // whole ended for `ended_early` (stop, or the user's limit).
    let outcome = match (&r.outcome, &ended_early) {
        (Outcome::Unknown(_), Some(why)) => Outcome::Unknown(why.clone()),
        (o, _) => o.clone(),
    };
    v["answer"] = json!(checkmate_reply(&outcome));
    let (kind, reason, line) = match &outcome {
        Outcome::Mate(l) => ("mate", ended_early.map(|e| e.to_string()), Some(l.clone())),
        Outcome::NoMate => ("nomate", None, None),
        // Proven up to the limit only: the page shows the reason, which says so.
        Outcome::Unknown(why @ UnknownReason::NoMateWithin(_)) => {
            ("no_mate_within", Some(why.to_string()), None)
        }
        Outcome::Unknown(why) => ("unknown", Some(why.to_string()), r.best_mate.clone()),
    };
    v["outcome"] = json!(kind);
    v["reason"] = json!(reason);
    v["defender_root"] = json!(r.defender_root);
    if let Some(st) = &r.status {
        v["status"] = json!(st.describe());
        v["upper"] = json!(st.upper);
        v["lower"] = json!(st.lower);
        v["minimal"] = json!(st.minimal());
        v["longest_defences"] = json!(st.longest_defences);
        v["composed"] = json!(st.composed());
        // The two counts apart: `line` is in the composers' count when `composed`.
        v["composer_length"] = json!(st.composer_len);
        v["strict_length"] = json!(st.line_len);
        v["count_note"] = st
            .count_note()
            .map_or(Value::Null, |(en, ja)| json!({"en": en, "ja": ja}));
        // The strict line's length, which `status` speaks of (the page words it in Japanese).
        v["line_len"] = json!(st.line_len);
    }
    v["line"] = line.map_or(Value::Null, |l| line_json(&job.pos, &l));
    v
}

// --- The USI engine (ShogiHome's `shogihome-wasm-engine` ABI; see `usi::cooperative` and
// `web/shogihome/tsumugi.js`, the ES module that wraps these calls in the ABI's engine object).
// One engine per module instance. Each call leaves the lines the engine wrote in the reply
// buffer (text, each line ending in `\n`; empty when there are none).

thread_local! {
    static USI: RefCell<Cooperative> = RefCell::new(Cooperative::new());
}

/// The engine's state for the host: 2 after `quit` (or [`tsumugi_usi_terminate`]; nothing
/// more will be written), 1 while a search runs (keep calling [`tsumugi_usi_poll`]), 0 idle.
fn usi_state(e: &Cooperative) -> i32 {
    if e.has_quit() {
        2
    } else if e.searching() {
        1
    } else {
        0
    }
}

/// Runs `f` on the engine, then leaves what it wrote as the reply and returns the state: the
/// body of every `tsumugi_usi_*` entry point.
fn with_usi(f: impl FnOnce(&mut Cooperative)) -> i32 {
    USI.with(|e| {
        let mut e = e.borrow_mut();
        f(&mut e);
        let text = e.take_output();
        STATE.with(|s| s.borrow_mut().reply = text.into_bytes());
        usi_state(&e)
    })
}

/// Handles one USI command line (UTF-8 at `ptr..ptr+len`). Reply: the lines written; returns
/// the state (see `usi_state`).
///
/// # Safety
/// `ptr` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn tsumugi_usi_command(ptr: *const u8, len: usize) -> i32 {
    install_panic_hook();
    // SAFETY: forwarded from the caller.
    let line = unsafe { request(ptr, len) };
    with_usi(|e| e.command(&line))
}

/// Advances the running search by one slice (at most 200 ms; see `usi::cooperative`). Reply:
/// the lines written; returns the state.
#[no_mangle]
pub extern "C" fn tsumugi_usi_poll() -> i32 {
    install_panic_hook();
    with_usi(|e| {
        e.poll();
    })
}

/// Ends the engine without a word (the ABI's `terminate()`): a running search is dropped, the
/// table freed. Returns 2.
#[no_mangle]
pub extern "C" fn tsumugi_usi_terminate() -> i32 {
    install_panic_hook();
    with_usi(|e| e.terminate())
}
