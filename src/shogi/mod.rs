//! Shogi rules: board representation, attack tables, positions, SFEN, move generation.
//! Knows nothing of search or protocol.

pub mod attacks;
pub mod bitboard;
pub mod checks;
pub mod hand;
pub mod movegen;
pub mod mv;
pub mod notation;
pub mod position;
pub mod sfen;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use hand::Hand;
pub use movegen::{perft, MoveList};
pub use mv::Move;
pub use position::Position;
pub use sfen::{SfenError, STARTPOS};
pub use types::{Color, Piece, PieceKind, Square};
