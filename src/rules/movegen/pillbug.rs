//! The Pillbug's power (also used by a Mosquito touching a Pillbug): carry a neighbouring piece up onto the
//! Pillbug and down into an empty neighbouring cell.

use super::hive::can_step;
use crate::rules::board::Board;
use crate::rules::hex::{Direction, Hex};
use crate::rules::piece::Piece;

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
pub(crate) fn carries(board: &Board, source: Hex, stunned: Option<Piece>, pinned: u32, out: &mut Carries) {
    let source_height = board.height(source);
    // Where a carried piece can be set down does not depend on which piece it is: its own cell, next to the
    // power user, holds one piece and so never closes a gate that needs two stacks higher than the power user.
    let mut drops = [Hex::ORIGIN; 6];
    let mut drop_count = 0;
    let empty = !board.occupied_bits(source);
    for dir in Direction::ALL {
        if empty & (1 << dir.index()) != 0 && can_step(board, source, dir, source_height, 0) {
            drops[drop_count] = source.step(dir);
            drop_count += 1;
        }
    }
    if drop_count == 0 {
        return;
    }
    for dir in Direction::ALL {
        let from = source.step(dir);
        if board.height(from) != 1 {
            continue;
        }
        let Some(piece) = board.top(from) else { continue };
        let movable = Some(piece) != stunned && pinned & (1 << piece.index()) == 0;
        if movable && can_step(board, from, dir.opposite(), 0, source_height) {
            for &to in &drops[..drop_count] {
                out.push(piece, to);
            }
        }
    }
}
