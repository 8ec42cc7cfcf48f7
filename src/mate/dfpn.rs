//! df-pn (Nagai 2002) with df-pn+ initial estimates, hand-dominance table, path-dependent
//! repetition handling (GHI), and a double-count guard.
//!
//! Conventions: OR nodes have the attacker to move, AND nodes the defender. pn is the proof
//! number, dn the disproof number, from the attacker's point of view at both kinds of node.
//! The attacker's hand is what the table stores beside the board key.
//!
//! - Thresholds: the best child gets `min(th_pn, max(pn2 + 1, ⌈pn2·(1+ε)⌉))` (the 1+ε trick,
//!   Pawlewicz & Lew 2007), which lets a child run longer before control returns and cuts
//!   re-expansions (see `Threshold` for why KomoringHeights' `pn2 + 1` is not offered).
//! - Initial numbers (df-pn+): a fresh AND child of an OR node starts with pn = its number of
//!   evasions, drops onto one square counted once (each needs its own proof), found while testing
//!   the check for mate-in-1; a fresh OR child starts at (1, 1).
//! - Proof hands (OR: child's proof hand plus the dropped piece / minus the captured one; AND:
//!   per-kind max over children, plus every piece the defender could have interposed had the
//!   attacker not held it) and disproof hands (OR: per-kind min over children converted back,
//!   without kinds the attacker lacks, since holding one might enable a checking drop; AND: the
//!   refuting child's, capped at our count of a kind the defender dropped).
//! - Length limit (shortest-mate post-search): a node whose attacker would move past the limit
//!   fails with "no mate within 0 plies"; disproofs carry such bounds up (OR: the smallest of the
//!   children's plus one, AND: the refuting child's plus one) and are stored as "no mate within
//!   n plies", which depends on the position and the remaining length only, so transpositions
//!   share them (KomoringHeights' MateLen in its table). A proof is reused only if its length
//!   fits the remaining plies.
//! - Repetition (GHI, Kishimoto & Müller 2004): a position whose board equals an ancestor's on
//!   the current path with an attacker hand no better is a failure *on this path only*. Such
//!   results carry `rep = true` up the tree and are never stored as disproofs; parents keep them
//!   in their local child list for the duration of their own search, which is exactly the path
//!   on which they hold.
//! - Double counting (seed 002): a child whose table entry was created under one of our own
//!   ancestors on the current path (its stored parent tag is an ancestor's) is reachable both
//!   from that ancestor directly and through us, so the ancestor would sum its δ twice; it is
//!   combined by max instead of sum (a one-step form of KomoringHeights' SNDA-like parent walk).
//!   Measured on 103 famous problems at 2 M nodes each (solved): every child with another
//!   creator marked (the earlier rule) 75, no guard 80, this rule 80; with the tie-break of
//!   `mid_loop` 81, 84 and 81. The guard does not pay on that set; it stays for the stall the
//!   seed describes, in its narrower form.

use super::hugebuf::HugeBuf;
use super::pv;
use super::tt::{Table, INF, MAX_BOUND, NO_MATE};
use super::*;
use crate::shogi::attacks::between;
use crate::shogi::movegen::drop_targets;
use crate::shogi::{Color, Hand, MoveList, PieceKind};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// How the selected child's threshold is set: the 1+ε trick. ε = 0.5 is the default (1.0
/// solved fewer long problems).
///
/// KomoringHeights' rule, `min(th, second + 1)`, was offered as `--threshold kh` and dropped
/// (issue 20, item 3): it solved fewer problems (first 25 of long-ge50.tsv at 2 s each: 8
/// against 15; first 60 of famous.tsv: 54 against 56), and with the shortest-mate rounds'
/// length limit it could loop without end. Unsolved table entries are shared between depths
/// (a position met with 5 plies left and with 1 left), so a deep node inherited the large pn of
/// its shallow visits, was never visited under a threshold of `second + 1`, and fed its pn
/// back up: `9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1` crept through its 7-ply round
/// for hours. KomoringHeights escapes such loops by raising thresholds where a child's entry
/// was met at a shallower depth (the TCA of Kishimoto 2010); keeping unsolved entries per
/// remaining length also ended the loop, but cost the ε rule's shortest-mate rounds dearly
/// (世界大戦 at 8 M nodes: a 429-ply line instead of 403; 58 against 61 of every third famous
/// problem at their length within 1 M nodes), so the rule went instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Threshold {
    /// The 1+ε trick with this ε.
    Epsilon(f32),
}

impl Default for Threshold {
    fn default() -> Self {
        Threshold::Epsilon(0.5)
    }
}

impl Threshold {
    /// Parses `epsilon:<x>` (also `eps:<x>`), 0 < x ≤ 10.
    pub fn parse(s: &str) -> Option<Threshold> {
        let v = s
            .strip_prefix("epsilon:")
            .or_else(|| s.strip_prefix("eps:"))?;
        let e: f32 = v.parse().ok()?;
        (e > 0.0 && e <= 10.0).then_some(Threshold::Epsilon(e))
    }
}

/// Buffers a search needs, kept by the `Solver` across searches so that a solve allocates and
/// clears nothing (a mate-in-1 costs microseconds, not the milliseconds of fresh buffers).
pub(crate) struct Scratch {
    children: Vec<Child>,
    path_filter: Vec<u16>,
    rep_table: HugeBuf<u64>,
}

impl Scratch {
    pub(crate) fn new() -> Scratch {
        Scratch {
            children: Vec::with_capacity(1 << 16),
            path_filter: vec![0; 1 << 16],
            rep_table: HugeBuf::new(REP_TABLE_SIZE),
        }
    }
}

#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    pn: u32,
    dn: u32,
    /// Proof hand (pn == 0) or disproof hand (dn == 0) of the child, in the child's hand terms.
    hand: Hand,
    len: u16,
    rep: bool,
    foreign: bool,
    /// Waiting for its predecessor in the same group to fail (see `activate`).
    delayed: bool,
    /// Index (within the node) of the next child of the group, 0 = none.
    next: u16,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeResult {
    pub pn: u32,
    pub dn: u32,
    pub hand: Hand,
    pub len: u16,
    pub rep: bool,
    /// The proving move (OR node proven).
    pub best: Move,
}

/// Nodes between polls of the stop flag, clock and node limit: a few milliseconds at most.
const POLL_INTERVAL: u64 = 256;
/// Entries of the repetition table (8 MB). It holds repetition failures only (length-limit
/// failures go to the main table). Measured: at 1 << 16 entries (512 KB, cache-resident) a
/// famous search ran up to 18% more nodes/s, but 図巧100番's minimality proof, which meets
/// millions of repetitions, needed 28.6 M nodes instead of 18.0 M and took longer overall.
const REP_TABLE_SIZE: usize = 1 << 20;
/// Nodes between occupancy checks (and garbage collections).
const GC_CHECK_INTERVAL: u64 = 1 << 16;

pub(super) struct Search<'a> {
    pub tt: &'a mut Table,
    pub attacker: Color,
    pub salt: u64,
    pub nodes: u64,
    children: &'a mut Vec<Child>,
    /// Nodes on the current path: board key, attacker hand, path hash.
    path: Vec<(u64, Hand, u64)>,
    path_filter: &'a mut Vec<u16>,
    /// Path-dependent failures (repetitions), keyed by the hash of the whole path
    /// from the root (KomoringHeights' repetition table): df-pn walks the same path again and
    /// again, and these results may be reused only on exactly that path. Direct-mapped; the path
    /// hash is seeded with the material and the length limit, so entries of other searches or
    /// other limits never match and the table is never cleared.
    rep_table: &'a mut HugeBuf<u64>,
    stop: &'a AtomicBool,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    pub aborted: Option<UnknownReason>,
    next_poll: u64,
    next_gc_check: u64,
    info_interval: Option<Duration>,
    next_info: Option<Instant>,
    progress: &'a mut dyn FnMut(&Progress),
    pub max_plies: u32,
    /// Path-dependent repetition failures met (see `Stats::repetitions`).
    pub repetitions: u64,
    /// Combine confluent children by max (see module docs).
    pub double_count_guard: bool,
    /// Deepest ply visited (seldepth).
    pub max_ply: u32,
    threshold: Threshold,
    /// A verified line proven earlier in this solve (reported on stop).
    pub best_line: Option<Vec<Move>>,
}

#[inline(always)]
fn tag(key: u64) -> u32 {
    (key >> 32) as u32 | 1
}

/// Hand with one more `k`, kept within the field (and within the real piece count).
#[inline]
fn plus(mut h: Hand, k: PieceKind) -> Hand {
    if h.count(k) < Hand::FULL.count(k) {
        h.add(k);
    }
    h
}

#[inline]
fn minus(mut h: Hand, k: PieceKind) -> Hand {
    if h.has(k) {
        h.sub(k);
    }
    h
}

/// Material signature: two positions share table entries only if their total material per kind
/// is equal, because the defender's hand is implied by board + attacker hand only then.
fn material_salt(pos: &Position) -> u64 {
    let mut counts = [0u64; 8];
    for sq in crate::shogi::Square::all() {
        let p = pos.piece_on(sq);
        if !p.is_empty() {
            counts[p.kind().unpromote().index()] += 1;
        }
    }
    for c in Color::ALL {
        for k in PieceKind::HAND {
            counts[k.index()] += pos.hand(c).count(k) as u64;
        }
    }
    let mut h = 0x243F_6A88_85A3_08D3u64;
    for (i, n) in counts.iter().enumerate() {
        h = (h ^ (n << (i * 5))).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    // Keep bit 0 (side to move) untouched so OR and AND keys stay distinct.
    h & !1
}

/// Table salt of a search: the material signature, and the attacker's colour. Entries store
/// the attacker's hand, so a position searched with the other side attacking (a defender-to-
/// move root after an attacker-to-move one, in one USI session) must not read them. Black keeps
/// the plain material salt.
fn table_salt(root: &Position, attacker: Color) -> u64 {
    let colour = match attacker {
        Color::Black => 0,
        Color::White => 0x5851_F42D_4C95_7F2Eu64,
    };
    material_salt(root) ^ colour
}

impl<'a> Search<'a> {
    /// Makes `attacker` the mating side (the table salt follows).
    fn set_attacker(&mut self, root: &Position, attacker: Color) {
        self.attacker = attacker;
        self.salt = table_salt(root, attacker);
    }

    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a mut Table,
        scratch: &'a mut Scratch,
        root: &Position,
        attacker: Color,
        limits: &Limits,
        stop: &'a AtomicBool,
        progress: &'a mut dyn FnMut(&Progress),
        threshold: Threshold,
    ) -> Search<'a> {
        let start = Instant::now();
        Search {
            tt,
            attacker,
            salt: table_salt(root, attacker),
            nodes: 0,
            children: &mut scratch.children,
            path: Vec::with_capacity(4096),
            path_filter: &mut scratch.path_filter,
            rep_table: &mut scratch.rep_table,
            stop,
            start,
            deadline: limits.time.map(|t| start + t),
            node_limit: limits.nodes,
            aborted: None,
            next_poll: POLL_INTERVAL.min(limits.nodes.unwrap_or(u64::MAX)),
            next_gc_check: GC_CHECK_INTERVAL,
            info_interval: limits.info_interval,
            next_info: limits.info_interval.map(|i| start + i),
            progress,
            max_plies: limits.max_plies.unwrap_or(u32::MAX),
            repetitions: 0,
            max_ply: 0,
            double_count_guard: true,
            threshold,
            best_line: None,
        }
    }

    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            time: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            repetitions: self.repetitions,
        }
    }

    #[cold]
    fn poll(&mut self) {
        // The node limit is honoured exactly (`--nodes 10` searches 10 nodes, not a polling
        // interval's 256).
        self.next_poll = (self.nodes + POLL_INTERVAL).min(self.node_limit.unwrap_or(u64::MAX));
        if self.stop.load(Ordering::Relaxed) {
            self.aborted = Some(UnknownReason::Stopped);
            return;
        }
        let now = Instant::now();
        if let Some(d) = self.deadline {
            if now >= d {
                self.aborted = Some(UnknownReason::Time);
                return;
            }
        }
        if let Some(n) = self.node_limit {
            if self.nodes >= n {
                self.aborted = Some(UnknownReason::Nodes);
                return;
            }
        }
        if let (Some(next), Some(iv)) = (self.next_info, self.info_interval) {
            if now >= next {
                self.next_info = Some(now + iv);
                let p = Progress {
                    stats: self.stats(),
                    pv: self.best_line.clone(),
                };
                (self.progress)(&p);
            }
        }
        if self.nodes >= self.next_gc_check {
            self.next_gc_check = self.nodes + GC_CHECK_INTERVAL;
            if self.tt.hashfull() >= super::tt::GC_TRIGGER {
                let t = Instant::now();
                self.tt.gc();
                log::info!(
                    "table gc at {} nodes: {} ms, hashfull now {}",
                    self.nodes,
                    t.elapsed().as_millis(),
                    self.tt.hashfull()
                );
            }
        }
    }

    /// Forces a poll on the next node (used when leaving long non-search work).
    pub fn check_abort(&mut self) -> bool {
        self.poll();
        self.aborted.is_some()
    }

    #[inline(always)]
    fn key(&self, pos: &Position) -> u64 {
        pos.board_key() ^ self.salt
    }

    /// Hash of the current path extended by (key, hand).
    #[inline(always)]
    fn path_hash_with(&self, key: u64, hand: Hand) -> u64 {
        let top = self.path.last().map_or_else(
            || {
                (self.salt ^ 0x6A09_E667_F3BC_C909)
                    ^ (self.max_plies as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            },
            |p| p.2,
        );
        (top.rotate_left(17) ^ key ^ (hand.0 as u64).wrapping_mul(0xFF51_AFD7_ED55_8CCD))
            .wrapping_mul(0xC4CE_B9FE_1A85_EC53)
            | 1
    }

    #[inline(always)]
    fn rep_known(&self, path_hash: u64) -> bool {
        self.rep_table[path_hash as usize & (REP_TABLE_SIZE - 1)] == path_hash
    }

    #[inline(always)]
    fn rep_record(&mut self) {
        if let Some(&(_, _, ph)) = self.path.last() {
            self.rep_table[ph as usize & (REP_TABLE_SIZE - 1)] = ph;
        }
    }

    #[inline]
    pub fn path_push(&mut self, key: u64, hand: Hand) {
        let ph = self.path_hash_with(key, hand);
        self.path.push((key, hand, ph));
        self.path_filter[(key >> 48) as usize] += 1;
    }

    #[inline]
    pub fn path_pop(&mut self) {
        let (key, _, _) = self.path.pop().expect("path underflow");
        self.path_filter[(key >> 48) as usize] -= 1;
    }

    pub fn path_clear(&mut self) {
        while !self.path.is_empty() {
            self.path_pop();
        }
    }

    /// Whether `t` is the tag of a node on the current path other than its last (the node
    /// being expanded): a child created under such an ancestor is counted twice there.
    #[inline]
    fn tag_is_ancestor(&self, t: u32) -> bool {
        if self.path_filter[(t >> 16) as usize] == 0 {
            return false;
        }
        let n = self.path.len().saturating_sub(1);
        self.path[..n].iter().any(|&(k, _, _)| tag(k) == t)
    }

    /// The position (key, hand) repeats an ancestor's board with an attacker hand no better.
    #[inline]
    fn on_path(&self, key: u64, hand: Hand) -> bool {
        if self.path_filter[(key >> 48) as usize] == 0 {
            return false;
        }
        self.path
            .iter()
            .rev()
            .any(|&(k, h, _)| k == key && h.superior_or_equal(hand))
    }

    /// Proof hand of an AND node (defender in check) where the proof relies on the defender's
    /// current hand: every kind the defender lacks but could drop on a square between the king
    /// and a single checker would be in its hand if we held fewer, so we must keep all of ours.
    fn add_interposition_pieces(&self, pos: &Position, mut ph: Hand) -> Hand {
        let defender = pos.side_to_move();
        let checkers = pos.checkers();
        if checkers.is_empty() || checkers.more_than_one() {
            return ph;
        }
        let Some(ksq) = pos.king_square(defender) else {
            return ph;
        };
        let block = between(ksq, checkers.lsb());
        if block.is_empty() {
            return ph;
        }
        let dh = pos.hand(defender);
        let ah = pos.hand(self.attacker);
        for k in PieceKind::HAND {
            if dh.count(k) == 0
                && ah.count(k) > ph.count(k)
                && drop_targets(pos, defender, k, block).is_nonempty()
            {
                ph.set_count(k, ah.count(k));
            }
        }
        ph
    }

    /// Disproof hand of an OR node with no check at all: more of a kind we already hold adds no
    /// move, a kind we lack might (a drop), so held kinds may grow to the maximum, others stay 0.
    fn no_check_disproof_hand(hand: Hand) -> Hand {
        let mut dh = Hand::EMPTY;
        for k in PieceKind::HAND {
            if hand.has(k) {
                dh.set_count(k, Hand::FULL.count(k));
            }
        }
        dh
    }

    /// The df-pn MID procedure on `pos` (which is on the path already).
    pub fn mid(&mut self, pos: &mut Position, th_pn: u32, th_dn: u32, ply: u32) -> NodeResult {
        if self.aborted.is_none() {
            // Not counted once stopped: a node limit is exact (line readings may still call
            // in before they notice the stop).
            self.nodes += 1;
            if self.nodes >= self.next_poll {
                self.poll();
            }
        }
        let hand = pos.hand(self.attacker);
        let key = self.key(pos);
        let or = pos.side_to_move() == self.attacker;
        let node_start = self.nodes;
        self.max_ply = self.max_ply.max(ply);
        if self.aborted.is_some() {
            return NodeResult {
                pn: 1,
                dn: 1,
                hand,
                len: 0,
                rep: false,
                best: Move::NONE,
            };
        }

        let list = node_moves(pos, or);
        if list.is_empty() {
            return if or {
                let dh = Self::no_check_disproof_hand(hand);
                self.tt.store(key, dh, INF, 0, NO_MATE, Move::NONE, 0, 1);
                NodeResult {
                    pn: INF,
                    dn: 0,
                    hand: dh,
                    len: NO_MATE,
                    rep: false,
                    best: Move::NONE,
                }
            } else {
                let ph = self.add_interposition_pieces(pos, Hand::EMPTY);
                self.tt.store(key, ph, 0, INF, 0, Move::NONE, 0, 1);
                NodeResult {
                    pn: 0,
                    dn: INF,
                    hand: ph,
                    len: 0,
                    rep: false,
                    best: Move::NONE,
                }
            };
        }

        // Expand: one child record per move, initialised from the table or estimated.
        let base = self.children.len();
        let my_tag = tag(key);
        let mut drop_last = [0u16; 81];
        // Start loading every child's table cluster now, so the probes below overlap their
        // cache misses instead of paying them one after another.
        for &m in list.as_slice() {
            self.tt.prefetch(pos.board_key_after(m) ^ self.salt);
        }
        // Children are looked up by the key and hand they would have, without making the move:
        // only a fresh AND child (whose evasions are counted) is visited.
        for &m in list.as_slice() {
            let ck = pos.board_key_after(m) ^ self.salt;
            let chand = if or { pos.mover_hand_after(m) } else { hand };
            let mut c = Child {
                mv: m,
                pn: 1,
                dn: 1,
                hand: chand,
                len: 0,
                rep: false,
                foreign: false,
                delayed: false,
                next: 0,
            };
            if self.on_path(ck, chand) || self.rep_known(self.path_hash_with(ck, chand)) {
                self.repetitions += 1;
                c.pn = INF;
                c.dn = 0;
                c.len = NO_MATE;
                c.rep = true;
            } else if !or && ply + 1 >= self.max_plies {
                // The attacker would move at or past the length limit: no mate within 0 plies
                // from the child, true for any hand (not path-dependent).
                c.pn = INF;
                c.dn = 0;
                c.len = 0;
                c.hand = Hand::FULL;
            } else {
                let p = self
                    .tt
                    .probe(ck, chand, self.max_plies.saturating_sub(ply + 1));
                if p.found {
                    c.pn = p.pn;
                    c.dn = p.dn;
                    c.hand = p.hand;
                    c.len = p.len;
                    c.foreign = self.double_count_guard
                        && p.parent
                            .is_some_and(|t| t != my_tag && self.tag_is_ancestor(t))
                        && p.pn != 0
                        && p.dn != 0;
                } else if or {
                    // Fresh AND child: count the defender's answers (0 = mate in one).
                    pos.do_move(m);
                    let n = pos.evasion_estimate();
                    if n == 0 {
                        let ph = self.add_interposition_pieces(pos, Hand::EMPTY);
                        self.tt.store(ck, ph, 0, INF, 0, Move::NONE, my_tag, 1);
                        c.pn = 0;
                        c.dn = INF;
                        c.hand = ph;
                    } else {
                        c.pn = n.max(p.pn);
                        c.dn = p.dn;
                    }
                    pos.undo_move();
                } else {
                    c.pn = p.pn;
                    c.dn = p.dn;
                }
            }
            let solved_now = if or { c.pn == 0 } else { c.dn == 0 && !c.rep };
            // Delayed expansion (KomoringHeights): the defender's drops onto one square and the
            // attacker's promotion / non-promotion pair are tried one at a time; the next
            // becomes active only once the previous one is refuted in the direction that
            // matters (proven at AND, disproven at OR). Their numbers are then not summed as if
            // they were independent.
            let idx = self.children.len() - base;
            let group_prev = if or {
                // The generator emits the promotion just before the non-promotion.
                if idx > 0 {
                    let p = &self.children[base + idx - 1];
                    (!p.mv.is_drop()
                        && !m.is_drop()
                        && p.mv.from() == m.from()
                        && p.mv.to() == m.to())
                    .then_some(idx - 1)
                } else {
                    None
                }
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

        let result = self.mid_loop(pos, or, key, hand, th_pn, th_dn, ply, base);
        self.children.truncate(base);

        if self.aborted.is_none() {
            let amount = (self.nodes - node_start).min(u32::MAX as u64) as u32;
            if result.pn == 0 || (result.dn == 0 && !result.rep) {
                let best = result.best;
                self.tt.store(
                    key,
                    result.hand,
                    result.pn,
                    result.dn,
                    result.len,
                    best,
                    my_tag_parent(self),
                    amount,
                );
            } else if result.dn == 0 {
                self.rep_record();
            } else {
                self.tt.store(
                    key,
                    hand,
                    result.pn,
                    result.dn,
                    0,
                    Move::NONE,
                    my_tag_parent(self),
                    amount,
                );
            }
        }
        result
    }
}

/// A child's disproof length seen from its parent: one ply more (`NO_MATE` stays).
#[inline(always)]
fn bound_up(len: u16) -> u16 {
    if len == NO_MATE {
        NO_MATE
    } else {
        (len + 1).min(MAX_BOUND)
    }
}

/// The moves of a search node: checks at attacker (OR) nodes, every legal move at defender
/// (AND) nodes.
#[inline]
pub(super) fn node_moves(pos: &Position, or: bool) -> MoveList {
    let mut list = MoveList::new();
    if or {
        pos.check_moves(&mut list);
    } else {
        pos.legal_moves(&mut list);
    }
    list
}

/// Tag of the parent of the node being stored (the previous path entry), 0 at the root.
#[inline(always)]
fn my_tag_parent(s: &Search) -> u32 {
    let n = s.path.len();
    if n >= 2 {
        tag(s.path[n - 2].0)
    } else {
        0
    }
}

impl<'a> Search<'a> {
    /// Aggregates the children [base..] into the node's (pn, dn).
    #[inline]
    fn aggregate(&self, or: bool, base: usize) -> (u32, u32) {
        let ch = &self.children[base..];
        // φ: min over children of the "easy" number; δ: sum of the other, own children summed
        // and confluent (foreign) children by max.
        let mut min_v = INF;
        let mut sum_own: u64 = 0;
        let mut max_foreign: u32 = 0;
        for c in ch.iter().filter(|c| !c.delayed) {
            let (phi, delta) = if or { (c.pn, c.dn) } else { (c.dn, c.pn) };
            min_v = min_v.min(phi);
            if c.foreign {
                max_foreign = max_foreign.max(delta);
            } else {
                sum_own += delta as u64;
            }
        }
        let sum = (sum_own + max_foreign as u64).min(INF as u64) as u32;
        let sum = if min_v == 0 { INF } else { sum.min(INF - 1) };
        if or {
            (min_v, sum)
        } else {
            (sum, min_v)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn mid_loop(
        &mut self,
        pos: &mut Position,
        or: bool,
        key: u64,
        hand: Hand,
        th_pn: u32,
        th_dn: u32,
        ply: u32,
        base: usize,
    ) -> NodeResult {
        loop {
            let (pn, dn) = self.aggregate(or, base);
            if pn == 0 || dn == 0 {
                return self.finish(pos, or, hand, base, pn, dn);
            }
            if pn >= th_pn || dn >= th_dn || self.aborted.is_some() {
                return NodeResult {
                    pn,
                    dn,
                    hand,
                    len: 0,
                    rep: false,
                    best: Move::NONE,
                };
            }
            // Select the child with the smallest φ (pn at OR, dn at AND); ties keep the first.
            let ch = &self.children[base..];
            let mut best = 0;
            let mut best_phi = INF + 1;
            let mut second_phi = INF;
            for (i, c) in ch.iter().enumerate() {
                if c.delayed {
                    continue;
                }
                let phi = if or { c.pn } else { c.dn };
                // Ties go to the child with the larger δ: the check the defender has more
                // trouble refuting, the evasion that is harder to prove (103 famous problems
                // at 2 M nodes: 81 solved against 80 with first-come ties; see the module docs).
                let tie_better = phi == best_phi && {
                    let b = &ch[best];
                    if or {
                        c.dn > b.dn
                    } else {
                        c.pn > b.pn
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
            let second_phi = second_phi.min(INF);
            let c = self.children[base + best];
            let (node_phi_th, node_delta_th, node_delta) = if or {
                (th_pn, th_dn, dn)
            } else {
                (th_dn, th_pn, pn)
            };
            let child_delta = if or { c.dn } else { c.pn };
            let child_phi_th = match self.threshold {
                Threshold::Epsilon(eps) => {
                    let scaled = (second_phi as f64 * (1.0 + eps as f64)).ceil() as u64;
                    let t = scaled.max(second_phi as u64 + 1).min(INF as u64) as u32;
                    node_phi_th.min(t)
                }
            };
            let child_delta_th = if node_delta_th >= INF {
                INF
            } else {
                (node_delta_th - node_delta)
                    .saturating_add(child_delta)
                    .min(INF)
            };
            let (cth_pn, cth_dn) = if or {
                (child_phi_th, child_delta_th)
            } else {
                (child_delta_th, child_phi_th)
            };

            pos.do_move(c.mv);
            let ck = self.key(pos);
            let chand = pos.hand(self.attacker);
            self.path_push(ck, chand);
            let r = self.mid(pos, cth_pn, cth_dn, ply + 1);
            self.path_pop();
            pos.undo_move();

            let slot = &mut self.children[base + best];
            slot.pn = r.pn;
            slot.dn = r.dn;
            slot.hand = r.hand;
            slot.len = r.len;
            slot.rep = r.rep;
            slot.foreign = false;
            self.activate(or, base, best);
            let _ = key;
        }
    }

    /// If child `i` has failed for the side to move at this node (disproven at OR, proven at
    /// AND), its delayed successor takes its turn (and so on down the group).
    #[inline]
    fn activate(&mut self, or: bool, base: usize, mut i: usize) {
        loop {
            let c = self.children[base + i];
            let failed = if or { c.dn == 0 } else { c.pn == 0 };
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

    /// Builds the result of a solved node (pn == 0 or dn == 0) from its children.
    fn finish(
        &mut self,
        pos: &Position,
        or: bool,
        hand: Hand,
        base: usize,
        pn: u32,
        dn: u32,
    ) -> NodeResult {
        let ch = &self.children[base..];
        let mut r = NodeResult {
            pn,
            dn,
            hand,
            len: 0,
            rep: false,
            best: Move::NONE,
        };
        if or {
            if pn == 0 {
                // Proven by the shortest proven child.
                let c = ch
                    .iter()
                    .filter(|c| c.pn == 0)
                    .min_by_key(|c| c.len)
                    .expect("a proven child");
                let mut ph = c.hand;
                if c.mv.is_drop() {
                    ph = plus(ph, c.mv.drop_kind());
                } else {
                    let cap = pos.piece_on(c.mv.to());
                    if !cap.is_empty() {
                        ph = minus(ph, cap.kind().unpromote());
                    }
                }
                r.hand = ph.min(hand);
                r.len = c.len.saturating_add(1);
                r.best = c.mv;
                r.dn = INF;
            } else {
                // Every check fails: the weakest common disproof hand, and the shortest length
                // within which every check is refuted (plus our move).
                let mut dh = Hand::FULL;
                let mut bound = NO_MATE;
                for c in ch {
                    bound = bound.min(bound_up(c.len));
                    let mut h = c.hand;
                    if c.mv.is_drop() {
                        h = plus(h, c.mv.drop_kind());
                    } else {
                        let cap = pos.piece_on(c.mv.to());
                        if !cap.is_empty() {
                            h = minus(h, cap.kind().unpromote());
                        }
                    }
                    dh = dh.min(h);
                    r.rep |= c.rep;
                }
                // A kind we lack might give a checking drop if we had it.
                for k in PieceKind::HAND {
                    if !hand.has(k) {
                        dh.set_count(k, 0);
                    }
                }
                r.hand = dh.max(hand);
                r.len = bound;
                r.pn = INF;
            }
        } else if pn == 0 {
            // Every evasion is mated: the union of proof hands, and interposition pieces.
            let mut ph = Hand::EMPTY;
            let mut len = 0u16;
            for c in ch {
                ph = ph.max(c.hand);
                len = len.max(c.len);
            }
            r.hand = self.add_interposition_pieces(pos, ph).min(hand);
            r.len = len.saturating_add(1);
            r.dn = INF;
        } else {
            // Refuted: prefer a refutation that does not depend on the path, then the one that
            // holds for the longest length.
            let c = ch
                .iter()
                .filter(|c| c.dn == 0)
                .min_by_key(|c| (c.rep, std::cmp::Reverse(c.len)))
                .expect("a disproven child");
            let mut dh = c.hand;
            if c.mv.is_drop() {
                let k = c.mv.drop_kind();
                dh.set_count(k, dh.count(k).min(hand.count(k)));
            }
            r.hand = dh.max(hand);
            r.rep = c.rep;
            r.len = bound_up(c.len);
            r.pn = INF;
        }
        r
    }
}

/// Which side the root search treats as the attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RootKind {
    /// The side to move mates (the usual problem).
    Attacker,
    /// The side to move is being mated: the root is a defender (AND) node.
    Defender,
    /// The side to move is in check but has checking moves: it is searched as the attacker
    /// first, and as the defender if it has no mate.
    AttackerThenDefender,
}

/// The root's kind, decided from the kings and the check (KomoringHeights decides the same way;
/// its `RootIsAndNodeIfChecked` is our `rule`): a side to move without a king can only attack,
/// one whose opponent has no king can only defend; with both kings on the board and the side
/// to move in check, it defends when the rule is on and no legal move of its own gives check
/// (so it cannot mate), and otherwise attacks first (GUIs ask for mate at the defender's turn
/// when stepping through a solution; the problem sets also hold attackers in check that mate).
fn root_kind(pos: &Position, rule: bool) -> RootKind {
    let us = pos.side_to_move();
    if pos.king_square(us).is_none() {
        return RootKind::Attacker;
    }
    if pos.king_square(us.flip()).is_none() {
        return RootKind::Defender;
    }
    if !rule || !pos.in_check() {
        return RootKind::Attacker;
    }
    let mut checks = MoveList::new();
    pos.check_moves(&mut checks);
    if checks.is_empty() {
        RootKind::Defender
    } else {
        RootKind::AttackerThenDefender
    }
}

pub(super) fn solve(
    solver: &mut Solver,
    root: &Position,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> SearchResult {
    let threshold = solver.threshold;
    let kind = root_kind(root, limits.root_is_and_if_checked);
    let us = root.side_to_move();
    let attacker = if kind == RootKind::Defender {
        us.flip()
    } else {
        us
    };
    let mut s = Search::new(
        &mut solver.tt,
        &mut solver.scratch,
        root,
        attacker,
        limits,
        stop,
        progress,
        threshold,
    );
    let mut pos = root.clone();
    let last = &mut solver.last;
    let (mut outcome, mut status) = run_root(&mut s, &mut pos, limits, last);
    if kind == RootKind::AttackerThenDefender && outcome == Outcome::NoMate {
        log::info!("the side to move in check has no mate; searching it as the defender");
        s.set_attacker(root, us.flip());
        (outcome, status) = run_root(&mut s, &mut pos, limits, last);
    }
    let stats = s.stats();
    SearchResult {
        best_mate: s.best_line.clone(),
        outcome,
        stats,
        status,
        defender_root: s.attacker != us,
    }
}

/// Proves or disproves the root (the path holds just the root), then reads and verifies the line.
pub(super) fn prove(s: &mut Search, pos: &mut Position) -> NodeResult {
    s.path_clear();
    let key = s.key(pos);
    s.path_push(key, pos.hand(s.attacker));
    let r = s.mid(pos, INF, INF, 0);
    s.path_pop();
    r
}

/// The last mating line of a solver, with what was proven about it (see `Solver::last`).
pub(super) struct Remembered {
    key: u64,
    attacker: Color,
    /// The strict line, whether it is a minimax reading (see `read_line`), and what was
    /// established about it.
    line: Vec<Move>,
    bounded: bool,
    status: MateStatus,
}

/// Whether a line read now (`bounded`: a minimax reading, see `read_line`) should replace the
/// line kept so far: a minimax reading beats one that follows stored lengths (whose defences may
/// be mated faster than the longest defence), and among equals the shorter wins.
fn better_line(bounded: bool, len: usize, kept_bounded: bool, kept_len: usize) -> bool {
    (bounded && !kept_bounded) || (bounded == kept_bounded && len < kept_len)
}

/// Searches the root, reads its line and, with a post-search, the shortest mate. Returns the
/// outcome and, with a mate, what is established about it (see `MateStatus`). `last` is the
/// solver's previous answer: if it is for this position, the search starts from it (a warm
/// table must never make an answer worse: issue 20, item 1, where a second `go mate` on the
/// same position printed a 187-ply line with a short defence after a 403-ply one), and it is
/// replaced by this answer.
fn run_root(
    s: &mut Search,
    pos: &mut Position,
    limits: &Limits,
    last: &mut Option<Remembered>,
) -> (Outcome, Option<MateStatus>) {
    let user_limit = limits.max_plies.unwrap_or(u32::MAX);
    s.max_plies = user_limit;
    s.best_line = None;
    let or_root = pos.side_to_move() == s.attacker;
    let r = prove(s, pos);
    if let Some(reason) = s.aborted.clone() {
        return (Outcome::Unknown(reason), None);
    }
    if r.dn == 0 {
        if r.len != NO_MATE {
            // Refuted only within the user's length limit.
            return (Outcome::Unknown(UnknownReason::Depth), None);
        }
        return (Outcome::NoMate, None);
    }
    if r.pn != 0 {
        let why = format!("root left unsolved (pn {}, dn {})", r.pn, r.dn);
        return (Outcome::Unknown(UnknownReason::Unverified(why)), None);
    }
    let mut minimax = true;
    let (mut line, mut line_bounded) = match read_line(s, pos, &mut minimax) {
        Ok(l) => l,
        Err(e) => {
            if let Some(reason) = s.aborted.clone() {
                return (Outcome::Unknown(reason), None);
            }
            log::warn!("mate proven but no verified line: {e}");
            return (Outcome::Unknown(UnknownReason::Unverified(e)), None);
        }
    };
    // What is proven: a mate within `upper` plies (the proof's length, or a minimax line's),
    // and none within fewer than `lower` (a mate takes at least one check; a defender-to-move
    // root may be mated already).
    let mut upper = proven_bound(r.len, &line, line_bounded);
    let mut lower = if or_root { 1 } else { 0 };
    let mut longest_defences = false;
    if let Some(m) = last
        .take()
        .filter(|m| m.key == pos.key() && m.attacker == s.attacker)
    {
        upper = upper.min(m.status.upper as usize);
        lower = lower.max(m.status.lower as usize);
        let kept_longest = m.status.longest_defences;
        if kept_longest || better_line(m.bounded, m.line.len(), line_bounded, line.len()) {
            line = m.line;
            line_bounded = m.bounded;
            longest_defences = kept_longest;
        }
    }
    s.best_line = Some(line.clone());
    if limits.post_search != PostSearch::None {
        // Shortest mate: prove or refute a mate within (upper - 2) plies until refuted
        // (KomoringHeights' post-search). Proofs in the table longer than the limit are ignored
        // by `mid`; failures at the limit are stored as "no mate within n plies" (see `tt`) and
        // reused by later rounds. `line_bounded`: the line came from the minimax reading, so
        // its length is a proven bound, never below the true minimum; such a line is kept over
        // one that follows stored lengths.
        while upper >= lower + 2 {
            let limit = (upper - 2) as u32;
            s.max_plies = limit.min(user_limit);
            let r = prove(s, pos);
            if s.aborted.is_some() {
                log::info!("stopped while looking for a mate shorter than {upper}");
                break;
            }
            if r.pn != 0 {
                log::debug!("no mate within {limit} plies: {upper} is the shortest");
                if r.dn == 0 && limit < user_limit {
                    lower = upper;
                }
                break;
            }
            if l_is_stuck(r.len as usize, limit) {
                break;
            }
            // A mate within the limit is proven, whether or not its line can be read.
            upper = upper.min(r.len as usize);
            match read_line(s, pos, &mut minimax) {
                Ok((l, bounded)) => {
                    log::debug!("mate within {limit}: found {} plies", l.len());
                    upper = upper.min(proven_bound(r.len, &l, bounded));
                    if better_line(bounded, l.len(), line_bounded, line.len()) {
                        line = l;
                        line_bounded = bounded;
                        longest_defences = false;
                        s.best_line = Some(line.clone());
                    }
                }
                Err(e) => {
                    log::info!("shorter mate proven but its line was not read: {e}");
                    break;
                }
            }
        }
    }
    s.max_plies = user_limit;
    // Every defence of the line a longest one: read with a proven refutation of every shorter
    // mate at each defence (needs the minimum), or no choice at any defence.
    longest_defences = longest_defences || forced_defences(pos, &line, or_root);
    if lower >= upper && !longest_defences && line_bounded && s.aborted.is_none() {
        longest_defences = pv::defences_longest(s, pos, &line, upper);
    }
    let established = longest_defences && line.len() == upper;
    if lower >= upper && !established && s.aborted.is_none() {
        match pv::extract_exact(s, pos, upper) {
            Ok((l, exact)) => {
                line = l;
                line_bounded = true;
                longest_defences = exact;
                s.best_line = Some(line.clone());
            }
            Err(e) => log::info!("could not read a line of the proven length {upper}: {e}"),
        }
    }
    let mut status = MateStatus {
        upper: upper as u32,
        lower: lower as u32,
        longest_defences,
        line_len: line.len() as u32,
        composed: false,
    };
    *last = Some(Remembered {
        key: pos.key(),
        attacker: s.attacker,
        line: line.clone(),
        bounded: line_bounded,
        status: status.clone(),
    });
    if limits.post_search == PostSearch::Composer && s.aborted.is_none() {
        let composed = pv::compose(s, pos, &line, 0);
        match pv::verify_composed(pos, &composed, s.attacker) {
            Ok(()) if s.aborted.is_none() => {
                if composed != line {
                    // Replaced defences were chosen by reading, not proven longest.
                    status.longest_defences = false;
                    status.composed = true;
                }
                return (Outcome::Mate(composed), Some(status));
            }
            Ok(()) => log::info!("stopped while composing; returning the strict line"),
            Err(e) => log::warn!("composed line failed verification ({e}); strict line kept"),
        }
    }
    (Outcome::Mate(line), Some(status))
}

/// Whether the defender has a single legal move at every one of its turns on `line` (then every
/// defence is trivially the longest).
fn forced_defences(root: &Position, line: &[Move], or_root: bool) -> bool {
    let mut pos = root.clone();
    for (i, &m) in line.iter().enumerate() {
        let defender_moves = (i % 2 == 1) == or_root;
        if defender_moves && pos.legal_move_list().len() != 1 {
            return false;
        }
        pos.do_move(m);
    }
    true
}

/// Most positions one minimax reading may visit (memory: see `read_line`).
const MINIMAX_MAX_POSITIONS: usize = 1_000_000;

/// Reads the mating line after a proof: by minimax over the stored proofs (`pv::read_minimax`:
/// its length is the length the attacker can force with them, a proven bound that is never
/// below the true minimum), or, when the table lacks a proof on the way, by following stored
/// lengths and proving lost nodes again (`pv::extract`; its defences may be mated faster than
/// the proof's length, so its length bounds nothing).
/// Returns the line and whether it is a minimax reading. Once a minimax reading
/// has given up on its budget, `minimax` is cleared and later calls of the same solve follow
/// stored lengths at once: each round of the shortest-mate search would otherwise spend the
/// whole budget again (a 353-ply problem spent most of 30 s so).
fn read_line(
    s: &mut Search,
    pos: &mut Position,
    minimax: &mut bool,
) -> Result<(Vec<Move>, bool), String> {
    if *minimax {
        // Reading is bounded absolutely: its memo takes about 40 bytes a position, and the
        // process must stay within the table size plus 64 MB. The budget is not tied to this
        // search's nodes: with a warm table (a second `go mate` on the same position) the
        // proofs were built by an earlier search, and a budget of half of this one's few nodes
        // gave up on the reading, so the answer fell back to stored lengths and printed a
        // 187-ply line with a short defence where the cold search had printed 403 (issue 20,
        // item 1).
        match pv::read_minimax(s, pos, MINIMAX_MAX_POSITIONS) {
            Ok(l) => return Ok((l, true)),
            Err(gave_up) => *minimax = !gave_up,
        }
        log::debug!("minimax reading failed; following stored lengths");
    }
    pv::extract(s, pos).map(|l| (l, false))
}

/// The shortest mate proven so far: the proof's length, or a minimax line's if shorter.
fn proven_bound(proof_len: u16, line: &[Move], minimax: bool) -> usize {
    let proof_len = proof_len as usize;
    if minimax {
        proof_len.min(line.len())
    } else {
        proof_len
    }
}

/// The proof claims a length over the limit it was searched with: stop rather than loop.
fn l_is_stuck(proven_len: usize, limit: u32) -> bool {
    proven_len > limit as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve_none(solver: &mut Solver, sfen: &str) -> SearchResult {
        let pos = Position::from_sfen(sfen).unwrap();
        let limits = Limits {
            nodes: Some(1_000_000),
            post_search: PostSearch::None,
            ..Limits::default()
        };
        solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {})
    }

    const BRIEF: &str = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1";

    /// Issue 20, item 3: `--threshold kh` looped for good in the shortest-mate rounds; the rule
    /// is gone, and the default rule's post-search ends on the same problem.
    #[test]
    fn kh_threshold_dropped_and_post_search_ends_item3() {
        assert_eq!(Threshold::parse("kh"), None);
        assert_eq!(
            Threshold::parse("epsilon:0.5"),
            Some(Threshold::Epsilon(0.5))
        );
        let mut solver = Solver::new(16);
        let pos = Position::from_sfen(BRIEF).unwrap();
        let limits = Limits {
            nodes: Some(2_000_000),
            ..Limits::default()
        };
        let r = solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        assert!(
            matches!(&r.outcome, Outcome::Mate(l) if l.len() == 9),
            "{:?}",
            r.outcome
        );
        assert!(r.status.unwrap().established());
    }

    /// Issue 20, item 7: `--nodes 10` searched 256 nodes (the polling interval).
    #[test]
    fn node_limit_is_exact_item7() {
        let mut solver = Solver::new(16);
        let pos = Position::from_sfen(BRIEF).unwrap();
        for n in [1, 10, 300] {
            let limits = Limits {
                nodes: Some(n),
                ..Limits::default()
            };
            let r = solver.solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
            assert_eq!(r.stats.nodes, n);
            if n < 100 {
                assert_eq!(r.outcome, Outcome::Unknown(UnknownReason::Nodes));
            } else {
                // Mate proven, then stopped in the shortest-mate rounds: not minimal.
                assert!(!r.status.unwrap().minimal());
            }
            solver.clear();
        }
    }

    /// Issue 20, item 2: a search stopped during the shortest-mate rounds returned its line
    /// with nothing said about it. The status says the shortest is not proven.
    #[test]
    fn stopped_shortest_search_reports_an_interval_item2() {
        let mut solver = Solver::new(16);
        let pos = Position::from_sfen(BRIEF).unwrap();
        let first = solver.solve(
            &pos,
            &Limits {
                post_search: PostSearch::None,
                ..Limits::default()
            },
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let Outcome::Mate(line) = first.outcome else {
            panic!("{:?}", first.outcome)
        };
        let st = first.status.unwrap();
        // Without a post-search nothing shorter was refuted.
        assert!(!st.minimal() && !st.established(), "{st:?}");
        assert!(
            st.describe().contains("shortest mate not proven"),
            "{}",
            st.describe()
        );
        assert_eq!(st.line_len as usize, line.len());
    }

    /// Issue 20, item 8: a defender-to-move root (the attacker has no king) is searched as a
    /// defender node; the line starts with the defender's move and has even length.
    #[test]
    fn defender_to_move_root_item8() {
        // After B*1c of the example: White to move, Black has no king.
        let mut pos =
            Position::from_sfen("7l1/9/4g1+P2/6S1g/6k2/5ppp1/9/9/9 b BGS2rbg2s4n3l14p 1").unwrap();
        pos.do_move(Move::from_usi("B*1c").unwrap());
        let mut solver = Solver::new(16);
        let r = solver.solve(
            &pos,
            &Limits::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(r.defender_root);
        let Outcome::Mate(line) = r.outcome else {
            panic!("{:?}", r.outcome)
        };
        assert_eq!(line.len() % 2, 0);
        pv::verify(&pos, &line, pos.side_to_move().flip()).unwrap();
        assert!(r.status.unwrap().established());
    }

    fn stored_disproof(solver: &Solver, sfen: &str) -> bool {
        let pos = Position::from_sfen(sfen).unwrap();
        let key = pos.board_key() ^ material_salt(&pos);
        let p = solver.tt.probe(key, pos.hand(pos.side_to_move()), u32::MAX);
        p.found && p.dn == 0
    }

    /// GHI (Kishimoto & Müller 2004): a failure that comes only from repeating a position of
    /// the current path holds on that path only and must never become a table disproof, or a
    /// later search reaching the same position by another path would inherit it. Constructed
    /// perpetual check (dragon against a cornered king: every line of checks repeats): the
    /// answer is no mate, the search meets repetitions, and neither the root nor the position
    /// after the first check and answer is stored as disproven. Storing repetition results
    /// (the GHI bug) fails this test.
    #[test]
    fn repetition_failures_are_not_stored_as_disproofs() {
        let root = "8k/7s1/6+R1p/9/9/9/9/9/9 b r2b4g3s4n4l16p 1";
        let mut solver = Solver::new(1);
        let r = solve_none(&mut solver, root);
        assert!(matches!(r.outcome, Outcome::NoMate), "{:?}", r.outcome);
        assert!(r.stats.repetitions > 0, "the search met no repetition");
        assert!(!stored_disproof(&solver, root), "root disproof stored");
        // Every attacker-to-move position two plies down whose failure is path-dependent.
        let pos = Position::from_sfen(root).unwrap();
        let mut leaked = vec![];
        let mut checks = MoveList::new();
        pos.check_moves(&mut checks);
        for &c in checks.as_slice() {
            let mut p = pos.clone();
            p.do_move(c);
            for &d in p.legal_move_list().as_slice() {
                let mut q = p.clone();
                q.do_move(d);
                let sfen = q.to_sfen();
                if stored_disproof(&solver, &sfen) {
                    // Stored disproofs must be path-independent: searched alone as a root, the
                    // position must be disproven and stored as such there too.
                    let mut fresh = Solver::new(1);
                    let f = solve_none(&mut fresh, &sfen);
                    if !matches!(f.outcome, Outcome::NoMate) || !stored_disproof(&fresh, &sfen) {
                        leaked.push(sfen);
                    }
                }
            }
        }
        assert!(
            leaked.is_empty(),
            "path-dependent disproofs stored: {leaked:?}"
        );
    }
}
