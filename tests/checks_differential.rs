//! Differential test of the check generator (`Position::check_moves`, `has_check`, and
//! `check_moves_to`, the checks onto given squares, against the oracle's filtered by square)
//! and of the evasions (`legal_moves` when in check, `has_evasion`) against an independent oracle.
//!
//! The oracle: `shogi_legality_lite`'s legal moves (`common::oracle_moves_checked`: assembled
//! from the crate's primitives, and compared with its `all_legal_moves_partial` wherever that
//! function is usable; see `tests/common/mod.rs` for why), filtered by "gives check" decided
//! *here*: the move is applied with `shogi_core`'s `PartialPosition::make_move`, then a plain
//! step/ray scan written in this file (`attacked_by`, no tables, nothing shared with the engine)
//! asks whether the king of the side now to move is attacked.
//! `shogi_legality_lite::is_in_check_partial_lite` is consulted as a second opinion on that
//! verdict, and our own `Position::gives_check` is compared with it too.
//! (`shogi_legality_lite::all_checks_partial` is *not* used: its drops ignore
//! the mover's own check.)
//!
//! Positions, every one compared in full:
//! * seeded random playouts (the xorshift PRNG of `common::rng`) from the start position and
//!   from mate-problem starts (kings only, most pieces in hand; no attacker king; White to
//!   move), biased towards checking moves and drops, so that many positions are in check and
//!   have pieces in hand;
//! * every position of the problem sets in `$TSUMUGI_PROBLEMS` (default `../shared/problems`;
//!   all `*.tsv`, first column SFEN; header, comment and blank lines skipped; SFENs our parser
//!   rejects are counted and skipped), when the folder exists;
//! * positions a few random plies deep from each of them, mostly checks and their answers.
//!
//! Oracle coverage: `shogi_legality_lite` handles a side to move without a king (it skips the
//! self-check test, as the rules do), so king-less attackers, the usual mate-problem form, are
//! included; `checks_oracle_handles_kingless_attacker` pins that down. A side *not* to move
//! without a king (the defender to move in a mate problem) cannot be checked at all: both sides
//! then agree there are no checks, and its evasions are compared like any legal moves. Such
//! positions are reached by playouts only: our `from_sfen` rejects them as input (the 6
//! positions of `defender-to-move.tsv`, and one in `rules-tricky.tsv`, are counted as rejected).
//!
//! `cargo test --release --test checks_differential -- --nocapture` runs the short version;
//! `... -- --ignored --nocapture checks_differential_full` the 300 000 position one
//! (about 4 minutes on a loaded 2-core machine).

mod common;

use common::problems::{read_set, set_files};
use common::rng::{pick, Rng};
use common::{oracle_moves_checked, to_partial, OracleInfo};
use shogi_core::{
    Color as CColor, Move as CMove, PartialPosition, Piece as CPiece, PieceKind as CKind,
    Square as CSquare, ToUsi,
};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;
use tsumugi::shogi::{Bitboard, Color, Move, MoveList, Position, Square, STARTPOS};

// ---- the independent "gives check" test ----------------------------------------------------------

fn is_gold_like(k: CKind) -> bool {
    matches!(
        k,
        CKind::Gold | CKind::ProPawn | CKind::ProLance | CKind::ProKnight | CKind::ProSilver
    )
}

/// Whether every square strictly between (f, r) and (tf, tr), which lie on one line, is empty.
fn path_clear(p: &PartialPosition, f: i32, r: i32, tf: i32, tr: i32) -> bool {
    let (sf, sr) = ((tf - f).signum(), (tr - r).signum());
    let (mut cf, mut cr) = (f + sf, r + sr);
    while (cf, cr) != (tf, tr) {
        let sq = CSquare::new(cf as u8, cr as u8).expect("on board");
        if p.piece_at(sq).is_some() {
            return false;
        }
        cf += sf;
        cr += sr;
    }
    true
}

/// Whether `pc`, standing on file `f`, rank `r` (1-based, as in USI), attacks (tf, tr).
/// Written from the movement rules alone: "forward" is towards rank 1 for Black, rank 9 for
/// White; every piece moves symmetrically left/right.
fn piece_attacks(p: &PartialPosition, pc: CPiece, f: i32, r: i32, tf: i32, tr: i32) -> bool {
    let df = (tf - f).abs();
    let dr = tr - r;
    // Rank distance counted forwards from the piece's owner.
    let fwd = if pc.color() == CColor::Black { -dr } else { dr };
    let step = df <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0);
    let diagonal = df == dr.abs() && df != 0;
    let orthogonal = (df == 0) != (dr == 0);
    let k = pc.piece_kind();
    match k {
        CKind::Pawn => df == 0 && fwd == 1,
        CKind::Knight => df == 1 && fwd == 2,
        CKind::Silver => (fwd == 1 && df <= 1) || (fwd == -1 && df == 1),
        CKind::King => step,
        CKind::Lance => df == 0 && fwd >= 1 && path_clear(p, f, r, tf, tr),
        CKind::Bishop => diagonal && path_clear(p, f, r, tf, tr),
        CKind::Rook => orthogonal && path_clear(p, f, r, tf, tr),
        CKind::ProBishop => step || (diagonal && path_clear(p, f, r, tf, tr)),
        CKind::ProRook => step || (orthogonal && path_clear(p, f, r, tf, tr)),
        _ => {
            debug_assert!(is_gold_like(k));
            (fwd == 1 && df <= 1) || (fwd == 0 && df == 1) || (fwd == -1 && df == 0)
        }
    }
}

/// Whether any piece of `by` attacks `target`.
fn attacked_by(p: &PartialPosition, target: CSquare, by: CColor) -> bool {
    let (tf, tr) = (target.file() as i32, target.rank() as i32);
    for f in 1..=9u8 {
        for r in 1..=9u8 {
            let sq = CSquare::new(f, r).expect("on board");
            if let Some(pc) = p.piece_at(sq) {
                if pc.color() == by && piece_attacks(p, pc, f as i32, r as i32, tf, tr) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether the side to move in `p` is in check, by the scan above (false without a king).
fn in_check_independent(p: &PartialPosition) -> bool {
    let side = p.side_to_move();
    match p.king_position(side) {
        Some(k) => attacked_by(p, k, side.flip()),
        None => false,
    }
}

/// The oracle's legal moves, each with "gives check" decided by this file. Also counts how often
/// `shogi_legality_lite::is_in_check_partial_lite` disagrees with that verdict (must stay 0).
fn oracle_moves_with_check(
    p: &PartialPosition,
    info: &mut OracleInfo,
    second_opinion_diffs: &mut u64,
) -> Vec<(CMove, bool)> {
    oracle_moves_checked(p, info)
        .into_iter()
        .map(|mv| {
            let mut next = p.clone();
            next.make_move(mv).expect("oracle move applies");
            let check = in_check_independent(&next);
            if check != shogi_legality_lite::is_in_check_partial_lite(&next) {
                *second_opinion_diffs += 1;
            }
            (mv, check)
        })
        .collect()
}

/// The oracle's checking moves as USI strings.
fn oracle_checks(sfen: &str) -> BTreeSet<String> {
    let mut diffs = 0;
    let r = oracle_moves_with_check(&to_partial(sfen), &mut OracleInfo::default(), &mut diffs)
        .into_iter()
        .filter(|&(_, c)| c)
        .map(|(m, _)| m.to_usi_owned())
        .collect();
    assert_eq!(diffs, 0, "check verdicts disagree in {sfen}");
    r
}

fn usi_set(list: &MoveList) -> BTreeSet<String> {
    list.iter().map(|m| m.to_string()).collect()
}

fn our_checks(pos: &Position) -> BTreeSet<String> {
    let mut l = MoveList::new();
    pos.check_moves(&mut l);
    let s = usi_set(&l);
    assert_eq!(s.len(), l.len(), "duplicate checks in {}", pos.to_sfen());
    s
}

// ---- comparison ----------------------------------------------------------------------------------

#[derive(Default)]
struct Stats {
    positions: u64,
    /// Of which: from playouts, problem sets as given, and plies deep from problem positions.
    random: u64,
    problems: u64,
    problem_deep: u64,
    in_check: u64,
    with_hand: u64,
    /// The side to move has no king (mate-problem attacker).
    no_king: u64,
    white_to_move: u64,
    /// Positions where the side to move has at least one check.
    with_checks: u64,
    /// Checks compared (oracle's checking moves, summed).
    checks: u64,
    /// Legal moves compared in positions in check (the evasions).
    evasions: u64,
    /// Legal moves compared in all positions.
    legal: u64,
    missing: u64,
    extra: u64,
    /// `is_in_check_partial_lite` vs this file's scan, after each oracle move.
    second_opinion_diffs: u64,
    /// `Position::gives_check` vs this file's scan.
    gives_check_diffs: u64,
    mismatches: Vec<String>,
    /// Problem-set SFENs our parser rejected.
    rejected: u64,
    /// The oracle's own counters (pawn-drop mates seen, raw-function cross-checks).
    oracle: OracleInfo,
}

impl Stats {
    fn fail(&mut self, msg: String) {
        if self.mismatches.len() < 30 {
            self.mismatches.push(msg);
        }
    }

    fn report(&self, what: &str, secs: f64) {
        eprintln!(
            "{what}: {} positions ({} random playouts, {} problem-set, {} deep from problem-set; \
             {} rejected SFENs skipped), {} in check, {} with pieces in hand, {} without \
             side-to-move king, {} White to move, {} with a check; {} checks compared, {} evasions compared, {} \
             legal moves compared; {} missing, {} extra; check-verdict disagreements: \
             shogi_legality_lite {} gives_check {}; oracle: {} pawn-drop mates rejected, raw \
             all_legal_moves_partial compared in {} positions ({} stalemate quirks); {:.1}s",
            self.positions,
            self.random,
            self.problems,
            self.problem_deep,
            self.rejected,
            self.in_check,
            self.with_hand,
            self.no_king,
            self.white_to_move,
            self.with_checks,
            self.checks,
            self.evasions,
            self.legal,
            self.missing,
            self.extra,
            self.second_opinion_diffs,
            self.gives_check_diffs,
            self.oracle.pawn_drop_mates,
            self.oracle.raw_compared,
            self.oracle.raw_quirks,
            secs
        );
    }

    fn assert_clean(&self) {
        for m in &self.mismatches {
            eprintln!("MISMATCH {m}");
        }
        assert!(
            self.mismatches.is_empty() && self.missing == 0 && self.extra == 0,
            "{} mismatches (first: {})",
            self.mismatches.len(),
            self.mismatches.first().map(String::as_str).unwrap_or("")
        );
        assert_eq!(self.second_opinion_diffs, 0);
        assert_eq!(self.gives_check_diffs, 0);
    }
}

/// Compares everything about one position.
fn compare(pos: &Position, st: &mut Stats) {
    let sfen = pos.to_sfen();
    let partial = to_partial(&sfen);
    let oracle = oracle_moves_with_check(&partial, &mut st.oracle, &mut st.second_opinion_diffs);
    st.positions += 1;
    let side = pos.side_to_move();
    if pos.in_check() {
        st.in_check += 1;
    }
    if !pos.hand(side).is_empty() || !pos.hand(side.flip()).is_empty() {
        st.with_hand += 1;
    }
    if pos.king_square(side).is_none() {
        st.no_king += 1;
    }
    if side == Color::White {
        st.white_to_move += 1;
    }
    if pos.in_check() != in_check_independent(&partial) {
        st.fail(format!("in-check flag disagrees in {sfen}"));
    }

    // Checks.
    let theirs: BTreeSet<String> = oracle
        .iter()
        .filter(|&&(_, c)| c)
        .map(|(m, _)| m.to_usi_owned())
        .collect();
    let ours = our_checks(pos);
    st.checks += theirs.len() as u64;
    if !theirs.is_empty() {
        st.with_checks += 1;
    }
    if pos.has_check() == theirs.is_empty() {
        st.fail(format!("has_check() = {} in {sfen}", pos.has_check()));
    }
    if ours != theirs {
        let missing: Vec<&String> = theirs.difference(&ours).collect();
        let extra: Vec<&String> = ours.difference(&theirs).collect();
        st.missing += missing.len() as u64;
        st.extra += extra.len() as u64;
        st.fail(format!(
            "checks of {sfen}\n  missing (oracle has, we lack): {missing:?}\n  extra (we have, oracle lacks): {extra:?}"
        ));
    }

    // Checks restricted to target squares (`check_moves_to`, the search's mate-in-one test
    // after an interposition): the squares next to the defender's king, and every third square.
    let near = pos
        .king_square(side.flip())
        .map_or(Bitboard::EMPTY, tsumugi::shogi::attacks::king_attack);
    let every_third = Square::all()
        .filter(|s| s.index() % 3 == 0)
        .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
    for mask in [near, every_third] {
        let mut l = MoveList::new();
        pos.check_moves_to(&mut l, mask);
        let ours_to = usi_set(&l);
        let theirs_to: BTreeSet<String> = theirs
            .iter()
            .filter(|m| Move::from_usi(m).is_some_and(|m| mask.has(m.to())))
            .cloned()
            .collect();
        if ours_to != theirs_to {
            st.fail(format!(
                "checks of {sfen} onto {mask:?}: ours {ours_to:?}, oracle's {theirs_to:?}"
            ));
        }
    }

    // Legal moves (= evasions when in check), and our gives_check against the verdicts here.
    let legal = pos.legal_move_list();
    let ours_legal = usi_set(&legal);
    let theirs_legal: BTreeSet<String> = oracle.iter().map(|(m, _)| m.to_usi_owned()).collect();
    st.legal += theirs_legal.len() as u64;
    if pos.in_check() {
        st.evasions += theirs_legal.len() as u64;
        if pos.has_evasion() == theirs_legal.is_empty() {
            st.fail(format!("has_evasion() = {} in {sfen}", pos.has_evasion()));
        }
    }
    if ours_legal != theirs_legal {
        let missing: Vec<&String> = theirs_legal.difference(&ours_legal).collect();
        let extra: Vec<&String> = ours_legal.difference(&theirs_legal).collect();
        if pos.in_check() {
            st.missing += missing.len() as u64;
            st.extra += extra.len() as u64;
        }
        st.fail(format!(
            "legal moves (in check: {}) of {sfen}\n  missing: {missing:?}\n  extra: {extra:?}",
            pos.in_check()
        ));
    }
    for (m, c) in &oracle {
        let usi = m.to_usi_owned();
        if let Some(ours) = Move::from_usi(&usi).filter(|_| ours_legal.contains(&usi)) {
            if pos.gives_check(ours) != *c {
                st.gives_check_diffs += 1;
                st.fail(format!("gives_check({usi}) = {} in {sfen}", !c));
            }
        }
    }
}

// ---- position sources ----------------------------------------------------------------------------

/// Playout starts: (SFEN, percent of checking moves, percent of drops).
const STARTS: &[(&str, u32, u32)] = &[
    (STARTPOS, 35, 50),
    // Both kings, pieces in hand.
    ("4k4/9/9/9/9/9/9/9/4K4 b 2R2B2G2S2N2L9P2g2s2n2l9p 1", 60, 40),
    ("8k/9/9/9/9/9/9/9/K8 w RB2G2S2N2L9Prb2g2s2n2l9p 1", 70, 40),
    ("lns1kgsnl/9/9/9/9/9/9/9/LNSGK1SNL b 2R2BG9Pg9p 1", 50, 40),
    // Mate-problem form: no attacker king, the defender holds the rest.
    ("4k4/9/9/9/9/9/9/9/9 b 2R2B3G3S3N3L9Pgsnl9p 1", 75, 40),
    ("k8/9/9/9/9/9/9/9/9 b 2RB4G2S2N2L5Pb2s2n2l13p 1", 75, 30),
    ("9/9/9/9/9/9/9/9/8K w 2r2b4g4s4n4l18p 1", 75, 40),
    ("9/9/9/9/9/9/3K5/9/9 w RB2G2S2N2L9Prb2g2s2n2l9p 1", 75, 40),
    ("7nl/7k1/6ppp/9/9/9/9/9/9 b 2R2B4G4S3N3L15P 1", 80, 30),
    // White attacker without king against Black king in the corner.
    ("9/9/9/9/9/9/PPP6/1K7/LN7 w 2r2b4g4s3n3l15p 1", 80, 30),
];

const MAX_PLIES: usize = 120;

/// This file's salt for [`Rng::mixed`] (each randomized test has its own; kept so the playouts
/// and walks are the ones this test has always compared).
const RNG_SALT: u64 = 0x2545_F491_4F6C_DD1D;

fn random_playouts(target: u64, seed: u64, st: &mut Stats) {
    let mut rng = Rng::mixed(seed, RNG_SALT);
    let mut list = MoveList::new();
    let mut i = 0;
    while st.random < target {
        let (sfen, check_pct, drop_pct) = STARTS[i % STARTS.len()];
        i += 1;
        let mut pos = Position::from_sfen(sfen).expect("start SFEN is valid");
        for _ in 0..MAX_PLIES {
            if st.random >= target {
                return;
            }
            compare(&pos, st);
            st.random += 1;
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let m = pick(&pos, &list, &mut rng, check_pct, drop_pct);
            pos.do_move(m);
        }
    }
}

fn problems_dir() -> Option<PathBuf> {
    let dir = common::problems::problems_dir();
    if dir.is_none() {
        eprintln!("  (only random positions are compared)");
    }
    dir
}

/// The positions of every `*.tsv` problem set (first column), in file-name order. SFENs our
/// parser rejects are counted in `rejected`.
fn problem_positions(rejected: &mut u64) -> Vec<Position> {
    let Some(dir) = problems_dir() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for f in set_files(&dir) {
        for row in read_set(&f).expect("read problem file") {
            match Position::from_sfen(row.sfen()) {
                Ok(p) => out.push(p),
                Err(_) => *rejected += 1,
            }
        }
    }
    out
}

/// Compares the problem positions themselves, then `walks` random walks of up to `depth` plies
/// from each (mostly checks by the side to move and answers to them).
fn problem_walks(problems: &[Position], walks: usize, depth: usize, seed: u64, st: &mut Stats) {
    let mut rng = Rng::mixed(seed, RNG_SALT);
    let mut list = MoveList::new();
    for p in problems {
        compare(p, st);
        st.problems += 1;
        for _ in 0..walks {
            let mut pos = p.clone();
            let plies = 1 + rng.below(depth);
            for _ in 0..plies {
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let m = pick(&pos, &list, &mut rng, 85, 20);
                pos.do_move(m);
                compare(&pos, st);
                st.problem_deep += 1;
            }
        }
    }
}

/// Compares a sample of about `problem_sample` problem positions with `walks` walks of up to
/// `depth` plies from each, then random playouts: at least `random_min` of them, and more until
/// `total_min` positions are compared in all (so the total holds without the problem sets).
fn run(
    total_min: u64,
    random_min: u64,
    problem_sample: usize,
    walks: usize,
    depth: usize,
    seed: u64,
) -> Stats {
    let t0 = Instant::now();
    let mut st = Stats::default();
    let mut rejected = 0;
    let all = problem_positions(&mut rejected);
    st.rejected = rejected;
    // An evenly spread sample of the problem positions (all of them when the sample is larger).
    let step = all.len().div_ceil(problem_sample.max(1)).max(1);
    let sample: Vec<Position> = all.into_iter().step_by(step).collect();
    problem_walks(&sample, walks, depth, seed ^ 0xabcd, &mut st);
    let random = random_min.max(total_min.saturating_sub(st.positions));
    random_playouts(random, seed, &mut st);
    st.report("checks_differential", t0.elapsed().as_secs_f64());
    st
}

#[test]
fn checks_differential() {
    let st = run(30_000, 15_000, 1_500, 3, 4, 7);
    st.assert_clean();
}

#[test]
#[ignore = "slow: 300 000 positions against a table-free oracle; run with --ignored"]
fn checks_differential_full() {
    let st = run(300_000, 150_000, usize::MAX, 8, 6, 0x00c4_ec45);
    st.assert_clean();
    assert!(st.positions >= 300_000, "only {} positions", st.positions);
}

// ---- named regression cases ----------------------------------------------------------------------

/// The SFEN of the same position seen from the other side: board turned 180°, colours swapped
/// (pieces, hands and side to move).
fn flip_sfen(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_ascii_whitespace().collect();
    // Expand the board into 81 cells of piece text ("" = empty), rank a first, file 9 first.
    let mut cells: Vec<String> = Vec::with_capacity(81);
    for row in f[0].split('/') {
        let mut promoted = false;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                cells.extend(std::iter::repeat_n(String::new(), d as usize));
            } else if ch == '+' {
                promoted = true;
            } else {
                let swapped = if ch.is_ascii_uppercase() {
                    ch.to_ascii_lowercase()
                } else {
                    ch.to_ascii_uppercase()
                };
                cells.push(format!("{}{swapped}", if promoted { "+" } else { "" }));
                promoted = false;
            }
        }
    }
    assert_eq!(cells.len(), 81, "{sfen}");
    cells.reverse();
    let mut board = String::new();
    for r in 0..9 {
        let mut empty = 0;
        for c in &cells[r * 9..r * 9 + 9] {
            if c.is_empty() {
                empty += 1;
            } else {
                if empty > 0 {
                    board.push_str(&empty.to_string());
                    empty = 0;
                }
                board.push_str(c);
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if r < 8 {
            board.push('/');
        }
    }
    let side = if f[1] == "b" { "w" } else { "b" };
    // Hand: swap colours, then print in the canonical order (Black's R B G S N L P, then
    // White's), as `shogi_core` and our `to_sfen` do.
    let mut counts = [[0u32; 7]; 2];
    if f[2] != "-" {
        let mut n = 0;
        for ch in f[2].chars() {
            if let Some(d) = ch.to_digit(10) {
                n = n * 10 + d;
                continue;
            }
            let colour = usize::from(ch.is_ascii_uppercase()); // swapped: upper → White (1)
            let k = "RBGSNLP"
                .find(ch.to_ascii_uppercase())
                .expect("hand letter");
            counts[colour][k] += n.max(1);
            n = 0;
        }
    }
    let mut hand = String::new();
    for (colour, row) in counts.iter().enumerate() {
        for (k, &n) in row.iter().enumerate() {
            if n > 1 {
                hand.push_str(&n.to_string());
            }
            if n > 0 {
                let ch = "RBGSNLP".as_bytes()[k] as char;
                hand.push(if colour == 0 {
                    ch
                } else {
                    ch.to_ascii_lowercase()
                });
            }
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    format!("{board} {side} {hand} 1")
}

/// The USI text of a move seen from the other side (squares turned 180°).
fn flip_usi(m: &str) -> String {
    let flip_sq = |s: &[u8]| -> String {
        let f = (b'9' - s[0] + b'1') as char;
        let r = (b'i' - s[1] + b'a') as char;
        format!("{f}{r}")
    };
    let b = m.as_bytes();
    if b[1] == b'*' {
        format!("{}*{}", b[0] as char, flip_sq(&b[2..4]))
    } else {
        format!(
            "{}{}{}",
            flip_sq(&b[0..2]),
            flip_sq(&b[2..4]),
            if b.len() == 5 { "+" } else { "" }
        )
    }
}

/// Our checks equal the oracle's, number `n`, include `must` and exclude `must_not`; the same
/// holds for the colour-flipped position (with flipped moves).
fn assert_checks(sfen: &str, n: usize, must: &[&str], must_not: &[&str]) {
    for flipped in [false, true] {
        let s = if flipped {
            flip_sfen(sfen)
        } else {
            sfen.to_string()
        };
        let fl = |m: &str| if flipped { flip_usi(m) } else { m.to_string() };
        let pos = Position::from_sfen(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let ours = our_checks(&pos);
        let theirs = oracle_checks(&s);
        assert_eq!(ours, theirs, "checks of {s}: ours vs oracle");
        assert_eq!(ours.len(), n, "number of checks of {s}: {ours:?}");
        assert_eq!(pos.has_check(), n > 0, "has_check of {s}");
        for m in must {
            assert!(ours.contains(&fl(m)), "{s}: {} should be a check", fl(m));
        }
        for m in must_not {
            assert!(!ours.contains(&fl(m)), "{s}: {} must not be a check", fl(m));
        }
    }
}

/// Our legal moves in a position in check equal the oracle's and number `n`.
fn assert_evasions(sfen: &str, n: usize) {
    for s in [sfen.to_string(), flip_sfen(sfen)] {
        let pos = Position::from_sfen(&s).unwrap();
        assert!(pos.in_check(), "{s} should be in check");
        let ours = usi_set(&pos.legal_move_list());
        let theirs: BTreeSet<String> =
            oracle_moves_checked(&to_partial(&s), &mut OracleInfo::default())
                .iter()
                .map(|m| m.to_usi_owned())
                .collect();
        assert_eq!(ours, theirs, "evasions of {s}");
        assert_eq!(ours.len(), n, "number of evasions of {s}: {ours:?}");
        assert_eq!(pos.has_evasion(), n > 0, "has_evasion of {s}");
    }
}

#[test]
fn flip_helpers_round_trip() {
    let s = "lns1kgsnl/9/9/9/9/9/9/9/LNSGK1SNL b 2R2BG9Pg9p 1";
    assert_eq!(flip_sfen(&flip_sfen(s)), s);
    assert_eq!(flip_usi("7g2b+"), "3c8h+");
    assert_eq!(flip_usi("P*5b"), "P*5h");
}

/// The four positions where haitaka 0.3.2's check generator goes wrong.
/// 1. Silver 3c→2b, 2b+; rook 5e→5a, 5a+, 1e: 5 checks (no false discovered checks).
/// 2. Lance 5c points away from the king on 5g: gold 5e→5f is the only check (1).
/// 3. Silver 5d is not a discoverer: the enemy pawn 5b also blocks rook 5i (0).
/// 4. Black is in check by rook 9i; no evasion gives check (0).
#[test]
fn brief_section_6_counts() {
    assert_checks(
        "8k/9/6S2/9/4R4/9/9/9/K8 b - 1",
        5,
        &["3c2b", "3c2b+", "5e5a", "5e5a+", "5e1e"],
        &[],
    );
    assert_checks("9/9/4L4/9/4G4/9/4k4/9/K8 b - 1", 1, &["5e5f"], &[]);
    assert_checks("4k4/4p4/9/4S4/9/9/9/9/K3R4 b - 1", 0, &[], &[]);
    assert_checks("4k4/9/9/9/9/9/9/9/r3K4 b G 1", 0, &[], &["G*5b"]);
}

/// White king 5a, Black gold 5c in front of Black rook 5h (Black king 9i, out of play). The gold steps to 4b 5b 6b 4c 6c 5d:
/// on 4b and 6b it checks directly *and* uncovers the rook (double check), on 5b directly only,
/// on 4c and 6c by discovery only, on 5d not at all. 5 checks (by hand; the oracle agrees).
#[test]
fn double_check() {
    assert_checks(
        "4k4/9/4G4/9/9/9/9/4R4/K8 b - 1",
        5,
        &["5c4b", "5c6b", "5c5b", "5c4c", "5c6c"],
        &["5c5d"],
    );
    // After 5c4b the king must move: 4a (gold) and 5b (rook) are attacked, 6a, 6b and the
    // capture Kx4b (the gold is unguarded) remain: 3 evasions, no interposition or other capture.
    assert_evasions("4k4/5G3/9/9/9/9/9/4R4/K8 w - 1", 3);
}

/// Lance x-rays: a lance only looks forwards, and only a sole blocker of our own discovers.
#[test]
fn lance_xray_discovered_checks() {
    // Lance 5i behind silver 5e, White king 5a: the silver discovers check with every move off
    // the file (4d 6d 4f 6f); 5d stays in line and does not reach 5a. 4 checks.
    assert_checks(
        "4k4/9/9/9/4S4/9/9/9/4L4 b - 1",
        4,
        &["5e4d", "5e6d", "5e4f", "5e6f"],
        &["5e5d"],
    );
    // An enemy pawn (5g) also between: nothing is discovered; nothing else checks. 0.
    assert_checks("4k4/9/9/9/4S4/9/4p4/9/4L4 b - 1", 0, &[], &["5e4d"]);
    // A second own piece (gold 5g) also between: nothing is discovered by either. 0.
    assert_checks("4k4/9/9/9/4S4/9/4G4/9/4L4 b - 1", 0, &[], &["5e4d", "5g4g"]);
    // The lance (5b) is *behind* the White king's line of sight but points away from it (a
    // Black lance moves towards rank a): the silver 5c between them discovers nothing. Its
    // only checks are direct: 5c4d and 5c6d (a Black silver covers 5e diagonally backwards);
    // the promoted versions on 4d/6d do not reach 5e. 2 checks.
    assert_checks(
        "9/4L4/4S4/9/4k4/9/9/9/9 b - 1",
        2,
        &["5c4d", "5c6d"],
        &["5c4b", "5c6b", "5c4d+"],
    );
}

/// Bishop x-rays: own and enemy blockers, and a piece on the line beyond the king.
#[test]
fn bishop_xray_discovered_checks() {
    // Bishop 1i, silver 3g, White king 5e on the diagonal 1i-2h-3g-4f-5e. Silver to 4f stays
    // on the diagonal but checks directly (silver 4f covers 5e); 3f, 2f, 4h leave the diagonal:
    // discovered; 2h stays on it (between the bishop and the king): no check. 4 checks.
    assert_checks(
        "9/9/9/9/4k4/9/6S2/9/8B b - 1",
        4,
        &["3g4f", "3g3f", "3g2f", "3g4h"],
        &["3g2h"],
    );
    // An enemy pawn on 4f also blocks: no discovered check; the capture 3g4f checks directly.
    // 1 check.
    assert_checks(
        "9/9/9/9/4k4/5p3/6S2/9/8B b - 1",
        1,
        &["3g4f"],
        &["3g2f", "3g4h"],
    );
    // Bishop 9i aims at the king 5e but a White gold on 7g blocks; our silver 3c stands on the
    // same diagonal *beyond* the king: it is no discoverer. Checks: bishop takes the gold
    // (9i7g, then it sees 5e), and the silver's direct 3c4d (backwards diagonal to 5e). 2.
    assert_checks(
        "9/9/6S2/9/4k4/9/2g6/9/B8 b - 1",
        2,
        &["9i7g", "3c4d"],
        &["3c3b", "3c2b", "3c4b", "3c2d"],
    );
}

/// An attacker in check must answer the check with a move that also gives check.
#[test]
fn attacker_in_check_by_slider_must_answer_with_check() {
    // Black king 5i in check by White rook 1i along rank i; White king 4a. The lance drop on 4i
    // blocks and looks up the empty 4-file to 4a; drops on 3i and 2i block without check; king
    // moves give no check. 1 check.
    assert_checks(
        "5k3/9/9/9/9/9/9/9/4K3r b L 1",
        1,
        &["L*4i"],
        &["L*3i", "L*2i"],
    );
    // The same with a rook in hand: R*4i checks along the 4-file, R*3i and R*2i do not. 1.
    assert_checks(
        "5k3/9/9/9/9/9/9/9/4K3r b R 1",
        1,
        &["R*4i"],
        &["R*3i", "R*2i"],
    );
    // Checked by White bishop 1e along the diagonal to 5i; Black lance 1i captures it and then
    // looks up the 1-file to the White king on 1a. 1 check.
    assert_checks("8k/9/9/9/8b/9/9/9/4K3L b - 1", 1, &["1i1e"], &[]);
}

/// Pawn-drop mate (打ち歩詰め) on the square in front of the king is excluded; a checking pawn
/// drop the king can escape from, or a defender can capture, is included.
#[test]
fn pawn_drop_mate_excluded_escapable_drop_included() {
    // White king 9a, knight 8a; Black gold 8c guards 9b and 8b: P*9b would mate: excluded.
    // Checks: gold 8c→8b, 8c→9b. 2.
    assert_checks(
        "kn7/9/1G7/9/9/9/9/9/8K b P 1",
        2,
        &["8c8b", "8c9b"],
        &["P*9b"],
    );
    // Without the gold the king takes the pawn: P*9b is a legal check. 1.
    assert_checks("kn7/9/9/9/9/9/9/9/8K b P 1", 1, &["P*9b"], &[]);
    // Gold 5c guards 5b, but the king escapes to 4a or 6a: P*5b included. Checks: P*5b and the
    // gold to 4b, 5b, 6b. 4.
    assert_checks(
        "4k4/9/4G4/9/9/9/9/9/9 b P 1",
        4,
        &["P*5b", "5c4b", "5c5b", "5c6b"],
        &[],
    );
    // King 5a boxed in by its silvers (6a, 4a) and gold (4b), 6b covered by Black gold 5c which
    // also guards 5b: the White gold 4b can take the pawn, so P*5b is no mate: included.
    // Checks: P*5b, gold 5c→5b, →6b, →4b (capture). 4.
    assert_checks(
        "3sks3/5g3/4G4/9/9/9/9/9/9 b P 1",
        4,
        &["P*5b", "5c5b", "5c6b", "5c4b"],
        &[],
    );
    // The only capturer, White gold 8b, is pinned by Black bishop 6d (diagonal 6d-7c-8b-9a):
    // P*9b mates: excluded. Checks: gold 8c→9b, 8c takes 8b, bishop takes 8b (as bishop or
    // horse). 4.
    assert_checks(
        "kn7/1g7/1G7/3B5/9/9/9/9/8K b P 1",
        4,
        &["8c9b", "8c8b", "6d8b", "6d8b+"],
        &["P*9b"],
    );
}

/// Discovered check by a piece that itself captures, or itself checks too.
#[test]
fn discovered_check_by_capture_or_own_check() {
    // Rook 5i, silver 5f, White king 5a, White pawn 4e: every silver move off the file
    // discovers check, the capture 5f4e included; 5e stays in line. 4 checks.
    assert_checks(
        "4k4/9/9/9/5p3/4S4/9/9/4R4 b - 1",
        4,
        &["5f4e", "5f6e", "5f4g", "5f6g"],
        &["5f5e"],
    );
    // Lance 5i, silver 5c, White king 5a, White gold 4b. Silver to 4b (capturing) and 6b:
    // direct and discovered check, promoted or not (4); 5b: direct, promoted or not (2); 4d
    // and 6d: discovered, promoted or not (4). The lance's own moves stay behind the silver.
    // 10 checks.
    assert_checks(
        "4k4/5g3/4S4/9/9/9/9/9/4L4 b - 1",
        10,
        &["5c4b", "5c4b+", "5c6b", "5c6b+", "5c5b", "5c4d", "5c6d+"],
        &["5i5d"],
    );
}

/// Checks that exist only, or also, without promotion.
#[test]
fn non_promotion_checks() {
    // Pawn 5d→5c checks the king on 5b promoted and unpromoted. 2.
    assert_checks("9/4k4/9/4P4/9/9/9/9/9 b - 1", 2, &["5d5c", "5d5c+"], &[]);
    // Bishop 7g→2b checks the king on 3a as bishop and as horse; 7g→8f (outside the zone)
    // checks along the diagonal 8f-7e-6d-5c-4b-3a. 3.
    assert_checks(
        "6k2/9/9/9/9/9/2B6/9/9 b - 1",
        3,
        &["7g2b", "7g2b+", "7g8f"],
        &[],
    );
    // Rook 9d→9a (promoted or not) along rank a, and 9d→1d (outside the zone) up the 1-file. 3.
    assert_checks(
        "8k/9/9/R8/9/9/9/9/9 b - 1",
        3,
        &["9d9a", "9d9a+", "9d1d"],
        &[],
    );
    // Lance 5e takes the gold on 5b, to the 2nd rank unpromoted or promoted, and checks the king
    // on 5a. 2.
    assert_checks(
        "4k4/4g4/9/9/4L4/9/9/9/9 b - 1",
        2,
        &["5e5b", "5e5b+"],
        &["5e5c+"],
    );
    // Knight 6e→5c (3rd rank) checks the king on 4a only unpromoted (a promoted knight on 5c
    // does not reach 4a). 1.
    assert_checks("5k3/9/9/9/3N5/9/9/9/9 b - 1", 1, &["6e5c"], &["6e5c+"]);
}

/// The oracle handles a side to move without a king (the mate-problem attacker).
#[test]
fn checks_oracle_handles_kingless_attacker() {
    let sfen = "4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1";
    // G*4a 5a... a gold checks the king on 5a from 4a 6a 4b 5b 6b: 5 drops.
    assert_checks(sfen, 5, &["G*4a", "G*6a", "G*4b", "G*5b", "G*6b"], &[]);
}
