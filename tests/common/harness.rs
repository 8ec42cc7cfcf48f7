//! The runner of the test files that need inputs which may be absent (the shared problem sets,
//! generated data files): a test that cannot run is reported by the runner as *ignored*, with
//! the reason, never counted as passed. Built on `libtest-mimic`, which takes libtest's
//! command line (filters, `--ignored`, `--include-ignored`, `--test-threads`, `--list`) and
//! lets a test be ignored at run time with a reason; the built-in harness can only ignore at
//! compile time, and a test that returned early there was counted as `ok`.
//!
//! The file's `main` lists its tests:
//!
//! ```ignore
//! fn main() {
//!     harness::run(vec![
//!         harness::test("plain", plain),
//!         harness::needs_sets("uses_famous", uses_famous, &["famous.tsv"]),
//!         harness::slow(harness::test("minutes_long", minutes_long)),
//!     ]);
//! }
//! ```
//!
//! A test given inputs runs only when they are all present; it then reads them with
//! [`super::problems::set_path`], which panics (a failure, not a pass) if one vanished.

use std::path::PathBuf;

use libtest_mimic::{Arguments, Completion, Trial};

/// A test that needs nothing but the repository.
pub fn test(name: &str, f: fn()) -> Trial {
    needs_files(name, f, Vec::new, "")
}

/// A test that needs the problem-set files `sets` (names inside the problem folder); ignored,
/// with the folder in the reason, when any is absent.
pub fn needs_sets(name: &str, f: fn(), sets: &'static [&'static str]) -> Trial {
    needs_files(
        name,
        f,
        move || {
            let dir = super::problems::problems_path();
            sets.iter().map(|s| dir.join(s)).collect()
        },
        "the problem sets: set TSUMUGI_PROBLEMS",
    )
}

/// A test that needs the files `paths()` returns; ignored, naming the first absent one and
/// `hint` (how to provide it), when any is absent.
pub fn needs_files(
    name: &str,
    f: fn(),
    paths: impl FnOnce() -> Vec<PathBuf> + Send + 'static,
    hint: &'static str,
) -> Trial {
    let name_owned = name.to_string();
    Trial::ignorable_test(name, move || {
        if let Some(missing) = paths().into_iter().find(|p| !p.is_file()) {
            let why = format!("{} not found ({hint})", missing.display());
            // Also on stderr, so a log shows it beside the tests' own output.
            eprintln!("ignored {name_owned}: {why}");
            return Ok(Completion::ignored_with(why));
        }
        f();
        Ok(Completion::Completed)
    })
}

/// `trial` marked ignored: run only with `--ignored` / `--include-ignored` (minutes long).
pub fn slow(trial: Trial) -> Trial {
    trial.with_ignored_flag(true)
}

/// Runs the listed tests with libtest's command line and exits with its status.
pub fn run(trials: Vec<Trial>) -> ! {
    let args = Arguments::from_args();
    libtest_mimic::run(&args, trials).exit()
}

/// A test that does not apply to this run (e.g. a one-thread claim under
/// `TSUMUGI_TEST_THREADS`): reported as ignored with `why`.
pub fn not_applicable(name: &str, why: &'static str) -> Trial {
    Trial::ignorable_test(name, move || Ok(Completion::ignored_with(why)))
}
