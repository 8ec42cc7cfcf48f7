use super::*;
use crate::mate::line;
use std::sync::atomic::AtomicBool;

/// Two golds against a king in the corner: G*1b and G*2b both mate at once (every escape
/// square covered, the gold on 2c guarding the one that checks); the other checks do not
/// mate (the king takes the checking piece).
const TWO_MATES_IN_ONE: &str = "8k/9/7G1/9/9/9/9/9/9 b G 1";

fn solver_after_root(sfen: &str) -> (Solver, Position, SearchResult) {
    let pos = Position::from_sfen(sfen).unwrap();
    let mut solver = Solver::new(16);
    let stop = AtomicBool::new(false);
    let r = solver.solve(&pos, &Limits::default(), &stop, &mut |_| {});
    (solver, pos, r)
}

#[test]
fn every_other_check_gets_a_verdict_mates_first() {
    let (mut solver, pos, r) = solver_after_root(TWO_MATES_IN_ONE);
    let Outcome::Mate(best) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!(best.len(), 1);
    let stop = AtomicBool::new(false);
    let mut reported = Vec::new();
    let others = solver.other_first_moves(
        &pos,
        Some(best[0]),
        r.stats.nodes,
        &Limits::default(),
        &stop,
        &mut |fm| reported.push(fm.mv),
    );
    let mut checks = MoveList::new();
    pos.check_moves(&mut checks);
    assert_eq!(others.len(), checks.len() - 1, "{others:?}");
    assert!(others.iter().all(|fm| fm.mv != best[0]));
    // The other mate in one comes first, settled; every other check is refuted.
    let Verdict::Mate { line: alt, status } = &others[0].verdict else {
        panic!("{others:?}")
    };
    assert_eq!(alt.len(), 1);
    assert!(status.minimal() && status.upper == 1, "{status:?}");
    line::verify(&pos, alt, pos.side_to_move()).unwrap();
    let mut names: Vec<String> = vec![best[0].to_string(), alt[0].to_string()];
    names.sort();
    assert_eq!(names, ["G*1b", "G*2b"]);
    for fm in &others[1..] {
        let Verdict::NoMate(Some(refutation)) = fm.verdict else {
            panic!("{fm:?}")
        };
        let mut after = pos.clone();
        after.do_move(fm.mv);
        assert!(after
            .legal_move_list()
            .as_slice()
            .contains(&refutation.defence));
    }
    assert!(reported.contains(&alt[0]));
}

#[test]
fn every_check_of_a_position_without_mate_is_refuted() {
    let (mut solver, pos, r) = solver_after_root("8k/9/9/9/9/9/9/9/9 b G 1");
    assert_eq!(r.outcome, Outcome::NoMate);
    let stop = AtomicBool::new(false);
    let refuted = solver.refutations(&pos, &Limits::default(), &stop);
    let mut checks = MoveList::new();
    pos.check_moves(&mut checks);
    assert_eq!(refuted.len(), checks.len());
    for fm in &refuted {
        let Verdict::NoMate(Some(refutation)) = fm.verdict else {
            panic!("{fm:?}")
        };
        let mut after = pos.clone();
        after.do_move(fm.mv);
        assert!(after
            .legal_move_list()
            .as_slice()
            .contains(&refutation.defence));
        after.do_move(refutation.defence);
        let again = Solver::new(16).solve(&after, &Limits::default(), &stop, &mut |_| {});
        assert_eq!(again.outcome, Outcome::NoMate, "{fm:?}");
    }
}

#[test]
fn a_stopped_enquiry_leaves_the_checks_undecided() {
    let (mut solver, pos, r) = solver_after_root(TWO_MATES_IN_ONE);
    let Outcome::Mate(best) = &r.outcome else {
        panic!()
    };
    let stop = AtomicBool::new(true);
    let others = solver.other_first_moves(
        &pos,
        Some(best[0]),
        0,
        &Limits::default(),
        &stop,
        &mut |_| {},
    );
    assert!(others
        .iter()
        .all(|fm| fm.verdict == Verdict::Undecided(UnknownReason::Stopped)));
    let (mut solver, pos, _) = solver_after_root("8k/9/9/9/9/9/9/9/9 b G 1");
    let refuted = solver.refutations(&pos, &Limits::default(), &stop);
    assert!(!refuted.is_empty());
    assert!(refuted
        .iter()
        .all(|fm| fm.verdict == Verdict::Undecided(UnknownReason::Stopped)));
}
