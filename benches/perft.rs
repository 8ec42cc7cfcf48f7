//! Perft speed from the start position: tsumugi against haitaka 0.3.2, in the same run.
//!
//! Both count leaves with bulk counting at depth 1 (the length of the legal move list, without
//! making the moves). tsumugi uses make/unmake on one `Position`; haitaka is copy-make (its own
//! `perft_bulk` example clones the board per move), which is how it is meant to be used.
//! Each engine runs 3 times, alternating, and the median nodes/s is reported.
//!
//! `cargo bench --bench perft`; `PERFT_DEPTH=6 cargo bench --bench perft` for depth 6.

use std::hint::black_box;
use std::time::Instant;
use tsumugi::shogi::{perft, Position};

/// Known start-position perft counts (depth 0..=6).
const STARTPOS_PERFT: [u64; 7] = [1, 30, 900, 25_470, 719_731, 19_861_490, 547_581_517];

fn haitaka_perft(board: &haitaka::Board, depth: u32) -> u64 {
    let mut nodes = 0u64;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                // `PieceMoves::len` counts destination squares only; the iterator's length
                // counts each promotion/non-promotion choice, i.e. the legal move list length.
                nodes += moves.into_iter().len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += haitaka_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let depth: u32 = std::env::var("PERFT_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let expected = STARTPOS_PERFT.get(depth as usize).copied();
    const RUNS: usize = 3;
    println!(
        "perft({depth}) from the start position, bulk counting, {RUNS} runs each, alternating"
    );

    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for run in 1..=RUNS {
        let mut pos = Position::startpos();
        let t = Instant::now();
        let n = black_box(perft(black_box(&mut pos), depth));
        let s = t.elapsed().as_secs_f64();
        let nps = n as f64 / s;
        println!(
            "  run {run} tsumugi: {n} nodes in {s:.3}s = {:.2} Mnodes/s",
            nps / 1e6
        );
        if let Some(e) = expected {
            assert_eq!(n, e, "tsumugi perft({depth})");
        }
        ours.push(nps);

        let board = haitaka::Board::startpos();
        let t = Instant::now();
        let h = black_box(haitaka_perft(black_box(&board), depth));
        let s = t.elapsed().as_secs_f64();
        let nps = h as f64 / s;
        println!(
            "  run {run} haitaka: {h} nodes in {s:.3}s = {:.2} Mnodes/s",
            nps / 1e6
        );
        assert_eq!(h, n, "haitaka and tsumugi disagree on perft({depth})");
        theirs.push(nps);
    }
    let (o, t) = (median(ours), median(theirs));
    println!("median tsumugi: {:.2} Mnodes/s", o / 1e6);
    println!("median haitaka: {:.2} Mnodes/s", t / 1e6);
    println!("ratio tsumugi/haitaka: {:.3}", o / t);
}
