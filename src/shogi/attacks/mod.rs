//! Attack tables for every piece, all computed at compile time (`const`), so there is no
//! initialisation step for a caller to forget.
//!
//! Sliders:
//! - Files are 9 contiguous bits (file-major squares), so a rook's or lance's file attack is a
//!   shift to extract the 7 inner occupancy bits and a lookup in a 9 x 128 table of 9-bit rows.
//! - Ranks and both diagonals use PEXT (BMI2) on the two 64-bit halves of the board to gather the
//!   line's inner occupancy into a 7-bit index. Chosen by measurement: `cargo bench --bench
//!   sliders` times rook + bishop lookups against a classical ray scan (ray masks, first blocker
//!   by bit scan); on our Xeon (BMI2 with fast PEXT) the ray scan took about 4 times as long
//!   (2026-11-21: 5.2 against 21.3 ns per lookup). Magic bitboards were not tried: on an 81-bit
//!   board they need the two halves folded and bigger tables, for at best PEXT's speed. PEXT is
//!   chosen at run time ([`slider_path`]): one binary runs on every x86-64 CPU. A CPU without
//!   BMI2 (or with a slow, microcoded PEXT), and every other architecture (WebAssembly, ARM),
//!   uses the obstruction difference instead (see `slider`): no table, no branch, a few
//!   128-bit integer operations per line. It replaced a bit-by-bit PEXT loop into the same
//!   tables, whose data-dependent branches mispredict (same benchmark, 2026-11-28: PEXT
//!   tables 7.51, obstruction difference 11.68 ns per lookup; the loop 15.10 against PEXT's
//!   6.80 in a run before it).
//!
//! Files: `step` (the one-step pieces' tables: pawn, knight, silver, gold, king), `slider` (the
//! sliders' lookups: the file table, the PEXT-indexed rank and diagonal tables and the
//! obstruction difference), `pext` (the PEXT instruction and the run-time choice of path),
//! `lines` (empty-board geometry: rays, reach, the squares between two squares and the line
//! through them); this file gives the attacks of any piece.

mod lines;
mod pext;
mod slider;
mod step;
#[cfg(test)]
mod tests;

pub use lines::{between, bishop_pseudo, king_zone_reach, lance_pseudo, line, rook_pseudo};
pub use pext::{set_slider_path, slider_path, SliderPath};
pub use slider::{
    bishop_attack, dragon_attack, file_attack, horse_attack, lance_attack, rank_attack, rook_attack,
};
pub use step::{gold_attack, king_attack, knight_attack, pawn_attack, silver_attack};

use super::bitboard::Bitboard;
use super::types::{Color, PieceKind, Square};

/// Attacks of a piece of kind `k` and colour `c` standing on `sq` with occupancy `occ`.
#[inline]
pub fn attacks(c: Color, k: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match k {
        PieceKind::Pawn => pawn_attack(c, sq),
        PieceKind::Lance => lance_attack(c, sq, occ),
        PieceKind::Knight => knight_attack(c, sq),
        PieceKind::Silver => silver_attack(c, sq),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => gold_attack(c, sq),
        PieceKind::Bishop => bishop_attack(sq, occ),
        PieceKind::Rook => rook_attack(sq, occ),
        PieceKind::King => king_attack(sq),
        PieceKind::Horse => horse_attack(sq, occ),
        PieceKind::Dragon => dragon_attack(sq, occ),
    }
}
