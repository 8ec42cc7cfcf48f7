//! 無駄合 (useless interposition) as the check judges it: the one rule of
//! `mate::useless_interposition`, with its 狭義無駄合 question answered by searches ("without the
//! captured piece, is the defender still mated as soon?"), chains of interpositions judged link
//! by link. See `docs/composer-rules.md`.

use super::budget::{exact_mate, Checker};
use crate::mate::{interposes, useless_interposition, Outcome, PostSearch};
use crate::shogi::{Move, PieceKind, Position};

/// How many interpositions deep `useless_at` judges chains (each level asks every evasion).
const CHAIN_DEPTH: u32 = 8;

/// Whether the defence `full[0]` (from `pos`, defender to move; `full` its line in composer
/// count) is a useless interposition (無駄合) where the line's own defence lasts `main` plies:
/// the static rule (captured at once, the piece still spare at the end), or, for an
/// interposition captured at once whose piece the line uses again, the search's answer to
/// "without the captured piece (given back to the defender's hand), is the defender, to move
/// again, still mated within `main` plies (composer count)?". Yes: the interposition gained
/// nothing but two plies and the piece was not needed (狭義の無駄合; it also covers chains of
/// interpositions, each judged after the others are omitted). `None`: the search did not decide
/// within its share.
pub(super) fn useless(c: &mut Checker, pos: &Position, full: &[Move], main: usize) -> Option<bool> {
    useless_at(c, pos, full, main, 0)
}

/// `useless` at recursion `depth` (see `defender_len`).
fn useless_at(
    c: &mut Checker,
    pos: &Position,
    full: &[Move],
    main: usize,
    depth: u32,
) -> Option<bool> {
    // The side that captured: the attacker (the defender is to move again).
    let attacker = pos.side_to_move().flip();
    let mut narrow = |after: &Position, kind: PieceKind| -> Option<bool> {
        let mut setup = crate::record::board::Setup::of(after);
        if setup.hands[attacker.index()][kind.index()] == 0 {
            return Some(false);
        }
        setup.hands[attacker.index()][kind.index()] -= 1;
        setup.hands[attacker.flip().index()][kind.index()] += 1;
        let Ok(without) = setup.position() else {
            return Some(false);
        };
        if depth >= CHAIN_DEPTH {
            return None;
        }
        defender_len(c, &without, depth + 1).map(|n| n <= main)
    };
    useless_interposition(pos, full, Some(&mut narrow))
}

/// How long the defender to move at `q` lasts in composer count: the longest of its evasions,
/// each measured by the engine's composer line after it, where an interposition captured at
/// once counts only when it is not useless against the longest evasion that is no
/// interposition (judged by `useless_at`, so chains of interpositions are judged link by
/// link). `usize::MAX`: some evasion escapes mate. `None`: a search did not decide.
fn defender_len(c: &mut Checker, q: &Position, depth: u32) -> Option<usize> {
    let evasions = q.legal_move_list();
    if evasions.is_empty() {
        return q.in_check().then_some(0);
    }
    let mut lens: Vec<(Vec<Move>, usize)> = vec![];
    for &e in evasions.as_slice() {
        let mut next = q.clone();
        next.do_move(e);
        let share = c.share(8);
        let r = c.solve(&next, share, None, PostSearch::Composer);
        match (exact_mate(&r), &r.outcome) {
            (Some(l), _) => {
                let n = 1 + l.len();
                lens.push((std::iter::once(e).chain(l).collect(), n));
            }
            (None, Outcome::NoMate) => return Some(usize::MAX),
            _ => return None,
        }
    }
    let mut best = lens
        .iter()
        .filter(|(f, _)| !interposes(q, f[0]))
        .map(|x| x.1)
        .max()
        .unwrap_or(0);
    lens.sort_by_key(|x| x.1);
    for (full, n) in &lens {
        if *n <= best || !interposes(q, full[0]) {
            continue;
        }
        match useless_at(c, q, full, best, depth)? {
            true => {}
            false => best = *n,
        }
    }
    Some(best)
}
