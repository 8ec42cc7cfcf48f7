use super::*;

#[test]
fn zeroed_writable_and_rezeroed() {
    for len in [1usize, 3, 1 << 19] {
        let mut b = HugeBuf::<u64>::try_new(len).unwrap();
        assert_eq!(b.len(), len);
        assert!(b.iter().all(|&v| v == 0));
        b[len - 1] = 7;
        assert_eq!(b[len - 1], 7);
        b[0] = 9;
        assert_eq!(b[0], 9);
        b.zero(1);
        assert!(b.iter().all(|&v| v == 0));
    }
}

/// Making a buffer resident keeps what it holds; zeroing a resident buffer clears every
/// element, whatever the split among threads (chunks of whole huge pages, the last short).
#[test]
fn resident_keeps_contents_and_is_zeroed_in_place() {
    let len = (5 << 20) / 8 + 3; // 5 MB and 24 bytes: three chunks, the last short
    for threads in [1usize, 2, 3, 8] {
        let mut b = HugeBuf::<u64>::try_new(len).unwrap();
        let marks = [0, 1, (2 << 20) / 8 - 1, (2 << 20) / 8, len / 2, len - 1];
        for &i in &marks {
            b[i] = i as u64 + 1;
        }
        assert_eq!(b.make_resident(threads, || true), Resident::Whole);
        for &i in &marks {
            assert_eq!(b[i], i as u64 + 1, "threads {threads}, element {i}");
        }
        assert_eq!(b.iter().filter(|&&v| v != 0).count(), marks.len());
        b.zero(threads);
        assert!(b.resident);
        assert!(b.iter().all(|&v| v == 0), "threads {threads}");
        b[len - 1] = 5;
        b.zero(threads);
        assert_eq!(b[len - 1], 0);
    }
}

/// When memory runs short while a buffer is made resident, the buffer is cut to the steps
/// touched before (on Linux): whole steps, at least one, contents kept and writable.
#[test]
fn resident_stops_and_cuts_where_room_runs_out() {
    let step = RESIDENT_STEP / 8;
    let len = 3 * step + step / 2; // three steps and a half
    for threads in [1usize, 2] {
        let mut b = HugeBuf::<u64>::try_new(len).unwrap();
        b[1] = 11;
        b[step + 5] = 22;
        b[len - 1] = 33;
        let asked = AtomicUsize::new(0);
        // Room for one step after the first (which is never asked about), then none.
        let got = b.make_resident(threads, || asked.fetch_add(1, Relaxed) == 0);
        assert!(b.resident);
        if !sys::CAN_CUT {
            assert!(
                got == Resident::Whole && b.len() == len,
                "nothing is cut here"
            );
            continue;
        }
        assert_eq!(got, Resident::Cut, "threads {threads}");
        // One thread asks in order: steps 0 and 1 kept. Two may ask for step 2 before
        // step 1, and then only step 0 is kept.
        let kept = b.len() / step;
        assert!(b.len() % step == 0, "whole steps: {}", b.len());
        if threads == 1 {
            assert_eq!(kept, 2);
        } else {
            assert!(
                (1..=2).contains(&kept),
                "threads {threads}: {kept} steps kept"
            );
        }
        assert_eq!(b[1], 11);
        if kept == 2 {
            assert_eq!(b[step + 5], 22);
        }
        let last = b.len() - 1;
        b[last] = 7;
        assert_eq!(
            b.iter().filter(|&&v| v != 0).count(),
            if kept == 2 { 3 } else { 2 }
        );
        b.zero(threads);
        assert!(b.iter().all(|&v| v == 0));
        // Asked again, a resident buffer is whole as it is.
        assert_eq!(b.make_resident(threads, || false), Resident::Whole);
    }
}

/// When the buffer cannot be cut after memory ran short, it says so: it keeps its length, is
/// emptied and not resident (its pages given back, and given back again when it is emptied
/// later, instead of all written), and is made resident again when asked again.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_cut_is_told_and_not_resident() {
    let step = RESIDENT_STEP / 8;
    let len = 3 * step + step / 2;
    let mut b = HugeBuf::<u64>::try_new(len).unwrap();
    b[step + 5] = 22;
    sys::FAIL_CUT.set(true);
    let got = b.make_resident(1, || false);
    sys::FAIL_CUT.set(false);
    assert_eq!(got, Resident::NotHeld);
    assert_eq!(b.len(), len);
    assert!(!b.resident);
    assert!(b.iter().all(|&v| v == 0));
    b[step + 5] = 22;
    b.zero(2);
    assert!(b.iter().all(|&v| v == 0));
    assert_eq!(b.make_resident(1, || true), Resident::Whole);
    assert!(b.resident);
}

/// A size no machine can give is `None`, not an abort; a size that overflows `usize` too.
#[test]
fn impossible_sizes_are_refused() {
    // Eight ninths of the address space, on a 64-bit target or a 32-bit one.
    assert!(
        HugeBuf::<u64>::try_new(usize::MAX / 9).is_none(),
        "most of the address space"
    );
    assert!(
        HugeBuf::<u64>::try_new(usize::MAX / 4).is_none(),
        "overflows"
    );
    assert!(
        HugeBuf::<u64>::try_new(1 << 10).is_some(),
        "still allocates afterwards"
    );
}

#[cfg(target_os = "linux")]
mod in_cgroup;

/// Runs `test` (this module's) in a child in a fresh cgroup (see `in_cgroup`) and fails
/// unless the child's test passes within `limit`; prints SKIPPED where no cgroup can be made.
#[cfg(target_os = "linux")]
fn pass_in_cgroup(controller: &str, settings: &[(&str, String)], test: &str, limit: u64) {
    use in_cgroup::Ended;
    let path = format!("mate::hugebuf::tests::{test}");
    match in_cgroup::run(
        controller,
        settings,
        &path,
        std::time::Duration::from_secs(limit),
    ) {
        Err(why) => eprintln!("SKIPPED: {test} in a {controller} cgroup: {why}"),
        Ok(Ended::Passed) => {}
        Ok(Ended::Failed(out)) => panic!("{test} failed in a {controller} cgroup:\n{out}"),
        Ok(Ended::TimedOut(out)) => {
            panic!("{test} still ran after {limit} s in a {controller} cgroup:\n{out}")
        }
    }
}

/// When no thread can be started (a container's pid limit, `ulimit -u`), a buffer is still
/// made resident and zeroed, by the calling thread: the child below, run with its cgroup's
/// `pids.max` at the number of threads it already has.
#[cfg(target_os = "linux")]
#[test]
fn buffers_are_prepared_when_no_thread_can_be_started() {
    pass_in_cgroup("pids", &[], "prepare_with_no_thread_to_spare", 120);
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "run in a pids cgroup by buffers_are_prepared_when_no_thread_can_be_started"]
fn prepare_with_no_thread_to_spare() {
    let Some(dir) = in_cgroup::join() else {
        eprintln!("SKIPPED: runs only in the cgroup made by its parent test");
        return;
    };
    let now = std::fs::read_to_string(dir.join("pids.current")).unwrap();
    std::fs::write(dir.join("pids.max"), now.trim()).unwrap();
    assert!(
        std::thread::Builder::new().spawn(|| ()).is_err(),
        "a thread could still be started: the limit does not hold"
    );
    let len = (3 * RESIDENT_STEP + (5 << 20)) / 8;
    let mut b = HugeBuf::<u64>::try_new(len).unwrap();
    b[len - 1] = 3;
    assert_eq!(b.make_resident(4, || true), Resident::Whole);
    assert_eq!(b[len - 1], 3);
    b.zero(4);
    assert!(b.iter().all(|&v| v == 0));
}

/// A buffer larger than its cgroup's memory limit is cut to the steps the kernel could give,
/// within a time limit: `MADV_POPULATE_WRITE` fails with `ENOMEM` at the limit, and the pages
/// are not written by hand then (in a cgroup whose OOM killer is off, as here, a write there
/// waits for memory for ever; elsewhere the OOM killer answers it).
#[cfg(target_os = "linux")]
#[test]
fn a_buffer_larger_than_its_cgroup_allows_is_cut() {
    pass_in_cgroup(
        "memory",
        &memory_limit(96),
        "resident_within_the_cgroup_limit",
        60,
    );
}

/// When even the first step cannot be had, the buffer keeps its length, emptied and not held.
#[cfg(target_os = "linux")]
#[test]
fn a_buffer_whose_first_step_cannot_be_had_is_not_held() {
    pass_in_cgroup(
        "memory",
        &memory_limit(32),
        "resident_within_the_cgroup_limit",
        60,
    );
}

/// A v1 memory cgroup of `mb` MB whose OOM killer is off.
#[cfg(target_os = "linux")]
fn memory_limit(mb: usize) -> [(&'static str, String); 2] {
    [
        ("memory.limit_in_bytes", (mb << 20).to_string()),
        ("memory.oom_control", "1".into()),
    ]
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "run in a memory cgroup by a_buffer_larger_than_its_cgroup_allows_is_cut"]
fn resident_within_the_cgroup_limit() {
    let Some(dir) = in_cgroup::join() else {
        eprintln!("SKIPPED: runs only in the cgroup made by its parent test");
        return;
    };
    let limit: usize = std::fs::read_to_string(dir.join("memory.limit_in_bytes"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let len = 4 * RESIDENT_STEP / 8;
    let mut b = HugeBuf::<u64>::try_new(len).unwrap();
    let got = b.make_resident(1, || true);
    if limit < RESIDENT_STEP {
        assert_eq!(got, Resident::NotHeld);
        assert_eq!(b.len(), len);
        assert!(!b.resident);
    } else {
        assert_eq!(got, Resident::Cut);
        assert!(
            b.len() * 8 <= limit && b.len() * 8 % RESIDENT_STEP == 0,
            "{}",
            b.len()
        );
        // What is kept is held: written without waiting.
        let last = b.len() - 1;
        b[last] = 1;
        b.zero(1);
        assert_eq!(b[last], 0);
    }
}
