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
pub use compose::is_useless_interposition;
pub(crate) use minimax::read_minimax;
pub(crate) use shortcut::shorten;
pub use verify::{verify, verify_composed};
pub(crate) use walk::{defences_longest, walk, Target};

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
