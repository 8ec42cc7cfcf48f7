//! Check and evasion generation speed over mate-problem positions.
//!
//! Positions: every position of the problem sets in `$TSUMUGI_PROBLEMS` (default
//! `../shared/problems`, all `*.tsv`, first column) that our parser accepts, and positions a few
//! random plies deep from each (seeded; mostly checks and answers to them, as in a mate search).
//! Without the problem sets, seeded random playouts from mate-problem starts stand in (said so).
//!
//! Checks, three ways (all must find the same number of moves):
//! * `check_moves`: the dedicated generator;
//! * legal moves, then `gives_check` on each (geometry, no move made);
//! * legal moves, then `do_move` + `in_check` + `undo_move` on each.
//!
//! Evasions (positions where the side to move is in check): `legal_moves` (which dispatches to
//! the evasion generator), `has_evasion`, and `mate_in_one` over the attacker positions.
//!
//! Each measurement is repeated 5 times, alternating, and the median is reported, in ns per
//! position and as ratios. `cargo bench --bench movegen`.

use std::hint::black_box;
use std::time::Instant;
use tsumugi::shogi::{Move, MoveList, Position};

// The tests' problem-set reader and generator (one copy for tests and benches); this file uses
// only part of each.
#[allow(dead_code)]
#[path = "../tests/common/problems.rs"]
mod problems;
#[allow(dead_code)]
#[path = "../tests/common/rng.rs"]
mod rng;
use rng::Rng;

const RUNS: usize = 5;

fn problem_positions() -> Option<Vec<Position>> {
    let mut out = Vec::new();
    for f in problems::set_files(&problems::problems_path()) {
        let Some(rows) = problems::read_set(&f) else {
            continue;
        };
        out.extend(
            rows.iter()
                .filter_map(|r| Position::from_sfen(r.sfen()).ok()),
        );
    }
    (!out.is_empty()).then_some(out)
}

/// A legal move, a check with probability 85% when there is one. Not `rng::pick`: that one
/// draws its choices differently (and may prefer drops), and this bench keeps the positions it
/// has always measured.
fn pick(pos: &Position, list: &MoveList, rng: &mut Rng) -> Move {
    if rng.below(100) < 85 {
        let checks: Vec<Move> = list
            .iter()
            .copied()
            .filter(|&m| pos.gives_check(m))
            .collect();
        if !checks.is_empty() {
            return checks[rng.below(checks.len())];
        }
    }
    list.as_slice()[rng.below(list.len())]
}

/// The starts, then `walks` walks of 1..=`depth` plies from each; every position reached is kept.
fn with_walks(starts: Vec<Position>, walks: usize, depth: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::from_state(seed.wrapping_mul(rng::GOLDEN) | 1);
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for p in &starts {
        for _ in 0..walks {
            let mut pos = p.clone();
            for _ in 0..1 + rng.below(depth) {
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let m = pick(&pos, &list, &mut rng);
                pos.do_move(m);
                out.push(pos.clone());
            }
        }
    }
    let mut all = starts;
    all.extend(out);
    all
}

fn stand_in_positions() -> Vec<Position> {
    let starts = [
        "4k4/9/9/9/9/9/9/9/9 b 2R2B3G3S3N3L9Pgsnl9p 1",
        "k8/9/9/9/9/9/9/9/9 b 2RB4G2S2N2L5Pb2s2n2l13p 1",
        "7nl/7k1/6ppp/9/9/9/9/9/9 b 2R2B4G4S3N3L15P 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ];
    let starts: Vec<Position> = starts
        .iter()
        .map(|s| Position::from_sfen(s).expect("valid start"))
        .collect();
    with_walks(starts, 1500, 12, 42)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Runs each closure `RUNS` times, alternating; each returns a count that must not change.
/// Returns the median seconds of each.
fn measure(fs: &mut [&mut dyn FnMut() -> u64]) -> Vec<f64> {
    let mut times = vec![Vec::new(); fs.len()];
    let mut counts = vec![None; fs.len()];
    for _ in 0..RUNS {
        for (i, f) in fs.iter_mut().enumerate() {
            let t = Instant::now();
            let c = black_box(f());
            times[i].push(t.elapsed().as_secs_f64());
            assert!(
                counts[i].is_none_or(|old| old == c),
                "count changed between runs"
            );
            counts[i] = Some(c);
        }
    }
    times.into_iter().map(median).collect()
}

/// Times the three ways of finding the checks over `positions` and prints them.
fn bench_checks(label: &str, positions: &[Position]) {
    let n = positions.len().max(1) as f64;
    let mut list = MoveList::new();
    let mut a = || {
        let mut c = 0u64;
        for p in positions.iter() {
            p.check_moves(&mut list);
            c += list.len() as u64;
        }
        c
    };
    let mut list_b = MoveList::new();
    let mut b = || {
        let mut c = 0u64;
        for p in positions.iter() {
            p.legal_moves(&mut list_b);
            c += list_b.iter().filter(|&&m| p.gives_check(m)).count() as u64;
        }
        c
    };
    let mut list_c = MoveList::new();
    let mut pos_c = positions.to_vec();
    let mut c = || {
        let mut c = 0u64;
        for p in pos_c.iter_mut() {
            p.legal_moves(&mut list_c);
            for &m in list_c.as_slice() {
                p.do_move(m);
                c += p.in_check() as u64;
                p.undo_move();
            }
        }
        c
    };
    let counts = (a(), b(), c());
    assert!(
        counts.0 == counts.1 && counts.1 == counts.2,
        "check counts differ: check_moves {}, legal+gives_check {}, legal+do_move {}",
        counts.0,
        counts.1,
        counts.2
    );
    let t = measure(&mut [&mut a, &mut b, &mut c]);
    println!(
        "checks, {label}: {} positions, {} checks",
        positions.len(),
        counts.0
    );
    println!(
        "  check_moves                         {:>8.0} ns/position",
        t[0] / n * 1e9
    );
    println!(
        "  legal moves + gives_check filter    {:>8.0} ns/position   ratio {:.2}x",
        t[1] / n * 1e9,
        t[1] / t[0]
    );
    println!(
        "  legal moves + do_move/in_check      {:>8.0} ns/position   ratio {:.2}x",
        t[2] / n * 1e9,
        t[2] / t[0]
    );
}

fn main() {
    let t0 = Instant::now();
    let positions = match problem_positions() {
        Some(p) => {
            let n = p.len();
            let all = with_walks(p, 3, 4, 7);
            println!(
                "{} problem-set positions and {} positions 1-4 plies deep from them",
                n,
                all.len() - n
            );
            all
        }
        None => {
            println!(
                "SKIPPED problem sets (not found; set TSUMUGI_PROBLEMS): using seeded random \
                 playout positions instead"
            );
            stand_in_positions()
        }
    };
    let n = positions.len() as f64;
    let in_check: Vec<Position> = positions.iter().filter(|p| p.in_check()).cloned().collect();
    let mut not_in_check: Vec<Position> = positions
        .iter()
        .filter(|p| !p.in_check())
        .cloned()
        .collect();
    println!(
        "{} positions ({} in check); set-up {:.1}s; median of {RUNS} runs, alternating",
        positions.len(),
        in_check.len(),
        t0.elapsed().as_secs_f64()
    );

    // ---- checks --------------------------------------------------------------------------------
    bench_checks("all positions", &positions);
    bench_checks(
        "side to move not in check (attacker nodes of a mate search)",
        &not_in_check,
    );
    bench_checks("side to move in check", &in_check);

    // has_check against the full generator.
    let mut hc = || positions.iter().filter(|p| p.has_check()).count() as u64;
    let mut list_d = MoveList::new();
    let mut cm = || {
        let mut c = 0u64;
        for p in positions.iter() {
            p.check_moves(&mut list_d);
            c += !list_d.is_empty() as u64;
        }
        c
    };
    assert_eq!(hc(), cm());
    let t = measure(&mut [&mut hc, &mut cm]);
    println!(
        "  has_check                           {:>8.0} ns/position   ({:.2}x faster than check_moves)",
        t[0] / n * 1e9,
        t[1] / t[0]
    );

    // ---- evasions ------------------------------------------------------------------------------
    let ne = in_check.len().max(1) as f64;
    let mut list_e = MoveList::new();
    let mut ev = || {
        let mut c = 0u64;
        for p in in_check.iter() {
            p.legal_moves(&mut list_e);
            c += list_e.len() as u64;
        }
        c
    };
    let mut he = || in_check.iter().filter(|p| p.has_evasion()).count() as u64;
    let mut list_f = MoveList::new();
    let mut ev_any = || {
        let mut c = 0u64;
        for p in in_check.iter() {
            p.legal_moves(&mut list_f);
            c += !list_f.is_empty() as u64;
        }
        c
    };
    assert_eq!(he(), ev_any());
    let evasions = ev();
    let t = measure(&mut [&mut ev, &mut he]);
    println!(
        "evasions ({} positions in check, {} evasions):",
        in_check.len(),
        evasions
    );
    println!(
        "  legal_moves (evasion generator)     {:>8.0} ns/position",
        t[0] / ne * 1e9
    );
    println!(
        "  has_evasion                         {:>8.0} ns/position   ({:.2}x faster)",
        t[1] / ne * 1e9,
        t[0] / t[1]
    );

    // ---- mate in one ---------------------------------------------------------------------------
    let nn = not_in_check.len().max(1) as f64;
    let mut m1 = || {
        let mut c = 0u64;
        for p in not_in_check.iter_mut() {
            c += p.mate_in_one().is_some() as u64;
        }
        c
    };
    let mates = m1();
    let t = measure(&mut [&mut m1]);
    println!(
        "mate_in_one ({} positions not in check, {} with a mate): {:.0} ns/position",
        not_in_check.len(),
        mates,
        t[0] / nn * 1e9
    );
}
