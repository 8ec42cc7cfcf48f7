//! tsumugi: a tsume-shogi (mate problem) solver speaking USI.
//!
//! Layers, arrows pointing down only: `usi` (protocol) → `mate` (search) → `shogi` (rules).
//! `cli` holds the subcommands of the binary.

pub mod bench;
pub mod cli;
pub mod mate;
pub mod shogi;
pub mod usi;
