//! Engine-loop tests with in-memory input and output. Most use `Fake`, a scripted solver, so
//! the protocol (answers, stop, holds, deferrals) is tested independently of the real search.
//! This file is the harness; the tests are in `lifecycle` (commands, positions, options, bad
//! input, failures, shutdown) and `searching` (answers, stop, time, pondering, the real solver).

use super::*;
use crate::mate::{Outcome, Progress, SearchResult, Stats, UnknownReason};
use crate::usi::input::pump;
use crate::usi::options;
use parking_lot::Mutex;
use std::io::Cursor;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;

const HEAD_MATE: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
const MATE3: &str = "7k1/9/6R2/9/9/9/9/9/9 b G 1";

fn mv(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

fn line(moves: &str) -> Vec<Move> {
    moves.split_whitespace().map(mv).collect()
}

/// Output collected in memory, readable while the engine runs.
#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    fn lines(&self) -> Vec<String> {
        String::from_utf8(self.0.lock().clone())
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }
}

/// The table methods of a fake backend that has no table (for `impl Backend` blocks).
macro_rules! no_table {
    () => {
        fn prepare(&mut self, _: usize) {}
        fn clear(&mut self) {}
        fn allocated_mb(&self) -> usize {
            1
        }
        fn discard(&mut self) {}
    };
}

/// A scripted solver: returns `outcome` after `after`, unless stopped or out of time first
/// (then `Unknown` with `best_mate`). Calls `progress` every `info_interval`. Logs its calls.
#[derive(Clone)]
struct Fake {
    outcome: Outcome,
    best_mate: Option<Vec<Move>>,
    after: Duration,
    log: Arc<Mutex<Vec<String>>>,
    allocated: usize,
    /// The most a table can get, as when the memory is short (`Solver::new` halves the size
    /// asked until it can be allocated).
    max_alloc: usize,
    /// What making the table resident comes to; when `Cut`, the table is cut to `cut_to` MB.
    ready: Resident,
    cut_to: usize,
}

impl Fake {
    fn new(outcome: Outcome, after: Duration) -> Fake {
        Fake {
            outcome,
            best_mate: None,
            after,
            log: Arc::default(),
            allocated: 0,
            max_alloc: usize::MAX,
            ready: Resident::Whole,
            cut_to: 0,
        }
    }
    /// Never finishes on its own.
    fn endless() -> Fake {
        Fake::new(Outcome::NoMate, Duration::from_secs(3600))
    }
    fn calls(&self) -> Vec<String> {
        self.log.lock().clone()
    }
}

impl Backend for Fake {
    fn prepare(&mut self, hash_mb: usize) {
        if hash_mb != self.allocated {
            self.log.lock().push(format!("alloc {hash_mb}"));
            self.allocated = hash_mb.min(self.max_alloc);
        }
    }
    fn clear(&mut self) {
        self.log.lock().push("clear".into());
    }
    fn make_resident(&mut self) -> Resident {
        if self.ready == Resident::Cut {
            self.allocated = self.cut_to;
        }
        self.ready
    }
    fn new_game(&mut self) {
        self.log.lock().push("new_game".into());
    }
    fn allocated_mb(&self) -> usize {
        self.allocated
    }
    fn discard(&mut self) {
        self.allocated = 0;
    }
    fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        self.log.lock().push(format!(
            "solve {} time={:?} nodes={:?} post={:?}",
            pos.to_sfen(),
            limits.time,
            limits.nodes,
            limits.post_search
        ));
        let start = Instant::now();
        let mut next_info = limits.info_interval.map(|i| start + i);
        let stats = |start: Instant| Stats {
            nodes: 1000,
            time: start.elapsed(),
            hashfull: 7,
            repetitions: 0,
        };
        loop {
            let unknown = |r: UnknownReason| SearchResult {
                outcome: Outcome::Unknown(r.clone()),
                stats: stats(start),
                best_mate: self.best_mate.clone(),
                status: None,
                defender_root: false,
                interrupted: Some(r),
            };
            if stop.load(Ordering::Relaxed) {
                return unknown(UnknownReason::Stopped);
            }
            if limits.time.is_some_and(|t| start.elapsed() >= t) {
                return unknown(UnknownReason::Time);
            }
            if start.elapsed() >= self.after {
                return SearchResult {
                    outcome: self.outcome.clone(),
                    stats: stats(start),
                    best_mate: None,
                    status: None,
                    defender_root: false,
                    interrupted: None,
                };
            }
            if let (Some(t), Some(i)) = (next_info, limits.info_interval) {
                if Instant::now() >= t {
                    progress(&Progress {
                        stats: stats(start),
                        pv: self.best_mate.clone(),
                        ..Progress::default()
                    });
                    next_info = Some(t + i);
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// A running engine fed line by line.
struct Live {
    tx: Sender<Input>,
    out: SharedBuf,
    seen: usize,
    handle: Option<JoinHandle<ExitCode>>,
}

impl Live {
    /// An engine that has been sent `position startpos` (as GUIs send a position before any
    /// `go`; a `go` without one is undecided, see `go_before_any_position_is_undecided`).
    fn start<B: Backend>(backend: B) -> Live {
        let e = Live::bare(backend);
        e.send("position startpos");
        e
    }

    /// An engine that has been sent nothing.
    fn bare<B: Backend>(backend: B) -> Live {
        let (tx, rx) = bounded(INPUT_QUEUE);
        let out = SharedBuf::default();
        let o = out.clone();
        let handle = std::thread::spawn(move || run_channel(rx, o, backend));
        Live {
            tx,
            out,
            seen: 0,
            handle: Some(handle),
        }
    }

    fn send(&self, l: &str) {
        self.tx.send(Input::Line(l.to_string())).unwrap();
    }

    /// Lines up to and including the first new one starting with `prefix`.
    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let end = Instant::now() + timeout;
        loop {
            let lines = self.out.lines();
            if let Some(i) = lines[self.seen..]
                .iter()
                .position(|l| l.starts_with(prefix))
            {
                let got = lines[self.seen..=self.seen + i].to_vec();
                self.seen += i + 1;
                return got;
            }
            assert!(
                Instant::now() < end,
                "no '{prefix}' within {timeout:?}; output: {lines:#?}"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// After a `go` line, waits for its answer (`checkmate` or `bestmove`).
    fn wait_answer_if_go(&mut self, l: &str) {
        let mut words = l.split_ascii_whitespace();
        if words.next() == Some("go") {
            let prefix = if words.any(|w| w == "mate") {
                "checkmate"
            } else {
                "bestmove"
            };
            self.wait_for(prefix, Duration::from_secs(5));
        }
    }

    /// Feeds raw bytes through the real line reader (without its end-of-input marker).
    fn feed_bytes(&self, bytes: Vec<u8>) {
        let (tx, rx) = unbounded();
        pump(Cursor::new(bytes), &tx);
        for i in rx.try_iter().filter(|i| *i != Input::Eof) {
            self.tx.send(i).unwrap();
        }
    }

    /// New lines so far, without waiting.
    fn take(&mut self) -> Vec<String> {
        let lines = self.out.lines();
        let got = lines[self.seen..].to_vec();
        self.seen = lines.len();
        got
    }

    /// Ends input and waits for the loop to return.
    fn finish(mut self, via_quit: bool) -> (Vec<String>, Duration) {
        let t = Instant::now();
        if via_quit {
            self.send("quit");
        } else {
            self.tx.send(Input::Eof).unwrap();
        }
        let code = self.handle.take().unwrap().join().unwrap();
        assert_eq!(code, ExitCode::SUCCESS);
        let elapsed = t.elapsed();
        (self.take(), elapsed)
    }
}

/// Runs a session line by line; after each `go` waits for its answer, then ends the input
/// (end of input = quit). Returns all output lines.
fn session<B: Backend>(backend: B, lines: &[&str]) -> Vec<String> {
    let mut e = Live::start(backend);
    for l in lines {
        e.send(l);
        e.wait_answer_if_go(l);
    }
    let out = e.out.clone();
    e.finish(false);
    out.lines()
}

fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

const SECOND: Duration = Duration::from_secs(1);
/// "At once" for these tests, generous for a loaded machine (the engine tests in Python measure
/// the real stop latency).
const PROMPT: Duration = Duration::from_millis(250);

mod lifecycle;
mod searching;
