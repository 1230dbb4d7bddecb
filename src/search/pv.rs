//! The principal variation: the line the search expects, collected in a triangular table as the search unwinds.
//!
//! Owns only the bookkeeping; which line is best is the alpha-beta search's call.

use crate::rules::moves::Move;

use super::MAX_PLY;

/// Line `ply` holds the best continuation found from the node at that ply; a new best move at `ply` copies the
/// child's line behind it.
pub(crate) struct PvTable {
    lines: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    lengths: [usize; MAX_PLY],
}

impl PvTable {
    pub fn new() -> PvTable {
        PvTable {
            lines: Box::new([[Move::Pass; MAX_PLY]; MAX_PLY]),
            lengths: [0; MAX_PLY],
        }
    }

    /// The node at `ply` has no line yet.
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.lengths[ply] = 0;
    }

    /// `mv` is the new best move at `ply`: its line is `mv` followed by the line at `ply + 1`.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: Move) {
        let child = if ply + 1 < MAX_PLY { self.lengths[ply + 1] } else { 0 };
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = mv;
        if child > 0 {
            line[1..=child].copy_from_slice(&tail[0][..child]);
        }
        self.lengths[ply] = child + 1;
    }

    /// The line found at `ply`.
    pub fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply][..self.lengths[ply]]
    }
}
