//! What the operating system says about the machine, where each system says it differently.

/// Physical memory available to a new allocation now, in MB: Linux's `MemAvailable`, Windows'
/// `ullAvailPhys` (`GlobalMemoryStatusEx`); `None` elsewhere or when the query fails. Used to
/// keep a table size from exhausting memory: Windows commits what is allocated against RAM and
/// the page file, so a table larger than RAM would be granted and then page to disk.
pub fn available_memory_mb() -> Option<usize> {
    available_memory_bytes().map(|b| (b >> 20) as usize)
}

#[cfg(target_os = "linux")]
fn available_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(windows)]
fn available_memory_bytes() -> Option<u64> {
    /// `MEMORYSTATUSEX` (sysinfoapi.h).
    #[repr(C)]
    struct MemoryStatusEx {
        length: u32,
        memory_load: u32,
        total_phys: u64,
        avail_phys: u64,
        total_page_file: u64,
        avail_page_file: u64,
        total_virtual: u64,
        avail_virtual: u64,
        avail_extended_virtual: u64,
    }
    #[link(name = "kernel32")]
    extern "system" {
        fn GlobalMemoryStatusEx(buffer: *mut MemoryStatusEx) -> i32;
    }
    let mut s = MemoryStatusEx {
        length: std::mem::size_of::<MemoryStatusEx>() as u32,
        memory_load: 0,
        total_phys: 0,
        avail_phys: 0,
        total_page_file: 0,
        avail_page_file: 0,
        total_virtual: 0,
        avail_virtual: 0,
        avail_extended_virtual: 0,
    };
    // SAFETY: `s` is a live, writable MEMORYSTATUSEX with `length` set to its size, as the
    // function requires; it writes only within it.
    let ok = unsafe { GlobalMemoryStatusEx(&mut s) };
    (ok != 0 && s.avail_phys > 0).then_some(s.avail_phys)
}

#[cfg(not(any(target_os = "linux", windows)))]
fn available_memory_bytes() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    #[cfg(any(target_os = "linux", windows))]
    #[test]
    fn available_memory_is_known_here() {
        let mb = super::available_memory_mb().expect("available memory");
        assert!(mb > 0);
    }
}
