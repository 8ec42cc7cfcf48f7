//! tsumugi: a tsume-shogi (mate problem) solver speaking USI.
//!
//! One layer per module, arrows pointing down only: `cli` → `usi` → `mate` → `shogi`, and
//! `cli` → `record` → `shogi` for problem files.
//! * [`cli`]: the binary's command line (the USI engine, or a subcommand for people and scripts).
//! * [`usi`]: the USI protocol engine.
//! * [`mate`]: the mate search.
//! * [`review`]: checking a composed problem (`tsumugi check`: 余詰, longest defences, 駒余り,
//!   variations), built on `mate`'s public API (`cli` → `review` → `mate`).
//! * [`record`]: problem files in and out (SFEN, KIF/KI2 with BOD diagrams, CSA, ASCII).
//! * [`kikazu`]: a puzzle on the rules' attack tables (利かずの駒並べ, `cli` → `kikazu` →
//!   `shogi`): pieces placed so that none attacks another.
//! * [`shogi`]: the rules.
//! * [`system`]: what the operating system reports (available memory), per system.
//!
//! Built for WebAssembly (`wasm32`), the crate has `wasm` at the top instead of `cli` (which is
//! native only): the bindings a browser page (or another JavaScript host) calls (see
//! `scripts/build-web`).

#![warn(missing_docs)]

/// `tsumugi --version`: the crate version and the commit it was built from (`build.rs`).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("TSUMUGI_COMMIT"),
    ")"
);

// The native binary's command line; the WebAssembly build (`wasm`) has none.
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod kikazu;
pub mod mate;
pub mod record;
pub mod review;
pub mod shogi;
pub mod system;
pub mod usi;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
