//! tsumugi: a tsume-shogi (mate problem) solver.
//!
//! Layers, arrows pointing down only: `usi` (protocol) → `mate` (search) → `shogi` (rules).

pub mod shogi;
