//! Large zero-initialised buffers for the search's randomly accessed tables, aligned to 2 MB and
//! (on Linux) advised to use transparent huge pages.
//!
//! df-pn touches its tables at random: with 4 KB pages nearly every probe also misses the TLB,
//! and in profiles the page walk, not the cache line, was the largest single cost (samples piled
//! up on the prefetch and on the first load of each probe). Measured on a 25-ply famous problem
//! (3.48 M nodes, same run, alternating): 342-432 k nodes/s with huge pages against 269-277 k.
//!
//! Allocation is fallible ([`HugeBuf::try_new`] returns `None`, never aborts): the table size
//! comes from the user, and a size the machine cannot give must be reduced or refused, not end
//! the process. On Linux the buffer is an anonymous `mmap`, whose pages the kernel zeroes lazily
//! on first touch: a table is only resident where the search has been (until the USI engine's
//! `isready` touches all of it, see [`HugeBuf::make_resident`]). `std::alloc::alloc_zeroed`
//! does not give that here: with a 2 MB alignment (above `malloc`'s own) the standard library
//! allocates and then writes zeros over the whole buffer. Measured on this 24 GB host, 1000 MB:
//! `alloc_zeroed` with 2 MB alignment 3.1 s and 1000 MB resident before the first probe,
//! `mmap` 5 µs and 2 MB resident. On every other target (Windows, macOS, WebAssembly)
//! `alloc_zeroed` is used, null checked: the system's fresh pages are zero already.
//!
//! Lazy pages also mean that the kernel's overcommit grants a mapping larger than the memory
//! free (checked here: two mappings of 20000 and 23000 MB both succeed with 23 GB available, one
//! of 30000 MB fails), and a search that later touches it all is killed by the OOM killer. So
//! the callers cap the size first by what `/proc/meminfo` (or the process's memory cgroup) says
//! is available (`tt::hash_limit_mb`); the null check is for what no cap foresees (an address-space limit,
//! a browser's memory limit). A cap taken at the start cannot see another process that was
//! granted its own table lazily a moment before: two 12 GB searches started at once on this
//! 24 GB machine both passed it, and the kernel killed one (measured 2026-11-27). So a table
//! that matters is made resident before its search, a step at a time, looking at the memory
//! left before each step, and cut where memory runs short ([`HugeBuf::make_resident`]): what it
//! then holds is held, and the search cannot be killed for it.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// What came of making a buffer (a table) resident: the caller reports anything but `Whole`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resident {
    /// Every page is held.
    Whole,
    /// Memory ran short: the buffer was cut to the pages it could hold (its length says how
    /// many), which are held.
    Cut,
    /// Memory ran short and the buffer could not be cut (the first step could not be had, or
    /// the unmapping failed): it keeps its length, emptied, but its pages are not held (a
    /// search that fills it may meet the OOM killer).
    NotHeld,
}

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
    /// Every page has been touched (`make_resident`): `zero` then writes zeros instead of
    /// giving the pages back, so that they stay resident.
    resident: bool,
}

// SAFETY: `HugeBuf` owns its allocation exclusively, like a `Vec<T>`; `T` is plain data.
unsafe impl<T: Zeroable + Send> Send for HugeBuf<T> {}
// SAFETY: as above; shared access goes through `&T` only (interior mutability, if any, is
// `T`'s own, e.g. atomics).
unsafe impl<T: Zeroable + Sync> Sync for HugeBuf<T> {}

#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Bytes made resident between two looks at the memory left (see `HugeBuf::make_resident`):
/// a whole number of huge pages and of table megabytes, small beside any table that could
/// exhaust a machine's memory, and large enough that reading `/proc/meminfo` once per step
/// costs nothing (128 reads for 8 GB).
pub(crate) const RESIDENT_STEP: usize = 64 << 20;

/// What the kernel did when asked to map a range for writing (`sys::populate`).
// Elsewhere than on Linux the request is never known: only `Unsupported` is made there.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
enum Populated {
    /// Every page is mapped.
    Done,
    /// The request is not known here (Linux before 5.14, other systems): the pages are to be
    /// touched by hand.
    Unsupported,
    /// Refused, memory short: the pages cannot all be had (`ENOMEM`, the machine's memory or a
    /// cgroup's limit), or the range cannot be mapped at all.
    Refused,
}

/// Makes the kernel map every page of `[p, p + n)` for writing, contents unchanged; `false`
/// when the kernel refused because the memory cannot be had. The pages are written by hand
/// only where the kernel does not know the request: where it refused, writing them would take
/// the same memory through page faults, which the OOM killer answers (or, in a cgroup whose
/// OOM killer is off, which wait for memory for ever: measured with a 96 MB v1 cgroup, see
/// `tests::a_buffer_larger_than_its_cgroup_allows_is_cut`).
///
/// # Safety
/// The range lies inside a live buffer of `sys::alloc_zeroed` that no one else accesses now.
unsafe fn touch(p: *mut u8, n: usize) -> bool {
    // SAFETY: the caller's contract.
    match unsafe { sys::populate(p, n) } {
        Populated::Done => return true,
        Populated::Refused => return false,
        Populated::Unsupported => {}
    }
    let mut off = 0;
    while off < n {
        // SAFETY: `off < n`, inside the range, which no one else accesses; the byte is written
        // back unchanged, only to make the kernel map the page.
        unsafe {
            let b = p.add(off);
            std::ptr::write_volatile(b, std::ptr::read_volatile(b));
        }
        off += 4096; // the smallest page of every target
    }
    true
}

impl<T: Zeroable> HugeBuf<T> {
    /// `len` zeroed elements (`len` > 0, `T` not zero-sized), or `None` if the memory cannot
    /// be had (or its size does not fit in `usize`).
    pub(crate) fn try_new(len: usize) -> Option<HugeBuf<T>> {
        assert!(len > 0 && std::mem::size_of::<T>() > 0);
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let raw = sys::alloc_zeroed(bytes, std::mem::align_of::<T>())? as *mut T;
        sys::advise_huge_pages(raw as *mut u8, bytes);
        Some(HugeBuf {
            ptr: std::ptr::NonNull::new(raw)?,
            len,
            resident: false,
        })
    }

    /// `len` zeroed elements for a buffer of fixed size (not the user's): like a `Vec`, a
    /// failure to allocate ends the process.
    pub(crate) fn new(len: usize) -> HugeBuf<T> {
        HugeBuf::try_new(len).unwrap_or_else(|| {
            let bytes = len.saturating_mul(std::mem::size_of::<T>());
            panic!("out of memory: a buffer of {bytes} bytes cannot be allocated")
        })
    }

    fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }

    /// Sets every element back to zero. A resident buffer stays resident (zeros are written
    /// over it, split among `threads` threads); otherwise its pages go back to the kernel.
    pub(crate) fn zero(&mut self, threads: usize) {
        // SAFETY: `ptr` is our own live allocation of `bytes()` bytes, exclusively borrowed.
        if !self.resident && unsafe { sys::discard(self.ptr.as_ptr() as *mut u8, self.bytes()) } {
            return;
        }
        self.for_each_chunk(threads, |p, n| {
            // SAFETY: `for_each_chunk` gives disjoint ranges of our exclusively borrowed
            // buffer; zero bytes are a valid `T`.
            unsafe { std::ptr::write_bytes(p, 0, n) }
        });
    }

    /// Touches every page now, with up to `threads` threads, so that the search that follows
    /// does not pay the page faults (the kernel zeroing each page on first touch). In a
    /// virtual machine that is slow: an 8 GB table's first touches took 12-13 s of system time
    /// in a search of 10 M nodes (measured 2026-11-26). Contents are unchanged.
    ///
    /// The pages are touched in order, [`RESIDENT_STEP`] bytes at a time, and `room()` is asked
    /// before each step but the first: when it says no (memory is running short: another
    /// process is filling its own lazily granted memory at the same time, see the module's
    /// notes), the touching stops and, where the buffer can be cut (Linux), the buffer is cut
    /// to the steps before it, so that what it holds is really held. The same when the kernel
    /// refuses a step (`ENOMEM`: the memory of the machine or of the process's cgroup is
    /// exhausted); when that is the first step, nothing can be kept, and the buffer keeps its
    /// length, emptied, its pages given back ([`Resident::NotHeld`]). Returns what came of it
    /// (see [`Resident`]); [`HugeBuf::len`] says what is left. Elsewhere the memory is
    /// committed at allocation (Windows) or fixed (WebAssembly), and `room` is not asked.
    pub(crate) fn make_resident(
        &mut self,
        threads: usize,
        room: impl Fn() -> bool + Sync,
    ) -> Resident {
        if self.resident {
            return Resident::Whole;
        }
        let bytes = self.bytes();
        let steps = bytes.div_ceil(RESIDENT_STEP);
        let next = AtomicUsize::new(0);
        // The first step that `room` refused (`steps`: none); steps after it are not touched.
        let refused = AtomicUsize::new(steps);
        let base = self.ptr.as_ptr() as usize;
        let work = || loop {
            let i = next.fetch_add(1, Relaxed);
            if i >= steps || refused.load(Relaxed) < i {
                break;
            }
            if i > 0 && sys::CAN_CUT && !room() {
                refused.fetch_min(i, Relaxed);
                break;
            }
            let start = i * RESIDENT_STEP;
            let n = RESIDENT_STEP.min(bytes - start);
            // SAFETY: `[start, start + n)` lies in our exclusively borrowed buffer, and each
            // step index is taken by one worker only (`fetch_add`).
            if !unsafe { touch((base + start) as *mut u8, n) } {
                // The kernel has no more memory for it: as when `room` says no, this step,
                // touched in part, and those after it are cut.
                refused.fetch_min(i, Relaxed);
                break;
            }
        };
        run_shared(threads.clamp(1, steps) - 1, work);
        self.resident = true;
        let kept = refused.into_inner();
        if kept == steps {
            return Resident::Whole;
        }
        let keep = kept * RESIDENT_STEP;
        // SAFETY: our own live buffer, exclusively borrowed; `keep` (whole steps, at least one)
        // is below its size, and the elements past it are not used again (`len` is cut next).
        if keep > 0 && unsafe { sys::cut(self.ptr.as_ptr() as *mut u8, bytes, keep) } {
            self.len = keep / std::mem::size_of::<T>();
            return Resident::Cut;
        }
        // The first step could not be had (nothing to keep), or the cut failed: the buffer is
        // not resident, so that emptying it gives its pages back instead of writing (and so
        // touching) all of them, and it is emptied now, as memory is short.
        self.resident = false;
        self.zero(threads);
        Resident::NotHeld
    }

    /// Runs `f(start, bytes)` on disjoint ranges that cover the buffer, about one per thread
    /// for up to `threads` (at least 1) threads, ranges cut at 2 MB boundaries (a huge page
    /// each); see [`run_shared`] for the threads.
    fn for_each_chunk(&mut self, threads: usize, f: impl Fn(*mut u8, usize) + Sync) {
        let bytes = self.bytes();
        let chunk = bytes
            .div_ceil(threads.max(1))
            .next_multiple_of(2 << 20)
            .min(bytes);
        let chunks = bytes.div_ceil(chunk);
        // A raw pointer is not `Send`; the address is passed instead.
        let base = self.ptr.as_ptr() as usize;
        let next = AtomicUsize::new(0);
        run_shared(chunks - 1, || loop {
            let i = next.fetch_add(1, Relaxed);
            if i >= chunks {
                break;
            }
            let start = i * chunk;
            f((base + start) as *mut u8, chunk.min(bytes - start));
        });
    }
}

/// Runs `work` on the calling thread and on up to `extra` threads more, and returns when all
/// have returned; `work` takes its share from a common counter until none is left, so the
/// work is done however many threads start. A thread the system refuses (a process or thread
/// limit: `ulimit -u`, a container's pid limit) is logged and not retried: the threads already
/// running and the calling thread do its share. `std::thread::scope`'s own `spawn` would panic
/// there instead, at the USI `isready`, where nothing catches it. The threads are kept rather
/// than all the work done on the calling thread: touching a table of gigabytes is the kernel
/// zeroing its pages, work that splits over cores (the `Threads` the user gave).
fn run_shared(extra: usize, work: impl Fn() + Sync) {
    if extra == 0 {
        // No thread (WebAssembly has none to spawn).
        return work();
    }
    std::thread::scope(|s| {
        for started in 0..extra {
            if let Err(e) = std::thread::Builder::new().spawn_scoped(s, &work) {
                log::warn!("cannot start a thread to prepare the table ({e}); {started} of {extra} started, the rest of the work is done on this one");
                break;
            }
        }
        work();
    });
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
        // SAFETY: allocated in `try_new` with this size and alignment and not freed before.
        unsafe {
            sys::free(
                self.ptr.as_ptr() as *mut u8,
                self.bytes(),
                std::mem::align_of::<T>(),
            )
        };
    }
}

#[cfg(target_os = "linux")]
#[path = "hugebuf/linux.rs"]
mod sys;
#[cfg(not(target_os = "linux"))]
#[path = "hugebuf/other.rs"]
mod sys;

#[cfg(test)]
mod tests;
