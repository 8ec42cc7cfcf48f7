//! Reading the mating line by minimax over the proofs stored in the table: the line whose
//! length the attacker can force with the proofs at hand (a proven bound, never below the true
//! minimum), with the defender's longest defences and the composers' spare-pieces tie-break.

use super::super::dfpn::{node_moves, ProofNote, Search};
use super::MAX_REPROVE_NODES;
use crate::shogi::{Move, MoveList, Position};
use std::collections::{HashMap, HashSet};

/// Reads the line by minimax over the proofs stored in the table: at attacker nodes the proven
/// check whose own reading is shortest (checks are read in the order of their stored lengths,
/// and only while one could still be shorter than the best found, which keeps the reading near
/// the size of one solution tree), at defender nodes the evasion whose reading is longest
/// (every evasion must be proven), ties broken towards fewer pieces left in the attacker's hand
/// at the end (駒余り), then a board move before a drop at defender nodes. Memoised by
/// position; a failure caused by repeating a position of the reading path is not memoised
/// (it holds on that path only, as in the search).
///
/// Stored lengths are upper bounds, often loose (a node proven early by a long mate keeps that
/// length), so a defender choosing by stored length can pick a defence that is mated faster
/// than another: a famous 19-ply problem was read as 15 plies. The minimax value is the length
/// the attacker can force with the proofs at hand, so it is never below the true minimum, and
/// it is itself a proven bound for the shortest-mate post-search.
///
/// A defence whose position has no proof in the table (an entry replaced or collected), and
/// the stored proving move of an attacker node when its position has lost its proof, are
/// proven again with the reading path as the search path, up to `MAX_REPROVES` times and
/// `MAX_REPROVE_NODES` nodes (see `Minimax::reprove`). `None` when the table still lacks a proof on the way (the caller
/// falls back to `walk`) or when a defence
/// would repeat a position of the reading path; `Err(true)` when it gave up: more than
/// `budget` positions visited, or the search stopped. The line is not verified here (the
/// driver verifies every line it accepts).
pub(crate) fn read_minimax(
    s: &mut Search,
    root: &Position,
    budget: usize,
) -> Result<Vec<Move>, bool> {
    let mut m = Minimax {
        memo: HashMap::new(),
        shorter: Vec::new(),
        unproven: HashSet::new(),
        path: Vec::new(),
        moves: Vec::new(),
        root: root.clone(),
        gap: false,
        reproves: 0,
        reprove_nodes: 0,
        low: usize::MAX,
        visits: 0,
        budget,
        failed: false,
    };
    let mut pos = root.clone();
    let or_root = pos.side_to_move() == s.attacker();
    let v = m.value(s, &mut pos, or_root);
    if v.is_some() {
        for note in &m.shorter {
            s.store_noted(note);
        }
    }
    log::debug!(
        "minimax reading: {:?} after {} positions, {} proven again{}",
        v,
        m.visits,
        m.reproves,
        if m.failed { " (gave up)" } else { "" }
    );
    if v.is_none() {
        return Err(m.failed);
    }
    let mut line = Vec::new();
    while let Some(&(len, _, best)) = m.memo.get(&pos.key()) {
        if len == 0 || best == Move::NONE {
            break;
        }
        line.push(best);
        pos.do_move(best);
    }
    Ok(line)
}

struct Minimax {
    /// Position key → (plies to mate, attacker's spare pieces at the end, move to play).
    memo: HashMap<u64, (u16, u32, Move)>,
    /// Values read that are shorter than the table's proofs, stored when the reading ends.
    shorter: Vec<ProofNote>,
    /// Positions with no usable proof from here (forgotten after a table gap is proven again).
    unproven: HashSet<u64>,
    path: Vec<u64>,
    /// The moves from the root to the current node.
    moves: Vec<Move>,
    root: Position,
    /// The last `child_value` failed for want of a proof (not by repetition).
    gap: bool,
    reproves: usize,
    /// Search nodes spent by those re-proofs (bounded by `MAX_REPROVE_NODES`).
    reprove_nodes: u64,
    /// Smallest path index that a repetition met below the current node returned to.
    low: usize,
    visits: usize,
    budget: usize,
    failed: bool,
}

/// The stored proof length of `pos`, if the table proves it.
fn stored_proof(s: &Search, pos: &Position) -> Option<u16> {
    let v = s.stored(pos);
    (v.pn == 0).then_some(v.len)
}

/// Table gaps proven again during one minimax reading (each is a df-pn search).
const MAX_REPROVES: usize = 2048;

/// Whether `pos` is mated at once: a mate in one at an attacker node, checkmate at a defender
/// node (cheap proofs, the first entries replacement drops).
fn mated_at_once(pos: &mut Position, or: bool) -> bool {
    if or {
        pos.mate_in_one().is_some()
    } else {
        pos.is_checkmated()
    }
}

/// Whether the table proves `pos`, at `ply` from the root, within the plies the length limit
/// leaves it (a proof the search would find at once), or it is mated at once.
fn proven_within_limit(s: &Search, pos: &mut Position, ply: usize, or: bool) -> bool {
    let remaining = s.limit().saturating_sub(ply as u32);
    s.stored_within(pos, remaining).pn == 0 || mated_at_once(pos, or)
}

impl Minimax {
    /// Proves again the position reached by `m` from the current node (`self.moves`), with the
    /// reading path as the search path, within the reading's budgets (`MAX_REPROVES`,
    /// `MAX_REPROVE_NODES`). Returns whether it ran.
    ///
    /// Callers ask for it only where the table no longer proves the position within the
    /// length limit (see `proven_within_limit`). A position whose proof is stored but whose
    /// reading fails (its subtree's proofs lead back into the path) was proven again at once
    /// (1 node: `mid` finds its children proven) and read the same way; where such a
    /// position's own proving move has lost its proof, reading it proves that child again
    /// (`prove_lost_best`). Before this was checked, the two-thread first
    /// proof of 世界大戦 (famous.tsv, 395 plies) spent all 2048 re-proofs in 59 ms on a
    /// handful of such positions, each proven again once per re-proof below it (1024 times at
    /// ply 150, 512 at ply 148, ...), and the line fell back to stored lengths.
    fn reprove(&mut self, s: &mut Search, m: Move) -> bool {
        if self.reproves >= MAX_REPROVES || self.reprove_nodes >= MAX_REPROVE_NODES || self.failed {
            return false;
        }
        self.reproves += 1;
        let n0 = s.nodes();
        super::reprove(s, &self.root, &self.moves, Some(m), self.reprove_nodes);
        self.reprove_nodes += s.nodes() - n0;
        self.unproven.clear();
        true
    }

    /// At an attacker node the table proves: if the child of its stored proving move has lost
    /// its proof (replacement drops cheap proofs first), proves that child again (`reprove`).
    /// The reading would otherwise read the node through its other proven checks, whose
    /// stored lengths may be far longer than the node's own (a node stored as mate in 11 read
    /// through a check stored at 280), and whose proofs may lead back into the reading path.
    /// With two threads this made the first reading of 世界大戦 (famous.tsv, 395 plies) fail
    /// in about 1 run in 25, and the line then followed stored lengths: 201-371 plies, shorter
    /// than the shortest mate.
    fn prove_lost_best(&mut self, s: &mut Search, pos: &mut Position, checks: &MoveList) {
        let own = s.stored(pos);
        if own.pn != 0 || own.best == Move::NONE || !checks.as_slice().contains(&own.best) {
            return;
        }
        pos.do_move(own.best);
        let lost = !proven_within_limit(s, pos, self.moves.len() + 1, false);
        pos.undo_move();
        if lost {
            self.reprove(s, own.best);
        }
    }

    /// The value of the child `pos` of the node at path index `me`; sets `gap` when it failed
    /// for want of a proof rather than by repeating a position at or above `me`. A child is
    /// read if it is proven in the table or is a mate (in one) seen at once: such cheap proofs
    /// are the first entries replacement drops.
    fn child_value(
        &mut self,
        s: &mut Search,
        pos: &mut Position,
        or: bool,
        me: usize,
    ) -> Option<(u16, u32)> {
        let outer = std::mem::replace(&mut self.low, usize::MAX);
        let proven = stored_proof(s, pos).is_some() || mated_at_once(pos, or);
        let v = if proven { self.value(s, pos, or) } else { None };
        self.gap = v.is_none() && self.low > me;
        self.low = self.low.min(outer);
        v
    }

    fn value(&mut self, s: &mut Search, pos: &mut Position, or: bool) -> Option<(u16, u32)> {
        let key = pos.key();
        if let Some(&(len, spare, _)) = self.memo.get(&key) {
            return Some((len, spare));
        }
        if self.failed || self.unproven.contains(&key) {
            return None;
        }
        if let Some(i) = self.path.iter().position(|&k| k == key) {
            self.low = self.low.min(i);
            return None;
        }
        self.visits += 1;
        if self.visits > self.budget || (self.visits % 4096 == 0 && s.check_abort()) {
            self.failed = true;
            return None;
        }
        let list = node_moves(pos, or);
        if !or && list.is_empty() {
            let spare = pos.hand(s.attacker()).total();
            self.memo.insert(key, (0, spare, Move::NONE));
            return Some((0, spare));
        }
        let me = self.path.len();
        let outer_low = std::mem::replace(&mut self.low, usize::MAX);
        self.path.push(key);
        // (plies, spare, move)
        let mut best: Option<(u16, u32, Move)> = None;
        if or {
            self.prove_lost_best(s, pos, &list);
        }
        // Checks in the order of their stored lengths, and only those whose stored length
        // could still beat the best found (a heuristic bound: it keeps the reading near the
        // size of one solution tree; the value stays a proven bound).
        let mut moves: Vec<(Move, u16)> = Vec::with_capacity(list.len());
        for &m in list.as_slice() {
            if or {
                pos.do_move(m);
                let l = stored_proof(s, pos).or_else(|| pos.is_checkmated().then_some(0));
                pos.undo_move();
                if let Some(l) = l {
                    moves.push((m, l));
                }
            } else {
                moves.push((m, 0));
            }
        }
        if or {
            moves.sort_by_key(|&(_, l)| l);
        }
        for &(m, stored) in &moves {
            if or && best.is_some_and(|(bl, _, _)| stored.saturating_add(1) >= bl) {
                break;
            }
            pos.do_move(m);
            self.moves.push(m);
            let mut v = self.child_value(s, pos, !or, me);
            if v.is_none()
                && !or
                && self.gap
                && !proven_within_limit(s, pos, self.moves.len(), true)
            {
                // A table gap below a defence (an entry replaced or collected): prove that
                // position again with the reading path as the search path, then read it anew.
                // A position the table still proves within the length limit is not proven
                // again (see `reprove`).
                self.moves.pop();
                let ran = self.reprove(s, m);
                self.moves.push(m);
                if ran {
                    v = self.child_value(s, pos, !or, me);
                }
            }
            self.moves.pop();
            pos.undo_move();
            match v {
                Some((len, spare)) => {
                    let len = len.saturating_add(1);
                    let better = best.is_none_or(|(bl, bs, bm)| {
                        if or {
                            (len, spare) < (bl, bs)
                        } else {
                            len > bl
                                || (len == bl
                                    && (spare < bs
                                        || (spare == bs && bm.is_drop() && !m.is_drop())))
                        }
                    });
                    if better {
                        best = Some((len, spare, m));
                    }
                }
                None if !or => {
                    best = None;
                    break;
                }
                None => {}
            }
            if self.failed {
                break;
            }
        }
        self.path.pop();
        let low = self.low;
        self.low = outer_low.min(low);
        if self.failed {
            return None;
        }
        // A failure caused by a repetition of a position above this one holds on this path
        // only (as in the search: GHI), so it is not remembered; a found line is a finite
        // mating strategy from here whatever the path, so it is, and when it is shorter than
        // the table's proof it goes into the table (after the reading: stores during it
        // evicted proofs it still needed, famous.tsv row 127 read 47 plies instead of 41 with
        // 373 positions proven again). Stored lengths are loose upper bounds (a node keeps the length
        // it was first proven with, though its children's proofs shorten later); the minimax
        // value is the length the proofs at hand force, often far below. The shortcut passes
        // (`shortcut`) test their leaves against stored lengths, so without this a detour that
        // rejoins the line further on looked no shorter: 雪月花 (famous.tsv row 217, set's
        // length 353) was first proven at 523 plies, and its one pass found nothing; with the
        // reading's values stored, the same pass took the line to 399 plies in 16 ms.
        match best {
            Some(b) => {
                self.memo.insert(key, b);
                if stored_proof(s, pos).is_none_or(|l| l > b.0) {
                    let best = if or { b.2 } else { Move::NONE };
                    self.shorter.push(s.note_proof(pos, b.0, best));
                }
            }
            None if low >= me => {
                self.unproven.insert(key);
            }
            None => {}
        }
        best.map(|(len, spare, _)| (len, spare))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::line::{verify, with_detour_proven};

    /// docs/reliability.md ("Memory") bounds a reading's memory from these sizes: 16 bytes a
    /// memo entry (with hashbrown's control byte, 17 a bucket) and 24 a noted proof, up to
    /// `MINIMAX_MAX_POSITIONS` positions. A larger entry would make that bound wrong.
    #[test]
    fn reading_entries_are_the_documented_size() {
        fn map_entry<K, V>(_field: fn(&Minimax) -> &HashMap<K, V>) -> usize {
            std::mem::size_of::<(K, V)>()
        }
        fn set_entry<K>(_field: fn(&Minimax) -> &HashSet<K>) -> usize {
            std::mem::size_of::<K>()
        }
        fn vec_entry<T>(_field: fn(&Minimax) -> &Vec<T>) -> usize {
            std::mem::size_of::<T>()
        }
        assert_eq!(map_entry(|m| &m.memo), 16);
        assert_eq!(set_entry(|m| &m.unproven), 8);
        assert_eq!(vec_entry(|m| &m.shorter), 24);
    }

    /// The reading stores what it proves: a root whose table proof claims 99 plies (true, but
    /// loose) reads as the 5-ply line its children's proofs force, and afterwards the table
    /// holds the root proven within 5 (the shortcut passes test their leaves against stored
    /// lengths).
    #[test]
    fn a_reading_stores_the_lengths_it_proves() {
        with_detour_proven(|s, root, detour| {
            s.store_proof(root, 99, detour, 1);
            assert_eq!(s.stored(root).len, 99);
            let line = read_minimax(s, root, 10_000).unwrap();
            verify(root, &line, s.attacker()).unwrap();
            assert_eq!(line[0], detour);
            assert_eq!(s.stored(root).len as usize, line.len(), "{line:?}");
            // Every attacker position of the line is stored within its remainder.
            let mut pos = root.clone();
            for (i, &m) in line.iter().enumerate() {
                if i % 2 == 0 {
                    assert!(s.stored(&pos).len as usize <= line.len() - i, "ply {i}");
                }
                pos.do_move(m);
            }
        });
    }

    /// An attacker node whose proving move's child has lost its proof is read through that
    /// move, proven again, not through another check the table still proves: the root is
    /// stored as mate in 3 by G*2c (the mate in 3, G*2c 1a S*1b, checked with cshogi in
    /// `with_detour_proven`), but only the detour G*3b (mate in 5) has a proven child. Without
    /// `prove_lost_best` this read the 5-ply detour (and in a two-thread table such detours led
    /// the reading of 世界大戦 into repetitions and a line shorter than the shortest mate).
    #[test]
    fn a_lost_proving_move_is_proven_again() {
        with_detour_proven(|s, root, _detour| {
            let mate = Move::from_usi("G*2c").unwrap();
            s.store_proof(root, 3, mate, 1);
            let mut after = root.clone();
            after.do_move(mate);
            assert_ne!(s.stored(&after).pn, 0, "the set-up leaves G*2c unproven");
            let line = read_minimax(s, root, 10_000).unwrap();
            verify(root, &line, s.attacker()).unwrap();
            assert_eq!(line.len(), 3, "{line:?}");
            assert_eq!(line[0], mate);
        });
    }
}
