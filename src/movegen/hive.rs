//! One Hive and freedom to move: which pieces are pinned (an articulation-point pass over the whole hive at once),
//! and whether a single step between two neighbouring cells is possible, on the ground or across stacks.
//!
//! Every function here looks at the board as it is: callers lift the moving piece first.

use crate::board::Board;
use crate::hex::{Direction, Hex, GRID};
use crate::piece::Piece;

/// The two cells bordering both `from` and `from.step(dir)`.
#[inline]
pub(crate) fn gate_cells(from: Hex, dir: Direction) -> (Hex, Hex) {
    (from.step(dir.anticlockwise()), from.step(dir.clockwise()))
}

/// For each pattern of occupied neighbours (bit `d` for direction `d`), the directions a ground-level piece can
/// slide to: the target is empty and exactly one of the two cells bordering both is occupied (one empty so it
/// fits through, one occupied so it keeps touching the hive while it moves).
const SLIDES: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut around = 0;
    while around < 64 {
        let mut dir = 0;
        while dir < 6 {
            let target = around >> dir & 1;
            let left = around >> ((dir + 5) % 6) & 1;
            let right = around >> ((dir + 1) % 6) & 1;
            if target == 0 && left != right {
                table[around] |= 1 << dir;
            }
            dir += 1;
        }
        around += 1;
    }
    table
};

/// The directions (bit `d`) in which a ground-level piece at `from` can slide into an empty cell.
#[inline]
pub(crate) fn slides_from(board: &Board, from: Hex) -> u8 {
    SLIDES[board.occupied_around(from) as usize]
}

/// Whether a ground-level piece can slide from `from` to the empty neighbour in direction `dir`.
#[inline]
pub(crate) fn can_slide(board: &Board, from: Hex, dir: Direction) -> bool {
    slides_from(board, from) & (1 << dir.index()) != 0
}

/// The cells in the directions set in `dirs`, nearest direction first.
#[inline]
pub(crate) fn cells_towards(from: Hex, mut dirs: u8) -> impl Iterator<Item = Hex> {
    std::iter::from_fn(move || {
        if dirs == 0 {
            return None;
        }
        let dir = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        Some(from.step(Direction::from_index(dir)))
    })
}

/// Whether a piece can step from the stack at `from` to the stack in direction `dir`, where the piece stands on
/// `from_height` pieces and lands on `to_height` pieces (the heights not counting the piece itself). A step between
/// two ground cells is a slide; otherwise the step is blocked only when both bordering stacks are higher than both
/// ends (a gate).
#[inline]
pub(crate) fn can_step(board: &Board, from: Hex, dir: Direction, from_height: u8, to_height: u8) -> bool {
    if from_height == 0 && to_height == 0 {
        return can_slide(board, from, dir);
    }
    let (left, right) = gate_cells(from, dir);
    let top = from_height.max(to_height);
    board.height(left) <= top || board.height(right) <= top
}

/// Scratch space for the articulation-point pass.
#[derive(Clone)]
pub(crate) struct Tarjan {
    discovered: [u8; GRID],
    visited: [Hex; Piece::COUNT],
    visited_len: usize,
}

impl Default for Tarjan {
    fn default() -> Self {
        Tarjan {
            discovered: [0; GRID],
            visited: [Hex::ORIGIN; Piece::COUNT],
            visited_len: 0,
        }
    }
}

impl Tarjan {
    /// Bit `i` set when the piece with index `i` stands alone on a cell whose removal would split the hive.
    pub(crate) fn pinned(&mut self, board: &Board, start: Hex) -> u32 {
        let mut pinned = 0u32;
        self.visited_len = 0;
        let mut time = 0u8;
        // The root is an articulation point when it has more than one DFS child.
        time += 1;
        self.discovered[start.index()] = time;
        self.push_visited(start);
        let mut children = 0;
        for n in cells_towards(start, board.occupied_around(start)) {
            if self.discovered[n.index()] == 0 {
                children += 1;
                self.visit(board, n, start, &mut time, &mut pinned);
            }
        }
        if children > 1 {
            mark(board, start, &mut pinned);
        }
        for i in 0..self.visited_len {
            self.discovered[self.visited[i].index()] = 0;
        }
        pinned
    }

    #[inline]
    fn push_visited(&mut self, hex: Hex) {
        self.visited[self.visited_len] = hex;
        self.visited_len += 1;
    }

    /// Visit `hex`, reached from `parent`; returns the lowest discovery time reachable from its subtree.
    fn visit(&mut self, board: &Board, hex: Hex, parent: Hex, time: &mut u8, pinned: &mut u32) -> u8 {
        *time += 1;
        let discovered = *time;
        self.discovered[hex.index()] = discovered;
        self.push_visited(hex);
        let mut low = discovered;
        let mut cut = false;
        for n in cells_towards(hex, board.occupied_around(hex)) {
            if n == parent {
                continue;
            }
            let seen = self.discovered[n.index()];
            if seen == 0 {
                let child_low = self.visit(board, n, hex, time, pinned);
                if child_low >= discovered {
                    cut = true;
                }
                low = low.min(child_low);
            } else {
                low = low.min(seen);
            }
        }
        if cut {
            mark(board, hex, pinned);
        }
        low
    }
}

/// Pin the piece at `hex` if it stands alone: a piece on a stack leaves the cell occupied when it goes.
#[inline]
fn mark(board: &Board, hex: Hex, pinned: &mut u32) {
    if board.height(hex) == 1 {
        if let Some(p) = board.top(hex) {
            *pinned |= 1 << p.index();
        }
    }
}
