//! Engine-loop tests of searching: one answer per `go`, stop and time limits, progress lines,
//! game play and pondering, and the real solver behind the loop.

use super::*;

#[test]
fn go_mate_answers_verified_mate() {
    let fake = Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO);
    let out = session(
        fake.clone(),
        &[&format!("position sfen {HEAD_MATE}"), "go mate 1000"],
    );
    // The table is allocated by the `go` (no `isready` came first), and its size said.
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0], "info string USI_Hash 256 MB allocated");
    let out = &out[1..];
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
        no_table!();
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
    assert_eq!(
        lines[..2],
        ["info string USI_Hash 16 MB allocated", "readyok"]
    );
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

/// During the shortest-mate search each proven bound is announced at once, even with
/// periodic lines off: an `info` line with `score mate <N>` and the line, then an `info string`
/// saying what was established; the scores never grow, and the last one before the answer is
/// the answer's length.
#[test]
fn shortest_mate_progress_is_announced() {
    let lines = session(
        LazySolver::default(),
        &[
            "setoption name USI_Hash value 16",
            "setoption name PvInterval value 0",
            "position sfen 9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1",
            "go mate infinite",
        ],
    );
    let scores: Vec<i64> = lines
        .iter()
        .filter_map(|l| l.split(" score mate ").nth(1))
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(scores.len() >= 2, "{lines:#?}");
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert_eq!(*scores.last().unwrap(), 9, "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l == "info string no mate within 7 plies: the shortest mate takes 9"),
        "{lines:#?}"
    );
    let answer = lines.iter().find(|l| l.starts_with("checkmate")).unwrap();
    assert_eq!(answer.split(' ').count(), 10, "{answer}");
}
