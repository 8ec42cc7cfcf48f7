//! The USI engine: the protocol state machine. One thread (the *protocol loop*, `run_channel`)
//! reads [`Input`]s, answers each command, starts and stops searches, and keeps their deadlines.
//!
//! Threads and what they own:
//! * the *reader* (see [`super::input`]) turns input bytes into [`Input`]s on a bounded channel;
//! * the *protocol loop* owns the options, the current position and the deadline of the running
//!   search; it never waits for a search, so `isready`, `stop` and `quit` are handled at once,
//!   whatever the search is doing;
//! * the *search thread* ([`super::search_thread`], started once) receives jobs over a channel,
//!   runs the solver, and writes the `info` lines and the final answer itself.
//!
//! What the two share is `search_thread::Shared`; how long a search may run is
//! [`super::clock`]'s business, and what is written in reply is [`super::reply`]'s.

use super::clock::{move_budget, ms_limit, MATE_BACKSTOP, MOVE_BACKSTOP};
use super::command::{self, Command, Go, MateTime, PositionBase, PositionSpec};
use super::input::{Input, MAX_LINE_BYTES};
use super::options::Options;
use super::output::{clip, Active, Io};
use super::reply::{answer_text, Answer, JobKind};
use super::search_thread::{self, Backend, Job, LazySolver, Shared, ToSearch};
use crate::mate::clock::Instant;
use crate::mate::{Limits, PostSearch, Resident};
use crate::shogi::{Color, Move, Position};
use crossbeam_channel::{bounded, unbounded, Receiver, RecvTimeoutError, Sender};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// `id name` of the engine.
pub const ENGINE_NAME: &str = concat!("tsumugi ", env!("CARGO_PKG_VERSION"));
/// `id author` of the engine.
pub const ENGINE_AUTHOR: &str = "the tsumugi authors";

/// How long `quit` (or end of input) waits for a running search to stop before exiting anyway.
const QUIT_WAIT: Duration = Duration::from_millis(800);
/// Why a `go` before any `position` is not searched.
const NO_POSITION: &str =
    "no position was given (send 'position startpos' or 'position sfen <SFEN>' first)";

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

/// What runs the searches the protocol loop starts: the search thread natively
/// ([`ThreadRunner`]), or slices driven by the host's `poll()` in WebAssembly
/// (`super::cooperative`).
pub(super) trait Runner {
    /// Hands a search over; `Err` gives it back when it cannot be run (the loop then answers
    /// at once, undecided).
    fn start(&mut self, job: Box<Job>) -> Result<(), Box<Job>>;
    /// The engine is quitting, the stop flag raised: end the searches.
    fn shutdown(&mut self);
}

/// The native runner: jobs go to the search thread (`search_thread::spawn`).
pub(super) struct ThreadRunner {
    jobs: Sender<ToSearch>,
    search_exited: Receiver<()>,
}

impl Runner for ThreadRunner {
    fn start(&mut self, job: Box<Job>) -> Result<(), Box<Job>> {
        self.jobs.send(ToSearch::Job(job)).map_err(|e| match e.0 {
            ToSearch::Job(j) => j,
            ToSearch::Quit => unreachable!("a job was sent"),
        })
    }

    /// Tells the search thread to end and waits briefly for it.
    fn shutdown(&mut self) {
        let _ = self.jobs.send(ToSearch::Quit);
        match self.search_exited.recv_timeout(QUIT_WAIT) {
            Err(RecvTimeoutError::Disconnected) => {}
            _ => log::warn!("the search did not stop within {QUIT_WAIT:?}; exiting anyway"),
        }
    }
}

/// The protocol loop's state.
pub(super) struct Engine<B, W, R> {
    pub(super) shared: Arc<Shared<B, W>>,
    pub(super) runner: R,
    options: Options,
    position: Result<Position, String>,
    /// `usinewgame` arrived during a search: clear the table before the next one.
    clear_pending: bool,
    /// (requested, granted) hash size of the last allocation, when memory forced it smaller.
    hash_capped: Option<(usize, usize)>,
    /// When to raise the stop flag (time limit backstop, or the budget after `ponderhit`).
    pub(super) deadline: Option<Instant>,
    /// The `go ponder` being pondered and the side to move, for the budget at `ponderhit`.
    ponder: Option<(Go, Color)>,
}

impl<B: Backend, W: Write + Send + 'static, R: Runner> Engine<B, W, R> {
    /// An idle engine with default options and no position, writing through `shared` and
    /// starting searches with `runner`.
    pub(super) fn new(shared: Arc<Shared<B, W>>, runner: R) -> Self {
        Engine {
            shared,
            runner,
            options: Options::default(),
            position: Err(NO_POSITION.to_string()),
            clear_pending: false,
            hash_capped: None,
            deadline: None,
            ponder: None,
        }
    }

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
    pub(super) fn handle(&mut self, input: Input) -> bool {
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
                    self.shared.backend.lock().new_game();
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
        let Some(limit) = crate::mate::hash_limit_mb(have) else {
            return want;
        };
        if want <= limit {
            return want;
        }
        // The machine's memory or a cgroup's limit (a container's): the line names which.
        let why = crate::system::limit_reason(crate::system::memory_room().as_ref());
        self.info(&format!(
            "USI_Hash {want} MB is more than {why}; using {limit} MB"
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
            let note = search_thread::prepare_table(&mut *b, mb);
            b.set_threads(self.options.threads as usize);
            if std::mem::take(&mut self.clear_pending) {
                b.new_game();
            }
            // Page faults belong here, where the GUI waits, not in the search's time: the
            // table is touched once now, and stays resident until it is resized. Its memory
            // is then held: if another process took it meanwhile, the table is cut instead.
            let allocated = b.allocated_mb();
            let resident = b.make_resident();
            let got = b.allocated_mb();
            drop(b);
            if got < mb {
                // Less could be had than asked: keep it until USI_Hash changes, rather than
                // fail again at every `isready` and `go`.
                self.hash_capped = Some((self.options.hash_mb, got));
            }
            if let Some(n) = note {
                self.info(&n);
            }
            match resident {
                Resident::Whole => {}
                Resident::Cut => self.info(&format!(
                    "USI_Hash: memory ran short while the table was made ready (another \
                     process is taking it); using {got} MB of {allocated}"
                )),
                Resident::NotHeld => self.info(&format!(
                    "USI_Hash: memory ran short while the table was made ready (another \
                     process is taking it) and the table could not be cut: it keeps {got} MB \
                     but its memory is not held"
                )),
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
            // `go mate 0` is no limit, as 0 is everywhere (NodesLimit 0, the command line's
            // --time-ms 0): a search stopped before it starts answers nothing.
            Some(MateTime::Millis(0)) => Some((None, false, MATE_BACKSTOP)),
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
            // `go nodes 0`, like NodesLimit 0, is no limit.
            nodes: go
                .nodes
                .filter(|&n| n > 0)
                .or((o.nodes_limit > 0).then_some(o.nodes_limit)),
            // A plain `go` plays a game: any mate wins, however long.
            max_plies: (kind == JobKind::Mate && o.max_plies > 0).then_some(o.max_plies),
            info_interval: (o.pv_interval_ms > 0).then(|| Duration::from_millis(o.pv_interval_ms)),
            post_search: match kind {
                JobKind::Mate => o.post_search,
                // In a game any mate wins; the first move is all that is printed.
                JobKind::Move => PostSearch::None,
            },
            // In a game the engine plays for the side to move: only its own mate counts.
            root_is_and_if_checked: kind == JobKind::Mate && o.root_is_and_if_checked,
        };
        if std::mem::take(&mut self.clear_pending) {
            // No search is active, so the search thread does not hold the backend; a new
            // game costs nothing (see `mate::Solver::new_game`), so it is done here rather
            // than as the job's full clear.
            self.shared.backend.lock().new_game();
        }
        let job = Job {
            kind,
            hash_mb: self.hash_mb_to_use(),
            threads: self.options.threads as usize,
            multipv: self.options.multipv as usize,
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
        if self.runner.start(Box::new(job)).is_err() {
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
    pub(super) fn on_deadline(&mut self) {
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
        self.runner.shutdown();
    }
}

/// Runs the engine on lines from `input` (see [`super::input::pump`]), writing to `out`, with
/// the given solver. Returns when `quit` or end of input arrives.
pub(crate) fn run_channel<B: Backend, W: Write + Send + 'static>(
    input: Receiver<Input>,
    out: W,
    backend: B,
) -> ExitCode {
    let shared = Arc::new(Shared::new(out, backend));
    let (jobs_tx, jobs_rx) = unbounded();
    let (exited_tx, exited_rx) = bounded::<()>(0);
    if let Err(e) = search_thread::spawn(shared.clone(), jobs_rx, exited_tx) {
        log::error!("cannot start the search thread: {e}");
        shared
            .io
            .lock()
            .info_string(&format!("error: cannot start the search thread: {e}"));
        return ExitCode::FAILURE;
    }
    let runner = ThreadRunner {
        jobs: jobs_tx,
        search_exited: exited_rx,
    };
    let mut engine = Engine::new(shared, runner);
    loop {
        let msg = match engine.deadline {
            Some(d) => match input.recv_timeout(d.saturating_duration_since(Instant::now())) {
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
