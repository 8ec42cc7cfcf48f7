//! Large zero-initialised buffers for the search's randomly accessed tables, aligned to 2 MB and
//! (on Linux) advised to use transparent huge pages.
//!
//! df-pn touches its tables at random: with 4 KB pages nearly every probe also misses the TLB,
//! and in profiles the page walk, not the cache line, was the largest single cost (samples piled
//! up on the prefetch and on the first load of each probe). Measured on a 25-ply famous problem
//! (3.48 M nodes, same run, alternating): 342-432 k nodes/s with huge pages against 269-277 k.

/// Types whose all-zero bit pattern is a valid value.
///
/// # Safety
/// Implement only for plain data (no drop glue: elements are never dropped) where zero bytes
/// form a valid (and meaningful) value.
pub(crate) unsafe trait Zeroable {}

// SAFETY: zero is a valid u64.
unsafe impl Zeroable for u64 {}

/// A fixed-length, zero-initialised slice with huge-page backing where available.
pub(crate) struct HugeBuf<T: Zeroable> {
    ptr: std::ptr::NonNull<T>,
    len: usize,
}

// SAFETY: `HugeBuf` owns its allocation exclusively, like a `Vec<T>`; `T` is plain data.
unsafe impl<T: Zeroable + Send> Send for HugeBuf<T> {}
// SAFETY: as above; shared access goes through `&T` only (interior mutability, if any, is
// `T`'s own, e.g. atomics).
unsafe impl<T: Zeroable + Sync> Sync for HugeBuf<T> {}

const HUGE_PAGE: usize = 2 << 20;

impl<T: Zeroable> HugeBuf<T> {
    fn layout(len: usize) -> std::alloc::Layout {
        let bytes = len * std::mem::size_of::<T>();
        let align = HUGE_PAGE
            .min(bytes.next_power_of_two())
            .max(std::mem::align_of::<T>());
        std::alloc::Layout::from_size_align(bytes, align).expect("buffer layout")
    }

    /// `len` zeroed elements (`len` > 0, `T` not zero-sized).
    pub(crate) fn new(len: usize) -> HugeBuf<T> {
        assert!(len > 0 && std::mem::size_of::<T>() > 0);
        let layout = Self::layout(len);
        // SAFETY: the layout has a non-zero size (checked above).
        let raw = unsafe { std::alloc::alloc(layout) } as *mut T;
        let Some(ptr) = std::ptr::NonNull::new(raw) else {
            std::alloc::handle_alloc_error(layout)
        };
        advise_huge_pages(raw as *mut u8, layout.size());
        // Zero after the advice, so the first touch of each 2 MB range faults in a huge page.
        // SAFETY: `raw` is valid for writes of `len` elements (just allocated with that size),
        // and all-zero bytes are a valid `T` (`Zeroable`).
        unsafe { std::ptr::write_bytes(raw, 0, len) };
        HugeBuf { ptr, len }
    }

    /// Sets every element back to zero.
    pub(crate) fn zero(&mut self) {
        // SAFETY: as in `new`: `len` elements owned by `self`, zero is a valid `T`.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) };
    }
}

impl<T: Zeroable> std::ops::Deref for HugeBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised elements owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for HugeBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for HugeBuf<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with exactly this layout and not freed before.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, Self::layout(self.len)) };
    }
}

/// Asks Linux to back `[addr, addr + len)` with transparent huge pages. A hint: with THP set to
/// `madvise` (a common default) nothing else turns them on; with `never` it does nothing.
#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: *mut u8, len: usize) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    if len < HUGE_PAGE {
        return;
    }
    // SAFETY: madvise only changes paging advice for a range of our own live allocation; on
    // error (THP unsupported) the memory stays as it was, so the result is only logged.
    let rc = unsafe { madvise(addr as *mut std::ffi::c_void, len, MADV_HUGEPAGE) };
    if rc != 0 {
        log::debug!("madvise(MADV_HUGEPAGE) failed; normal pages are used");
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_writable_and_rezeroed() {
        for len in [1usize, 3, 1 << 19] {
            let mut b = HugeBuf::<u64>::new(len);
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|&v| v == 0));
            b[len - 1] = 7;
            assert_eq!(b[len - 1], 7);
            b[0] = 9;
            assert_eq!(b[0], 9);
            b.zero();
            assert!(b.iter().all(|&v| v == 0));
        }
    }
}
