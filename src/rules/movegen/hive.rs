//! One Hive and freedom to move: which pieces are pinned (an articulation-point pass over the whole hive at once),
//! and whether a single step between two neighbouring cells is possible, on the ground or across stacks.
//!
//! The step rules read the board through [`Surface`]: the board itself, or the board seen without a piece that
//! is on its way ([`Without`]), so that nothing is ever lifted off the real board and move generation needs no
//! `&mut`.

use crate::rules::board::Board;
use crate::rules::hex::{Direction, Hex, GRID};

/// What the step rules need to know about the board: how high each stack is and which neighbours of a cell are
/// occupied.
pub(crate) trait Surface {
    /// How many pieces are stacked at `hex`.
    fn height(&self, hex: Hex) -> u8;
    /// Bit `d` set when the neighbour of `hex` in direction `d` is occupied.
    fn around(&self, hex: Hex) -> u8;
}

impl Surface for Board {
    #[inline]
    fn height(&self, hex: Hex) -> u8 {
        Board::height(self, hex)
    }
    #[inline]
    fn around(&self, hex: Hex) -> u8 {
        self.occupied_bits(hex)
    }
}

/// The board as a walking piece sees it: the piece standing alone at `gone` has left its cell. A Spider, Soldier
/// Ant or Ladybug may pass its own starting cell and may not lean on itself at a gate.
pub(crate) struct Without<'a> {
    pub board: &'a Board,
    pub gone: Hex,
}

impl Surface for Without<'_> {
    #[inline]
    fn height(&self, hex: Hex) -> u8 {
        if hex == self.gone {
            0
        } else {
            self.board.height(hex)
        }
    }
    #[inline]
    fn around(&self, hex: Hex) -> u8 {
        self.board.occupied_bits(hex) & !hex.towards(self.gone).bits()
    }
}

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

/// The directions (bit `d`) in which a ground-level piece can slide into an empty cell from a cell whose occupied
/// neighbours are `around`.
#[inline]
pub(crate) fn slides_of(around: u8) -> u8 {
    SLIDES[usize::from(around & 0x3f)]
}

/// The directions (bit `d`) in which a ground-level piece at `from` can slide into an empty cell.
#[inline]
pub(crate) fn slides_from<S: Surface>(board: &S, from: Hex) -> u8 {
    SLIDES[board.around(from) as usize]
}

/// Whether a ground-level piece can slide from `from` to the empty neighbour in direction `dir`.
#[inline]
pub(crate) fn can_slide<S: Surface>(board: &S, from: Hex, dir: Direction) -> bool {
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
        Some(from.step_index(dir))
    })
}

/// Whether a piece can step from the stack at `from` to the stack in direction `dir`, where the piece stands on
/// `from_height` pieces and lands on `to_height` pieces (the heights not counting the piece itself). A step between
/// two ground cells is a slide; otherwise the step is blocked only when both bordering stacks are higher than both
/// ends (a gate).
#[inline]
pub(crate) fn can_step<S: Surface>(board: &S, from: Hex, dir: Direction, from_height: u8, to_height: u8) -> bool {
    if from_height == 0 && to_height == 0 {
        return can_slide(board, from, dir);
    }
    let (left, right) = gate_cells(from, dir);
    let top = from_height.max(to_height);
    board.height(left) <= top || board.height(right) <= top
}

/// For each pattern of occupied neighbours, how many separate runs of occupied cells surround a cell. A piece
/// whose neighbours form a single run can always leave: they stay connected around it.
const ARCS: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut around = 0;
    while around < 64 {
        let mut dir = 0;
        while dir < 6 {
            // Count the starts of runs: an occupied cell whose anticlockwise neighbour is empty.
            if around >> dir & 1 == 1 && around >> ((dir + 5) % 6) & 1 == 0 {
                table[around] += 1;
            }
            dir += 1;
        }
        around += 1;
    }
    table
};

/// Whether the piece alone at `hex` might split the hive by leaving: its neighbours form more than one run.
#[inline]
pub(crate) fn may_be_pinned(board: &Board, hex: Hex) -> bool {
    ARCS[board.occupied_bits(hex) as usize] > 1
}

/// Whether the occupied neighbours `around` (at least one) form a single run around their cell.
#[inline]
pub(crate) fn one_run(around: u8) -> bool {
    ARCS[usize::from(around & 0x3f)] == 1
}

/// Room for every piece, rounded up to a power of two so that indices are masked instead of bounds-checked.
pub(crate) const SLOTS: usize = 32;

/// A cell on the depth-first search's path.
#[derive(Clone, Copy)]
struct Frame {
    hex: Hex,
    /// Discovery time.
    time: u8,
    /// The lowest discovery time reachable from the cell's subtree by one back edge, so far.
    low: u8,
    /// Occupied neighbours not yet looked at.
    pending: u8,
}

/// Scratch space for the articulation-point pass.
#[derive(Clone)]
pub(crate) struct Tarjan {
    /// Discovery time per cell; 0 for not yet seen. Reset after each pass.
    discovered: [u8; GRID],
    /// The cells on the path above the one being looked at.
    stack: [Frame; SLOTS],
    visited: [Hex; SLOTS],
}

impl Default for Tarjan {
    fn default() -> Self {
        let frame = Frame {
            hex: Hex::ORIGIN,
            time: 0,
            low: 0,
            pending: 0,
        };
        Tarjan {
            discovered: [0; GRID],
            stack: [frame; SLOTS],
            visited: [Hex::ORIGIN; SLOTS],
        }
    }
}

impl Tarjan {
    /// The cells whose removal would split the hive (whatever stands on them), into `cuts`; returns how many.
    /// An iterative depth-first search from `start` over occupied cells (Tarjan's articulation points). The cell
    /// being looked at stays out of the stack, in registers: only its ancestors are stored.
    pub(crate) fn cut_cells(&mut self, board: &Board, start: Hex, cuts: &mut [Hex; SLOTS]) -> usize {
        // Borrowed apart so the compiler can keep the search state in registers.
        let Tarjan {
            discovered,
            stack,
            visited,
        } = self;
        // Bit `t` set when the cell discovered at time `t` is a cut cell (a cell may be found so more than once).
        let mut cut = 0u32;
        let mut time = 1u8;
        // How many ancestors of `current` are on the stack.
        let mut depth = 0;
        let mut root_children = 0;
        discovered[start.index()] = 1;
        visited[0] = start;
        let mut current = Frame {
            hex: start,
            time: 1,
            low: 1,
            pending: board.occupied_bits(start),
        };
        loop {
            if current.pending != 0 {
                let dir = current.pending.trailing_zeros() as usize;
                current.pending &= current.pending - 1;
                let next = current.hex.step_index(dir);
                let seen = discovered[next.index()];
                if seen == 0 {
                    visited[usize::from(time) & (SLOTS - 1)] = next;
                    time += 1;
                    discovered[next.index()] = time;
                    stack[depth & (SLOTS - 1)] = current;
                    depth += 1;
                    current = Frame {
                        hex: next,
                        time,
                        low: time,
                        pending: board.occupied_bits(next),
                    };
                } else {
                    // A back edge (or the edge to the parent, which changes nothing for articulation points).
                    current.low = current.low.min(seen);
                }
                continue;
            }
            // All neighbours done: report to the parent.
            if depth == 0 {
                break;
            }
            depth -= 1;
            let mut parent = stack[depth & (SLOTS - 1)];
            parent.low = parent.low.min(current.low);
            if depth == 0 {
                root_children += 1;
            } else if current.low >= parent.time {
                cut |= 1 << (parent.time & 31);
            }
            current = parent;
        }
        if root_children > 1 {
            cut |= 1 << 1;
        }
        let mut count = 0;
        while cut != 0 {
            let at = cut.trailing_zeros() as usize;
            cut &= cut - 1;
            cuts[count & (SLOTS - 1)] = visited[(at - 1) & (SLOTS - 1)];
            count += 1;
        }
        for i in 0..usize::from(time).min(SLOTS) {
            discovered[visited[i].index()] = 0;
        }
        count
    }
}

/// Bit `i` set when the piece with index `i` stands alone on one of `cuts`: a piece on a stack leaves its cell
/// occupied when it goes, so only a piece alone on a cut cell is pinned.
#[inline]
pub(crate) fn pinned_on(board: &Board, cuts: &[Hex]) -> u32 {
    let mut pinned = 0;
    for &hex in cuts {
        if board.height(hex) == 1 {
            if let Some(p) = board.top(hex) {
                pinned |= 1 << p.index();
            }
        }
    }
    pinned
}
