//! A position's key for the opening book: the same for every position that differs only by where the hive lies
//! on the table, how it is turned or whether it is seen in a mirror, and by which of two like pieces stands where
//! (`wS1` or `wS2`). A book learnt this way pools the games of all such positions, and answers in any of them.
//!
//! Owns the key and the twelve symmetries of the hex grid. The piece that moved last turn is marked when its stun
//! changes what may be played (as the repetition rule compares positions); the book's positions, of the first
//! plies where every move so far placed a piece, never have one. Puzzles are told apart by the same key.

use crate::rules::game_type::GameType;
use crate::rules::hex::Hex;
use crate::rules::position::Position;

/// A position up to the symmetries of the grid: the game type, the side to move and each stack, bottom piece
/// first, at coordinates relative to the least cell. Compared as bytes.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Key(Vec<u8>);

impl Key {
    /// The key's bytes: the games database (`crate::db`) keeps a digest of them.
    #[cfg_attr(not(feature = "db"), allow(dead_code))]
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// A stack on the board: its place in axial coordinates and its pieces from the bottom up, each as
/// `colour * 8 + bug`, with [`STUNNED`] added for the piece that may not move this turn.
type Stack = ((i32, i32), Vec<u8>);

/// Added to the byte of the piece that moved last turn, when its stun matters.
const STUNNED: u8 = 0x40;

/// `(q, r)` turned by 60° `turns` times, then mirrored (q and r swapped) when `mirror` is set.
fn transform((q, r): (i32, i32), turns: usize, mirror: bool) -> (i32, i32) {
    let (mut q, mut r) = (q, r);
    for _ in 0..turns {
        (q, r) = (-r, q + r);
    }
    if mirror {
        (r, q)
    } else {
        (q, r)
    }
}

/// The key of `position`.
pub fn key(position: &Position) -> Key {
    let board = position.board();
    let mut cells: Vec<Hex> = board.on_board().iter().filter_map(|p| board.hex_of(p)).collect();
    cells.sort_unstable();
    cells.dedup();
    let origin = cells.first().copied().unwrap_or(Hex::ORIGIN);
    let stunned = position.stun_that_matters();
    let stacks: Vec<Stack> = cells
        .iter()
        .map(|&hex| {
            let mut pieces: Vec<u8> = board
                .stack(hex)
                .map(|p| (p.color().index() * 8 + p.bug().index()) as u8 | if Some(p) == stunned { STUNNED } else { 0 })
                .collect();
            pieces.reverse();
            (origin.offset_to(hex), pieces)
        })
        .collect();
    let head = [game_type_byte(position.game_type()), position.to_move().index() as u8];
    (0..12)
        .map(|symmetry| {
            let mut turned: Vec<Stack> = stacks
                .iter()
                .map(|(at, pieces)| (transform(*at, symmetry % 6, symmetry >= 6), pieces.clone()))
                .collect();
            turned.sort_unstable();
            let least = turned.first().map_or((0, 0), |s| s.0);
            let mut bytes = head.to_vec();
            for ((q, r), pieces) in turned {
                // Offsets inside a hive are far below 128 cells, so each fits a byte.
                bytes.push((q - least.0) as u8);
                bytes.push((r - least.1) as u8);
                bytes.push(pieces.len() as u8);
                bytes.extend(pieces);
            }
            Key(bytes)
        })
        .min()
        .unwrap_or_else(|| Key(head.to_vec()))
}

impl Key {
    /// The key's bytes, for a stable name of the position (a puzzle's id).
    #[cfg(feature = "puzzles")]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// The game type as one byte: which expansions it has.
fn game_type_byte(game_type: GameType) -> u8 {
    use crate::rules::piece::Bug;
    [Bug::Mosquito, Bug::Ladybug, Bug::Pillbug]
        .iter()
        .enumerate()
        .map(|(i, &bug)| u8::from(game_type.includes(bug)) << i)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Rules;

    fn key_of(game_string: &str) -> Key {
        key(crate::record::replay(game_string, Rules::default()).unwrap().position())
    }

    #[test]
    fn twelve_symmetries_are_distinct_and_return_after_six_turns() {
        let cell = (3, -1);
        let images: std::collections::HashSet<_> = (0..12).map(|s| transform(cell, s % 6, s >= 6)).collect();
        assert_eq!(images.len(), 12);
        assert_eq!(transform(transform(cell, 3, false), 3, false), cell);
        // A turn keeps the distance from the origin: max(|q|, |r|, |q + r|).
        let distance = |(q, r): (i32, i32)| q.abs().max(r.abs()).max((q + r).abs());
        assert!(images.iter().all(|&c| distance(c) == distance(cell)));
    }

    #[test]
    fn a_piece_that_may_not_move_this_turn_is_part_of_the_key() {
        use crate::rules::setup::Setup;
        let pos = crate::record::replay(
            "Base+P;InProgress;White[3];wS1;bP wS1-;wQ -wS1;bQ bP-",
            Rules::default(),
        )
        .unwrap()
        .position()
        .clone();
        let mut setup = Setup::of(&pos);
        setup.last_moved_to = None;
        let free = Position::from_setup(&setup, Rules::default()).unwrap();
        // White's Spider as if Black's Pillbug had just thrown it: it may not move now.
        let spider = setup
            .stacks
            .iter()
            .find(|(_, stack)| stack == &[(crate::rules::piece::Color::White, crate::rules::piece::Bug::Spider)])
            .map(|(cell, _)| *cell);
        setup.last_moved_to = spider;
        let stunned = Position::from_setup(&setup, Rules::default()).unwrap();
        assert_ne!(key(&free), key(&stunned));
        assert_eq!(key(&free), key(&pos), "a placement stuns nothing");
    }

    #[test]
    fn turned_and_mirrored_positions_share_a_key() {
        // The same three pieces: a Grasshopper, a Spider beside it and a Queen on the far side of the Grasshopper,
        // laid out in three directions.
        let a = key_of("Base;InProgress;Black[2];wG1;bS1 wG1-;wQ -wG1");
        let b = key_of("Base;InProgress;Black[2];wG1;bS1 /wG1;wQ wG1/");
        let c = key_of("Base;InProgress;Black[2];wG1;bS1 \\wG1;wQ wG1\\");
        assert_eq!(a, b);
        assert_eq!(a, c);
        // The Queen beside the Spider's neighbour instead of opposite it is another position.
        assert_ne!(a, key_of("Base;InProgress;Black[2];wG1;bS1 wG1-;wQ /wG1"));
        // A mirror image: the Queen on one back diagonal or the other.
        assert_eq!(
            key_of("Base;InProgress;Black[2];wG1;bS1 wG1-;wQ /wG1"),
            key_of("Base;InProgress;Black[2];wG1;bS1 wG1-;wQ \\wG1")
        );
        // The side to move, the game type, the colours and the bugs all count.
        assert_ne!(key_of("Base;InProgress;Black[1];wG1"), key_of("Base"));
        assert_ne!(
            key_of("Base+M;InProgress;Black[1];wG1"),
            key_of("Base;InProgress;Black[1];wG1")
        );
        assert_ne!(
            key_of("Base;InProgress;White[2];wG1;bS1 wG1-"),
            key_of("Base;InProgress;White[2];wS1;bG1 wS1-")
        );
    }
}
