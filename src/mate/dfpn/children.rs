//! A node's children: expansion (one record per move, from the table or estimated), delayed
//! groups, and selection of the child to search next (their aggregation into the node's
//! numbers, and each child's δ threshold, are in `numbers`).
//!
//! - Initial numbers (df-pn+): a fresh AND child of an OR node starts with pn = its number of
//!   evasions, drops onto one square counted once (each needs its own proof), found while testing
//!   the check for mate-in-1; a fresh OR child starts at (1, 1). Estimating the OR child from
//!   the defender's answer instead (KomoringHeights' df-pn+ terms: a capture, or an answer on a
//!   square the defender guards at least as well as the attacker attacks it, pn 2 and dn 1; one
//!   the attacker attacks more, dn 2; a king move (1, 1)) did not pay: first proofs within 1 M
//!   nodes, the first 118 rows of famous.tsv (2026-11-26): 116 solved with it, 115 without, 1.011 times
//!   the nodes where both solved (median ratio 0.999).
//! - At the length limit (shortest-mate rounds): when the limit leaves the attacker no move
//!   after a check, each check's defender node is settled while the attacker's node is
//!   expanded: mated now (proven), or "no mate within 1 ply" (a disproof for the child's hand
//!   and every smaller one), with no node of its own, no table probe and no repetition test (a
//!   position with a legal move has no mate within 1 ply on any path). Such nodes used to be
//!   searched one by one, each generating the defender's moves only to fail them all. One
//!   thread, same run: `tsumugi bench` 721,024 nodes (797 ms) before, 435,337 (484 ms) after,
//!   the same answers; mate3-11 + extra1-9 at 3 s a problem (1800 rows, `--post shortest`,
//!   every one at its known length either way) 23,828,787 nodes and 35.3 s before,
//!   8,351,515 and 12.2 s after.
//! - Interpositions mated in one: when a defender's node met for the first time is expanded
//!   (in a search with a length limit, the shortest-mate rounds, at any ply; without one, from
//!   ply `INTERPOSITION_TEST_PLY` on), each fresh interposition (a drop, or a move onto the
//!   line of the check) is tested for a mate in one by a check next to the king or on the
//!   interposed piece (`mated_in_1_after`); a mated one is proven at once and stored, so the
//!   node's pn counts only the answers that hold. KomoringHeights tests every fresh answer of a
//!   defender so. Why: famous.tsv row 184 (雪月花256, 53 plies) has lance ladders that end in
//!   interpositions taken with mate; searched cold with the remaining length as the limit, the
//!   position 26 plies into its 53-ply line (mate in 27) took 389,905 nodes, now 44,232
//!   (KomoringHeights: 42,397). Testing every answer: 51,002 there, but mate3-11 + extra1-9 at
//!   3 s a problem took 15.1 s against 11.7 s; drops only: 793,626 (the ladders' interpositions
//!   include board moves).
//!   - Without a limit (first proofs), 2026-12-04, one thread, 8 GB, AMD EPYC family 25 model
//!     1: 明日香's long king walks are such ladders. The position 117 plies from the end of
//!     KomoringHeights' line (docs/bench/hardest.md) was proven at 17.6 M nodes with the test
//!     from ply 16 (8.7 M at every ply), none in 60 M without it; 乱's first proof took 65.6 M
//!     nodes against 82.5 M, FAIRWAY's 47.6 M against 44.5 M. At every ply the short sets paid
//!     for it (mate3-11 + extra1-9 at 3 s a problem, `--post-search shortest`: 1.028 of the
//!     time, median of 5 pairs; `tsumugi bench` 392,516 → 404,728 nodes); from ply 16 on,
//!     0.930 of the time (5 pairs) and 392,303 nodes. Tested at every ply in an earlier search
//!     (reverted in `3134f6c`), Microcosmos' first line became 1569 plies and its shortening
//!     stalled at 1527; with today's search its test (`microcosmos_line_is_shortened_before_any_round`)
//!     passes either way.
//!   - Not where the child's checks are the last the limit allows (`ply + 3 >= max_plies`):
//!     that child's expansion settles every check in one node anyway (above). Measured with
//!     and without this exclusion (two threads, 1024 MB, famous.tsv at 30 s a problem: 215 of
//!     223 at or below the set's length either way), mate3-11 + extra1-9 at 3 s a problem
//!     (one thread, in alternating pairs against the build without the test) took 1.045 of
//!     the time with the test at every depth (median of 4 pairs) and 0.999 with this
//!     exclusion (2 pairs). `tsumugi bench`: 435,337 nodes → 422,628.
//! - Delayed expansion (KomoringHeights): the defender's drops onto one square, and the
//!   attacker's promotion / non-promotion pair except a knight's (see `delays_non_promotion`),
//!   are tried one at a time; the next becomes active only once the previous one is refuted in
//!   the direction that matters (proven at AND, disproven at OR). Their numbers are then not
//!   summed as if they were independent.
//! - Double counting: a child whose entry was created under an ancestor on the current path
//!   (see `path`) is "foreign" and combined by max instead of sum. Measured on 103 famous
//!   problems at 2 M nodes each (solved): every child with another creator marked (the earlier
//!   rule) 75, no guard 80, this rule 80; with the tie-break of `select` 81, 84 and 81. The
//!   guard does not pay on that set; it stays for the stall of the double-counting position in `tests/mate_regressions.rs`, in its narrower
//!   form.
//!   Merges further up are found by `confluence`, which marks children `merged`, combined by
//!   max the same way.
//!
//! Children live in one arena (`Search::children`) shared by the whole path: a node's records
//! are the slice from its `base` to the end, truncated when the node returns, so the recursion
//! allocates nothing.

use super::super::value::{Value, INF, NO_MATE};
use super::hands::hand_before;
use super::numbers::{aggregate_in, Numbers};
use super::path::tag;
use super::{Search, CAP_REP, NO_REP};
use crate::shogi::attacks::{attacks, between, king_attack};
use crate::shogi::{Bitboard, Hand, Move, MoveList, PieceKind, Position, Square};

/// Whether the non-promoting `m` (an attacker's move), when it has a promoting twin, waits for
/// that twin to be disproven: yes for a pawn, bishop or rook, and for a lance moving to its
/// second-farthest rank; no for a knight or silver, or a lance stopping on the third rank (an
/// unpromoted knight or silver reaches other squares than the promoted piece, and is often the
/// key). famous.tsv row 25 (zuko029, 17 plies) needs the unpromoted 8e9c while 8e9c+ stays
/// unsolved, so with every pair delayed the twin was never tried: no proof in 9.6 M nodes, 4,629
/// nodes with knights free. First proofs within 1 M nodes a problem, famous.tsv: 183 of 223 with
/// every pair delayed, 185 with knights free, 186 with lances to the third rank too, 190 or 191
/// with silvers as well (this rule; KomoringHeights delays only pawn, bishop, rook and lance
/// pairs). Freeing silvers first left 世界大戦's first proof unreadable by minimax; the cause
/// was the table's 4-entry clusters (see `tt`), not the rule. Delaying the defender's pairs as
/// well, as KomoringHeights does, lost 4.
#[inline]
fn delays_non_promotion(pos: &Position, m: Move) -> bool {
    if m.is_drop() || m.is_promotion() {
        return false;
    }
    match pos.piece_on(m.from()).kind() {
        PieceKind::Knight | PieceKind::Silver => false,
        PieceKind::Lance => m.to().relative_rank(pos.side_to_move()) == 1,
        _ => true,
    }
}

/// The initial (pn, dn) of a fresh check whose defender has `n` answers (df-pn+ initial
/// numbers, after KomoringHeights' estimation): a check on a square the defender guards twice
/// or more is harder to prove (pn + 1), one the attacker supports at least as well as the
/// defender guards it harder to disprove (dn + 1). First proofs within 1 M nodes a problem,
/// famous.tsv: 191 solved and 88 at the set's length without these terms, 192 and 90 with
/// them; mate3-11 within 1 M nodes needed 996 K nodes without, 935 K with.
#[inline]
fn support_terms(pos: &Position, to: Square, n: u32, guards: u32) -> (u32, u32) {
    let defender = pos.side_to_move();
    let occ = pos.occupied();
    // An unguarded square is supported well enough whatever the count (saves the second scan).
    let supported = guards == 0 || pos.attackers_to(defender.flip(), to, occ).count() >= guards;
    (n + (guards >= 2) as u32, 1 + supported as u32)
}

/// Whether the defender's `m` from `pos` (in check) interposes: a drop, or a move onto a square
/// between the king and its single checker.
#[inline]
fn interposes(pos: &Position, m: Move) -> bool {
    if m.is_drop() {
        return true;
    }
    let checkers = pos.checkers();
    !checkers.more_than_one()
        && pos
            .king_square(pos.side_to_move())
            .is_some_and(|k| between(k, checkers.lsb()).has(m.to()))
}

/// One child of the node being searched.
#[derive(Clone, Copy)]
pub(crate) struct Child {
    pub mv: Move,
    /// What is known of the child (its hand in the child's own terms; `best` unused).
    pub v: Value,
    /// For a failure on the current path only (a repetition), the depth of the ancestor it
    /// depends on; `NO_REP` otherwise.
    pub rep: u32,
    /// Its entry was created under an ancestor on the path: its δ is combined by max.
    pub foreign: bool,
    /// One of two children through which paths merge below (see `confluence`): its δ is
    /// combined by max for as long as the node is on the path.
    pub merged: bool,
    /// The tag of the child's own key (see `path::tag`).
    pub tag: u32,
    /// The tag of the node that created its table entry (0: none known).
    pub parent: u32,
    /// Waiting for its predecessor in the same group to fail (see `activate`).
    pub delayed: bool,
    /// Index (within the node) of the next child of the group, 0 = none.
    pub next: u16,
    /// Not in the table when the node was expanded, and not searched since.
    pub fresh: bool,
}

/// The first ply at which a search without a length limit tests a fresh defender's
/// interpositions for a mate in one (see the module's notes).
const INTERPOSITION_TEST_PLY: u32 = 16;

impl Search<'_> {
    /// Pushes one child record per move of `list` onto the arena (stopping early at a child
    /// that solves the node at once), each initialised from the table or estimated.
    /// `hand` is the attacker's hand at the node, `my_tag` the node's tag; `fresh`: the node was
    /// not in the table when its parent was expanded.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn expand(
        &mut self,
        pos: &mut Position,
        list: &MoveList,
        or: bool,
        hand: Hand,
        ply: u32,
        my_tag: u32,
        fresh: bool,
    ) {
        let base = self.children.len();
        self.old_child = false;
        let mut drop_last = [0u16; 81];
        // A pn for depth (`Threshold::depth_pn`; 0 by default) for the fresh children.
        let depth_extra = self.threshold.depth_extra(ply);
        // An attacker's node whose checks are the last moves the length limit allows: its
        // children are settled without the table (`mated_or_no_mate_within_1`).
        let at_last_check = or && ply + 2 >= self.max_plies;
        // Start loading every child's table cluster now, so the probes below overlap their
        // cache misses instead of paying them one after another; each child's key and hand
        // are computed here once and kept for its lookup.
        self.child_keys.clear();
        for &m in list.as_slice() {
            let ck = pos.board_key_after(m) ^ self.salt;
            let chand = if or { pos.mover_hand_after(m) } else { hand };
            if !at_last_check {
                self.tt.prefetch(ck);
                self.path.prefetch_rep(ck, chand);
            }
            self.child_keys.push((ck, chand));
        }
        // Children are looked up by the key and hand they would have, without making the move:
        // only a fresh AND child (whose evasions are counted) is visited.
        for (i, &m) in list.as_slice().iter().enumerate() {
            let (ck, chand) = self.child_keys[i];
            let mut c = Child {
                mv: m,
                v: Value::unsolved(1, 1, chand),
                rep: NO_REP,
                foreign: false,
                merged: false,
                tag: tag(ck),
                parent: 0,
                delayed: false,
                next: 0,
                fresh: false,
            };
            if at_last_check {
                // The length limit leaves the attacker no move after this check: the child is
                // mated now or has no mate within 1 ply, on any path and whatever the table
                // holds. Settled here instead of in a node of its own, which would generate the
                // defender's moves to fail every one of them.
                c.v = self.mated_or_no_mate_within_1(pos, m, ck, chand, my_tag);
            } else if let Some((depth, len)) = self
                .path
                .repeats(ck, chand)
                .map(|depth| (depth, NO_MATE))
                .or_else(|| self.path.rep_known(ck, chand))
            {
                // A repetition fails at any length; a failure remembered for this path holds
                // within the length it was found for (it may mix repetitions with the limit).
                self.monitor.repetitions += 1;
                c.v = Value::disproven(chand, len);
                c.rep = depth;
            } else if !or && ply + 1 >= self.max_plies {
                // The attacker would move at or past the length limit: no mate within 0 plies
                // from the child, true for any hand (not path-dependent).
                c.v = Value::disproven(Hand::FULL, 0);
            } else if ply + 1 >= self.threshold.depth_cap {
                // The path cap: the child fails on this path alone, like a repetition
                // (see `Threshold::depth_cap`, `CAP_REP`).
                c.v = Value::disproven(chand, NO_MATE);
                c.rep = CAP_REP;
            } else {
                let p = self
                    .tt
                    .probe(ck, chand, self.max_plies.saturating_sub(ply + 1));
                c.fresh = !p.found;
                if p.found {
                    // Met before at a shallower ply, still unsolved (see `search`, TCA).
                    // The child is at ply + 1: met before at a ply above it.
                    let shallower = p.shallowest_ply.is_some_and(|s| (s as u32) < ply + 1);
                    if shallower && p.v.pn != 0 && p.v.dn != 0 {
                        self.old_child = true;
                    }
                    c.v = p.v;
                    c.parent = p.parent.unwrap_or(0);
                    c.foreign = p
                        .parent
                        .is_some_and(|t| t != my_tag && self.path.tag_is_ancestor(t))
                        && p.v.pn != 0
                        && p.v.dn != 0;
                } else if or {
                    // Fresh AND child: count the defender's answers (0 = mate in one).
                    pos.do_move(m);
                    // The defender's guards of the checking piece's square come with the
                    // estimate (one scan of the square's attackers, not two).
                    let (n, guards) = pos.evasion_estimate_and_guards(m.to());
                    if n == 0 {
                        let ph = self.add_interposition_pieces(pos, Hand::EMPTY);
                        c.v = Value::proven(ph, 0, Move::NONE);
                        self.tt.store(ck, c.v, my_tag, 1);
                    } else {
                        let (pn, dn) = support_terms(pos, m.to(), n, guards);
                        c.v.pn = (pn + depth_extra + self.threshold.jitter_of(ck)).max(p.v.pn);
                        c.v.dn = dn.max(p.v.dn);
                    }
                    pos.undo_move();
                } else {
                    c.v.pn = p.v.pn.max(1 + depth_extra);
                    c.v.dn = p.v.dn.max(1 + self.threshold.jitter_of(ck));
                    // Not where the child's checks are the last ones the length limit
                    // allows (see the module's notes).
                    if fresh
                        && (self.max_plies != u32::MAX || ply >= INTERPOSITION_TEST_PLY)
                        && ply + 3 < self.max_plies
                        && interposes(pos, m)
                    {
                        if let Some(v) = self.mated_in_1_after(pos, m) {
                            c.v = v;
                            self.tt.store(ck, v, my_tag, 1);
                        }
                    }
                }
            }
            let solved_now = if or {
                c.v.pn == 0
            } else {
                c.v.dn == 0 && c.rep == NO_REP
            };
            // Delayed groups (see the module docs).
            let idx = self.children.len() - base;
            let group_prev = if or {
                // The generator emits the promotion just before the non-promotion.
                let twin = idx > 0 && {
                    let p = &self.children[base + idx - 1];
                    !p.mv.is_drop()
                        && !m.is_drop()
                        && p.mv.from() == m.from()
                        && p.mv.to() == m.to()
                };
                (twin && delays_non_promotion(pos, m)).then(|| idx - 1)
            } else if m.is_drop() {
                let prev = drop_last[m.to().index()];
                drop_last[m.to().index()] = idx as u16 + 1;
                (prev != 0).then(|| prev as usize - 1)
            } else {
                None
            };
            if let Some(p) = group_prev {
                self.children[base + p].next = idx as u16;
                c.delayed = true;
            }
            self.children.push(c);
            if solved_now {
                break;
            }
        }
        self.activate_all(or, base);
    }

    /// The value of the defender's node after the check `m` from `pos` when the attacker may
    /// not move again (length limit): a mate (stored, as `expand` does for any mate in one) or
    /// "no mate within 1 ply" for the child's hand `chand`, kept in the record only. That
    /// disproof holds for the hand as given and every smaller one (the defender's answer
    /// stays: with fewer attacker pieces in hand the defender holds more).
    #[inline]
    fn mated_or_no_mate_within_1(
        &mut self,
        pos: &mut Position,
        m: Move,
        ck: u64,
        chand: Hand,
        my_tag: u32,
    ) -> Value {
        pos.do_move(m);
        let v = if pos.has_evasion() {
            Value::disproven(chand, 1)
        } else {
            let v = Value::proven(
                self.add_interposition_pieces(pos, Hand::EMPTY),
                0,
                Move::NONE,
            );
            self.tt.store(ck, v, my_tag, 1);
            v
        };
        pos.undo_move();
        v
    }

    /// The attacker's node after the defender's `m`, if the attacker mates there at once with a
    /// check that lands next to the king or on `m`'s square (capturing an interposed piece):
    /// proven within 1 ply, by that check. Other mates in one are left to the search.
    ///
    /// A check is tried (made, and the defender's answers looked for) only if the checking
    /// piece covers every square the king could flee to now. Measured with the test in every
    /// search (`5c47bf7`, reverted): of the 14.1 M checks these tests would make on mate3-11 + extra1-9
    /// (3 s a problem), 1.6 M pass, and the search loses few of its mates (8,071,709 nodes
    /// against 7,973,471 trying every check); time 13.0 s → 12.7 s.
    /// The cover is judged before the move, so a line the moving piece opens is not seen: a
    /// mate missed here is found by the search.
    #[inline]
    fn mated_in_1_after(&mut self, pos: &mut Position, m: Move) -> Option<Value> {
        pos.do_move(m);
        let mut mate = None;
        let us = pos.side_to_move();
        if let Some(ksq) = pos.king_square(us.flip()) {
            let mut checks = MoveList::new();
            pos.check_moves_to(
                &mut checks,
                king_attack(ksq) | Bitboard::from_square(m.to()),
            );
            let occ = pos.occupied();
            let occ_wo_king = occ.and_not(Bitboard::from_square(ksq));
            let flight = if checks.is_empty() {
                Bitboard::EMPTY
            } else {
                king_attack(ksq)
                    .and_not(pos.pieces_of(us.flip()))
                    .and_not(pos.attacked_around(us, ksq, occ_wo_king))
            };
            for &mm in checks.as_slice() {
                let to = Bitboard::from_square(mm.to());
                let moved = pos.moved_piece(mm).kind();
                let kind = if mm.is_promotion() {
                    moved.promote()
                } else {
                    moved
                };
                if flight
                    .and_not(attacks(us, kind, mm.to(), occ | to) | to)
                    .is_nonempty()
                {
                    continue;
                }
                pos.do_move(mm);
                let ph =
                    (!pos.has_evasion()).then(|| self.add_interposition_pieces(pos, Hand::EMPTY));
                pos.undo_move();
                if let Some(ph) = ph {
                    mate = Some(Value::proven(hand_before(pos, mm, ph), 1, mm));
                    break;
                }
            }
        }
        pos.undo_move();
        mate
    }

    /// Aggregates the children [base..] into the node's (pn, dn).
    #[inline]
    pub(super) fn aggregate(&self, or: bool, base: usize) -> Numbers {
        aggregate_in(or, &self.children[base..])
    }

    /// The child to search next (smallest φ: pn at OR, dn at AND) and the second-smallest φ
    /// (at most `INF`).
    #[inline]
    pub(super) fn select(&self, or: bool, base: usize) -> (usize, u32) {
        let ch = &self.children[base..];
        let mut best = 0;
        let mut best_phi = INF + 1;
        let mut second_phi = INF;
        for (i, c) in ch.iter().enumerate() {
            if c.delayed {
                continue;
            }
            let phi = if or { c.v.pn } else { c.v.dn };
            // Ties go to the child with the larger δ: the check the defender has more trouble
            // refuting, the evasion that is harder to prove (103 famous problems at 2 M nodes:
            // 81 solved against 80 with first-come ties; see the module docs).
            let tie_better = phi == best_phi && {
                let b = &ch[best];
                if or {
                    c.v.dn > b.v.dn
                } else {
                    c.v.pn > b.v.pn
                }
            };
            if tie_better {
                best = i;
                second_phi = phi;
            } else if phi < best_phi {
                second_phi = best_phi;
                best_phi = phi;
                best = i;
            } else if phi < second_phi {
                second_phi = phi;
            }
        }
        (best, second_phi.min(INF))
    }

    /// If child `i` has failed for the side to move at this node (disproven at OR, proven at
    /// AND), its delayed successor takes its turn (and so on down the group).
    #[inline]
    pub(super) fn activate(&mut self, or: bool, base: usize, mut i: usize) {
        loop {
            let c = self.children[base + i];
            let failed = if or { c.v.dn == 0 } else { c.v.pn == 0 };
            if !failed || c.next == 0 {
                return;
            }
            i = c.next as usize;
            if !self.children[base + i].delayed {
                return;
            }
            self.children[base + i].delayed = false;
        }
    }

    fn activate_all(&mut self, or: bool, base: usize) {
        let n = self.children.len() - base;
        for i in 0..n {
            if !self.children[base + i].delayed {
                self.activate(or, base, i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::Solver;

    /// Under a length limit that leaves the attacker one check, the defender's nodes after the
    /// checks are settled while the root is expanded: the root costs one node whether it mates
    /// (G*5b) or not (the README's 9-ply problem, whose checks each cost a node of their own
    /// before), and without a limit the same table still proves the longer mate.
    #[test]
    fn checks_at_the_length_limit_are_settled_in_one_node() {
        let mate1 = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
        super::super::with_search(&mut Solver::new(1), &mate1, |s| {
            s.set_limit(1);
            let r = s.prove(&mut mate1.clone());
            assert!(r.v.pn == 0 && r.v.len == 1, "{:?}", r.v);
            assert_eq!(s.nodes(), 1);
        });
        let example = Position::from_sfen("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1").unwrap();
        let mut checks = crate::shogi::MoveList::new();
        example.check_moves(&mut checks);
        assert!(checks.len() > 1);
        super::super::with_search(&mut Solver::new(1), &example, |s| {
            for limit in [1, 2] {
                s.set_limit(limit);
                let n0 = s.nodes();
                let r = s.prove(&mut example.clone());
                assert!(r.v.dn == 0 && r.v.len as u32 >= limit, "{:?}", r.v);
                assert_eq!(s.nodes() - n0, 1, "limit {limit}");
            }
            s.set_limit(u32::MAX);
            let r = s.prove(&mut example.clone());
            assert!(r.v.pn == 0 && r.v.len == 9, "{:?}", r.v);
        });
    }

    /// A fresh defender's node settles the interpositions the attacker answers with a mate in
    /// one (P*5b, taken by the gold or the rook) while it is expanded: under a length limit at
    /// any ply, without one from `INTERPOSITION_TEST_PLY` on; its other answers, and every
    /// answer of a node met before, are left to the search.
    #[test]
    fn a_fresh_defender_settles_interpositions_mated_in_one() {
        let pos = Position::from_sfen("4k4/9/5G3/9/9/9/9/9/4R4 w p 1").unwrap();
        let root = Position::from_sfen("4k4/9/5G3/9/9/9/9/9/5R3 b p 1").unwrap();
        let list = super::super::node_moves(&pos, false);
        let mated = Move::from_usi("P*5b").unwrap();
        assert!(list.as_slice().contains(&mated));
        let deep = INTERPOSITION_TEST_PLY;
        for (fresh, limit, ply) in [
            (true, Some(9), 1),
            (false, Some(9), 1),
            (true, None, 1),
            (true, None, deep),
            (false, None, deep),
        ] {
            super::super::with_search(&mut Solver::new(1), &root, |s| {
                if let Some(l) = limit {
                    s.set_limit(l);
                }
                let mut p = pos.clone();
                let hand = p.hand(s.attacker());
                let base = s.children.len();
                s.expand(&mut p, &list, false, hand, ply, 0, fresh);
                let tested = fresh && (limit.is_some() || ply >= deep);
                for c in &s.children[base..] {
                    if tested && c.mv == mated {
                        assert!(c.v.pn == 0 && c.v.len == 1, "{:?}", c.v);
                        let mut q = pos.clone();
                        q.do_move(c.mv);
                        q.do_move(c.v.best);
                        assert!(q.is_checkmated());
                    } else {
                        assert!(c.v.pn != 0 && c.v.dn != 0, "{} {:?}", c.mv, c.v);
                    }
                }
                s.children.truncate(base);
            });
        }
    }

    /// A check on a square the defender guards twice starts harder to prove; one supported as
    /// often as it is guarded starts harder to disprove.
    #[test]
    fn support_terms_count_guards_and_support() {
        let to = Move::from_usi("5c5b").unwrap().to();
        let guarded = Position::from_sfen("3sk4/4G4/4P4/9/9/9/9/9/4K4 w - 1").unwrap();
        let g = |p: &Position| p.attackers_to(p.side_to_move(), to, p.occupied()).count();
        assert_eq!(support_terms(&guarded, to, 3, g(&guarded)), (4, 1));
        let supported = Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").unwrap();
        assert_eq!(support_terms(&supported, to, 3, g(&supported)), (3, 2));
    }

    /// A knight's or silver's non-promotion, or a lance's to its third-farthest rank, is searched
    /// beside the promotion; the others wait for it.
    #[test]
    fn only_moves_that_lose_little_by_promoting_delay_their_non_promotion() {
        let pos = Position::from_sfen("4k4/9/9/4P1S1L/1N7/9/9/1B7/4K2R1 b - 1").unwrap();
        let delayed = |usi: &str| delays_non_promotion(&pos, Move::from_usi(usi).unwrap());
        for m in ["5d5c", "1d1b", "8h3c", "2i2c"] {
            assert!(delayed(m), "{m} should wait for its promotion");
        }
        for m in ["8e9c", "8e7c", "1d1c", "3d3c", "3d2c", "5d5c+", "8e9c+"] {
            assert!(!delayed(m), "{m} should not wait");
        }
    }
}
