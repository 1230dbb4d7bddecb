//! Crawlers around the hive: the Spider (exactly three slides, never revisiting a cell) and the Soldier Ant (any
//! number of slides).

use super::dests::CellSet;
use super::hive::{cells_towards, slides_from};
use crate::board::Board;
use crate::hex::Hex;

/// The empty cells one slide away from `from`.
#[inline]
fn slide_targets(board: &Board, from: Hex) -> impl Iterator<Item = Hex> {
    cells_towards(from, slides_from(board, from))
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
        for to in slide_targets(board, cell) {
            seen.insert(to);
        }
    }
    for &to in &seen.as_slice()[1..] {
        out.insert(to);
    }
}
