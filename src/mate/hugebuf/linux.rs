//! Linux: anonymous private mappings, zero-filled by the kernel on first touch. A buffer of at
//! least 2 MB is mapped 2 MB larger and trimmed to a 2 MB boundary, so that every 2 MB of it can
//! be one huge page.
//!
//! The calls and their constants come from `libc`, whose declarations follow each target's
//! own headers (argument types and flag values differ between architectures: `MAP_ANONYMOUS`
//! is 0x800 on MIPS, `off_t` is 32 bits on 32-bit ARM).

use super::{Populated, HUGE_PAGE};
use libc::c_void;

/// Smallest page size of the Linux targets; mappings are aligned to at least this.
const MIN_PAGE: usize = 4096;

fn map(len: usize) -> Option<*mut u8> {
    // SAFETY: a fresh anonymous mapping chosen by the kernel; it aliases nothing.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    (p != libc::MAP_FAILED && !p.is_null()).then_some(p as *mut u8)
}

/// The length mapped for a buffer of `bytes`.
fn mapped_len(bytes: usize) -> Option<usize> {
    if bytes < HUGE_PAGE {
        Some(bytes)
    } else {
        bytes.checked_next_multiple_of(HUGE_PAGE)
    }
}

/// `bytes` zero bytes aligned to `align` (at most a page), or `None` (`ENOMEM`).
pub(super) fn alloc_zeroed(bytes: usize, align: usize) -> Option<*mut u8> {
    assert!(align <= MIN_PAGE);
    let size = mapped_len(bytes)?;
    if bytes < HUGE_PAGE {
        return map(size);
    }
    let map_len = size.checked_add(HUGE_PAGE)?;
    let base = map(map_len)? as usize;
    let aligned = base.next_multiple_of(HUGE_PAGE);
    let (head, tail) = (aligned - base, base + map_len - (aligned + size));
    // SAFETY: both ranges lie in the mapping just made, outside `[aligned, aligned + size)`,
    // and are multiples of the page size (`base` is page-aligned, the rest 2 MB multiples).
    unsafe {
        if head > 0 {
            libc::munmap(base as *mut c_void, head);
        }
        if tail > 0 {
            libc::munmap((aligned + size) as *mut c_void, tail);
        }
    }
    Some(aligned as *mut u8)
}

/// Asks Linux to back `[addr, addr + len)` with transparent huge pages. A hint: with THP set to
/// `madvise` (a common default) nothing else turns them on; with `never` it does nothing.
pub(super) fn advise_huge_pages(addr: *mut u8, len: usize) {
    if len < HUGE_PAGE {
        return;
    }
    // SAFETY: madvise only changes paging advice for a range of our own live allocation; on
    // error (THP unsupported) the memory stays as it was, so the result is only logged.
    let rc = unsafe { libc::madvise(addr as *mut c_void, len, libc::MADV_HUGEPAGE) };
    if rc != 0 {
        log::debug!("madvise(MADV_HUGEPAGE) failed; normal pages are used");
    }
}

/// Unmaps a buffer of `alloc_zeroed`.
///
/// # Safety
/// `ptr` and `bytes` are those of a live buffer of `alloc_zeroed`, not used afterwards.
pub(super) unsafe fn free(ptr: *mut u8, bytes: usize, _align: usize) {
    if let Some(len) = mapped_len(bytes) {
        // SAFETY: the caller's contract: exactly our mapping.
        unsafe { libc::munmap(ptr as *mut c_void, len) };
    }
}

/// A buffer can be cut short in place (`cut`).
pub(super) const CAN_CUT: bool = true;

#[cfg(test)]
thread_local! {
    /// Makes `cut` fail on this thread, as `munmap` may (a mapping split beyond the limit of
    /// mappings), for the tests of what a failed cut leaves.
    pub(super) static FAIL_CUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Unmaps the end of a buffer of `bytes`, keeping its first `keep` bytes; `true` when done
/// (then the buffer is one of `keep` bytes for `free`).
///
/// # Safety
/// `ptr` and `bytes` are those of a live buffer of `alloc_zeroed`, exclusively borrowed;
/// `keep` is a positive multiple of `HUGE_PAGE` below `bytes`; nothing past `keep` is used
/// again.
pub(super) unsafe fn cut(ptr: *mut u8, bytes: usize, keep: usize) -> bool {
    debug_assert!(keep > 0 && keep < bytes && keep % HUGE_PAGE == 0);
    #[cfg(test)]
    if FAIL_CUT.get() {
        return false;
    }
    let (Some(end), Some(kept)) = (mapped_len(bytes), mapped_len(keep)) else {
        return false;
    };
    // SAFETY: `[ptr + kept, ptr + end)` is the tail of our mapping (both ends are 2 MB
    // multiples past its start), unused from now on by the caller's contract.
    unsafe {
        let tail = ptr.add(kept) as *mut c_void;
        // The tail's pages are given back first: unmapping it splits the mapping, and the
        // kernel's record of the new part is charged to the process's memory cgroup. When the
        // cgroup's limit is what stopped the touching, the pages touched in the refused step
        // fill it, and munmap failed with ENOMEM (measured in a 96 MB v1 cgroup:
        // `tests::a_buffer_larger_than_its_cgroup_allows_is_cut`). MADV_DONTNEED does not
        // split the mapping, so it needs no memory.
        libc::madvise(tail, end - kept, libc::MADV_DONTNEED);
        libc::munmap(tail, end - kept) == 0
    }
}

/// Maps (and zero-fills) every page of `[ptr, ptr + bytes)` for writing at once
/// (`MADV_POPULATE_WRITE`, Linux 5.14). `EINVAL` is an older kernel, which does not know the
/// advice; any other error is taken as no room (`ENOMEM`: the charge to the machine's memory
/// or to the cgroup failed; the populating path is not a page fault, so it fails instead of
/// waiting for memory or calling the OOM killer where that is off).
///
/// # Safety
/// The range lies inside a live buffer of `alloc_zeroed`.
pub(super) unsafe fn populate(ptr: *mut u8, bytes: usize) -> Populated {
    // Ranges start at the buffer (a mapping, page-aligned) or 2 MB past it, as madvise wants.
    debug_assert_eq!(ptr as usize % MIN_PAGE, 0);
    // SAFETY: the caller's contract; populating only faults in pages of our mapping without
    // changing their contents.
    if unsafe { libc::madvise(ptr as *mut c_void, bytes, libc::MADV_POPULATE_WRITE) } == 0 {
        return Populated::Done;
    }
    let err = std::io::Error::last_os_error();
    if err.raw_os_error() == Some(libc::EINVAL) {
        return Populated::Unsupported;
    }
    log::debug!("madvise(MADV_POPULATE_WRITE) of {bytes} bytes refused: {err}");
    Populated::Refused
}

/// Gives the pages of a buffer back to the kernel, which zero-fills them again on the next
/// touch (so clearing a table does not make all of it resident). `false` if refused.
///
/// # Safety
/// `ptr` and `bytes` are those of a live buffer of `alloc_zeroed`, exclusively borrowed.
pub(super) unsafe fn discard(ptr: *mut u8, bytes: usize) -> bool {
    let Some(len) = mapped_len(bytes) else {
        return false;
    };
    // SAFETY: the caller's contract; MADV_DONTNEED on a private anonymous mapping only
    // replaces its contents with zeros.
    unsafe { libc::madvise(ptr as *mut c_void, len, libc::MADV_DONTNEED) == 0 }
}
