//! Several search threads over one table (`Solver::set_threads`): the answers must be the same
//! as one thread's wherever both are proven, and every line must replay as a mate under the
//! independent legal-move oracle (`shogi_legality_lite`). Run oversubscribed on purpose (more
//! threads than the machine has cores): the helpers then race the main search at random points.

mod common;
use common::harness;

use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tsumugi::mate::bench::POSITIONS;
use tsumugi::mate::{Limits, Outcome, PostSearch, SearchResult, Solver};
use tsumugi::shogi::{Move, Position};

fn solve(solver: &mut Solver, sfen: &str) -> SearchResult {
    let pos = Position::from_sfen(sfen).unwrap();
    let limits = Limits {
        time: Some(Duration::from_secs(30)),
        post_search: PostSearch::Shortest,
        ..Limits::default()
    };
    solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

/// Replays `line` with the oracle: every move legal, every attacker move a check, the last
/// position a checkmate.
fn oracle_mate(sfen: &str, line: &[Move]) -> bool {
    let usi: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    common::oracle_mate_line(sfen, &usi).is_ok()
}

fn oversubscribed_threads_give_the_answers_of_one_thread() {
    let mut one = Solver::new(16);
    let mut many = Solver::new(16);
    many.set_threads(6);
    for (i, sfen) in POSITIONS.iter().enumerate() {
        let a = solve(&mut one, sfen);
        // Several rounds: each solve races differently.
        for round in 0..3 {
            many.clear();
            let b = solve(&mut many, sfen);
            match (&a.outcome, &b.outcome) {
                (Outcome::Mate(la), Outcome::Mate(lb)) => {
                    assert!(oracle_mate(sfen, lb), "position {i} round {round}: {lb:?}");
                    let (sa, sb) = (a.status.as_ref().unwrap(), b.status.as_ref().unwrap());
                    if sa.minimal() && sb.minimal() {
                        assert_eq!(la.len(), lb.len(), "position {i} round {round}");
                    }
                }
                (Outcome::NoMate, Outcome::NoMate) => {}
                (x, y) => panic!("position {i} round {round}: one thread {x:?}, six {y:?}"),
            }
        }
    }
}

/// `stop` ends every thread: a long problem (long-ge50's horse-circling 353-ply mate, about
/// 17 s) stopped after 300 ms answers within a second of the stop, with the stop as reason or
/// with the mate proven so far.
fn stop_ends_the_helpers_too() {
    let rows = common::problems::set_rows("long-ge50.tsv");
    let row = rows.get(1).expect("long-ge50.tsv has a second row");
    let sfen = row.sfen().to_string();
    let r = tsumugi::mate::with_search_stack(move || {
        let pos = Position::from_sfen(&sfen).unwrap();
        let mut solver = Solver::new(64);
        solver.set_threads(4);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            root_is_and_if_checked: false,
            ..Limits::default()
        };
        std::thread::scope(|s| {
            let stopped_at = s.spawn(|| {
                std::thread::sleep(Duration::from_millis(300));
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
                std::time::Instant::now()
            });
            let r = solver.solve(&pos, &limits, &stop, &mut |_| {});
            let latency = stopped_at.join().unwrap().elapsed();
            (r, latency)
        })
    });
    let (r, latency) = r;
    assert!(
        latency < Duration::from_secs(1),
        "answered {latency:?} after the stop"
    );
    match &r.outcome {
        Outcome::Mate(_) => assert!(!r.status.as_ref().unwrap().minimal()),
        Outcome::Unknown(reason) => {
            assert_eq!(*reason, tsumugi::mate::UnknownReason::Stopped)
        }
        Outcome::NoMate => panic!("a mate problem answered nomate"),
    }
}

fn main() {
    harness::run(vec![
        harness::test(
            "oversubscribed_threads_give_the_answers_of_one_thread",
            oversubscribed_threads_give_the_answers_of_one_thread,
        ),
        harness::needs_sets(
            "stop_ends_the_helpers_too",
            stop_ends_the_helpers_too,
            &["long-ge50.tsv"],
        ),
    ]);
}
