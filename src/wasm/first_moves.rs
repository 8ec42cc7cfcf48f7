//! The page's enquiry after an answer: the other first moves of a mate (the Lines setting,
//! as USI `MultiPV`) or a refutation of each check of a proven no mate, advanced slice by
//! slice over the solver and table of the answer (`tsumugi_first_moves`, `_advance`, `_stop`).

use super::ffi::{install_panic_hook, request, set_reply};
use super::page::{line_json, PAGE};
use crate::mate::clock::Instant;
use crate::mate::first_moves::{better, sort_best_first, FirstMove, Verdict};
use crate::mate::{Limits, Outcome, PostSearch, Stats, UnknownReason};
use crate::record;
use crate::review::first_moves as review_fm;
use crate::shogi::{Move, MoveList, Position};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What the enquiry after an answer lists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EnquiryKind {
    /// A mate: the other checks of the root (`Solver::first_moves_among`).
    Others,
    /// A proven "no mate": every check with a refuting defence (`Solver::refutations_among`).
    Refutations,
}

/// The first moves' enquiry in progress (or finished), advanced slice by slice over the
/// solver and table of the answer. Each slice searches one check at a time, in turn (a check
/// left open comes back after every other open check has had its search), each search bounded
/// by what is left of the slice: one hard check cannot hold back the verdicts of the others,
/// and its work is kept in the table for its next turn.
pub(super) struct Enquiry {
    kind: EnquiryKind,
    root: Position,
    /// Every check asked about, in generation order, with the best verdict so far.
    moves: Vec<FirstMove>,
    /// Searched at least once (an untried check's verdict is a placeholder).
    tried: Vec<bool>,
    /// A later search may tell more of it.
    open: Vec<bool>,
    /// Where the next turn starts.
    next: usize,
    /// The answer's nodes: the first pass's budget of a check (`Solver::other_first_moves`).
    base_nodes: u64,
    post_search: PostSearch,
    max_plies: Option<u32>,
    /// The enquiry's own limits, from the request.
    deadline: Option<Instant>,
    nodes_left: Option<u64>,
    /// How many entries the answer lists (the others: `lines - 1`; refutations: all).
    shown: usize,
    /// Nodes and time of every search so far.
    spent: Stats,
    /// The final reply, once the enquiry is over.
    done: Option<Value>,
}

impl Enquiry {
    /// Why no more may be searched, if that is so.
    fn spent(&self) -> Option<UnknownReason> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(UnknownReason::Time)
        } else if self.nodes_left == Some(0) {
            Some(UnknownReason::Nodes)
        } else {
            None
        }
    }

    /// The next check to search, in turn after the last one searched.
    fn next_open(&self) -> Option<usize> {
        let n = self.moves.len();
        (0..n).map(|k| (self.next + k) % n).find(|&i| self.open[i])
    }

    /// Takes in the verdict `new` of check `i` from a search that was `cut` by its time bound.
    fn merge(&mut self, i: usize, new: FirstMove, cut: bool) {
        self.spent.nodes += new.stats.nodes;
        self.spent.time += new.stats.time;
        if let Some(n) = &mut self.nodes_left {
            *n = n.saturating_sub(new.stats.nodes);
        }
        let fm = &mut self.moves[i];
        fm.stats.nodes += new.stats.nodes;
        fm.stats.time += new.stats.time;
        // Each verdict is proven on its own (lines verified, disproofs stored), so the best of
        // them stands; an undecided one only replaces another undecided one (its reason).
        let keep_reason = matches!(
            (&new.verdict, &fm.verdict),
            (Verdict::Undecided(_), Verdict::Undecided(_))
        );
        if !self.tried[i] || keep_reason || better(&new.verdict, &fm.verdict) {
            fm.verdict = new.verdict.clone();
        }
        self.tried[i] = true;
        // More can be learnt only of a check whose search was cut by a bound of the slice or
        // of the enquiry (an undecided search that ended otherwise, a mate whose search ended
        // without proving it shortest, would end so again).
        self.open[i] = !fm.settled()
            && match &new.verdict {
                Verdict::Undecided(why) => {
                    cut || matches!(why, UnknownReason::Time | UnknownReason::Nodes)
                }
                Verdict::Mate { .. } => cut,
                Verdict::NoMate(_) => false,
            };
        self.next = i + 1;
    }

    /// Ends the enquiry: the checks still open or never searched are undecided for `why`
    /// (a mate found stays a mate, with what is proven of it).
    fn finish(&mut self, why: Option<UnknownReason>) -> Value {
        if let Some(why) = &why {
            for (i, fm) in self.moves.iter_mut().enumerate() {
                if self.open[i] || !self.tried[i] {
                    if let Verdict::Undecided(old) = &mut fm.verdict {
                        *old = why.clone();
                    }
                }
            }
        }
        self.open.iter_mut().for_each(|o| *o = false);
        let mut v = self.reply(true);
        v["reason"] = json!(why.map(|w| w.to_string()));
        self.done = Some(v.clone());
        v
    }

    /// Progress (`done` false: only the checks decided so far) or the answer (`done` true:
    /// every check, undecided ones too), best first, at most `shown` of them.
    fn reply(&self, done: bool) -> Value {
        let mut listed: Vec<FirstMove> = self
            .moves
            .iter()
            .zip(&self.tried)
            .filter(|&(fm, &tried)| done || (tried && !matches!(fm.verdict, Verdict::Undecided(_))))
            .map(|(fm, _)| fm.clone())
            .collect();
        sort_best_first(&mut listed);
        listed.truncate(self.shown);
        let decided = self
            .moves
            .iter()
            .zip(&self.tried)
            .filter(|&(fm, &tried)| tried && !matches!(fm.verdict, Verdict::Undecided(_)))
            .count();
        let entries: Vec<Value> = listed.iter().map(|fm| entry_json(&self.root, fm)).collect();
        let mut v = json!({
            "done": done,
            "kind": match self.kind {
                EnquiryKind::Others => "others",
                EnquiryKind::Refutations => "refutations",
            },
            "checks": self.moves.len(),
            "decided": decided,
            "moves": entries,
            "nodes": self.spent.nodes,
            "time_ms": self.spent.time.as_millis() as u64,
        });
        if self.kind == EnquiryKind::Refutations {
            let (en, ja) = review_fm::refutations_heading(self.moves.len());
            v["heading"] = json!({"en": en, "ja": ja});
        }
        v
    }
}

/// One first move for the page: `review::first_moves::json`'s object (what `tsumugi solve
/// --format json` writes), with `line` (`line_json` of its moves, to step through) and `kif`
/// (the KIF of those moves from the root, ending `詰み` for a mate).
fn entry_json(root: &Position, fm: &FirstMove) -> Value {
    let moves = review_fm::moves(fm);
    let mut o = review_fm::json(root, fm);
    o["line"] = line_json(root, &moves);
    let mate = matches!(fm.verdict, Verdict::Mate { .. });
    o["kif"] = json!(record::kif::write(
        root,
        &moves,
        mate.then_some("詰み"),
        &[]
    ));
    o
}

/// Starts the enquiry after the answer of the last search (which must have ended by itself
/// or by its limits, not by a stop). The request is JSON: `{"lines": L, "time_ms": T,
/// "nodes": N}`, all optional: with a mate and `lines` 2 or more (default 1), the `L - 1` best
/// other first moves (`tsumugi solve --multipv L`); with a proven "no mate", every check with
/// a refuting defence (whatever `lines`); `time_ms` and `nodes` bound the whole enquiry (0 or
/// absent: no bound; the page passes what is left of the user's limits). Reply: `{"ok": true,
/// "kind": "others"|"refutations"|"none", "checks": <checks to search>}` (`none`: nothing to
/// add, nothing set up: an undecided answer, a defender root, a mate with `lines` 1) or
/// `{"ok": false, "error"}`. Returns 0 or 1 (error).
///
/// # Safety
/// `ptr` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn tsumugi_first_moves(ptr: *const u8, len: usize) -> i32 {
    install_panic_hook();
    // SAFETY: forwarded from the caller.
    let text = unsafe { request(ptr, len) };
    match start_enquiry(&text) {
        Ok(reply) => {
            set_reply(&reply);
            0
        }
        Err(e) => {
            PAGE.with(|s| s.borrow_mut().enquiry = None);
            set_reply(&json!({"ok": false, "error": e}));
            1
        }
    }
}

fn start_enquiry(text: &str) -> Result<Value, String> {
    let req: Value = serde_json::from_str(text).map_err(|e| format!("request is not JSON: {e}"))?;
    let count = |key: &str| -> Result<Option<u64>, String> {
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
    let lines = count("lines")?.unwrap_or(1) as usize;
    let time = count("time_ms")?.map(Duration::from_millis);
    let nodes = count("nodes")?;
    PAGE.with(|s| {
        let mut guard = s.borrow_mut();
        let page = &mut *guard;
        page.enquiry = None;
        let Some(job) = page.job.as_ref() else {
            return Err("no answer: solve a position first".to_string());
        };
        let Some(r) = job.result.as_ref() else {
            return Err("no answer: the search is running or was stopped".to_string());
        };
        let root = job.sliced.position().clone();
        let mut checks = MoveList::new();
        root.check_moves(&mut checks);
        let (kind, moves): (EnquiryKind, Vec<Move>) = match &r.outcome {
            _ if r.defender_root => return Ok(json!({"ok": true, "kind": "none", "checks": 0})),
            Outcome::Mate(best) if lines > 1 && !best.is_empty() => (
                EnquiryKind::Others,
                checks
                    .as_slice()
                    .iter()
                    .copied()
                    .filter(|&m| m != best[0])
                    .collect(),
            ),
            Outcome::NoMate => (EnquiryKind::Refutations, checks.as_slice().to_vec()),
            _ => return Ok(json!({"ok": true, "kind": "none", "checks": 0})),
        };
        let n = moves.len();
        let limits = job.sliced.limits();
        let mut e = Enquiry {
            kind,
            root,
            moves: moves
                .into_iter()
                .map(|mv| FirstMove {
                    mv,
                    verdict: Verdict::Undecided(UnknownReason::Stopped),
                    stats: Stats::default(),
                })
                .collect(),
            tried: vec![false; n],
            open: vec![true; n],
            next: 0,
            base_nodes: job.sliced.nodes(),
            post_search: limits.post_search,
            max_plies: limits.max_plies,
            deadline: time.and_then(|t| Instant::now().checked_add(t)),
            nodes_left: nodes,
            shown: match kind {
                EnquiryKind::Others => lines - 1,
                EnquiryKind::Refutations => n,
            },
            spent: Stats::default(),
            done: None,
        };
        if n == 0 {
            e.finish(None);
        }
        page.enquiry = Some(e);
        Ok(json!({
            "ok": true,
            "kind": if kind == EnquiryKind::Others { "others" } else { "refutations" },
            "checks": n,
        }))
    })
}

/// Searches the enquiry's checks for at most `max_ms` milliseconds (0 or less: until it is
/// over; the request's own limits bound it too), one check at a time, each bounded by what is
/// left of the slice, then returns: 0 while checks are open (reply: progress, the checks
/// decided so far, see `Enquiry::reply`), 1 when it is over (reply: `{"done": true, "kind",
/// "checks", "decided", "moves": [entry_json, best first], "nodes", "time_ms", "reason": why
/// it ended before every check was settled, or null, "heading": {"en", "ja"} for
/// refutations}`), -1 without an enquiry. Calling it again after the end repeats the answer.
/// A search is never cut short inside a slice except by the slice's own bound, so a slice
/// lasts `max_ms` and a little (the search looks at the clock every few hundred nodes).
#[no_mangle]
pub extern "C" fn tsumugi_first_moves_advance(max_ms: f64) -> i32 {
    install_panic_hook();
    PAGE.with(|s| {
        let mut guard = s.borrow_mut();
        let page = &mut *guard;
        let (Some(e), Some(solver)) = (page.enquiry.as_mut(), page.solver.as_mut()) else {
            set_reply(&json!({"error": "no enquiry: call tsumugi_first_moves first"}));
            return -1;
        };
        if let Some(done) = &e.done {
            set_reply(done);
            return 1;
        }
        let slice_end = (max_ms > 0.0)
            .then(|| Instant::now().checked_add(Duration::from_secs_f64(max_ms / 1000.0)))
            .flatten();
        // Nobody can set it while the module runs: the slice's bound ends each search.
        let stop = AtomicBool::new(false);
        loop {
            if let Some(why) = e.spent() {
                set_reply(&e.finish(Some(why)));
                return 1;
            }
            let Some(i) = e.next_open() else {
                set_reply(&e.finish(None));
                return 1;
            };
            let now = Instant::now();
            let end = match (slice_end, e.deadline) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if end.is_some_and(|end| now >= end) {
                set_reply(&e.reply(false));
                return 0;
            }
            let limits = Limits {
                time: end.map(|end| end.saturating_duration_since(now)),
                nodes: e.nodes_left,
                max_plies: e.max_plies,
                info_interval: None,
                post_search: e.post_search,
                root_is_and_if_checked: true,
            };
            let check = [e.moves[i].mv];
            let mut got = match e.kind {
                EnquiryKind::Others => solver.first_moves_among(
                    &e.root,
                    &check,
                    e.base_nodes,
                    &limits,
                    &stop,
                    &mut |_| {},
                ),
                EnquiryKind::Refutations => {
                    solver.refutations_among(&e.root, &check, &limits, &stop)
                }
            };
            let new = got.pop().expect("one check asked about, one answered");
            let cut = end.is_some_and(|end| Instant::now() >= end);
            e.merge(i, new, cut);
        }
    })
}

/// Ends the enquiry: the answer is what is established (checks not settled are undecided,
/// `stopped`; a mate found stays listed with what is proven of it). Returns 1 (reply: the
/// answer, as `tsumugi_first_moves_advance`'s) or -1 without an enquiry.
#[no_mangle]
pub extern "C" fn tsumugi_first_moves_stop() -> i32 {
    install_panic_hook();
    PAGE.with(|s| {
        let mut guard = s.borrow_mut();
        let Some(e) = guard.enquiry.as_mut() else {
            set_reply(&json!({"error": "no enquiry to stop"}));
            return -1;
        };
        if e.done.is_none() {
            e.finish(Some(UnknownReason::Stopped));
        }
        set_reply(e.done.as_ref().expect("set above"));
        1
    })
}
