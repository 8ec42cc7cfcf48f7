//! Each report item on a small constructed position (defender hands empty, so no
//! interpositions unless the test says so). Expectations are established by replaying moves
//! with the legal move generator, not by the check's own searches.

use super::*;

fn pos(sfen: &str) -> Position {
    crate::record::sfen::read_line(sfen).unwrap().position()
}

fn run(sfen: &str, solution: Option<&str>) -> Report {
    let p = pos(sfen);
    let opts = CheckOptions {
        solution: solution.map(|s| parse_solution(&p, s).unwrap()),
        // No wall-clock budget: every question is searched until decided, so a verdict never
        // depends on how loaded the machine is (a 10 s budget left one position undecided on
        // a busy 2-core machine). Each position here is decided in well under a second alone.
        time: None,
        hash_mb: 16,
        variations: true,
    };
    let stop = AtomicBool::new(false);
    crate::mate::with_search_stack(move || check(&p, &opts, &stop))
}

/// True when `moves` from `sfen` end in checkmate (replayed with the legal move generator).
fn mates(sfen: &str, moves: &str) -> bool {
    let p = pos(sfen);
    let line = parse_solution(&p, moves).unwrap();
    crate::mate::verify_mate_line(&p, &line, p.side_to_move()).is_ok()
}

fn usi(m: &[Move]) -> String {
    m.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// ▲１二金打 is the only mate (the pawn on 1c guards 1b): sound, nothing to note.
#[test]
fn sound_problem() {
    let r = run("8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", None);
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
    assert_eq!(usi(&r.line), "G*1b");
    assert!(r.findings.is_empty(), "{}", r.text());
    assert!(r.undecided.is_empty());
    assert_eq!((r.strict_lower, r.strict_upper), (Some(1), Some(1)));
}

/// Two silvers' squares mate at the last move: 最終手余詰, a note, not a flaw.
#[test]
fn last_move_alternative() {
    let sfen = "8k/9/7PP/9/9/9/9/9/9 b S2r2b4g3s4n4l16p 1";
    assert!(mates(sfen, "S*1b") && mates(sfen, "S*2b"));
    let r = run(sfen, None);
    let f: Vec<_> = r.of(FindingKind::LastMoveAlternative).collect();
    assert_eq!(f.len(), 1, "{}", r.text());
    assert_eq!(f[0].ply, 1);
    assert_ne!(f[0].moves[0], r.line[0]);
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
}

/// A second gold stays in hand: 駒余り, a flaw.
#[test]
fn spare_pieces() {
    let r = run("8k/9/8P/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1", None);
    let f: Vec<_> = r.of(FindingKind::SparePieces).collect();
    assert_eq!(f.len(), 1, "{}", r.text());
    assert_eq!(r.spare_at_end, 1);
    assert_eq!(r.verdict, Verdict::Flawed);
}

/// ▲１一金打 △同玉 ▲２二香成 ends with the silver in hand; △１三玉 lasts as long and is mated
/// in one only by a silver drop (▲２二銀打, ▲１四銀打, ▲２四銀打: every mate in one there, listed
/// with cshogi; ▲１五龍 is answered by an interposition on 1d, the defender holding the rest of
/// the set), so the defender, choosing among equal lengths, takes it: 駒余り by the defender's
/// choice, a flaw at ply 2.
#[test]
fn fewer_spare_defence() {
    let sfen = "9/8k/7L1/9/6N+R1/9/9/9/9 b GSr2b3g3s3n3l18p 1";
    let given = "G*1a 1b1a 2c2b+";
    assert!(mates(sfen, given) && mates(sfen, "G*1a 1b1c S*2b"));
    let r = run(sfen, Some(given));
    let f: Vec<_> = r.of(FindingKind::FewerSpareDefence).collect();
    assert_eq!(f.len(), 1, "{}", r.text());
    assert_eq!(
        (f[0].ply, f[0].moves[0].to_string()),
        (2, "1b1c".to_string())
    );
    assert_eq!(f[0].moves.len(), 2, "{}", r.text());
    assert!(f[0].moves[1].is_drop(), "{}", r.text());
    assert_eq!(r.spare_at_end, 1);
    assert_eq!(r.verdict, Verdict::Flawed);
}

/// A lone pawn cannot mate: 不詰.
#[test]
fn no_mate() {
    let r = run("8k/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l17p 1", None);
    assert_eq!(r.verdict, Verdict::NoMate, "{}", r.text());
    assert_eq!(r.of(FindingKind::NoMate).count(), 1);
}

/// A 7-ply line where, at ply 5, ▲３二馬 also mates within the three plies left (余詰), and
/// the last move has another mate (最終手余詰).
#[test]
fn alternative_mid_line() {
    let sfen = "8k/9/9/7+B1/9/9/9/9/9 b NB 1";
    let line = "2d3c 1a1b B*2c 1b2a N*1c 2a3a 2c3b+";
    assert!(mates(sfen, line));
    assert!(mates(
        "8k/9/9/7+B1/9/9/9/9/9 b NB 1 moves 2d3c 1a1b B*2c 1b2a",
        "2c3b+ 2a1b 3b2b"
    ));
    let r = run(sfen, Some(line));
    let alt: Vec<_> = r.of(FindingKind::Alternative).collect();
    assert!(alt.iter().any(|f| f.ply == 5), "{}", r.text());
    for f in &alt {
        // Every alternative shown is a mate from the line's position before that ply.
        let p = pos(sfen);
        let before = parse_solution(&p, line).unwrap()[..f.ply - 1].to_vec();
        let start = format!("{sfen} moves {}", usi(&before));
        assert!(mates(&start, &usi(&f.moves)), "{}", r.text());
        assert!(f.moves.len() <= r.line.len() - (f.ply - 1));
    }
    assert_eq!(r.verdict, Verdict::Flawed);
}

/// A given line whose defence at ply 4 (△１一玉) is not the longest: △１三玉 lasts six plies
/// where the line's lasts four (早詰 of the line).
#[test]
fn longer_defence() {
    let sfen = "8k/9/9/9/6S2/9/9/9/9 b RL 1";
    let given = "R*4a 1a1b 4a4b+ 1b1a L*1d 1a2a 1d1b+";
    let longer = "R*4a 1a1b 4a4b+ 1b1c 4b3c 1c1b 3c3b 1b1a L*1b";
    assert!(mates(sfen, given) && mates(sfen, longer));
    let r = run(sfen, Some(given));
    let f: Vec<_> = r.of(FindingKind::LongerDefence).collect();
    assert!(!f.is_empty(), "{}", r.text());
    assert!(
        f.iter().all(|f| f.ply == 4 && f.moves.len() > 4),
        "{}",
        r.text()
    );
    assert_eq!(r.verdict, Verdict::Flawed);
}

/// The same problem by the engine's line: the shorter variation after △１一玉 has other
/// mates (変化別詰, a note).
#[test]
fn variation_alternative() {
    let r = run("8k/9/9/9/6S2/9/9/9/9 b RL 1", None);
    assert_eq!(r.line.len(), 9, "{}", r.text());
    assert!(
        r.of(FindingKind::VariationAlternative).any(|f| f.ply == 4),
        "{}",
        r.text()
    );
    assert!(
        r.of(FindingKind::LongerDefence).next().is_none(),
        "{}",
        r.text()
    );
}

/// △２一玉 at ply 2 lasts as long as the line's △１二玉: 変同.
#[test]
fn equal_variation() {
    let sfen = "8k/9/9/7+B1/9/9/9/9/9 b NB 1";
    let r = run(sfen, Some("2d3c 1a1b B*2c 1b2a N*1c 2a3a 2c3b+"));
    let f: Vec<_> = r.of(FindingKind::EqualVariation).collect();
    assert!(
        f.iter()
            .any(|f| f.ply == 2 && f.moves[0].to_string() == "1a2a"),
        "{}",
        r.text()
    );
}

/// Bishop drops at any distance on the diagonal promote on 2b into the same mate: the same
/// solution (手順前後/迂回, a note), not 余詰.
#[test]
fn transposition() {
    let r = run("8k/9/7L1/9/6G2/9/9/9/9 b B 1", Some("B*3c 1a1b 3c2b+"));
    assert!(
        r.of(FindingKind::Transposition).count() >= 5,
        "{}",
        r.text()
    );
    assert!(
        r.of(FindingKind::Alternative).next().is_none(),
        "{}",
        r.text()
    );
}

/// A mate shorter than the given line is named whatever else is found.
#[test]
fn shorter_mate() {
    let sfen = "8k/9/9/7+B1/9/9/9/9/9 b NB 1";
    let r = run(sfen, Some("2d3c 1a1b B*2c 1b2a N*1c 2a3a 2c3b+"));
    if let Some(u) = r.strict_upper {
        assert_eq!(r.of(FindingKind::ShorterMate).count(), usize::from(u < 7));
    }
}

/// The chain of interpositions of issue hkijin/shtsume#16 rebuilt on a small board: pieces
/// dropped between the dragon and the king, captured, and the rook reused, are 無駄合 when
/// the defender lasts no longer without them; the engine's composer line is then sound.
#[test]
fn interposition_chain_is_useless() {
    let r = run(
        "9/9/2+R6/9/4+p2n1/7G1/6pS1/5S3/7k1 b Lr2b3g2s3n3l16p 1",
        None,
    );
    assert!(
        r.of(FindingKind::LongerDefence).next().is_none(),
        "{}",
        r.text()
    );
    assert!(r.useless_interpositions > 0, "{}", r.text());
}

/// A given line that is not a mating line says nothing of the problem: the verdict is the
/// problem's (judged on the engine's line), and the report says where the given line fails
/// and what mates there.
#[test]
fn a_given_line_that_fails_is_located_and_the_problem_judged() {
    let r = run("8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", Some("G*2a"));
    let g = r.given_line.as_ref().expect("the failure located");
    assert_eq!(g.ply, 1, "{}", r.text());
    assert_eq!(
        g.mate_there.as_ref().map(|l| l[0].to_string()).as_deref(),
        Some("G*1b"),
        "{}",
        r.text()
    );
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
    assert!(!r.solution_given && r.error.is_none(), "{}", r.text());
    // The example of a wrong defence followed by a move that does not mate: sound, with the
    // given line failing at ply 3 where S*6b mates.
    let r = run(
        "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
        Some("9f5b+ 6a5b S*4b"),
    );
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
    let g = r.given_line.as_ref().expect("the failure located");
    assert_eq!(g.ply, 3, "{}", r.text());
    assert_eq!(
        g.mate_there.as_ref().map(|l| l[0].to_string()).as_deref(),
        Some("S*6b")
    );
    assert!(r.text().contains("fails at ply 3"), "{}", r.text());
    // A given line that mates is judged as given.
    let r = run(
        "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
        Some("9f5b+ 6a5b S*6b"),
    );
    assert!(r.given_line.is_none() && r.solution_given, "{}", r.text());
    // A problem with no mate and a line given: no mate, with where the line fails.
    let r = run("9/3k5/9/3P5/9/9/9/9/9 b G2r2b4s4n4l17p 1", Some("G*6c"));
    assert_eq!(r.verdict, Verdict::NoMate, "{}", r.text());
    assert_eq!(
        r.given_line.as_ref().map(|g| g.ply),
        Some(1),
        "{}",
        r.text()
    );
}

/// A budget too small to ask anything leaves questions undecided, never sound.
#[test]
fn undecided_when_out_of_time() {
    let p = pos("8k/9/9/7+B1/9/9/9/9/9 b NB 1");
    let opts = CheckOptions {
        solution: Some(parse_solution(&p, "2d3c 1a1b B*2c 1b2a N*1c 2a3a 2c3b+").unwrap()),
        time: Some(Duration::from_millis(1)),
        hash_mb: 16,
        variations: true,
    };
    let stop = AtomicBool::new(true);
    let r = crate::mate::with_search_stack(move || check(&p, &opts, &stop));
    assert_ne!(r.verdict, Verdict::Sound, "{}", r.text());
}

/// 狭義無駄合 (narrow useless interposition), the example of KomoringHeights' GitHub report #8
/// (github.com/komori-n/KomoringHeights/issues/8, after w.atwiki.jp/mudaai pages/21): with its
/// intended 11-ply line every interposition on the 1-file (pawn, lance, knight, ... dropped
/// and captured by the lance, the chain judged link by link) is useless, so no longer defence
/// is reported.
#[test]
fn narrow_useless_interposition_chain() {
    let sfen = "6p2/8k/9/6P2/8+P/9/9/9/8L b G2r2b3g4s4n3l15p 1";
    let line = "1e2d 1b2a G*2b 2a2b 3d3c+ 2b2a 1i1b+ 2a1b 2d2c 1b2a 3c2b";
    assert!(mates(sfen, line));
    let r = run(sfen, Some(line));
    assert!(
        r.of(FindingKind::LongerDefence).next().is_none(),
        "{}",
        r.text()
    );
    assert!(r.useless_interpositions >= 5, "{}", r.text());
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
}

/// The second 狭義無駄合 example of KomoringHeights' GitHub report #8: the lance's discovered check mates
/// in one; every interposition between lance and king is captured and useless.
#[test]
fn narrow_useless_interposition_mate_in_one() {
    let r = run("7l1/7pk/9/9/8+P/9/9/9/8L b 2r2b4g4s4n2l16p 1", None);
    assert_eq!(usi(&r.line), "1e2d", "{}", r.text());
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
}

/// 例外無駄合 X型 (w.atwiki.jp/mudaai pages/17, example of KomoringHeights' GitHub report #8): the
/// interposition is captured by the checking piece itself with mate at once.
#[test]
fn exception_x_type() {
    let r = run("9/9/9/8k/8B/8+R/9/9/9 b rb4g4s4n4l18p 1", None);
    assert_eq!(usi(&r.line), "1e3c+", "{}", r.text());
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
}

/// A pinned defender piece cannot recapture, so the interposition is useless (hkijin/shtsume
/// issue 15, case A1): ▲５五角 mates in one in composer count.
#[test]
fn interposition_covered_only_by_a_pinned_piece() {
    let r = run("3+R3nk/8p/7P1/9/9/9/9/9/8B b 16p4l3n4s4gbr 1", None);
    assert_eq!(r.line.len(), 1, "{}", r.text());
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
}

/// Interpositions by a moved piece that escape (hkijin/shtsume GitHub report #14, 移動合 pattern 1;
/// no mate per that thread and the shared nomate-curated set):
/// the rook's move to 1d and the bishop's to 1b are real defences; the position has no mate,
/// and the check says so rather than calling the lance check a mate.
#[test]
fn moved_piece_interposition_is_a_defence() {
    let r = run(
        "7lk/7p1/9/+P+PL3r2/+P+P+PN1b3/+P+P+P+P+P+P2p/1L+pNNN3/+R+bgss+P+P2/gggss+P+P1L b - 1",
        None,
    );
    assert_eq!(r.verdict, Verdict::NoMate, "{}", r.text());
}

/// Without a given line, the engine's composer line is read again with the check's 無駄合
/// rule: the KomoringHeights' GitHub report #8 chain gives the composers' 11-ply line (the engine's
/// static rule alone keeps an interposition as the defence and shows 15 plies).
#[test]
fn engine_line_reread() {
    let r = run("6p2/8k/9/6P2/8+P/9/9/9/8L b G2r2b3g4s4n3l15p 1", None);
    assert_eq!(r.line.len(), 11, "{}", r.text());
    assert!(mates(
        "6p2/8k/9/6P2/8+P/9/9/9/8L b G2r2b3g4s4n3l15p 1",
        &usi(&r.line)
    ));
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
}

/// sugyan/tsumeshogi-solver GitHub report #20: ▲３九金 △１九玉 ▲１七飛 is the composers' answer; the
/// interpositions left at the end are useless, so the line ends there and is sound.
#[test]
fn useless_interpositions_at_the_end() {
    let r = run("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1", None);
    assert_eq!(usi(&r.line), "G*3i 2h1i 3g1g", "{}", r.text());
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
}

/// 例外無駄合 XY型 (w.atwiki.jp/mudaai pages/17 and 19; the class KomoringHeights' GitHub report #8
/// counts among the evident useless interpositions): against a distant check by X, an
/// interposition that another piece Y captures with mate at once, where X's own capture does
/// not mate. ▲３七角打 (X) checks the king on 1i through 2h; the king cannot move (1h: the gold
/// on 1g; 2i: the dragon down the 2-file), so every defence is an interposition on 2h. ▲同角
/// (X) blocks the dragon's file and lets the king out to 2i; ▲同龍 (Y) mates, the dragon guarded
/// by the bishop. Established with cshogi (brute force over its legal moves, before this test
/// was written): no mate in one; after ▲３七角打 the defences are the six interpositions on 2h
/// (R, B, G, S, L, P), each mated at once by ▲同龍 and by no capture of the bishop; so the
/// strict length is 3 and the composers' is 1.
#[test]
fn exception_xy_type() {
    let sfen = "9/9/9/7+R1/9/9/8G/9/8k b Brb3g4s4n4l18p 1";
    assert!(mates(sfen, "B*3g G*2h 2d2h"));
    assert!(!mates(sfen, "B*3g G*2h 3g2h"));
    let r = run(sfen, None);
    assert_eq!(usi(&r.line), "B*3g", "{}", r.text());
    assert_eq!((r.strict_lower, r.strict_upper), (Some(3), Some(3)));
    assert_eq!(r.composer_length, Some(1), "{}", r.text());
    assert_eq!(r.verdict, Verdict::Sound, "{}", r.text());
}

/// An interposition that is not captured at once is a defence (docs/composer-rules.md: every
/// 無駄合 class of the sources — 狭義, 例外 X型 and XY型 — starts from a capture at once). After
/// ▲２三龍 the defender has △１一玉 and △３一玉, each mated at once, and △２二香打; taking
/// the lance at once (▲同龍) leaves no mate within the plies left, so the attacker mates
/// otherwise (▲３二金打 △１一玉 ▲２二龍 or ▲１三龍: the lance captured later, or never).
/// Established with cshogi (brute force): no mate in 3, a mate in 5, ▲同龍 at once not mated
/// within two more plies. So the lance counts: 5 plies in the composers' count as strictly.
/// A rule that dropped it (captured some time, the piece spare at the end) would say 3.
#[test]
fn interposition_captured_later_is_a_defence() {
    let sfen = "7k1/9/9/7G+R/9/9/9/9/9 b GNl 1";
    assert!(mates(sfen, "1d2c L*2b G*3b 2a1a 2c2b"));
    assert!(!mates(sfen, "1d2c L*2b 2c2b"));
    let r = run(sfen, None);
    assert_eq!(r.line.len(), 5, "{}", r.text());
    assert_eq!(r.line[1].to_string(), "L*2b", "{}", r.text());
    assert_eq!((r.strict_lower, r.strict_upper), (Some(5), Some(5)));
    assert_eq!(r.composer_length, Some(5), "{}", r.text());
    assert_eq!(r.useless_interpositions, 0, "{}", r.text());
}

/// The Japanese report speaks Japanese (composers' words), names the spare pieces and the
/// verdict as composers do, and says "1 ply", never "1 plies", in English.
#[test]
fn japanese_report_and_named_spare_pieces() {
    let r = run("3sks3/9/4S4/9/9/B8/9/9/9 b SG2rb3g4n4l18p 1", None);
    let ja = r.text_ja();
    assert!(ja.starts_with("判定: 不完全作\n"), "{ja}");
    assert!(ja.contains("余詰: ここから3手の別の詰みあり"), "{ja}");
    assert!(ja.contains("詰め上がりで攻方の持駒に"), "{ja}");
    // Japanese throughout, USI moves in parentheses and the convention's name aside.
    for line in ja.lines() {
        let shown: String = line
            .split("  (")
            .next()
            .unwrap()
            .replace("tsumugi-check-1", "")
            .replace("tsumugi", "")
            .replace(" ms", "");
        assert!(
            !shown.chars().any(|c| c.is_ascii_alphabetic()),
            "English in: {line}"
        );
    }
    let en = r.text();
    assert!(
        en.contains("left in the attacker's hand at the end: 2 silvers"),
        "{en}"
    );
    assert!(!en.contains("1 plies"), "{en}");
    // A problem with no mate: no "not established" beside the proven 不詰.
    let r = run("9/3k5/9/3P5/9/9/9/9/9 b G2r2b4s4n4l17p 1", None);
    assert!(
        r.text().contains("shortest mate: none (no mate, proven)"),
        "{}",
        r.text()
    );
    assert!(
        r.text_ja().contains("最短手数: なし (不詰、証明済み)"),
        "{}",
        r.text_ja()
    );
}
