//! The position: board, hands, side to move, incremental keys, checkers, and a history stack for
//! undo and repetition detection.
//!
//! Over 500 lines because it is one concept: the state and the incremental update that keeps
//! keys, checkers and hands in step (`do_move`/`undo_move`), with the attack queries both need.
//! Move generation, check generation and SFEN live in their own files.

use super::attacks::*;
use super::bitboard::Bitboard;
use super::hand::Hand;
use super::mv::Move;
use super::types::{Color, Piece, PieceKind, Square};
use super::zobrist;

/// What `undo_move` needs, plus the keys of every earlier position for repetition detection.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// Board key of the position before `mv`.
    pub board_key: u64,
    /// Hand key of the position before `mv`.
    pub hand_key: u64,
    /// Checkers of the position before `mv`.
    pub checkers: Bitboard,
    /// Piece captured by `mv`, or `Piece::EMPTY`.
    pub captured: Piece,
    /// The move made from that position.
    pub mv: Move,
}

/// A shogi position with its move history; moves are made and taken back in place.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Piece; 81],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_kind: [Bitboard; 14],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    /// Move number as given in the SFEN (informational; kept for round trips).
    pub(crate) move_number: u32,
    pub(crate) board_key: u64,
    pub(crate) hand_key: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) history: Vec<StateInfo>,
}

impl Position {
    /// An empty board, Black to move, nothing in hand (not a valid position by itself).
    pub(crate) fn empty() -> Position {
        Position {
            board: [Piece::EMPTY; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 14],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            move_number: 1,
            board_key: 0,
            hand_key: 0,
            checkers: Bitboard::EMPTY,
            history: Vec::with_capacity(256),
        }
    }

    // ---- accessors -------------------------------------------------------------------------

    /// The side whose turn it is.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq` (`Piece::EMPTY` if none).
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The pieces `c` holds in hand.
    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Pieces of colour `c`.
    #[inline(always)]
    pub fn pieces_of(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Pieces of kind `k`, both colours.
    #[inline(always)]
    pub fn pieces_kind(&self, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()]
    }

    /// Pieces of colour `c` and kind `k`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()] & self.by_color[c.index()]
    }

    /// Gold and the four gold-moving promoted pieces.
    #[inline(always)]
    pub fn gold_likes(&self) -> Bitboard {
        self.by_kind[PieceKind::Gold.index()]
            | self.by_kind[PieceKind::ProPawn.index()]
            | self.by_kind[PieceKind::ProLance.index()]
            | self.by_kind[PieceKind::ProKnight.index()]
            | self.by_kind[PieceKind::ProSilver.index()]
    }

    /// Pieces that move diagonally any distance (bishop, horse).
    #[inline(always)]
    pub fn bishop_likes(&self) -> Bitboard {
        self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Horse.index()]
    }

    /// Pieces that move orthogonally any distance (rook, dragon).
    #[inline(always)]
    pub fn rook_likes(&self) -> Bitboard {
        self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Dragon.index()]
    }

    /// Pieces that step one square in every direction (king, horse, dragon).
    #[inline(always)]
    pub fn king_steppers(&self) -> Bitboard {
        self.by_kind[PieceKind::King.index()]
            | self.by_kind[PieceKind::Horse.index()]
            | self.by_kind[PieceKind::Dragon.index()]
    }

    /// The king of `c`, if it has one (mate problems often omit the attacker's king).
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        let k = self.pieces(c, PieceKind::King);
        if k.is_empty() {
            None
        } else {
            Some(k.lsb())
        }
    }

    /// Pieces of the opponent giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// Board key: pieces on squares and the side to move (hands excluded).
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// Hand key: the pieces in both hands.
    #[inline(always)]
    pub fn hand_key(&self) -> u64 {
        self.hand_key
    }

    /// Key of the whole position (board, side, both hands).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }

    /// Number of moves made since the position was set up.
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// Moves made since setup, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|s| s.mv)
    }

    /// The state stack (keys of earlier positions), oldest first.
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }

    /// Move number given by the SFEN at setup (moves made since are not added).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    // ---- attacks ---------------------------------------------------------------------------

    /// Pieces of colour `c` that attack `sq` by a step (every kind's one-square moves, the
    /// knight's jump). A piece of colour c attacks sq iff a piece of the same kind of the other
    /// colour on sq would attack it (attacks are symmetric under colour flip).
    #[inline(always)]
    fn step_attackers(&self, c: Color, sq: Square) -> Bitboard {
        let them = c.flip();
        ((pawn_attack(them, sq) & self.by_kind[PieceKind::Pawn.index()])
            | (knight_attack(them, sq) & self.by_kind[PieceKind::Knight.index()])
            | (silver_attack(them, sq) & self.by_kind[PieceKind::Silver.index()])
            | (gold_attack(them, sq) & self.gold_likes())
            | (king_attack(sq) & self.king_steppers()))
            & self.by_color[c.index()]
    }

    /// Pieces of colour `c` that attack `sq` given occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let them = c.flip();
        let mine = self.by_color[c.index()];
        let mut att = self.step_attackers(c, sq);
        // Sliders: the occupancy lookups only when a slider of c stands on a line through sq
        // (an empty-board table rules the rest out; mate problems have few sliders).
        let bishops = self.bishop_likes() & mine;
        if (bishop_pseudo(sq) & bishops).is_nonempty() {
            att |= bishop_attack(sq, occ) & bishops;
        }
        let rooks = self.rook_likes() & mine;
        if (rook_pseudo(sq) & rooks).is_nonempty() {
            att |= rook_attack(sq, occ) & rooks;
        }
        let lances = self.by_kind[PieceKind::Lance.index()] & mine;
        if (lance_pseudo(them, sq) & lances).is_nonempty() {
            att |= lance_attack(them, sq, occ) & lances;
        }
        att
    }

    /// The neighbours of `ksq` that pieces of colour `c` attack with occupancy `occ`: the
    /// same squares as `is_attacked` on each of the eight, from one pass over the pieces that
    /// can reach any of them (the steppers within two files and three ranks, the sliders whose
    /// empty-board reach meets them). A king's flights are tested at every fresh check the
    /// search counts answers for, and eight separate tests cost five step lookups each; mate
    /// problems have few pieces near the king.
    #[inline]
    pub fn attacked_around(&self, c: Color, ksq: Square, occ: Bitboard) -> Bitboard {
        let zone = king_attack(ksq);
        let mine = self.by_color[c.index()];
        let sliders =
            self.by_kind[PieceKind::Lance.index()] | self.bishop_likes() | self.rook_likes();
        let mut att = Bitboard::EMPTY;
        for s in mine.and_not(sliders) & king_zone_reach(ksq) {
            att |= attacks(c, self.board[s.index()].kind(), s, occ);
        }
        for s in mine & sliders {
            let k = self.board[s.index()].kind();
            // A slider whose empty-board reach misses the eight squares needs no lookup.
            let reach = match k {
                PieceKind::Lance => lance_pseudo(c, s),
                PieceKind::Bishop => bishop_pseudo(s),
                PieceKind::Rook => rook_pseudo(s),
                PieceKind::Horse => bishop_pseudo(s) | king_attack(s),
                _ => rook_pseudo(s) | king_attack(s),
            };
            if (reach & zone).is_nonempty() {
                att |= attacks(c, k, s, occ);
            }
        }
        att & zone
    }

    /// Whether colour `c` attacks `sq` with occupancy `occ` (steps first, then sliders).
    #[inline]
    pub fn is_attacked(&self, c: Color, sq: Square, occ: Bitboard) -> bool {
        let them = c.flip();
        let mine = self.by_color[c.index()];
        if self.step_attackers(c, sq).is_nonempty() {
            return true;
        }
        let bishops = self.bishop_likes() & mine;
        if (bishop_pseudo(sq) & bishops).is_nonempty()
            && (bishop_attack(sq, occ) & bishops).is_nonempty()
        {
            return true;
        }
        let rooks = self.rook_likes() & mine;
        if (rook_pseudo(sq) & rooks).is_nonempty() && (rook_attack(sq, occ) & rooks).is_nonempty() {
            return true;
        }
        let lances = self.by_kind[PieceKind::Lance.index()] & mine;
        (lance_pseudo(them, sq) & lances).is_nonempty()
            && (lance_attack(them, sq, occ) & lances).is_nonempty()
    }

    /// Pieces (of either colour) that are the only piece between the king of `king_color` and a
    /// slider of `slider_color` aimed at it. With `king_color == slider_color.flip()` and the
    /// king's own pieces these are pins; with the mover's pieces in front of the enemy king they
    /// are discovered-check candidates.
    #[inline]
    pub fn slider_blockers(&self, king_color: Color, slider_color: Color) -> Bitboard {
        let Some(ksq) = self.king_square(king_color) else {
            return Bitboard::EMPTY;
        };
        self.slider_blockers_at(ksq, king_color, slider_color)
    }

    /// As `slider_blockers`, for a king (of `king_color`) standing on `ksq`.
    #[inline]
    pub fn slider_blockers_at(
        &self,
        ksq: Square,
        king_color: Color,
        slider_color: Color,
    ) -> Bitboard {
        let sliders = self.by_color[slider_color.index()];
        let snipers = ((self.rook_likes() & rook_pseudo(ksq))
            | (self.bishop_likes() & bishop_pseudo(ksq))
            | (self.by_kind[PieceKind::Lance.index()] & lance_pseudo(king_color, ksq)))
            & sliders;
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = between(ksq, s) & occ;
            if b.is_nonempty() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// Own pieces pinned to the side-to-move's king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.slider_blockers(self.side, self.side.flip()) & self.by_color[self.side.index()]
    }

    // ---- making moves ----------------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put_piece(&mut self, sq: Square, p: Piece) {
        debug_assert!(self.board[sq.index()].is_empty());
        self.board[sq.index()] = p;
        self.by_color[p.color().index()].set(sq);
        self.by_kind[p.kind().index()].set(sq);
        self.board_key ^= zobrist::PIECE_SQUARE[p.index()][sq.index()];
    }

    #[inline(always)]
    fn remove_piece(&mut self, sq: Square) -> Piece {
        let p = self.board[sq.index()];
        debug_assert!(!p.is_empty());
        self.board[sq.index()] = Piece::EMPTY;
        self.by_color[p.color().index()].clear(sq);
        self.by_kind[p.kind().index()].clear(sq);
        self.board_key ^= zobrist::PIECE_SQUARE[p.index()][sq.index()];
        p
    }

    #[inline(always)]
    pub(crate) fn add_hand(&mut self, c: Color, k: PieceKind) {
        self.hands[c.index()].add(k);
        self.hand_key = self
            .hand_key
            .wrapping_add(zobrist::HAND[c.index()][k.index()]);
    }

    #[inline(always)]
    fn sub_hand(&mut self, c: Color, k: PieceKind) {
        self.hands[c.index()].sub(k);
        self.hand_key = self
            .hand_key
            .wrapping_sub(zobrist::HAND[c.index()][k.index()]);
    }

    /// The piece a move moves (for a drop, the dropped piece).
    #[inline(always)]
    pub fn moved_piece(&self, m: Move) -> Piece {
        if m.is_drop() {
            Piece::new(self.side, m.drop_kind())
        } else {
            self.board[m.from().index()]
        }
    }

    /// Plays a legal move. Illegal moves corrupt the position; check first with `is_legal`.
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let mut st = StateInfo {
            board_key: self.board_key,
            hand_key: self.hand_key,
            checkers: self.checkers,
            captured: Piece::EMPTY,
            mv: m,
        };
        let to = m.to();
        if m.is_drop() {
            let k = m.drop_kind();
            self.sub_hand(us, k);
            self.put_piece(to, Piece::new(us, k));
        } else {
            let from = m.from();
            let p = self.remove_piece(from);
            if !self.board[to.index()].is_empty() {
                let cap = self.remove_piece(to);
                st.captured = cap;
                self.add_hand(us, cap.kind().unpromote());
            }
            let np = if m.is_promotion() {
                Piece::new(us, p.kind().promote())
            } else {
                p
            };
            self.put_piece(to, np);
        }
        self.side = us.flip();
        self.board_key ^= zobrist::SIDE;
        self.history.push(st);
        self.checkers = match self.king_square(self.side) {
            Some(k) => self.attackers_to(us, k, self.occupied()),
            None => Bitboard::EMPTY,
        };
    }

    /// The board key after `m` (assumed legal), computed without making the move: lets the
    /// search prefetch a child's table entry before it gets there.
    #[inline]
    pub fn board_key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let to = m.to();
        let mut k = self.board_key ^ zobrist::SIDE;
        if m.is_drop() {
            k ^= zobrist::PIECE_SQUARE[Piece::new(us, m.drop_kind()).index()][to.index()];
        } else {
            let from = m.from();
            let p = self.board[from.index()];
            k ^= zobrist::PIECE_SQUARE[p.index()][from.index()];
            let cap = self.board[to.index()];
            if !cap.is_empty() {
                k ^= zobrist::PIECE_SQUARE[cap.index()][to.index()];
            }
            let np = if m.is_promotion() {
                Piece::new(us, p.kind().promote())
            } else {
                p
            };
            k ^= zobrist::PIECE_SQUARE[np.index()][to.index()];
        }
        k
    }

    /// The mover's hand after `m` (assumed legal), without making the move: a drop takes the
    /// piece from it, a capture adds the captured piece unpromoted.
    #[inline]
    pub fn mover_hand_after(&self, m: Move) -> Hand {
        let mut h = self.hands[self.side.index()];
        if m.is_drop() {
            h.sub(m.drop_kind());
        } else {
            let cap = self.board[m.to().index()];
            if !cap.is_empty() {
                h.add(cap.kind().unpromote());
            }
        }
        h
    }

    /// Takes back the last move made with `do_move`.
    pub fn undo_move(&mut self) {
        let st = self.history.pop().expect("undo_move without a move");
        let m = st.mv;
        self.side = self.side.flip();
        let us = self.side;
        let to = m.to();
        let p = self.remove_piece(to);
        if m.is_drop() {
            self.hands[us.index()].add(m.drop_kind());
        } else {
            let orig = if m.is_promotion() {
                Piece::new(us, p.kind().unpromote())
            } else {
                p
            };
            self.put_piece(m.from(), orig);
            if !st.captured.is_empty() {
                self.hands[us.index()].sub(st.captured.kind().unpromote());
                self.put_piece(to, st.captured);
            }
        }
        self.board_key = st.board_key;
        self.hand_key = st.hand_key;
        self.checkers = st.checkers;
    }

    /// Whether `m` (assumed legal) gives check. Computed by geometry, without making the move.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let Some(ksq) = self.king_square(them) else {
            return false;
        };
        let to = m.to();
        let kind = if m.is_drop() {
            m.drop_kind()
        } else if m.is_promotion() {
            self.board[m.from().index()].kind().promote()
        } else {
            self.board[m.from().index()].kind()
        };
        let mut occ = self.occupied();
        if !m.is_drop() {
            occ.clear(m.from());
        }
        occ.set(to);
        // Direct check by the moved piece.
        if attacks(us, kind, to, occ).has(ksq) {
            return true;
        }
        if m.is_drop() {
            return false;
        }
        // Discovered check: the origin was blocking one of our sliders, and we left its line.
        let from = m.from();
        if self.slider_blockers_at(ksq, them, us).has(from) && !line(ksq, from).has(to) {
            return true;
        }
        false
    }

    // ---- repetition ------------------------------------------------------------------------

    /// How many earlier positions on the history stack equal the current one (same board, side,
    /// and both hands), looking back at most `max_back` plies (every 2 plies, same side to move).
    pub fn repetitions(&self, max_back: usize) -> usize {
        let n = self.history.len();
        let mut count = 0;
        let mut i = 2;
        while i <= n && i <= max_back {
            let st = &self.history[n - i];
            if st.board_key == self.board_key && st.hand_key == self.hand_key {
                count += 1;
            }
            i += 2;
        }
        count
    }

    // ---- consistency -----------------------------------------------------------------------

    /// Recomputes both keys from scratch (for tests of the incremental update).
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut bk = 0u64;
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if !p.is_empty() {
                bk ^= zobrist::PIECE_SQUARE[p.index()][sq.index()];
            }
        }
        if self.side == Color::White {
            bk ^= zobrist::SIDE;
        }
        let mut hk = 0u64;
        for c in Color::ALL {
            for k in PieceKind::HAND {
                let n = self.hands[c.index()].count(k) as u64;
                hk = hk.wrapping_add(n.wrapping_mul(zobrist::HAND[c.index()][k.index()]));
            }
        }
        (bk, hk)
    }

    /// Recomputes the checkers from scratch.
    pub fn compute_checkers(&self) -> Bitboard {
        match self.king_square(self.side) {
            Some(k) => self.attackers_to(self.side.flip(), k, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_and_hand_after_match_do_move() {
        // After 7g7f 3c3d: captures with promotion (8h2b+), non-promotions, drops after a
        // capture; then every move of every position two plies on.
        let mut p = Position::from_sfen(
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
        )
        .unwrap();
        for m1 in p.legal_move_list().as_slice().to_vec() {
            p.do_move(m1);
            for m in p.legal_move_list().as_slice().to_vec() {
                let predicted = p.board_key_after(m);
                let hand = p.mover_hand_after(m);
                let mover = p.side_to_move();
                p.do_move(m);
                assert_eq!(predicted, p.board_key(), "{m1} {m}");
                assert_eq!(hand, p.hand(mover), "{m1} {m}");
                p.undo_move();
            }
            p.undo_move();
        }
    }

    /// `attacked_around` against `is_attacked` on each neighbour, around every square (the
    /// square itself taken out of the occupancy, as for a king's flights), for both colours,
    /// along random walks from boards with every kind of slider, promoted pieces and both
    /// kings near the edge.
    #[test]
    fn attacked_around_agrees_with_is_attacked_square_by_square() {
        let starts = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "1+p3lp+s1/1n2P2Pn/sp2pG1N1/G4G3/9/8P/p1pp1p2k/LNP3B1p/S+R1B3G+s b R4P2lp 1",
            "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1",
            "1s1l2l1K/1P1R2npp/1pg1k3l/pnsgg3n/2p1gn3/2S2rp1B/5p2b/PS7/4P1P2 b L3P4p 1",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for sfen in starts {
            let mut p = Position::from_sfen(sfen).unwrap();
            for _ in 0..60 {
                let occ = p.occupied();
                for sq in Square::all() {
                    let occ_wo = occ.and_not(Bitboard::from_square(sq));
                    for c in [Color::Black, Color::White] {
                        let mut want = Bitboard::EMPTY;
                        for n in king_attack(sq) {
                            if p.is_attacked(c, n, occ_wo) {
                                want |= Bitboard::from_square(n);
                            }
                        }
                        assert_eq!(
                            p.attacked_around(c, sq, occ_wo),
                            want,
                            "{} {sq:?}",
                            p.to_sfen()
                        );
                        checked += 1;
                    }
                }
                let moves = p.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                p.do_move(moves.as_slice()[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
