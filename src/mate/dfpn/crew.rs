//! Helper threads (`Threads` > 1): while the main search proves a position, each helper runs
//! its own df-pn on the same position over the same table, and what any of them stores (proofs,
//! disproofs, numbers) the others find. The scheme is the shared-table one of Lazy SMP applied
//! to df-pn (as KomoringHeights does): no work is split explicitly; the helpers differ from the
//! main search (and from each other) in their threshold ε, so they do not walk the same path
//! and find parts of the proof the main search then reads from the table. Repetition and path
//! data stay per thread; the table locks a cluster per access (see `tt`).
//!
//! Only the main search decides: a helper's job ends when the main search finishes the
//! position it was started for (or the solve stops), and its result is not used directly. The
//! main search waits for the helpers to stop before it goes on, and the line readers' own
//! searches (`Search::prove_at`) run without them: with helpers storing (and evicting) entries
//! while a line was read, long-ge50's 353-ply horse-circling problem failed to read its exact
//! line in 1 of 4 runs with two threads.
//! (Letting a helper that solved the position first cut the main search short, taking the
//! result from the table, was tried: long-ge50's 353-ply horse-circling problem then failed to
//! read its exact line in 1 of 3 runs with two threads, against 0 of 7 without; dropped.) The
//! line readers and the shortest-mate driver run on the main thread only; every search they
//! start (`Search::prove`, `Search::prove_at`) starts the helpers on the same position.
//!
//! Memory: each helper has its own `Scratch`, kept by the solver across solves: the repetition
//! table (16 MB), the path and repetition filters (192 KB) and the child arena (about 2 MB,
//! more only if a path of thousands of plies outgrows it), so about 18 MB a helper; and a search stack reserved like
//! the main thread's (virtual memory, touched only as deep as the search goes: a few MB on the
//! longest problems).

use super::super::value::INF;
use super::{Scratch, Search, Threshold};
use crate::mate::Limits;
use crate::shogi::{Color, Move, Position};
use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// One position for the helpers to search: the main search's root, path and limits.
pub(crate) struct Job {
    root: Position,
    moves: Vec<Move>,
    max_plies: u32,
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
        attacker: Color,
        salt: u64,
    ) {
        let epoch = self.epoch.fetch_add(1, Ordering::SeqCst) + 1;
        for tx in self.senders.lock().iter() {
            let job = Job {
                root: root.clone(),
                moves: moves.to_vec(),
                max_plies,
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

    /// Whether the job of `epoch` is over.
    #[inline]
    pub(super) fn is_over(&self, epoch: u64) -> bool {
        self.epoch.load(Ordering::SeqCst) != epoch
    }

    /// Nodes the helpers have searched so far (flushed at their polls).
    pub(crate) fn helper_nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Closes the channels: helpers return once their current job is over.
    pub(crate) fn dismiss(&self) {
        self.finish();
        self.senders.lock().clear();
    }
}

/// The threshold ε of helper `index` (1-based): spread above and below the main search's so
/// that the helpers expand the tree in other orders than it does.
fn helper_threshold(main: Threshold, index: usize) -> Threshold {
    let Threshold::Epsilon(e) = main;
    let factors = [2.0, 0.5, 3.0, 0.25, 4.0, 1.5, 0.75];
    Threshold::Epsilon((e * factors[(index - 1) % factors.len()]).clamp(0.05, 10.0))
}

/// A helper thread's loop: search each job's position until the job is over, until the
/// channel closes.
pub(crate) fn run_helper(
    tt: &super::super::tt::Table,
    scratch: &mut Scratch,
    crew: &Crew,
    jobs: Receiver<Job>,
    stop: &AtomicBool,
    threshold: Threshold,
    index: usize,
) {
    let mut quiet = |_: &crate::mate::Progress| {};
    for job in jobs.iter() {
        crew.busy.fetch_add(1, Ordering::SeqCst);
        if crew.is_over(job.epoch) || stop.load(Ordering::Relaxed) {
            crew.busy.fetch_sub(1, Ordering::SeqCst);
            continue;
        }
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
        s.mid(&mut pos, INF, INF, job.moves.len() as u32);
        s.monitor.flush_helper_nodes();
        crew.busy.fetch_sub(1, Ordering::SeqCst);
    }
}
