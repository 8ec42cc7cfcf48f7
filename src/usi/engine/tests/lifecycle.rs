//! Engine-loop tests of the protocol's life cycle: handshake, options, positions, bad input,
//! failures and shutdown.

use super::*;

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
    assert_eq!(count(&out, "option name "), 9);
    for name in [
        "USI_Hash",
        "USI_Ponder",
        "Threads",
        "NodesLimit",
        "MaxPlies",
        "PvInterval",
        "PostSearch",
        "RootIsAndNodeIfChecked",
        "MultiPV",
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
fn isready_allocates_and_usinewgame_starts_a_new_game() {
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
    assert_eq!(
        out,
        vec![
            "info string USI_Hash 256 MB allocated",
            "readyok",
            "info string USI_Hash 32 MB allocated",
            "readyok",
            "readyok"
        ]
    );
    assert_eq!(fake.calls(), vec!["alloc 256", "alloc 32", "new_game"]);
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
    // The deferred new game is started when the next search is asked for (it costs nothing,
    // and the backend is free then); the deferred hash size is applied on the search thread
    // before the search. Never the full clear.
    assert_eq!(&calls[2..4], &["new_game", "alloc 16"]);
    assert!(calls[4].starts_with("solve 4k4/9/4P4"), "{calls:?}");
    assert!(calls[4].contains("nodes=Some(777)"), "{calls:?}");
}

#[test]
fn bad_position_makes_next_go_mate_undecided() {
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

/// A `go mate` before any `position` searched the start position and
/// answered `nomate`. It is undecided now, and says why.
#[test]
fn go_before_any_position_is_undecided() {
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

/// A `position` line dropped for its length left the previous position in
/// force, and the next `go mate` solved it. It now clears the position like any bad one.
#[test]
fn dropped_long_position_line_clears_the_position() {
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
    input.extend_from_slice(b"setoption name Threads value 0\n");
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
fn panicking_solver_is_reported() {
    struct Panics;
    impl Backend for Panics {
        no_table!();
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

#[test]
fn hash_larger_than_memory_is_reduced() {
    let Some(avail) = crate::mate::available_memory_mb() else {
        return; // memory unknown on this system: no cap
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

/// A table that cannot be allocated in full (memory taken by another process since the
/// check): the engine says the size it got in one `info string`, keeps it (no second attempt
/// at the next `isready`), and goes on answering.
#[test]
fn a_table_allocation_that_fails_is_reduced_and_the_engine_keeps_serving() {
    let mut fake = Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO);
    fake.max_alloc = 16;
    let out = session(
        fake.clone(),
        &[
            "setoption name USI_Hash value 64",
            "isready",
            "isready",
            &format!("position sfen {HEAD_MATE}"),
            "go mate 1000",
        ],
    );
    assert_eq!(
        count(
            &out,
            "info string USI_Hash 64 MB could not be allocated; using 16 MB"
        ),
        1,
        "{out:?}"
    );
    assert_eq!(count(&out, "readyok"), 2, "{out:?}");
    assert_eq!(count(&out, "checkmate G*5b"), 1, "{out:?}");
    let allocs = fake
        .calls()
        .iter()
        .filter(|c| c.starts_with("alloc"))
        .count();
    assert_eq!(allocs, 1, "{:?}", fake.calls());
}

/// The size allocated is said once, after the allocation.
#[test]
fn the_table_size_allocated_is_said_after_isready() {
    let fake = Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO);
    let out = session(
        fake,
        &["setoption name USI_Hash value 48", "isready", "isready"],
    );
    assert_eq!(
        count(&out, "info string USI_Hash 48 MB allocated"),
        1,
        "{out:?}"
    );
}

/// What came of making the table ready at `isready` is said when it is not all held: a table
/// cut where memory ran short says the size kept; one that could not be cut says that its
/// memory is not held (its size did not change, so nothing else would show it).
#[test]
fn a_table_not_made_ready_in_full_is_said_at_isready() {
    let said = |ready: Resident| {
        let mut fake = Fake::new(Outcome::Mate(line("G*5b")), Duration::ZERO);
        fake.ready = ready;
        fake.cut_to = 16;
        let out = session(fake, &["setoption name USI_Hash value 64", "isready"]);
        assert_eq!(count(&out, "readyok"), 1, "{out:?}");
        out.into_iter()
            .filter(|l| l.starts_with("info string USI_Hash:"))
            .collect::<Vec<_>>()
    };
    assert_eq!(said(Resident::Whole), Vec::<String>::new());
    assert_eq!(
        said(Resident::Cut),
        [
            "info string USI_Hash: memory ran short while the table was made ready (another \
          process is taking it); using 16 MB of 64"
        ]
    );
    assert_eq!(
        said(Resident::NotHeld),
        [
            "info string USI_Hash: memory ran short while the table was made ready (another \
          process is taking it) and the table could not be cut: it keeps 64 MB but its memory \
          is not held"
        ]
    );
}
