//! Helper threads (`Threads` > 1): while the main search proves a position, the helpers search
//! in the same position's tree over the same table, and what any of them stores (proofs,
//! disproofs, numbers) the others find. No work is handed out explicitly and only the table is
//! shared, but the helpers are kept off the main search's own path in two ways:
//!
//! - **The first helper proves siblings** (`run_siblings`). The main search publishes its
//!   current path at its polls (every 256 nodes). At a defender node of that path, every other
//!   defence must be mated too if the node is to be proven, and the main search will turn to
//!   them (smallest δ first) once its current one is done; the helper takes that next defence at
//!   the deepest such node (leaving out the path's last `SIBLING_SKIP` plies), searches it for
//!   `SIBLING_BUDGET` nodes, and reads the path again. Measured on the 74 problems of famous.tsv
//!   and long-ge50.tsv that took 1–60 s with one thread (first proofs, 1024 MB, one run each
//!   of the same binary, one after another): median time(2) / time(1) 0.630 in two runs,
//!   against 0.694 with the helper below in the same session (docs/bench/threads.md). Picking
//!   the shallowest such node instead: 0.667.
//! - **The other helpers differ in ε** (the Lazy SMP scheme as KomoringHeights applies it to
//!   df-pn): each runs its own df-pn of the whole position with its threshold ε spread above
//!   and below the main search's, so that they expand the tree in other orders than it does.
//!
//! Repetition and path data stay per thread; the table locks a cluster per access (see `tt`).
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
//! table (16 MB), the path and repetition filters (192 KB), the child arena (about 2 MB, more
//! only if a path of thousands of plies outgrows it) and the path's moves (16 KB), so about
//! 18 MB a helper; and a search stack reserved like the main thread's (virtual memory, touched
//! only as deep as the search goes: a few MB on the longest problems). The published path and
//! the sibling helper's copy of it are 16 KB each (more only past 4096 plies).

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
    /// The main search's current path from the job's position (published at its polls).
    trail: parking_lot::Mutex<Vec<Move>>,
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
                trail: parking_lot::Mutex::new(Vec::with_capacity(4096)),
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
        self.trail.lock().clear();
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

    /// Publishes the main search's current path (moves from the job's position).
    pub(super) fn publish(&self, trail: &[Move]) {
        let mut t = self.trail.lock();
        t.clear();
        t.extend_from_slice(trail);
    }

    /// Copies the main search's last published path into `out`.
    fn read_trail(&self, out: &mut Vec<Move>) {
        let t = self.trail.lock();
        out.clear();
        out.extend_from_slice(&t);
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
        if index == 1 {
            run_siblings(&mut s, &job, crew, stop);
        } else {
            s.mid(&mut pos, INF, INF, job.moves.len() as u32);
        }
        s.monitor.flush_helper_nodes();
        crew.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Nodes the sibling helper spends on one defence before it reads the main search's path
/// again.
const SIBLING_BUDGET: u64 = 50_000;

/// Plies at the tip of the main search's path the sibling helper leaves alone: the main
/// search leaves and re-enters them every few hundred nodes, and solves their small subtrees
/// itself before a helper's work there could matter.
const SIBLING_SKIP: usize = 2;

/// The sibling helper: proves the defences the main search will need next. At each defender
/// node on the main search's published path, every other defence must also be mated if the
/// node is; the helper searches one of them (the one the main search would turn to next: the
/// smallest δ) for a budget of nodes, then reads the path again.
fn run_siblings(s: &mut Search, job: &Job, crew: &Crew, stop: &AtomicBool) {
    let base_ply = job.moves.len() as u32;
    let mut base = job.root.clone();
    for &m in &job.moves {
        base.do_move(m);
    }
    let mut trail = Vec::with_capacity(4096);
    loop {
        if crew.is_over(job.epoch) || stop.load(Ordering::Relaxed) {
            break;
        }
        crew.read_trail(&mut trail);
        let target = pick_sibling(s, &base, base_ply, job.max_plies, &trail, SIBLING_SKIP);
        // The target's path: the job's, the main search's trail to the node, the defence.
        let mut pos = job.root.clone();
        s.path.clear();
        let k = s.key(&pos);
        s.path.push(k, pos.hand(s.attacker));
        let (prefix, extra) = match target {
            Some((i, m)) => (&trail[..i], Some(m)),
            None => (&trail[..0], None),
        };
        for &m in job.moves.iter().chain(prefix).chain(extra.iter()) {
            pos.do_move(m);
            let k = s.key(&pos);
            s.path.push(k, pos.hand(s.attacker));
        }
        let ply = base_ply + prefix.len() as u32 + extra.is_some() as u32;
        s.set_round_budget(Some(SIBLING_BUDGET));
        s.mid(&mut pos, INF, INF, ply);
        if s.aborted().is_some() {
            break;
        }
    }
}

/// The deepest defender node on `trail` (from `base`, at `base_ply`), leaving out its last
/// `skip` plies, with a defence that is neither the trail's nor solved in the table: its
/// index on the trail and that defence (the smallest δ, as the main search would choose).
fn pick_sibling(
    s: &Search,
    base: &Position,
    base_ply: u32,
    max_plies: u32,
    trail: &[Move],
    skip: usize,
) -> Option<(usize, Move)> {
    let end = trail.len().saturating_sub(skip);
    let mut pos = base.clone();
    for &m in &trail[..end] {
        pos.do_move(m);
    }
    for i in (0..end).rev() {
        pos.undo_move();
        let ply = base_ply + i as u32;
        if pos.side_to_move() == s.attacker || ply + 1 >= max_plies {
            continue;
        }
        let list = super::node_moves(&pos, false);
        let remaining = max_plies.saturating_sub(ply + 1);
        let mut pick: Option<(Move, u32, u32)> = None;
        let mut dropped = [false; 81];
        for &m in list.as_slice() {
            if m == trail[i] {
                continue;
            }
            if m.is_drop() && std::mem::replace(&mut dropped[m.to().index()], true) {
                // Interpositions on one square are one group (see `children`).
                continue;
            }
            pos.do_move(m);
            let v = s.stored_within(&pos, remaining);
            pos.undo_move();
            if v.pn != 0 && v.dn != 0 && pick.is_none_or(|(_, dn, pn)| (v.dn, v.pn) < (dn, pn)) {
                pick = Some((m, v.dn, v.pn));
            }
        }
        if let Some((m, _, _)) = pick {
            return Some((i, m));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::dfpn::{node_moves, with_search};
    use crate::mate::Solver;

    /// The sibling helper takes a defence of the main search's path other than the path's own,
    /// at the deepest defender node that has one unsolved, and none once the table has them all
    /// proven (or the defender node is within the plies it leaves out).
    #[test]
    fn sibling_helper_picks_an_unsolved_other_defence() {
        let root = Position::from_sfen("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1").unwrap();
        // A check that leaves at least two defences, and the path through its first defence.
        let (check, defences) = node_moves(&root, true)
            .as_slice()
            .iter()
            .find_map(|&c| {
                let mut p = root.clone();
                p.do_move(c);
                let d = node_moves(&p, false);
                (d.len() >= 2).then(|| (c, d.as_slice().to_vec()))
            })
            .expect("a check with two defences");
        let trail = [check, defences[0]];
        with_search(&mut Solver::new(1), &root, |s| {
            let (i, m) = pick_sibling(s, &root, 0, u32::MAX, &trail, 0).expect("a sibling");
            assert_eq!(i, 1);
            assert!(m != defences[0] && defences.contains(&m), "{m:?}");
            // Leaving the defender node out: nothing at the attacker's root to pick.
            assert_eq!(pick_sibling(s, &root, 0, u32::MAX, &trail, 1), None);
            // Every other defence proven in the table: nothing left to pick.
            let mut p = root.clone();
            p.do_move(check);
            for &d in &defences[1..] {
                p.do_move(d);
                s.store_proof(&p, 2, Move::NONE, 1);
                p.undo_move();
            }
            assert_eq!(pick_sibling(s, &root, 0, u32::MAX, &trail, 0), None);
        });
    }
}
