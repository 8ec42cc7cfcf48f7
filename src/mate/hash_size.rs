//! The transposition table's sizes in MB, in one place: the defaults of each front end, the
//! bench's size, and the smallest and largest size each front end accepts. Every front end (the
//! USI options, the command line, `check`, the browser bindings) refers to these; none writes a
//! size of its own.
//!
//! The rule for the maxima: a maximum bounds what a caller may *ask for*, never what it *gets*.
//! What is allocated is decided at allocation, for every caller alike: natively the available
//! memory cap ([`super::hash_limit_mb`], applied by the callers before they allocate: the
//! command line's `fit_hash_mb` and the USI engine's `hash_mb_to_use`; `Table::new` does not
//! apply it) and halving on a failed allocation (`Table::new`); in the browser, halving (`Solver::new`) or
//! a refusal that asks for less (`Solver::try_new`). So a maximum only keeps a request sane for
//! the one who makes it, and there is one per kind of caller:
//!
//! * declared to a GUI (`option name USI_Hash ... max`): the range a GUI offers a person, so it
//!   stays a size a machine can hold ([`USI_MAX_MB`], [`BROWSER_USI_MAX_MB`]);
//! * typed on the command line or sent by our own page: bounded only far above any machine
//!   ([`CLI_MAX_MB`]) or by the address space ([`BROWSER_MAX_MB`]), the cap at allocation
//!   saying what is used (with a warning, or a refusal naming the size).
//!
//! The values are those each front end had before they were gathered here: changing one is a
//! change of behaviour (the `usi` reply, what `--hash-mb` accepts, the bench signature).

/// Smallest size anyone may ask for: one MB holds thousands of clusters, enough for any short
/// mate; 0 would be no table at all.
pub const MIN_MB: usize = 1;

/// Default size of the native engine (`USI_Hash`), of `tsumugi solve` and `tsumugi check` and
/// of [`crate::review::CheckOptions`]: a quarter of a GB keeps minutes of search on a small
/// machine and leaves room for a GUI and another engine beside it.
pub const DEFAULT_MB: usize = 256;

/// Default size in the browser (the page's requests and the WebAssembly USI engine): large
/// enough for a few minutes of search in a browser tab, small enough for a phone.
pub const BROWSER_DEFAULT_MB: usize = 128;

/// Size of `tsumugi bench` (and the page's bench) when none is given. The node signature is
/// defined at this size: changing it changes every signature recorded (docs/benchmarks.md). It
/// is small so that a fresh table per position costs little and a browser can give it.
pub const BENCH_MB: usize = 16;

/// Largest `USI_Hash` the native engine declares and accepts: 64 GB, what a GUI's spin box
/// should offer a person (a larger request is also reduced at allocation).
pub const USI_MAX_MB: usize = 65536;

/// Largest `USI_Hash` the WebAssembly engine declares and accepts, where a failed allocation
/// takes the browser tab down with it: ShogiHome's engine ABI (`specs/wasm-engine-abi.md`,
/// section 5) asks for a cap and suggests 256 MB.
pub const BROWSER_USI_MAX_MB: usize = 256;

/// Largest `--hash-mb` of the command line (`solve`, `check`, `bench`): 1 TB, above any machine
/// it runs on, so that the available memory, not the grammar, decides what is used (reduced
/// with a one-line warning naming the size asked).
pub const CLI_MAX_MB: usize = 1 << 20;

/// Largest table the page may ask for (`tsumugi_solve`, `tsumugi_bench`): half of the 4 GB
/// wasm32 addresses in all, leaving the rest to the module and the page.
pub const BROWSER_MAX_MB: usize = 2048;

/// Default `USI_Hash` of this build: [`DEFAULT_MB`] natively, [`BROWSER_DEFAULT_MB`] in
/// WebAssembly.
#[cfg(not(target_arch = "wasm32"))]
pub const USI_DEFAULT_MB_HERE: usize = DEFAULT_MB;
/// Default `USI_Hash` of this build: [`DEFAULT_MB`] natively, [`BROWSER_DEFAULT_MB`] in
/// WebAssembly.
#[cfg(target_arch = "wasm32")]
pub const USI_DEFAULT_MB_HERE: usize = BROWSER_DEFAULT_MB;

/// Largest `USI_Hash` of this build: [`USI_MAX_MB`] natively, [`BROWSER_USI_MAX_MB`] in
/// WebAssembly.
#[cfg(not(target_arch = "wasm32"))]
pub const USI_MAX_MB_HERE: usize = USI_MAX_MB;
/// Largest `USI_Hash` of this build: [`USI_MAX_MB`] natively, [`BROWSER_USI_MAX_MB`] in
/// WebAssembly.
#[cfg(target_arch = "wasm32")]
pub const USI_MAX_MB_HERE: usize = BROWSER_USI_MAX_MB;

// Checked when the crate compiles: each default lies within the range its front end accepts,
// and what a GUI is offered is never more than the same target's other callers may ask for.
const _: () = {
    assert!(MIN_MB <= DEFAULT_MB && DEFAULT_MB <= USI_MAX_MB);
    assert!(MIN_MB <= BENCH_MB && BENCH_MB <= BROWSER_USI_MAX_MB);
    assert!(MIN_MB <= BROWSER_DEFAULT_MB && BROWSER_DEFAULT_MB <= BROWSER_USI_MAX_MB);
    assert!(USI_MAX_MB <= CLI_MAX_MB);
    assert!(BROWSER_USI_MAX_MB <= BROWSER_MAX_MB);
};
