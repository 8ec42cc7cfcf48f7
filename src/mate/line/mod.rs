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
