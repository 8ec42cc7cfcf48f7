//! Zobrist keys, generated at compile time from a fixed seed (splitmix64).
//!
//! The position keeps two keys: a board key (pieces on squares plus the side to move) and a hand
//! key (additive: each piece in hand adds its kind's number once per copy). The mate search indexes
//! its table by the board key and stores the attacker's hand beside it, so that one entry can
//! answer for every hand that dominates or is dominated by the stored one; repetition detection
//! uses both keys.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn piece_square_keys() -> [[u64; 81]; 28] {
    let mut t = [[0u64; 81]; 28];
    let mut st = 0x5453_554D_5547_4931u64; // "TSUMUGI1"
    let mut p = 0;
    while p < 28 {
        let mut s = 0;
        while s < 81 {
            let (ns, v) = splitmix(st);
            st = ns;
            // Bit 0 is reserved for the side to move, so keys of the two sides never collide.
            t[p][s] = v & !1;
            s += 1;
        }
        p += 1;
    }
    t
}

const fn hand_keys() -> [[u64; 7]; 2] {
    let mut t = [[0u64; 7]; 2];
    let mut st = 0x4841_4E44_4B45_5953u64; // "HANDKEYS"
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let (ns, v) = splitmix(st);
            st = ns;
            t[c][k] = v;
            k += 1;
        }
        c += 1;
    }
    t
}

/// Indexed by `Piece::index()` (colour * 14 + kind) and square.
pub static PIECE_SQUARE: [[u64; 81]; 28] = piece_square_keys();
/// Indexed by colour and hand kind; added once per piece held.
pub static HAND: [[u64; 7]; 2] = hand_keys();
/// XORed in when White is to move.
pub const SIDE: u64 = 1;
