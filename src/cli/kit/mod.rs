//! What the commands share, kept apart from them: no command imports another, each takes what
//! it shares from here. The kit imports only [`super::args`] (option types, error clipping) and
//! [`super::output`].
//!
//! * [`stop`]: the stop flag, the Ctrl-C handler that raises it, the interrupted exit status.
//! * [`input`]: reading one position (SFEN words, `startpos`, a problem file, standard input).
//! * [`search`]: limits and solvers from the search options, the table size fitted to memory.
//! * [`answer`]: an answer written as Japanese, KIF, CSA or JSON.

pub mod answer;
pub mod input;
pub mod search;
pub mod stop;
