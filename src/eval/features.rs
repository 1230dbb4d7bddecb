//! What the evaluation looks at: a fixed list of features of a position, each counted for the side to move minus
//! the same count for the other side. The evaluation is their dot product with [`super::Weights`]; a tuner fits
//! the weights to game results from the same vectors.
//!
//! Owns the features and how they are counted; not their weights.

use crate::rules::board::Board;
use crate::rules::movegen::placement_count;
use crate::rules::piece::{Bug, Color};
use crate::rules::piece_set::PieceSet;
use crate::rules::position::Position;

/// Number of features.
pub const FEATURE_COUNT: usize = 33;

/// One feature of a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Feature {
    /// Pieces of a bug still in hand.
    InHand(Bug),
    /// The Queen is on the board with exactly this many occupied neighbours.
    QueenNeighbours(Neighbours),
    /// The Queen has a piece on top of her.
    QueenCovered,
    /// Own pieces next to the Queen that are free to step away again.
    FriendlyCanLeave,
    /// Pieces of a bug on the board that are free to move (on top of their stack, not pinned, not boxed in).
    Free(Bug),
    /// Pieces with another piece on top of them.
    Covered,
    /// Pieces on top of a stack.
    OnTop,
    /// Being the side to move (always 1).
    Tempo,
    /// Pieces of the other side next to the Queen: attackers, which only they can take away.
    QueenAttackers,
    /// Beetles and Mosquitoes free to move next to the enemy Queen: one step from climbing onto her.
    ClimberNextToEnemyQueen,
    /// The Pillbug next to its own Queen, free to move: it can throw attackers off.
    PillbugGuard,
    /// Pieces on the ground that may not move because the hive would split.
    Pinned,
    /// Cells where a side with pieces in hand may place one (touching its own colour only), up to
    /// [`PLACEMENT_CAP`]: a side with nowhere to place cannot bring its reserves into play.
    PlacementCells,
}

/// Placement cells beyond this many add nothing more to [`Feature::PlacementCells`].
pub const PLACEMENT_CAP: u32 = 4;

/// How many of the six cells around a piece are occupied: 0 to 6, no other.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Neighbours(u8);

impl Neighbours {
    /// Every count, from none to six.
    pub const ALL: [Neighbours; 7] = {
        let mut all = [Neighbours(0); 7];
        let mut n = 0;
        while n < 7 {
            all[n] = Neighbours(n as u8);
            n += 1;
        }
        all
    };
}

impl Feature {
    /// Every feature, in index order.
    pub const ALL: [Feature; FEATURE_COUNT] = {
        let mut all = [Feature::Tempo; FEATURE_COUNT];
        let mut i = 0;
        while i < 8 {
            all[i] = Feature::InHand(Bug::ALL[i]);
            all[15 + i] = Feature::Free(Bug::ALL[i]);
            i += 1;
        }
        let mut n = 0;
        while n < 7 {
            all[8 + n] = Feature::QueenNeighbours(Neighbours::ALL[n]);
            n += 1;
        }
        all[23] = Feature::QueenCovered;
        all[24] = Feature::FriendlyCanLeave;
        all[25] = Feature::Covered;
        all[26] = Feature::OnTop;
        all[27] = Feature::Tempo;
        all[28] = Feature::QueenAttackers;
        all[29] = Feature::ClimberNextToEnemyQueen;
        all[30] = Feature::PillbugGuard;
        all[31] = Feature::Pinned;
        all[32] = Feature::PlacementCells;
        all
    };

    /// Position in [`Feature::ALL`] and in feature and weight vectors.
    pub const fn index(self) -> usize {
        match self {
            Feature::InHand(bug) => bug.index(),
            Feature::QueenNeighbours(n) => 8 + n.0 as usize,
            Feature::Free(bug) => 15 + bug.index(),
            Feature::QueenCovered => 23,
            Feature::FriendlyCanLeave => 24,
            Feature::Covered => 25,
            Feature::OnTop => 26,
            Feature::Tempo => 27,
            Feature::QueenAttackers => 28,
            Feature::ClimberNextToEnemyQueen => 29,
            Feature::PillbugGuard => 30,
            Feature::Pinned => 31,
            Feature::PlacementCells => 32,
        }
    }

    /// A short name for tables and weight files: `in_hand_ant`, `queen_neighbours_3`, `free_beetle`, ….
    pub fn name(self) -> String {
        let bug = |bug: Bug| bug.name().to_ascii_lowercase().replace(' ', "_");
        match self {
            Feature::InHand(b) => format!("in_hand_{}", bug(b)),
            Feature::QueenNeighbours(n) => format!("queen_neighbours_{}", n.0),
            Feature::QueenCovered => "queen_covered".into(),
            Feature::FriendlyCanLeave => "friendly_can_leave".into(),
            Feature::Free(b) => format!("free_{}", bug(b)),
            Feature::Covered => "covered".into(),
            Feature::OnTop => "on_top".into(),
            Feature::Tempo => "tempo".into(),
            Feature::QueenAttackers => "queen_attackers".into(),
            Feature::ClimberNextToEnemyQueen => "climber_next_to_enemy_queen".into(),
            Feature::PillbugGuard => "pillbug_guard".into(),
            Feature::Pinned => "pinned".into(),
            Feature::PlacementCells => "placement_cells".into(),
        }
    }
}

/// The feature counts of a position, side to move minus the other side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Features(pub [i32; FEATURE_COUNT]);

impl Features {
    /// Count the features of `pos`.
    pub fn of(pos: &Position) -> Features {
        let pinned = pos.pinned();
        let board = pos.board();
        let mut counts = [0i32; FEATURE_COUNT];
        let me = pos.to_move();
        for color in Color::ALL {
            let sign = if color == me { 1 } else { -1 };
            count_side(pos, board, color, pinned, sign, &mut counts);
        }
        counts[Feature::Tempo.index()] = 1;
        Features(counts)
    }

    /// The count of one feature.
    pub fn get(&self, feature: Feature) -> i32 {
        self.0[feature.index()]
    }
}

/// Add `sign` times what `color` has of each feature, ignoring the other side.
fn count_side(pos: &Position, board: &Board, color: Color, pinned: PieceSet, sign: i32, counts: &mut [i32]) {
    for bug in Bug::ALL {
        counts[Feature::InHand(bug).index()] += sign * i32::from(pos.in_hand(color, bug));
    }
    // Before the hive has two pieces, anywhere next to it will do for both sides.
    if board.on_board().len() >= 2 && !pos.pieces_in_hand(color).is_empty() {
        counts[Feature::PlacementCells.index()] += sign * placement_count(board, color, PLACEMENT_CAP) as i32;
    }
    let Some(queen) = pos.queen_hex(color) else {
        // Nothing of this side may move before its Queen is placed, so nothing on the board counts as free.
        return;
    };

    // The enemy's climbers next to this Queen are counted here too, for the enemy (whose sign is the opposite),
    // once its own Queen is out: their cells are these.
    let enemy_moves = pos.queen_hex(color.opponent()).is_some();
    let mut occupied = 0;
    for n in queen.neighbours() {
        if let Some(top) = board.top(n) {
            occupied += 1;
            if top.color() != color {
                counts[Feature::QueenAttackers.index()] += sign;
                if enemy_moves && matches!(top.bug(), Bug::Beetle | Bug::Mosquito) && is_free(board, top, pinned) {
                    counts[Feature::ClimberNextToEnemyQueen.index()] -= sign;
                }
            } else if is_free(board, top, pinned) {
                counts[Feature::FriendlyCanLeave.index()] += sign;
                if top.bug() == Bug::Pillbug {
                    counts[Feature::PillbugGuard.index()] += sign;
                }
            }
        }
    }
    // The six cells around the Queen were counted: `occupied` is at most six.
    counts[Feature::QueenNeighbours(Neighbours::ALL[occupied]).index()] += sign;
    if board.height(queen) > 1 {
        counts[Feature::QueenCovered.index()] += sign;
    }

    for piece in board.on_board() & PieceSet::of_color(color) {
        let hex = board.hex_of_unchecked(piece);
        if board.top(hex) != Some(piece) {
            counts[Feature::Covered.index()] += sign;
            continue;
        }
        // The same judgement as `is_free`, with what the loop knows already.
        let free = if board.height(hex) > 1 {
            counts[Feature::OnTop.index()] += sign;
            true
        } else if pinned.contains(piece) {
            counts[Feature::Pinned.index()] += sign;
            false
        } else {
            !slides_only(piece.bug()) || board.occupied_bits(hex).count_ones() < 5
        };
        if free {
            counts[Feature::Free(piece.bug()).index()] += sign;
        }
    }
}

/// Whether a bug on the ground moves only by sliding, so that five occupied neighbours box it in.
#[inline]
fn slides_only(bug: Bug) -> bool {
    matches!(bug, Bug::Queen | Bug::Spider | Bug::Ant | Bug::Pillbug)
}

/// Whether `piece` (on top of its stack) could plausibly move: not pinned to the hive, and not boxed in when it
/// can only slide. A cheap stand-in for counting its moves.
#[inline]
fn is_free(board: &Board, piece: crate::rules::piece::Piece, pinned: PieceSet) -> bool {
    let Some(hex) = board.hex_of(piece) else {
        return false;
    };
    if board.height(hex) > 1 {
        return board.top(hex) == Some(piece);
    }
    if pinned.contains(piece) {
        return false;
    }
    // Sliders need an empty cell with an open gate: five occupied neighbours leave the one empty cell gated.
    !slides_only(piece.bug()) || board.occupied_bits(hex).count_ones() < 5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_feature_has_its_own_index() {
        for (i, feature) in Feature::ALL.into_iter().enumerate() {
            assert_eq!(feature.index(), i, "{feature:?}");
        }
        let mut names: Vec<String> = Feature::ALL.iter().map(|f| f.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), FEATURE_COUNT);
    }

    /// Beetles and Mosquitoes next to the enemy Queen, free to move, once their own Queen is out: counted for each
    /// side as the feature says, mine minus theirs, over random games of every game type (stacks and pins
    /// included).
    #[test]
    fn climbers_next_to_the_enemy_queen_are_each_sides_free_beetles_and_mosquitoes_beside_her() {
        use crate::rules::game_type::GameType;
        use crate::rules::moves::MoveList;
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let climbers = |pos: &Position, color: Color| -> i32 {
            let (Some(_), Some(enemy)) = (pos.queen_hex(color), pos.queen_hex(color.opponent())) else {
                return 0;
            };
            let board = pos.board();
            let pinned = pos.pinned();
            enemy
                .neighbours()
                .into_iter()
                .filter_map(|n| board.top(n))
                .filter(|top| top.color() == color && matches!(top.bug(), Bug::Beetle | Bug::Mosquito))
                .filter(|&top| is_free(board, top, pinned))
                .count() as i32
        };
        let mut rng = StdRng::seed_from_u64(5);
        let mut seen = 0;
        for game in 0..80 {
            let mut pos = Position::new(GameType::ALL[game % GameType::ALL.len()]);
            for _ in 0..80 {
                if pos.state().is_over() {
                    break;
                }
                let me = pos.to_move();
                let expected = climbers(&pos, me) - climbers(&pos, me.opponent());
                assert_eq!(Features::of(&pos).get(Feature::ClimberNextToEnemyQueen), expected);
                seen += usize::from(expected != 0);
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(seen > 50, "{seen}");
    }

    /// The distinct cells of the placements the side to move may play, up to the cap.
    fn placements_played(pos: &Position) -> i32 {
        let mut cells: Vec<_> = pos
            .legal_moves()
            .iter()
            .filter_map(|mv| match mv {
                crate::rules::moves::Move::Place { to, .. } => Some(*to),
                _ => None,
            })
            .collect();
        cells.sort_by_key(|hex| hex.index());
        cells.dedup();
        cells.len().min(PLACEMENT_CAP as usize) as i32
    }

    /// Placement cells count what the move generator lets each side place on, capped, mine minus theirs.
    #[test]
    fn placement_cells_are_where_each_side_may_place() {
        use crate::rules::moves::{Move, MoveList};
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(3);
        let mut seen = [0; 2];
        for _ in 0..30 {
            let mut pos = Position::new(crate::rules::game_type::GameType::MLP);
            for _ in 0..50 {
                if pos.state().is_over() {
                    break;
                }
                if pos.board().on_board().len() >= 2 {
                    let mine = placements_played(&pos);
                    // The other side's cells: as if the side to move had passed.
                    pos.play_unchecked(Move::Pass);
                    let theirs = placements_played(&pos);
                    pos.undo();
                    let value = Features::of(&pos).get(Feature::PlacementCells);
                    assert_eq!(value, mine - theirs, "{}", pos.board().on_board().len());
                    seen[usize::from(mine == 0 || theirs == 0)] += 1;
                }
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        // Both kinds of position came up: with cells on both sides, and a side with none (or nothing in hand).
        assert!(seen[0] > 100 && seen[1] > 10, "{seen:?}");
    }
}
