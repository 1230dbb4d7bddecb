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

/// Soldier Ant walks from `from` (the mover already lifted). When `out` is empty the walk floods it directly;
/// otherwise (a Mosquito that already has moves, or carries) it floods `seen` and copies the result.
pub(crate) fn ant(board: &Board, from: Hex, seen: &mut CellSet, out: &mut CellSet) {
    if out.len() == 0 {
        flood(board, from, out);
        // No other walk ever ends on its own start, so the stale mark on `from` is harmless.
        out.remove_first();
    } else {
        seen.clear();
        flood(board, from, seen);
        for &to in &seen.as_slice()[1..] {
            out.insert(to);
        }
    }
}

/// Every cell reachable by slides from `from`, `from` first, added to the empty set `cells`.
#[inline]
fn flood(board: &Board, from: Hex, cells: &mut CellSet) {
    cells.flood(from, |cell| slide_targets(board, cell));
}
