#![warn(missing_docs)]
//! tsumugi: a tsume-shogi (mate problem) solver speaking USI.
//!
//! Layers, arrows pointing down only: `usi` (protocol) → `mate` (search) → `shogi` (rules).
//! `cli`, `solve` and `bench` hold the subcommands of the binary (above all three layers).

pub mod bench;
pub mod cli;
pub mod mate;
pub mod shogi;
pub mod solve;
pub mod usi;
