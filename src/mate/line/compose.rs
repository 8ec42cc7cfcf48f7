//! The composers' presentation of a strict mating line (詰将棋 conventions): useless
//! interpositions (無駄合) are omitted in favour of the defender's longest real defence, and among
//! equally long defences the defender prefers the one that leaves the attacker no spare pieces
//! (駒余り).

use super::super::dfpn::Search;
use super::verify::verify;
use super::walk::{walk, Target};
use crate::shogi::attacks::between;
use crate::shogi::{Color, Move, Position};

/// Whether the defender's move `rest[0]` (from `pos`, defender to move) is a useless
/// interposition (無駄合) in the line `rest`: it is a drop or a board move onto a square between
/// the single checking piece and the king, the attacker captures it at once, and the captured
/// kind is still in the attacker's hand at the end of the line, at least as many as right after
/// the capture, so the mate never needed it.
///
/// Not covered: interpositions the attacker does not capture at once, pieces that are dropped
/// and captured back later in the line (counted as "still spare"), and the composers' finer
/// distinctions (e.g. an interposition that changes the attacker's best continuation).
pub fn is_useless_interposition(pos: &Position, rest: &[Move]) -> bool {
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
