//! The stop flag of the command line's searches and the signal handler that raises it.

use std::sync::atomic::AtomicBool;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::Ordering;

/// Exit status after Ctrl-C (or SIGTERM/SIGHUP), as shells report 128 + SIGINT.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Raised by the signal handler: the running search stops and its answer is printed.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C stop the search instead of killing the process (a proven mate would be lost);
/// a second one exits at once.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn install_signal_handler() {
    let r = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED as i32);
        }
    });
    if let Err(e) = r {
        log::warn!("cannot catch Ctrl-C ({e}); it will end the search without an answer");
    }
}

/// WebAssembly has no signals (the command line is not used there; it compiles so that the
/// bindings can share `bench`'s positions).
#[cfg(target_arch = "wasm32")]
pub(crate) fn install_signal_handler() {}
