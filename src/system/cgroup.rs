//! The memory limit of the process's cgroup: what a container (Docker, Kubernetes), a Slurm
//! job or a systemd unit lets the process use, often far less than the machine's available
//! memory, which is all `/proc/meminfo` tells. A table sized from that alone is granted (the
//! kernel maps it lazily) and the process killed by the cgroup's OOM killer once the search
//! has filled it past the limit.
//!
//! The process's cgroups come from `/proc/self/cgroup`, the mounts of their hierarchies from
//! `/proc/self/mountinfo`: the cgroup v2 mount (`cgroup2`) and the v1 mount with the `memory`
//! controller. Each of the process's cgroup's directories below the mount is read, the
//! cgroup's own and those of its ancestors visible in the mount (a parent's limit binds its
//! children too): v2 `memory.max` and `memory.current`, v1 `memory.limit_in_bytes` and
//! `memory.usage_in_bytes`. Usage counts the page cache, whose inactive file pages the kernel
//! reclaims before it fails a charge, so they are taken as free (`inactive_file` of
//! `memory.stat`; v1 `total_inactive_file`, its hierarchy's), as `docker stats` does. The
//! parsing is kept apart from the reading, in functions of the files' contents.

use std::path::PathBuf;

/// A cgroup's memory limit and what is left under it, in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CgroupRoom {
    /// The cgroup as the process's `/proc/self/cgroup` names it ("/" in a container with its
    /// own cgroup namespace).
    pub path: String,
    /// The limit (`memory.max`, v1 `memory.limit_in_bytes`).
    pub limit: u64,
    /// `limit` less the usage that cannot be reclaimed (0 when over).
    pub free: u64,
}

/// v1 limits at or above this are "no limit" (the kernel's is 2^63 rounded down to a page).
const V1_NO_LIMIT: u64 = 1 << 62;

/// The cgroup with the least memory left among the process's memory cgroups and their
/// ancestors; `None` when no limit applies or nothing can be read.
pub fn tightest() -> Option<CgroupRoom> {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    memory_dirs(&cgroups, &mountinfo)
        .into_iter()
        .filter_map(|d| d.room(|f| std::fs::read_to_string(d.dir.join(f)).ok()))
        .min_by_key(|r| r.free)
}

/// A memory cgroup's directory to read.
#[derive(Debug, PartialEq, Eq)]
pub struct MemoryDir {
    /// Where its files are.
    pub dir: PathBuf,
    /// The cgroup's path, as `/proc/self/cgroup` names it.
    pub path: String,
    /// Cgroup v2 (else a v1 `memory` hierarchy).
    pub v2: bool,
}

impl MemoryDir {
    /// The room under this cgroup's limit from its files (`read` gives a file's contents by
    /// name); `None` without a limit or a readable usage.
    fn room(&self, read: impl Fn(&str) -> Option<String>) -> Option<CgroupRoom> {
        let stat = read("memory.stat");
        let (limit, free) = if self.v2 {
            room_v2(
                &read("memory.max")?,
                &read("memory.current")?,
                stat.as_deref(),
            )?
        } else {
            room_v1(
                &read("memory.limit_in_bytes")?,
                &read("memory.usage_in_bytes")?,
                stat.as_deref(),
            )?
        };
        Some(CgroupRoom {
            path: self.path.clone(),
            limit,
            free,
        })
    }
}

/// (limit, free) of a v2 cgroup from `memory.max`, `memory.current` and `memory.stat`;
/// `None` for "max" (no limit) or what does not parse.
pub fn room_v2(max: &str, current: &str, stat: Option<&str>) -> Option<(u64, u64)> {
    let max = max.trim();
    if max == "max" {
        return None;
    }
    let limit: u64 = max.parse().ok()?;
    let usage: u64 = current.trim().parse().ok()?;
    let inactive = stat
        .and_then(|s| stat_value(s, "inactive_file"))
        .unwrap_or(0);
    Some((limit, limit.saturating_sub(usage.saturating_sub(inactive))))
}

/// (limit, free) of a v1 cgroup from `memory.limit_in_bytes`, `memory.usage_in_bytes` and
/// `memory.stat`; `None` for no limit (near 2^63) or what does not parse.
pub fn room_v1(limit: &str, usage: &str, stat: Option<&str>) -> Option<(u64, u64)> {
    let limit: u64 = limit.trim().parse().ok()?;
    if limit >= V1_NO_LIMIT {
        return None;
    }
    let usage: u64 = usage.trim().parse().ok()?;
    let inactive = stat
        .and_then(|s| {
            stat_value(s, "total_inactive_file").or_else(|| stat_value(s, "inactive_file"))
        })
        .unwrap_or(0);
    Some((limit, limit.saturating_sub(usage.saturating_sub(inactive))))
}

/// The value of `key` in a `memory.stat` ("key value" lines).
fn stat_value(stat: &str, key: &str) -> Option<u64> {
    stat.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

/// A cgroup file system's mount: the cgroup its directory shows (`root`), where, and whether
/// it is v2 or a v1 hierarchy with the `memory` controller (others are left out).
#[derive(Debug, PartialEq, Eq)]
pub struct Mount {
    /// The cgroup path of the mount's directory.
    pub root: String,
    /// The mount point.
    pub point: PathBuf,
    /// Cgroup v2 (else a v1 hierarchy with `memory`).
    pub v2: bool,
}

/// The memory cgroup mounts in a `/proc/self/mountinfo`: fields `id parent dev root point
/// options [optional...] - fstype source super-options`.
pub fn parse_mountinfo(text: &str) -> Vec<Mount> {
    text.lines()
        .filter_map(|l| {
            let (left, right) = l.split_once(" - ")?;
            let f: Vec<&str> = left.split(' ').collect();
            let (root, point) = (f.get(3)?, f.get(4)?);
            let mut r = right.split(' ');
            let fstype = r.next()?;
            let _source = r.next()?;
            let options = r.next().unwrap_or("");
            let v2 = match fstype {
                "cgroup2" => true,
                "cgroup" if options.split(',').any(|o| o == "memory") => false,
                _ => return None,
            };
            Some(Mount {
                root: unescape(root),
                point: PathBuf::from(unescape(point)),
                v2,
            })
        })
        .collect()
}

/// mountinfo's octal escapes (`\040` for a space) decoded.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let octal = b
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match (b[i], octal) {
            (b'\\', Some(d)) => {
                out.push(d.iter().fold(0u8, |n, c| n.wrapping_mul(8) + (c - b'0')));
                i += 4;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The process's memory cgroup paths in a `/proc/self/cgroup` ("id:controllers:path" lines):
/// (v2, path) for the v2 line (`0::path`) and the v1 line whose controllers include `memory`.
pub fn parse_proc_cgroup(text: &str) -> Vec<(bool, String)> {
    text.lines()
        .filter_map(|l| {
            let mut f = l.splitn(3, ':');
            let (id, controllers, path) = (f.next()?, f.next()?, f.next()?);
            if id == "0" && controllers.is_empty() {
                Some((true, path.to_string()))
            } else if controllers.split(',').any(|c| c == "memory") {
                Some((false, path.to_string()))
            } else {
                None
            }
        })
        .collect()
}

/// The directories to read for the process's memory cgroups: for each (v2, and v1 `memory`)
/// its own cgroup and then each ancestor up to the mount's root, the cgroup path mapped below
/// the mount (a path outside the mount's root is not visible there and is left out).
pub fn memory_dirs(proc_cgroup: &str, mountinfo: &str) -> Vec<MemoryDir> {
    let mounts = parse_mountinfo(mountinfo);
    let mut dirs = Vec::new();
    for (v2, path) in parse_proc_cgroup(proc_cgroup) {
        // A hierarchy may be mounted more than once (bind mounts): the first that shows the
        // cgroup.
        let Some((m, below)) = mounts
            .iter()
            .filter(|m| m.v2 == v2)
            .find_map(|m| Some((m, below_root(&m.root, &path)?)))
        else {
            continue;
        };
        let mut parts: Vec<&str> = below.split('/').filter(|p| !p.is_empty()).collect();
        loop {
            let dir = parts.iter().fold(m.point.clone(), |d, p| d.join(p));
            let path = join_path(&m.root, &parts);
            dirs.push(MemoryDir { dir, path, v2 });
            if parts.pop().is_none() {
                break;
            }
        }
    }
    dirs
}

/// `path` relative to the mount's `root`, if it lies below it.
fn below_root<'a>(root: &str, path: &'a str) -> Option<&'a str> {
    let root = root.trim_end_matches('/');
    let rest = path.strip_prefix(root)?;
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

/// The cgroup path of `parts` below the mount's `root`.
fn join_path(root: &str, parts: &[&str]) -> String {
    let mut p = root.trim_end_matches('/').to_string();
    for part in parts {
        p.push('/');
        p.push_str(part);
    }
    if p.is_empty() {
        p.push('/');
    }
    p
}

#[cfg(test)]
mod tests;
