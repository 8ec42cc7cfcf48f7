//! Japanese move notation (▲２二金打 △同玉 ...), for people reading a solution.

use super::mv::Move;
use super::position::Position;
use super::types::{Color, Square};

const FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

fn square(sq: Square) -> String {
    format!("{}{}", FILES[sq.file() as usize], RANKS[sq.rank() as usize])
}

/// Formats `line` (legal moves from `pos`) as Japanese notation separated by spaces.
/// Illegal input stops the formatting at the first illegal move, marked `(illegal: <usi>)`.
pub fn japanese_line(pos: &Position, line: &[Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    let mut prev_to: Option<Square> = None;
    for &m in line {
        if !p.is_legal(m) {
            out.push(format!("(illegal: {m})"));
            break;
        }
        let mark = if p.side_to_move() == Color::Black {
            "▲"
        } else {
            "△"
        };
        let to = m.to();
        let dest = if prev_to == Some(to) {
            "同".to_string()
        } else {
            square(to)
        };
        let text = if m.is_drop() {
            format!("{mark}{dest}{}打", m.drop_kind().japanese())
        } else {
            let kind = p.piece_on(m.from()).kind();
            let c = p.side_to_move();
            let suffix = if m.is_promotion() {
                "成"
            } else if kind.can_promote()
                && (m.from().in_promotion_zone(c) || to.in_promotion_zone(c))
            {
                "不成"
            } else {
                ""
            };
            format!("{mark}{dest}{}{suffix}", kind.japanese())
        };
        out.push(text);
        prev_to = Some(to);
        p.do_move(m);
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_recapture_and_promotion() {
        let p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
        let line = [Move::from_usi("G*5b").unwrap()];
        assert_eq!(japanese_line(&p, &line), "▲５二金打");
        let p = Position::from_sfen("3gk4/9/4P4/9/9/9/9/9/9 b G2r2b2g4s4n4l17p 1").unwrap();
        let line = [
            Move::from_usi("G*5b").unwrap(),
            Move::from_usi("6a5b").unwrap(),
            Move::from_usi("5c5b+").unwrap(),
        ];
        assert_eq!(japanese_line(&p, &line), "▲５二金打 △同金 ▲同歩成");
    }
}
