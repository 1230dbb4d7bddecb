//! One-step movers: the Queen and the Pillbug slide one cell; the Beetle (and a Mosquito on top of the hive)
//! steps onto, across and off the hive through height-aware gates.

use super::dests::CellSet;
use super::hive::{can_step, cells_towards, slides_from};
use crate::rules::board::Board;
use crate::rules::hex::{Direction, Hex};

/// Slides of one cell along the ground from `from` (lifted or not: only neighbours of `from` matter).
#[inline]
pub(crate) fn slides(board: &Board, from: Hex, out: &mut CellSet) {
    for to in cells_towards(from, slides_from(board, from)) {
        out.insert(to);
    }
}

/// Beetle steps from `from`, where the mover stands on `from_height` pieces: to any neighbour, stack or empty,
/// through no gate. Lifted or not, the mover changes nothing here (only neighbours of `from` are looked at).
#[inline]
pub(crate) fn beetle_steps(board: &Board, from: Hex, from_height: u8, out: &mut CellSet) {
    for dir in Direction::ALL {
        let to = from.step(dir);
        if can_step(board, from, dir, from_height, board.height(to)) {
            // A ground step also needs something to touch; `can_step` checks that through `can_slide`, and a
            // step onto or off a stack touches that stack.
            out.insert(to);
        }
    }
}
