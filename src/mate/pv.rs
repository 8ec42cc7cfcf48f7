//! Reading the mating line out of the table, and verifying it by replay before anyone sees it.
//!
//! At attacker nodes we follow the proven check with the shortest stored length, at defender
//! nodes the proven evasion with the longest; an entry missing from the table (replaced, or
//! collected) is proven again on the spot. The line is then replayed from the root with the full
//! legal move generator: every attacker move legal and checking, every defender move legal, the
//! final position checkmate. A line that fails is never returned.

use super::dfpn::{node_moves, Search};
use super::tt::INF;
use crate::shogi::{Color, Move, MoveList, Position};
use std::collections::{HashMap, HashSet};

/// Longest line we are willing to read (far above any known problem).
const MAX_LINE: usize = 20_000;

/// Backtracks allowed while reading one line (each drops one move of the line and bans it).
const MAX_BACKTRACKS: usize = 10_000;

pub(super) fn extract(s: &mut Search, root: &Position) -> Result<Vec<Move>, String> {
    let mut pos = root.clone();
    let mut line: Vec<Move> = Vec::new();
    // Keys of the positions on the line (ply 0 ..= line.len() once pushed).
    let mut seen: Vec<u64> = Vec::new();
    // Checks ruled out at each attacker ply of the current line (after a dead end below them).
    let mut banned: Vec<Vec<Move>> = Vec::new();
    let mut backtracks = 0usize;
    loop {
        if line.len() > MAX_LINE {
            return Err(format!("line longer than {MAX_LINE} plies"));
        }
        banned.resize_with(line.len() + 1, Vec::new);
        let failure = if seen.contains(&pos.key()) {
            Some(format!("line repeats a position at ply {}", line.len()))
        } else {
            seen.push(pos.key());
            let or = pos.side_to_move() == s.attacker;
            let list = node_moves(&pos, or);
            if list.is_empty() {
                if !or {
                    break;
                }
                Some(format!("no check at ply {} of a proven line", line.len()))
            } else {
                match choose(
                    s,
                    root,
                    &mut pos,
                    &line,
                    &list,
                    or,
                    &seen,
                    &banned[line.len()],
                ) {
                    Ok(m) => {
                        line.push(m);
                        pos.do_move(m);
                        None
                    }
                    Err(e) => {
                        seen.pop();
                        Some(e)
                    }
                }
            }
        };
        let Some(why) = failure else { continue };
        if s.aborted.is_some() {
            return Err("stopped while reading the line".into());
        }
        // A dead end (a circle back onto the line, or a node the table cannot prove on this
        // path): stored proofs are sound one by one, but a proof may pass through a position
        // that is also an ancestor here, which this line cannot use. Take back the attacker's
        // last move (and the defence after it) and read another check in its place; the
        // defender's choices are never restricted, so every defence shown stays its best.
        if pos.side_to_move() == s.attacker {
            // Dead end at an attacker node: the defence that led here goes back first.
            if line.pop().is_none() {
                return Err(why);
            }
            pos.undo_move();
            seen.pop();
        }
        let Some(m) = line.pop() else {
            return Err(why);
        };
        backtracks += 1;
        if backtracks > MAX_BACKTRACKS {
            return Err(format!("{why} (after {MAX_BACKTRACKS} backtracks)"));
        }
        log::debug!("pv: {why}; taking back the check {m} at ply {}", line.len());
        pos.undo_move();
        seen.pop();
        banned.truncate(line.len() + 1);
        banned[line.len()].push(m);
    }
    verify(root, &line, s.attacker)?;
    Ok(line)
}

/// The move to extend `line` with at `pos` (not a banned one), proving again what the table
/// lost on the way (with the line as the search path).
#[allow(clippy::too_many_arguments)]
fn choose(
    s: &mut Search,
    root: &Position,
    pos: &mut Position,
    line: &[Move],
    list: &MoveList,
    or: bool,
    seen: &[u64],
    banned: &[Move],
) -> Result<Move, String> {
    for attempt in 0..3 {
        match pick(s, pos, list, or, seen, banned) {
            Pick::Chosen(m) => return Ok(m),
            Pick::Refuted(m) => {
                return Err(format!(
                    "defence {m} refutes the stored proof at ply {}",
                    line.len()
                ))
            }
            Pick::Missing(missing) => {
                if s.check_abort() {
                    return Err("stopped while reading the line".into());
                }
                log::debug!("pv: re-proving at ply {} (attempt {attempt})", line.len());
                if or {
                    reprove(s, root, line, None);
                } else {
                    for m in missing {
                        reprove(s, root, line, Some(m));
                    }
                }
                if s.aborted.is_some() {
                    return Err("stopped while reading the line".into());
                }
            }
        }
    }
    Err(format!("could not re-prove ply {}", line.len()))
}

enum Pick {
    Chosen(Move),
    Refuted(Move),
    Missing(Vec<Move>),
}

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
/// A defence whose position has no readable proof (an entry replaced or collected) is proven
/// again with the reading path as the search path, up to `MAX_REPROVES` times. `None` when the
/// table still lacks a proof on the way (the caller falls back to `extract`) or when a defence
/// would repeat a position of the reading path; `Err(true)` when it gave up: more than
/// `budget` positions visited, or the search stopped.
pub(super) fn read_minimax(
    s: &mut Search,
    root: &Position,
    budget: usize,
) -> Result<Vec<Move>, bool> {
    let mut m = Minimax {
        memo: HashMap::new(),
        unproven: HashSet::new(),
        path: Vec::new(),
        moves: Vec::new(),
        root: root.clone(),
        gap: false,
        reproves: 0,
        low: usize::MAX,
        visits: 0,
        budget,
        failed: false,
    };
    let mut pos = root.clone();
    let or_root = pos.side_to_move() == s.attacker;
    let v = m.value(s, &mut pos, or_root);
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
    match verify(root, &line, s.attacker) {
        Ok(()) => Ok(line),
        Err(e) => {
            log::warn!("minimax line failed verification: {e}");
            Err(false)
        }
    }
}

struct Minimax {
    /// Position key → (plies to mate, attacker's spare pieces at the end, move to play).
    memo: HashMap<u64, (u16, u32, Move)>,
    /// Positions with no usable proof from here (forgotten after a table gap is proven again).
    unproven: HashSet<u64>,
    path: Vec<u64>,
    /// The moves from the root to the current node.
    moves: Vec<Move>,
    root: Position,
    /// The last `child_value` failed for want of a proof (not by repetition).
    gap: bool,
    reproves: usize,
    /// Smallest path index that a repetition met below the current node returned to.
    low: usize,
    visits: usize,
    budget: usize,
    failed: bool,
}

/// The stored proof length of `pos`, if the table proves it.
fn stored_proof(s: &Search, pos: &Position) -> Option<u16> {
    let p =
        s.tt.probe(pos.board_key() ^ s.salt, pos.hand(s.attacker), u32::MAX);
    (p.pn == 0).then_some(p.len)
}

/// Table gaps proven again during one minimax reading (each is a df-pn search).
const MAX_REPROVES: usize = 2048;

impl Minimax {
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
        let proven = stored_proof(s, pos).is_some()
            || if or {
                pos.mate_in_one().is_some()
            } else {
                pos.is_checkmated()
            };
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
        if self.visits > self.budget || (self.visits.is_multiple_of(4096) && s.check_abort()) {
            self.failed = true;
            return None;
        }
        let list = node_moves(pos, or);
        if !or && list.is_empty() {
            let spare = pos.hand(s.attacker).total();
            self.memo.insert(key, (0, spare, Move::NONE));
            return Some((0, spare));
        }
        let me = self.path.len();
        let outer_low = std::mem::replace(&mut self.low, usize::MAX);
        self.path.push(key);
        // (plies, spare, move)
        let mut best: Option<(u16, u32, Move)> = None;
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
            if v.is_none() && !or && self.gap && self.reproves < MAX_REPROVES && !self.failed {
                // A table gap below a defence (an entry replaced or collected): prove that
                // position again with the reading path as the search path, then read it anew.
                self.reproves += 1;
                self.moves.pop();
                pos.undo_move();
                search_at(s, &self.root, &self.moves, Some(m), s.max_plies);
                pos.do_move(m);
                self.moves.push(m);
                self.unproven.clear();
                v = self.child_value(s, pos, !or, me);
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
        // mating strategy from here whatever the path, so it is.
        match best {
            Some(b) => {
                self.memo.insert(key, b);
            }
            None if low >= me => {
                self.unproven.insert(key);
            }
            None => {}
        }
        best.map(|(len, spare, _)| (len, spare))
    }
}

/// Chooses the next move of the line. Stored lengths are upper bounds that hand dominance can
/// make inconsistent (a proof stored for a stronger hand says nothing exact about this one), so
/// following "shortest" blindly can walk in a circle; a move back to a position already on the
/// line is therefore never chosen by the attacker and chosen by the defender only when nothing
/// else is proven. When the attacker has no proven check left that avoids the line, the node is
/// proven again with the line as the search path, where repetitions count as failures.
fn pick(
    s: &mut Search,
    pos: &mut Position,
    list: &MoveList,
    or: bool,
    seen: &[u64],
    banned: &[Move],
) -> Pick {
    // (move, stored length, is a drop, repeats the line)
    let mut best: Option<(Move, u16, bool, bool)> = None;
    let mut missing = Vec::new();
    for &m in list.as_slice() {
        pos.do_move(m);
        let key = pos.board_key() ^ s.salt;
        let p = s.tt.probe(key, pos.hand(s.attacker), u32::MAX);
        // Only proven moves can be chosen; the line scan is skipped for the rest.
        let repeats = p.pn == 0 && seen.contains(&pos.key());
        pos.undo_move();
        if p.pn == 0 {
            if (or && repeats) || banned.contains(&m) {
                continue;
            }
            let better = match best {
                None => true,
                Some((_, l, drop, rep)) => {
                    if or {
                        p.len < l
                    } else if rep != repeats {
                        rep
                    } else {
                        // Longest defence; on equal length a board move before a drop.
                        p.len > l || (p.len == l && drop && !m.is_drop())
                    }
                }
            };
            if better {
                best = Some((m, p.len, m.is_drop(), repeats));
            }
        } else if !or {
            if p.dn == 0 {
                return Pick::Refuted(m);
            }
            missing.push(m);
        }
    }
    match best {
        Some((m, _, _, _)) if or || missing.is_empty() => Pick::Chosen(m),
        _ => Pick::Missing(missing),
    }
}

/// Runs `mid` on the node at the end of `line` + `extra` with the line as path and the given
/// absolute length limit (plies from the root); restores the limit afterwards.
fn search_at(
    s: &mut Search,
    root: &Position,
    line: &[Move],
    extra: Option<Move>,
    max_plies: u32,
) -> super::dfpn::NodeResult {
    let saved = s.max_plies;
    s.max_plies = max_plies;
    let mut pos = root.clone();
    s.path_clear();
    let k = pos.board_key() ^ s.salt;
    s.path_push(k, pos.hand(s.attacker));
    for &m in line.iter().chain(extra.iter()) {
        pos.do_move(m);
        let k = pos.board_key() ^ s.salt;
        s.path_push(k, pos.hand(s.attacker));
    }
    let ply = (line.len() + extra.is_some() as usize) as u32;
    let r = s.mid(&mut pos, INF, INF, ply);
    s.path_clear();
    s.max_plies = saved;
    r
}

/// Reads a line of exactly `target` plies once the shortest mate is known to be `target`
/// (mate within `target` proven, within `target - 2` refuted). Stored lengths are only upper
/// bounds, so at each defender node with `rem` plies to go we take a defence that provably has
/// no mate within `rem - 3` plies (a search limited to `target - 2` plies from the root fails
/// there): the defender's longest defence. At attacker nodes, a check proven within `rem - 1`.
///
/// Why that proves every defence longest: with V the true minimax length, V(root) = `target`.
/// A check proven within `rem - 1` keeps V = rem - 1 (it cannot be less: V drops by at most one
/// per attacker move); a defence with no mate within `rem - 3` has V ≥ rem - 1, and no defence
/// has more, so it is a longest one. Returns the line and whether every defence was so proven
/// (false when a defence was taken without its refutation: the search stopped, or found none).
pub(super) fn extract_exact(
    s: &mut Search,
    root: &Position,
    target: usize,
) -> Result<(Vec<Move>, bool), String> {
    let mut pos = root.clone();
    let mut line: Vec<Move> = Vec::with_capacity(target);
    let mut exact = true;
    while line.len() < target {
        let rem = target - line.len();
        let or = pos.side_to_move() == s.attacker;
        let list = node_moves(&pos, or);
        if list.is_empty() {
            return Err(format!("line ends at ply {} before {target}", line.len()));
        }
        // Children with their stored proof lengths (None: not proven in the table).
        let probe = |s: &Search, pos: &mut Position, m: Move| {
            pos.do_move(m);
            let p =
                s.tt.probe(pos.board_key() ^ s.salt, pos.hand(s.attacker), u32::MAX);
            pos.undo_move();
            (p.pn == 0).then_some(p.len as usize)
        };
        let chosen = if or {
            let mut pick = None;
            for attempt in 0..2 {
                let mut best: Option<(Move, usize)> = None;
                for &m in list.as_slice() {
                    if let Some(l) = probe(s, &mut pos, m) {
                        if l < rem && best.is_none_or(|(_, b)| l < b) {
                            best = Some((m, l));
                        }
                    }
                }
                if let Some((m, _)) = best {
                    pick = Some(m);
                    break;
                }
                if attempt == 0 {
                    search_at(s, root, &line, None, target as u32);
                }
                if s.aborted.is_some() {
                    return Err("stopped while reading the line".into());
                }
            }
            pick.ok_or_else(|| format!("no check proven within {} at ply {}", rem - 1, line.len()))?
        } else {
            let mut cands: Vec<(Move, usize)> = list
                .iter()
                .map(|&m| (m, probe(s, &mut pos, m).unwrap_or(usize::MAX)))
                .collect();
            // Longest stored first; on equal length a board move before a drop.
            cands.sort_by_key(|&(m, l)| (std::cmp::Reverse(l), m.is_drop()));
            let mut pick = None;
            if rem < 3 {
                // Every defence is mated by the next check: all equally long.
                pick = Some(cands[0].0);
            } else {
                for &(m, _) in &cands {
                    let r = search_at(s, root, &line, Some(m), (target - 2) as u32);
                    if s.aborted.is_some() {
                        return Err("stopped while reading the line".into());
                    }
                    if r.dn == 0 {
                        pick = Some(m);
                        break;
                    }
                }
            }
            pick.unwrap_or_else(|| {
                exact = false;
                cands[0].0
            })
        };
        line.push(chosen);
        pos.do_move(chosen);
    }
    verify(root, &line, s.attacker)?;
    Ok((line, exact))
}

/// Whether every defence of `line`, a minimax reading of exactly `target` plies when the
/// shortest mate is known to be `target`, is a longest defence: each must have no mate within
/// `rem - 3` plies (the argument of `extract_exact`; the minimax reading already gives every
/// attacker move a proof within `rem - 1`). Keeps the reading's own choices (its spare-pieces
/// tie-break among equally long defences), which `extract_exact` would not.
pub(super) fn defences_longest(
    s: &mut Search,
    root: &Position,
    line: &[Move],
    target: usize,
) -> bool {
    if line.len() != target {
        return false;
    }
    let mut pos = root.clone();
    for (i, &m) in line.iter().enumerate() {
        let rem = target - i;
        if pos.side_to_move() != s.attacker && rem >= 3 {
            let r = search_at(s, root, &line[..i], Some(m), (target - 2) as u32);
            if s.aborted.is_some() || r.dn != 0 {
                return false;
            }
        }
        pos.do_move(m);
    }
    true
}

/// Proves the node at the end of `line` (plus `extra`, if given) again, with the line as path.
fn reprove(s: &mut Search, root: &Position, line: &[Move], extra: Option<Move>) {
    let limit = s.max_plies;
    search_at(s, root, line, extra, limit);
}

/// Replays `line` from `root` with the full legal move generator: the checks of
/// `verify_composed`, and the final position checkmate (`attacker` mates).
pub fn verify(root: &Position, line: &[Move], attacker: Color) -> Result<(), String> {
    verify_composed(root, line, attacker)?;
    let mut pos = root.clone();
    for &m in line {
        pos.do_move(m);
    }
    if !pos.in_check() || !pos.legal_move_list().is_empty() {
        return Err("final position is not checkmate".into());
    }
    Ok(())
}

/// Whether the defender's move `rest[0]` (from `pos`, defender to move) is a useless
/// interposition (無駄合) in the line `rest`: it is a drop or a board move onto a square between
/// the single checking piece and the king, the attacker captures it at once, and the captured
/// kind is still in the attacker's hand at the end of the line, at least as many as right after
/// the capture, so the mate never needed it.
///
/// Not covered: interpositions the attacker does not capture at once, pieces that are dropped
/// and captured back later in the line (counted as "still spare"), and the composers' finer
/// distinctions (e.g. an interposition that changes the attacker's best continuation).
pub(super) fn is_useless_interposition(pos: &Position, rest: &[Move]) -> bool {
    use crate::shogi::attacks::between;
    if rest.len() < 2 {
        return false;
    }
    let d = rest[0];
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return false;
    }
    let defender = pos.side_to_move();
    let Some(ksq) = pos.king_square(defender) else {
        return false;
    };
    if !between(ksq, checkers.lsb()).has(d.to()) {
        return false;
    }
    if !d.is_drop() && d.from() == ksq {
        return false;
    }
    if rest[1].is_drop() || rest[1].to() != d.to() {
        return false;
    }
    let kind = if d.is_drop() {
        d.drop_kind()
    } else {
        pos.piece_on(d.from()).kind().unpromote()
    };
    let attacker = defender.flip();
    let mut p = pos.clone();
    p.do_move(rest[0]);
    p.do_move(rest[1]);
    let after_capture = p.hand(attacker).count(kind);
    for &m in &rest[2..] {
        p.do_move(m);
    }
    p.hand(attacker).count(kind) >= after_capture
}

/// Pieces left in the attacker's hand after playing `seq` from `pos` (駒余り when non-zero).
fn spare_after(pos: &Position, seq: &[Move], attacker: crate::shogi::Color) -> u32 {
    let mut p = pos.clone();
    for &m in seq {
        p.do_move(m);
    }
    p.hand(attacker).total()
}

/// Lines up to this length get the spare-pieces tie-break at every defender node (it reads one
/// line per defence from the table).
const TIE_BREAK_MAX_LINE: usize = 201;

/// The composers' answer from `pos` (attacker to move) given a strict line `line` from it:
/// useless interpositions are dropped in favour of the defender's longest real defence, and
/// where every defence is a useless interposition the line ends at the attacker's check. Among
/// defences of equal length the defender prefers the one that leaves the attacker no spare
/// pieces (fewest pieces in hand at the end).
pub(super) fn compose(s: &mut Search, pos: &Position, line: &[Move], depth: u32) -> Vec<Move> {
    let attacker = s.attacker;
    let mut out = Vec::with_capacity(line.len());
    let mut p = pos.clone();
    for i in 0..line.len() {
        let defence = p.side_to_move() != attacker;
        let useless = defence && depth < 64 && is_useless_interposition(&p, &line[i..]);
        let tie_break = defence && depth < 64 && line.len() - i <= TIE_BREAK_MAX_LINE;
        if useless || tie_break {
            let rest = &line[i..];
            // (line from here, length, spare pieces at its end)
            let mut best: Option<(Vec<Move>, usize, u32)> = if useless {
                None
            } else {
                Some((rest.to_vec(), rest.len(), spare_after(&p, rest, attacker)))
            };
            let evasions = p.legal_move_list();
            for &e in evasions.as_slice() {
                if e == line[i] || s.aborted.is_some() {
                    continue;
                }
                p.do_move(e);
                let alt = extract(s, &p);
                p.undo_move();
                let Ok(alt) = alt else { continue };
                let mut full = Vec::with_capacity(alt.len() + 1);
                full.push(e);
                full.extend_from_slice(&alt);
                if is_useless_interposition(&p, &full) {
                    continue;
                }
                let spare = spare_after(&p, &full, attacker);
                let better = match &best {
                    None => true,
                    Some((_, len, sp)) => {
                        // Without a useless defence to replace, only an equally long defence
                        // with fewer spare pieces may take the current one's place.
                        if useless {
                            full.len() > *len || (full.len() == *len && spare < *sp)
                        } else {
                            full.len() == *len && spare < *sp
                        }
                    }
                };
                if better {
                    let l = full.len();
                    best = Some((full, l, spare));
                }
            }
            match best {
                Some((b, _, _)) if useless || b[0] != line[i] => {
                    p.do_move(b[0]);
                    out.push(b[0]);
                    out.extend(compose(s, &p, &b[1..], depth + 1));
                    return out;
                }
                Some(_) => {}
                None => return out,
            }
        }
        out.push(line[i]);
        p.do_move(line[i]);
    }
    out
}

/// Replays a composed line: every move legal, every move of `attacker` a check, the last move
/// the attacker's, and at the end either checkmate or only useless interpositions left (not
/// re-checked here). The root's side to move starts the line: the attacker, or the defender at
/// a defender-to-move root (then the line has even length; 0 when it is mated already).
pub fn verify_composed(root: &Position, line: &[Move], attacker: Color) -> Result<(), String> {
    let or_root = root.side_to_move() == attacker;
    if line.len().is_multiple_of(2) == or_root {
        return Err(format!(
            "line of {} plies does not end with the attacker's move",
            line.len()
        ));
    }
    let mut pos = root.clone();
    for (i, &m) in line.iter().enumerate() {
        if !pos.legal_move_list().contains(m) {
            return Err(format!("ply {}: {m} is not legal", i + 1));
        }
        let attacking = pos.side_to_move() == attacker;
        pos.do_move(m);
        if attacking && !pos.in_check() {
            return Err(format!("ply {}: attacker move {m} does not check", i + 1));
        }
    }
    Ok(())
}
