//! Shared test helpers: SFEN → `shogi_core::PartialPosition`, and `shogi_legality_lite` as an
//! independent legal-move oracle. See `oracle_moves` for why the oracle is assembled from the
//! crate's primitives rather than taken from `all_legal_moves_partial` directly, and
//! `oracle_moves_checked` for how the two are compared where the latter is usable.
//!
//! [`problems`]: where the shared problem sets are and how a set file is read.
//! [`rng`]: the seeded random numbers and random moves of the randomized tests.

#![allow(dead_code)]

pub mod harness;
pub mod problems;
pub mod rng;

use shogi_core::{
    Color as CColor, Hand as CHand, Move as CMove, PartialPosition, Piece as CPiece,
    PieceKind as CKind, Square as CSquare, ToUsi,
};
use std::collections::BTreeSet;

fn core_kind(ch: char, promoted: bool) -> CKind {
    let k = match ch.to_ascii_uppercase() {
        'P' => CKind::Pawn,
        'L' => CKind::Lance,
        'N' => CKind::Knight,
        'S' => CKind::Silver,
        'G' => CKind::Gold,
        'B' => CKind::Bishop,
        'R' => CKind::Rook,
        'K' => CKind::King,
        _ => panic!("bad piece letter {ch:?}"),
    };
    if promoted {
        k.promote().expect("promotable kind")
    } else {
        k
    }
}

fn core_color(ch: char) -> CColor {
    if ch.is_ascii_uppercase() {
        CColor::Black
    } else {
        CColor::White
    }
}

/// Builds a `PartialPosition` from SFEN text (optionally prefixed by `sfen`; `startpos`).
/// shogi_core 0.1.5 has no SFEN parser (that lives in the separate `shogi_usi_parser` crate),
/// only `to_sfen`; so we parse with shogi_core's setters here and verify with its
/// `to_sfen_owned` that the result prints back to the same board, side and hand.
pub fn to_partial(sfen: &str) -> PartialPosition {
    let mut f: Vec<&str> = sfen.split_ascii_whitespace().collect();
    if f.first() == Some(&"sfen") {
        f.remove(0);
    }
    if f == ["startpos"] {
        return PartialPosition::startpos();
    }
    assert!(f.len() >= 3, "bad sfen {sfen}");
    let mut p = PartialPosition::empty();
    let rows: Vec<&str> = f[0].split('/').collect();
    assert_eq!(rows.len(), 9, "bad board in {sfen}");
    for (r, row) in rows.iter().enumerate() {
        let mut file: i32 = 9;
        let mut promoted = false;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file -= d as i32;
            } else if ch == '+' {
                promoted = true;
            } else {
                let piece = CPiece::new(core_kind(ch, promoted), core_color(ch));
                let sq = CSquare::new(file as u8, r as u8 + 1).expect("square");
                p.piece_set(sq, Some(piece));
                file -= 1;
                promoted = false;
            }
        }
        assert_eq!(file, 0, "bad rank in {sfen}");
    }
    p.side_to_move_set(match f[1] {
        "b" => CColor::Black,
        "w" => CColor::White,
        s => panic!("bad side {s:?} in {sfen}"),
    });
    if f[2] != "-" {
        let mut n = 0u32;
        for ch in f[2].chars() {
            if let Some(d) = ch.to_digit(10) {
                n = n * 10 + d;
                continue;
            }
            let hand: &mut CHand = p.hand_of_a_player_mut(core_color(ch));
            for _ in 0..n.max(1) {
                *hand = hand.added(core_kind(ch, false)).expect("hand overflow");
            }
            n = 0;
        }
    }
    let back = p.to_sfen_owned();
    let a: Vec<&str> = back.split_ascii_whitespace().take(3).collect();
    assert_eq!(a, f[..3].to_vec(), "PartialPosition round trip of {sfen}");
    p
}

/// A copy of `p` without `color`'s king (built afresh: `piece_set(sq, None)` would leave
/// shogi_core's cached king square stale).
fn without_king(p: &PartialPosition, color: CColor) -> PartialPosition {
    let mut q = PartialPosition::empty();
    for sq in CSquare::all() {
        if let Some(pc) = p.piece_at(sq) {
            if pc != CPiece::new(CKind::King, color) {
                q.piece_set(sq, Some(pc));
            }
        }
    }
    for c in [CColor::Black, CColor::White] {
        *q.hand_of_a_player_mut(c) = p.hand_of_a_player(c);
    }
    q.side_to_move_set(p.side_to_move());
    q
}

/// Does the side to move in `p` have no legal board move? (`normal_from_candidates` is the
/// oracle's legal-destination set of one piece, own-king safety included.)
fn no_board_move(p: &PartialPosition) -> bool {
    let side = p.side_to_move();
    p.player_bitboard(side)
        .into_iter()
        .all(|from| shogi_legality_lite::normal_from_candidates(p, from).is_empty())
}

/// Counters of how the oracle judged pawn drops.
#[derive(Default, Clone, Copy, Debug)]
pub struct OracleInfo {
    /// Checking pawn drops rejected as pawn-drop mate.
    pub pawn_drop_mates: u64,
    /// Raw `all_legal_moves_partial` comparisons done (see `oracle_moves_checked`).
    pub raw_compared: u64,
    /// Non-checking pawn drops the raw function rejects (its stalemate quirk).
    pub raw_quirks: u64,
}

/// Every legal move of `p`, built from `shogi_legality_lite`'s primitives.
///
/// Why not simply `shogi_legality_lite::all_legal_moves_partial`: its pawn-drop validity test
/// (`prelegality::is_valid`) runs `prelegality::is_mate` on every pawn drop, and `is_mate` scans
/// all valid replies with `is_valid` again, which for the opponent's own pawn drops runs
/// `is_mate` again, and so on: exponential when both sides hold pawns. It did not finish in
/// minutes on `sS3l3/2+L1R1+B2/1s1s2G1k/3l2GN1/4n1g2/4pnL1p/1pB6/G3+r4/NPK6 b 8P6p 77` (a
/// position from our playouts; we generate its 96 moves in microseconds). It also rejects a pawn
/// drop that does *not* give check when the opponent is then left without a move (`is_mate`
/// "does not need the king to be in check"), whereas the rule (打ち歩詰め) concerns checking drops
/// only. So here:
/// * board moves: destinations from `normal_from_candidates` (legal, king safety included), each
///   promotion flag kept if `prelegality::is_valid` accepts it (promotion rules, dead ranks);
/// * non-pawn drops: `is_legal_partial_lite`;
/// * pawn drops: `prelegality::is_valid` on a copy without the opponent's king (so its
///   `is_mate` returns `None` and only hand, vacancy, dead rank and nifu are tested), then own king
///   safety with `will_king_be_captured`; a drop that gives check (`is_in_check_partial_lite`) is
///   pawn-drop mate iff the opponent then has no legal board move (a drop can never answer the
///   check of an adjacent pawn).
pub fn oracle_moves(p: &PartialPosition, info: &mut OracleInfo) -> Vec<CMove> {
    use shogi_legality_lite::prelegality::{is_valid, will_king_be_captured};
    let side = p.side_to_move();
    let mut moves = Vec::new();
    for from in p.player_bitboard(side) {
        for to in shogi_legality_lite::normal_from_candidates(p, from) {
            for promote in [false, true] {
                let mv = CMove::Normal { from, to, promote };
                if is_valid(p, mv) {
                    moves.push(mv);
                }
            }
        }
    }
    let hand = p.hand_of_a_player(side);
    let mut no_king: Option<PartialPosition> = None;
    for kind in CHand::all_hand_pieces() {
        if hand.count(kind).unwrap_or(0) == 0 {
            continue;
        }
        let piece = CPiece::new(kind, side);
        for to in p.vacant_bitboard() {
            let mv = CMove::Drop { piece, to };
            if kind != CKind::Pawn {
                if shogi_legality_lite::is_legal_partial_lite(p, mv) {
                    moves.push(mv);
                }
                continue;
            }
            let q = no_king.get_or_insert_with(|| without_king(p, side.flip()));
            if !is_valid(q, mv) {
                continue;
            }
            let mut next = p.clone();
            next.make_move(mv).expect("valid drop applies");
            if will_king_be_captured(&next) == Some(true) {
                continue;
            }
            if shogi_legality_lite::is_in_check_partial_lite(&next) && no_board_move(&next) {
                info.pawn_drop_mates += 1;
                continue;
            }
            moves.push(mv);
        }
    }
    moves
}

/// `oracle_moves`, and, where the raw `all_legal_moves_partial` is safe from its exponential
/// case (the side not to move holds no pawn, so its `is_mate` never recurses), also that: every
/// raw move must be in ours, and every move of ours it lacks must be a non-checking pawn drop
/// (its stalemate quirk, counted); anything else panics, as the two oracles then disagree.
pub fn oracle_moves_checked(p: &PartialPosition, info: &mut OracleInfo) -> Vec<CMove> {
    let moves = oracle_moves(p, info);
    let them = p.side_to_move().flip();
    if p.hand(CPiece::new(CKind::Pawn, them)).unwrap_or(0) != 0 {
        return moves;
    }
    info.raw_compared += 1;
    let raw = shogi_legality_lite::all_legal_moves_partial(p);
    for m in &raw {
        assert!(
            moves.contains(m),
            "composed oracle lacks raw move {} in {}",
            m.to_usi_owned(),
            p.to_sfen_owned()
        );
    }
    for m in &moves {
        if raw.contains(m) {
            continue;
        }
        let quirk = match *m {
            CMove::Drop { piece, .. } if piece.piece_kind() == CKind::Pawn => {
                let mut next = p.clone();
                next.make_move(*m).unwrap();
                !shogi_legality_lite::is_in_check_partial_lite(&next)
            }
            _ => false,
        };
        assert!(
            quirk,
            "raw all_legal_moves_partial lacks {} in {}",
            m.to_usi_owned(),
            p.to_sfen_owned()
        );
        info.raw_quirks += 1;
    }
    moves
}

/// `oracle_moves_checked` as sorted USI strings.
pub fn oracle_usi(p: &PartialPosition, info: &mut OracleInfo) -> BTreeSet<String> {
    oracle_moves_checked(p, info)
        .iter()
        .map(|m| m.to_usi_owned())
        .collect()
}

/// Replays `line` (USI moves) from `sfen` with the oracle: every move legal, every attacker
/// move a check, and the last position a checkmate. An odd-length line starts with the
/// attacker; an even-length one with the defender (a defender-to-move root). `Err` says which
/// ply failed and why.
pub fn oracle_mate_line(sfen: &str, line: &[String]) -> Result<(), String> {
    if line.is_empty() {
        return Err("empty line".into());
    }
    let mut p = to_partial(sfen);
    let mut info = OracleInfo::default();
    let first_attacker = if line.len() % 2 == 1 { 0 } else { 1 };
    for (i, usi) in line.iter().enumerate() {
        let Some(om) = oracle_moves(&p, &mut info)
            .into_iter()
            .find(|om| om.to_usi_owned() == *usi)
        else {
            return Err(format!(
                "ply {} {usi} is illegal in {}",
                i + 1,
                p.to_sfen_owned()
            ));
        };
        p.make_move(om).expect("oracle move applies");
        if i % 2 == first_attacker && !shogi_legality_lite::is_in_check_partial_lite(&p) {
            return Err(format!("ply {} {usi} (attacker) gives no check", i + 1));
        }
    }
    if shogi_legality_lite::is_in_check_partial_lite(&p) && oracle_moves(&p, &mut info).is_empty() {
        Ok(())
    } else {
        Err(format!("not checkmate at the end: {}", p.to_sfen_owned()))
    }
}

/// Leaf-counting perft over `oracle_moves` (bulk counting at depth 1).
pub fn oracle_perft(p: &PartialPosition, depth: u32, info: &mut OracleInfo) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = oracle_moves(p, info);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for mv in moves {
        let mut next = p.clone();
        next.make_move(mv).expect("oracle move applies");
        n += oracle_perft(&next, depth - 1, info);
    }
    n
}

/// Search threads of the solvers the mate suites use: `TSUMUGI_TEST_THREADS` (default 1), so
/// that scripts/test runs them with one thread and again with several over a shared table.
pub fn test_threads() -> usize {
    std::env::var("TSUMUGI_TEST_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(1)
}

/// A solver with a table of `mb` MB and [`test_threads`] search threads.
pub fn solver(mb: usize) -> tsumugi::mate::Solver {
    let mut s = tsumugi::mate::Solver::new(mb);
    s.set_threads(test_threads());
    s
}
