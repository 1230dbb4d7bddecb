//! The Pillbug's power (also used by a Mosquito touching a Pillbug): carry a neighbouring piece up onto the
//! Pillbug and down into an empty neighbouring cell.

use super::hive::can_step;
use crate::board::Board;
use crate::hex::{Direction, Hex};
use crate::piece::Piece;

/// Most carries in one position: two power users, six pieces each, six cells each.
const MAX_CARRIES: usize = 2 * 6 * 6;

/// The carries found for the side to move, as `(piece, destination)`.
#[derive(Clone)]
pub(crate) struct Carries {
    list: [(Piece, Hex); MAX_CARRIES],
    len: usize,
}

impl Default for Carries {
    fn default() -> Self {
        Carries {
            list: [(Piece::from_index(0), Hex::ORIGIN); MAX_CARRIES],
            len: 0,
        }
    }
}

impl Carries {
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[(Piece, Hex)] {
        &self.list[..self.len]
    }

    #[inline]
    fn push(&mut self, piece: Piece, to: Hex) {
        self.list[self.len] = (piece, to);
        self.len += 1;
    }
}

/// Add the carries of the power user standing at `source`. A carried piece must stand alone on its cell, must not
/// be `stunned` (it moved last turn) and must not be `pinned`; neither the lift nor the drop may pass a gate.
pub(crate) fn carries(board: &mut Board, source: Hex, stunned: Option<Piece>, pinned: u32, out: &mut Carries) {
    let source_height = board.height(source);
    for dir in Direction::ALL {
        let from = source.step(dir);
        if board.height(from) != 1 {
            continue;
        }
        let piece = board.lift(from);
        let movable = Some(piece) != stunned && pinned & (1 << piece.index()) == 0;
        if movable && can_step(board, from, dir.opposite(), 0, source_height) {
            for down in Direction::ALL {
                let to = source.step(down);
                if to != from && !board.is_occupied(to) && can_step(board, source, down, source_height, 0) {
                    out.push(piece, to);
                }
            }
        }
        board.unlift(piece, from);
    }
}
