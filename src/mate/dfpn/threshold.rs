//! Child thresholds: the 1+ε trick (Pawlewicz & Lew 2007). The best child gets
//! `min(th_φ, max(φ2 + 1, ⌈φ2·(1+ε)⌉))`, where φ2 is the second-best child's φ: a child runs
//! longer before control returns to its parent, which cuts re-expansions.

use super::super::value::INF;

/// How the selected child's threshold is set: the 1+ε trick. ε = 0.5 is the default (1.0
/// solved fewer long problems).
///
/// KomoringHeights' rule, `min(th, second + 1)`, was offered as `--threshold kh` and dropped:
/// it solved fewer problems (first 25 of long-ge50.tsv at 2 s each: 8
/// against 15; first 60 of famous.tsv: 54 against 56), and with the shortest-mate rounds'
/// length limit it could loop without end. Unsolved table entries are shared between depths
/// (a position met with 5 plies left and with 1 left), so a deep node inherited the large pn of
/// its shallow visits, was never visited under a threshold of `second + 1`, and fed its pn
/// back up: `9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1` crept through its 7-ply round
/// for hours. KomoringHeights escapes such loops by raising thresholds where a child's entry
/// was met at a shallower depth (the TCA of Kishimoto 2010); keeping unsolved entries per
/// remaining length also ended the loop, but cost the ε rule's shortest-mate rounds dearly
/// (世界大戦 at 8 M nodes: a 429-ply line instead of 403; 58 against 61 of every third famous
/// problem at their length within 1 M nodes), so the rule went instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Threshold {
    /// The 1+ε trick with this ε.
    Epsilon(f32),
}

impl Default for Threshold {
    fn default() -> Self {
        Threshold::Epsilon(0.5)
    }
}

impl Threshold {
    /// Parses `epsilon:<x>` (also `eps:<x>`), 0 < x ≤ 10.
    pub fn parse(s: &str) -> Option<Threshold> {
        let v = s
            .strip_prefix("epsilon:")
            .or_else(|| s.strip_prefix("eps:"))?;
        let e: f32 = v.parse().ok()?;
        (e > 0.0 && e <= 10.0).then_some(Threshold::Epsilon(e))
    }

    /// The φ threshold of the selected child, given the node's own φ threshold and the
    /// second-best child's φ (both at most `INF`).
    #[inline]
    pub(super) fn child_phi(self, node_phi_th: u32, second_phi: u32) -> u32 {
        match self {
            Threshold::Epsilon(eps) => {
                let scaled = (second_phi as f64 * (1.0 + eps as f64)).ceil() as u64;
                let t = scaled.max(second_phi as u64 + 1).min(INF as u64) as u32;
                node_phi_th.min(t)
            }
        }
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
        assert_eq!(t, Threshold::Epsilon(0.5));
        // ⌈10·1.5⌉ = 15, capped by the node's threshold.
        assert_eq!(t.child_phi(100, 10), 15);
        assert_eq!(t.child_phi(12, 10), 12);
        // At least φ2 + 1 (φ2 = 1: ⌈1.5⌉ = 2).
        assert_eq!(t.child_phi(100, 1), 2);
    }
}
