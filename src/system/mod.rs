//! What the operating system says about the machine, where each system says it differently.

#[cfg(target_os = "linux")]
pub mod cgroup;

/// Memory available to a new allocation of this process now, in MB (see [`memory_room`]);
/// `None` where unknown.
pub fn available_memory_mb() -> Option<usize> {
    memory_room().map(|r| r.mb)
}

/// What [`memory_room`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    /// Memory available to a new allocation of this process now, in MB.
    pub mb: usize,
    /// The cgroup whose limit leaves less than the machine has available, when one does (it is
    /// then what `mb` is): named in the one line that says a table was reduced.
    #[cfg(target_os = "linux")]
    pub cgroup: Option<cgroup::CgroupRoom>,
}

/// Memory available to a new allocation of this process now: the machine's physical memory
/// available (Linux's `MemAvailable`, Windows' `ullAvailPhys` from `GlobalMemoryStatusEx`) or,
/// on Linux, what the process's memory cgroup leaves under its limit (a container's, a job's;
/// see [`cgroup`]) when that is less. `None` elsewhere or when nothing can be read. Used to
/// keep a table size from exhausting memory: Windows commits what is allocated against RAM and
/// the page file, so a table larger than RAM would be granted and then page to disk.
pub fn memory_room() -> Option<Room> {
    let machine = available_memory_bytes();
    #[cfg(target_os = "linux")]
    {
        let cg = cgroup::tightest().filter(|c| machine.is_none_or(|m| c.free < m));
        let bytes = cg.as_ref().map(|c| c.free).or(machine)?;
        Some(Room {
            mb: (bytes >> 20) as usize,
            cgroup: cg,
        })
    }
    #[cfg(not(target_os = "linux"))]
    machine.map(|b| Room {
        mb: (b >> 20) as usize,
    })
}

/// The one-line reason a size asked for is too large, after "is more than ": the memory limit
/// of a cgroup (named, with its limit and what it leaves) when that is what applies, else the
/// machine's available memory.
pub fn limit_reason(room: Option<&Room>) -> String {
    #[cfg(target_os = "linux")]
    if let Some(c) = room.and_then(|r| r.cgroup.as_ref()) {
        return format!(
            "the memory limit of cgroup {} allows ({} MB limit, {} MB free)",
            c.path,
            c.limit >> 20,
            c.free >> 20
        );
    }
    match room {
        Some(r) => format!("the available memory allows ({} MB available)", r.mb),
        None => "the available memory allows".into(),
    }
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
