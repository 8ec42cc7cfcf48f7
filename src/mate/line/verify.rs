//! Checking a line by replay before anyone sees it: every move legal (by the full legal move
//! generator, not the search's), every attacker move a check, and the end checkmate (or, for
//! the composers' presentation, only useless interpositions left). The driver checks every line
//! it accepts, so `Solver::solve` never returns a line that fails here.

use crate::shogi::{Color, Move, Position};

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

/// Replays a composed line: every move legal, every move of `attacker` a check, the last move
/// the attacker's, and at the end either checkmate or only useless interpositions left (not
/// re-checked here). The root's side to move starts the line: the attacker, or the defender at
/// a defender-to-move root (then the line has even length; 0 when it is mated already).
pub fn verify_composed(root: &Position, line: &[Move], attacker: Color) -> Result<(), String> {
    let or_root = root.side_to_move() == attacker;
    if (line.len() % 2 == 0) == or_root {
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
