//! What the search knows of one node: its proof and disproof numbers (df-pn, Nagai 2002), the
//! attacker hand and the length they hold for, and the move that proved it.
//!
//! One type for every place this travels: a table entry (`tt::Entry`), a table lookup
//! (`tt::Probe`), a child of the node being expanded (`dfpn::children::Child`) and a finished
//! node (`dfpn::NodeResult`). KomoringHeights' `SearchResult` plays the same part.

use crate::shogi::{Hand, Move};

/// The "infinite" proof or disproof number: pn = INF means disproven, dn = INF proven.
pub const INF: u32 = 1 << 30;

/// Disproof length of an unconditional disproof: no mate at any length.
pub const NO_MATE: u16 = u16::MAX;

/// Largest finite length bound stored (lengths above are clamped to it).
pub const MAX_BOUND: u16 = u16::MAX - 1;

/// Proof and disproof numbers with what they hold for. pn and dn are from the attacker's point
/// of view at both kinds of node.
///
/// | state      | pn    | dn    | hand                       | len                                |
/// |------------|-------|-------|----------------------------|------------------------------------|
/// | proven     | 0     | INF   | proof hand (enough to mate) | mate within `len` plies           |
/// | disproven  | INF   | 0     | disproof hand (too little)  | no mate within `len` (`NO_MATE`: none) |
/// | unsolved   | > 0   | > 0   | the hand searched           | 0                                  |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Value {
    /// Proof number.
    pub pn: u32,
    /// Disproof number.
    pub dn: u32,
    /// Attacker hand the numbers hold for (see the table above).
    pub hand: Hand,
    /// Length bound (see the table above).
    pub len: u16,
    /// The proving move of a proven attacker node (`Move::NONE` otherwise).
    pub best: Move,
}

const _: () = assert!(std::mem::size_of::<Value>() == 16);

impl Value {
    /// Mate within `len` plies with `hand` (or any superior hand), played by `best`.
    #[inline]
    pub fn proven(hand: Hand, len: u16, best: Move) -> Value {
        Value {
            pn: 0,
            dn: INF,
            hand,
            len,
            best,
        }
    }

    /// No mate within `len` plies with `hand` (or any inferior hand).
    #[inline]
    pub fn disproven(hand: Hand, len: u16) -> Value {
        Value {
            pn: INF,
            dn: 0,
            hand,
            len,
            best: Move::NONE,
        }
    }

    /// Not solved yet: the numbers are estimates of the work left.
    #[inline]
    pub fn unsolved(pn: u32, dn: u32, hand: Hand) -> Value {
        Value {
            pn,
            dn,
            hand,
            len: 0,
            best: Move::NONE,
        }
    }
}
