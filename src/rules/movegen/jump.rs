//! The Grasshopper: a straight jump over one or more pieces to the first empty cell.

use super::dests::CellSet;
use crate::rules::board::Board;
use crate::rules::hex::{Direction, Hex};

/// Jumps from `from` (the mover already lifted).
#[inline]
pub(crate) fn grasshopper(board: &Board, from: Hex, out: &mut CellSet) {
    for dir in Direction::ALL {
        let mut to = from.step(dir);
        if !board.is_occupied(to) {
            continue;
        }
        while board.is_occupied(to) {
            to = to.step(dir);
        }
        out.insert(to);
    }
}
