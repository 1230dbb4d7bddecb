//! Crawlers around the hive: the Spider (exactly three slides, never revisiting a cell) and the Soldier Ant (any
//! number of slides).

use super::dests::CellSet;
use super::hive::{cells_towards, slides_from, Without};
use crate::rules::hex::Hex;

/// The empty cells one slide away from `from`.
#[inline]
fn slide_targets(board: &Without, from: Hex) -> impl Iterator<Item = Hex> {
    cells_towards(from, slides_from(board, from))
}

/// Spider walks from `board.gone`, the cell the Spider left.
pub(crate) fn spider(board: &Without, out: &mut CellSet) {
    let from = board.gone;
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

/// Soldier Ant walks from `board.gone`, the cell the Ant left. When `out` is empty the walk floods it directly;
/// otherwise (a Mosquito that already has moves, or carries) it floods `seen` and copies the result.
pub(crate) fn ant(board: &Without, seen: &mut CellSet, out: &mut CellSet) {
    let from = board.gone;
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

/// Whether a Soldier Ant that left `board.gone` can walk to `target`: its flood fill, stopped once it gets there.
pub(crate) fn ant_reaches(board: &Without, seen: &mut CellSet, target: Hex) -> bool {
    let from = board.gone;
    if target == from {
        return false;
    }
    seen.clear();
    seen.insert(from);
    let mut at = 0;
    while at < seen.len() {
        let cell = seen.as_slice()[at];
        at += 1;
        for to in slide_targets(board, cell) {
            if to == target {
                return true;
            }
            seen.insert(to);
        }
    }
    false
}

/// Every cell reachable by slides from `from`, `from` first, added to the empty set `cells`.
#[inline]
fn flood(board: &Without, from: Hex, cells: &mut CellSet) {
    cells.flood(from, |cell| slide_targets(board, cell));
}
