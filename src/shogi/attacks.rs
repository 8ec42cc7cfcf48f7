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
//!   chosen at run time ([`slider_path`]): one binary runs on every x86-64 CPU, and a CPU
//!   without BMI2 (or with a slow, microcoded PEXT) uses a bit-by-bit loop (same index, slower).

use super::bitboard::Bitboard;
use super::types::{Color, PieceKind, Square};
use std::sync::atomic::{AtomicU8, Ordering};

const fn bit(f: i32, r: i32) -> u128 {
    if f < 0 || f > 8 || r < 0 || r > 8 {
        0
    } else {
        1u128 << (f * 9 + r)
    }
}

/// Step attacks from `sq` for Black given (df, dr) offsets; White mirrors dr.
const fn steps(sq: usize, c: usize, offs: &[(i32, i32)]) -> u128 {
    let f = (sq / 9) as i32;
    let r = (sq % 9) as i32;
    let mut b = 0u128;
    let mut i = 0;
    while i < offs.len() {
        let (df, dr) = offs[i];
        let dr = if c == 0 { dr } else { -dr };
        b |= bit(f + df, r + dr);
        i += 1;
    }
    b
}

const PAWN_OFFS: [(i32, i32); 1] = [(0, -1)];
const KNIGHT_OFFS: [(i32, i32); 2] = [(-1, -2), (1, -2)];
const SILVER_OFFS: [(i32, i32); 5] = [(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_OFFS: [(i32, i32); 6] = [(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_OFFS: [(i32, i32); 8] = [
    (0, -1),
    (-1, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, 1),
    (1, 1),
];

const fn step_table(offs: &[(i32, i32)]) -> [[Bitboard; 81]; 2] {
    let mut t = [[Bitboard(0); 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            t[c][sq] = Bitboard(steps(sq, c, offs));
            sq += 1;
        }
        c += 1;
    }
    t
}

static PAWN: [[Bitboard; 81]; 2] = step_table(&PAWN_OFFS);
static KNIGHT: [[Bitboard; 81]; 2] = step_table(&KNIGHT_OFFS);
static SILVER: [[Bitboard; 81]; 2] = step_table(&SILVER_OFFS);
static GOLD: [[Bitboard; 81]; 2] = step_table(&GOLD_OFFS);
static KING: [[Bitboard; 81]; 2] = step_table(&KING_OFFS);

/// Squares reached from `sq` walking (df, dr) until and including the first occupied square.
const fn ray(sq: usize, df: i32, dr: i32, occ: u128) -> u128 {
    let mut f = (sq / 9) as i32 + df;
    let mut r = (sq % 9) as i32 + dr;
    let mut b = 0u128;
    while f >= 0 && f <= 8 && r >= 0 && r <= 8 {
        let s = 1u128 << (f * 9 + r);
        b |= s;
        if occ & s != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    b
}

/// Inner squares of a ray (the ray without its last, edge square): the occupancy that matters.
const fn ray_inner(sq: usize, df: i32, dr: i32) -> u128 {
    let full = ray(sq, df, dr, 0);
    if full == 0 {
        return 0;
    }
    // The edge square is the farthest one along the ray.
    let mut f = (sq / 9) as i32;
    let mut r = (sq % 9) as i32;
    while f + df >= 0 && f + df <= 8 && r + dr >= 0 && r + dr <= 8 {
        f += df;
        r += dr;
    }
    full & !(1u128 << (f * 9 + r))
}

/// The three PEXT-indexed lines: rank (horizontal), diagonal, anti-diagonal.
const LINE_DIRS: [[(i32, i32); 2]; 3] = [[(1, 0), (-1, 0)], [(1, 1), (-1, -1)], [(1, -1), (-1, 1)]];

#[derive(Clone, Copy)]
struct LineMask {
    lo: u64,
    hi: u64,
    lo_bits: u32,
}

const fn line_masks() -> [[LineMask; 3]; 81] {
    let mut t = [[LineMask {
        lo: 0,
        hi: 0,
        lo_bits: 0,
    }; 3]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut l = 0;
        while l < 3 {
            let m = ray_inner(sq, LINE_DIRS[l][0].0, LINE_DIRS[l][0].1)
                | ray_inner(sq, LINE_DIRS[l][1].0, LINE_DIRS[l][1].1);
            t[sq][l] = LineMask {
                lo: m as u64,
                hi: (m >> 64) as u64,
                lo_bits: (m as u64).count_ones(),
            };
            l += 1;
        }
        sq += 1;
    }
    t
}

static LINE_MASKS: [[LineMask; 3]; 81] = line_masks();

/// Deposits the low bits of `idx` into the set bits of `mask` (software PDEP, build time only).
const fn pdep(mut idx: u128, mut mask: u128) -> u128 {
    let mut out = 0u128;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if idx & 1 != 0 {
            out |= low;
        }
        idx >>= 1;
        mask &= mask - 1;
    }
    out
}

const fn line_attacks() -> [[[Bitboard; 128]; 3]; 81] {
    let mut t = [[[Bitboard(0); 128]; 3]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut l = 0;
        while l < 3 {
            let (d0, d1) = (LINE_DIRS[l][0], LINE_DIRS[l][1]);
            let mask = ray_inner(sq, d0.0, d0.1) | ray_inner(sq, d1.0, d1.1);
            let n = mask.count_ones();
            let mut idx = 0u128;
            while idx < (1u128 << n) {
                let occ = pdep(idx, mask);
                t[sq][l][idx as usize] =
                    Bitboard(ray(sq, d0.0, d0.1, occ) | ray(sq, d1.0, d1.1, occ));
                idx += 1;
            }
            l += 1;
        }
        sq += 1;
    }
    t
}

static LINE_ATTACKS: [[[Bitboard; 128]; 3]; 81] = line_attacks();

/// FILE_ATTACKS[rank][inner occupancy of the file, 7 bits] = 9-bit row of attacked ranks.
const fn file_attacks() -> [[u16; 128]; 9] {
    let mut t = [[0u16; 128]; 9];
    let mut r = 0;
    while r < 9 {
        let mut idx = 0;
        while idx < 128 {
            let occ = (idx as u128) << 1; // ranks 1..7 (b..h) of file 1
            let a = ray(r, 0, 1, occ) | ray(r, 0, -1, occ);
            t[r][idx] = a as u16;
            idx += 1;
        }
        r += 1;
    }
    t
}

static FILE_ATTACKS: [[u16; 128]; 9] = file_attacks();

/// Squares ahead of `sq` for colour c on its file (the lance's direction), no blockers.
const fn forward_table() -> [[Bitboard; 81]; 2] {
    let mut t = [[Bitboard(0); 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        t[0][sq] = Bitboard(ray(sq, 0, -1, 0));
        t[1][sq] = Bitboard(ray(sq, 0, 1, 0));
        sq += 1;
    }
    t
}

static FORWARD: [[Bitboard; 81]; 2] = forward_table();

/// Rook (index 0) and bishop (index 1) attacks on an empty board: a slider of that kind can
/// attack `sq` only from one of these squares, so one lookup rules out most slider tests.
const fn pseudo_table() -> [[Bitboard; 81]; 2] {
    let mut t = [[Bitboard(0); 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        t[0][sq] =
            Bitboard(ray(sq, 0, 1, 0) | ray(sq, 0, -1, 0) | ray(sq, 1, 0, 0) | ray(sq, -1, 0, 0));
        t[1][sq] =
            Bitboard(ray(sq, 1, 1, 0) | ray(sq, 1, -1, 0) | ray(sq, -1, 1, 0) | ray(sq, -1, -1, 0));
        sq += 1;
    }
    t
}

static PSEUDO: [[Bitboard; 81]; 2] = pseudo_table();

/// How the rank and diagonal lookups gather a line's occupancy into a table index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderPath {
    /// BMI2's PEXT instruction: one instruction per board half.
    Pext,
    /// A bit-by-bit loop over the mask (at most 7 bits): same index, a few times slower.
    Portable,
}

impl SliderPath {
    /// The name used by `TSUMUGI_PEXT` and printed by `tsumugi bench`.
    pub fn name(self) -> &'static str {
        match self {
            SliderPath::Pext => "pext",
            SliderPath::Portable => "portable",
        }
    }
}

// The path in force, chosen once per process (`choose_path`): the binary is built for the
// x86-64 baseline, so whether PEXT may be used is known only at run time. A relaxed load of a
// byte that never changes once chosen stays in L1 and its branch is always predicted
// the same way: measured against a build with PEXT compiled in, see docs/release.md.
const PATH_UNKNOWN: u8 = 0;
const PATH_PORTABLE: u8 = 1;
const PATH_PEXT: u8 = 2;
static PATH: AtomicU8 = AtomicU8::new(PATH_UNKNOWN);

/// The slider path this process uses, chosen at the first call: the binary makes it when it
/// starts (`cli::run`) and every `mate::Solver::new` makes sure of it. Until then lookups take
/// the portable path, which gives the same attacks: the hot path tests one byte for PEXT and
/// has no "not chosen yet" branch.
pub fn slider_path() -> SliderPath {
    let mut p = PATH.load(Ordering::Relaxed);
    if p == PATH_UNKNOWN {
        p = choose_path();
    }
    if p == PATH_PEXT {
        SliderPath::Pext
    } else {
        SliderPath::Portable
    }
}

/// Sets the slider path, for tests and benchmarks that compare the two. PEXT is taken only if
/// the CPU has BMI2 (else the portable path stays); returns the path now in force. Both paths
/// give the same attacks, so a search running meanwhile is unaffected apart from its speed.
pub fn set_slider_path(want: SliderPath) -> SliderPath {
    let code = match want {
        SliderPath::Pext if cpu_has_bmi2() => PATH_PEXT,
        _ => PATH_PORTABLE,
    };
    PATH.store(code, Ordering::Relaxed);
    slider_path()
}

/// Whether lookups use the PEXT instruction (the path was chosen, and chose it).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn use_pext() -> bool {
    PATH.load(Ordering::Relaxed) == PATH_PEXT
}

/// The choice, made by the first [`slider_path`]: `TSUMUGI_PEXT=off` forces the portable path, `on` takes PEXT
/// whenever the CPU has BMI2, and anything else (or unset) takes it where it is fast.
/// Threads racing here all compute the same value.
#[cold]
#[inline(never)]
fn choose_path() -> u8 {
    let setting = std::env::var("TSUMUGI_PEXT").unwrap_or_default();
    let pext = match setting.to_ascii_lowercase().as_str() {
        "off" | "0" | "no" => false,
        "on" | "1" | "yes" => cpu_has_bmi2(),
        "" | "auto" => cpu_has_bmi2() && pext_is_fast(),
        other => {
            log::warn!("TSUMUGI_PEXT={other} is not on, off or auto; using auto");
            cpu_has_bmi2() && pext_is_fast()
        }
    };
    let code = if pext { PATH_PEXT } else { PATH_PORTABLE };
    PATH.store(code, Ordering::Relaxed);
    log::debug!("slider lookup: {}", if pext { "pext" } else { "portable" });
    code
}

#[cfg(target_arch = "x86_64")]
fn cpu_has_bmi2() -> bool {
    std::arch::is_x86_feature_detected!("bmi2")
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_bmi2() -> bool {
    false
}

/// Whether PEXT is executed in hardware. AMD's Zen, Zen+ and Zen 2 (family 17h) and Hygon's
/// Dhyana (18h, a Zen derivative), as well as the earlier BMI2 cores of family 15h, report BMI2
/// but run PEXT as microcode whose latency grows with the number of mask bits: about 18 cycles
/// at best and a few hundred at worst (Agner Fog's instruction tables; uops.info), against 3
/// cycles on every Intel core with BMI2 (Haswell on) and on AMD from Zen 3 (family 19h). Our
/// masks have up to 7 bits per half, where the portable loop's few cycles per bit win, so those
/// families take the portable path (`TSUMUGI_PEXT=on` overrides this, to measure).
#[cfg(target_arch = "x86_64")]
fn pext_is_fast() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: CPUID exists on every x86-64 CPU; leaves 0 and 1 are always defined. (`__cpuid`
    // is a safe function in newer Rust, hence the allow.)
    #[allow(unused_unsafe)]
    let (l0, l1) = unsafe { (__cpuid(0), __cpuid(1)) };
    let mut vendor = [0u8; 12];
    vendor[..4].copy_from_slice(&l0.ebx.to_le_bytes());
    vendor[4..8].copy_from_slice(&l0.edx.to_le_bytes());
    vendor[8..].copy_from_slice(&l0.ecx.to_le_bytes());
    let base = (l1.eax >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((l1.eax >> 20) & 0xff)
    } else {
        base
    };
    pext_is_fast_on(&vendor, family)
}

#[cfg(not(target_arch = "x86_64"))]
fn pext_is_fast() -> bool {
    false
}

/// The rule of [`pext_is_fast`] on a CPUID vendor string and display family.
#[cfg(any(target_arch = "x86_64", test))]
fn pext_is_fast_on(vendor: &[u8; 12], family: u32) -> bool {
    let amd_like = vendor == b"AuthenticAMD" || vendor == b"HygonGenuine";
    !(amd_like && family < 0x19)
}

/// Gathers the bits of `x` selected by `mask` into the low bits (PEXT), bit by bit.
#[inline(always)]
fn pext_portable(x: u64, mask: u64) -> u64 {
    let mut m = mask;
    let mut out = 0u64;
    let mut bit = 1u64;
    while m != 0 {
        let low = m & m.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        m &= m - 1;
    }
    out
}

/// PEXT by the instruction. Inline assembly rather than a `#[target_feature(enable = "bmi2")]`
/// function: such a function cannot be inlined into code built without BMI2, so every lookup
/// would pay a call; the `asm!` block inlines like the intrinsic does in a BMI2 build.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext_bmi2(x: u64, mask: u64) -> u64 {
    let out: u64;
    // SAFETY: called only when `PATH` is `PATH_PEXT`, which is stored only after
    // `cpu_has_bmi2()` returned true, so the CPU has the instruction. It reads and writes
    // registers only (no memory, no stack, flags unchanged).
    unsafe {
        std::arch::asm!(
            "pext {out}, {x}, {mask}",
            out = lateout(reg) out,
            x = in(reg) x,
            mask = in(reg) mask,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    out
}

#[inline(always)]
fn line_attack(sq: Square, line: usize, occ: Bitboard) -> Bitboard {
    let m = &LINE_MASKS[sq.index()][line];
    #[cfg(target_arch = "x86_64")]
    let idx = if use_pext() {
        pext_bmi2(occ.lo(), m.lo) | (pext_bmi2(occ.hi(), m.hi) << m.lo_bits)
    } else {
        pext_portable(occ.lo(), m.lo) | (pext_portable(occ.hi(), m.hi) << m.lo_bits)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let idx = pext_portable(occ.lo(), m.lo) | (pext_portable(occ.hi(), m.hi) << m.lo_bits);
    LINE_ATTACKS[sq.index()][line][idx as usize]
}

/// Rook attacks along the file only.
#[inline(always)]
pub fn file_attack(sq: Square, occ: Bitboard) -> Bitboard {
    let shift = sq.file() as u32 * 9;
    let idx = ((occ.0 >> (shift + 1)) & 0x7f) as usize;
    Bitboard((FILE_ATTACKS[sq.rank() as usize][idx] as u128) << shift)
}

/// Rook attacks along the rank only.
#[inline(always)]
pub fn rank_attack(sq: Square, occ: Bitboard) -> Bitboard {
    line_attack(sq, 0, occ)
}

/// Rook attacks from `sq` given occupancy `occ`.
#[inline(always)]
pub fn rook_attack(sq: Square, occ: Bitboard) -> Bitboard {
    file_attack(sq, occ) | line_attack(sq, 0, occ)
}

/// Bishop attacks from `sq` given occupancy `occ`.
#[inline(always)]
pub fn bishop_attack(sq: Square, occ: Bitboard) -> Bitboard {
    line_attack(sq, 1, occ) | line_attack(sq, 2, occ)
}

/// Lance attacks of colour `c` from `sq`: straight ahead up to the first piece.
#[inline(always)]
pub fn lance_attack(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    file_attack(sq, occ) & FORWARD[c.index()][sq.index()]
}

/// Horse attacks: bishop lines plus the one-step king moves.
#[inline(always)]
pub fn horse_attack(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_attack(sq, occ) | KING[0][sq.index()]
}

/// Dragon attacks: rook lines plus the one-step king moves.
#[inline(always)]
pub fn dragon_attack(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attack(sq, occ) | KING[0][sq.index()]
}

/// Pawn attack of colour `c` from `sq`: the square straight ahead.
#[inline(always)]
pub fn pawn_attack(c: Color, sq: Square) -> Bitboard {
    PAWN[c.index()][sq.index()]
}

/// Knight jumps of colour `c` from `sq` (two squares forward, one sideways).
#[inline(always)]
pub fn knight_attack(c: Color, sq: Square) -> Bitboard {
    KNIGHT[c.index()][sq.index()]
}

/// Silver steps of colour `c` from `sq` (diagonals and straight forward).
#[inline(always)]
pub fn silver_attack(c: Color, sq: Square) -> Bitboard {
    SILVER[c.index()][sq.index()]
}

/// Gold steps of colour `c` from `sq` (orthogonals and forward diagonals).
#[inline(always)]
pub fn gold_attack(c: Color, sq: Square) -> Bitboard {
    GOLD[c.index()][sq.index()]
}

/// King steps from `sq` (all eight neighbours).
#[inline(always)]
pub fn king_attack(sq: Square) -> Bitboard {
    KING[0][sq.index()]
}

/// Empty-board lance, bishop and rook reach (for "could this slider ever see that square").
#[inline(always)]
pub fn lance_pseudo(c: Color, sq: Square) -> Bitboard {
    FORWARD[c.index()][sq.index()]
}

/// Empty-board bishop reach from `sq`.
#[inline(always)]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    PSEUDO[1][sq.index()]
}

/// Empty-board rook reach from `sq`.
#[inline(always)]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    PSEUDO[0][sq.index()]
}

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

const fn between_table() -> [[Bitboard; 81]; 81] {
    let mut t = [[Bitboard(0); 81]; 81];
    let dirs: [(i32, i32); 8] = KING_OFFS;
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            let mut f = (a / 9) as i32 + df;
            let mut r = (a % 9) as i32 + dr;
            let mut acc = 0u128;
            while f >= 0 && f <= 8 && r >= 0 && r <= 8 {
                let b = (f * 9 + r) as usize;
                t[a][b] = Bitboard(acc);
                acc |= 1u128 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

const fn line_table() -> [[Bitboard; 81]; 81] {
    let mut t = [[Bitboard(0); 81]; 81];
    let dirs: [(i32, i32); 8] = KING_OFFS;
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            let full = ray(a, df, dr, 0) | ray(a, -df, -dr, 0) | (1u128 << a);
            let mut f = (a / 9) as i32 + df;
            let mut r = (a % 9) as i32 + dr;
            while f >= 0 && f <= 8 && r >= 0 && r <= 8 {
                t[a][(f * 9 + r) as usize] = Bitboard(full);
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[Bitboard; 81]; 81] = between_table();
static LINE: [[Bitboard; 81]; 81] = line_table();

/// Squares strictly between a and b if they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line through a and b (both included) if they share a line, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Every line mask, many occupancies: the instruction and the loop give the same index.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_instruction_and_loop_agree() {
        if !cpu_has_bmi2() {
            eprintln!("SKIPPED: this CPU has no BMI2; only the portable path can run");
            return;
        }
        let mut x: u64 = 0x2545F4914F6CDD1D;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for m in LINE_MASKS.iter().flatten() {
                for (v, mask) in [
                    (x, m.lo),
                    (x.rotate_left(23), m.hi),
                    (x, u64::MAX),
                    (x, x >> 3),
                ] {
                    assert_eq!(
                        pext_bmi2(v, mask),
                        pext_portable(v, mask),
                        "{v:#x} {mask:#x}"
                    );
                }
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
            let mut q =
                Position::from_sfen("4k4/2s6/2R2B1P1/9/4b1r1P/9/1p5s1/9/4K4 w - 1").unwrap();
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
}
