//! A direct-mapped table of one search thread (the repetition table, the mask memory) that
//! remembers which slots it wrote, so that forgetting costs what was written rather than the
//! table's size.
//!
//! Why: `solve --batch` forgets everything before each problem, so that an answer does not
//! depend on the problems before it. Zeroing the 16 MB repetition table and the 4 MB mask
//! memory gave their pages back to the kernel, and the next problem's first writes faulted
//! them in again, each page zeroed by the kernel (2 MB at a time where huge pages back them):
//! milliseconds per problem, where most problems of 3 to 11 plies take less. With the log, a
//! problem that wrote a few hundred slots clears a few hundred slots, and the pages stay.

use crate::mate::hugebuf::{HugeBuf, Zeroable};

/// Slots logged before the log gives up and the next `forget` zeroes the whole table (256 KB
/// of indices). A search that writes more is a long one, for which a full zero is cheap beside
/// the search.
const LOG_CAP: usize = 1 << 16;

pub(super) struct LoggedTable<T: Zeroable> {
    slots: HugeBuf<T>,
    /// Slots written since the last `forget` (repeats allowed), while fewer than `LOG_CAP`.
    written: Vec<u32>,
    /// More than `LOG_CAP` writes since the last `forget`: `written` is incomplete.
    overflowed: bool,
}

impl<T: Zeroable + Copy + Default> LoggedTable<T> {
    /// A table of `len` zeroed slots (`len` at most `u32::MAX + 1`).
    pub(super) fn new(len: usize) -> LoggedTable<T> {
        debug_assert!(len as u64 <= 1 << 32);
        LoggedTable {
            slots: HugeBuf::new(len),
            written: Vec::with_capacity(LOG_CAP),
            overflowed: false,
        }
    }

    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> &T {
        &self.slots[i]
    }

    /// Writes slot `i`. No allocation: the log's capacity is reserved at `new`.
    #[inline(always)]
    pub(super) fn set(&mut self, i: usize, v: T) {
        if self.written.len() < LOG_CAP {
            self.written.push(i as u32);
        } else {
            self.overflowed = true;
        }
        self.slots[i] = v;
    }

    /// Every slot back to its zero (empty) value, as a new table.
    pub(super) fn forget(&mut self) {
        if self.overflowed {
            self.slots.zero(1);
        } else {
            for &i in &self.written {
                self.slots[i as usize] = T::default();
            }
        }
        self.written.clear();
        self.overflowed = false;
    }

    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Bytes as allocated, the log included (see `Scratch::bytes`).
    #[cfg(test)]
    pub(super) fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<T>()
            + self.written.capacity() * std::mem::size_of::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forgets_what_was_written_below_and_above_the_log_cap() {
        let mut t: LoggedTable<u64> = LoggedTable::new(1 << 18);
        for n in [10usize, LOG_CAP, LOG_CAP + 1, 3 * LOG_CAP] {
            for k in 0..n {
                // Spread over the table, repeats included.
                t.set((k * 7919) % t.len(), k as u64 + 1);
            }
            assert!(t.overflowed == (n > LOG_CAP), "{n}");
            t.forget();
            assert!((0..t.len()).all(|i| *t.get(i) == 0), "{n} writes");
            assert!(!t.overflowed && t.written.is_empty());
        }
    }
}
