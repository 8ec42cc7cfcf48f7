//! The browser page's API: read a position ([`tsumugi_inspect`]), then solve it in *slices*:
//! [`tsumugi_start`] sets a position up, each [`tsumugi_advance`] searches for at most a given
//! number of nodes or milliseconds and returns, and the next call goes on (`mate::sliced`:
//! df-pn restarted from the root over the same table, which keeps every proof, disproof and
//! number found so far, and the solver's last answer). A host with one thread (the page's Web
//! Worker) stays responsive between slices: a stop is [`tsumugi_stop`], answered at once with
//! what is established, exactly as a native search answers its stop flag. Replies are JSON
//! objects; numbers of nodes and milliseconds are `f64`, what JavaScript has.
//!
//! The answer text (`answer` in the final reply) is exactly the line `tsumugi solve` prints on
//! stdout for the same position and settings (`usi::checkmate_reply`), and its KIF (`kif`) is
//! what `tsumugi solve --format kifu` writes (`record::kif::write`, the same comments), the
//! counters' values aside.
//!
//! After an answer, the page may ask for more on the same solver and table, again in slices
//! ([`tsumugi_first_moves`], [`tsumugi_first_moves_advance`], [`tsumugi_first_moves_stop`]):
//! for a mate the other checks of the root, each with its verdict (`tsumugi solve --multipv`,
//! the engine's `MultiPV`), for a proven "no mate" each check with a defence that refutes it.
//! Each entry is `review::first_moves::json`'s object, what `tsumugi solve --format json`
//! writes, so the page claims exactly what the solver proved.

use super::ffi::{install_panic_hook, request, request_bytes, set_reply};
use super::first_moves::Enquiry;
use crate::mate::sliced::{SliceClock, SlicedSolve};
use crate::mate::{Limits, Notice, Outcome, PostSearch, SearchResult, Solver, UnknownReason};
use crate::record;
use crate::shogi::notation::japanese_line;
use crate::shogi::{Color, Move, Position};
use crate::usi::checkmate_reply;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::time::Duration;

/// Table size when the request names none (MB): large enough for a few minutes of search in a
/// browser tab, small enough for a phone.
const DEFAULT_HASH_MB: usize = crate::mate::hash_size::BROWSER_DEFAULT_MB;
/// Largest table a request may ask for (MB); wasm32 addresses 4 GB in all.
pub(super) const MAX_HASH_MB: usize = crate::mate::hash_size::BROWSER_MAX_MB;

/// One search in progress (or finished), advanced slice by slice.
pub(super) struct Job {
    /// The search, under the user's limits (time counted in slices only).
    pub(super) sliced: SlicedSolve,
    /// The final reply, once the search is over.
    pub(super) done: Option<Value>,
    /// The answer of a search that ended by itself or by the user's limits (never by a stop):
    /// what the first moves' enquiry starts from.
    pub(super) result: Option<SearchResult>,
}

#[derive(Default)]
pub(super) struct Page {
    pub(super) solver: Option<Solver>,
    pub(super) job: Option<Job>,
    pub(super) enquiry: Option<Enquiry>,
}

thread_local! {
    pub(super) static PAGE: RefCell<Page> = RefCell::new(Page::default());
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
    // SAFETY: forwarded from the caller; the host leaves the buffer alone during the call.
    let bytes = unsafe { request_bytes(ptr, len) };
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
            PAGE.with(|s| s.borrow_mut().job = None);
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
        time,
        nodes,
        post_search,
        root_is_and_if_checked: req["defender_root"].as_bool().unwrap_or(true),
        max_plies,
        ..Limits::default()
    };
    let normalised = pos.to_sfen();
    PAGE.with(|s| {
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
        s.enquiry = None;
        s.job = Some(Job {
            sliced: SlicedSolve::new(pos, limits, SliceClock::InSlices),
            done: None,
            result: None,
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
    PAGE.with(|s| {
        let mut guard = s.borrow_mut();
        let page = &mut *guard;
        let (Some(job), Some(solver)) = (page.job.as_mut(), page.solver.as_mut()) else {
            set_reply(&json!({"error": "no search: call tsumugi_start first"}));
            return -1;
        };
        if let Some(done) = &job.done {
            set_reply(done);
            return 1;
        }
        let slice_nodes = (max_nodes >= 1.0).then_some(max_nodes as u64);
        let slice_time = (max_ms > 0.0).then(|| Duration::from_secs_f64(max_ms / 1000.0));
        let finished = job.sliced.advance_on(solver, slice_nodes, slice_time);
        let hashfull = solver.hashfull();
        match finished {
            Some(r) => {
                let done = final_json(&job.sliced, &r, hashfull);
                set_reply(&done);
                job.done = Some(done);
                job.result = Some(r);
                1
            }
            None => {
                set_reply(&progress_json(&job.sliced, hashfull));
                0
            }
        }
    })
}

/// Ends the search: the answer is what was established by the last slice (as after a stop of
/// the native search). Returns 1 (reply: the answer) or -1 without a search.
#[no_mangle]
pub extern "C" fn tsumugi_stop() -> i32 {
    install_panic_hook();
    PAGE.with(|s| {
        let mut guard = s.borrow_mut();
        let page = &mut *guard;
        let Some(job) = page.job.as_mut() else {
            set_reply(&json!({"error": "no search to stop"}));
            return -1;
        };
        if job.done.is_none() {
            let hashfull = page.solver.as_ref().map_or(0, |s| s.hashfull());
            let r = job.sliced.finish(UnknownReason::Stopped, hashfull);
            job.done = Some(final_json(&job.sliced, &r, hashfull));
        }
        set_reply(job.done.as_ref().expect("set above"));
        1
    })
}

/// The counters of the whole search so far.
pub(super) fn counters(search: &SlicedSolve, hashfull: u32) -> Value {
    let secs = search.time().as_secs_f64();
    let nps = if secs > 0.0 {
        (search.nodes() as f64 / secs) as u64
    } else {
        0
    };
    let notices: Vec<Value> = search
        .notices()
        .iter()
        .map(|n| match n {
            Notice::TableFull { mb } => json!({"kind": n.kind(), "mb": mb, "text": n.to_string()}),
        })
        .collect();
    json!({
        "nodes": search.nodes(),
        "time_ms": (secs * 1000.0).round() as u64,
        "nps": nps,
        "hashfull": hashfull,
        "notices": notices,
    })
}

/// A line from the root as the page shows it: USI moves, Japanese notation per move, and the
/// SFEN of every position along it (the root first), for stepping through.
pub(super) fn line_json(root: &Position, line: &[Move]) -> Value {
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

/// Progress between slices: `{"done": false, "nodes", "time_ms", "nps", "hashfull", "notices",
/// "upper", "lower", "line"}`, where `notices` lists what the search has said about itself
/// (`[{"kind": "table_full", "mb", "text"}]`, each once; the answer carries them too), `upper`/`lower` bound the shortest mate once one is proven and
/// `line` is the best line so far (see `line_json`), else null.
fn progress_json(search: &SlicedSolve, hashfull: u32) -> Value {
    let mut v = counters(search, hashfull);
    v["done"] = json!(false);
    let r = search.last();
    let line = r.and_then(|r| match &r.outcome {
        Outcome::Mate(l) => Some(l.clone()),
        _ => r.best_mate.clone(),
    });
    let status = r.and_then(|r| r.status.clone());
    v["upper"] = json!(status.as_ref().map(|s| s.upper));
    v["lower"] = json!(status.as_ref().map(|s| s.lower));
    v["line"] = line.map_or(Value::Null, |l| line_json(search.position(), &l));
    v
}

/// The answer: `{"done": true, "answer": <tsumugi solve's stdout line>, "outcome":
/// "mate"|"nomate"|"no_mate_within" (with `max_plies`: none within it, proven; longer mates
/// not searched)|"unknown", "reason": <why undecided, or why a mate's search ended early>,
/// "status": <what is established, in a sentence>, "upper", "lower", "minimal",
/// "longest_defences", "composed", "composer_length", "strict_length", "line_len", "count_note"
/// (with a composed line: `{"en", "ja"}`, the note naming its count and the strict one, else
/// null), "defender_root", "line": <line_json of the mate, or of the best mate found before
/// the end when undecided>, "kif": <the KIF text of the position and that line, see
/// `kif_text`>, and the counters}`.
fn final_json(search: &SlicedSolve, r: &SearchResult, hashfull: u32) -> Value {
    let mut v = counters(search, hashfull);
    v["done"] = json!(true);
    // Why the search ended before its answer was complete (a stop, or the user's limit).
    let ended_early = r.interrupted.clone();
    if search.last().is_none() {
        // Stopped before the first slice.
        let reason = ended_early.unwrap_or(UnknownReason::Stopped);
        let outcome = Outcome::Unknown(reason.clone());
        v["answer"] = json!(checkmate_reply(&outcome));
        v["outcome"] = json!("unknown");
        v["reason"] = json!(reason.to_string());
        v["line"] = Value::Null;
        v["kif"] = json!(kif_text(search, r, outcome, None));
        return v;
    }
    // A search ended early answers for why it ended (`SlicedSolve::finish` words a slice cut
    // by its own bound so already).
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
    v["line"] = line
        .as_ref()
        .map_or(Value::Null, |l| line_json(search.position(), l));
    v["kif"] = json!(kif_text(search, r, outcome, line.as_deref()));
    v
}

/// The answer as a UTF-8 KIF (`.kifu`): `tsumugi solve --format kifu`'s text for the same
/// outcome (`record::kif::write`, with `SearchResult::record_comments`; the counters are the
/// whole sliced search's). `line` is the line the page shows: the mate's, or the best mate
/// found before an undecided end (verified, so it ends `詰み` too; `solve` writes none then).
pub(super) fn kif_text(
    search: &SlicedSolve,
    r: &SearchResult,
    outcome: Outcome,
    line: Option<&[Move]>,
) -> String {
    let shown = SearchResult {
        outcome,
        ..r.clone()
    };
    let mated = matches!(shown.outcome, Outcome::Mate(_)) || line.is_some();
    record::kif::write(
        search.position(),
        line.unwrap_or(&[]),
        mated.then_some("詰み"),
        &shown.record_comments(),
    )
}
