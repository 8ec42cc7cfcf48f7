//! The cooperative engine with the real solver, driven as ShogiHome's worker drives it: a
//! command, then `poll()` until the answer. Its answers are compared with the native engine's
//! (threads, `engine::run`) on the same script, and the ABI's rules are checked: one answer per
//! `go`, `stop` answered within its own call, nothing after `quit` or `terminate()`, limits
//! over all the slices.

use super::*;
use crate::usi::engine::run_channel;
use crate::usi::input::Input;
use crate::usi::options;
use std::time::Instant as StdInstant;

const HEAD_MATE: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
const MATE3: &str = "7k1/9/6R2/9/9/9/9/9/9 b G 1";
/// A mate in 9 whose shortest-mate search announces several bounds.
const MATE9: &str = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1";
/// No mate, and a long search to prove it (the Python engine tests' stop position).
const HARD_NOMATE: &str = "6k2/9/9/9/9/9/9/9/9 b B2GS2L2P2rb2g3s4n2l16p 1";

/// Lines of `text`.
fn lines(text: &str) -> Vec<String> {
    text.lines().map(String::from).collect()
}

/// Sends `line`; returns the lines written within the call.
fn send(e: &mut Cooperative, line: &str) -> Vec<String> {
    e.command(line);
    lines(&e.take_output())
}

/// Polls (as the host does, every 10 ms; here back to back) until the search ends or
/// `timeout` passes; returns the lines written.
fn poll_until_idle(e: &mut Cooperative, timeout: Duration) -> Vec<String> {
    let end = StdInstant::now() + timeout;
    let mut out = Vec::new();
    while e.searching() {
        assert!(
            StdInstant::now() < end,
            "still searching after {timeout:?}: {out:#?}"
        );
        e.poll();
        out.extend(lines(&e.take_output()));
    }
    out
}

/// Runs a script: each line sent, and after a `go` polls until its answer. All output lines.
/// The last `info time ... nodes N ...` line of `out` and its N.
fn last_info_nodes(out: &[String]) -> (&str, u64) {
    let info = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info time"))
        .expect("an info line");
    let nodes = info.split(' ').nth(4).unwrap().parse().unwrap();
    (info, nodes)
}

fn script(cmds: &[&str]) -> Vec<String> {
    let mut e = Cooperative::new();
    let mut out = Vec::new();
    for c in cmds {
        out.extend(send(&mut e, c));
        out.extend(poll_until_idle(&mut e, Duration::from_secs(20)));
    }
    out
}

/// The native engine (threads) on the same script, each `go` given time to answer before the
/// next line (end of input then quits it).
fn native(cmds: &[&str]) -> Vec<String> {
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let buf = Buf::default();
    let (tx, rx) = crossbeam_channel::bounded(256);
    let out = buf.clone();
    let handle = std::thread::spawn(move || run_channel(rx, out, LazySolver::default()));
    let answers = |b: &Buf| {
        String::from_utf8_lossy(&b.0.lock())
            .lines()
            .filter(|l| l.starts_with("checkmate") || l.starts_with("bestmove"))
            .count()
    };
    for c in cmds {
        let before = answers(&buf);
        tx.send(Input::Line(c.to_string())).unwrap();
        if c.starts_with("go") {
            let end = StdInstant::now() + Duration::from_secs(20);
            while answers(&buf) == before {
                assert!(StdInstant::now() < end, "native engine: no answer to {c}");
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
    tx.send(Input::Eof).unwrap();
    handle.join().unwrap();
    let text = String::from_utf8_lossy(&buf.0.lock()).into_owned();
    lines(&text)
}

/// The lines that do not depend on timing: everything but `info time ...` lines.
fn stable(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.starts_with("info time "))
        .cloned()
        .collect()
}

#[test]
fn same_answers_as_the_native_engine() {
    let cmds = [
        "usi",
        "setoption name USI_Hash value 16",
        "setoption name PvInterval value 0",
        "isready",
        &format!("position sfen {HEAD_MATE}"),
        "go mate 5000",
        &format!("position sfen {MATE9}"),
        "go mate infinite",
        "setoption name PostSearch value composer",
        "go mate 5000",
        "position sfen 9/3k5/9/3P5/9/9/9/9/9 b G2r2b4s4n4l17p 1",
        "go mate",
        "position sfen 4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1 moves bad",
        "go mate 1000",
        "setoption name NoSuch value 1",
        &format!("position sfen {MATE3}"),
        "go btime 0 wtime 0 byoyomi 2000",
        "go mate abc",
        "frobnicate",
    ];
    let coop = script(&cmds);
    let nat = native(&cmds);
    assert_eq!(stable(&coop), stable(&nat));
    // The answers are there, one per `go`: a spot check that the comparison compared something.
    let answers: Vec<&String> = coop
        .iter()
        .filter(|l| l.starts_with("checkmate") || l.starts_with("bestmove"))
        .collect();
    assert_eq!(answers.len(), 7, "{coop:#?}");
    assert_eq!(answers[0], "checkmate G*5b");
    assert_eq!(answers[1].split(' ').count(), 10, "{coop:#?}");
    assert_eq!(answers[3], "checkmate nomate");
    assert_eq!(answers[4], "checkmate timeout");
    assert_eq!(answers[5], "bestmove 3c2c+");
    assert_eq!(answers[6], "checkmate timeout");
}

#[test]
fn usi_declares_the_options() {
    let out = send(&mut Cooperative::new(), "usi");
    assert_eq!(
        out[0],
        format!("id name {}", crate::usi::engine::ENGINE_NAME)
    );
    assert_eq!(&out[2..out.len() - 1], options::Options::declarations());
    assert_eq!(out.last().unwrap(), "usiok");
}

/// A long search is advanced only by `poll()`, a slice at a time; `stop` answers within its
/// own call, once, with the last slice's counters.
#[test]
fn stop_answers_within_the_call() {
    let mut e = Cooperative::new();
    send(&mut e, "setoption name USI_Hash value 16");
    send(&mut e, &format!("position sfen {HARD_NOMATE}"));
    assert!(send(&mut e, "go mate infinite").is_empty());
    assert!(e.searching());
    let t = StdInstant::now();
    for _ in 0..3 {
        e.poll();
    }
    // Three slices of 50 ms at most each (the first searches; a slow machine may take longer
    // to return, never much shorter).
    assert!(
        t.elapsed() >= Duration::from_millis(100),
        "{:?}",
        t.elapsed()
    );
    assert!(e.searching());
    let out = send(&mut e, "stop");
    assert_eq!(out.last().unwrap(), "checkmate timeout", "{out:#?}");
    let (info, nodes) = last_info_nodes(&out);
    assert!(nodes > 0, "{info}");
    assert!(!e.searching());
    assert!(e.poll_is_quiet());
    // A second stop is ignored silently.
    assert!(send(&mut e, "stop").is_empty());
}

impl Cooperative {
    /// One poll writes nothing.
    fn poll_is_quiet(&mut self) -> bool {
        self.poll();
        self.take_output().is_empty()
    }
}

/// `stop` before the first slice: answered at once, undecided.
#[test]
fn stop_before_any_slice() {
    let mut e = Cooperative::new();
    send(&mut e, "setoption name USI_Hash value 16");
    send(&mut e, "position startpos");
    assert!(send(&mut e, "go btime 600000 wtime 600000 byoyomi 300000").is_empty());
    let out = send(&mut e, "stop");
    assert_eq!(out.last().unwrap(), "bestmove resign", "{out:#?}");
    assert!(!e.searching());
}

/// After `quit` or `terminate()`: no answer for the running search, nothing for later
/// commands or polls.
#[test]
fn nothing_after_quit_or_terminate() {
    for via_quit in [true, false] {
        let mut e = Cooperative::new();
        send(&mut e, "setoption name USI_Hash value 16");
        send(&mut e, &format!("position sfen {HARD_NOMATE}"));
        send(&mut e, "go mate infinite");
        e.poll();
        e.take_output();
        if via_quit {
            assert!(send(&mut e, "quit").is_empty());
        } else {
            e.terminate();
        }
        assert!(e.has_quit() && !e.searching());
        for _ in 0..5 {
            assert!(!e.poll());
        }
        assert!(send(&mut e, "usi").is_empty());
        assert!(send(&mut e, "go mate 100").is_empty());
        assert!(e.take_output().is_empty());
    }
}

/// A `go mate` time is wall-clock time over all the slices.
#[test]
fn time_limit_over_the_slices() {
    let mut e = Cooperative::new();
    send(&mut e, "setoption name USI_Hash value 16");
    send(&mut e, &format!("position sfen {HARD_NOMATE}"));
    send(&mut e, "go mate 600");
    let t = StdInstant::now();
    let out = poll_until_idle(&mut e, Duration::from_secs(10));
    let took = t.elapsed();
    assert_eq!(out.last().unwrap(), "checkmate timeout", "{out:#?}");
    // At least the limit (it is not per slice: slices are at most 200 ms), and it ends (a
    // limit applied per slice would never end this search). The upper bound is loose on
    // purpose: a loaded machine delays the last poll, and timings are not what this tests.
    assert!(
        took >= Duration::from_millis(550) && took < Duration::from_secs(5),
        "{took:?}"
    );
    // Periodic lines every PvInterval (1 s by default): none in 0.6 s, only the final one.
    assert_eq!(out.iter().filter(|l| l.starts_with("info time")).count(), 1);
}

/// `NodesLimit` counts the nodes of all the slices, exactly (with one thread, as in
/// WebAssembly; natively the default `Threads` here may be more, and helpers' nodes are
/// counted as they come).
#[test]
fn node_limit_over_the_slices() {
    let mut e = Cooperative::new();
    send(&mut e, "setoption name USI_Hash value 16");
    send(&mut e, "setoption name Threads value 1");
    send(&mut e, "setoption name NodesLimit value 300000");
    send(&mut e, &format!("position sfen {HARD_NOMATE}"));
    send(&mut e, "go mate infinite");
    let mut polls = 0;
    let mut out = Vec::new();
    while e.searching() {
        e.poll();
        polls += 1;
        out.extend(lines(&e.take_output()));
    }
    assert!(polls > 1, "one slice searched it all: {out:#?}");
    assert_eq!(out.last().unwrap(), "checkmate timeout", "{out:#?}");
    let (info, nodes) = last_info_nodes(&out);
    assert_eq!(nodes, 300000, "{info}");
    assert!(out.iter().any(|l| l.contains("node limit")), "{out:#?}");
}

/// Periodic `info` lines come every `PvInterval` of wall-clock time, whatever the slices;
/// the counters grow.
#[test]
fn periodic_info_lines() {
    let mut e = Cooperative::new();
    send(&mut e, "setoption name USI_Hash value 16");
    send(&mut e, "setoption name PvInterval value 100");
    send(&mut e, &format!("position sfen {HARD_NOMATE}"));
    send(&mut e, "go mate 1000");
    let out = poll_until_idle(&mut e, Duration::from_secs(10));
    let infos: Vec<(u64, u64)> = out
        .iter()
        .filter(|l| l.starts_with("info time"))
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            (w[2].parse().unwrap(), w[4].parse().unwrap())
        })
        .collect();
    // About ten in a second, the final one included.
    assert!((7..=12).contains(&infos.len()), "{out:#?}");
    assert!(
        infos
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1),
        "{infos:?}"
    );
}

/// What a restarted slice establishes again is not news: each bound is announced once.
#[test]
fn news_is_not_repeated_by_the_slices() {
    let out = script(&[
        "setoption name USI_Hash value 16",
        "setoption name PvInterval value 0",
        &format!("position sfen {MATE9}"),
        "go mate infinite",
    ]);
    let news: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string") && l.contains("plies"))
        .collect();
    let mut unique = news.clone();
    unique.dedup();
    assert_eq!(news, unique, "{out:#?}");
    assert!(
        out.iter()
            .any(|l| l == "info string no mate within 7 plies: the shortest mate takes 9"),
        "{out:#?}"
    );
}

/// The notice that the table is full of proven results reaches the host (it is not a bound,
/// and the news filter, which drops bounds a restarted slice establishes again, used to drop
/// it), once per `go` although every slice's search says it again.
#[test]
fn table_full_notice_reaches_the_host_once() {
    let out = script(&[
        "setoption name USI_Hash value 1",
        "setoption name PvInterval value 0",
        &format!("position sfen {HARD_NOMATE}"),
        "go mate 3000",
    ]);
    let full: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string the table (1 MB) is full of proven results"))
        .collect();
    assert_eq!(full.len(), 1, "{out:#?}");
    assert_eq!(out.last().unwrap(), "checkmate timeout", "{out:#?}");
}

/// `go ponder` holds its answer until `ponderhit` gives it the clock's time; `go infinite`
/// until `stop`.
#[test]
fn held_answers() {
    let mut e = Cooperative::new();
    send(&mut e, "setoption name USI_Hash value 16");
    send(&mut e, &format!("position sfen {MATE3}"));
    send(&mut e, "go infinite");
    // Solved at once, but held.
    for _ in 0..3 {
        e.poll();
    }
    assert!(!lines(&e.take_output())
        .iter()
        .any(|l| l.starts_with("bestmove")));
    assert_eq!(send(&mut e, "stop"), ["bestmove 3c2c+"]);
    send(&mut e, &format!("position sfen {HARD_NOMATE}"));
    send(&mut e, "go ponder btime 0 wtime 0 byoyomi 300");
    for _ in 0..3 {
        e.poll();
    }
    assert!(e.searching());
    let t = StdInstant::now();
    send(&mut e, "ponderhit");
    let out = poll_until_idle(&mut e, Duration::from_secs(5));
    // byoyomi 300 less its margin of a fifth: 240 ms after ponderhit.
    assert!(
        t.elapsed() >= Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(out.last().unwrap(), "bestmove resign", "{out:#?}");
}
