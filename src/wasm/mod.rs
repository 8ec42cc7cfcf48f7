//! WebAssembly bindings: the mate solver for a browser page or any other JavaScript host,
//! compiled for `wasm32-unknown-unknown` (see `scripts/build-web`). Not built natively.
//!
//! One file a purpose: `ffi` is the boundary (request buffers in the module's memory, the reply
//! buffer every call leaves its answer in, the host's console for panics); `page` the browser
//! page's API (read a position, solve it in slices, stop); `shogihome` the USI engine of
//! ShogiHome's web version; `bench` the bench of `tsumugi bench`.
//!
//! Strings cross the boundary as UTF-8 in the module's memory: the host asks
//! [`tsumugi_alloc`](ffi::tsumugi_alloc) for a buffer, writes its request there and passes
//! pointer and length; every call leaves its answer in a reply buffer read through
//! `tsumugi_reply_ptr` and `tsumugi_reply_len` (valid until the next call). The host provides
//! one import, `env.tsumugi_now_ms` (a monotonic clock in milliseconds, `performance.now()`;
//! see `mate::clock`) and `env.tsumugi_log(ptr, len)`, which receives a panic's message
//! (UTF-8) before the module traps.
//!
//! Imports `mate`, `record`, `shogi` and `usi`; never `cli`, which is not built for wasm32.

mod bench;
mod ffi;
mod first_moves;
mod page;
mod shogihome;
