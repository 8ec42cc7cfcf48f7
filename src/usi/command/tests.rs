//! Parser tests: one case per command form and per malformed input.

use super::*;

fn cmd(line: &str) -> Command {
    parse(line).command
}

#[test]
fn simple_commands() {
    assert_eq!(cmd("usi"), Command::Usi);
    assert_eq!(cmd("  isready \r"), Command::IsReady);
    assert_eq!(cmd("usinewgame"), Command::UsiNewGame);
    assert_eq!(cmd("stop"), Command::Stop);
    assert_eq!(cmd("ponderhit"), Command::PonderHit);
    assert_eq!(cmd("quit"), Command::Quit);
    assert_eq!(cmd(""), Command::Empty);
    assert_eq!(cmd(" \t "), Command::Empty);
    assert_eq!(cmd("gameover win"), Command::GameOver("win".into()));
    assert_eq!(cmd("gameover"), Command::GameOver(String::new()));
    assert_eq!(cmd("USI"), Command::Unknown("USI".into()));
    assert_eq!(cmd("hello world"), Command::Unknown("hello".into()));
    let p = parse("isready now");
    assert_eq!(p.command, Command::IsReady);
    assert_eq!(p.notes, vec!["ignored extra token 'now'"]);
}

#[test]
fn setoption() {
    let ok = |n: &str, v: Option<&str>| {
        Command::SetOption(Ok(SetOption {
            name: n.into(),
            value: v.map(Into::into),
        }))
    };
    assert_eq!(
        cmd("setoption name USI_Hash value 32"),
        ok("USI_Hash", Some("32"))
    );
    assert_eq!(
        cmd("setoption name Book value  a  b c  "),
        ok("Book", Some("a  b c"))
    );
    assert_eq!(cmd("setoption name Clear"), ok("Clear", None));
    assert_eq!(cmd("setoption name X value"), ok("X", Some("")));
    assert_eq!(
        cmd("setoption name My Opt value 1"),
        ok("My Opt", Some("1"))
    );
    assert!(matches!(cmd("setoption"), Command::SetOption(Err(_))));
    assert!(matches!(cmd("setoption name"), Command::SetOption(Err(_))));
    assert!(matches!(
        cmd("setoption name value 3"),
        Command::SetOption(Err(_))
    ));
    assert!(matches!(
        cmd("setoption USI_Hash 3"),
        Command::SetOption(Err(_))
    ));
}

#[test]
fn position() {
    let spec = |l: &str| match cmd(l) {
        Command::Position(r) => r,
        c => panic!("{c:?}"),
    };
    assert_eq!(
        spec("position startpos"),
        Ok(PositionSpec {
            base: PositionBase::Startpos,
            moves: vec![]
        })
    );
    assert_eq!(
        spec("position startpos moves 7g7f 3c3d"),
        Ok(PositionSpec {
            base: PositionBase::Startpos,
            moves: vec!["7g7f".into(), "3c3d".into()]
        })
    );
    assert_eq!(
        spec("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r 1 moves G*5b"),
        Ok(PositionSpec {
            base: PositionBase::Sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r 1".into()),
            moves: vec!["G*5b".into()]
        })
    );
    assert_eq!(
        spec("position sfen a   b c moves"),
        Ok(PositionSpec {
            base: PositionBase::Sfen("a b c".into()),
            moves: vec![]
        })
    );
    for bad in [
        "position",
        "position moves 7g7f",
        "position startpos 7g7f",
        "position sfen",
        "position sfen moves 7g7f",
        "position 4k4 b - 1",
    ] {
        assert!(spec(bad).is_err(), "{bad}");
    }
}

/// cshogi's `engine.position(sfen=S)` sends `position <S>` without the
/// `sfen` word; it is read as `position sfen <S>`, with a note.
#[test]
fn bare_sfen_after_position() {
    let p = parse("position 4k4/9/9/9/9/9/9/9/9 b G 1 moves G*5b");
    assert_eq!(
        p.command,
        Command::Position(Ok(PositionSpec {
            base: PositionBase::Sfen("4k4/9/9/9/9/9/9/9/9 b G 1".into()),
            moves: vec!["G*5b".into()]
        }))
    );
    assert!(p.notes[0].contains("'sfen' missing"), "{:?}", p.notes);
}

#[test]
fn go_mate() {
    let mate = |l: &str| match cmd(l) {
        Command::Go(g) => g.mate,
        c => panic!("{c:?}"),
    };
    assert_eq!(mate("go mate 1000"), Some(MateTime::Millis(1000)));
    assert_eq!(mate("go mate 0"), Some(MateTime::Millis(0)));
    assert_eq!(mate("go mate infinite"), Some(MateTime::Infinite));
    assert_eq!(mate("go mate"), Some(MateTime::Infinite));
    assert_eq!(mate("go mate nodes 5"), Some(MateTime::Infinite));
    assert_eq!(
        mate("go mate 99999999999999999999999"),
        Some(MateTime::Millis(u64::MAX))
    );
    assert_eq!(mate("go mate abc"), Some(MateTime::Invalid("abc".into())));
    assert_eq!(mate("go mate -5"), Some(MateTime::Invalid("-5".into())));
    assert_eq!(mate("go btime 5"), None);
    let p = parse("go mate 300 junk");
    assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
}

#[test]
fn go_params() {
    let Command::Go(g) =
        cmd("go ponder btime 100 wtime 200 byoyomi 3000 binc 1 winc 2 movetime 7 nodes 9")
    else {
        panic!()
    };
    assert!(g.ponder && !g.infinite && g.mate.is_none());
    assert_eq!(
        (g.btime, g.wtime, g.byoyomi, g.binc, g.winc, g.movetime, g.nodes),
        (
            Some(100),
            Some(200),
            Some(3000),
            Some(1),
            Some(2),
            Some(7),
            Some(9)
        )
    );
    let p = parse("go infinite btime x wtime depth 3");
    let Command::Go(g) = p.command else { panic!() };
    assert!(g.infinite);
    assert_eq!((g.btime, g.wtime), (None, None));
    // 'btime x' (bad value), 'wtime' (no value), 'depth' (unsupported), '3' (stray).
    assert_eq!(p.notes.len(), 4, "{:?}", p.notes);
}

#[test]
fn quote_clips() {
    assert_eq!(quote("abc"), "abc");
    let long = "x".repeat(100);
    assert_eq!(quote(&long).len(), QUOTE_MAX + 3);
    let wide = "日".repeat(100);
    assert_eq!(quote(&wide).chars().count(), QUOTE_MAX + 3);
}

#[test]
fn non_ascii_never_panics() {
    for l in [
        "setoption name 日本 value 語",
        "position sfen 日本 moves 語",
        "go mate 日本",
        "\u{FFFD}\u{0}",
        "go\u{a0}mate",
    ] {
        let _ = parse(l);
    }
}
