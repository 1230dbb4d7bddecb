//! Crawlers around the hive: the Spider (exactly three slides, never revisiting a cell) and the Soldier Ant (any
//! number of slides).

use super::dests::CellSet;
use super::hive::can_slide;
use crate::board::Board;
use crate::hex::{Direction, Hex};

/// The empty cells one slide away from `from`, as `(direction, cell)`.
#[inline]
fn slide_targets(board: &Board, from: Hex) -> impl Iterator<Item = Hex> + '_ {
    Direction::ALL.into_iter().filter_map(move |dir| {
        let to = from.step(dir);
        (!board.is_occupied(to) && can_slide(board, from, dir)).then_some(to)
    })
}

/// Spider walks from `from` (the mover already lifted).
pub(crate) fn spider(board: &Board, from: Hex, out: &mut CellSet) {
    for first in slide_targets(board, from) {
        for second in slide_targets(board, first) {
            if second == from {
                continue;
            }
            for third in slide_targets(board, second) {
                if third != first && third != from {
                    out.insert(third);
                }
            }
        }
    }
}

/// Soldier Ant walks from `from` (the mover already lifted); `seen` is scratch.
pub(crate) fn ant(board: &Board, from: Hex, seen: &mut CellSet, out: &mut CellSet) {
    seen.clear();
    seen.insert(from);
    let mut next = 0;
    while next < seen.len() {
        let cell = seen.get(next);
        next += 1;
        for dir in Direction::ALL {
            let to = cell.step(dir);
            if !board.is_occupied(to) && !seen.contains(to) && can_slide(board, cell, dir) {
                seen.insert(to);
                out.insert(to);
            }
        }
    }
}
