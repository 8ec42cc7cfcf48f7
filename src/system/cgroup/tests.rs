use super::*;

/// A host with cgroup v1 controllers and the v2 hierarchy beside them (as systemd's hybrid
/// layout mounts them), and the process in a nested v1 memory cgroup.
const HYBRID_MOUNTINFO: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
const HYBRID_CGROUP: &str = "\
8:pids:/
4:memory:/jobs/42/step
1:cpu:/
0::/user.slice
";

#[test]
fn mountinfo_keeps_the_v2_and_the_v1_memory_mounts() {
    assert_eq!(
        parse_mountinfo(HYBRID_MOUNTINFO),
        [
            Mount {
                root: "/".into(),
                point: "/sys/fs/cgroup/memory".into(),
                v2: false
            },
            Mount {
                root: "/".into(),
                point: "/sys/fs/cgroup/unified".into(),
                v2: true
            },
        ]
    );
    // Optional fields before the separator, and an escaped space in the mount point.
    let line = "30 24 0:26 / /sys/fs/my\\040cgroup rw,nosuid shared:4 master:1 - cgroup2 cgroup2 \
                rw,nsdelegate\n";
    assert_eq!(
        parse_mountinfo(line),
        [Mount {
            root: "/".into(),
            point: "/sys/fs/my cgroup".into(),
            v2: true
        }]
    );
    // A v1 hierarchy with memory among other controllers; one without it is left out.
    let v1 = "40 31 0:40 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory,hugetlb\n\
              41 31 0:41 / /sys/fs/cgroup/cpu ro - cgroup cgroup rw,cpu,cpuacct\n";
    assert_eq!(
        parse_mountinfo(v1),
        [Mount {
            root: "/docker/abc".into(),
            point: "/sys/fs/cgroup/memory".into(),
            v2: false
        }]
    );
}

#[test]
fn proc_cgroup_gives_the_v2_and_the_v1_memory_paths() {
    assert_eq!(
        parse_proc_cgroup(HYBRID_CGROUP),
        [
            (false, "/jobs/42/step".into()),
            (true, "/user.slice".into())
        ]
    );
    assert_eq!(
        parse_proc_cgroup("5:cpuacct,memory:/a\n3:cpu:/b\n"),
        [(false, "/a".into())]
    );
    // A named hierarchy's colon-free name, and a path with a colon in it.
    assert_eq!(
        parse_proc_cgroup("9:name=systemd:/\n0::/x:y\n"),
        [(true, "/x:y".into())]
    );
}

fn dir(dir: &str, path: &str, v2: bool) -> MemoryDir {
    MemoryDir {
        dir: dir.into(),
        path: path.into(),
        v2,
    }
}

#[test]
fn a_nested_cgroup_is_read_with_each_ancestor_up_to_the_mount() {
    assert_eq!(
        memory_dirs(HYBRID_CGROUP, HYBRID_MOUNTINFO),
        [
            dir("/sys/fs/cgroup/memory/jobs/42/step", "/jobs/42/step", false),
            dir("/sys/fs/cgroup/memory/jobs/42", "/jobs/42", false),
            dir("/sys/fs/cgroup/memory/jobs", "/jobs", false),
            dir("/sys/fs/cgroup/memory", "/", false),
            dir("/sys/fs/cgroup/unified/user.slice", "/user.slice", true),
            dir("/sys/fs/cgroup/unified", "/", true),
        ]
    );
}

/// In a container with its own cgroup namespace the process's path is "/" and the mount's
/// root "/": the mount point itself is its cgroup.
#[test]
fn a_containers_namespaced_root_is_the_mount_point() {
    let mountinfo = "700 690 0:30 / /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw\n";
    assert_eq!(
        memory_dirs("0::/\n", mountinfo),
        [dir("/sys/fs/cgroup", "/", true)]
    );
}

/// Without a cgroup namespace (older Docker on v1) the mount shows the container's cgroup as
/// its root: the process's path maps to the mount point, and the ancestors above the root,
/// not visible there, are not read; a path outside the root is not read at all.
#[test]
fn a_mount_of_a_subtree_maps_the_path_below_its_root() {
    let mountinfo = "50 40 0:35 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n";
    assert_eq!(
        memory_dirs("6:memory:/docker/abc\n", mountinfo),
        [dir("/sys/fs/cgroup/memory", "/docker/abc", false)]
    );
    assert_eq!(
        memory_dirs("6:memory:/docker/abc/inner\n", mountinfo),
        [
            dir("/sys/fs/cgroup/memory/inner", "/docker/abc/inner", false),
            dir("/sys/fs/cgroup/memory", "/docker/abc", false),
        ]
    );
    assert_eq!(memory_dirs("6:memory:/docker/abcd\n", mountinfo), []);
    assert_eq!(memory_dirs("6:memory:/other\n", mountinfo), []);
}

#[test]
fn v2_room_is_the_limit_less_the_usage_not_reclaimable() {
    let stat = "anon 300000000\nfile 200000000\nactive_file 50000000\ninactive_file 150000000\n";
    // 512 MiB limit, 450 MB used of which 150 MB inactive file pages.
    assert_eq!(
        room_v2("536870912\n", "450000000\n", Some(stat)),
        Some((536870912, 536870912 - 300000000))
    );
    assert_eq!(room_v2("max\n", "450000000\n", Some(stat)), None);
    assert_eq!(
        room_v2("1000\n", "5000\n", None),
        Some((1000, 0)),
        "over the limit"
    );
    assert_eq!(room_v2("", "5000", None), None);
}

#[test]
fn v1_room_uses_the_hierarchys_inactive_file_and_no_limit_near_2_63() {
    let stat = "cache 10\ninactive_file 7\ntotal_inactive_file 100\n";
    assert_eq!(
        room_v1("1000\n", "600\n", Some(stat)),
        Some((1000, 1000 - 500))
    );
    assert_eq!(
        room_v1("1000\n", "600\n", Some("inactive_file 7\n")),
        Some((1000, 407))
    );
    assert_eq!(room_v1("9223372036854771712\n", "600\n", Some(stat)), None);
    assert_eq!(room_v1("1000", "x", None), None);
}

/// The room of a directory comes from its version's files; one without a limit has none.
#[test]
fn room_reads_the_files_of_its_version() {
    let files = |f: &str| match f {
        "memory.max" => Some("1048576000\n".to_string()),
        "memory.current" => Some("48576000\n".to_string()),
        "memory.limit_in_bytes" => Some("9223372036854771712\n".to_string()),
        "memory.usage_in_bytes" => Some("1\n".to_string()),
        _ => None,
    };
    assert_eq!(
        dir("/sys/fs/cgroup/job", "/job", true).room(files),
        Some(CgroupRoom {
            path: "/job".into(),
            limit: 1048576000,
            free: 1000000000
        })
    );
    assert_eq!(
        dir("/sys/fs/cgroup/memory/job", "/job", false).room(files),
        None
    );
}
