//! Differential test of our legal move generation against an independent implementation,
//! `shogi_legality_lite` (on `shogi_core::PartialPosition`), over seeded random playouts.
//!
//! Playouts start from the start position and from mate-problem-style positions (kings only on
//! the board, most pieces in hand, some with no attacker king) and are biased towards checking
//! moves and drops, so that many positions are in check and many have pieces in hand. In every
//! position the two move sets (as USI strings) must be equal; after every `do_move` and every
//! `undo_move` the incremental keys and checkers must equal a from-scratch recomputation, and
//! `undo_move` must restore the exact SFEN. `gives_check` is checked against the position after
//! the move, and the in-check flag against the oracle's.
//!
//! Oracle coverage:
//! * `shogi_legality_lite` handles a side to move without a king (it then skips the self-check
//!   test, as we do), so king-less attackers (usual in mate problems) are included. Positions
//!   where the side *not* to move lacks a king cannot arise (our `from_sfen` rejects them and
//!   kings are never captured), so none are tested.
//! * `all_legal_moves_partial` itself is exponential on pawn drops when both sides hold pawns,
//!   and treats a non-checking pawn drop that leaves the opponent without a move as pawn-drop
//!   mate. The oracle is therefore assembled from the crate's primitives
//!   (`common::oracle_moves`, documented there), and checked against the raw function in the
//!   positions where that is safe (the side not to move holds no pawn); the counts are printed.
//!
//! Run the large version with `cargo test --release --test differential -- --ignored --nocapture`.
//! Environment: `DIFF_TRACE=1` prints each playout's size and time, `DIFF_TRACE_POS=1` every
//! position before it is compared (to find a position the oracle is slow on).

mod common;

use common::rng::{pick, Rng};
use common::{oracle_usi, to_partial, OracleInfo};
use shogi_core::{Color as CColor, Piece as CPiece, PieceKind as CKind, Square as CSquare};
use std::collections::BTreeSet;
use std::time::Instant;
use tsumugi::shogi::{MoveList, Position, STARTPOS};

// ---- the walk ------------------------------------------------------------------------------------

#[derive(Default)]
struct Stats {
    positions: u64,
    in_check: u64,
    with_hand: u64,
    /// Positions where the side to move has no king (mate-problem attacker).
    no_king: u64,
    /// Positions without any legal move (mate).
    mates: u64,
    /// Moves compared (sum of legal move counts).
    moves: u64,
    oracle: OracleInfo,
    playouts: u64,
    mismatches: Vec<String>,
}

fn sorted_usi(list: &MoveList) -> BTreeSet<String> {
    list.iter().map(|m| m.to_string()).collect()
}

fn compare(pos: &Position, list: &MoveList, st: &mut Stats) {
    let sfen = pos.to_sfen();
    let partial = to_partial(&sfen);
    let theirs = oracle_usi(&partial, &mut st.oracle);
    let ours = sorted_usi(list);
    assert_eq!(
        ours.len(),
        list.len(),
        "duplicate moves generated in {sfen}"
    );
    let their_check = shogi_legality_lite::is_in_check_partial_lite(&partial);
    if their_check != pos.in_check() {
        st.mismatches.push(format!(
            "in-check disagreement in {sfen}: ours {} theirs {their_check}",
            pos.in_check()
        ));
    }
    if ours == theirs {
        return;
    }
    let missing: Vec<&String> = theirs.difference(&ours).collect();
    let extra: Vec<&String> = ours.difference(&theirs).collect();
    st.mismatches.push(format!(
        "sfen {sfen}\n  missing (oracle has, we lack): {missing:?}\n  extra (we have, oracle lacks): {extra:?}"
    ));
}

/// After a do_move or undo_move: incremental state equals a from-scratch recomputation.
fn check_incremental(pos: &Position, what: &str) {
    assert_eq!(
        pos.compute_keys(),
        (pos.board_key(), pos.hand_key()),
        "keys after {what}: {}",
        pos.to_sfen()
    );
    assert_eq!(
        pos.checkers(),
        pos.compute_checkers(),
        "checkers after {what}: {}",
        pos.to_sfen()
    );
}

struct Start {
    sfen: &'static str,
    check_pct: u32,
    drop_pct: u32,
}

/// Piece totals per kind are the full set (2R 2B 4G 4S 4N 4L 18P) or fewer; checked by from_sfen.
const STARTS: &[Start] = &[
    Start {
        sfen: STARTPOS,
        check_pct: 30,
        drop_pct: 50,
    },
    // Kings only, everything in hand.
    Start {
        sfen: "4k4/9/9/9/9/9/9/9/4K4 b 2R2B2G2S2N2L9P2g2s2n2l9p 1",
        check_pct: 50,
        drop_pct: 40,
    },
    Start {
        sfen: "8k/9/9/9/9/9/9/9/K8 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
        check_pct: 60,
        drop_pct: 40,
    },
    Start {
        sfen: "9/9/9/9/4k4/9/9/9/4K4 w 2G2S2N2L9P2r2b2g2s2n2l9p 1",
        check_pct: 50,
        drop_pct: 50,
    },
    // No attacker king (usual in mate problems).
    Start {
        sfen: "4k4/9/9/9/9/9/9/9/9 b 2R2B3G3S3N3L9Pgsnl9p 1",
        check_pct: 60,
        drop_pct: 40,
    },
    Start {
        sfen: "k8/9/9/9/9/9/9/9/9 b 2RB4G2S2N2L5Pb2s2n2l13p 1",
        check_pct: 70,
        drop_pct: 30,
    },
    Start {
        sfen: "9/9/9/9/9/9/9/9/8K w 2r2b4g4s4n4l18p 1",
        check_pct: 60,
        drop_pct: 40,
    },
    // Some pieces on the board, the rest in hand.
    Start {
        sfen: "lns1kgsnl/9/9/9/9/9/9/9/LNSGK1SNL b 2R2BG9Pg9p 1",
        check_pct: 40,
        drop_pct: 40,
    },
];

const MAX_PLIES: usize = 150;

fn playout(start: &Start, rng: &mut Rng, st: &mut Stats, cap: u64) {
    let mut pos = Position::from_sfen(start.sfen).expect("start SFEN is valid");
    check_incremental(&pos, "setup");
    st.playouts += 1;
    let mut list = MoveList::new();
    for _ply in 0..MAX_PLIES {
        if st.positions >= cap {
            break;
        }
        pos.legal_moves(&mut list);
        st.positions += 1;
        st.moves += list.len() as u64;
        if pos.in_check() {
            st.in_check += 1;
        }
        let side = pos.side_to_move();
        if !pos.hand(side).is_empty() || !pos.hand(side.flip()).is_empty() {
            st.with_hand += 1;
        }
        if pos.king_square(side).is_none() {
            st.no_king += 1;
        }
        if std::env::var_os("DIFF_TRACE_POS").is_some() {
            eprintln!("  [{}] {}", st.positions, pos.to_sfen());
        }
        let t = Instant::now();
        compare(&pos, &list, st);
        let dt = t.elapsed().as_secs_f64();
        if dt > 0.5 {
            eprintln!("  slow oracle ({dt:.1}s): {}", pos.to_sfen());
        }
        if st.positions % 10_000 == 0 {
            eprintln!("  ... {} positions", st.positions);
        }
        if st.mismatches.len() >= 20 {
            return;
        }
        if list.is_empty() {
            st.mates += 1;
            break;
        }
        let m = pick(&pos, &list, rng, start.check_pct, start.drop_pct);
        let before = pos.to_sfen();
        let gives = pos.gives_check(m);
        pos.do_move(m);
        check_incremental(&pos, &format!("do_move {m} from {before}"));
        assert_eq!(
            gives,
            pos.in_check(),
            "gives_check({m}) disagrees with the position after it; before: {before}"
        );
        // Undo and redo: undo must restore the exact position and state.
        pos.undo_move();
        check_incremental(&pos, &format!("undo_move {m} from {before}"));
        assert_eq!(pos.to_sfen(), before, "undo_move of {m}");
        pos.do_move(m);
    }
    // Unwind the whole playout, checking every undo.
    while pos.game_ply() > 0 {
        let m = pos.moves_played().last().expect("a move");
        pos.undo_move();
        check_incremental(&pos, &format!("unwinding undo_move {m}"));
    }
    assert_eq!(
        pos.to_sfen(),
        Position::from_sfen(start.sfen).unwrap().to_sfen(),
        "unwinding the playout restores the start"
    );
}

fn run(target: u64, seed: u64) {
    let t0 = Instant::now();
    let mut st = Stats::default();
    // This file's salt, kept so the playouts are the ones this test has always compared.
    let mut rng = Rng::mixed(seed, 0xD1B5_4A32_D192_ED03);
    let mut i = 0usize;
    while st.positions < target && st.mismatches.len() < 20 {
        let start = &STARTS[i % STARTS.len()];
        let (t, n) = (Instant::now(), st.positions);
        playout(start, &mut rng, &mut st, target);
        if std::env::var_os("DIFF_TRACE").is_some() {
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let k = st.positions - n;
            eprintln!(
                "  playout {i} start {}: {k} positions, {ms:.0} ms",
                i % STARTS.len()
            );
        }
        i += 1;
    }
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "differential: {} playouts, {} positions ({} in check, {} with pieces in hand, {} without \
         side-to-move king, {} mates), {} moves compared, {} pawn-drop mates excluded; raw \
         all_legal_moves_partial also compared in {} positions ({} stalemate-quirk drops); {:.1}s",
        st.playouts,
        st.positions,
        st.in_check,
        st.with_hand,
        st.no_king,
        st.mates,
        st.moves,
        st.oracle.pawn_drop_mates,
        st.oracle.raw_compared,
        st.oracle.raw_quirks,
        secs
    );
    if !st.mismatches.is_empty() {
        for m in &st.mismatches {
            eprintln!("MISMATCH {m}");
        }
        panic!(
            "{} mismatches against shogi_legality_lite (first: {})",
            st.mismatches.len(),
            st.mismatches[0]
        );
    }
    assert_eq!(st.positions, target);
}

#[test]
fn differential() {
    run(20_000, 1);
}

#[test]
#[ignore = "slow: 100k+ positions; run with --ignored"]
fn differential_full() {
    run(120_000, 0x5eed_2024);
}

/// Hand-picked edge cases, each compared with the oracle (and with expectations of our own).
#[test]
fn edge_positions() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        // Pawn-drop mate (illegal), and the same drop when the king can take the pawn (legal).
        ("kn7/9/1G7/9/9/9/9/9/8K b P 1", &[], &["P*9b"]),
        ("kn7/9/9/9/9/9/9/9/8K b P 1", &["P*9b"], &[]),
        // Checking pawn drop that only a pinned gold could take: still mate, illegal; unpinned
        // (bishop removed) the gold takes it: legal.
        ("kn7/1g7/1G7/3B5/9/9/9/9/8K b P 1", &[], &["P*9b"]),
        ("kn7/1g7/1G7/9/9/9/9/9/8K b BP 1", &["P*9b"], &[]),
        // Double check: king moves only.
        ("4k4/9/9/9/8B/9/9/9/4R3K w G 1", &[], &["G*5b"]),
        // Pinned rook may move along the pin only.
        (
            "4k4/4r4/9/9/4R4/9/9/9/4K4 w - 1",
            &["5b5c", "5b5e"],
            &["5b4b"],
        ),
        // No attacker king: drops everywhere legal, no self-check test.
        ("4k4/9/9/9/9/9/9/9/9 b G 1", &["G*5b", "G*1i"], &[]),
        // Forced and optional promotions, knight drops.
        (
            "4k4/9/1P7/9/9/9/9/9/4K4 b N 1",
            &["8c8b", "8c8b+", "N*5c"],
            &["N*5b"],
        ),
    ];
    for &(sfen, must, must_not) in cases {
        let pos = Position::from_sfen(sfen).unwrap();
        let ours = sorted_usi(&pos.legal_move_list());
        let theirs = oracle_usi(&to_partial(sfen), &mut OracleInfo::default());
        assert_eq!(ours, theirs, "{sfen}");
        for m in must {
            assert!(ours.contains(*m), "{sfen}: {m} should be legal");
        }
        for m in must_not {
            assert!(!ours.contains(*m), "{sfen}: {m} should be illegal");
        }
    }
}

#[test]
fn partial_position_conversion() {
    for s in STARTS {
        to_partial(s.sfen);
    }
    let p = to_partial(
        "l+n1g1g+Sn+l/1r3k3/p1pp1p2p/4p1p2/1p7/2P3P2/PP1PPP+b1P/1B2K1R2/LNSG1G1NL w Sp 1",
    );
    assert_eq!(
        p.piece_at(CSquare::new(8, 1).unwrap()),
        Some(CPiece::new(CKind::ProKnight, CColor::White))
    );
}
