//! The Ladybug: two steps across the top of the hive, then one step down into an empty cell.

use super::dests::CellSet;
use super::hive::{can_step, Surface, Without};
use crate::rules::hex::Direction;

/// Ladybug walks from `board.gone`, the cell the Ladybug left (now empty).
pub(crate) fn ladybug(board: &Without, out: &mut CellSet) {
    let from = board.gone;
    let start_height = 0;
    for d1 in Direction::ALL {
        let first = from.step(d1);
        let first_height = board.height(first);
        if first_height == 0 || !can_step(board, from, d1, start_height, first_height) {
            continue;
        }
        for d2 in Direction::ALL {
            let second = first.step(d2);
            let second_height = board.height(second);
            if second_height == 0 || second == from || !can_step(board, first, d2, first_height, second_height) {
                continue;
            }
            for d3 in Direction::ALL {
                let to = second.step(d3);
                if to != from && !board.is_occupied(to) && can_step(board, second, d3, second_height, 0) {
                    out.insert(to);
                }
            }
        }
    }
}
