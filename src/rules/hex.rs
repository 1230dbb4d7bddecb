//! Hex coordinates on a wrapping 32 × 32 grid, the six directions and neighbours.
//!
//! Owns geometry only: no pieces, no rules. A hive has at most 28 pieces, so any two cells that matter (the pieces
//! and the empty cells around them) are fewer than 32 steps apart along every axis, and the wrap-around never makes
//! two of them collide.

use super::bit_set::bit_set;

/// Cells along one side of the grid.
pub const ROW: u16 = 32;
/// Number of cells in the grid.
pub const GRID: usize = (ROW as usize) * (ROW as usize);
const MASK: u16 = GRID as u16 - 1;

/// A cell of the board, in axial coordinates packed as `q + 32·r` modulo the grid size.
///
/// `r` grows towards the south (down the screen) and `q` towards the east, for pointy-topped hexes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Hex(u16);

/// The six directions, clockwise from the upper left, in the order canonical MoveStrings look at neighbours.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Direction {
    /// Upper left (`\X` in a MoveString).
    NorthWest,
    /// Upper right (`X/`).
    NorthEast,
    /// Right (`X-`).
    East,
    /// Lower right (`X\`).
    SouthEast,
    /// Lower left (`/X`).
    SouthWest,
    /// Left (`-X`).
    West,
}

impl Direction {
    /// All six, clockwise from north-west.
    pub const ALL: [Direction; 6] = [
        Direction::NorthWest,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::West,
    ];

    /// Position in [`Direction::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction with index `i` (below 6) in [`Direction::ALL`].
    #[inline]
    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i]
    }

    /// One step this way in axial coordinates `(q, r)` (`q` grows to the east, `r` to the south-east), as
    /// layouts and set-ups count cells.
    pub fn axial(self) -> (i32, i32) {
        Hex::ORIGIN.offset_to(Hex::ORIGIN.step(self))
    }

    /// The direction pointing the other way.
    #[inline]
    pub const fn opposite(self) -> Direction {
        // Three on or three back, without a division.
        let i = self as usize;
        Direction::ALL[if i < 3 { i + 3 } else { i - 3 }]
    }

    /// The next direction clockwise.
    #[inline]
    pub const fn clockwise(self) -> Direction {
        Direction::ALL[(self as usize + 1) % 6]
    }

    /// The next direction anticlockwise.
    #[inline]
    pub const fn anticlockwise(self) -> Direction {
        Direction::ALL[(self as usize + 5) % 6]
    }

    /// Offset of the packed index for one step this way.
    #[inline]
    const fn delta(self) -> u16 {
        // Axial steps: NW (0,-1), NE (1,-1), E (1,0), SE (0,1), SW (-1,1), W (-1,0).
        match self {
            Direction::NorthWest => ROW.wrapping_neg(),
            Direction::NorthEast => ROW.wrapping_neg().wrapping_add(1),
            Direction::East => 1,
            Direction::SouthEast => ROW,
            Direction::SouthWest => ROW - 1,
            Direction::West => 1u16.wrapping_neg(),
        }
    }
}

/// For each packed-index difference `b - a` (modulo the grid), the bit of the direction from `a` to `b` when they
/// are neighbours, and 0 otherwise.
static TOWARDS: [u8; GRID] = {
    let mut table = [0u8; GRID];
    let mut i = 0;
    while i < Direction::ALL.len() {
        let offset = Direction::ALL[i].delta() as usize & (GRID - 1);
        table[offset] = 1 << i;
        i += 1;
    }
    table
};

/// A set of directions (bit `d` for the direction with index `d` in [`Direction::ALL`]): which neighbours of a
/// cell are occupied, which way a piece may slide.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Directions(u8);

bit_set!(Directions, DirectionsIter, Direction, u8, 6);

impl std::fmt::Debug for Directions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl Hex {
    /// The cell where the first piece of a game is placed.
    pub const ORIGIN: Hex = Hex(ROW / 2 * ROW + ROW / 2);

    /// The cell with this packed index (taken modulo the grid size).
    #[inline]
    pub const fn from_index(index: usize) -> Hex {
        Hex(index as u16 & MASK)
    }

    /// Packed index, below the grid's 1024 cells: use it to index per-cell arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The neighbouring cell in direction `dir`.
    #[inline]
    pub const fn step(self, dir: Direction) -> Hex {
        Hex(self.0.wrapping_add(dir.delta()) & MASK)
    }

    /// The neighbouring cell in the direction with index `dir` (below 6) in [`Direction::ALL`]: one table load, for
    /// loops over direction bit masks.
    #[inline]
    pub fn step_index(self, dir: usize) -> Hex {
        // Eight entries so that masking the index (no bounds check) stays inside the table.
        const DELTAS: [u16; 8] = [
            Direction::NorthWest.delta(),
            Direction::NorthEast.delta(),
            Direction::East.delta(),
            Direction::SouthEast.delta(),
            Direction::SouthWest.delta(),
            Direction::West.delta(),
            0,
            0,
        ];
        Hex(self.0.wrapping_add(DELTAS[dir & 7]) & MASK)
    }

    /// The six neighbours, in [`Direction::ALL`] order.
    #[inline]
    pub fn neighbours(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.step(d))
    }

    /// The direction from `self` to `other` if they are neighbours.
    pub fn direction_to(self, other: Hex) -> Option<Direction> {
        self.towards(other).first()
    }

    /// The direction from `self` to `other` as a set: one direction when they are neighbours, none otherwise.
    /// One table load, since a step is a fixed offset of the packed index.
    #[inline]
    pub fn towards(self, other: Hex) -> Directions {
        Directions(TOWARDS[other.0.wrapping_sub(self.0) as usize & (GRID - 1)])
    }

    /// Whether `self` and `other` are neighbours.
    #[inline]
    pub fn is_next_to(self, other: Hex) -> bool {
        !self.towards(other).is_empty()
    }

    /// The number of steps from `self` to `other` on an empty grid (for cells less than 16 steps apart, as any two
    /// cells of a hive are).
    #[inline]
    pub fn distance(self, other: Hex) -> u32 {
        let (q, r) = self.offset_to(other);
        (q.unsigned_abs() + r.unsigned_abs() + (q + r).unsigned_abs()) / 2
    }

    /// Whether `other` lies on one of the six straight lines through `self` (itself included).
    #[inline]
    pub fn in_line_with(self, other: Hex) -> bool {
        let (q, r) = self.offset_to(other);
        q == 0 || r == 0 || q + r == 0
    }

    /// The axial coordinates of `other` relative to `self` (meaningful while the two are less than 16 cells apart,
    /// as any two cells of a hive are).
    #[inline]
    pub fn offset_to(self, other: Hex) -> (i32, i32) {
        Hex::from_index(usize::from(other.0.wrapping_sub(self.0).wrapping_add(Hex::ORIGIN.0))).axial()
    }

    /// Axial coordinates relative to [`Hex::ORIGIN`], each in `-16..16`.
    pub fn axial(self) -> (i32, i32) {
        let row = i32::from(ROW);
        let rel = (i32::from(self.0) - i32::from(Hex::ORIGIN.0)).rem_euclid(GRID as i32);
        let mut r = rel / row;
        let mut q = rel % row;
        if q >= row / 2 {
            q -= row;
            r += 1;
        }
        if r >= row / 2 {
            r -= row;
        }
        (q, r)
    }

    /// The cell at axial coordinates `(q, r)` relative to [`Hex::ORIGIN`].
    pub fn from_axial(q: i32, r: i32) -> Hex {
        let row = i32::from(ROW);
        let index = i32::from(Hex::ORIGIN.0) + q + row * r;
        Hex::from_index(index.rem_euclid(GRID as i32) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_undo_each_other() {
        for index in [0, 1, 31, 32, 500, 1023] {
            let h = Hex::from_index(index);
            for d in Direction::ALL {
                assert_eq!(h.step(d).step(d.opposite()), h);
            }
        }
    }

    #[test]
    fn neighbouring_directions_share_a_neighbour() {
        let h = Hex::ORIGIN;
        for d in Direction::ALL {
            let a = h.step(d);
            let b = h.step(d.clockwise());
            assert!(a.neighbours().contains(&b), "{d:?}");
        }
    }

    #[test]
    fn towards_agrees_with_steps() {
        for index in [0, 1, 31, 32, 33, 500, 992, 1023] {
            let a = Hex::from_index(index);
            for other in 0..GRID {
                let b = Hex::from_index(other);
                let expected = Direction::ALL.into_iter().find(|&d| a.step(d) == b);
                assert_eq!(a.towards(b).first(), expected, "{a:?} {b:?}");
                assert_eq!(a.is_next_to(b), expected.is_some());
            }
        }
    }

    #[test]
    fn a_step_is_one_cell_in_axial_coordinates() {
        let steps: Vec<(i32, i32)> = Direction::ALL.iter().map(|d| d.axial()).collect();
        assert_eq!(steps, [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]);
    }

    #[test]
    fn axial_round_trips() {
        for q in -15..15 {
            for r in -15..15 {
                assert_eq!(Hex::from_axial(q, r).axial(), (q, r));
            }
        }
    }
}
