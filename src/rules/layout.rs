//! Where each cell of a position goes on a page (or in a description of the board): axial coordinates relative to
//! the hive itself, found by walking the hive from one piece. Pictures (`draw`), set-ups (`setup`) and the JSON
//! API's cells all place cells this way. The grid the board is stored on wraps around, so its own coordinates cannot be used:
//! a hive that crosses the wrap would be torn apart. The hive is connected and far narrower than the grid, so
//! steps from piece to piece give every cell one place.

use std::collections::VecDeque;

use crate::rules::board::Board;
use crate::rules::hex::{Direction, Hex};

/// A cell and where it goes: `q` grows to the east, `r` to the south-east (pointy-topped hexes, each row half a
/// cell to the right of the one above).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The cell.
    pub hex: Hex,
    /// Its column, counted to the east.
    pub q: i32,
    /// Its row, counted to the south-east.
    pub r: i32,
}

/// The cells to draw: the occupied ones and any extra cells next to them, each with its place.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    cells: Vec<Placed>,
}

impl Layout {
    /// Lay out the occupied cells of `board` and the cells `extra` (empty cells next to the hive, such as the
    /// destinations of a piece; the first piece's cell when the board is empty). Cells that touch nothing laid
    /// out are left out.
    pub fn of(board: &Board, extra: &[Hex]) -> Layout {
        let mut cells: Vec<Placed> = Vec::new();
        let start = board
            .on_board()
            .first()
            .and_then(|p| board.hex_of(p))
            .or_else(|| extra.first().copied());
        let Some(start) = start else {
            return Layout { cells };
        };
        let place = |cells: &mut Vec<Placed>, hex: Hex, q: i32, r: i32| {
            let new = !cells.iter().any(|c| c.hex == hex);
            if new {
                cells.push(Placed { hex, q, r });
            }
            new
        };
        place(&mut cells, start, 0, 0);
        let mut queue = VecDeque::from([(start, 0, 0)]);
        while let Some((hex, q, r)) = queue.pop_front() {
            for (dir, (dq, dr)) in Direction::ALL.into_iter().map(|dir| (dir, dir.axial())) {
                let next = hex.step(dir);
                if board.is_occupied(next) && place(&mut cells, next, q + dq, r + dr) {
                    queue.push_back((next, q + dq, r + dr));
                }
            }
        }
        for &hex in extra {
            let anchor = Direction::ALL
                .into_iter()
                .map(|dir| (dir, dir.axial()))
                .find_map(|(dir, (dq, dr))| {
                    let from = hex.step(dir.opposite());
                    cells.iter().find(|c| c.hex == from).map(|c| (c.q + dq, c.r + dr))
                });
            if let Some((q, r)) = anchor {
                place(&mut cells, hex, q, r);
            }
        }
        Layout { cells }
    }

    /// The cells laid out: the occupied ones first.
    pub fn cells(&self) -> &[Placed] {
        &self.cells
    }

    /// The place of `hex`, if it was laid out.
    pub fn place_of(&self, hex: Hex) -> Option<(i32, i32)> {
        self.cells.iter().find(|c| c.hex == hex).map(|c| (c.q, c.r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_on_the_board_are_neighbours_on_the_page() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/positions/long2.txt")).unwrap();
        let pos = crate::record::tests::position(text.trim());
        let board = pos.board();
        let layout = Layout::of(board, &[]);
        assert_eq!(layout.cells().len(), 28);
        for a in layout.cells() {
            for b in layout.cells() {
                let (dq, dr) = (b.q - a.q, b.r - a.r);
                let close = Direction::ALL.iter().any(|dir| dir.axial() == (dq, dr));
                assert_eq!(close, a.hex.is_next_to(b.hex), "{a:?} {b:?}");
            }
        }
    }
}
