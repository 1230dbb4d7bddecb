//! The Queen-relative feature set: which of its 2,548 features a position turns on, seen from one side (the
//! perspective).
//!
//! Hive is played around the two Queens, so every piece on the board is placed relative to each of them: by its
//! kind (own or enemy, its bug, and for a Beetle or Mosquito whether it is up on the hive), on one of the 61 cells
//! within four steps of that Queen, or in a "far" bucket beyond. While a Queen is still in hand, the pieces are
//! counted by kind alone for her. The pieces in hand are features of their own. Once both Queens are out, the
//! board is turned and mirrored (one of the grid's twelve symmetries) so that the enemy Queen lies in one fixed
//! twelfth of the plane as seen from one's own: a position and its turned or mirrored copies are the same inputs,
//! and the net learns each pattern once instead of twelve times.
//!
//! | features | what |
//! |---|---|
//! | 0–1,239 | each piece by kind (20) and cell (61 near one's own Queen, 1 far), relative to one's own Queen |
//! | 1,240–2,479 | the same relative to the enemy Queen |
//! | 2,480–2,519 | each piece by kind, while one's own (2,480–2,499) or the enemy (2,500–2,519) Queen is in hand |
//! | 2,520–2,547 | each piece in hand, own first, by its place among its side's fourteen |
//!
//! A piece's features change only when it moves (two off, two on) or is placed (its hand feature off, two on);
//! a Queen that moves, is placed or is thrown changes the frame, and the perspective is computed afresh.

use super::FeatureSet;
use crate::rules::hex::{Hex, ROW};
use crate::rules::piece::{Bug, Color, Piece};

/// How far from a Queen a piece has a cell of its own.
const RADIUS: i32 = 4;
/// Cells within [`RADIUS`] of a Queen, hers included.
const CELLS: usize = (1 + 3 * RADIUS * (RADIUS + 1)) as usize;
/// Each kind's slots around one Queen: the cells, then "far".
const SLOTS: usize = CELLS + 1;
/// Kinds of piece as the net sees them: own or enemy, by bug on the ground (8), or a Beetle or Mosquito up on the
/// hive (2).
const KINDS: usize = 20;
/// Features placed around one Queen.
const AROUND: usize = KINDS * SLOTS;
/// Where the "Queen in hand" counts start.
const QUEEN_IN_HAND: usize = 2 * AROUND;
/// Where the pieces in hand start.
const HAND: usize = QUEEN_IN_HAND + 2 * KINDS;
/// Every feature.
const INPUTS: usize = HAND + Piece::COUNT;

/// The feature set: each piece by kind and cell relative to each Queen, and the pieces in hand.
pub(crate) struct QueenRelative;

impl FeatureSet for QueenRelative {
    const INPUTS: usize = INPUTS;
    /// Each piece twice (on the board) or once (in hand).
    const MAX_ACTIVE: usize = 2 * Piece::COUNT;
    const FACTORS: usize = FACTORS;
    type View = Frame;

    fn view(side: Color, queens: [Option<Hex>; 2]) -> Frame {
        Frame::new(side, queens)
    }

    #[inline]
    fn view_key(view: &Frame) -> u32 {
        // The symmetry follows from the Queens' cells.
        let at = |queen: Option<Hex>| queen.map_or(0, |hex| hex.index() as u32 + 1);
        let mut key = at(view.queens[0]) << 16 | at(view.queens[1]) << 1 | view.side.index() as u32;
        key = (key ^ key >> 16).wrapping_mul(0x7feb_352d);
        key ^ key >> 15
    }

    #[inline]
    fn anchors_view(piece: Piece) -> bool {
        piece.bug() == Bug::Queen
    }

    #[inline]
    fn on_board(view: &Frame, piece: Piece, hex: Hex, height: u8) -> [u16; 2] {
        view.on_board(piece, hex, height)
    }

    #[inline]
    fn in_hand(view: &Frame, piece: Piece) -> u16 {
        view.in_hand(piece)
    }

    fn factors(feature: u16) -> ([u16; 2], usize) {
        factors(feature)
    }
}

/// The twelve symmetries of the grid as maps of axial offsets `(q, r)`: six turns, each with and without a mirror.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Symmetry {
    turns: u8,
    mirrored: bool,
}

impl Symmetry {
    const NONE: Symmetry = Symmetry {
        turns: 0,
        mirrored: false,
    };

    /// The offset `(q, r)` turned then mirrored.
    fn apply(self, (mut q, mut r): (i32, i32)) -> (i32, i32) {
        for _ in 0..self.turns {
            (q, r) = (-r, q + r);
        }
        if self.mirrored {
            (q, r) = (r, q);
        }
        (q, r)
    }

    /// The symmetry that brings the non-zero offset `to` into the twelfth `q > 0, 0 ≤ r ≤ q` (east to
    /// east-south-east).
    fn bringing(to: (i32, i32)) -> Symmetry {
        let mut symmetry = Symmetry::NONE;
        let (mut q, mut r) = to;
        while !(q > 0 && r >= 0) && symmetry.turns < 6 {
            (q, r) = (-r, q + r);
            symmetry.turns += 1;
        }
        symmetry.mirrored = r > q;
        symmetry
    }

    fn index(self) -> usize {
        usize::from(self.turns % 6) * 2 + usize::from(self.mirrored)
    }
}

/// For each symmetry and each offset `(q, r)` with both in `-16..16`, the slot of a piece at that offset from a
/// Queen: its cell within [`RADIUS`] (in a fixed order) or [`CELLS`] for far.
static SLOT_OF: std::sync::LazyLock<Box<[[u8; OFFSETS]; 12]>> = std::sync::LazyLock::new(|| {
    let cells = cells();
    let mut table = Box::new([[CELLS as u8; OFFSETS]; 12]);
    for turns in 0..6 {
        for mirrored in [false, true] {
            let symmetry = Symmetry { turns, mirrored };
            let row = &mut table[symmetry.index()];
            for (i, slot) in row.iter_mut().enumerate() {
                let (q, r) = offset_of(i);
                let seen = symmetry.apply((q, r));
                if let Some(cell) = cells.iter().position(|&c| c == seen) {
                    *slot = cell as u8;
                }
            }
        }
    }
    table
});

/// The cells within [`RADIUS`] of a Queen as offsets `(q, r)`, in the order of their slots.
fn cells() -> Vec<(i32, i32)> {
    let mut cells = Vec::new();
    for r in -RADIUS..=RADIUS {
        for q in -RADIUS..=RADIUS {
            if (q + r).abs() <= RADIUS {
                cells.push((q, r));
            }
        }
    }
    debug_assert_eq!(cells.len(), CELLS);
    cells
}

/// Rows the trainer adds to the net's own while it learns, each shared by many features: for a piece placed
/// relative to a Queen, one for its kind at its distance from her (0 to 4, or far), and one for its kind
/// wherever it stands. A feature seen a few hundred times learns from them what its neighbours learnt, and only
/// its own difference from them; the file the engine reads has each shared row folded into the features that use
/// it ([`factors`]), so the engine never sees them.
const FACTORS: usize = 2 * KINDS * (RADIUS as usize + 2) + KINDS;

/// The shared rows (numbered from 0, below [`FACTORS`]) that `feature` learns with.
fn factors(feature: u16) -> ([u16; 2], usize) {
    static DISTANCE: std::sync::LazyLock<Vec<u8>> = std::sync::LazyLock::new(|| {
        let mut distances: Vec<u8> = cells()
            .iter()
            .map(|&(q, r)| ((q.abs() + r.abs() + (q + r).abs()) / 2) as u8)
            .collect();
        distances.push(RADIUS as u8 + 1);
        distances
    });
    let feature = usize::from(feature);
    let kinds = 2 * KINDS * (RADIUS as usize + 2);
    if feature < QUEEN_IN_HAND {
        let (anchor, kind, slot) = (feature / AROUND, feature % AROUND / SLOTS, feature % SLOTS);
        let ring = (anchor * KINDS + kind) * (RADIUS as usize + 2) + usize::from(DISTANCE[slot]);
        ([ring as u16, (kinds + kind) as u16], 2)
    } else if feature < HAND {
        let kind = (feature - QUEEN_IN_HAND) % KINDS;
        ([(kinds + kind) as u16, 0], 1)
    } else {
        ([0, 0], 0)
    }
}

/// Offsets the slot table covers: `(q, r)` with both in `-16..16`.
const OFFSETS: usize = (ROW as usize) * (ROW as usize);

fn offset_index((q, r): (i32, i32)) -> usize {
    let half = i32::from(ROW) / 2;
    ((q + half) * i32::from(ROW) + (r + half)) as usize % OFFSETS
}

fn offset_of(index: usize) -> (i32, i32) {
    let half = i32::from(ROW) / 2;
    let row = i32::from(ROW);
    (index as i32 / row - half, index as i32 % row - half)
}

/// How one side sees the board: where each Queen stands (its own first) and the symmetry that puts the enemy
/// Queen in the fixed twelfth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    side: Color,
    queens: [Option<Hex>; 2],
    symmetry: Symmetry,
}

impl Frame {
    /// `side`'s frame, with White's and Black's Queens where `queens` says.
    fn new(side: Color, queens: [Option<Hex>; 2]) -> Frame {
        let (own, enemy) = (queens[side.index()], queens[side.opponent().index()]);
        let symmetry = match (own, enemy) {
            (Some(own), Some(enemy)) if own != enemy => Symmetry::bringing(own.offset_to(enemy)),
            _ => Symmetry::NONE,
        };
        Frame {
            side,
            queens: [own, enemy],
            symmetry,
        }
    }

    /// The two features of `piece` standing on `hex` at `height` (1 on the ground): relative to one's own Queen,
    /// then to the enemy's.
    #[inline]
    fn on_board(&self, piece: Piece, hex: Hex, height: u8) -> [u16; 2] {
        let kind = self.kind(piece, height);
        let table = &SLOT_OF[self.symmetry.index()];
        let mut features = [0; 2];
        for (anchor, feature) in features.iter_mut().enumerate() {
            *feature = match self.queens[anchor] {
                Some(queen) => {
                    let slot = usize::from(table[offset_index(queen.offset_to(hex))]);
                    anchor * AROUND + kind * SLOTS + slot
                }
                None => QUEEN_IN_HAND + anchor * KINDS + kind,
            } as u16;
        }
        features
    }

    /// The feature of `piece` in its owner's hand.
    #[inline]
    fn in_hand(&self, piece: Piece) -> u16 {
        let own = usize::from(piece.color() != self.side);
        (HAND + own * 14 + piece.index() % 14) as u16
    }

    /// The kind of `piece` at `height`, as the net sees it from this side.
    #[inline]
    fn kind(&self, piece: Piece, height: u8) -> usize {
        let bug = match (piece.bug(), height > 1) {
            (Bug::Beetle, true) => 8,
            (Bug::Mosquito, true) => 9,
            (bug, _) => bug.index(),
        };
        usize::from(piece.color() != self.side) * 10 + bug
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_offset_is_brought_into_the_fixed_twelfth_and_distances_are_kept() {
        for q in -8..=8 {
            for r in -8..=8 {
                if (q, r) == (0, 0) {
                    continue;
                }
                let symmetry = Symmetry::bringing((q, r));
                let (a, b) = symmetry.apply((q, r));
                assert!(a > 0 && (0..=a).contains(&b), "{q},{r} -> {a},{b}");
                let distance = |(q, r): (i32, i32)| (q.abs() + r.abs() + (q + r).abs()) / 2;
                for other in [(1, 0), (0, 1), (-2, 1), (3, -4)] {
                    assert_eq!(distance(symmetry.apply(other)), distance(other));
                }
            }
        }
    }

    #[test]
    fn slots_cover_the_cells_near_a_queen_once_each() {
        for (i, row) in SLOT_OF.iter().enumerate() {
            let mut near: Vec<u8> = row.iter().copied().filter(|&s| usize::from(s) < CELLS).collect();
            near.sort_unstable();
            assert_eq!(near, (0..CELLS as u8).collect::<Vec<_>>(), "symmetry {i}");
        }
        assert_eq!(INPUTS, 2548);
    }

    #[test]
    fn each_placed_feature_shares_a_row_with_its_kind_at_its_distance_and_with_its_kind() {
        let frame = Frame::new(
            Color::White,
            [Some(Hex::from_axial(0, 0)), Some(Hex::from_axial(3, -1))],
        );
        let ant = Piece::new(Color::Black, Bug::Ant, 2).unwrap();
        // Two cells two steps from White's Queen, in other directions.
        let a = frame.on_board(ant, Hex::from_axial(2, 0), 1);
        let b = frame.on_board(ant, Hex::from_axial(-1, -1), 1);
        assert_ne!(a[0], b[0]);
        assert_eq!(factors(a[0]), factors(b[0]));
        // Three steps away: another ring, the same kind.
        let c = frame.on_board(ant, Hex::from_axial(3, 0), 1);
        assert_ne!(factors(c[0]).0[0], factors(a[0]).0[0]);
        assert_eq!(factors(c[0]).0[1], factors(a[0]).0[1]);
        assert!(factors(a[1]).0.iter().all(|&f| usize::from(f) < FACTORS));
        assert_eq!(factors(frame.in_hand(ant)).1, 0);
    }

    #[test]
    fn a_turned_and_mirrored_board_has_the_same_features() {
        // The enemy Queen off the lines of the twelfth's edges, where a board and its mirror image are told apart.
        let queens = [Some(Hex::from_axial(0, 0)), Some(Hex::from_axial(3, -1))];
        let pieces = [
            (Piece::new(Color::White, Bug::Ant, 1).unwrap(), (1, 1), 1),
            (Piece::new(Color::Black, Bug::Beetle, 2).unwrap(), (3, -1), 2),
            (Piece::new(Color::Black, Bug::Spider, 1).unwrap(), (9, 0), 1),
        ];
        let features = |symmetry: Symmetry| {
            let at = |(q, r)| {
                let (q, r) = symmetry.apply((q, r));
                Hex::from_axial(q, r)
            };
            let queens = queens.map(|q| q.map(|h| at(Hex::from_axial(0, 0).offset_to(h))));
            let mut all = Vec::new();
            for side in Color::ALL {
                let frame = Frame::new(side, queens);
                let placed = pieces.iter().map(|&(piece, cell, height)| (piece, at(cell), height));
                QueenRelative::active(&frame, placed, std::iter::empty(), &mut all);
            }
            all
        };
        let original = features(Symmetry::NONE);
        for turns in 0..6 {
            for mirrored in [false, true] {
                assert_eq!(features(Symmetry { turns, mirrored }), original, "{turns} {mirrored}");
            }
        }
        // The far Spider is in the far slot for both Queens; the Beetle on the enemy Queen is up on the hive.
        assert!(original.iter().all(|&f| usize::from(f) < QUEEN_IN_HAND));
    }
}
