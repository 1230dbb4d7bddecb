//! How soon a Queen could be surrounded at the earliest: a lower bound on the plies it takes, which lets the proof
//! search give up on a line without looking at its moves, and tells it when only a move onto one of the Queen's
//! empty neighbours can keep the line alive.
//!
//! The bound is sound because a ply changes little: a placement or a movement puts one piece on one cell, so it
//! fills at most one empty neighbour of a Queen that stays where she is; and a Queen moves at most one cell a ply
//! by herself, two when a Pillbug (or a Mosquito beside one) throws her. To be surrounded on a cell `c` after `j`
//! moves of hers, every neighbour of `c` that is empty now (the cell she leaves among them) needs a ply that
//! fills it.
//!
//! Owns the bound only; which plies may count (both sides', or the attacker's alone) is the search's business.

use crate::rules::hex::{Direction, Hex};
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::position::Position;

/// How a Queen may move in the plies that count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reach {
    /// She steps one cell a ply by herself.
    pub(crate) steps: bool,
    /// She may be thrown two cells a ply (the game has Pillbugs) by a Pillbug, or a Mosquito, of this side
    /// (`None`: of either side). A thrower must stand beside her: when none does, one more ply brings one.
    pub(crate) thrown_by: Option<Option<Color>>,
}

impl Reach {
    /// She never moves.
    #[cfg(test)]
    pub(crate) const STAYS: Reach = Reach {
        steps: false,
        thrown_by: None,
    };
}

/// What the bound says of `plies` counted plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outlook {
    /// She cannot be surrounded within them.
    Hopeless,
    /// Only by filling one of these cells, her empty neighbours, with every counted ply (moving her, or filling
    /// anything else, leaves her out of reach).
    Tight([Hex; 6], usize),
    /// Nothing more to say.
    Open,
}

/// What the bound says of surrounding `color`'s Queen within `plies` plies, each of which fills a cell or moves
/// her as `reach` allows.
pub(crate) fn outlook(position: &Position, color: Color, plies: u32, reach: Reach) -> Outlook {
    let board = position.board();
    let queen = Piece::new(color, Bug::Queen, 1).and_then(|queen| board.hex_of(queen));
    let Some(queen) = queen else {
        // In hand, she is placed on an empty cell beside the hive: surrounded once its empty neighbours are filled
        // (the placement itself is not counted, which errs on the side of a shorter way).
        let mut least = 6;
        for_each_empty_beside_the_hive(position, |cell| {
            least = least.min(empty_around(position, cell, None));
            least > plies
        });
        return if least > plies {
            Outlook::Hopeless
        } else {
            Outlook::Open
        };
    };
    let open = !board.occupied_around(queen);
    let here = open.len();
    if here < plies {
        return Outlook::Open;
    }
    // Could moving her do better than `here`, or as well when that is all the plies there are?
    let moved = least_after_moving(position, queen, reach, here);
    if here.min(moved) > plies {
        Outlook::Hopeless
    } else if here == plies && moved > here {
        let mut gaps = [queen; 6];
        let mut count = 0;
        for dir in open.iter() {
            gaps[count] = queen.step(dir);
            count += 1;
        }
        Outlook::Tight(gaps, count)
    } else {
        Outlook::Open
    }
}

/// The fewest plies to surround the Queen at `queen` by moving her first, as `reach` allows, or some number above
/// `limit` when none is at most `limit`.
fn least_after_moving(position: &Position, queen: Hex, reach: Reach, limit: u32) -> u32 {
    let board = position.board();
    // The throwers beside her now: one throw takes her to a cell beside one of them.
    let mut throwers = [queen; 6];
    let mut count = 0;
    if let Some(side) = reach.thrown_by {
        for cell in queen.neighbours() {
            let thrower = board.top(cell).is_some_and(|piece| {
                matches!(piece.bug(), Bug::Pillbug | Bug::Mosquito) && side.is_none_or(|side| piece.color() == side)
            });
            if thrower {
                throwers[count] = cell;
                count += 1;
            }
        }
    }
    let throwers = &throwers[..count];
    // The fewest plies that could take her `distance` cells away, to any cell at that distance.
    let moves_to = |distance: u32| {
        let stepping = if reach.steps { distance } else { u32::MAX };
        let thrown = match reach.thrown_by {
            Some(_) => distance.div_ceil(2) + u32::from(throwers.is_empty()),
            None => u32::MAX,
        };
        stepping.min(thrown)
    };
    let mut least = u32::MAX;
    for distance in 1.. {
        let moves = moves_to(distance);
        if moves > limit || moves >= least {
            break;
        }
        ring(queen, distance, |cell| {
            if board.is_occupied(cell) {
                return;
            }
            // A cell within one throw but beside no thrower takes a ply more (a thrower must come first), unless
            // she can step there as fast.
            let mut moves = moves;
            let one_throw = distance <= 2 && moves == 1 && !(reach.steps && distance == 1);
            if one_throw && !throwers.iter().any(|thrower| thrower.is_next_to(cell)) {
                moves = 2;
            }
            least = least.min(moves + empty_around(position, cell, Some(queen)));
        });
    }
    least
}

/// Call `visit` on each cell at `distance` from `centre`: round the ring from its south-western corner, a side
/// in each direction.
fn ring(centre: Hex, distance: u32, mut visit: impl FnMut(Hex)) {
    let mut cell = (0..distance).fold(centre, |cell, _| cell.step(Direction::SouthWest));
    for side in Direction::ALL {
        for _ in 0..distance {
            visit(cell);
            cell = cell.step(side);
        }
    }
}

/// The empty neighbours of `hex`, counting `left` (the cell a Queen leaves) as empty.
fn empty_around(position: &Position, hex: Hex, left: Option<Hex>) -> u32 {
    let occupied = position.board().occupied_around(hex).len();
    let vacated = left.is_some_and(|cell| cell.is_next_to(hex));
    6 - occupied + u32::from(vacated)
}

/// Call `visit` on each empty cell next to a piece, once each, while it returns `true`.
fn for_each_empty_beside_the_hive(position: &Position, mut visit: impl FnMut(Hex) -> bool) {
    let board = position.board();
    let mut seen = [0u64; crate::rules::hex::GRID / 64];
    for piece in board.on_board() {
        let hex = board.hex_of_unchecked(piece);
        for cell in hex.neighbours() {
            let (word, bit) = (cell.index() / 64, cell.index() % 64);
            if board.is_occupied(cell) || seen[word] & (1 << bit) != 0 {
                continue;
            }
            seen[word] |= 1 << bit;
            if !visit(cell) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::tests::position;

    #[test]
    fn a_ring_goes_round_at_its_distance() {
        let centre = Hex::ORIGIN;
        for distance in 1..5 {
            let mut cells = Vec::new();
            ring(centre, distance, |cell| cells.push(cell));
            assert_eq!(cells.len() as u32, 6 * distance);
            assert!(cells.iter().all(|&cell| centre.distance(cell) == distance));
            let unique: std::collections::HashSet<_> = cells.iter().collect();
            assert_eq!(unique.len(), cells.len());
        }
    }

    #[test]
    fn the_bound_counts_the_empty_cells_around_a_queen() {
        // Black's Queen has three pieces around her, White's two.
        let pos = position("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \\wQ;bA1 bQ\\");
        let bq = pos.queen_hex(Color::Black).unwrap();
        assert_eq!(pos.board().occupied_around(bq).len(), 2);
        assert_eq!(outlook(&pos, Color::Black, 3, Reach::STAYS), Outlook::Hopeless);
        assert!(matches!(
            outlook(&pos, Color::Black, 4, Reach::STAYS),
            Outlook::Tight(_, 4)
        ));
        assert_eq!(outlook(&pos, Color::Black, 5, Reach::STAYS), Outlook::Open);
        // Free to move, she finds no better cell: the best beside her, south-west, has two pieces around it and the
        // cell she leaves empty, four plies after the step.
        let free = Reach {
            steps: true,
            thrown_by: Some(None),
        };
        assert_eq!(outlook(&pos, Color::Black, 3, free), Outlook::Hopeless);
        assert!(matches!(outlook(&pos, Color::Black, 4, free), Outlook::Tight(_, 4)));
        // A Queen in hand: placed, she has at least four empty neighbours.
        let early = position("Base;InProgress;White[2];wS1;bS1 wS1-");
        assert_eq!(outlook(&early, Color::White, 3, free), Outlook::Hopeless);
        assert_eq!(outlook(&early, Color::White, 4, free), Outlook::Open);
    }
}
