//! Runs a test of this binary again in a child process that first joins a fresh v1 cgroup, for
//! what only a cgroup's limits show (a pid limit, a memory limit without the OOM killer): the
//! parent makes the cgroup below its own (`tsumugi-test-<pid>-<n>`), the child joins it from
//! inside the test (`join`), and the parent waits with a time limit, kills the child on
//! timeout, and removes the cgroup.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The variable that gives the child its cgroup directory.
const CGROUP_VAR: &str = "TSUMUGI_TEST_CGROUP";

/// How the child ended.
pub(super) enum Ended {
    /// Its test passed.
    Passed,
    /// Its test failed; its output.
    Failed(String),
    /// It was still running at the time limit and was killed; its output so far.
    TimedOut(String),
}

/// The directory of this process's own cgroup of the v1 `controller`, if that controller is
/// mounted at `/sys/fs/cgroup/<controller>` and this process is root (else why not, for the
/// skip message).
fn own_cgroup(controller: &str) -> Result<PathBuf, String> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Err("not root: cannot make a cgroup".into());
    }
    let mount = Path::new("/sys/fs/cgroup").join(controller);
    if !mount.join("cgroup.procs").is_file() {
        return Err(format!(
            "no v1 {controller} controller at {}",
            mount.display()
        ));
    }
    let me = std::fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
    let path = me
        .lines()
        .filter_map(|l| {
            let mut f = l.splitn(3, ':').skip(1);
            f.next().zip(f.next())
        })
        .find(|(c, _)| c.split(',').any(|c| c == controller))
        .map(|(_, p)| p.trim_start_matches('/').to_string())
        .ok_or_else(|| format!("no {controller} line in /proc/self/cgroup"))?;
    Ok(mount.join(path))
}

/// The cgroup directory given to this process when it is such a child, after writing its own
/// pid into it; `None` when it is not one.
pub(super) fn join() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os(CGROUP_VAR)?);
    std::fs::write(dir.join("cgroup.procs"), std::process::id().to_string())
        .unwrap_or_else(|e| panic!("joining {}: {e}", dir.display()));
    Some(dir)
}

/// Runs the ignored test `test` (its full path) of this binary in a child in a fresh cgroup of
/// the v1 `controller`, set up with `settings` (file name, value) before the child starts.
/// `Err` with the reason when no such cgroup can be made here.
pub(super) fn run(
    controller: &str,
    settings: &[(&str, String)],
    test: &str,
    limit: Duration,
) -> Result<Ended, String> {
    let parent = own_cgroup(controller)?;
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = parent.join(format!("tsumugi-test-{}-{n}", std::process::id()));
    std::fs::create_dir(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let ended = (|| {
        for (file, value) in settings {
            std::fs::write(dir.join(file), value)
                .map_err(|e| format!("cannot write {value} to {file}: {e}"))?;
        }
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(exe)
            .args([
                test,
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CGROUP_VAR, &dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run the child: {e}"))?;
        // Read the output on threads, so that a full pipe cannot stall the child.
        let mut pipes = [
            child
                .stdout
                .take()
                .map(|o| Box::new(o) as Box<dyn Read + Send>),
            child
                .stderr
                .take()
                .map(|e| Box::new(e) as Box<dyn Read + Send>),
        ]
        .map(|p| {
            std::thread::spawn(move || {
                let mut text = String::new();
                if let Some(mut p) = p {
                    let _ = p.read_to_string(&mut text);
                }
                text
            })
        })
        .into_iter();
        let end = Instant::now() + limit;
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                break Some(status);
            }
            if Instant::now() >= end {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = pipes
            .by_ref()
            .map(|t| t.join().unwrap_or_default())
            .collect::<Vec<_>>();
        let out = out.join("\n");
        Ok(match status {
            None => Ended::TimedOut(out),
            Some(s) if s.success() && out.contains("1 passed") => Ended::Passed,
            Some(s) => Ended::Failed(format!("{s}\n{out}")),
        })
    })();
    // The child has ended (or been killed and waited for): the cgroup is empty.
    if let Err(e) = std::fs::remove_dir(&dir) {
        eprintln!("cannot remove {}: {e}", dir.display());
    }
    ended
}
