//! The USI engine: the protocol loop (one thread), the search thread, and the state they share.
//!
//! Threads and what they own:
//! * the *reader* (see [`super::input`]) turns input bytes into [`Input`]s on a bounded channel;
//! * the *protocol loop* (`run_channel`) owns the options, the current position and the
//!   deadline of the running search; it never waits for a search, so `isready`, `stop` and
//!   `quit` are handled at once, whatever the search is doing;
//! * the *search thread* (created once, with [`SEARCH_STACK_BYTES`] of stack) receives jobs over
//!   a channel, runs the solver, and writes the `info` lines and the final answer itself.
//!
//! Shared state (`Shared`): the output writer together with the "is a search active" record
//! behind one lock (so a `go` that arrives right after a `checkmate` line always finds the engine
//! idle: the record is cleared in the same critical section that writes the answer), the solver
//! behind another lock (held by the search thread while it searches; the protocol loop touches it
//! only when no search is active), and the atomic stop flag polled by the solver.

use super::command::{self, Command, Go, MateTime, PositionBase, PositionSpec};
use super::input::{Input, MAX_LINE_BYTES};
use super::options::Options;
use crate::mate::{
    Limits, Outcome, PostSearch, Progress, SearchResult, Solver, Stats, UnknownReason,
    SEARCH_STACK_BYTES,
};
use crate::shogi::{Color, Move, Position};
use crossbeam_channel::{bounded, unbounded, Receiver, RecvTimeoutError, Sender};
use parking_lot::Mutex;
use std::borrow::Cow;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `id name` of the engine.
pub const ENGINE_NAME: &str = concat!("tsumugi ", env!("CARGO_PKG_VERSION"));
/// `id author` of the engine.
pub const ENGINE_AUTHOR: &str = "the tsumugi authors";

/// How long `quit` (or end of input) waits for a running search to stop before exiting anyway.
const QUIT_WAIT: Duration = Duration::from_millis(800);
/// Time after a timed `go mate` limit at which the loop raises the stop flag itself, in case
/// the solver overran its own time limit.
const MATE_BACKSTOP: Duration = Duration::from_millis(1000);
/// The same for a timed plain `go` (a game clock is less forgiving).
const MOVE_BACKSTOP: Duration = Duration::from_millis(200);
/// Time of a plain `go` that gives no clock information at all.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(3);
/// Times above this (30 days) are treated as no limit, so no deadline arithmetic overflows.
const MAX_TIME_MS: u64 = 30 * 24 * 3600 * 1000;
/// Longest `info string` text, in characters (messages may quote user input).
const INFO_STRING_MAX: usize = 400;
/// Why a `go` before any `position` is not searched.
const NO_POSITION: &str =
    "no position was given (send 'position startpos' or 'position sfen <SFEN>' first)";

/// What the engine needs from a mate solver. [`LazySolver`] is the real one; tests use fakes.
pub trait Backend: Send + 'static {
    /// Makes sure a table of `hash_mb` MB exists (allocating or resizing it).
    fn prepare(&mut self, hash_mb: usize);
    /// Empties the table (if any).
    fn clear(&mut self);
    /// Size of the allocated table in MB (0 if none).
    fn allocated_mb(&self) -> usize;
    /// Drops the table (after a failed search, whose table may be inconsistent).
    fn discard(&mut self);
    /// Runs one search; `prepare` has been called before.
    fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult;
}

/// The real solver, allocated at the first `isready` (or `go`), not at start-up, so `usi` is
/// answered at once.
#[derive(Default)]
pub struct LazySolver(Option<Solver>);

impl Backend for LazySolver {
    fn prepare(&mut self, hash_mb: usize) {
        match &mut self.0 {
            Some(s) => s.resize(hash_mb),
            None => self.0 = Some(Solver::new(hash_mb)),
        }
    }

    fn clear(&mut self) {
        if let Some(s) = &mut self.0 {
            s.clear();
        }
    }

    fn allocated_mb(&self) -> usize {
        self.0.as_ref().map_or(0, |s| s.hash_mb())
    }

    fn discard(&mut self) {
        self.0 = None;
    }

    fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        self.0
            .get_or_insert_with(|| Solver::new(super::options::HASH_DEFAULT_MB))
            .solve(pos, limits, stop, progress)
    }
}

/// Which answer a search owes: `checkmate ...` (`go mate`) or `bestmove ...` (plain `go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobKind {
    Mate,
    Move,
}

/// The search that is running, or finished but still holding its answer.
#[derive(Debug)]
struct Active {
    /// `go ponder` / `go infinite`: the answer waits for `stop` or `ponderhit`.
    hold: bool,
    /// The answer of a finished search whose answer is held.
    pending: Option<String>,
}

/// The output and the search record, behind one lock.
struct Io<W> {
    out: W,
    active: Option<Active>,
    write_failed: bool,
}

impl<W: Write> Io<W> {
    /// Writes one line (ASCII only, see [`sanitize`]) and flushes it.
    fn line(&mut self, text: &str) {
        let text = sanitize(text);
        log::debug!("> {text}");
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        let r = self.out.write_all(&bytes).and_then(|_| self.out.flush());
        if let Err(e) = r {
            if !self.write_failed {
                log::warn!("cannot write to the output: {e}");
                self.write_failed = true;
            }
        }
    }

    fn info_string(&mut self, text: &str) {
        let text = clip(text, INFO_STRING_MAX);
        self.line(&format!("info string {text}"));
    }
}

struct Shared<B, W> {
    io: Mutex<Io<W>>,
    backend: Mutex<B>,
    stop: AtomicBool,
}

struct Job {
    kind: JobKind,
    pos: Position,
    limits: Limits,
    hash_mb: usize,
    clear: bool,
}

enum ToSearch {
    Job(Box<Job>),
    Quit,
}

/// Makes a line safe for any client: printable ASCII is kept, everything else (control
/// characters, a stray `\r`, non-ASCII) is escaped, so a line can neither be split in two nor
/// trip a client that decodes the output as ASCII or Shift_JIS.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if (' '..='~').contains(&c) {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    Cow::Owned(out)
}

fn clip(s: &str, max: usize) -> Cow<'_, str> {
    if s.chars().count() <= max {
        Cow::Borrowed(s)
    } else {
        let head: String = s.chars().take(max).collect();
        Cow::Owned(format!("{head}..."))
    }
}

/// Builds the position of a `position` command: parses the SFEN, then plays the moves, each
/// checked for syntax and legality. The error names the fault (move number and text, and the
/// position the move was tried in).
pub fn build_position(spec: &PositionSpec) -> Result<Position, String> {
    let mut pos = match &spec.base {
        PositionBase::Startpos => Position::startpos(),
        PositionBase::Sfen(s) => Position::from_sfen(s)
            .map_err(|e| format!("position: bad SFEN '{}': {e}", clip(s, 120)))?,
    };
    for (i, text) in spec.moves.iter().enumerate() {
        let n = i + 1;
        let Some(m) = Move::from_usi(text) else {
            return Err(format!(
                "position: move {n} '{}' is not a USI move (like 7g7f, 8h2b+, P*5e)",
                command::quote(text)
            ));
        };
        if !pos.is_legal(m) {
            return Err(format!(
                "position: move {n} '{text}' is illegal in {}",
                pos.to_sfen()
            ));
        }
        pos.do_move(m);
    }
    Ok(pos)
}

fn info_line(stats: &Stats, pv: Option<&[Move]>) -> String {
    let mut s = format!(
        "info time {} nodes {} nps {} hashfull {}",
        stats.time.as_millis(),
        stats.nodes,
        stats.nps(),
        stats.hashfull
    );
    if let Some(pv) = pv.filter(|pv| !pv.is_empty()) {
        s.push_str(" pv");
        for m in pv {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

enum Answer {
    Mate(Vec<Move>),
    NoMate,
    Unknown,
}

fn answer_text(kind: JobKind, a: &Answer) -> String {
    match (kind, a) {
        (JobKind::Mate, Answer::Mate(line)) => super::checkmate_line(line),
        (JobKind::Mate, Answer::NoMate) => "checkmate nomate".into(),
        (JobKind::Mate, Answer::Unknown) => "checkmate timeout".into(),
        // A defender-to-move root's line starts with the mover's own best defence.
        (JobKind::Move, Answer::Mate(line)) if !line.is_empty() => format!("bestmove {}", line[0]),
        (JobKind::Move, _) => "bestmove resign".into(),
    }
}

/// Turns a search result into notes (`info string`), the final `info` line and the answer.
fn report(job: &Job, res: Result<SearchResult, String>) -> (Vec<String>, String, String) {
    let mut notes = Vec::new();
    let r = match res {
        Ok(r) => r,
        Err(e) => {
            notes.push(format!("error: the search failed: {e}"));
            let info = info_line(&Stats::default(), None);
            return (notes, info, answer_text(job.kind, &Answer::Unknown));
        }
    };
    if r.defender_root {
        let why = if job.pos.king_square(job.pos.side_to_move().flip()).is_none() {
            "its opponent has no king"
        } else {
            "it is in check and cannot mate; RootIsAndNodeIfChecked"
        };
        notes.push(format!(
            "the side to move is the one being mated ({why}): searched as the defender; the \
             line starts with its move"
        ));
    }
    // The mate layer replays and verifies every line it returns (`Outcome::Mate` and
    // `best_mate` alike), so the lines are printed as they come.
    let best = |notes: &mut Vec<String>| -> Option<Vec<Move>> {
        let line = r.best_mate.clone()?;
        notes.push("mate found before the search ended (maybe not the shortest)".into());
        Some(line)
    };
    let answer = match &r.outcome {
        Outcome::Mate(line) => {
            if let Some(st) = &r.status {
                // What is established (minimal or a bound; defences longest or not).
                notes.push(st.describe());
            }
            if line.is_empty() {
                notes.push("the side to move is checkmated already (mate in 0)".into());
            }
            Answer::Mate(line.clone())
        }
        Outcome::NoMate => Answer::NoMate,
        Outcome::Unknown(reason) => {
            match reason {
                UnknownReason::Stopped | UnknownReason::Time => {}
                UnknownReason::Unverified(_) => notes.push(format!("error: {reason}")),
                UnknownReason::Nodes | UnknownReason::Depth => notes.push(reason.to_string()),
            }
            best(&mut notes).map_or(Answer::Unknown, Answer::Mate)
        }
    };
    let pv = match &answer {
        Answer::Mate(l) => Some(l.as_slice()),
        _ => None,
    };
    let info = info_line(&r.stats, pv);
    (notes, info, answer_text(job.kind, &answer))
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}

fn run_job<B: Backend, W: Write + Send + 'static>(
    shared: &Shared<B, W>,
    job: &Job,
) -> Result<SearchResult, String> {
    let mut backend = shared.backend.lock();
    let mut progress = |p: &Progress| {
        let line = info_line(&p.stats, p.pv.as_deref());
        shared.io.lock().line(&line);
    };
    let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
        backend.prepare(job.hash_mb);
        if job.clear {
            backend.clear();
        }
        backend.solve(&job.pos, &job.limits, &shared.stop, &mut progress)
    }));
    r.map_err(|p| {
        let msg = panic_text(&*p);
        log::error!("search panicked: {msg}");
        backend.discard();
        msg
    })
}

fn search_loop<B: Backend, W: Write + Send + 'static>(
    shared: Arc<Shared<B, W>>,
    jobs: Receiver<ToSearch>,
) {
    while let Ok(ToSearch::Job(job)) = jobs.recv() {
        let res = run_job(&shared, &job);
        let (notes, info, answer) = report(&job, res);
        let mut io = shared.io.lock();
        for n in &notes {
            io.info_string(n);
        }
        io.line(&info);
        match io.active.as_mut() {
            Some(a) if a.hold => a.pending = Some(answer),
            _ => {
                io.active = None;
                io.line(&answer);
            }
        }
    }
    log::debug!("search thread exits");
}

fn spawn_search<B: Backend, W: Write + Send + 'static>(
    shared: &Arc<Shared<B, W>>,
    jobs: &Receiver<ToSearch>,
    exited: &Sender<()>,
) -> std::io::Result<()> {
    let mut last_err = None;
    // The full stack first; a smaller one if the system refuses to reserve it.
    for stack in [SEARCH_STACK_BYTES, 64 << 20] {
        let (shared, jobs, exited) = (shared.clone(), jobs.clone(), exited.clone());
        let r = std::thread::Builder::new()
            .name("usi-search".into())
            .stack_size(stack)
            .spawn(move || {
                // Dropped when the thread ends: the loop sees the channel disconnect.
                let _exited = exited;
                search_loop(shared, jobs)
            });
        match r {
            Ok(_) => return Ok(()),
            Err(e) => {
                log::warn!("cannot start a search thread with {stack} bytes of stack: {e}");
                last_err = Some(e);
            }
        }
    }
    Err(last_err.expect("tried at least once"))
}

/// Available memory in MB (Linux `MemAvailable`), to keep `USI_Hash` from exhausting it.
fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Time limit of a search from a millisecond count (`None`: no limit).
fn ms_limit(ms: u64) -> Option<Duration> {
    (ms <= MAX_TIME_MS).then(|| Duration::from_millis(ms))
}

/// Thinking time of a plain `go` (`None`: until `stop`). From `movetime`, else from the clock
/// of the side to move: a twentieth of the remaining time plus increment and byoyomi, less a
/// safety margin; 3 s when no clock is given.
fn move_budget(go: &Go, side: Color) -> Option<Duration> {
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

/// The protocol loop's state.
struct Engine<B, W> {
    shared: Arc<Shared<B, W>>,
    jobs: Sender<ToSearch>,
    search_exited: Receiver<()>,
    options: Options,
    position: Result<Position, String>,
    /// `usinewgame` arrived during a search: clear the table before the next one.
    clear_pending: bool,
    /// (requested, granted) hash size of the last allocation, when memory forced it smaller.
    hash_capped: Option<(usize, usize)>,
    /// When to raise the stop flag (time limit backstop, or the budget after `ponderhit`).
    deadline: Option<Instant>,
    /// The `go ponder` being pondered and the side to move, for the budget at `ponderhit`.
    ponder: Option<(Go, Color)>,
}

impl<B: Backend, W: Write + Send + 'static> Engine<B, W> {
    fn io(&self) -> parking_lot::MutexGuard<'_, Io<W>> {
        self.shared.io.lock()
    }

    fn info(&self, text: &str) {
        self.io().info_string(text);
    }

    fn is_active(&self) -> bool {
        self.io().active.is_some()
    }

    /// Handles one input; `false` means quit.
    fn handle(&mut self, input: Input) -> bool {
        match input {
            Input::Eof => {
                log::info!("end of input: quitting");
                false
            }
            Input::TooLong(n, word) => {
                self.info(&format!(
                    "error: ignored a line of {n} bytes (the limit is {MAX_LINE_BYTES})"
                ));
                if word == "position" {
                    // Like any bad `position`: the old position must not stay in force.
                    let e = format!("position: the line of {n} bytes was too long and dropped");
                    self.info(&format!("error: {e}"));
                    self.position = Err(e);
                }
                true
            }
            Input::Line(line) => {
                log::debug!("< {}", clip(&line, 200));
                let parsed = command::parse(&line);
                for n in &parsed.notes {
                    self.info(n);
                }
                self.command(parsed.command)
            }
        }
    }

    fn command(&mut self, c: Command) -> bool {
        match c {
            Command::Empty => {}
            Command::Usi => {
                let mut io = self.io();
                io.line(&format!("id name {ENGINE_NAME}"));
                io.line(&format!("id author {ENGINE_AUTHOR}"));
                for l in Options::declarations() {
                    io.line(&l);
                }
                io.line("usiok");
            }
            Command::IsReady => self.isready(),
            Command::SetOption(Ok(s)) => match self.options.set(&s.name, s.value.as_deref()) {
                Ok(which) => {
                    if self.is_active() {
                        self.info(&format!(
                            "setoption {}: takes effect from the next search",
                            which.name()
                        ));
                    }
                }
                Err(e) => self.info(&format!("error: {e}")),
            },
            Command::SetOption(Err(e)) => self.info(&format!("error: {e}")),
            Command::UsiNewGame => {
                if self.is_active() {
                    self.clear_pending = true;
                } else {
                    self.shared.backend.lock().clear();
                    self.clear_pending = false;
                }
            }
            Command::Position(spec) => {
                self.position = spec.and_then(|s| build_position(&s));
                if let Err(e) = &self.position {
                    self.info(&format!("error: {e}"));
                }
            }
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::GameOver(_) => {
                if self.is_active() {
                    self.stop();
                }
            }
            Command::Quit => return false,
            Command::Unknown(w) => {
                self.info(&format!("unknown command '{}' ignored", command::quote(&w)))
            }
        }
        true
    }

    /// The hash size to allocate now, reduced (with a note) if memory is short. Only called
    /// while no search is active.
    fn hash_mb_to_use(&mut self) -> usize {
        let want = self.options.hash_mb;
        if let Some((w, granted)) = self.hash_capped {
            if w == want {
                return granted;
            }
        }
        self.hash_capped = None;
        let have = self.shared.backend.lock().allocated_mb();
        if want == have {
            return want;
        }
        let Some(avail) = available_memory_mb() else {
            return want;
        };
        let limit = ((avail + have) * 3 / 4).max(1);
        if want <= limit {
            return want;
        }
        self.info(&format!(
            "USI_Hash {want} MB is more than the available memory allows; using {limit} MB"
        ));
        self.hash_capped = Some((want, limit));
        limit
    }

    fn isready(&mut self) {
        if self.is_active() {
            log::debug!("isready during a search: table changes wait for the next search");
        } else {
            let mb = self.hash_mb_to_use();
            let mut b = self.shared.backend.lock();
            b.prepare(mb);
            if std::mem::take(&mut self.clear_pending) {
                b.clear();
            }
        }
        self.io().line("readyok");
    }

    /// Answers a `go` at once, without searching.
    fn answer_now(&self, kind: JobKind, a: Answer) {
        self.io().line(&answer_text(kind, &a));
    }

    fn go(&mut self, go: Go) {
        let kind = if go.mate.is_some() {
            JobKind::Mate
        } else {
            JobKind::Move
        };
        if self.is_active() {
            self.info("error: go ignored: a search is already running (send stop first)");
            return;
        }
        // A bad time is reported before a missing position: the command itself is wrong.
        // `None`: a plain `go`, whose time comes from the clock of the side to move.
        let mate_time = match &go.mate {
            Some(MateTime::Invalid(t)) => {
                self.info(&format!(
                    "error: go mate: bad time '{t}' (expected milliseconds or 'infinite')"
                ));
                self.answer_now(kind, Answer::Unknown);
                return;
            }
            Some(MateTime::Millis(ms)) => Some((ms_limit(*ms), false, MATE_BACKSTOP)),
            Some(MateTime::Infinite) => Some((None, false, MATE_BACKSTOP)),
            None => None,
        };
        let pos = match &self.position {
            Ok(p) => p.clone(),
            Err(e) => {
                // Nothing was searched, so nothing is known: "undecided", never "nomate".
                self.info(&format!("error: go: no valid position ({e})"));
                self.answer_now(kind, Answer::Unknown);
                return;
            }
        };
        let (time, hold, backstop) = mate_time.unwrap_or_else(|| {
            let t = move_budget(&go, pos.side_to_move());
            (t, t.is_none(), MOVE_BACKSTOP)
        });
        let o = &self.options;
        let limits = Limits {
            time,
            nodes: go.nodes.or((o.nodes_limit > 0).then_some(o.nodes_limit)),
            max_plies: None,
            info_interval: (o.pv_interval_ms > 0).then(|| Duration::from_millis(o.pv_interval_ms)),
            post_search: match kind {
                JobKind::Mate => o.post_search,
                // In a game any mate wins; the first move is all that is printed.
                JobKind::Move => PostSearch::None,
            },
            // In a game the engine plays for the side to move: only its own mate counts.
            root_is_and_if_checked: kind == JobKind::Mate && o.root_is_and_if_checked,
        };
        let job = Job {
            kind,
            hash_mb: self.hash_mb_to_use(),
            clear: std::mem::take(&mut self.clear_pending),
            pos,
            limits,
        };
        self.ponder = go.ponder.then(|| (go.clone(), job.pos.side_to_move()));
        self.shared.stop.store(false, Ordering::SeqCst);
        self.io().active = Some(Active {
            hold,
            pending: None,
        });
        self.deadline = time.and_then(|t| Instant::now().checked_add(t + backstop));
        if self.jobs.send(ToSearch::Job(Box::new(job))).is_err() {
            let mut io = self.io();
            io.active = None;
            io.info_string("error: the search thread has stopped");
            io.line(&answer_text(kind, &Answer::Unknown));
        }
    }

    fn stop(&mut self) {
        self.deadline = None;
        let mut io = self.io();
        match io.active.as_mut() {
            None => log::debug!("stop ignored: no search is running"),
            Some(a) => match a.pending.take() {
                Some(answer) => {
                    io.active = None;
                    io.line(&answer);
                }
                None => {
                    a.hold = false;
                    self.shared.stop.store(true, Ordering::SeqCst);
                }
            },
        }
    }

    fn ponderhit(&mut self) {
        let shared = self.shared.clone();
        let mut io = shared.io.lock();
        let Some(a) = io.active.as_mut().filter(|a| a.hold) else {
            drop(io);
            self.info("ponderhit ignored: not pondering");
            return;
        };
        let Some((go, side)) = self.ponder.take() else {
            drop(io);
            self.info("ponderhit ignored: the search is 'go infinite', not 'go ponder'");
            return;
        };
        a.hold = false;
        if let Some(answer) = a.pending.take() {
            io.active = None;
            io.line(&answer);
            return;
        }
        drop(io);
        let go = Go {
            ponder: false,
            ..go
        };
        self.deadline = move_budget(&go, side).and_then(|t| Instant::now().checked_add(t));
    }

    /// The deadline passed: raise the stop flag if that search is still running.
    fn on_deadline(&mut self) {
        self.deadline = None;
        let io = self.io();
        if io.active.as_ref().is_some_and(|a| a.pending.is_none()) {
            log::debug!("deadline reached: stopping the search");
            self.shared.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Stops a running search (its answer is still written) and waits briefly for the search
    /// thread to end.
    fn shutdown(&mut self) {
        if let Some(a) = self.io().active.as_mut() {
            a.hold = false;
        }
        self.shared.stop.store(true, Ordering::SeqCst);
        let _ = self.jobs.send(ToSearch::Quit);
        match self.search_exited.recv_timeout(QUIT_WAIT) {
            Err(RecvTimeoutError::Disconnected) => {}
            _ => log::warn!("the search did not stop within {QUIT_WAIT:?}; exiting anyway"),
        }
    }
}

/// Runs the engine on lines from `input` (see [`super::input::pump`]), writing to `out`, with
/// the given solver. Returns when `quit` or end of input arrives.
pub(crate) fn run_channel<B: Backend, W: Write + Send + 'static>(
    input: Receiver<Input>,
    out: W,
    backend: B,
) -> ExitCode {
    let shared = Arc::new(Shared {
        io: Mutex::new(Io {
            out,
            active: None,
            write_failed: false,
        }),
        backend: Mutex::new(backend),
        stop: AtomicBool::new(false),
    });
    let (jobs_tx, jobs_rx) = unbounded();
    let (exited_tx, exited_rx) = bounded::<()>(0);
    if let Err(e) = spawn_search(&shared, &jobs_rx, &exited_tx) {
        log::error!("cannot start the search thread: {e}");
        shared
            .io
            .lock()
            .info_string(&format!("error: cannot start the search thread: {e}"));
        return ExitCode::FAILURE;
    }
    drop((jobs_rx, exited_tx));
    let mut engine = Engine {
        shared,
        jobs: jobs_tx,
        search_exited: exited_rx,
        options: Options::default(),
        position: Err(NO_POSITION.to_string()),
        clear_pending: false,
        hash_capped: None,
        deadline: None,
        ponder: None,
    };
    loop {
        let msg = match engine.deadline {
            Some(d) => match input.recv_deadline(d) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => {
                    engine.on_deadline();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => Input::Eof,
            },
            None => input.recv().unwrap_or(Input::Eof),
        };
        if !engine.handle(msg) {
            break;
        }
    }
    engine.shutdown();
    ExitCode::SUCCESS
}

/// Capacity of the input channel: a client flooding the engine is slowed down (the reader
/// blocks) instead of filling memory.
const INPUT_QUEUE: usize = 256;

/// Runs the engine reading `input` on a reader thread and writing to `output`.
pub fn run<R, W>(input: R, output: W) -> ExitCode
where
    R: std::io::BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = bounded(INPUT_QUEUE);
    let reader = std::thread::Builder::new()
        .name("usi-input".into())
        .spawn(move || super::input::pump(input, &tx));
    if let Err(e) = reader {
        log::error!("cannot start the input thread: {e}");
        return ExitCode::FAILURE;
    }
    run_channel(rx, output, LazySolver::default())
}

#[cfg(test)]
mod tests;
