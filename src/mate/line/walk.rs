//! Reading a line by one greedy walk from the root, with one of two targets (KomoringHeights
//! reads its lines with one `GetMatePath(n, len, exact)` the same way):
//!
//! - [`Target::Any`]: a mating line. At attacker nodes the proven check with the shortest stored
//!   length, at defender nodes the proven evasion with the longest; an entry missing from the
//!   table (replaced, or collected) is proven again on the spot, and a dead end (a circle back
//!   onto the line, a node the table cannot prove on this path) takes back the last check and
//!   tries another. Its defences may be mated faster than its length: it bounds nothing.
//! - [`Target::Exactly`]`(n)`: once the shortest mate is known to be n plies, a line of exactly
//!   n plies whose every defence is proven longest (see `choose_exact`).
//!
//! Lines are not verified here: the driver replays every line it accepts.

use super::super::dfpn::{node_moves, Search};
use crate::shogi::{Move, MoveList, Position};

/// Longest line we are willing to read (far above any known problem).
const MAX_LINE: usize = 20_000;

/// Backtracks allowed while reading one line (each drops one move of the line and bans it).
const MAX_BACKTRACKS: usize = 10_000;

/// The node a walk chooses a move at: the line from the root to it, and its moves.
#[derive(Clone, Copy)]
struct At<'a> {
    root: &'a Position,
    line: &'a [Move],
    list: &'a MoveList,
    /// The attacker is to move.
    or: bool,
    /// The search's node count when the walk began (its re-proofs' budget: `reprove_budget`).
    walk_start: u64,
}

/// What a walk reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// Any mating line (the table's stored lengths are followed).
    Any,
    /// A line of exactly this many plies, the proven shortest mate, with longest defences.
    Exactly(usize),
}

/// Walks from `root` to the end of a line with `target`. Returns the line and whether every
/// defence on it is proven longest (always false for `Target::Any`; for `Target::Exactly`, false
/// when a defence had to be taken without its proof: the search stopped, or found none).
pub(crate) fn walk(
    s: &mut Search,
    root: &Position,
    target: Target,
) -> Result<(Vec<Move>, bool), String> {
    let mut pos = root.clone();
    let mut line: Vec<Move> = Vec::new();
    // Keys of the positions on the line (ply 0 ..= line.len() once pushed).
    let mut seen: Vec<u64> = Vec::new();
    // Checks ruled out at each attacker ply of the current line (after a dead end below them).
    let mut banned: Vec<Vec<Move>> = Vec::new();
    let mut backtracks = 0usize;
    let mut exact = target != Target::Any;
    let walk_start = s.nodes();
    loop {
        if let Target::Exactly(n) = target {
            if line.len() >= n {
                break;
            }
        }
        if line.len() > MAX_LINE {
            return Err(format!("line longer than {MAX_LINE} plies"));
        }
        banned.resize_with(line.len() + 1, Vec::new);
        // Only the free walk can circle: an exact one gets one ply closer to mate per move.
        let failure = if target == Target::Any && seen.contains(&pos.key()) {
            Some(format!("line repeats a position at ply {}", line.len()))
        } else {
            seen.push(pos.key());
            let or = pos.side_to_move() == s.attacker();
            let list = node_moves(&pos, or);
            if list.is_empty() {
                match target {
                    Target::Any if !or => break,
                    Target::Any => Some(format!("no check at ply {} of a proven line", line.len())),
                    Target::Exactly(n) => {
                        return Err(format!("line ends at ply {} before {n}", line.len()))
                    }
                }
            } else {
                let at = At {
                    root,
                    line: &line,
                    list: &list,
                    or,
                    walk_start,
                };
                let chosen = match target {
                    Target::Any => choose(s, &at, &mut pos, &seen, &banned[line.len()]),
                    Target::Exactly(n) => choose_exact(s, &at, &mut pos, n, &mut exact),
                };
                match chosen {
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
        if target != Target::Any || s.aborted().is_some() {
            return Err(match target {
                Target::Any => "stopped while reading the line".into(),
                Target::Exactly(_) => why,
            });
        }
        // A dead end (a circle back onto the line, or a node the table cannot prove on this
        // path): stored proofs are sound one by one, but a proof may pass through a position
        // that is also an ancestor here, which this line cannot use. Take back the attacker's
        // last move (and the defence after it) and read another check in its place; the
        // defender's choices are never restricted, so every defence shown stays its best.
        if pos.side_to_move() == s.attacker() {
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
        log::debug!(
            "line: {why}; taking back the check {m} at ply {}",
            line.len()
        );
        pos.undo_move();
        seen.pop();
        banned.truncate(line.len() + 1);
        banned[line.len()].push(m);
    }
    Ok((line, exact))
}

/// The next move of an exact walk (`Target::Exactly(target)`), `rem` plies from the end.
/// Stored lengths are only upper bounds, so at each defender node we take a defence that
/// provably has no mate within `rem - 3` plies (a search limited to `target - 2` plies from the
/// root fails there): the defender's longest defence. At attacker nodes, a check proven within
/// `rem - 1`. Clears `exact` when a defence is taken without that proof.
///
/// Why that proves every defence longest: with V the true minimax length, V(root) = `target`.
/// A check proven within `rem - 1` keeps V = rem - 1 (it cannot be less: V drops by at most one
/// per attacker move); a defence with no mate within `rem - 3` has V ≥ rem - 1, and no defence
/// has more, so it is a longest one.
fn choose_exact(
    s: &mut Search,
    at: &At,
    pos: &mut Position,
    target: usize,
    exact: &mut bool,
) -> Result<Move, String> {
    let rem = target - at.line.len();
    // Children with their stored proof lengths (None: not proven in the table).
    let probe = |s: &Search, pos: &mut Position, m: Move| {
        pos.do_move(m);
        let v = s.stored(pos);
        pos.undo_move();
        (v.pn == 0).then_some(v.len as usize)
    };
    if at.or {
        for attempt in 0..2 {
            let mut best: Option<(Move, usize)> = None;
            for &m in at.list.as_slice() {
                if let Some(l) = probe(s, pos, m) {
                    if l < rem && best.is_none_or(|(_, b)| l < b) {
                        best = Some((m, l));
                    }
                }
            }
            if let Some((m, _)) = best {
                return Ok(m);
            }
            if attempt == 0 {
                let r = s.prove_at(at.root, at.line, None, target as u32);
                log::debug!(
                    "exact walk: ply {} ({}) proven again within {target} from the root: pn {} dn {} len {}",
                    at.line.len(),
                    pos.to_sfen(),
                    r.v.pn,
                    r.v.dn,
                    r.v.len
                );
            }
            if s.aborted().is_some() {
                return Err("stopped while reading the line".into());
            }
        }
        return Err(format!(
            "no check proven within {} at ply {}",
            rem - 1,
            at.line.len()
        ));
    }
    let mut cands: Vec<(Move, usize)> = at
        .list
        .iter()
        .map(|&m| (m, probe(s, pos, m).unwrap_or(usize::MAX)))
        .collect();
    // Longest stored first; on equal length a board move before a drop.
    cands.sort_by_key(|&(m, l)| (std::cmp::Reverse(l), m.is_drop()));
    if rem < 3 {
        // Every defence is mated by the next check: all equally long.
        return Ok(cands[0].0);
    }
    for &(m, _) in &cands {
        let r = s.prove_at(at.root, at.line, Some(m), (target - 2) as u32);
        if s.aborted().is_some() {
            return Err("stopped while reading the line".into());
        }
        if r.v.dn == 0 {
            return Ok(m);
        }
    }
    *exact = false;
    Ok(cands[0].0)
}

/// The move to extend `line` with at `pos` (not a banned one), proving again what the table
/// lost on the way (with the line as the search path).
fn choose(
    s: &mut Search,
    at: &At,
    pos: &mut Position,
    seen: &[u64],
    banned: &[Move],
) -> Result<Move, String> {
    for attempt in 0..3 {
        match pick(s, pos, at.list, at.or, seen, banned) {
            Pick::Chosen(m) => return Ok(m),
            Pick::Refuted(m) => {
                return Err(format!(
                    "defence {m} refutes the stored proof at ply {}",
                    at.line.len()
                ))
            }
            Pick::Missing(missing) => {
                if s.check_abort() {
                    return Err("stopped while reading the line".into());
                }
                log::debug!(
                    "pv: re-proving at ply {} (attempt {attempt})",
                    at.line.len()
                );
                if super::reprove_budget(s, s.nodes() - at.walk_start) == 0 {
                    return Err(format!("no re-proof budget left at ply {}", at.line.len()));
                }
                if at.or {
                    reprove(s, at, None);
                } else {
                    for m in missing {
                        reprove(s, at, Some(m));
                    }
                }
                if s.aborted().is_some() {
                    return Err("stopped while reading the line".into());
                }
            }
        }
    }
    Err(format!("could not re-prove ply {}", at.line.len()))
}

enum Pick {
    Chosen(Move),
    Refuted(Move),
    Missing(Vec<Move>),
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
        let p = s.stored(pos);
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

/// Whether every defence of `line`, a minimax reading of exactly `target` plies when the
/// shortest mate is known to be `target`, is a longest defence: each must have no mate within
/// `rem - 3` plies (the argument of `choose_exact`; the minimax reading already gives every
/// attacker move a proof within `rem - 1`). Keeps the reading's own choices (its spare-pieces
/// tie-break among equally long defences), which an exact walk would not.
pub(crate) fn defences_longest(
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
        if pos.side_to_move() != s.attacker() && rem >= 3 {
            let r = s.prove_at(root, &line[..i], Some(m), (target - 2) as u32);
            if s.aborted().is_some() || r.v.dn != 0 {
                return false;
            }
        }
        pos.do_move(m);
    }
    true
}

/// Proves the node at the end of the walk's line (plus `extra`, if given) again, with the line
/// as path (see `line::reprove`).
fn reprove(s: &mut Search, at: &At, extra: Option<Move>) {
    super::reprove(s, at.root, at.line, extra, s.nodes() - at.walk_start);
}
