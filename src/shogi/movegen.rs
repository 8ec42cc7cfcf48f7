//! Legal move generation for any position: every legal move including each legal
//! non-promotion, no pawn-drop mate (打ち歩詰め), no two pawns on a file (二歩), no piece left
//! where it can never move, no move that leaves one's own king attacked (pins, double check).
//!
//! Moves are written into a fixed-capacity `MoveList` on the stack (no allocation per node).

use super::attacks::*;
use super::bitboard::Bitboard;
use super::mv::Move;
use super::position::Position;
use super::types::{Color, PieceKind, Square};

/// Upper bound on legal moves in a shogi position is 593; round up.
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity list of moves, kept on the stack.
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends `m`; the list must not be full.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Number of moves in the list.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves, in the order pushed.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, mutably (e.g. for reordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Iterates over the moves in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

/// Bitboard of the 9 squares of 0-based file `f`.
#[inline(always)]
pub const fn file_mask(f: u8) -> Bitboard {
    Bitboard(0x1ffu128 << (f as u32 * 9))
}

/// Ranks on which a piece of `c` (unpromoted `k`) may stand and still move.
#[inline(always)]
pub fn can_stand_unpromoted(c: Color, k: PieceKind, to: Square) -> bool {
    let rr = to.relative_rank(c);
    match k {
        PieceKind::Pawn | PieceKind::Lance => rr >= 1,
        PieceKind::Knight => rr >= 2,
        _ => true,
    }
}

/// Pushes the moves of a piece of `kind` from `from` to `to`: the promotion when available and
/// the non-promotion whenever the piece could still move afterwards.
#[inline(always)]
pub fn push_board_move(list: &mut MoveList, c: Color, kind: PieceKind, from: Square, to: Square) {
    if kind.can_promote() && (from.in_promotion_zone(c) || to.in_promotion_zone(c)) {
        list.push(Move::normal(from, to, true));
        if can_stand_unpromoted(c, kind, to) {
            list.push(Move::normal(from, to, false));
        }
    } else {
        list.push(Move::normal(from, to, false));
    }
}

/// Squares on which `c` may drop kind `k` among `targets` (files with an own unpromoted pawn and
/// dead ranks removed; pawn-drop mate is checked separately).
#[inline]
pub fn drop_targets(pos: &Position, c: Color, k: PieceKind, targets: Bitboard) -> Bitboard {
    match k {
        PieceKind::Pawn => {
            let mut t = targets & !dead_rank_mask(c, 1);
            let mut pawns = pos.pieces(c, PieceKind::Pawn);
            while let Some(p) = pawns.pop() {
                t = t.and_not(file_mask(p.file()));
            }
            t
        }
        PieceKind::Lance => targets & !dead_rank_mask(c, 1),
        PieceKind::Knight => targets & !dead_rank_mask(c, 2),
        _ => targets,
    }
}

/// The first `n` ranks from `c`'s far side (where an unpromoted pawn/lance (1) or knight (2)
/// would be dead).
#[inline(always)]
pub fn dead_rank_mask(c: Color, n: u8) -> Bitboard {
    // Per file, ranks 0..n (Black) or 9-n..9 (White); replicate the 9-bit row over 9 files.
    const fn rows(bits: u128) -> u128 {
        let mut r = 0u128;
        let mut f = 0;
        while f < 9 {
            r |= bits << (f * 9);
            f += 1;
        }
        r
    }
    const B1: u128 = rows(0b1);
    const B2: u128 = rows(0b11);
    const W1: u128 = rows(0b1_0000_0000);
    const W2: u128 = rows(0b1_1000_0000);
    Bitboard(match (c, n) {
        (Color::Black, 1) => B1,
        (Color::Black, _) => B2,
        (Color::White, 1) => W1,
        (Color::White, _) => W2,
    })
}

impl Position {
    /// Whether dropping a pawn of the side to move on `to` would be pawn-drop mate (illegal).
    /// `to` must be the square directly in front of the opponent's king.
    pub fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side;
        let them = us.flip();
        let Some(ksq) = self.king_square(them) else {
            return false;
        };
        debug_assert!(pawn_attack(us, to).has(ksq));
        let occ = self.occupied() | Bitboard::from_square(to);
        // Can a defender other than the king capture the pawn (respecting its pins)?
        let defenders = self
            .attackers_to(them, to, occ)
            .and_not(Bitboard::from_square(ksq));
        if defenders.is_nonempty() {
            let pinned = self.slider_blockers_at(ksq, them, us) & self.pieces_of(them);
            for d in defenders {
                if !pinned.has(d) || line(ksq, d).has(to) {
                    return false;
                }
            }
        }
        // Can the king capture it or step away? (Our sliders see through the king's origin.)
        let occ_no_king = occ.and_not(Bitboard::from_square(ksq));
        let escapes = king_attack(ksq)
            .and_not(self.pieces_of(them))
            .and_not(self.attacked_around(us, ksq, occ_no_king));
        escapes.is_empty()
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        if self.in_check() {
            self.gen_evasions(list);
        } else {
            self.gen_non_evasions(list);
        }
    }

    /// All legal moves of the side to move, in a new list.
    pub fn legal_move_list(&self) -> MoveList {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        l
    }

    /// Whether `m` is legal here (by membership in the legal move list; not for hot paths).
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_move_list().contains(m)
    }

    /// Non-king board moves to `target`, respecting pins.
    #[inline]
    fn gen_piece_moves(&self, list: &mut MoveList, target: Bitboard) {
        let us = self.side;
        let occ = self.occupied();
        let ksq = self.king_square(us);
        let pinned = self.pinned();
        let movers = self
            .pieces_of(us)
            .and_not(self.pieces_kind(PieceKind::King));
        for from in movers {
            let kind = self.board[from.index()].kind();
            let mut att = attacks(us, kind, from, occ) & target;
            if let Some(k) = ksq {
                if pinned.has(from) {
                    att &= line(k, from);
                }
            }
            for to in att {
                push_board_move(list, us, kind, from, to);
            }
        }
    }

    #[inline]
    fn gen_king_moves(&self, list: &mut MoveList) {
        let us = self.side;
        let Some(ksq) = self.king_square(us) else {
            return;
        };
        let occ = self.occupied().and_not(Bitboard::from_square(ksq));
        let flights = king_attack(ksq)
            .and_not(self.pieces_of(us))
            .and_not(self.attacked_around(us.flip(), ksq, occ));
        for to in flights {
            list.push(Move::normal(ksq, to, false));
        }
    }

    /// Drops of every kind in hand onto `targets` (empty squares).
    #[inline]
    fn gen_drops(&self, list: &mut MoveList, targets: Bitboard) {
        let us = self.side;
        let hand = self.hand(us);
        if hand.is_empty() {
            return;
        }
        let their_king = self.king_square(us.flip());
        for k in PieceKind::HAND {
            if !hand.has(k) {
                continue;
            }
            for to in drop_targets(self, us, k, targets) {
                if k == PieceKind::Pawn {
                    if let Some(ek) = their_king {
                        if pawn_attack(us, to).has(ek) && self.is_pawn_drop_mate(to) {
                            continue;
                        }
                    }
                }
                list.push(Move::drop(k, to));
            }
        }
    }

    fn gen_non_evasions(&self, list: &mut MoveList) {
        let target = !self.pieces_of(self.side);
        self.gen_piece_moves(list, target);
        self.gen_king_moves(list);
        self.gen_drops(list, !self.occupied());
    }

    fn gen_evasions(&self, list: &mut MoveList) {
        self.gen_king_moves(list);
        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let ksq = self
            .king_square(self.side)
            .expect("in check implies a king");
        let c = checkers.lsb();
        let block = between(ksq, c);
        // By target square (at most 8 of them) rather than by piece: the defender often has
        // many pieces and only a few can reach the checker's line.
        let us = self.side;
        let occ = self.occupied();
        let pinned = self.pinned();
        let movers = self
            .pieces_of(us)
            .and_not(self.pieces_kind(PieceKind::King));
        for to in block | checkers {
            for from in self.attackers_to(us, to, occ) & movers {
                if pinned.has(from) && !line(ksq, from).has(to) {
                    continue;
                }
                let kind = self.board[from.index()].kind();
                push_board_move(list, us, kind, from, to);
            }
        }
        self.gen_drops(list, block);
    }
}

/// Leaf-counting perft (bulk counting at depth 1).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in list.as_slice() {
        pos.do_move(m);
        n += perft(pos, depth - 1);
        pos.undo_move();
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(sfen: &str) -> Vec<String> {
        let p = Position::from_sfen(sfen).unwrap();
        let mut v: Vec<String> = p.legal_move_list().iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn startpos_perft_shallow() {
        let mut p = Position::startpos();
        assert_eq!(perft(&mut p, 1), 30);
        assert_eq!(perft(&mut p, 2), 900);
        assert_eq!(perft(&mut p, 3), 25470);
    }

    #[test]
    fn pawn_drop_mate_is_excluded_but_escapable_drop_is_not() {
        // White king on 1a boxed in by its own pieces; a Black pawn drop on 1b, defended by a
        // gold on 2c, mates: illegal.
        let v = moves("kn7/9/1G7/9/9/9/9/9/8K b P 1");
        assert!(!v.contains(&"P*9b".to_string()), "{v:?}");
        // Without the defending gold the king captures the pawn: the drop is legal.
        let v = moves("kn7/9/9/9/9/9/9/9/8K b P 1");
        assert!(v.contains(&"P*9b".to_string()), "{v:?}");
    }

    #[test]
    fn non_promotions_are_generated() {
        let v = moves("4k4/9/9/9/9/9/4P4/9/4K4 b - 1");
        assert!(v.contains(&"5g5f".to_string()));
        // A pawn reaching rank c may promote or not; on rank a it must promote.
        let v = moves("4k4/9/1P7/9/9/9/9/9/4K4 b - 1");
        assert!(v.contains(&"8c8b".to_string()) && v.contains(&"8c8b+".to_string()));
        let v = moves("4k4/1P7/9/9/9/9/9/9/4K4 b - 1");
        assert!(v.contains(&"8b8a+".to_string()) && !v.contains(&"8b8a".to_string()));
    }

    #[test]
    fn double_check_allows_king_moves_only() {
        // White king 5a checked by Black rook on 5i (file) and bishop on 1e (diagonal).
        let p = Position::from_sfen("4k4/9/9/9/8B/9/9/9/4R3K w G 1").unwrap();
        assert_eq!(p.checkers().count(), 2);
        for m in p.legal_move_list().iter() {
            assert!(!m.is_drop() && p.piece_on(m.from()).kind() == PieceKind::King);
        }
    }
}

#[cfg(test)]
mod perft_tests {
    use super::*;

    #[test]
    fn startpos_perft_4_and_5() {
        let mut p = Position::startpos();
        assert_eq!(perft(&mut p, 4), 719_731);
        assert_eq!(perft(&mut p, 5), 19_861_490);
    }

    #[test]
    #[ignore = "slow: 547 M nodes; run with --ignored"]
    fn startpos_perft_6() {
        let mut p = Position::startpos();
        assert_eq!(perft(&mut p, 6), 547_581_517);
    }
}
