//! Reading the mating line out of the table after a proof, and checking it.
//!
//! - [`minimax`]: the minimax reading over stored proofs (a proven length bound, longest
//!   defences, spare-pieces tie-break).
//! - [`walk`]: one greedy walk with a target: any mating line, or exactly the proven shortest
//!   length with every defence proven longest; and the check that a given line's defences are.
//! - [`shortcut`]: shortening a proven line where a few plies of search reach a table proof
//!   sooner (the shortest-mate post-search's local improvement).
//! - [`compose`]: the composers' presentation (useless interpositions omitted).
//! - [`verify`]: replay with the full legal move generator.
//!
//! Readers reach the search only through its narrow API (`Search::stored`, `Search::prove_at`,
//! `Search::limit`, `Search::aborted`, `Search::check_abort`): they read the table and ask for
//! a position to be proven again on a given path, never set the search's state.

mod compose;
mod minimax;
mod shortcut;
mod verify;
mod walk;

pub(crate) use compose::compose;
pub use compose::{interposes, is_useless_interposition, useless_interposition, NarrowQuestion};
pub(crate) use minimax::read_minimax;
pub(crate) use shortcut::shorten;
pub use verify::{verify, verify_composed};
pub(crate) use walk::{defences_longest, walk, Target};

use super::dfpn::Search;
use crate::shogi::{Move, Position};

/// Search nodes one reading (a minimax reading, or a free walk) may spend proving table gaps
/// again; past them a gap is left unread (the minimax reading may still find a line through
/// another check; if not, the driver follows stored lengths this once and reads by minimax
/// again next time). Measured on famous.tsv row 191 (墨酔38_H, the set's length 57; 30 s, one
/// thread, 1024 MB): each reading re-proved 440–720 defences, one spent 5.1 M nodes (6.1 s) on
/// them, and the last used the final 10 s, so the answer stayed at 61; with this budget it
/// reached 57 (the round within 57 took 63 K nodes). Unchanged with it: the short sets' nodes
/// (23,829,050 on mate3-11 and extra1-9 at 3 s), long-ge50's 34 known rows (34/34, 79.8 s),
/// Microcosmos' 1525-ply bound (23.3 s) and 図巧100番's minimum (18.7 s).
const MAX_REPROVE_NODES: u64 = 1_000_000;

/// Search nodes a reader that has spent `spent` on re-proofs may still spend on the next.
/// Under a length limit (a reading after a shortest-mate round) what is left of
/// `MAX_REPROVE_NODES`: a lost position may have no mate within the limit that avoids the
/// reading path, and its search then ran until the solve's time was out (famous.tsv row 191,
/// two threads: one reading spent 18.5 M nodes and 23.6 s of a 30 s solve), while the driver
/// already holds a line. Without a limit (the first proof's line, the only one there is) a
/// lost position always has a mate again, and the re-proof takes what it needs.
fn reprove_budget(s: &Search, spent: u64) -> u64 {
    if s.limit() == u32::MAX {
        u64::MAX
    } else {
        MAX_REPROVE_NODES.saturating_sub(spent)
    }
}

/// Proves again the position reached from `root` by `moves` (then `extra`, if given), with
/// those moves as the search path, under the search's length limit, within
/// `reprove_budget(s, spent)` nodes. The readers' one way to fill a table gap.
fn reprove(s: &mut Search, root: &Position, moves: &[Move], extra: Option<Move>, spent: u64) {
    let budget = reprove_budget(s, spent);
    if budget > 0 {
        let limit = s.limit();
        s.prove_at_capped(root, moves, extra, limit, budget);
    }
}

/// Test set-up shared by the readers' tests: mate in 3 (checked by brute force with cshogi)
/// where the check G*3b only mates in 5. Runs `f` with a one-thread search over a fresh table
/// in which only the position after G*3b has been proven, the root, and G*3b.
#[cfg(test)]
pub(crate) fn with_detour_proven<T>(
    f: impl FnOnce(&mut super::dfpn::Search, &crate::shogi::Position, crate::shogi::Move) -> T,
) -> T {
    use crate::mate::Solver;
    use crate::shogi::{Move, Position};
    let root = Position::from_sfen("9/7k1/6R2/9/9/9/9/9/9 b GS 1").unwrap();
    let detour = Move::from_usi("G*3b").unwrap();
    super::dfpn::with_search(&mut Solver::new(1), &root, |s| {
        let r = s.prove_at(&root, &[], Some(detour), u32::MAX);
        assert_eq!(r.v.pn, 0, "G*3b mates");
        f(s, &root, detour)
    })
}
