//! The bench: a fixed, embedded set of positions solved one by one, whose node total is a
//! signature of the search (`tsumugi bench` prints it; the browser build's `tsumugi_bench` runs
//! the same list with the same runner, so both builds measure the same thing).
//!
//! Each position is solved to its shortest mate (or to "no mate") by a fresh [`Solver`] under a
//! node limit and no time limit, so with one thread the node counts depend only on the code and
//! the hash size: the total on the last line is a regression signature (any change to the search
//! that changes it altered the search, not only its speed). Time and nodes per second are for
//! comparing builds on one machine.
//!
//! The positions are our own, made by `scripts/gen/bench_positions.py` (see its docstring): random games
//! from the start position stopped where the side to move may have a mate, and random positions
//! in classic problem form (defender king near its back rank, no attacker king, the defender
//! holding the rest). Each was solved by this engine when the set was made; they are sorted by
//! the node count of that run, easiest first, and span mates of 1 to 27 plies and four
//! positions without a mate.

use super::{Limits, Outcome, PostSearch, Solver, UnknownReason};
use crate::shogi::Position;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Hash size when `--hash-mb` is not given (see `hash_size::BENCH_MB`).
pub const DEFAULT_HASH_MB: usize = super::hash_size::BENCH_MB;

/// Node limit of one position: about four times the most any of them needed when the set was
/// made (226 000), so a limit hit means the search got much worse, and the bench still ends.
pub const NODE_LIMIT: u64 = 1_000_000;

/// The bench positions (SFEN), easiest first. Made by `scripts/gen/bench_positions.py` (`generate --count
/// 4000 --seed 1 --budget 400000`, then `select --max-nodes 300000`); the comment above each
/// gives its generator, the answer found when the set was made and the nodes it took then
/// (32 MB table).
pub const POSITIONS: &[&str] = &[
    // tsume: mate 1 (1 node)
    "k8/1g7/+S1r6/9/9/1LR6/9/9/9 b G2b2g3s4n3l18p 1",
    // tsume: mate 1 (1 node)
    "2R6/1B7/1k7/9/+R8/9/9/9/9 b Sb4g3s4n4l18p 1",
    // playout: mate 1 (1 node)
    "1G4k1+P/l2gP4/p1nppp+B+L1/gp2N4/2G3S1p/P2r1lP2/+bP2KR+lP1/2+s6/+n2S1N3 b Ps5p 133",
    // playout: mate 3 (8 nodes)
    "2+P1k4/5gsll/prp1p1npp/5pp2/1S1P3PS/K1+bNP2+BN/1G3PP1P/4+rGG1L/+ls5N1 w 4p 136",
    // playout: mate 3 (14 nodes)
    "9/8g/l1nk1Ns2/6p1l/ppG2K1pp/4PP3/PPN3PSP/L2+r4L/B1SPGS+r2 w 2Pbgn4p 114",
    // tsume: mate 3 (30 nodes)
    "+b1p6/1g7/s1k6/4+R4/S8/9/9/9/9 b BGSr2gs4n4l17p 1",
    // tsume: mate 5 (95 nodes)
    "8r/8k/6b1r/6G1g/8N/7L1/9/9/9 b Gbg4s3n3l18p 1",
    // tsume: mate 5 (178 nodes)
    "5k3/7G1/5b3/6+R2/3L5/9/9/9/9 b Lrb3g4s4n2l18p 1",
    // playout: mate 7, attacker in check (233 nodes)
    "p1+P+B1s1+S1/Lb2P1l2/n2p3k1/2pGN+R1p1/1p3PK1p/1P1S3Nl/Nl+s3P2/7g+r/9 b 2G6Pp 157",
    // tsume: mate 5 (379 nodes)
    "6prG/7kb/5G3/8+P/9/9/9/9/9 b RGSbg3s4n4l16p 1",
    // tsume: mate 7 (468 nodes)
    "1k7/p8/G2p5/g3S4/+B8/9/9/9/9 b S2rb2g2s4n4l16p 1",
    // tsume: mate 7 (628 nodes)
    "1k7/9/R8/R8/9/9/9/9/9 b 2b4g4s4n4l18p 1",
    // playout: mate 9 (711 nodes)
    "1n1b1+N1n+L/2g3p2/lp1Bpn3/p6kp/s3g4/P2s2Rp1/R3G2LP/K8/L1G1S1S2 b 2P8p 155",
    // playout: mate 11 (757 nodes)
    "ln1sg1b1k/2r6/2+NPpbK2/+S1S2PP1G/2p6/P3gSgp1/2LLP2PP/2P5L/+pN+pR2+pN1 w 3Pp 146",
    // tsume: mate 5 (1139 nodes)
    "7n+B/8l/5g1k1/8p/5+R3/9/9/9/9 b 2GSrbg3s3n3l17p 1",
    // playout: mate 7 (1916 nodes)
    "5sp+L+P/lsgg5/1r3p2p/pp4k2/2PS+RN3/P2S1P3/NP2P1G1P/L1KP2PGL/2B4N1 b BN4P 111",
    // playout: nomate (2363 nodes)
    "lrkg5/P1sg1LP1l/2ng1P3/1p2s3+B/2P4ns/pP4n2/3PP1N1P/5G3/R2+sB1K1L w 4P4p 104",
    // tsume: mate 9 (2396 nodes)
    "7k+p/5lsB1/9/8N/8B/9/9/9/9 b 2SN2r4gs2n3l17p 1",
    // tsume: nomate (8086 nodes)
    "4kr3/2s6/9/9/2G6/9/9/9/9 b N2Lr2b3g3s3n2l18p 1",
    // playout: mate 13 (10583 nodes)
    "ln4+P1+P/rlgs2S2/1p1p+N+L1+P1/2p1p4/P1g4PL/5Pkg1/gP3p2N/+b4SpR1/2SKP+b3 w n4p 94",
    // tsume: mate 9 (11693 nodes)
    "2R6/9/1kL6/9/3S5/9/9/9/9 b BGrb3g3s4n3l18p 1",
    // tsume: mate 7 (12163 nodes)
    "9/7k1/9/4+R4/6B2/9/9/9/9 b RGb3g4s4n4l18p 1",
    // playout: mate 11 (12216 nodes)
    "1nn1b4/4s1lgl/Pr1s1ppnn/Lppp4p/1gL2K1kP/9/2P1PPP2/5G1+bS/2S1G4 w r6p 118",
    // tsume: nomate (13895 nodes)
    "2r6/5p3/3kr4/1l7/9/9/9/9/9 b B2Gb2g4s4n3l17p 1",
    // playout: mate 17 (19187 nodes)
    "2g5n/l1+R1+S1+Pp1/+Np1P5/2S1Lp1k1/4PRP2/P3g4/+b2pNPB1L/1g4G2/L+p2KNSs1 b 3P4p 137",
    // tsume: mate 11 (25379 nodes)
    "l8/9/2kB5/2n6/3B5/4G4/9/9/9 b Rr3g4s3n3l18p 1",
    // tsume: nomate (49857 nodes)
    "9/6k2/5g3/9/7L1/3R5/9/9/9 b BPrb3g4s4n3l17p 1",
    // tsume: mate 9 (102853 nodes)
    "9/1k7/N8/9/3NP4/9/9/9/9 b RBSrb4g3s2n4l17p 1",
    // playout: mate 17 (161163 nodes; that run printed a 15-ply line whose defence was not the
    // longest: cshogi finds no mate within 15 plies)
    "2s2psn1/+N1+N1k3l/Lp1pp2pG/9/1B3Sn1l/p4PPP1/1GGBP1s2/4GR3/4K3+p b RL4P3p 83",
    // playout: mate 27 (209442 nodes)
    "l1sp+Pp2b/4gG1s1/n1p3p1n/p2gp1s1n/1p2g4/PP1Pk2Pp/N1P3PK1/LBR2S2P/L4L3 b RPp 139",
    // playout: mate 13 (226230 nodes)
    "s1+P1B1+R1+P/B7L/p1npk1pp1/2n1g3p/Glp2p1N1/Pp2p1R2/1g1+n5/LP3SK1L/5SGP1 b S3Pp 157",
];

/// The result of one bench position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// 1-based index into the position list.
    pub index: usize,
    /// `mate`, `nomate` or `unknown:<reason>`.
    pub result: String,
    /// Mate length in plies (0 when there is no mate line).
    pub length: usize,
    /// Nodes the search took.
    pub nodes: u64,
    /// Time the search took.
    pub time: Duration,
}

impl std::fmt::Display for BenchLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:2} {} length {} nodes {} time_ms {}",
            self.index,
            self.result,
            self.length,
            self.nodes,
            self.time.as_millis()
        )
    }
}

/// The reason's variant name in lower case (`nodes`, `unverified`, ...), without its details.
fn reason_word(r: &UnknownReason) -> String {
    let name = format!("{r:?}");
    name.split(['(', ' ', '{'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn result_word(outcome: &Outcome) -> (String, usize) {
    match outcome {
        Outcome::Mate(line) => ("mate".to_string(), line.len()),
        Outcome::NoMate => ("nomate".to_string(), 0),
        Outcome::Unknown(r) => (format!("unknown:{}", reason_word(r)), 0),
    }
}

/// Solves `positions` one by one, each with a fresh solver of `hash_mb` MB and a limit of
/// `node_limit` nodes, calling `report` after each. Must run on a thread with a search-sized
/// stack (see [`super::with_search_stack`]). Panics on a bad SFEN (the list is ours).
pub fn run_positions(
    positions: &[&str],
    hash_mb: usize,
    threads: usize,
    node_limit: u64,
    report: &mut dyn FnMut(&BenchLine),
) -> Vec<BenchLine> {
    let limits = Limits {
        nodes: Some(node_limit),
        post_search: PostSearch::Shortest,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut out = Vec::with_capacity(positions.len());
    for (i, sfen) in positions.iter().enumerate() {
        let pos = Position::from_sfen(sfen)
            .unwrap_or_else(|e| panic!("bench position {} is invalid: {e}", i + 1));
        // A fresh solver per position: nothing of an earlier search can change this one.
        let mut solver = Solver::new(hash_mb);
        solver.set_threads(threads);
        let r = solver.solve(&pos, &limits, &stop, &mut |_| {});
        let (result, length) = result_word(&r.outcome);
        let line = BenchLine {
            index: i + 1,
            result,
            length,
            nodes: r.stats.nodes,
            time: r.stats.time,
        };
        report(&line);
        out.push(line);
    }
    out
}

/// Total nodes, total search time and nodes per second of a run.
pub fn totals(lines: &[BenchLine]) -> (u64, Duration, u64) {
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let time: Duration = lines.iter().map(|l| l.time).sum();
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    (nodes, time, nps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid() {
        for (i, s) in POSITIONS.iter().enumerate() {
            assert!(Position::from_sfen(s).is_ok(), "position {} invalid", i + 1);
        }
        assert!(POSITIONS.len() >= 25, "expected about 30 positions");
    }

    /// The node counts are a signature: two runs (fresh solvers) must agree exactly.
    #[test]
    fn node_counts_are_deterministic() {
        // The first 20: mates of 1 to 13 plies and two no-mates, a few thousand nodes each.
        let subset: Vec<&'static str> = POSITIONS.iter().copied().take(20).collect();
        let (a, b) = super::super::with_search_stack(move || {
            let a = run_positions(&subset, 16, 1, NODE_LIMIT, &mut |_| {});
            let b = run_positions(&subset, 16, 1, NODE_LIMIT, &mut |_| {});
            (a, b)
        });
        let sig = |v: &[BenchLine]| -> Vec<(String, usize, u64)> {
            v.iter()
                .map(|l| (l.result.clone(), l.length, l.nodes))
                .collect()
        };
        assert_eq!(sig(&a), sig(&b));
        for l in &a {
            assert!(!l.result.starts_with("unknown"), "position {l}");
        }
    }

    #[test]
    fn reason_words() {
        assert_eq!(reason_word(&UnknownReason::Nodes), "nodes");
        assert_eq!(
            reason_word(&UnknownReason::Unverified("x (y)".into())),
            "unverified"
        );
    }

    #[test]
    fn line_format() {
        let l = BenchLine {
            index: 3,
            result: "mate".into(),
            length: 5,
            nodes: 1234,
            time: Duration::from_millis(7),
        };
        assert_eq!(l.to_string(), " 3 mate length 5 nodes 1234 time_ms 7");
    }
}
