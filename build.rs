//! Build script: records the commit the binary is built from, for `tsumugi --version`.
//!
//! `TSUMUGI_COMMIT` in the environment wins (a build from a source archive, which has no
//! `.git`); else `git rev-parse --short HEAD`; else "unknown". A failing or missing `git` never
//! fails the build.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=TSUMUGI_COMMIT");
    let commit = match std::env::var("TSUMUGI_COMMIT") {
        Ok(c) if !c.trim().is_empty() => c.trim().to_string(),
        _ => {
            // Rerun when HEAD moves: HEAD itself (a checkout) and the branch it names (a
            // commit), whose ref is a file of its own or a line of `packed-refs`.
            // `--git-path` finds them in a linked worktree too. Only files that exist are
            // watched: Cargo counts a missing one as changed, and would rerun this script and
            // rebuild the crate at every build (a clone has no `packed-refs` until git packs
            // its refs). A file that appears later (refs packed after this build) is seen when
            // the one it replaces goes.
            let mut paths = vec!["HEAD".to_string(), "packed-refs".to_string()];
            paths.extend(git(&["symbolic-ref", "-q", "HEAD"]));
            for path in paths {
                if let Some(p) = git(&["rev-parse", "--git-path", &path]) {
                    let p = PathBuf::from(p);
                    if p.exists() {
                        println!("cargo:rerun-if-changed={}", p.display());
                    }
                }
            }
            git(&["rev-parse", "--short=9", "HEAD"]).unwrap_or_else(|| "unknown".to_string())
        }
    };
    println!("cargo:rustc-env=TSUMUGI_COMMIT={commit}");
}
