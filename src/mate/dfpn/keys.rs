//! Table keys: the board key (side to move included) salted so that entries of one search never
//! answer for another that would read them wrongly.
//!
//! Entries store the attacker's hand beside the board, and the defender's hand is implied by
//! board + attacker hand only when the total material is the same; and a position searched with
//! the other side attacking reads its entries as the wrong side's hand. Both go into the salt.

use crate::shogi::{Color, PieceKind, Position, Square};

/// Material signature: two positions share table entries only if their total material per kind
/// is equal, because the defender's hand is implied by board + attacker hand only then.
fn material_salt(pos: &Position) -> u64 {
    let mut counts = [0u64; 8];
    for sq in Square::all() {
        let p = pos.piece_on(sq);
        if !p.is_empty() {
            counts[p.kind().unpromote().index()] += 1;
        }
    }
    for c in Color::ALL {
        for k in PieceKind::HAND {
            counts[k.index()] += pos.hand(c).count(k) as u64;
        }
    }
    let mut h = 0x243F_6A88_85A3_08D3u64;
    for (i, n) in counts.iter().enumerate() {
        h = (h ^ (n << (i * 5))).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    // Keep bit 0 (side to move) untouched so OR and AND keys stay distinct.
    h & !1
}

/// Table salt of a search: the material signature, and the attacker's colour. Entries store
/// the attacker's hand, so a position searched with the other side attacking (a defender-to-
/// move root after an attacker-to-move one, in one USI session) must not read them. Black keeps
/// the plain material salt.
pub(super) fn table_salt(root: &Position, attacker: Color) -> u64 {
    let colour = match attacker {
        Color::Black => 0,
        Color::White => 0x5851_F42D_4C95_7F2Eu64,
    };
    material_salt(root) ^ colour
}
