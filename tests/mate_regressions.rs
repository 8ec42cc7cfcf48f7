//! Named regression tests of the mate search.
//!
//! Positions constructed here or quoted from published articles are embedded; the
//! tagged rule cases of `rules-tricky.tsv` are read from `$TSUMUGI_PROBLEMS` (default
//! `../shared/problems`) by tag, and those tests are reported as ignored, with the path, when
//! the set is absent (`common::harness`). Every mate line is replay-verified by the solver; here we re-check it with the full
//! legal move generator and compare its length with the set's strict (every defence counted)
//! shortest length.

mod common;
use common::harness;
use common::problems::{set_rows, Row};

use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tsumugi::mate::{Limits, Outcome, PostSearch, Solver};
use tsumugi::shogi::{Move, Position};

fn solve_with(solver: &mut Solver, sfen: &str, post: PostSearch, secs: u64) -> Outcome {
    let pos = Position::from_sfen(sfen).expect("valid SFEN");
    let limits = Limits {
        time: Some(Duration::from_secs(secs)),
        post_search: post,
        // The problem sets' side to move is the attacker, in check or not (SOURCES.md).
        root_is_and_if_checked: false,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    solver.solve(&pos, &limits, &stop, &mut |_| {}).outcome
}

fn solve(sfen: &str) -> Outcome {
    solve_with(&mut common::solver(32), sfen, PostSearch::Shortest, 20)
}

/// Independent replay: legal moves, attacker checks, final checkmate.
fn assert_mate_line(sfen: &str, line: &[Move]) {
    let mut pos = Position::from_sfen(sfen).unwrap();
    assert!(line.len() % 2 == 1, "{sfen}: even line {line:?}");
    for (i, &m) in line.iter().enumerate() {
        assert!(
            pos.legal_move_list().contains(m),
            "{sfen}: ply {} {m} illegal",
            i + 1
        );
        pos.do_move(m);
        if i % 2 == 0 {
            assert!(pos.in_check(), "{sfen}: ply {} {m} is not a check", i + 1);
        }
    }
    assert!(
        pos.in_check() && pos.legal_move_list().is_empty(),
        "{sfen}: not mate"
    );
}

fn expect_mate(sfen: &str, len: usize) -> Vec<Move> {
    match solve(sfen) {
        Outcome::Mate(line) => {
            assert_mate_line(sfen, &line);
            assert_eq!(line.len(), len, "{sfen}: line {line:?}");
            line
        }
        o => panic!("{sfen}: expected a mate in {len}, got {o:?}"),
    }
}

fn double_count_stall_is_solved_within_a_small_budget() {
    // The position on which a plain df-pn stalled by summing one subtree twice
    // (a df-pn solver without the fix timed out on it). It must be solved within a small node budget.
    let sfen = "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1";
    let pos = Position::from_sfen(sfen).unwrap();
    let limits = Limits {
        nodes: Some(200_000),
        post_search: PostSearch::None,
        // The problem sets' side to move is the attacker, in check or not (SOURCES.md).
        root_is_and_if_checked: false,
        ..Limits::default()
    };
    let r = common::solver(32).solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
    match r.outcome {
        Outcome::Mate(line) => assert_mate_line(sfen, &line),
        o => panic!("stalled: {o:?} after {} nodes", r.stats.nodes),
    }
}

fn white_to_move_head_gold() {
    // Constructed: White drops a gold on the Black king's head, supported by its pawn.
    let line = expect_mate("9/9/9/9/9/9/4p4/9/4K4 w g 1", 1);
    assert_eq!(line[0].to_string(), "G*5h");
}

fn perpetual_check_is_no_mate() {
    // Constructed: a lone rook can check forever but never mates; every line repeats.
    assert_eq!(solve("8k/9/9/9/9/9/9/9/R8 b - 1"), Outcome::NoMate);
    // A rook and a gold against a king in the open: still only perpetual checks.
    assert_eq!(solve("9/9/9/9/4k4/9/9/9/R8 b G 1"), Outcome::NoMate);
}

fn no_check_at_root_is_nomate_at_once() {
    assert_eq!(solve("4k4/9/9/9/9/9/9/9/9 b - 1"), Outcome::NoMate);
}

fn useless_interpositions_counted_in_the_strict_length() {
    // Composers count 3 plies (useless interpositions not counted); with every legal
    // defence counted the shortest mate is 9 plies (three useless pawn interpositions).
    expect_mate("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1", 9);
}

fn attacker_in_check_must_answer_with_check() {
    // Constructed: Black's king is checked by a White rook on its file; the only answer that
    // also checks is the gold capturing it... here we only require a verified mate or nomate and
    // that every first move answers the check (checked by replay legality).
    let sfen = "4k4/9/4G4/9/9/9/9/4r4/4K4 b G 1";
    match solve(sfen) {
        Outcome::Mate(line) => assert_mate_line(sfen, &line),
        Outcome::NoMate => {}
        o => panic!("{o:?}"),
    }
}

/// The rows of rules-tricky.tsv (`None`, said on stderr, without the problem sets).
fn rules_tricky() -> Vec<Row> {
    set_rows("rules-tricky.tsv")
}

/// Rows of rules-tricky.tsv carrying `tag`: (sfen, expected strict length or "nomate").
fn tagged(tag: &str) -> Vec<(String, String)> {
    {
        rules_tricky()
            .iter()
            .filter(|r| r.fields.len() > 2 && r.field(2).split(',').any(|t| t.starts_with(tag)))
            .map(|r| (r.sfen().to_string(), r.field(1).to_string()))
            .collect()
    }
}

/// Solves every row with one shared solver (so results of one may leak into the next if the
/// table were wrong), then checks answers and strict shortest lengths.
fn check_tag(tag: &str, secs: u64) {
    let rows = tagged(tag);
    assert!(!rows.is_empty(), "no rows tagged {tag}");
    let mut solver = common::solver(64);
    let mut bad = vec![];
    for (sfen, exp) in &rows {
        if Position::from_sfen(sfen).is_err() {
            eprintln!("  {tag}: SFEN rejected by validation (not counted): {sfen}");
            continue;
        }
        let out = solve_with(&mut solver, sfen, PostSearch::Shortest, secs);
        let ok = match (&out, exp.as_str()) {
            (Outcome::NoMate, "nomate") => true,
            (Outcome::Mate(line), e) if e != "nomate" => {
                assert_mate_line(sfen, line);
                line.len().to_string() == e
            }
            _ => false,
        };
        eprintln!(
            "  {tag}: {} expected {exp} got {}",
            if ok { "ok  " } else { "FAIL" },
            match &out {
                Outcome::Mate(l) => format!("mate {}", l.len()),
                o => format!("{o:?}"),
            }
        );
        if !ok {
            bad.push(format!("{sfen}: expected {exp}, got {out:?}"));
        }
    }
    assert!(bad.is_empty(), "{tag}: {bad:#?}");
}

fn rules_non_promotion() {
    check_tag("non_promotion", 10);
}

fn rules_pawn_drop_mate() {
    check_tag("pawn_drop_mate", 10);
}

fn rules_perpetual_check_and_ghi() {
    check_tag("perpetual_check", 10);
}

fn rules_attacker_in_check_at_root() {
    check_tag("root_in_check", 10);
}

fn rules_nifu_and_illegal_drop_rank() {
    check_tag("nifu", 10);
    check_tag("illegal_drop_rank", 10);
}

fn rules_valid_interposition() {
    check_tag("valid_interposition", 10);
}

/// GHI: a position on a proven line is itself a mate, whatever the table learnt on other paths.
/// Solve each perpetual-check case, then every attacker-to-move position along its line with
/// the same (warm) table, and require a mate each time.
fn ghi_positions_on_a_mate_line_stay_mates_with_a_warm_table() {
    let rows = tagged("perpetual_check");
    let mut solver = common::solver(64);
    for (sfen, exp) in rows.iter().filter(|(_, e)| e != "nomate") {
        let Outcome::Mate(line) = solve_with(&mut solver, sfen, PostSearch::None, 10) else {
            panic!("{sfen}: expected mate {exp}");
        };
        let mut pos = Position::from_sfen(sfen).unwrap();
        for (i, &m) in line.iter().enumerate() {
            pos.do_move(m);
            if i % 2 == 1 {
                let sub = pos.to_sfen();
                match solve_with(&mut solver, &sub, PostSearch::None, 10) {
                    Outcome::Mate(l) => assert_mate_line(&sub, &l),
                    o => panic!("{sub} (ply {} of {sfen}): {o:?}", i + 1),
                }
            }
        }
    }
}

fn composer_answer_omits_useless_interpositions() {
    // Other solvers answer this 3-ply problem with 11 plies of useless interpositions.
    let sfen = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1";
    match solve_with(&mut common::solver(32), sfen, PostSearch::Composer, 20) {
        Outcome::Mate(line) => {
            let text: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            assert_eq!(text.join(" "), "G*3i 2h1i 3g1g");
        }
        o => panic!("{o:?}"),
    }
}

/// rules-tricky.tsv rows: (sfen, strict length, source label, tags).
fn rows_with_labels() -> Vec<(String, String, String, String)> {
    {
        rules_tricky()
            .iter()
            .map(|r| {
                let get = |i: usize| r.field(i).to_string();
                (get(0), get(1), get(5), get(2))
            })
            .collect()
    }
}

/// Useless interpositions omitted: where the source's own label is a number (the composer's
/// convention, e.g. antma's "futile drops" counted as mate in 1), the composer answer has that
/// length; and where the longest defence is a valid interposition (the captured piece is
/// needed later), the composer answer keeps it, so its length is the strict one.
fn composer_lengths_match_source_labels_and_keep_valid_interpositions() {
    let rows = rows_with_labels();
    let mut solver = common::solver(64);
    let mut checked = 0;
    for (sfen, strict, label, tags) in rows {
        let want = if tags.contains("valid_interposition") && strict.parse::<usize>().is_ok() {
            strict.clone()
        } else if label.parse::<usize>().is_ok() && tags.contains("futile") {
            label.clone()
        } else {
            continue;
        };
        if Position::from_sfen(&sfen).is_err() {
            continue;
        }
        let got = match solve_with(&mut solver, &sfen, PostSearch::Composer, 20) {
            Outcome::Mate(l) => l.len().to_string(),
            o => format!("{o:?}"),
        };
        eprintln!("  composer {sfen}: want {want} (strict {strict}) got {got}");
        assert_eq!(got, want, "{sfen} ({tags})");
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} rows checked");
}

/// (sfen, known strict length) of the first `n` rows of a set.
fn first_rows(file: &str, n: usize) -> Vec<(String, usize)> {
    set_rows(file)
        .iter()
        .filter_map(|r| Some((r.sfen().to_string(), r.field(1).parse().ok()?)))
        .take(n)
        .collect()
}

fn spare_at_end(sfen: &str, line: &[Move]) -> u32 {
    let mut p = Position::from_sfen(sfen).unwrap();
    let attacker = p.side_to_move();
    for &m in line {
        p.do_move(m);
    }
    p.hand(attacker).total()
}

/// Spare-pieces tie-break (駒余り): at every defender move of an answer, each other defence is
/// solved on its own; one that is mated in exactly as many plies must not leave the attacker
/// fewer spare pieces at the end than the answer does. On the first 300 mate3-11 problems
/// some equally long defences leave more spare pieces (the tie-break had a choice to make),
/// and the composer answer never leaves more than the strict one.
fn spare_pieces_tie_break() {
    let rows = first_rows("mate3-11.tsv", 300);
    let mut solver = common::solver(64);
    let mut alt_solver = common::solver(16);
    let mut choices = 0;
    for (sfen, _) in &rows {
        let Outcome::Mate(strict) = solve_with(&mut solver, sfen, PostSearch::Shortest, 10) else {
            continue;
        };
        let spare = spare_at_end(sfen, &strict);
        let mut pos = Position::from_sfen(sfen).unwrap();
        for (i, &m) in strict.iter().enumerate() {
            if i % 2 == 1 {
                let rest = strict.len() - i;
                for &e in pos.legal_move_list().as_slice() {
                    if e == m {
                        continue;
                    }
                    let mut p = pos.clone();
                    p.do_move(e);
                    let alt_sfen = p.to_sfen();
                    alt_solver.clear();
                    let Outcome::Mate(alt) =
                        solve_with(&mut alt_solver, &alt_sfen, PostSearch::Shortest, 10)
                    else {
                        panic!("{sfen}: defence {e} at ply {} not mated", i + 1);
                    };
                    assert!(
                        alt.len() < rest,
                        "{sfen}: defence {e} at ply {} lasts {} plies, the answer's {}",
                        i + 1,
                        alt.len() + 1,
                        rest
                    );
                    if alt.len() + 1 == rest {
                        let alt_spare = spare_at_end(&alt_sfen, &alt);
                        assert!(
                            alt_spare >= spare,
                            "{sfen}: defence {e} at ply {} is as long and leaves {alt_spare} \
                             spare pieces, the answer {spare}",
                            i + 1
                        );
                        if alt_spare > spare {
                            choices += 1;
                        }
                    }
                }
            }
            pos.do_move(m);
        }
        if let Outcome::Mate(composed) = solve_with(&mut solver, sfen, PostSearch::Composer, 10) {
            if composed.len() == strict.len() {
                let b = spare_at_end(sfen, &composed);
                assert!(
                    b <= spare,
                    "{sfen}: composer leaves {b} spare, strict {spare}"
                );
            }
        }
    }
    eprintln!("spare-pieces tie-break chose among {choices} equally long defences");
    assert!(choices > 0);
}

/// The shortest mate is often found only after a longer first proof: on the first 300
/// mate3-11 problems, some first proofs are longer than the known length and the post-search
/// brings every one of them down to it.
fn shortest_found_after_a_longer_first_proof() {
    let rows = first_rows("mate3-11.tsv", 300);
    let mut solver = common::solver(64);
    let mut longer_first = 0;
    for (sfen, known) in &rows {
        let Outcome::Mate(first) = solve_with(&mut solver, sfen, PostSearch::None, 10) else {
            panic!("{sfen}: no first proof");
        };
        if first.len() > *known {
            longer_first += 1;
            match solve_with(&mut solver, sfen, PostSearch::Shortest, 10) {
                Outcome::Mate(short) => assert_eq!(short.len(), *known, "{sfen}"),
                o => panic!("{sfen}: {o:?}"),
            }
        }
    }
    eprintln!(
        "{longer_first} of {} first proofs were longer than the shortest",
        rows.len()
    );
    assert!(longer_first > 0);
}

/// A mate that exists only through a lance's non-promotion (constructed; checked with cshogi
/// 1.1.0: `1e1c` mates, `1e1c+` gives no check). The unpromoted lance captures on 1c and checks
/// down the file through 1b; promoted, it moves like a gold and does not reach 1a.
fn lance_non_promotion_mate() {
    let sfen = "7lk/7p1/8p/9/8L/9/9/9/K8 b - 1";
    let line = expect_mate(sfen, 1);
    assert_eq!(line[0].to_string(), "1e1c");
    let pos = Position::from_sfen(sfen).unwrap();
    let mut checks = tsumugi::shogi::MoveList::new();
    pos.check_moves(&mut checks);
    let names: Vec<String> = checks.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        names,
        ["1e1c"],
        "the promotion 1e1c+ must not count as a check"
    );
}

const RULES_TRICKY: &[&str] = &["rules-tricky.tsv"];
const MATE3_11: &[&str] = &["mate3-11.tsv"];

fn main() {
    harness::run(vec![
        harness::test(
            "double_count_stall_is_solved_within_a_small_budget",
            double_count_stall_is_solved_within_a_small_budget,
        ),
        harness::test("white_to_move_head_gold", white_to_move_head_gold),
        harness::test("perpetual_check_is_no_mate", perpetual_check_is_no_mate),
        harness::test(
            "no_check_at_root_is_nomate_at_once",
            no_check_at_root_is_nomate_at_once,
        ),
        harness::test(
            "useless_interpositions_counted_in_the_strict_length",
            useless_interpositions_counted_in_the_strict_length,
        ),
        harness::test(
            "attacker_in_check_must_answer_with_check",
            attacker_in_check_must_answer_with_check,
        ),
        harness::needs_sets("rules_non_promotion", rules_non_promotion, RULES_TRICKY),
        harness::needs_sets("rules_pawn_drop_mate", rules_pawn_drop_mate, RULES_TRICKY),
        harness::needs_sets(
            "rules_perpetual_check_and_ghi",
            rules_perpetual_check_and_ghi,
            RULES_TRICKY,
        ),
        harness::needs_sets(
            "rules_attacker_in_check_at_root",
            rules_attacker_in_check_at_root,
            RULES_TRICKY,
        ),
        harness::needs_sets(
            "rules_nifu_and_illegal_drop_rank",
            rules_nifu_and_illegal_drop_rank,
            RULES_TRICKY,
        ),
        harness::needs_sets(
            "rules_valid_interposition",
            rules_valid_interposition,
            RULES_TRICKY,
        ),
        harness::needs_sets(
            "ghi_positions_on_a_mate_line_stay_mates_with_a_warm_table",
            ghi_positions_on_a_mate_line_stay_mates_with_a_warm_table,
            RULES_TRICKY,
        ),
        harness::test(
            "composer_answer_omits_useless_interpositions",
            composer_answer_omits_useless_interpositions,
        ),
        harness::needs_sets(
            "composer_lengths_match_source_labels_and_keep_valid_interpositions",
            composer_lengths_match_source_labels_and_keep_valid_interpositions,
            RULES_TRICKY,
        ),
        harness::needs_sets("spare_pieces_tie_break", spare_pieces_tie_break, MATE3_11),
        harness::needs_sets(
            "shortest_found_after_a_longer_first_proof",
            shortest_found_after_a_longer_first_proof,
            MATE3_11,
        ),
        harness::test("lance_non_promotion_mate", lance_non_promotion_mate),
    ]);
}
