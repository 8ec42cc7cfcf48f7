//! The composers' presentation of a strict mating line (詰将棋 conventions): useless
//! interpositions (無駄合) are omitted in favour of the defender's longest real defence, and among
//! equally long defences the defender prefers the one that leaves the attacker no spare pieces
//! (駒余り).

use super::super::dfpn::Search;
use super::verify::verify;
use super::walk::{walk, Target};
use crate::shogi::attacks::between;
use crate::shogi::{Color, Move, PieceKind, Position};

/// Whether the defender's move `e` (from `pos`, defender to move) is an interposition: a drop
/// or a move of a piece other than the king onto a square between the king and its single
/// checker.
pub fn interposes(pos: &Position, e: Move) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return false;
    }
    let Some(ksq) = pos.king_square(pos.side_to_move()) else {
        return false;
    };
    between(ksq, checkers.lsb()).has(e.to()) && (e.is_drop() || e.from() != ksq)
}

/// The kind of the piece that the defender's move `rest[0]` (from `pos`) interposes when the
/// attacker captures it at once with `rest[1]` (unpromoted, as it goes to the attacker's hand);
/// `None` for any other defence.
fn captured_at_once(pos: &Position, rest: &[Move]) -> Option<PieceKind> {
    if rest.len() < 2 {
        return None;
    }
    let d = rest[0];
    if !interposes(pos, d) || rest[1].is_drop() || rest[1].to() != d.to() {
        return None;
    }
    Some(if d.is_drop() {
        d.drop_kind()
    } else {
        pos.piece_on(d.from()).kind().unpromote()
    })
}

/// The 狭義無駄合 question of [`useless_interposition`]: given the position right after the
/// capture (defender to move again) and the captured kind, whether the defender, given that
/// piece back, is still mated as soon (`None`: not decided).
pub type NarrowQuestion<'a> = &'a mut dyn FnMut(&Position, PieceKind) -> Option<bool>;

/// The 無駄合 (useless interposition) rule, shared by the engine's composer mode and the composer
/// check (`review`): whether the defender's move `rest[0]` (from `pos`, defender to move) in the
/// line `rest` is a useless interposition. Only an interposition (see [`interposes`]) that the
/// attacker captures at once (`rest[1]`) can be useless; an interposition captured later, or
/// never, is a defence. It is useless when
///
/// 1. (static) the captured kind is still in the attacker's hand at the end of the line, at
///    least as many as right after the capture, so the mate never needed it; or else
/// 2. (狭義無駄合, asked only when `narrow` is given and the line goes on after the capture)
///    `narrow(after, kind)` answers yes: `after` is the position right after the capture
///    (defender to move again) and `kind` the captured kind; the caller asks whether the
///    defender, given that piece back, is still mated as soon as the line's own defence.
///
/// The parameter is the one real difference between the two users: the engine's composer mode
/// reads its line inside one solve and cannot ask further searches (`None`: the static rule
/// alone, [`is_useless_interposition`]), the check can (`Some`). `None` from `narrow` (a search
/// left it open) is the answer's `None`.
pub fn useless_interposition(
    pos: &Position,
    rest: &[Move],
    narrow: Option<NarrowQuestion<'_>>,
) -> Option<bool> {
    let Some(kind) = captured_at_once(pos, rest) else {
        return Some(false);
    };
    let attacker = pos.side_to_move().flip();
    let mut p = pos.clone();
    p.do_move(rest[0]);
    p.do_move(rest[1]);
    let after_capture = p.hand(attacker).count(kind);
    let narrow = match narrow {
        Some(n) if rest.len() >= 3 => Some((n, p.clone())),
        _ => None,
    };
    for &m in &rest[2..] {
        p.do_move(m);
    }
    if p.hand(attacker).count(kind) >= after_capture {
        return Some(true);
    }
    match narrow {
        Some((n, after)) => n(&after, kind),
        None => Some(false),
    }
}

/// The static 無駄合 rule alone ([`useless_interposition`] without its 狭義無駄合 question), the
/// engine's composer mode's: an interposition captured at once whose captured kind is still in
/// the attacker's hand at the end of the line `rest`.
///
/// Not covered: interpositions the attacker does not capture at once, pieces that are dropped
/// and captured back later in the line (counted as "still spare"), and the composers' finer
/// distinctions (e.g. an interposition that changes the attacker's best continuation).
pub fn is_useless_interposition(pos: &Position, rest: &[Move]) -> bool {
    useless_interposition(pos, rest, None) == Some(true)
}

/// Pieces left in the attacker's hand after playing `seq` from `pos` (駒余り when non-zero).
fn spare_after(pos: &Position, seq: &[Move], attacker: Color) -> u32 {
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
pub(crate) fn compose(s: &mut Search, pos: &Position, line: &[Move], depth: u32) -> Vec<Move> {
    let attacker = s.attacker();
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
                if e == line[i] || s.aborted().is_some() {
                    continue;
                }
                p.do_move(e);
                // A candidate line is replayed before it can replace a defence.
                let alt = walk(s, &p, Target::Any)
                    .and_then(|(alt, _)| verify(&p, &alt, attacker).map(|()| alt));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The legal moves `usi` played from `pos` (each found among the legal moves by its text).
    fn line(pos: &Position, usi: &str) -> Vec<Move> {
        let mut p = pos.clone();
        let mut out = vec![];
        for w in usi.split_whitespace() {
            let legal = p.legal_move_list();
            let m = *legal
                .as_slice()
                .iter()
                .find(|m| m.to_string() == w)
                .unwrap_or_else(|| panic!("{w} is not legal in {}", p.to_sfen()));
            p.do_move(m);
            out.push(m);
        }
        out
    }

    /// White's king on 1a in check from the lance on 1i; white holds a pawn.
    fn checked() -> Position {
        Position::from_sfen("8k/9/9/9/9/9/9/9/8L w p 1").unwrap()
    }

    #[test]
    fn interposition_captured_and_spare_is_useless_without_asking() {
        let p = checked();
        let rest = line(&p, "P*1e 1i1e");
        let mut asked = false;
        let mut narrow = |_: &Position, _: PieceKind| {
            asked = true;
            Some(false)
        };
        assert_eq!(
            useless_interposition(&p, &rest, Some(&mut narrow)),
            Some(true)
        );
        assert!(!asked);
        assert!(is_useless_interposition(&p, &rest));
    }

    #[test]
    fn interposition_whose_piece_is_used_again_asks_the_narrow_question() {
        let p = checked();
        // The captured pawn is dropped again: not spare, the static rule says no.
        let rest = line(&p, "P*1e 1i1e 1a2a P*2b");
        assert!(!is_useless_interposition(&p, &rest));
        let mut seen = None;
        let mut narrow = |after: &Position, kind: PieceKind| {
            seen = Some((after.to_sfen(), kind));
            Some(true)
        };
        assert_eq!(
            useless_interposition(&p, &rest, Some(&mut narrow)),
            Some(true)
        );
        let (sfen, kind) = seen.unwrap();
        assert_eq!(kind, PieceKind::Pawn);
        let mut after = p.clone();
        after.do_move(rest[0]);
        after.do_move(rest[1]);
        assert_eq!(sfen, after.to_sfen());
        let mut open = |_: &Position, _: PieceKind| None;
        assert_eq!(useless_interposition(&p, &rest, Some(&mut open)), None);
    }

    #[test]
    fn king_move_is_no_interposition() {
        let p = checked();
        let rest = line(&p, "1a2a");
        assert!(!interposes(&p, rest[0]));
        let mut narrow = |_: &Position, _: PieceKind| -> Option<bool> { panic!("not asked") };
        assert_eq!(
            useless_interposition(&p, &rest, Some(&mut narrow)),
            Some(false)
        );
    }
}
