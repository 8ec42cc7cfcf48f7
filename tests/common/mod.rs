//! Shared test helpers: SFEN → `shogi_core::PartialPosition`, and `shogi_legality_lite` as an
//! independent legal-move oracle (with one documented deviation corrected).
//!
//! The deviation: `shogi_legality_lite`'s pawn-drop-mate test (`prelegality::is_valid`) rejects
//! every pawn drop after which the opponent has no legal move, *even when the drop does not give
//! check* (it calls `prelegality::is_mate`, documented as "the king does not need to be in
//! check"). By the rules only a checking pawn drop that mates (打ち歩詰め) is illegal; a
//! non-checking drop that leaves the opponent without a move is legal (and wins). `oracle_moves`
//! adds such drops back, using only the oracle's own functions: the drop must be rejected by
//! `is_valid_with_error` with exactly `DropPawnMate`, must not leave the mover's king capturable,
//! and must not give check.

#![allow(dead_code)]

use shogi_core::{
    Color as CColor, Hand as CHand, IllegalMoveKind, Move as CMove, PartialPosition,
    Piece as CPiece, PieceKind as CKind, Square as CSquare, ToUsi,
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

/// Legal moves by `shogi_legality_lite`, plus the non-checking pawn drops its pawn-drop-mate
/// test wrongly rejects (see the module docs). Returns the moves and how many were added back.
pub fn oracle_moves(p: &PartialPosition) -> (Vec<CMove>, usize) {
    let mut moves = shogi_legality_lite::all_legal_moves_partial(p);
    let side = p.side_to_move();
    let pawn = CPiece::new(CKind::Pawn, side);
    if p.hand(pawn).unwrap_or(0) == 0 {
        return (moves, 0);
    }
    let have: BTreeSet<usize> = moves
        .iter()
        .filter_map(|m| match *m {
            CMove::Drop { piece, to } if piece == pawn => Some(to.array_index()),
            _ => None,
        })
        .collect();
    let mut added = 0;
    for to in p.vacant_bitboard() {
        if have.contains(&to.array_index()) {
            continue;
        }
        let mv = CMove::Drop { piece: pawn, to };
        let mut next = p.clone();
        if next.make_move(mv).is_none() {
            continue;
        }
        // Leaves the mover's own king capturable: illegal anyway.
        if shogi_legality_lite::prelegality::will_king_be_captured(&next) == Some(true) {
            continue;
        }
        // A checking drop: the oracle's pawn-drop-mate verdict stands.
        if shogi_legality_lite::is_in_check_partial_lite(&next) {
            continue;
        }
        if shogi_legality_lite::prelegality::is_valid_with_error(p, mv)
            == Err(IllegalMoveKind::DropPawnMate)
        {
            moves.push(mv);
            added += 1;
        }
    }
    (moves, added)
}

/// `oracle_moves` as sorted USI strings, plus the number of corrected moves.
pub fn oracle_usi(p: &PartialPosition) -> (BTreeSet<String>, usize) {
    let (moves, added) = oracle_moves(p);
    (moves.iter().map(|m| m.to_usi_owned()).collect(), added)
}

/// Leaf-counting perft over the corrected oracle (bulk counting at depth 1). The second value
/// counts corrected moves met on the way (0 means `shogi_legality_lite::perft::perft` gives the
/// same number).
pub fn oracle_perft(p: &PartialPosition, depth: u32) -> (u64, u64) {
    if depth == 0 {
        return (1, 0);
    }
    let (moves, added) = oracle_moves(p);
    let mut quirks = added as u64;
    if depth == 1 {
        return (moves.len() as u64, quirks);
    }
    let mut n = 0;
    for mv in moves {
        let mut next = p.clone();
        next.make_move(mv).expect("oracle move applies");
        let (c, q) = oracle_perft(&next, depth - 1);
        n += c;
        quirks += q;
    }
    (n, quirks)
}
