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
            // commit). `--git-path` finds both in a linked worktree too.
            for path in ["HEAD", "packed-refs"] {
                if let Some(p) = git(&["rev-parse", "--git-path", path]) {
                    println!("cargo:rerun-if-changed={}", PathBuf::from(p).display());
                }
            }
            if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                if let Some(p) = git(&["rev-parse", "--git-path", &branch]) {
                    println!("cargo:rerun-if-changed={}", PathBuf::from(p).display());
                }
            }
            git(&["rev-parse", "--short=9", "HEAD"]).unwrap_or_else(|| "unknown".to_string())
        }
    };
    println!("cargo:rustc-env=TSUMUGI_COMMIT={commit}");
}
