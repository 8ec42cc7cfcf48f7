//! Every target but Linux (Windows, macOS, WebAssembly): the global allocator, its null result
//! checked.

use std::alloc::Layout;

pub(super) fn alloc_zeroed(bytes: usize, align: usize) -> Option<*mut u8> {
    let layout = Layout::from_size_align(bytes, align).ok()?;
    // SAFETY: `bytes` is non-zero (`HugeBuf::try_new` asserts a non-empty buffer).
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    (!p.is_null()).then_some(p)
}

/// # Safety
/// `ptr`, `bytes` and `align` are those of a live buffer of `alloc_zeroed`.
pub(super) unsafe fn free(ptr: *mut u8, bytes: usize, align: usize) {
    // SAFETY: the caller's contract: this layout was valid and allocated with it.
    unsafe { std::alloc::dealloc(ptr, Layout::from_size_align_unchecked(bytes, align)) }
}

/// The global allocator's buffers cannot be cut in place; nor need they be: Windows
/// commits a buffer's memory when it is allocated, and WebAssembly's memory is the page's.
pub(super) const CAN_CUT: bool = false;

/// # Safety
/// Nothing is required: nothing is done.
pub(super) unsafe fn cut(_ptr: *mut u8, _bytes: usize, _keep: usize) -> bool {
    false
}

/// # Safety
/// Nothing is required: nothing is done (the caller touches the pages itself).
pub(super) unsafe fn populate(_ptr: *mut u8, _bytes: usize) -> super::Populated {
    super::Populated::Unsupported
}

/// # Safety
/// Nothing is required: nothing is done.
pub(super) unsafe fn discard(_ptr: *mut u8, _bytes: usize) -> bool {
    false
}

/// Nothing to advise.
pub(super) fn advise_huge_pages(_addr: *mut u8, _len: usize) {}
