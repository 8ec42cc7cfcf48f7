//! Engine-loop tests with in-memory input and output. Most use `Fake`, a scripted solver, so
//! the protocol (answers, stop, holds, deferrals) is tested independently of the real search.

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

/// A scripted solver: returns `outcome` after `after`, unless stopped or out of time first
/// (then `Unknown` with `best_mate`). Calls `progress` every `info_interval`. Logs its calls.
#[derive(Clone)]
struct Fake {
    outcome: Outcome,
    best_mate: Option<Vec<Move>>,
    after: Duration,
    log: Arc<Mutex<Vec<String>>>,
    allocated: usize,
}

impl Fake {
    fn new(outcome: Outcome, after: Duration) -> Fake {
        Fake {
            outcome,
            best_mate: None,
            after,
            log: Arc::default(),
            allocated: 0,
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
            self.allocated = hash_mb;
        }
    }
    fn clear(&mut self) {
        self.log.lock().push("clear".into());
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
            let unknown = |r| SearchResult {
                outcome: Outcome::Unknown(r),
                stats: stats(start),
                best_mate: self.best_mate.clone(),
                status: None,
                defender_root: false,
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
                };
            }
            if let (Some(t), Some(i)) = (next_info, limits.info_interval) {
                if Instant::now() >= t {
                    progress(&Progress {
                        stats: stats(start),
                        pv: self.best_mate.clone(),
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
    /// `go`; a `go` without one is undecided, see `go_before_any_position_is_undecided_item9`).
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

#[test]
fn usi_handshake() {
    let fake = Fake::endless();
    let out = session(fake.clone(), &["usi"]);
    assert_eq!(
        out[0],
        format!("id name tsumugi {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(out[1].starts_with("id author "));
    assert_eq!(out.last().unwrap(), "usiok");
    assert_eq!(count(&out, "option name "), 7);
    for name in [
        "USI_Hash",
        "USI_Ponder",
        "Threads",
        "NodesLimit",
        "PvInterval",
        "PostSearch",
        "RootIsAndNodeIfChecked",
    ] {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}"
        );
    }
    // `usi` allocates nothing.
    assert!(fake.calls().is_empty(), "{:?}", fake.calls());
}

#[test]
fn isready_allocates_and_usinewgame_clears() {
    let fake = Fake::endless();
    let out = session(
        fake.clone(),
        &[
            "isready",
            "setoption name USI_Hash value 32",
            "isready",
            "isready",
            "usinewgame",
        ],
    );
    assert_eq!(out, vec!["readyok", "readyok", "readyok"]);
    assert_eq!(fake.calls(), vec!["alloc 256", "alloc 32", "clear"]);
}

#[test]
fn go_mate_answers_verified_mate() {
    let fake = Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO);
    let out = session(
        fake.clone(),
        &[&format!("position sfen {HEAD_MATE}"), "go mate 1000"],
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("info time ") && out[0].ends_with(" pv G*5b"));
    assert!(out[0].contains(" nodes 1000 ") && out[0].contains(" hashfull 7"));
    assert_eq!(out[1], "checkmate G*5b");
    let calls = fake.calls();
    assert!(calls[1].contains("time=Some(1s)"), "{calls:?}");
    assert!(calls[1].contains("post=Shortest"), "{calls:?}");
}

#[test]
fn nomate_and_timeout() {
    let out = session(
        Fake::new(Outcome::NoMate, Duration::ZERO),
        &["go mate infinite"],
    );
    assert_eq!(out.last().unwrap(), "checkmate nomate");
    let out = session(Fake::endless(), &["go mate 20"]);
    assert_eq!(out.last().unwrap(), "checkmate timeout");
    assert_eq!(count(&out, "checkmate"), 1);
}

#[test]
fn best_mate_is_printed_on_stop_and_on_time() {
    let mut fake = Fake::endless();
    fake.best_mate = Some(line("3c2c+ 2a1a G*2a"));
    let out = session(
        fake.clone(),
        &[&format!("position sfen {MATE3}"), "go mate 30"],
    );
    assert_eq!(out.last().unwrap(), "checkmate 3c2c+ 2a1a G*2a");
    let mut e = Live::start(fake);
    e.send(&format!("position sfen {MATE3}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(count(&e.take(), "checkmate"), 0);
    e.send("stop");
    let got = e.wait_for("checkmate", SECOND);
    assert_eq!(got.last().unwrap(), "checkmate 3c2c+ 2a1a G*2a");
    e.finish(true);
}

#[test]
fn stop_is_prompt_and_isready_does_not_block() {
    let mut e = Live::start(Fake::endless());
    e.send("isready");
    e.wait_for("readyok", SECOND);
    for _ in 0..20 {
        e.send("go mate infinite");
        std::thread::sleep(Duration::from_millis(5));
        let t = Instant::now();
        e.send("isready");
        e.wait_for("readyok", SECOND);
        assert!(t.elapsed() < PROMPT, "{:?}", t.elapsed());
        let t = Instant::now();
        e.send("stop");
        let got = e.wait_for("checkmate", SECOND);
        assert!(t.elapsed() < PROMPT, "{:?}", t.elapsed());
        assert_eq!(got.last().unwrap(), "checkmate timeout");
    }
    let (rest, _) = e.finish(true);
    assert_eq!(count(&rest, "checkmate"), 0, "{rest:?}");
}

#[test]
fn second_go_is_ignored_and_stop_when_idle_is_silent() {
    let mut e = Live::start(Fake::endless());
    e.send("stop");
    e.send("go mate infinite");
    e.send("go mate 10");
    e.send("go");
    std::thread::sleep(Duration::from_millis(50));
    let got = e.take();
    assert_eq!(count(&got, "info string error: go ignored"), 2, "{got:?}");
    assert_eq!(count(&got, "checkmate"), 0, "{got:?}");
    e.send("stop");
    e.wait_for("checkmate timeout", SECOND);
    e.send("stop");
    e.send("isready");
    let got = e.wait_for("readyok", SECOND);
    assert_eq!(got, vec!["readyok"]);
    e.finish(true);
}

#[test]
fn position_and_setoption_during_search_apply_next_time() {
    let fake = Fake::new(Outcome::NoMate, Duration::from_millis(100));
    let mut e = Live::start(fake.clone());
    e.send("isready");
    e.wait_for("readyok", SECOND);
    e.send("go mate infinite");
    e.send(&format!("position sfen {HEAD_MATE}"));
    e.send("setoption name NodesLimit value 777");
    e.send("setoption name USI_Hash value 16");
    e.send("usinewgame");
    e.send("isready");
    let got = e.wait_for("readyok", SECOND);
    assert_eq!(count(&got, "info string setoption"), 2, "{got:?}");
    e.wait_for("checkmate nomate", SECOND);
    e.send("go mate 1000");
    e.wait_for("checkmate nomate", SECOND);
    e.finish(true);
    let calls = fake.calls();
    assert_eq!(calls.len(), 5, "{calls:?}");
    assert_eq!(calls[0], "alloc 256");
    assert!(calls[1].starts_with("solve lnsgkgsnl/"), "{calls:?}");
    assert!(calls[1].contains("nodes=None"), "{calls:?}");
    // The deferred hash size and clear are applied on the search thread before the search.
    assert_eq!(&calls[2..4], &["alloc 16", "clear"]);
    assert!(calls[4].starts_with("solve 4k4/9/4P4"), "{calls:?}");
    assert!(calls[4].contains("nodes=Some(777)"), "{calls:?}");
}

#[test]
fn bad_position_makes_next_go_mate_undecided_item4() {
    let fake = Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO);
    let out = session(
        fake,
        &[
            "position sfen 4k4/9/4P4/9/9/9/9/9 b G 1",
            "go mate 100",
            "position startpos moves 7g7f 3c3d 2g2f x",
            "go mate 100",
            "position startpos moves 7g7f 7f7e",
            "go",
            &format!("position sfen {HEAD_MATE}"),
            "go mate 100",
        ],
    );
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect();
    assert_eq!(errors.len(), 6, "{out:#?}");
    assert!(errors[0].contains("ranks"), "{}", errors[0]);
    assert!(errors[1].contains("no valid position") && errors[1].contains("ranks"));
    assert!(errors[2].contains("move 4 'x'"), "{}", errors[2]);
    assert!(
        errors[4].contains("move 2 '7f7e' is illegal"),
        "{}",
        errors[4]
    );
    assert_eq!(
        out.iter()
            .filter(|l| l.starts_with("checkmate") || l.starts_with("bestmove"))
            .collect::<Vec<_>>(),
        vec![
            "checkmate timeout",
            "checkmate timeout",
            "bestmove resign",
            "checkmate G*5b"
        ]
    );
}

/// Issue 20, item 9: a `go mate` before any `position` searched the start position and
/// answered `nomate`. It is undecided now, and says why.
#[test]
fn go_before_any_position_is_undecided_item9() {
    let fake = Fake::new(Outcome::NoMate, Duration::ZERO);
    let mut e = Live::bare(fake.clone());
    e.send("go mate 1000");
    let out = e.wait_for("checkmate", SECOND);
    e.finish(false);
    assert_eq!(out.last().unwrap(), "checkmate timeout");
    assert!(
        out.iter().any(|l| l.contains("no position was given")),
        "{out:#?}"
    );
    assert!(fake.calls().iter().all(|c| !c.starts_with("solve")));
}

/// Issue 20, item 10: a `position` line dropped for its length left the previous position in
/// force, and the next `go mate` solved it. It now clears the position like any bad one.
#[test]
fn dropped_long_position_line_clears_the_position_item10() {
    let fake = Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO);
    let mut e = Live::start(fake.clone());
    e.send(&format!("position sfen {HEAD_MATE}"));
    e.tx.send(Input::TooLong(70_000, "position".into()))
        .unwrap();
    e.send("go mate 1000");
    let out = e.wait_for("checkmate", SECOND);
    e.finish(false);
    assert_eq!(out.last().unwrap(), "checkmate timeout", "{out:#?}");
    assert!(fake.calls().iter().all(|c| !c.starts_with("solve")));
    // Another over-long line (not a position) leaves the position alone.
    let fake = Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO);
    let mut e = Live::start(fake);
    e.send(&format!("position sfen {HEAD_MATE}"));
    e.tx.send(Input::TooLong(70_000, "xxxx".into())).unwrap();
    e.send("go mate 1000");
    let out = e.wait_for("checkmate", SECOND);
    e.finish(false);
    assert_eq!(out.last().unwrap(), "checkmate G*5b", "{out:#?}");
}

#[test]
fn bad_go_mate_time_answers_timeout_at_once() {
    let fake = Fake::endless();
    let out = session(
        fake.clone(),
        &["go mate abc", "go mate -5", "go mate 10 junk"],
    );
    assert_eq!(count(&out, "checkmate timeout"), 3, "{out:?}");
    assert_eq!(count(&out, "info string error: go mate: bad time"), 2);
    assert_eq!(
        count(&out, "info string go: ignored unknown token 'junk'"),
        1
    );
    assert_eq!(fake.calls().len(), 2, "only the good one searched");
}

#[test]
fn huge_mate_time_means_no_limit() {
    let fake = Fake::new(Outcome::NoMate, Duration::from_millis(5));
    let out = session(fake.clone(), &["go mate 99999999999999999999"]);
    assert_eq!(out.last().unwrap(), "checkmate nomate");
    assert!(fake.calls()[1].contains("time=None"), "{:?}", fake.calls());
}

#[test]
fn info_lines_follow_pv_interval() {
    let fake = Fake::new(Outcome::NoMate, Duration::from_millis(120));
    let out = session(
        fake.clone(),
        &["setoption name PvInterval value 20", "go mate 1000"],
    );
    let infos = count(&out, "info time ");
    assert!((2..=8).contains(&infos), "{out:#?}");
    let out = session(fake, &["setoption name PvInterval value 0", "go mate 1000"]);
    assert_eq!(count(&out, "info time "), 1, "{out:#?}");
    assert_eq!(out.last().unwrap(), "checkmate nomate");
}

#[test]
fn quit_and_eof_stop_a_search_quickly() {
    for via_quit in [true, false] {
        let e = Live::start(Fake::endless());
        e.send("go mate infinite");
        std::thread::sleep(Duration::from_millis(10));
        let (rest, took) = e.finish(via_quit);
        assert!(took < PROMPT * 2, "{took:?}");
        assert_eq!(count(&rest, "checkmate timeout"), 1, "{rest:?}");
    }
}

#[test]
fn plain_go_plays_the_first_mating_move_or_resigns() {
    let fake = Fake::new(Outcome::Mate(line("3c2c+ 2a1a G*2a")), Duration::ZERO);
    let out = session(
        fake.clone(),
        &[
            &format!("position sfen {MATE3}"),
            "go btime 60000 wtime 60000 byoyomi 1000",
        ],
    );
    assert_eq!(out.last().unwrap(), "bestmove 3c2c+");
    let calls = fake.calls();
    assert!(calls[1].contains("post=None"), "{calls:?}");
    // 60000/20 + 1000 = 4000, less a fifth capped at 300.
    assert!(calls[1].contains("time=Some(3.7s)"), "{calls:?}");
    let out = session(Fake::new(Outcome::NoMate, Duration::ZERO), &["go"]);
    assert_eq!(out.last().unwrap(), "bestmove resign");
    let out = session(Fake::endless(), &["go movetime 20"]);
    assert_eq!(out.last().unwrap(), "bestmove resign");
}

#[test]
fn go_infinite_and_ponder_hold_the_bestmove() {
    let mate = Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO);
    let mut e = Live::start(mate.clone());
    e.send(&format!("position sfen {HEAD_MATE}"));
    e.send("go infinite");
    e.wait_for("info time", SECOND);
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(e.take(), Vec::<String>::new());
    e.send("stop");
    assert_eq!(e.wait_for("bestmove", SECOND), vec!["bestmove G*5b"]);
    // Ponder, finished early: the answer comes at ponderhit.
    e.send("go ponder btime 1000 wtime 1000");
    e.wait_for("info time", SECOND);
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(e.take(), Vec::<String>::new());
    e.send("ponderhit");
    assert_eq!(e.wait_for("bestmove", SECOND), vec!["bestmove G*5b"]);
    e.finish(true);

    // Ponder, still searching at ponderhit: the clock budget then applies (1000/20 + 0).
    let mut e = Live::start(Fake::endless());
    e.send("go ponder btime 1000 wtime 1000");
    std::thread::sleep(Duration::from_millis(30));
    let t = Instant::now();
    e.send("ponderhit");
    e.wait_for("bestmove resign", SECOND);
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(35) && took < Duration::from_millis(300),
        "{took:?}"
    );
    e.send("ponderhit");
    e.wait_for("info string ponderhit ignored", SECOND);
    e.finish(true);
}

#[test]
fn gameover_stops_the_search() {
    let mut e = Live::start(Fake::endless());
    e.send("go mate infinite");
    e.send("gameover lose");
    e.wait_for("checkmate timeout", SECOND);
    e.finish(true);
}

#[test]
fn garbage_never_stops_the_engine() {
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"\xff\xfe\x00\x01garbage\r\n");
    input.extend_from_slice(b"usi\rcheckmate x\n");
    input.extend_from_slice(b"\x1b\x0bcheckmate\x0bx\n");
    input.extend(std::iter::repeat_n(b'a', 100_000));
    input.push(b'\n');
    input.extend_from_slice("setoption name USI_Hash value 日本\n".as_bytes());
    input.extend_from_slice(b"setoption name Threads value 4\n");
    input.extend_from_slice(b"position sfen \xff\n");
    let mut e = Live::start(Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO));
    e.feed_bytes(input);
    e.send(&format!("position sfen {HEAD_MATE}"));
    e.send("go mate 1000");
    e.wait_for("checkmate", SECOND);
    let out = e.out.clone();
    e.finish(true);
    let out = out.lines();
    for l in &out {
        assert!(l.bytes().all(|b| (0x20..0x7f).contains(&b)), "{l:?}");
    }
    // A '\r' inside a line is escaped, never a line break of its own.
    assert!(
        !out.iter().any(|l| l.starts_with("checkmate x")),
        "{out:#?}"
    );
    assert_eq!(
        count(&out, "info string error: ignored a line of 100000 bytes"),
        1
    );
    assert_eq!(count(&out, "info string error: setoption USI_Hash"), 1);
    assert_eq!(count(&out, "info string error: setoption Threads"), 1);
    assert_eq!(count(&out, "info string unknown command"), 2, "{out:#?}");
    assert_eq!(out.last().unwrap(), "checkmate G*5b");
}

#[test]
fn hundreds_of_go_mate_get_one_answer_each() {
    let fake = Fake::new(Outcome::NoMate, Duration::ZERO);
    let mut e = Live::start(fake);
    for i in 0..300 {
        match i % 3 {
            0 => e.send("go mate 100"),
            1 => e.send("go mate infinite"),
            _ => e.send("go mate"),
        }
        e.wait_for("checkmate", SECOND);
    }
    let out = e.out.clone();
    let (rest, _) = e.finish(true);
    assert_eq!(count(&rest, "checkmate"), 0);
    assert_eq!(count(&out.lines(), "checkmate"), 300);
}

#[test]
fn deadline_backstop_stops_an_overrunning_solver() {
    /// Ignores its time limit; only the stop flag ends it.
    struct Overrun;
    impl Backend for Overrun {
        fn prepare(&mut self, _: usize) {}
        fn clear(&mut self) {}
        fn allocated_mb(&self) -> usize {
            1
        }
        fn discard(&mut self) {}
        fn solve(
            &mut self,
            _: &Position,
            _: &Limits,
            stop: &AtomicBool,
            _: &mut dyn FnMut(&Progress),
        ) -> SearchResult {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            SearchResult::unknown(UnknownReason::Stopped)
        }
    }
    let t = Instant::now();
    let out = session(Overrun, &["go mate 10"]);
    assert_eq!(out.last().unwrap(), "checkmate timeout");
    let took = t.elapsed();
    assert!(
        took >= MATE_BACKSTOP && took < MATE_BACKSTOP * 2,
        "{took:?}"
    );
}

#[test]
fn panicking_solver_is_reported() {
    struct Panics;
    impl Backend for Panics {
        fn prepare(&mut self, _: usize) {}
        fn clear(&mut self) {}
        fn allocated_mb(&self) -> usize {
            1
        }
        fn discard(&mut self) {}
        fn solve(
            &mut self,
            _: &Position,
            _: &Limits,
            _: &AtomicBool,
            _: &mut dyn FnMut(&Progress),
        ) -> SearchResult {
            panic!("boom")
        }
    }
    let out = session(Panics, &["go mate 10", "go mate 10"]);
    assert_eq!(count(&out, "checkmate timeout"), 2, "{out:?}");
    assert_eq!(count(&out, "info string error: the search failed: boom"), 2);
}

#[test]
fn build_position_names_the_fault() {
    let spec = |base: PositionBase, moves: &str| PositionSpec {
        base,
        moves: moves.split_whitespace().map(String::from).collect(),
    };
    let p = build_position(&spec(PositionBase::Startpos, "7g7f 3c3d")).unwrap();
    assert_eq!(p.game_ply(), 2);
    let e = build_position(&spec(PositionBase::Startpos, "7g7f 3c3d 7g7f")).unwrap_err();
    assert!(e.contains("move 3 '7g7f' is illegal in "), "{e}");
    let e = build_position(&spec(PositionBase::Startpos, "7g7f K*5e")).unwrap_err();
    assert!(e.contains("move 2 'K*5e' is not a USI move"), "{e}");
    let e = build_position(&spec(PositionBase::Sfen("9/9 b - 1".into()), "")).unwrap_err();
    assert!(e.starts_with("position: bad SFEN '9/9 b - 1': "), "{e}");
}

/// The real solver behind the loop: a mate in 1, a mate in 3 and a no-mate.
#[test]
fn real_solver_session() {
    let lines = session(
        LazySolver::default(),
        &[
            "setoption name USI_Hash value 16",
            "isready",
            &format!("position sfen {HEAD_MATE}"),
            "go mate 2000",
            &format!("position sfen {MATE3}"),
            "go mate infinite",
            "position sfen 9/3k5/9/3P5/9/9/9/9/9 b G2r2b4s4n4l17p 1",
            "go mate",
        ],
    );
    assert_eq!(lines[0], "readyok");
    let answers: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("checkmate"))
        .collect();
    assert_eq!(answers.len(), 3, "{lines:?}");
    assert_eq!(answers[0], "checkmate G*5b");
    // Any of the mates in 3 (the mate layer verified it before returning it).
    let m3: Vec<&str> = answers[1].split(' ').skip(1).collect();
    assert_eq!((m3.len(), m3[0]), (3, "3c2c+"), "{lines:?}");
    assert_eq!(answers[2], "checkmate nomate");
}

#[test]
fn hash_larger_than_memory_is_reduced() {
    let Some(avail) = available_memory_mb() else {
        return; // not Linux: no cap
    };
    let limit = avail * 3 / 4;
    if limit >= options::HASH_MAX_MB {
        return; // a machine this large takes the maximum as it is
    }
    let fake = Fake::endless();
    let out = session(
        fake.clone(),
        &["setoption name USI_Hash value 65536", "isready", "isready"],
    );
    assert_eq!(
        count(&out, "info string USI_Hash 65536 MB is more than"),
        1,
        "{out:?}"
    );
    assert_eq!(count(&out, "readyok"), 2);
    let calls = fake.calls();
    assert_eq!(calls.len(), 1, "{calls:?}");
    let mb: usize = calls[0].strip_prefix("alloc ").unwrap().parse().unwrap();
    assert!(mb < 65536 && mb + 1024 >= limit, "{mb} vs {limit}");
}
