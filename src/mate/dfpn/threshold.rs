//! Child thresholds: the 1+ε trick (Pawlewicz & Lew 2007). The best child gets
//! `min(th_φ, max(φ2 + 1, ⌈φ2·(1+ε)⌉))`, where φ2 is the second-best child's φ: a child runs
//! longer before control returns to its parent, which cuts re-expansions. On top of it, the
//! threshold control at children met before at a shallower ply (TCA, Kishimoto 2010) lives in
//! `search`; this type switches it.

use super::super::value::INF;

/// How thresholds are set: the 1+ε trick for the selected child, and whether TCA extends
/// them. ε = 0.5 is the default (1.0 solved fewer long problems).
///
/// KomoringHeights' rule, `min(th, second + 1)`, was offered as `--threshold kh` and dropped:
/// it solved fewer problems (first 25 of long-ge50.tsv at 2 s each: 8
/// against 15; first 60 of famous.tsv: 54 against 56), and with the shortest-mate rounds'
/// length limit it could loop without end. Unsolved table entries are shared between depths
/// (a position met with 5 plies left and with 1 left), so a deep node inherited the large pn of
/// its shallow visits, was never visited under a threshold of `second + 1`, and fed its pn
/// back up: `9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1` crept through its 7-ply round
/// for hours. KomoringHeights escapes such loops by raising thresholds where a child's entry
/// was met at a shallower depth (the TCA of Kishimoto 2010, now in ours beside ε, see
/// `search`); keeping unsolved entries per
/// remaining length also ended the loop, but cost the ε rule's shortest-mate rounds dearly
/// (世界大戦 at 8 M nodes: a 429-ply line instead of 403; 58 against 61 of every third famous
/// problem at their length within 1 M nodes), so the rule went instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    /// ε of the 1+ε trick.
    pub epsilon: f32,
    /// Threshold control at children met before at a shallower ply (TCA, Kishimoto 2010; see
    /// `search`). On by default. First proofs at 8 GB, with and without it (2026-11-27, two
    /// threads, both builds at once): 乱 85.7 M nodes against 103.0 M (86.0 M against 150.3 M
    /// at 6 GB), FAIRWAY 54.7 M against 38.7 M (55.5 M against 38.0 M at 6 GB), 新桃花源
    /// 125.8 M against 111.4 M. One thread each beside KomoringHeights (with the rule for
    /// fresh nodes in `search`), the first proofs came at 130.4 s, 67.6 s and 157.5 s against
    /// 182.3 s, 62.9 s and 209.3 s without TCA earlier the same day (docs/bench/hardest.md). famous.tsv within 1 M nodes a problem: 193 solved without,
    /// 195 with it (0.99 of the nodes); mate3-11 and extra1-9 at 3 s a problem: all 1800 at
    /// their length either way, in 0.98 of the time (TCA without the rule for fresh
    /// nodes in `search` against none, same run) and 0.97 of that again (the rule, same run).
    pub tca: bool,
    /// Longest search path, in plies from the root, before a node fails on that path alone
    /// (like a repetition: never stored as a disproof, see `children`); `u32::MAX`: none.
    /// KomoringHeights caps its paths at 4,000 plies the same way. The longest known
    /// problems' lines are 1,525 plies (ミクロコスモス); without a cap our search of 明日香
    /// (703 plies) spent most of its nodes past ply 4,000 (a median ply of 4,900-5,100 from its
    /// 27th minute on).
    pub depth_cap: u32,
    /// Double-count elimination by following parent links (see `confluence`). On by default.
    pub dce: bool,
    /// Growth factor of the root's thresholds (see `Search::mid_root`); 1 or less: the root
    /// is searched under infinite thresholds at once. Helpers grow theirs by the same factor.
    pub root_growth: f32,
    /// Plies per extra unit of pn for a position new to the table (0: off, the default): the
    /// children of a node at ply p start with p / k more pn (see [`Threshold::depth_extra`]).
    /// A pn counts the leaves left to prove, not the plies to search: a forced line of 300
    /// plies with one answer at each defender's node costs a pn of 1 or 2 at any depth, so
    /// df-pn follows such a line as long as it stays forced. 明日香's long stretches are of that
    /// kind (the king walks up and down the 1-file while pieces are dropped, interposed and
    /// taken, boards coming back with hands neither better nor worse), and our search spent
    /// most of its nodes below the length of the mate there. With `depth:20`, positions along
    /// KomoringHeights' 307-ply line after 500 plies of 明日香 were proven where the default
    /// proved none within the same nodes (docs/bench/hardest.md, "明日香's rungs with a pn for
    /// depth"); it cost 乱, FAIRWAY and 新桃花源 26%, 12% and 35% more nodes to their first
    /// proofs (`depth:30`: 5%, 46% and 32%), so it is not the default.
    pub depth_pn: u32,
    /// A seed for breaking ties among fresh children (0: none, the main search's). With a
    /// seed, about half of the fresh children start one unit higher (pn for a child of an
    /// attacker's node, dn for a child of a defender's), chosen by their key: a helper that
    /// searches under the same rules as the main search otherwise picks the same child among
    /// equals and follows it into the same subtree (see `crew::helper_threshold`).
    pub jitter: u64,
}

/// The default growth factor of the root's thresholds (see [`Threshold::root_growth`]).
pub const ROOT_GROWTH: f32 = 1.7;

/// The default path cap (see [`Threshold::depth_cap`]).
pub const DEPTH_CAP: u32 = 4000;

impl Default for Threshold {
    fn default() -> Self {
        Threshold {
            epsilon: 0.5,
            tca: true,
            depth_cap: DEPTH_CAP,
            dce: true,
            root_growth: ROOT_GROWTH,
            depth_pn: 0,
            jitter: 0,
        }
    }
}

impl Threshold {
    /// Parses `epsilon:<x>` (also `eps:<x>`), 0 < x ≤ 10, optionally followed by
    /// comma-separated switches: `no-tca` (threshold control off) or `tca`, `cap:<n>` (the path
    /// cap, 2 ≤ n ≤ 65,535) or `no-cap`, `no-dce` (no walk up the parent links) or `dce`,
    /// `root:<g>` (the root thresholds' growth, 1 < g ≤ 100) or `no-root` (infinite at once),
    /// `depth:<k>` (a pn for depth, 1 ≤ k ≤ 100,000) or `no-depth`.
    pub fn parse(s: &str) -> Option<Threshold> {
        let mut parts = s.split(',');
        let eps = parts.next()?;
        let v = eps
            .strip_prefix("epsilon:")
            .or_else(|| eps.strip_prefix("eps:"))?;
        let e: f32 = v.parse().ok()?;
        let mut t = Threshold {
            epsilon: e,
            ..Threshold::default()
        };
        for p in parts {
            match p {
                "tca" => t.tca = true,
                "no-tca" => t.tca = false,
                "no-cap" => t.depth_cap = u32::MAX,
                "dce" => t.dce = true,
                "no-dce" => t.dce = false,
                "no-root" => t.root_growth = 0.0,
                "no-depth" => t.depth_pn = 0,
                _ if p.starts_with("depth:") => {
                    let k: u32 = p["depth:".len()..].parse().ok()?;
                    if !(1..=100_000).contains(&k) {
                        return None;
                    }
                    t.depth_pn = k;
                }
                _ if p.starts_with("root:") => {
                    let g: f32 = p["root:".len()..].parse().ok()?;
                    if !(g > 1.0 && g <= 100.0) {
                        return None;
                    }
                    t.root_growth = g;
                }
                _ => {
                    let n: u32 = p.strip_prefix("cap:")?.parse().ok()?;
                    if !(2..=u16::MAX as u32).contains(&n) {
                        return None;
                    }
                    t.depth_cap = n;
                }
            }
        }
        (e > 0.0 && e <= 10.0).then_some(t)
    }

    /// The pn a position new to the table starts with beyond its estimate when its parent is at
    /// `ply` (see [`Threshold::depth_pn`]).
    #[inline]
    pub(super) fn depth_extra(self, ply: u32) -> u32 {
        ply.checked_div(self.depth_pn).unwrap_or(0)
    }

    /// The extra unit of a fresh child with key `key` (0 or 1; always 0 without a seed, see
    /// [`Threshold::jitter`]). The top bit of a multiplicative hash (Knuth's 2^64/φ) of the
    /// key mixed with the seed: cheap, and it depends on every bit of the key.
    #[inline]
    pub(super) fn jitter_of(self, key: u64) -> u32 {
        if self.jitter == 0 {
            return 0;
        }
        ((key ^ self.jitter).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63) as u32
    }

    /// The φ threshold of the selected child, given the node's own φ threshold and the
    /// second-best child's φ (both at most `INF`).
    #[inline]
    pub(super) fn child_phi(self, node_phi_th: u32, second_phi: u32) -> u32 {
        let scaled = (second_phi as f64 * (1.0 + self.epsilon as f64)).ceil() as u64;
        let t = scaled.max(second_phi as u64 + 1).min(INF as u64) as u32;
        node_phi_th.min(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_child_threshold() {
        assert_eq!(Threshold::parse("kh"), None);
        assert_eq!(Threshold::parse("eps:0"), None);
        let t = Threshold::parse("epsilon:0.5").unwrap();
        assert_eq!(t, Threshold::default());
        let off = Threshold::parse("eps:2,no-tca").unwrap();
        assert_eq!((off.epsilon, off.tca), (2.0, false));
        assert_eq!(Threshold::parse("eps:2,tca").map(|t| t.tca), Some(true));
        assert_eq!(Threshold::parse("eps:2,kh"), None);
        let capped = Threshold::parse("eps:2,no-tca,cap:100").unwrap();
        assert_eq!((capped.tca, capped.depth_cap), (false, 100));
        assert_eq!(t.depth_cap, DEPTH_CAP);
        assert_eq!(
            Threshold::parse("eps:0.5,no-cap").map(|t| t.depth_cap),
            Some(u32::MAX)
        );
        assert_eq!(Threshold::parse("eps:0.5,cap:1"), None);
        assert_eq!(
            Threshold::parse("eps:0.5,no-dce").map(|t| t.dce),
            Some(false)
        );
        assert!(t.dce);
        assert_eq!(Threshold::parse("eps:0.5,cap:x"), None);
        assert_eq!(t.root_growth, ROOT_GROWTH);
        let root = |s| Threshold::parse(s).map(|t| t.root_growth);
        assert_eq!(root("eps:0.5,root:2.5"), Some(2.5));
        assert_eq!(root("eps:0.5,no-root"), Some(0.0));
        assert_eq!(root("eps:0.5,root:1"), None);
        assert_eq!(root("eps:0.5,root:x"), None);
        // ⌈10·1.5⌉ = 15, capped by the node's threshold.
        assert_eq!(t.child_phi(100, 10), 15);
        assert_eq!(t.child_phi(12, 10), 12);
        // At least φ2 + 1 (φ2 = 1: ⌈1.5⌉ = 2).
        assert_eq!(t.child_phi(100, 1), 2);
        // A pn for depth: off by default, else one more every k plies of the parent's.
        assert_eq!((t.depth_pn, t.depth_extra(399)), (0, 0));
        let d = Threshold::parse("eps:0.5,depth:20").unwrap();
        assert_eq!(
            (d.depth_extra(19), d.depth_extra(20), d.depth_extra(399)),
            (0, 1, 19)
        );
        assert_eq!(Threshold::parse("eps:0.5,depth:20,no-depth"), Some(t));
        assert_eq!(Threshold::parse("eps:0.5,depth:0"), None);
        assert_eq!(Threshold::parse("eps:0.5,depth:x"), None);
    }

    #[test]
    fn a_seed_breaks_ties_half_the_time_and_none_without_one() {
        let none = Threshold::default();
        let seeded = Threshold {
            jitter: 0xD1B5_4A32_D192_ED03,
            ..none
        };
        let keys = (0..10_000u64).map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D));
        let mut ones = 0;
        for k in keys {
            assert_eq!(none.jitter_of(k), 0);
            let j = seeded.jitter_of(k);
            assert!(j <= 1);
            ones += j;
        }
        assert!((4_500..=5_500).contains(&ones), "{ones} of 10,000");
    }
}
