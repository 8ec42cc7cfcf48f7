use super::*;

fn parse_ok(s: &str) -> Cli {
    let v: Vec<String> = s.split_whitespace().map(String::from).collect();
    Cli::try_parse_from(std::iter::once("tsumugi".to_string()).chain(v)).unwrap()
}

fn parse_err(s: &str) -> String {
    let v: Vec<String> = s.split_whitespace().map(String::from).collect();
    Cli::try_parse_from(std::iter::once("tsumugi".to_string()).chain(v))
        .unwrap_err()
        .to_string()
}

#[test]
fn solve_positions_and_options() {
    let Some(Command::Solve(a)) =
        parse_ok("solve --hash-mb 16 4k4/9/9/9/9/9/9/9/9 b - 1 --time-ms 5").command
    else {
        panic!()
    };
    assert_eq!(a.position.len(), 4);
    assert_eq!(a.search.hash_mb, 16);
    assert_eq!(a.search.time_ms, Some(5));
    let Some(Command::Solve(a)) =
        parse_ok("solve --sfen 4k4/9/9/9/9/9/9/9/9 b - 1 --threads 1").command
    else {
        panic!()
    };
    assert_eq!(a.sfen.unwrap().len(), 4);
    assert_eq!(a.search.threads, Some(1));
    let Some(Command::Solve(a)) =
        parse_ok("solve --batch - --jobs 2 --shard 1/3 --ordered").command
    else {
        panic!()
    };
    assert_eq!(a.shard, Some((1, 3)));
    assert_eq!(a.jobs, Some(2));
}

#[test]
fn bad_arguments_name_themselves() {
    assert!(parse_err("solve --hash-mb").contains("--hash-mb"));
    assert!(parse_err("solve --hash-mb 0 startpos").contains("--hash-mb"));
    assert!(parse_err("solve --threads 0 startpos").contains("--threads"));
    assert!(parse_err("solve --batch x --shard 3/3").contains("--shard"));
    assert!(parse_err("solve --batch x startpos").contains("--batch"));
    assert!(parse_err("solve --threshold kh x").contains("dropped"));
    assert!(parse_err("solve --format xml x").contains("--format"));
    assert!(parse_err("bench extra").contains("extra"));
    assert!(parse_err("bench --threads 257").contains("--threads"));
    assert!(parse_err("perft 13").contains("13"));
    assert!(parse_err("frobnicate").contains("frobnicate"));
}

#[test]
fn negative_numbers_are_refused_naming_the_option() {
    for (args, opt) in [
        ("solve --hash-mb -1 startpos", "--hash-mb"),
        ("solve --time-ms -5 startpos", "--time-ms"),
        ("solve --nodes -5 startpos", "--nodes"),
        ("solve --threads -2 startpos", "--threads"),
        ("solve --batch x --jobs -1", "--jobs"),
        ("check --hash-mb -1 startpos", "--hash-mb"),
        ("check --time-ms -1 startpos", "--time-ms"),
        ("bench --hash-mb -1", "--hash-mb"),
        ("bench --threads -1", "--threads"),
        ("kikazu --threads -1", "--threads"),
        ("kikazu --time-ms -1", "--time-ms"),
    ] {
        let e = parse_err(args);
        assert!(e.contains(opt), "{args}: {e}");
        assert!(!e.contains("unexpected argument"), "{args}: {e}");
        assert!(e.contains("whole number"), "{args}: {e}");
    }
    assert!(parse_err("perft -1").contains("DEPTH"));
}

#[test]
fn zero_time_and_nodes_are_accepted_everywhere() {
    let Some(Command::Check(c)) = parse_ok("check --time-ms 0 startpos").command else {
        panic!()
    };
    assert_eq!(c.time_ms, 0);
    let Some(Command::Solve(a)) = parse_ok("solve --time-ms 0 --nodes 0 startpos").command else {
        panic!()
    };
    // Read as no limit by `kit::search::limits_of` (tested there).
    assert_eq!((a.search.time_ms, a.search.nodes), (Some(0), Some(0)));
    let Some(Command::Kikazu(k)) = parse_ok("kikazu --time-ms 0").command else {
        panic!()
    };
    assert_eq!(k.time_ms, Some(0));
}

#[test]
fn usage_hint_names_every_subcommand() {
    let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    assert_eq!(subcommand_of(&args("check --frobnicate x")), "check");
    assert_eq!(subcommand_of(&args("solve --frobnicate x")), "solve");
    assert_eq!(subcommand_of(&args("kikazu --frobnicate")), "kikazu");
    assert_eq!(subcommand_of(&args("frobnicate")), "");
    assert_eq!(subcommand_of(&args("--frobnicate")), "");
}

#[test]
fn help_of_help_is_the_top_level_help() {
    let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    assert_eq!(parse(&args("help --help")).unwrap_err(), ExitCode::SUCCESS);
    assert_eq!(parse(&args("help -h")).unwrap_err(), ExitCode::SUCCESS);
    assert_eq!(parse(&args("help check")).unwrap_err(), ExitCode::SUCCESS);
}

#[test]
fn check_help_shows_plain_quotes() {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    let check = cmd.find_subcommand_mut("check").unwrap();
    let help = check.render_long_help().to_string();
    assert!(help.contains("(\"2b2a+ 3a2a G*2b\")"), "{help}");
    assert!(!help.contains('\\'), "{help}");
}

#[test]
fn long_arguments_are_cut_in_messages() {
    let long = "x".repeat(100_000);
    let m = clip_message(&format!("invalid value '{long}' for '--hash-mb <M>'"));
    assert!(m.len() < 300, "{}", m.len());
    assert!(m.contains("--hash-mb") && m.contains("xxx..."), "{m}");
    let m = clip_message(&"word ".repeat(50_000));
    assert!(m.len() < 700 && !m.contains('\n'));
    assert_eq!(clip_message("short 'one'"), "short 'one'");
    // A long path keeps its file name.
    let path = format!("'/{}/missing.kif':", "d".repeat(300));
    let m = clip_message(&format!("{path} file not found"));
    assert!(
        m.ends_with("/missing.kif': file not found") && m.len() < 200,
        "{m}"
    );
}

#[test]
fn kikazu_options() {
    let Some(Command::Kikazu(k)) = parse_ok("kikazu").command else {
        panic!()
    };
    assert_eq!(k.pieces, "P18L4N4S4G4K2R2B2");
    assert_eq!(k.board, "9x9");
    assert!(!k.count && !k.all && !k.bidirectional);
    let Some(Command::Kikazu(k)) =
        parse_ok("kikazu --pieces P3 --bidirectional --count --threads 2").command
    else {
        panic!()
    };
    assert!(k.count && k.bidirectional);
    assert_eq!(k.threads, Some(2));
    assert!(parse_err("kikazu --count --all").contains("--all"));
    assert!(parse_err("kikazu --picture").contains("--all"));
    assert!(parse_err("kikazu --threads 0").contains("--threads"));
}

/// The table sizes the command line offers, as they were when each command wrote its own:
/// 256 MB for `solve` and `check`, 16 MB for `bench`, any size from 1 MB to 1 TB (the memory
/// cap at allocation decides what is used).
#[test]
fn hash_sizes_of_every_command() {
    let Some(Command::Solve(a)) = parse_ok("solve startpos").command else {
        panic!()
    };
    assert_eq!(a.search.hash_mb, 256);
    let Some(Command::Check(c)) = parse_ok("check startpos").command else {
        panic!()
    };
    assert_eq!(c.hash_mb, 256);
    for sub in ["solve startpos", "check startpos", "bench"] {
        let Some(cmd) = parse_ok(&format!("{sub} --hash-mb 1048576")).command else {
            panic!()
        };
        let mb = match cmd {
            Command::Solve(a) => a.search.hash_mb,
            Command::Check(c) => c.hash_mb,
            Command::Bench(b) => b.hash_mb,
            _ => unreachable!(),
        };
        assert_eq!(mb, 1 << 20, "{sub}");
        for bad in ["0", "1048577"] {
            let e = parse_err(&format!("{sub} --hash-mb {bad}"));
            assert!(e.contains("from 1 to 1048576"), "{sub} {bad}: {e}");
        }
    }
}

#[test]
fn bench_defaults() {
    let Some(Command::Bench(b)) = parse_ok("bench").command else {
        panic!()
    };
    assert_eq!(
        b,
        BenchArgs {
            hash_mb: 16,
            threads: 1
        }
    );
}
