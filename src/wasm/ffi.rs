//! The boundary with the JavaScript host: request buffers in the module's memory
//! ([`tsumugi_alloc`], [`tsumugi_free`]), the reply buffer every call leaves its answer in
//! ([`tsumugi_reply_ptr`], [`tsumugi_reply_len`]; valid until the next call), and the host's
//! console for panics (`env.tsumugi_log`). The other files of `wasm` read requests and write
//! replies only through here.

use serde_json::Value;
use std::cell::RefCell;

#[link(wasm_import_module = "env")]
extern "C" {
    /// Receives a UTF-8 message (a panic's) for the host's console.
    fn tsumugi_log(ptr: *const u8, len: usize);
}

thread_local! {
    /// The last call's reply.
    static REPLY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Leaves `v` (JSON) as the reply.
pub(super) fn set_reply(v: &Value) {
    set_reply_text(v.to_string());
}

/// Leaves `text` as the reply.
pub(super) fn set_reply_text(text: String) {
    REPLY.with(|r| *r.borrow_mut() = text.into_bytes());
}

/// The request at `ptr..ptr+len` as bytes.
///
/// # Safety
/// `ptr` must point to `len` readable bytes (a buffer from [`tsumugi_alloc`]) that stay
/// unchanged while the result is used.
pub(super) unsafe fn request_bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller guarantees `len` readable bytes at `ptr`, unchanged meanwhile.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// The request at `ptr..ptr+len` as text (lossy: the host writes UTF-8).
///
/// # Safety
/// `ptr` must point to `len` readable bytes (a buffer from [`tsumugi_alloc`]).
pub(super) unsafe fn request(ptr: *const u8, len: usize) -> String {
    // SAFETY: forwarded from the caller; the bytes are copied out at once.
    String::from_utf8_lossy(unsafe { request_bytes(ptr, len) }).into_owned()
}

/// Sends panics to the host's console (`env.tsumugi_log`) before the module traps: with
/// `panic = "abort"` the message would otherwise be lost. Every entry point calls it first.
pub(super) fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let msg = format!("tsumugi panicked: {info}");
            // SAFETY: the host reads `msg.len()` bytes at `msg.as_ptr()` during the call only.
            unsafe { tsumugi_log(msg.as_ptr(), msg.len()) };
        }));
    });
}

/// A buffer of `len` bytes for a request (freed with [`tsumugi_free`]).
#[no_mangle]
pub extern "C" fn tsumugi_alloc(len: usize) -> *mut u8 {
    let mut v = vec![0u8; len.max(1)];
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Frees a buffer of [`tsumugi_alloc`].
///
/// # Safety
/// `ptr` and `len` must be exactly what `tsumugi_alloc(len)` returned and was given, not freed
/// before.
#[no_mangle]
pub unsafe extern "C" fn tsumugi_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes a live allocation of `tsumugi_alloc(len)`, whose capacity is
    // `len.max(1)`.
    unsafe { drop(Vec::from_raw_parts(ptr, 0, len.max(1))) };
}

/// Where the last call's reply (UTF-8) starts.
#[no_mangle]
pub extern "C" fn tsumugi_reply_ptr() -> *const u8 {
    REPLY.with(|r| r.borrow().as_ptr())
}

/// The last call's reply length in bytes.
#[no_mangle]
pub extern "C" fn tsumugi_reply_len() -> usize {
    REPLY.with(|r| r.borrow().len())
}
