//! Slider attack lookup: our PEXT tables (`tsumugi::shogi::attacks`), indexed by the PEXT
//! instruction, and the obstruction difference (the two run-time paths), against a classical ray
//! scan (per-direction ray masks, first blocker by bit scan), the choice recorded in
//! `src/shogi/attacks/mod.rs`. Same pseudo-random occupancies for all; medians of 5 runs.
//!
//! `cargo bench --bench sliders`

use std::hint::black_box;
use std::time::Instant;
use tsumugi::shogi::attacks::{bishop_attack, rook_attack, set_slider_path, SliderPath};
use tsumugi::shogi::{Bitboard, Square};

/// RAYS[dir][sq]: squares from sq in direction dir to the edge (no blockers).
fn rays() -> Vec<[u128; 81]> {
    const DIRS: [(i8, i8); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (-1, 1),
    ];
    DIRS.iter()
        .map(|&(df, dr)| {
            let mut t = [0u128; 81];
            for s in Square::all() {
                let mut b = 0u128;
                let mut c = s;
                while let Some(n) = c.offset(df, dr) {
                    b |= 1u128 << n.index();
                    c = n;
                }
                t[s.index()] = b;
            }
            t
        })
        .collect()
}

/// Directions 0..4 increase the square index (first blocker = lowest bit), 4..8 decrease it.
#[inline(always)]
fn ray_scan(rays: &[[u128; 81]], dirs: [usize; 4], sq: usize, occ: u128) -> u128 {
    let mut a = 0u128;
    for d in dirs {
        let r = rays[d][sq];
        let b = r & occ;
        if b == 0 {
            a |= r;
        } else if d < 4 {
            let f = b.trailing_zeros() as usize;
            a |= r & !rays[d][f];
        } else {
            let f = 127 - b.leading_zeros() as usize;
            a |= r & !rays[d][f];
        }
    }
    a
}

fn main() {
    let rays = rays();
    let mut x = 0x243F_6A88_85A3_08D3u64;
    let occs: Vec<u128> = (0..4096)
        .map(|_| {
            let mut w = 0u128;
            for _ in 0..2 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                w = (w << 64) | x as u128;
            }
            // About a third of the squares occupied, as in middle games.
            let y = w.rotate_left(29);
            w & y & ((1u128 << 81) - 1)
        })
        .collect();
    // Check the two agree before timing them.
    for &o in &occs[..256] {
        for s in Square::all() {
            let r = ray_scan(&rays, [0, 1, 4, 5], s.index(), o);
            let b = ray_scan(&rays, [2, 3, 6, 7], s.index(), o);
            assert_eq!(rook_attack(s, Bitboard(o)).0, r);
            assert_eq!(bishop_attack(s, Bitboard(o)).0, b);
        }
    }
    let lookups = occs.len() * 81 * 2;
    let mut pext_ns = vec![];
    let mut od_ns = vec![];
    let mut ray_ns = vec![];
    let pext_here = set_slider_path(SliderPath::Pext) == SliderPath::Pext;
    for _ in 0..5 {
        // The portable path: the obstruction difference (as on a CPU without a fast PEXT).
        set_slider_path(SliderPath::Portable);
        od_ns.push(time_lookups(&occs, lookups));
        set_slider_path(SliderPath::Pext);
        pext_ns.push(time_lookups(&occs, lookups));
        let t = Instant::now();
        let mut acc = 0u128;
        for &o in &occs {
            for s in Square::all() {
                acc ^= ray_scan(&rays, [0, 1, 4, 5], s.index(), black_box(o));
                acc ^= ray_scan(&rays, [2, 3, 6, 7], s.index(), black_box(o));
            }
        }
        black_box(acc);
        ray_ns.push(t.elapsed().as_nanos() as f64 / lookups as f64);
    }
    pext_ns.sort_by(f64::total_cmp);
    od_ns.sort_by(f64::total_cmp);
    ray_ns.sort_by(f64::total_cmp);
    let (p, l, r) = (pext_ns[2], od_ns[2], ray_ns[2]);
    println!("slider lookup (rook + bishop), median of 5 over {lookups} lookups each:");
    if pext_here {
        println!("  PEXT tables     {p:.2} ns/lookup");
    } else {
        println!("  (no BMI2 here: the PEXT row is the portable path again)");
    }
    println!("  obstruction diff {l:.2} ns/lookup");
    println!("  classical rays  {r:.2} ns/lookup");
    println!("  ratio rays/PEXT {:.2}", r / p);
}

/// Nanoseconds a rook and bishop lookup on every square of every occupancy in `occs` take
/// with the slider path chosen now (`lookups` of them in all).
fn time_lookups(occs: &[u128], lookups: usize) -> f64 {
    let t = Instant::now();
    let mut acc = 0u128;
    for &o in occs {
        for s in Square::all() {
            acc ^= rook_attack(s, Bitboard(black_box(o))).0;
            acc ^= bishop_attack(s, Bitboard(black_box(o))).0;
        }
    }
    black_box(acc);
    t.elapsed().as_nanos() as f64 / lookups as f64
}
