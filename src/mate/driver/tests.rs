use super::rounds::{failed_round_news, next_limit};
use super::*;
use crate::mate::line;
use crate::mate::{SearchResult, Solver, Threshold};
use std::sync::atomic::AtomicBool;

const USELESS_INTERPOSITIONS: &str = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1";

/// A line that cannot be read after a round proved a shorter mate must not end the
/// shortest-mate search: the bound is proven either way. It did end it, and long-ge50's
/// 353-ply horse-circling problem with six threads (4 runs in about 80 under load) was
/// answered "mate within 357 to 379, none shorter refuted" a few seconds into a 120 s
/// budget, with a 233-ply line read by stored lengths. Here the first proof's line is read
/// and every later reading fails: the rounds must still go down to the minimum (5: the
/// first proof is 9 plies, rounds prove 7 and 5 and refute 3) and read its exact line.
#[test]
fn unreadable_shorter_line_does_not_end_the_rounds() {
    let pos = Position::from_sfen("7nk/9/9/9/9/9/9/9/9 b 2RB2G2S 1").unwrap();
    let mut solver = Solver::new(16);
    super::reading::READS_LEFT.with(|r| r.set(Some(1)));
    let r = solver.solve(
        &pos,
        &Limits::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let refused = super::reading::READS_LEFT.with(|r| r.replace(None)) == Some(0);
    assert!(refused, "the rounds never read a line");
    let Outcome::Mate(line) = r.outcome else {
        panic!("{:?}", r.outcome)
    };
    let st = r.status.unwrap();
    assert_eq!((st.lower, st.upper), (5, 5), "{st:?}");
    assert_eq!(line.len(), 5);
    line::verify(&pos, &line, Color::Black).unwrap();
    assert!(st.established(), "{st:?}");
}

/// `--threshold kh` looped for good in the shortest-mate rounds; the rule
/// is gone, and the default rule's post-search ends on the same problem.
#[test]
fn kh_threshold_dropped_and_post_search_ends() {
    assert_eq!(Threshold::parse("kh"), None);
    let mut solver = Solver::new(16);
    let pos = Position::from_sfen(USELESS_INTERPOSITIONS).unwrap();
    let limits = Limits {
        nodes: Some(2_000_000),
        ..Limits::default()
    };
    let r = solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
    assert!(
        matches!(&r.outcome, Outcome::Mate(l) if l.len() == 9),
        "{:?}",
        r.outcome
    );
    assert!(r.status.unwrap().established());
}

/// The pn for depth (`--threshold eps:0.5,depth:<k>`) changes the search, not its answers: at
/// one more pn a ply (the most it can add) the same problem still ends in its proven 9-ply
/// minimum, after a different number of nodes than the default's.
#[test]
fn depth_pn_changes_the_search_not_the_answer() {
    let pos = Position::from_sfen(USELESS_INTERPOSITIONS).unwrap();
    let limits = Limits {
        nodes: Some(2_000_000),
        ..Limits::default()
    };
    let mut nodes = Vec::new();
    for depth_pn in [0, 1] {
        let mut solver = Solver::new(16);
        solver.threshold.depth_pn = depth_pn;
        let r = solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        let Outcome::Mate(line) = &r.outcome else {
            panic!("depth_pn {depth_pn}: {:?}", r.outcome)
        };
        assert_eq!(line.len(), 9, "depth_pn {depth_pn}");
        line::verify(&pos, line, Color::Black).unwrap();
        assert!(r.status.unwrap().established(), "depth_pn {depth_pn}");
        nodes.push(r.stats.nodes);
    }
    assert_ne!(nodes[0], nodes[1], "the switch did not reach the search");
}

/// A round that fails below the bound announces the interval it leaves, or the length once
/// the interval is closed.
#[test]
fn failed_rounds_announce_what_is_left() {
    assert_eq!(
        failed_round_news(271, 273, 399),
        "no mate within 271 plies: the shortest mate takes 273 to 399"
    );
    assert_eq!(
        failed_round_news(351, 353, 353),
        "no mate within 351 plies: the shortest mate takes 353"
    );
}

/// The next round's limit gallops down from the proven bound while rounds find
/// mates, then halves the interval; it always keeps the parity of the mates and stays
/// within [lower, upper - 2], so a failure at it proves `lower = limit + 2`. The figures are
/// long-ge50 row 1's rounds (first proof 533, minimum 353).
#[test]
fn next_limit_gallops_then_bisects() {
    assert_eq!(next_limit(1, 533, 1, false), 531);
    assert_eq!(next_limit(1, 523, 2, false), 519);
    assert_eq!(next_limit(1, 399, 64, false), 271);
    assert_eq!(next_limit(1, 9, 8, false), 1, "never below the lower bound");
    assert_eq!(next_limit(273, 399, 128, true), 335);
    assert_eq!(next_limit(353, 367, 1, true), 359);
    assert_eq!(next_limit(353, 357, 1, true), 355, "two left: the top one");
    assert_eq!(next_limit(353, 355, 1, true), 353, "one left");
    for lower in (0..40).step_by(1) {
        for upper in ((lower + 2)..90).step_by(2) {
            for step in [1, 2, 4, 64] {
                for bisect in [false, true] {
                    let l = next_limit(lower, upper, step, bisect) as usize;
                    assert!(
                        l >= lower && l + 2 <= upper,
                        "{lower} {upper} {step} {bisect}"
                    );
                    assert_eq!((upper - l) % 2, 0);
                }
            }
        }
    }
}

/// `--nodes 10` searched 256 nodes (the polling interval).
#[test]
fn node_limit_is_exact() {
    let mut solver = Solver::new(16);
    let pos = Position::from_sfen(USELESS_INTERPOSITIONS).unwrap();
    for n in [1, 10, 300] {
        let limits = Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        let r = solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        assert_eq!(r.stats.nodes, n);
        if n < 100 {
            assert_eq!(r.outcome, Outcome::Unknown(UnknownReason::Nodes));
        } else {
            // Mate proven, then stopped in the shortest-mate rounds: not minimal.
            assert!(!r.status.unwrap().minimal());
        }
        solver.clear();
    }
}

/// A search stopped during the shortest-mate rounds returned its line
/// with nothing said about it. The status says the shortest is not proven.
#[test]
fn stopped_shortest_search_reports_an_interval() {
    let mut solver = Solver::new(16);
    let pos = Position::from_sfen(USELESS_INTERPOSITIONS).unwrap();
    let first = solver.solve(
        &pos,
        &Limits {
            post_search: PostSearch::None,
            ..Limits::default()
        },
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let Outcome::Mate(line) = first.outcome else {
        panic!("{:?}", first.outcome)
    };
    let st = first.status.unwrap();
    // Without a post-search nothing shorter was refuted.
    assert!(!st.minimal() && !st.established(), "{st:?}");
    assert!(
        st.describe().contains("shortest mate not proven"),
        "{}",
        st.describe()
    );
    assert_eq!(st.line_len as usize, line.len());
}

/// A composed answer names each of its two lengths: the composers' count (the line shown)
/// and the strict count (what the search proved), each with what is proven of it. The
/// sentence used to open with "mate in 9: shortest proven" beside a 3-ply line, stating
/// the strict length as the line's.
#[test]
fn composed_answer_labels_the_composer_and_the_strict_count() {
    let mut solver = Solver::new(16);
    let pos = Position::from_sfen(USELESS_INTERPOSITIONS).unwrap();
    let limits = Limits {
        post_search: PostSearch::Composer,
        ..Limits::default()
    };
    let r = solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
    let Outcome::Mate(line) = r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!(line.len(), 3);
    let text = r.status.unwrap().describe();
    let (composer, strict) = text
        .split_once("; strict count (every defence counted): ")
        .unwrap_or_else(|| panic!("no labelled strict count: {text}"));
    assert!(
        composer.starts_with("composer's count: 3 plies, the line shown"),
        "{text}"
    );
    assert!(!composer.contains('9'), "{text}");
    assert_eq!(strict, "mate in 9, shortest proven", "{text}");
}

/// Solves `sfen` with at most `max_plies` plies (the default post-search).
fn solve_within(sfen: &str, max_plies: u32) -> SearchResult {
    let pos = Position::from_sfen(sfen).unwrap();
    let limits = Limits {
        max_plies: Some(max_plies),
        ..Limits::default()
    };
    let r = Solver::new(16).solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
    if let Outcome::Mate(line) = &r.outcome {
        line::verify(&pos, line, pos.side_to_move()).unwrap();
    }
    r
}

/// `max_plies` answers "is there a mate within N plies?": a mate within N (the shortest,
/// proven, with the post-search), else a proven "no mate within N", never "no mate".
#[test]
fn max_plies_proves_or_refutes_a_mate_within_the_limit() {
    // A mate in 3 (mate3-11.tsv's first row, written here).
    const MATE3: &str =
        "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";
    for (sfen, n, mate) in [
        (MATE3, 3, Some(3)),
        (MATE3, 4, Some(3)),
        (MATE3, 1, None),
        (USELESS_INTERPOSITIONS, 9, Some(9)),
        (USELESS_INTERPOSITIONS, 7, None),
        (USELESS_INTERPOSITIONS, 8, None),
        ("7nk/9/9/9/9/9/9/9/9 b 2RB2G2S 1", 3, None),
        ("7nk/9/9/9/9/9/9/9/9 b 2RB2G2S 1", 5, Some(5)),
    ] {
        let r = solve_within(sfen, n);
        match mate {
            Some(len) => {
                assert!(
                    matches!(&r.outcome, Outcome::Mate(l) if l.len() == len),
                    "{sfen} within {n}: {:?}",
                    r.outcome
                );
                let st = r.status.unwrap();
                assert!(st.established(), "{sfen} within {n}: {st:?}");
            }
            None => assert_eq!(
                r.outcome,
                Outcome::Unknown(UnknownReason::NoMateWithin(n)),
                "{sfen} within {n}"
            ),
        }
    }
}

/// Under a length limit a position with no mate at all is still "no mate", proven; and
/// the "no mate within" answer says in words that longer mates were not searched.
#[test]
fn max_plies_keeps_a_proof_of_no_mate_and_words_the_bound() {
    // Black has no checks at all.
    let r = solve_within("4k4/9/9/9/9/9/9/9/4K4 b - 1", 5);
    assert_eq!(r.outcome, Outcome::NoMate);
    assert_eq!(
        UnknownReason::NoMateWithin(7).to_string(),
        "no mate within 7 plies (proven; longer mates not searched)"
    );
}

/// A defender-to-move root (the attacker has no king) is searched as a
/// defender node; the line starts with the defender's move and has even length.
#[test]
fn defender_to_move_root() {
    // After B*1c of the example: White to move, Black has no king.
    let mut pos =
        Position::from_sfen("7l1/9/4g1+P2/6S1g/6k2/5ppp1/9/9/9 b BGS2rbg2s4n3l14p 1").unwrap();
    pos.do_move(Move::from_usi("B*1c").unwrap());
    let mut solver = Solver::new(16);
    let r = solver.solve(
        &pos,
        &Limits::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(r.defender_root);
    let Outcome::Mate(line) = r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!(line.len() % 2, 0);
    line::verify(&pos, &line, pos.side_to_move().flip()).unwrap();
    assert!(r.status.unwrap().established());
}

/// After `Solver::new_game` a solver answers as a new one, node for node: the table's earlier
/// generation, the remembered mate and the repetition failures are all forgotten, though
/// nothing of the table is written. A warm solver (no new game) answers the same position in
/// fewer nodes, so the test tells the two apart.
#[test]
fn a_new_game_searches_as_a_new_solver() {
    let pos = Position::from_sfen(USELESS_INTERPOSITIONS).unwrap();
    let solve = |s: &mut Solver| {
        let r = s.solve(
            &pos,
            &Limits::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        (format!("{:?}", r.outcome), r.stats.nodes)
    };
    let fresh = solve(&mut Solver::new(16));
    let mut solver = Solver::new(16);
    assert_eq!(solve(&mut solver), fresh);
    let warm = solve(&mut solver);
    assert_eq!(warm.0, fresh.0);
    assert!(warm.1 < fresh.1, "warm {warm:?}, fresh {fresh:?}");
    for _ in 0..3 {
        solver.new_game();
        assert_eq!(solver.hashfull(), 0);
        assert_eq!(solve(&mut solver), fresh);
    }
}

/// The path cap fails a path at the cap on that path alone: a mate longer than the cap is
/// "undecided" (`PathCap`), never "no mate", with one thread or two, and with room for the
/// line the same search finds it.
#[test]
fn a_mate_past_the_path_cap_is_undecided_never_no_mate() {
    let pos = Position::from_sfen(USELESS_INTERPOSITIONS).unwrap();
    for threads in [1, 2] {
        for (cap, mate) in [(4, false), (6, false), (12, true)] {
            let mut solver = Solver::new(16);
            solver.set_threads(threads);
            solver.threshold.depth_cap = cap;
            let stop = AtomicBool::new(false);
            let r = solver.solve(&pos, &Limits::default(), &stop, &mut |_| {});
            if mate {
                let Outcome::Mate(l) = &r.outcome else {
                    panic!("cap {cap}, {threads} threads: {:?}", r.outcome)
                };
                assert_eq!(l.len(), 9, "cap {cap}");
                line::verify(&pos, l, pos.side_to_move()).unwrap();
            } else {
                assert_eq!(
                    r.outcome,
                    Outcome::Unknown(UnknownReason::PathCap(cap)),
                    "cap {cap}, {threads} threads"
                );
            }
        }
    }
}
