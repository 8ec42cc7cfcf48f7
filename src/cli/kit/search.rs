//! The search of a command from its options: limits, the table size fitted to the available
//! memory, the solver.

use crate::cli::args::SearchOpts;
use crate::cli::output::note;
use crate::mate::{Limits, Resident, Solver};
use std::time::Duration;

/// The search limits and solver settings of `opts`; `threads` is the default thread count.
pub fn limits_of(opts: &SearchOpts, info: bool) -> Limits {
    Limits {
        // 0 is no limit, as everywhere (USI's NodesLimit 0, the page's empty field).
        time: opts.time_ms.filter(|&t| t > 0).map(Duration::from_millis),
        nodes: opts.nodes.filter(|&n| n > 0),
        post_search: opts.post_search.into(),
        // Long searches report progress on stderr so a person knows it is alive.
        info_interval: info.then(|| Duration::from_secs(5)),
        root_is_and_if_checked: !opts.no_defender_root,
        max_plies: (opts.max_plies > 0).then_some(opts.max_plies),
    }
}

/// The `--hash-mb` to allocate for `copies` tables of `want` MB each: reduced, with a one-line
/// warning, to what the available memory (or the process's cgroup's limit) allows (see [`crate::mate::hash_limit_mb`]); a
/// request the machine cannot hold would otherwise fail to allocate, or be granted lazily and
/// end in the OOM killer mid-search.
pub fn fit_hash_mb(want: u64, copies: usize) -> usize {
    let want = usize::try_from(want).unwrap_or(usize::MAX);
    let copies = copies.max(1);
    let Some(limit) = crate::mate::hash_limit_mb(0) else {
        return want;
    };
    let per_copy = (limit / copies).max(1);
    if want <= per_copy {
        return want;
    }
    let each = if copies > 1 {
        format!(" x {copies} jobs")
    } else {
        String::new()
    };
    // The machine's memory or a cgroup's limit (a container's): the line names which.
    let why = crate::system::limit_reason(crate::system::memory_room().as_ref());
    note(format_args!(
        "warning: --hash-mb {want}{each} is more than {why}; using {per_copy} MB{}",
        if copies > 1 { " per job" } else { "" }
    ));
    per_copy
}

/// A solver with the table size, threshold and threads of `opts` (`opts.hash_mb` already
/// passed through [`fit_hash_mb`]).
pub fn solver_of(opts: &SearchOpts, threads: usize) -> Solver {
    let mut solver = Solver::new(opts.hash_mb as usize);
    solver.threshold = opts.threshold.unwrap_or_default();
    solver.set_threads(threads);
    solver
}

/// Makes the table of a one-position solve resident before the search when it is a large share
/// of the memory (a quarter of what is available or more), so that the memory it stands for is
/// held, or the table cut with a warning, before the search counts on it (see
/// [`Solver::make_resident`]): two large solves started at once were each granted their table
/// lazily, and the kernel killed one of them when both had filled it. A smaller table stays
/// lazy, so that a short solve does not pay for touching a table it will not fill (an 8 GB
/// table takes seconds to touch here). The batch keeps its tables lazy too: it empties them
/// between problems, which is free for a lazy table and a full write for a resident one.
pub fn hold_table(solver: &mut Solver) {
    let Some(avail) = crate::mate::available_memory_mb() else {
        return;
    };
    let asked = solver.hash_mb();
    if asked.saturating_mul(4) < avail {
        return;
    }
    match solver.make_resident() {
        Resident::Whole => {}
        Resident::Cut => note(format_args!(
            "warning: memory ran short while the {asked} MB table was made ready (another \
             process is taking it); using {} MB",
            solver.hash_mb()
        )),
        Resident::NotHeld => note(format_args!(
            "warning: memory ran short while the {asked} MB table was made ready (another \
             process is taking it) and the table could not be cut: it keeps {} MB but its \
             memory is not held",
            solver.hash_mb()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::{parse, Command};

    /// 0 is no limit, for `--time-ms` and `--nodes` alike.
    #[test]
    fn zero_time_and_nodes_are_no_limit() {
        let args: Vec<String> = "solve --time-ms 0 --nodes 0 startpos"
            .split_whitespace()
            .map(String::from)
            .collect();
        let Ok(cli) = parse(&args) else { panic!() };
        let Some(Command::Solve(a)) = cli.command else {
            panic!()
        };
        let limits = limits_of(&a.search, false);
        assert_eq!((limits.time, limits.nodes), (None, None));
    }
}
