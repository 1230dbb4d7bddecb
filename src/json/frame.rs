//! Where the cells of a Waggle board are on the API's grid. Waggle's grid wraps around, so its own coordinates
//! say nothing about the API's: the hive is walked from one piece ([`Layout`]) and the walk is shifted so that
//! the hive's north-west corner (the least axial `q` and the least `r` of its occupied cells) lands where the
//! request had it.
//!
//! Owns that correspondence only, for the occupied cells and the empty cells next to them that moves reach.

use std::collections::HashMap;

use crate::rules::board::Board;
use crate::rules::hex::Hex;
use crate::rules::layout::Layout;
use crate::rules::setup::Cell;

use super::names::CellName;

/// The cells of one board (occupied, and the empty ones asked for) with their names on the API's grid.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    names: HashMap<Hex, CellName>,
    hexes: HashMap<CellName, Hex>,
}

impl Frame {
    /// The frame of `board` and the empty cells `extra` next to it (destinations of moves; for an empty board,
    /// the first placement's cell, which lands on `corner`), placed so that the occupied cells' north-west corner
    /// is the axial cell `corner`.
    pub fn new(board: &Board, extra: &[Hex], corner: Cell) -> Frame {
        let layout = Layout::of(board, extra);
        let occupied = layout.cells().iter().filter(|c| board.is_occupied(c.hex));
        let walked = (
            occupied.clone().map(|c| c.q).min().unwrap_or(0),
            occupied.map(|c| c.r).min().unwrap_or(0),
        );
        let (dq, dr) = (corner.0 - walked.0, corner.1 - walked.1);
        let mut frame = Frame::default();
        for cell in layout.cells() {
            let name = CellName::from_axial((cell.q + dq, cell.r + dr));
            frame.names.insert(cell.hex, name);
            frame.hexes.insert(name, cell.hex);
        }
        frame
    }

    /// The name of `hex`, if it is in the frame.
    pub fn name(&self, hex: Hex) -> Option<CellName> {
        self.names.get(&hex).copied()
    }

    /// The cell named `name`, if it is in the frame.
    pub fn hex(&self, name: CellName) -> Option<Hex> {
        self.hexes.get(&name).copied()
    }
}
