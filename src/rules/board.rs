//! Which piece is where: stacks of pieces on the hex grid, and the Zobrist keys of the arrangement.
//!
//! Owns occupancy and stacking only. Hands, turns and the rules of moving belong to the position and the
//! move generator. Each cell keeps its top piece and its height; each piece remembers the piece under it,
//! so a stack is a short linked list and a ground cell costs two bytes.

use crate::rules::hex::{Direction, Directions, Hex, GRID};
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::piece_set::PieceSet;

const NONE: u8 = u8::MAX;

/// The pieces on the board.
#[derive(Clone)]
pub struct Board {
    top: [u8; GRID],
    height: [u8; GRID],
    below: [u8; Piece::COUNT],
    hex_of: [Hex; Piece::COUNT],
    on_board: u32,
    hash: u64,
    /// Zobrist hash of the hive's shape: which cells are occupied. Whatever stands on them and however high, the
    /// same cells split the hive when emptied, so it names what decides which pieces are pinned (with the
    /// heights, which say who stands alone).
    ground: u64,
    /// Per colour (and a spare row for "no piece"), for each cell: bit `d` set when the neighbour in direction
    /// `d` has a piece of that colour on top. Their union is the occupancy around a cell, so slides, placements
    /// and the hive graph read one byte per cell instead of six.
    touching: [[u8; GRID]; 3],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            top: [NONE; GRID],
            height: [0; GRID],
            below: [NONE; Piece::COUNT],
            hex_of: [Hex::ORIGIN; Piece::COUNT],
            on_board: 0,
            hash: 0,
            ground: 0,
            touching: [[0; GRID]; 3],
        }
    }
}

impl Board {
    /// The piece on top of the stack at `hex`, if any.
    #[inline]
    pub fn top(&self, hex: Hex) -> Option<Piece> {
        let raw = self.top[hex.index()];
        (raw != NONE).then(|| Piece::from_index(raw as usize))
    }

    /// Whether the top of any stack next to `hex` is a `bug`.
    #[inline]
    pub(crate) fn touches(&self, hex: Hex, bug: Bug) -> bool {
        hex.neighbours()
            .iter()
            .any(|&n| self.top(n).is_some_and(|p| p.bug() == bug))
    }

    /// How many pieces are stacked at `hex` (0 when empty).
    #[inline]
    pub fn height(&self, hex: Hex) -> u8 {
        self.height[hex.index()]
    }

    /// Whether any piece stands at `hex`.
    #[inline]
    pub fn is_occupied(&self, hex: Hex) -> bool {
        self.height[hex.index()] != 0
    }

    /// The directions in which the neighbour of `hex` is occupied.
    #[inline]
    pub fn occupied_around(&self, hex: Hex) -> Directions {
        Directions::from_bits(self.occupied_bits(hex))
    }

    /// The directions in which the neighbour of `hex` has a piece of `color` on top.
    #[inline]
    pub fn touching(&self, color: Color, hex: Hex) -> Directions {
        Directions::from_bits(self.touching_bits(color, hex))
    }

    /// [`Board::occupied_around`] as bits, for the move generator's table lookups.
    #[inline]
    pub(crate) fn occupied_bits(&self, hex: Hex) -> u8 {
        self.touching[0][hex.index()] | self.touching[1][hex.index()]
    }

    /// [`Board::touching`] as bits.
    #[inline]
    pub(crate) fn touching_bits(&self, color: Color, hex: Hex) -> u8 {
        self.touching[color.index()][hex.index()]
    }

    /// Whether `piece` is on the board (not in a hand).
    #[inline]
    pub fn is_on_board(&self, piece: Piece) -> bool {
        self.on_board & (1 << piece.index()) != 0
    }

    /// Where `piece` stands, if it is on the board.
    #[inline]
    pub fn hex_of(&self, piece: Piece) -> Option<Hex> {
        self.is_on_board(piece).then(|| self.hex_of[piece.index()])
    }

    /// Where `piece` stands; meaningless for a piece in hand.
    #[inline]
    pub(crate) fn hex_of_unchecked(&self, piece: Piece) -> Hex {
        self.hex_of[piece.index()]
    }

    /// The piece directly under `piece` in its stack.
    #[inline]
    pub fn below(&self, piece: Piece) -> Option<Piece> {
        let raw = self.below[piece.index()];
        (raw != NONE).then(|| Piece::from_index(raw as usize))
    }

    /// Whether `piece` is on the board with nothing on top of it.
    #[inline]
    pub fn is_top(&self, piece: Piece) -> bool {
        self.is_on_board(piece) && self.top[self.hex_of[piece.index()].index()] == piece.index() as u8
    }

    /// The stack at `hex`, from the top down.
    pub fn stack(&self, hex: Hex) -> impl Iterator<Item = Piece> + '_ {
        std::iter::successors(self.top(hex), |&p| self.below(p))
    }

    /// The pieces on the board.
    #[inline]
    pub fn on_board(&self) -> PieceSet {
        PieceSet::from_bits(self.on_board)
    }

    /// Whether any piece stands on another. Only a Beetle or a Mosquito climbs and stays up, so only they are
    /// looked at.
    #[inline]
    pub(crate) fn any_stack(&self) -> bool {
        let mut climbers = self.on_board & CLIMBERS;
        while climbers != 0 {
            let i = climbers.trailing_zeros() as usize;
            climbers &= climbers - 1;
            if self.below[i] != NONE {
                return true;
            }
        }
        false
    }

    /// Whether a Pillbug is on the board: without one, no piece can be thrown (a Mosquito throws only beside one).
    #[inline]
    pub(crate) fn has_pillbug(&self) -> bool {
        self.on_board & PILLBUGS != 0
    }

    /// Number of pieces on the board.
    #[inline]
    pub fn piece_count(&self) -> u32 {
        self.on_board.count_ones()
    }

    /// Zobrist hash of the arrangement (pieces by colour and kind, cells and stacking order).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Zobrist hash of the hive's shape (see `ground`): two boards with the same shape hash have the same cut
    /// cells.
    #[inline]
    pub(crate) fn shape_hash(&self) -> u64 {
        self.ground
    }

    /// The shape hash (see [`Board::shape_hash`]) after the top piece at `from` (or a piece from a hand, `None`)
    /// goes on top of the stack at `to`, another cell.
    #[inline]
    pub(crate) fn shape_hash_after(&self, from: Option<Hex>, to: Hex) -> u64 {
        let left = from.map_or(0, |from| ground_key(from, self.height(from) - 1));
        self.ground ^ left ^ ground_key(to, self.height(to))
    }

    /// Put `piece` on top of the stack at `hex` (possibly empty).
    #[inline]
    pub(crate) fn push(&mut self, piece: Piece, hex: Hex) {
        let level = self.put(piece, hex);
        self.hash ^= zobrist(piece, hex, level);
        self.ground ^= ground_key(hex, level);
    }

    /// Take the top piece off the stack at `hex`, which must not be empty.
    #[inline]
    pub(crate) fn pop(&mut self, hex: Hex) -> Piece {
        let piece = self.lift(hex);
        let level = self.height[hex.index()];
        self.hash ^= zobrist(piece, hex, level);
        self.ground ^= ground_key(hex, level);
        piece
    }

    /// Both keys (the arrangement's and the shape's), for [`Board::take_back`].
    #[inline]
    pub(crate) fn keys(&self) -> [u64; 2] {
        [self.hash, self.ground]
    }

    /// Take back a move: the piece on top at `to` goes back to `from` (off the board when `None`, a placement),
    /// and the keys become `keys`, those [`Board::keys`] gave before the move, so that they need not be worked out
    /// again.
    #[inline]
    pub(crate) fn take_back(&mut self, to: Hex, from: Option<Hex>, keys: [u64; 2]) {
        let piece = self.lift(to);
        if let Some(from) = from {
            self.put(piece, from);
        }
        [self.hash, self.ground] = keys;
    }

    /// [`Board::push`] but for the keys; returns how many pieces `piece` stands on.
    #[inline]
    fn put(&mut self, piece: Piece, hex: Hex) -> u8 {
        let i = hex.index();
        let level = self.height[i];
        self.recolor(hex, self.top[i], piece.index() as u8);
        self.below[piece.index()] = self.top[i];
        self.top[i] = piece.index() as u8;
        self.height[i] = level + 1;
        self.hex_of[piece.index()] = hex;
        self.on_board |= 1 << piece.index();
        level
    }

    /// [`Board::pop`] but for the keys.
    #[inline]
    fn lift(&mut self, hex: Hex) -> Piece {
        let i = hex.index();
        debug_assert!(self.height[i] > 0, "pop from an empty cell");
        let piece = Piece::from_index(self.top[i] as usize);
        self.recolor(hex, self.top[i], self.below[piece.index()]);
        self.top[i] = self.below[piece.index()];
        self.height[i] -= 1;
        self.below[piece.index()] = NONE;
        self.on_board &= !(1 << piece.index());
        piece
    }
}

impl Board {
    /// Keep `touching` right when the top of `hex` changes from the raw piece `old` to `new`.
    #[inline]
    fn recolor(&mut self, hex: Hex, old: u8, new: u8) {
        let (old, new) = (color_row(old), color_row(new));
        if old == new {
            return;
        }
        for dir in Direction::ALL {
            let n = hex.step(dir).index();
            let bit = 1 << dir.opposite().index();
            // Row 2 stands for "no piece": writing to it is harmless and saves a branch.
            self.touching[old][n] &= !bit;
            self.touching[new][n] |= bit;
        }
    }
}

/// The `touching` row of a raw top: 0 White, 1 Black, 2 none.
#[inline]
fn color_row(raw: u8) -> usize {
    match raw {
        NONE => 2,
        r if r < 14 => 0,
        _ => 1,
    }
}

/// Bit `i` set for each piece `i` that is a `first` or a `second` (of either colour).
const fn pieces_of(first: Bug, second: Bug) -> u32 {
    let mut mask = 0;
    let mut i = 0;
    while i < Piece::COUNT {
        let bug = Piece::from_index(i).bug() as u8;
        if bug == first as u8 || bug == second as u8 {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

/// The pieces that can end a move on top of another: the Beetles and the Mosquitoes.
const CLIMBERS: u32 = pieces_of(Bug::Beetle, Bug::Mosquito);

/// The Pillbugs.
const PILLBUGS: u32 = pieces_of(Bug::Pillbug, Bug::Pillbug);

/// The pieces that may throw another: the Pillbugs and the Mosquitoes (beside a Pillbug).
pub(crate) const THROWERS: u32 = pieces_of(Bug::Pillbug, Bug::Mosquito);

/// For each piece, the index of the first piece of its colour and kind: what the hash of the arrangement knows of
/// a piece. Pieces of one colour and kind are alike on the table (their numbers are the notation's), so two
/// boards that differ only by which Ant stands where are the same position.
const KIND_OF: [u8; Piece::COUNT] = {
    let mut kinds = [0; Piece::COUNT];
    let mut i = 0;
    while i < Piece::COUNT {
        kinds[i] = i as u8 + 1 - Piece::from_index(i).number();
        i += 1;
    }
    kinds
};

/// The key of a piece of `piece`'s colour and kind standing at `hex` with `level` pieces under it: a fixed mix of
/// the three, so the table costs no memory and no cache lines.
#[inline]
pub(crate) fn zobrist(piece: Piece, hex: Hex, level: u8) -> u64 {
    let seed = (KIND_OF[piece.index()] as u64) << 16 | (level as u64) << 11 | hex.index() as u64;
    mix(seed ^ 0x5851_f42d_4c95_7f2d)
}

/// What a piece standing at `hex` on `level` pieces adds to the shape hash: the cell's key on the ground, nothing
/// higher up.
#[inline]
fn ground_key(hex: Hex, level: u8) -> u64 {
    if level == 0 {
        mix(hex.index() as u64 ^ 0x2545_f491_4f6c_dd1d)
    } else {
        0
    }
}

/// SplitMix64's finaliser: a bijective mix with good avalanche.
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::piece::Bug;

    #[test]
    fn push_and_pop_keep_stacks_and_hash() {
        let mut board = Board::default();
        let queen = Piece::new(Color::White, Bug::Queen, 1).unwrap();
        let beetle = Piece::new(Color::Black, Bug::Beetle, 1).unwrap();
        let h = Hex::ORIGIN;
        board.push(queen, h);
        let one = board.hash();
        board.push(beetle, h);
        assert_eq!(board.height(h), 2);
        assert_eq!(board.top(h), Some(beetle));
        assert_eq!(board.stack(h).collect::<Vec<_>>(), vec![beetle, queen]);
        assert!(!board.is_top(queen));
        assert_eq!(board.pop(h), beetle);
        assert_eq!(board.hash(), one);
        assert_eq!(board.pop(h), queen);
        assert_eq!(board.hash(), 0);
        assert!(!board.is_occupied(h));
    }

    #[test]
    fn the_shape_hash_sees_which_cells_are_occupied_and_nothing_else() {
        let piece = |bug, n| Piece::new(Color::White, bug, n).unwrap();
        let (queen, b1, b2) = (piece(Bug::Queen, 1), piece(Bug::Beetle, 1), piece(Bug::Beetle, 2));
        let h = Hex::ORIGIN;
        let mut board = Board::default();
        board.push(queen, h);
        let one = board.shape_hash();
        assert_ne!(one, 0);
        board.push(b1, h);
        assert_eq!(board.shape_hash(), one, "a piece climbing on a stack changes no cell");
        board.push(b2, h.step(Direction::East));
        let two = board.shape_hash();
        assert_ne!(two, one, "another cell occupied");
        board.pop(h.step(Direction::East));
        board.pop(h);
        board.pop(h);
        assert_eq!(board.shape_hash(), 0);
        board.push(b1, h);
        assert_eq!(board.shape_hash(), one, "which piece stands there does not matter");
        board.push(queen, h.step(Direction::East));
        assert_eq!(board.shape_hash(), two);
    }

    #[test]
    fn alike_pieces_are_interchangeable_in_the_hash_and_the_shape() {
        let ant = |n| Piece::new(Color::White, Bug::Ant, n).unwrap();
        let (here, there) = (Hex::ORIGIN, Hex::ORIGIN.step(Direction::ALL[0]));
        let mut one = Board::default();
        one.push(ant(1), here);
        one.push(ant(2), there);
        let mut other = Board::default();
        other.push(ant(2), here);
        other.push(ant(1), there);
        assert_eq!(one.hash(), other.hash(), "which Ant stands where is the same position");
        assert_eq!(
            one.shape_hash(),
            other.shape_hash(),
            "the same cells are occupied: the cut cells are the same, and the pinned pieces are read off the board"
        );
        let spider = Piece::new(Color::White, Bug::Spider, 1).unwrap();
        let black_ant = Piece::new(Color::Black, Bug::Ant, 1).unwrap();
        for (a, b) in [(ant(1), spider), (ant(1), black_ant)] {
            let mut x = Board::default();
            x.push(a, here);
            let mut y = Board::default();
            y.push(b, here);
            assert_ne!(x.hash(), y.hash(), "{a} and {b} are not alike");
        }
    }
}
