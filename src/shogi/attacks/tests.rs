use super::lines::*;
use super::pext::*;
use super::slider::*;
use super::step::*;
use super::*;
use std::sync::atomic::Ordering;

fn sq(s: &str) -> Square {
    Square::from_usi(s.as_bytes()).unwrap()
}

/// Slow reference: walk rays square by square.
fn slow_slider(sq0: Square, dirs: &[(i8, i8)], occ: Bitboard) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for &(df, dr) in dirs {
        let mut s = sq0;
        while let Some(n) = s.offset(df, dr) {
            b.set(n);
            if occ.has(n) {
                break;
            }
            s = n;
        }
    }
    b
}

#[test]
fn sliders_match_ray_walk_on_random_occupancies() {
    let mut x: u64 = 0x9E3779B97F4A7C15;
    for _ in 0..20000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let y = x.wrapping_mul(0x2545F4914F6CDD1D);
        let occ = Bitboard(((x as u128) << 64 | y as u128) & ((x as u128) << 17 | y as u128))
            & Bitboard::ALL;
        for s in Square::all() {
            let rook = slow_slider(s, &[(0, 1), (0, -1), (1, 0), (-1, 0)], occ);
            let bishop = slow_slider(s, &[(1, 1), (-1, -1), (1, -1), (-1, 1)], occ);
            assert_eq!(rook_attack(s, occ), rook, "rook {s:?} {occ:?}");
            assert_eq!(bishop_attack(s, occ), bishop, "bishop {s:?}");
            assert_eq!(
                lance_attack(Color::Black, s, occ),
                slow_slider(s, &[(0, -1)], occ)
            );
            assert_eq!(
                lance_attack(Color::White, s, occ),
                slow_slider(s, &[(0, 1)], occ)
            );
        }
        if x & 0xff == 0 {
            break;
        }
    }
}

/// Forces the portable path (as on a CPU without BMI2) and checks perft and the slider
/// attacks against the ray walk, then the same with PEXT where the CPU has it.
#[test]
fn portable_path_gives_the_same_attacks_and_perft_as_pext() {
    use crate::shogi::{perft, Position};
    for want in [SliderPath::Portable, SliderPath::Pext] {
        let got = set_slider_path(want);
        if got != want {
            eprintln!("SKIPPED: {} path (no BMI2 on this CPU)", want.name());
            continue;
        }
        assert_eq!(slider_path(), want);
        let mut p = Position::startpos();
        assert_eq!(perft(&mut p, 4), 719_731, "{}", want.name());
        // Both sides' rooks and bishops on open lines (tests/data/perft.txt, from cshogi).
        let mut q = Position::from_sfen("4k4/2s6/2R2B1P1/9/4b1r1P/9/1p5s1/9/4K4 w - 1").unwrap();
        assert_eq!(perft(&mut q, 3), 125_728, "{}", want.name());
        let mut occ: u128 = 0x0123_4567_89ab_cdef_0f1e_2d3c_4b5a_6978;
        for _ in 0..500 {
            occ = occ.rotate_left(7) ^ (occ >> 3).wrapping_mul(0x9E37_79B9);
            let o = Bitboard(occ) & Bitboard::ALL;
            for s in Square::all() {
                let rook = slow_slider(s, &[(0, 1), (0, -1), (1, 0), (-1, 0)], o);
                let bishop = slow_slider(s, &[(1, 1), (-1, -1), (1, -1), (-1, 1)], o);
                assert_eq!(rook_attack(s, o), rook, "{} rook {s:?}", want.name());
                assert_eq!(bishop_attack(s, o), bishop, "{} bishop {s:?}", want.name());
            }
        }
    }
    // Back to the process's own choice for the tests that follow.
    PATH.store(PATH_UNKNOWN, Ordering::Relaxed);
}

#[test]
fn microcoded_pext_families_take_the_portable_path() {
    assert!(pext_is_fast_on(b"GenuineIntel", 6));
    assert!(!pext_is_fast_on(b"AuthenticAMD", 0x15)); // Excavator
    assert!(!pext_is_fast_on(b"AuthenticAMD", 0x17)); // Zen, Zen+, Zen 2
    assert!(!pext_is_fast_on(b"HygonGenuine", 0x18)); // Dhyana
    assert!(pext_is_fast_on(b"AuthenticAMD", 0x19)); // Zen 3, Zen 4
    assert!(pext_is_fast_on(b"AuthenticAMD", 0x1a)); // Zen 5
}

#[test]
fn step_attacks() {
    // Black knight on 5e reaches 4c and 6c.
    let k = knight_attack(Color::Black, sq("5e"));
    assert_eq!(k.count(), 2);
    assert!(k.has(sq("4c")) && k.has(sq("6c")));
    // White pawn on 5c attacks 5d.
    assert!(pawn_attack(Color::White, sq("5c")).has(sq("5d")));
    assert_eq!(gold_attack(Color::Black, sq("5e")).count(), 6);
    assert_eq!(silver_attack(Color::White, sq("5e")).count(), 5);
    assert!(silver_attack(Color::White, sq("5e")).has(sq("5f")));
    assert_eq!(king_attack(sq("1a")).count(), 3);
}

#[test]
fn between_and_line() {
    assert_eq!(between(sq("1a"), sq("1e")).count(), 3);
    assert_eq!(between(sq("1a"), sq("5e")).count(), 3);
    assert!(between(sq("1a"), sq("2c")).is_empty());
    assert_eq!(line(sq("5e"), sq("5f")).count(), 9);
    assert!(line(sq("1a"), sq("2c")).is_empty());
}
