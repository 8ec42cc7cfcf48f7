//! Helper threads (`Threads` > 1): while the main search proves a position, each helper runs
//! its own df-pn on the same position over the same table, and what any of them stores (proofs,
//! disproofs, numbers) the others find. The scheme is the shared-table one of Lazy SMP applied
//! to df-pn (as KomoringHeights does): no work is split explicitly; the helpers differ from the
//! main search (and from each other) in their threshold ε, so they do not walk the same path
//! and find parts of the proof the main search then reads from the table. Repetition and path
//! data stay per thread; the table locks a cluster per access (see `tt`).
//!
//! The main search decides, but the first thread to solve the position ends the job: a helper
//! that proves or disproves it reports its result, the main search notices at its next poll,
//! unwinds without storing, and takes that result (its line is read from the table, where the
//! helper's proof is). Measured on the 68 problems of famous.tsv and long-ge50.tsv that take up
//! to 60 s alone (`examples/setrun`, 1024 MB, two threads, the builds interleaved problem by
//! problem; docs/bench/threads.md, 2026-11-24): a helper finished first on 17 of 68, and the
//! time per problem against the main-only rule was a median 0.96 and 0.93 in two runs.
//! (Tried once before and dropped: long-ge50's 353-ply horse-circling problem then failed to
//! read its exact line in 1 of 3 runs. That was probably the unreadable-line bug fixed in the
//! driver since (`fd348b5`); 16 runs of the mate suites with 2 and 6
//! threads passed with the rule.) The main search waits for the helpers to stop before it goes
//! on, and the line readers' own searches (`Search::prove_at`) run without them: with helpers
//! storing (and evicting) entries while a line was read, long-ge50's 353-ply problem failed to
//! read its exact line in 1 of 4 runs with two threads. The
//! line readers and the shortest-mate driver run on the main thread only; every search they
//! start (`Search::prove`, `Search::prove_at`) starts the helpers on the same position.
//!
//! Memory: each helper has its own `Scratch`, kept by the solver across solves: the repetition
//! table (16 MB), the path and repetition filters (192 KB) and the child arena (about 2 MB,
//! more only if a path of thousands of plies outgrows it), so about 18 MB a helper; and a search stack reserved like
//! the main thread's (virtual memory, touched only as deep as the search goes: a few MB on the
//! longest problems).

use super::{NodeResult, Scratch, Search, Threshold};
use crate::mate::Limits;
use crate::shogi::{Color, Move, Position};
use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// One position for the helpers to search: the main search's root, path and limits.
pub(crate) struct Job {
    root: Position,
    moves: Vec<Move>,
    max_plies: u32,
    /// The root's thresholds grow (see `Search::mid_root`), as the main search's do.
    grow: bool,
    attacker: Color,
    salt: u64,
    epoch: u64,
}

/// What the main search and its helpers share: the job counter that tells a helper its job
/// is over, the helpers' node count, and the channels jobs go out on.
pub(crate) struct Crew {
    epoch: AtomicU64,
    /// Nodes searched by the helpers (added at every poll).
    pub(super) nodes: AtomicU64,
    /// Helpers inside a job: `finish` waits for none, so that nothing is stored while the
    /// main search reads lines from the table alone.
    busy: AtomicUsize,
    /// Emptied when the solve ends, which closes the channels.
    senders: parking_lot::Mutex<Vec<Sender<Job>>>,
    /// A helper's result for its job, if it solved the position first: (epoch, result).
    solved: parking_lot::Mutex<Option<(u64, NodeResult)>>,
    /// The epoch of `solved` (0: none), for the main search's polls.
    solved_epoch: AtomicU64,
    /// A helper panicked (a bug): its message. The main search stops at its next poll and the
    /// solve ends in a panic of its own with this message (see `Solver::solve`), which the
    /// USI engine answers as it answers any panic of a search.
    failure: parking_lot::Mutex<Option<String>>,
    /// `failure` is set, for the main search's polls.
    failed: AtomicBool,
}

impl Crew {
    /// A crew of `helpers` threads; the receivers go to [`run_helper`], one each.
    pub(crate) fn new(helpers: usize) -> (Crew, Vec<Receiver<Job>>) {
        let (senders, receivers) = (0..helpers).map(|_| crossbeam_channel::unbounded()).unzip();
        (
            Crew {
                epoch: AtomicU64::new(0),
                nodes: AtomicU64::new(0),
                busy: AtomicUsize::new(0),
                senders: parking_lot::Mutex::new(senders),
                solved: parking_lot::Mutex::new(None),
                solved_epoch: AtomicU64::new(0),
                failure: parking_lot::Mutex::new(None),
                failed: AtomicBool::new(false),
            },
            receivers,
        )
    }

    /// Starts every helper on the position reached from `root` by `moves`.
    pub(super) fn start(
        &self,
        root: &Position,
        moves: &[Move],
        max_plies: u32,
        grow: bool,
        attacker: Color,
        salt: u64,
    ) {
        let epoch = self.epoch.fetch_add(1, Ordering::SeqCst) + 1;
        for tx in self.senders.lock().iter() {
            let job = Job {
                root: root.clone(),
                moves: moves.to_vec(),
                max_plies,
                grow,
                attacker,
                salt,
                epoch,
            };
            // A helper that has gone (its thread failed to start) is simply not used.
            let _ = tx.send(job);
        }
    }

    /// Ends the helpers' current job and waits until none is searching (each notices at its
    /// next poll, within a few hundred nodes). Sequentially consistent with the helpers' own
    /// `busy` increment and job check, so a helper that did not see the job end is counted.
    pub(super) fn finish(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        while self.busy.load(Ordering::SeqCst) != 0 {
            std::thread::yield_now();
        }
    }

    /// A helper solved the job of `epoch`: keeps the first such result while the job lasts.
    fn report_solved(&self, epoch: u64, r: NodeResult) {
        let mut slot = self.solved.lock();
        if !self.is_over(epoch) && slot.is_none_or(|(e, _)| e != epoch) {
            *slot = Some((epoch, r));
            self.solved_epoch.store(epoch, Ordering::SeqCst);
        }
    }

    /// Whether a helper has solved the current job (the main search's polls).
    #[inline]
    pub(super) fn solved_now(&self) -> bool {
        let e = self.solved_epoch.load(Ordering::Relaxed);
        e != 0 && e == self.epoch.load(Ordering::Relaxed)
    }

    /// The helper's result for the current job, if one solved it.
    pub(super) fn take_solved(&self) -> Option<NodeResult> {
        let epoch = self.epoch.load(Ordering::SeqCst);
        self.solved
            .lock()
            .filter(|&(e, _)| e == epoch)
            .map(|(_, r)| r)
    }

    /// Whether the job of `epoch` is over.
    #[inline]
    pub(super) fn is_over(&self, epoch: u64) -> bool {
        self.epoch.load(Ordering::SeqCst) != epoch
    }

    /// Nodes the helpers have searched so far (flushed at their polls).
    pub(crate) fn helper_nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Closes the channels: helpers return once their current job is over. Called again
    /// (by [`Dismissal`] after a normal end) it does nothing more.
    pub(crate) fn dismiss(&self) {
        self.finish();
        self.senders.lock().clear();
    }

    /// Records that helper `index` panicked with `message` (the first failure is kept).
    fn report_failure(&self, index: usize, message: String) {
        let mut f = self.failure.lock();
        if f.is_none() {
            *f = Some(format!("search helper {index} failed: {message}"));
        }
        self.failed.store(true, Ordering::SeqCst);
    }

    /// Whether a helper has panicked (the main search's polls).
    #[inline]
    pub(super) fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// The message of the first helper that panicked, if one did.
    pub(crate) fn failure(&self) -> Option<String> {
        self.failure.lock().clone()
    }
}

/// Dismisses the crew when dropped, also when the main search unwinds from a panic: the
/// helpers then end their job and their thread, and the thread scope that holds them can
/// return (without it the scope would wait for them forever, and the panic would never reach
/// the guard that answers it).
pub(crate) struct Dismissal<'a>(pub(crate) &'a Crew);

impl Drop for Dismissal<'_> {
    fn drop(&mut self) {
        self.0.dismiss();
    }
}

/// Counts a helper inside a job (`Crew::busy`) while it lives: the count goes down when the
/// job ends, also when the helper's search unwinds from a panic, so `Crew::finish` never waits
/// for a helper that is gone.
struct Busy<'a>(&'a AtomicUsize);

impl<'a> Busy<'a> {
    fn enter(busy: &'a AtomicUsize) -> Busy<'a> {
        busy.fetch_add(1, Ordering::SeqCst);
        Busy(busy)
    }
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The threshold ε of helper `index` (1-based): spread above and below the main search's so
/// that the helpers expand the tree in other orders than it does. The first helper's is half
/// the main search's (0.25; it was twice, 1.0): with the first-to-solve rule, the time per
/// problem on the 68 problems above was a median 0.93 of the 1.0 helper's in one interleaved
/// run, and the two changes together 0.92 of the earlier build in each of two runs; 4 times
/// the main search's was slower (1.14), a quarter of it no better (1.00). Helpers grow their
/// root thresholds by the main search's factor (see `Search::mid_root`): on the first proofs of
/// 図巧100番 and Ambergris (`Threads 2`, 1 GB, two runs each, 2026-11-29) they took 11.10 s and
/// 10.54 s together where helpers under infinite thresholds took 12.72 s and 11.38 s; factors
/// of their own (2.0, 2.4) were no better. A small sample: one-thread times varied by up to
/// 20% across the same runs.
///
/// Each helper also breaks ties among fresh children by a seed of its own
/// ([`Threshold::jitter`]): without one, a helper picks the same child as the main search
/// wherever their children's numbers are equal (fresh children start from a few small values:
/// (1, 1), or the defender's answer counts). On the
/// same two first proofs (1 GB, five runs of each build in turn, 2026-12-02, Intel Xeon family
/// 6 model 207) two threads took a median 0.69 of one thread's time with seeds (0.62-0.83)
/// against 0.80 without (0.69-0.98); one thread's search is unchanged.
fn helper_threshold(main: Threshold, index: usize) -> Threshold {
    let factors = [0.5, 2.0, 3.0, 0.25, 4.0, 1.5, 0.75];
    Threshold {
        epsilon: (main.epsilon * factors[(index - 1) % factors.len()]).clamp(0.05, 10.0),
        // A tie-break seed of its own (odd, never 0), from the 64-bit golden-ratio sequence.
        jitter: 0xD1B5_4A32_D192_ED03u64.wrapping_mul(index as u64) | 1,
        ..main
    }
}

/// A helper thread's loop: search each job's position until the job is over, until the
/// channel closes. A panic in a job's search (a bug) is caught here and reported to the crew
/// (see [`Crew::failed`]); the helper then ends, since its buffers may be inconsistent.
pub(crate) fn run_helper(
    tt: &super::super::tt::Table,
    scratch: &mut Scratch,
    crew: &Crew,
    jobs: Receiver<Job>,
    stop: &AtomicBool,
    threshold: Threshold,
    index: usize,
) {
    for job in jobs.iter() {
        let _busy = Busy::enter(&crew.busy);
        if crew.is_over(job.epoch) || stop.load(Ordering::Relaxed) {
            continue;
        }
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            helper_job(tt, scratch, crew, &job, stop, threshold, index)
        }));
        if let Err(p) = run {
            crew.report_failure(index, crate::mate::fault::panic_message(&*p));
            return;
        }
    }
}

/// One job of helper `index`: df-pn on the job's position until it is solved or the job is
/// over; a solution is reported to the crew.
fn helper_job(
    tt: &super::super::tt::Table,
    scratch: &mut Scratch,
    crew: &Crew,
    job: &Job,
    stop: &AtomicBool,
    threshold: Threshold,
    index: usize,
) {
    // Helpers search in parallel with the main search: the table must take its locks. A table
    // used without them lets a reader take one store's key with another store's value, which
    // can make a false proof or disproof; this is the check that the solver's setting of the
    // table follows its thread count.
    assert!(
        tt.is_shared(),
        "a search helper was started on a table that does not take its locks"
    );
    let mut quiet = |_: &crate::mate::Progress| {};
    let limits = Limits::default();
    let mut s = Search::new(
        tt,
        scratch,
        &job.root,
        job.attacker,
        &limits,
        stop,
        &mut quiet,
        helper_threshold(threshold, index),
    );
    s.salt = job.salt;
    s.set_limit(job.max_plies);
    s.monitor.helper_of = Some((crew, job.epoch));
    let mut pos = job.root.clone();
    s.path.clear();
    let k = s.key(&pos);
    s.path.push(k, pos.hand(s.attacker));
    for &m in &job.moves {
        pos.do_move(m);
        let k = s.key(&pos);
        s.path.push(k, pos.hand(s.attacker));
    }
    let r = s.mid_root(&mut pos, job.moves.len() as u32, job.grow);
    if (r.v.pn == 0 || r.v.dn == 0) && !s.monitor.halted() {
        crew.report_solved(job.epoch, r);
    }
    s.monitor.flush_helper_nodes();
}

#[cfg(test)]
mod tests {
    use super::super::super::value::{Value, NO_MATE};
    use super::super::NO_REP;
    use super::*;
    use crate::shogi::Hand;

    fn disproof() -> NodeResult {
        NodeResult {
            v: Value::disproven(Hand::EMPTY, NO_MATE),
            rep: NO_REP,
        }
    }

    #[test]
    fn a_helper_result_counts_for_its_own_job_only() {
        let (crew, _receivers) = Crew::new(1);
        assert!(!crew.solved_now());
        // Job 1 (no helper channel is read here: the result is reported directly).
        crew.epoch.store(1, Ordering::SeqCst);
        crew.report_solved(1, disproof());
        assert!(crew.solved_now());
        assert_eq!(crew.take_solved().map(|r| r.v.dn), Some(0));
        // The job ends and the next starts: the old result is neither seen nor taken, and a
        // late report for the old job is ignored.
        crew.epoch.store(3, Ordering::SeqCst);
        assert!(!crew.solved_now());
        assert!(crew.take_solved().is_none());
        crew.report_solved(2, disproof());
        assert!(!crew.solved_now());
        assert!(crew.take_solved().is_none());
        crew.report_solved(3, disproof());
        assert!(crew.solved_now());
        assert!(crew.take_solved().is_some());
    }

    #[test]
    fn each_helper_has_a_seed_of_its_own() {
        let main = Threshold::default();
        assert_eq!(main.jitter, 0);
        let seeds: Vec<u64> = (1..=16).map(|i| helper_threshold(main, i).jitter).collect();
        for (i, s) in seeds.iter().enumerate() {
            assert_ne!(*s, 0);
            assert!(!seeds[..i].contains(s), "helper {} repeats a seed", i + 1);
        }
    }
}
