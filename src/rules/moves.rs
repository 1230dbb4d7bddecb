//! The move type and the list moves are generated into.

use smallvec::SmallVec;

use crate::rules::hex::Hex;
use crate::rules::piece::Piece;

/// One turn's action. Small and `Copy`: the search keeps millions of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Put a piece from its owner's hand on the empty cell `to`.
    Place {
        /// The piece, from its side's hand.
        piece: Piece,
        /// Where it goes.
        to: Hex,
    },
    /// Move a piece on the board to `to` (on top of a stack for climbers). When a Pillbug (or a Mosquito acting
    /// as one) carries a piece, the move names the carried piece: the game record cannot tell the two apart.
    Move {
        /// The piece (one's own, or an opponent's that a Pillbug carries).
        piece: Piece,
        /// Where it goes.
        to: Hex,
    },
    /// Nothing else is legal.
    Pass,
}

impl Move {
    /// The piece placed or moved, if any.
    pub fn piece(self) -> Option<Piece> {
        match self {
            Move::Place { piece, .. } | Move::Move { piece, .. } => Some(piece),
            Move::Pass => None,
        }
    }

    /// The destination cell, if any.
    pub fn to(self) -> Option<Hex> {
        match self {
            Move::Place { to, .. } | Move::Move { to, .. } => Some(to),
            Move::Pass => None,
        }
    }
}

/// Moves of one position. Lives on the stack; spills to the heap only in freak positions.
pub type MoveList = SmallVec<[Move; 256]>;
