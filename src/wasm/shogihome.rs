//! The USI engine for ShogiHome's web version (its `shogihome-wasm-engine` ABI; see
//! `usi::cooperative` and `web/shogihome/tsumugi.js`, the ES module that wraps these calls in
//! the ABI's engine object). One engine per module instance. Each call leaves the lines the
//! engine wrote in the reply buffer (text, each line ending in `\n`; empty when there are
//! none).

use super::ffi::{install_panic_hook, request, set_reply_text};
use crate::usi::cooperative::Cooperative;
use std::cell::RefCell;

thread_local! {
    static USI: RefCell<Cooperative> = RefCell::new(Cooperative::new());
}

/// The engine's state for the host: 2 after `quit` (or [`tsumugi_usi_terminate`]; nothing
/// more will be written), 1 while a search runs (keep calling [`tsumugi_usi_poll`]), 0 idle.
fn usi_state(e: &Cooperative) -> i32 {
    if e.has_quit() {
        2
    } else if e.searching() {
        1
    } else {
        0
    }
}

/// Runs `f` on the engine, then leaves what it wrote as the reply and returns the state: the
/// body of every `tsumugi_usi_*` entry point.
fn with_usi(f: impl FnOnce(&mut Cooperative)) -> i32 {
    USI.with(|e| {
        let mut e = e.borrow_mut();
        f(&mut e);
        set_reply_text(e.take_output());
        usi_state(&e)
    })
}

/// Handles one USI command line (UTF-8 at `ptr..ptr+len`). Reply: the lines written; returns
/// the state (see `usi_state`).
///
/// # Safety
/// `ptr` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn tsumugi_usi_command(ptr: *const u8, len: usize) -> i32 {
    install_panic_hook();
    // SAFETY: forwarded from the caller.
    let line = unsafe { request(ptr, len) };
    with_usi(|e| e.command(&line))
}

/// Advances the running search by one slice (at most 200 ms; see `usi::cooperative`). Reply:
/// the lines written; returns the state.
#[no_mangle]
pub extern "C" fn tsumugi_usi_poll() -> i32 {
    install_panic_hook();
    with_usi(|e| {
        e.poll();
    })
}

/// Ends the engine without a word (the ABI's `terminate()`): a running search is dropped, the
/// table freed. Returns 2.
#[no_mangle]
pub extern "C" fn tsumugi_usi_terminate() -> i32 {
    install_panic_hook();
    with_usi(|e| e.terminate())
}
