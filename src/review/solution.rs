//! The line the check judges: the intended line given as USI moves ([`parse_solution`]), or the
//! engine's composer line read again with the check's 無駄合 rule (`reread`), and what is read
//! off a line (its positions, the spare pieces at its end, whether a line that ends in check
//! ends in useless interpositions only).

use super::budget::{exact_mate, Checker};
use super::report::plies;
use super::useless::useless;
use crate::mate::{interposes, is_useless_interposition, PostSearch};
use crate::shogi::{Color, Move, Position};
use std::time::Instant;

/// Parses USI moves from `pos`, each checked legal. `Err` names the first bad one.
pub fn parse_solution(pos: &Position, text: &str) -> Result<Vec<Move>, String> {
    let mut p = pos.clone();
    let mut out = vec![];
    for (i, w) in text.split_whitespace().enumerate() {
        let m = Move::from_usi(w).ok_or_else(|| format!("move {}: '{w}' is not USI", i + 1))?;
        let legal = p.legal_move_list();
        // `from_usi` knows nothing of the piece; the legal move with the same text is the move.
        let Some(&m) = legal
            .as_slice()
            .iter()
            .find(|l| l.to_string() == m.to_string())
        else {
            return Err(format!(
                "move {}: {w} is not legal in {}",
                i + 1,
                p.to_sfen()
            ));
        };
        p.do_move(m);
        out.push(m);
    }
    Ok(out)
}

/// Attacker pieces in hand after `line` from `pos`.
pub(super) fn spare_after(pos: &Position, line: &[Move], attacker: Color) -> u32 {
    let mut p = pos.clone();
    for &m in line {
        p.do_move(m);
    }
    p.hand(attacker).total()
}

/// The attacker's hand after `line` from `pos` (the root's side to move attacks).
pub(super) fn hand_after(pos: &Position, line: &[Move]) -> crate::shogi::Hand {
    let attacker = pos.side_to_move();
    let mut p = pos.clone();
    for &m in line {
        p.do_move(m);
    }
    p.hand(attacker)
}

/// The positions along `line` from `root`, before each ply and after the last.
pub(super) fn positions(root: &Position, line: &[Move]) -> Vec<Position> {
    let mut out = Vec::with_capacity(line.len() + 1);
    let mut p = Position::from_sfen(&root.to_sfen()).unwrap_or_else(|_| root.clone());
    out.push(p.clone());
    for &m in line {
        p.do_move(m);
        out.push(Position::from_sfen(&p.to_sfen()).unwrap_or_else(|_| p.clone()));
    }
    out
}

/// A line that ends in check but not checkmate (the composers' presentation): `Some(true)`
/// when every defence left is an interposition shown useless (captured, the defender is mated
/// at once without the captured piece, see `useless`), `Some(false)` when the defender has a
/// move that is no interposition (a king move, a capture of the checker) or is not in check,
/// `None` when some interposition was not shown useless.
pub(super) fn ends_in_useless(c: &mut Checker, root: &Position, line: &[Move]) -> Option<bool> {
    let mut p = root.clone();
    for &m in line {
        p.do_move(m);
    }
    p.king_square(p.side_to_move())?;
    if p.checkers().is_empty() {
        return Some(false);
    }
    let mut all = Some(true);
    for &e in p.legal_move_list().as_slice() {
        if !interposes(&p, e) {
            return Some(false);
        }
        if all.is_none() {
            continue;
        }
        let mut q = p.clone();
        q.do_move(e);
        let share = c.share(4);
        let r = c.solve(&q, share, None, PostSearch::Composer);
        let Some(l) = exact_mate(&r) else {
            all = None;
            continue;
        };
        let full: Vec<Move> = std::iter::once(e).chain(l).collect();
        if useless(c, &p, &full, 0) != Some(true) {
            all = None;
        }
    }
    all
}

/// The composers' line read again from `root` with the check's 無駄合 rule: the attacker plays
/// the engine's composer line (`guide`, then the composer line after each chosen defence); at
/// each defender move every evasion is measured (composer count), useless interpositions (see
/// `useless`) are dropped, and the defender takes the longest, then the one leaving fewer
/// spare pieces, then the guide's. The line ends at mate or where only useless interpositions
/// are left. `None` when a search did not decide or `until` passed.
pub(super) fn reread(
    c: &mut Checker,
    root: &Position,
    guide: &[Move],
    until: Option<Instant>,
) -> Option<Vec<Move>> {
    let attacker = root.side_to_move();
    let mut p = root.clone();
    let mut out = vec![];
    let mut guide = guide.to_vec();
    while out.len() < 4 * guide.len() + 64 {
        if until.is_some_and(|u| Instant::now() >= u) || c.out_of_time() {
            return None;
        }
        if p.side_to_move() == attacker {
            let m = *guide.first()?;
            guide.remove(0);
            out.push(m);
            p.do_move(m);
            continue;
        }
        let evasions = p.legal_move_list();
        if evasions.is_empty() {
            return p.in_check().then_some(out);
        }
        let mut cands: Vec<(Vec<Move>, usize)> = vec![];
        for &e in evasions.as_slice() {
            let mut next = p.clone();
            next.do_move(e);
            let share = c.share(16);
            let r = c.solve(&next, share, None, PostSearch::Composer);
            let l = exact_mate(&r)?;
            let n = 1 + l.len();
            cands.push((std::iter::once(e).chain(l).collect(), n));
        }
        let base = cands
            .iter()
            .filter(|(f, _)| !interposes(&p, f[0]))
            .map(|x| x.1)
            .max()
            .unwrap_or(0);
        let mut kept = vec![];
        for (full, n) in cands {
            if interposes(&p, full[0]) && n > base && useless(c, &p, &full, base)? {
                continue;
            }
            if interposes(&p, full[0]) && n <= base && is_useless_interposition(&p, &full) {
                continue;
            }
            kept.push((full, n));
        }
        let Some(best) = kept.iter().map(|x| x.1).max() else {
            // Only useless interpositions are left: the line ends at the check.
            return Some(out);
        };
        let guide_first = guide.first().copied();
        let pick = kept
            .into_iter()
            .filter(|x| x.1 == best)
            .min_by_key(|(f, _)| (spare_after(&p, f, attacker), Some(f[0]) != guide_first))?;
        let (full, _) = pick;
        out.push(full[0]);
        p.do_move(full[0]);
        guide = full[1..].to_vec();
    }
    None
}

/// Where a given line that is not a mating line goes wrong: the first attacker move after
/// which the mate the position had within the line's remaining plies is gone (the move does
/// not check, or leaves no mate within the plies left, or is the last and does not mate), and
/// a move that mates there instead (with its line), when the search finds one.
#[derive(Clone, Debug)]
pub struct LineFailure {
    /// The line as given.
    pub given: Vec<Move>,
    /// The 1-based ply of the attacker move that fails.
    pub ply: usize,
    /// Why the move fails, in a sentence.
    pub why: String,
    /// The same in Japanese.
    pub why_ja: String,
    /// A mate from the position before that ply within the plies the line had left there, if
    /// one was found (its first move replaces the line's).
    pub mate_there: Option<Vec<Move>>,
    /// The position before that ply, for notation.
    pub before: Position,
}

/// Walks a given line that is not a mating line (see [`LineFailure`]). `None` if every
/// attacker move keeps a mate within the plies left (the line's end is then judged by the
/// caller: useless interpositions left, or undecided).
pub(super) fn locate_failure(
    c: &mut Checker,
    root: &Position,
    line: &[Move],
) -> Option<LineFailure> {
    let mut p = root.clone();
    for (i, &m) in line.iter().enumerate() {
        if i % 2 == 1 {
            p.do_move(m);
            continue;
        }
        let left = (line.len() - i) as u32;
        let mut q = p.clone();
        q.do_move(m);
        let why: Option<(String, String)> = if q.checkers().is_empty() {
            Some(("does not give check".into(), "王手になっていない".into()))
        } else if left == 1 {
            let mated = q.legal_move_list().as_slice().is_empty();
            (!mated && ends_in_useless(c, &p, &[m]) != Some(true)).then(|| {
                (
                    "does not mate: the defender can still move".into(),
                    "詰んでいない (玉方に指し手がある)".into(),
                )
            })
        } else {
            let r = c.solve(&q, None, Some(left - 1), PostSearch::None);
            match r.outcome {
                crate::mate::Outcome::Mate(_) => None,
                crate::mate::Outcome::NoMate => {
                    Some(("leaves no mate at all".into(), "以下不詰".into()))
                }
                crate::mate::Outcome::Unknown(crate::mate::UnknownReason::NoMateWithin(_)) => {
                    Some((
                        format!(
                            "leaves no mate within the {} left",
                            plies(left as usize - 1)
                        ),
                        format!("残り{}手では詰まない", left - 1),
                    ))
                }
                // Undecided: not shown to fail here.
                crate::mate::Outcome::Unknown(_) => None,
            }
        };
        if let Some((why, why_ja)) = why {
            let r = c.solve(&p, None, Some(left), PostSearch::Shortest);
            return Some(LineFailure {
                given: line.to_vec(),
                ply: i + 1,
                why,
                why_ja,
                mate_there: super::budget::mate_within(&r, left),
                before: p,
            });
        }
        p.do_move(m);
    }
    None
}
