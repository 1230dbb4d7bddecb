//! Static evaluation: how good a position looks to the side to move, without searching.
//!
//! Owns the features and their weights: pressure on each Queen (occupied neighbours, a beetle on top), pieces free
//! to move (on top, not pinned, not boxed in), pieces covered by beetles, pieces in hand. It does not look at the
//! game state: a finished game is scored by the search before it ever asks for an evaluation.

use crate::board::Board;
use crate::hex::Hex;
use crate::movegen::color_mask;
use crate::piece::{Bug, Color, Piece};
use crate::position::Position;

/// The largest magnitude `evaluate` returns, well below the search's win scores.
pub const MAX_EVAL: i32 = 20_000;

/// Penalty for a Queen with this many occupied neighbours. Steep, because the sixth neighbour ends the game and
/// each neighbour makes the next one easier to add.
const QUEEN_PRESSURE: [i32; 7] = [0, 12, 30, 60, 110, 200, 400];
/// Penalty for a Queen with a beetle (or anything) on top: she cannot move and the stack counts as a neighbour
/// for nobody, but the piece on top pins her in place.
const QUEEN_COVERED: i32 = 60;
/// Relief for each own piece next to the Queen that could step away again: it is pressure the owner controls.
const FRIENDLY_CAN_LEAVE: i32 = 8;
/// Value of a piece of each bug (in [`Bug::ALL`] order) that is free to move.
const FREE: [i32; 8] = [18, 12, 18, 12, 30, 22, 18, 15];
/// Value of a piece of each bug still in hand: flexible, but doing nothing yet.
const IN_HAND: [i32; 8] = [0, 5, 8, 5, 12, 10, 8, 7];
/// Penalty for a piece with another piece on top of it.
const COVERED: i32 = 10;
/// Bonus for a piece on top of a stack, which walks over the hive and pins what it covers.
const ON_TOP: i32 = 15;
/// Bonus for the side to move, which evens out the odd/even-depth swing of the search.
const TEMPO: i32 = 8;

/// The position's value for the side to move, in the search's units (`±MAX_EVAL` at most). Takes `&mut` only
/// because finding pinned pieces uses the position's scratch space.
pub fn evaluate(pos: &mut Position) -> i32 {
    let pinned = pos.pinned();
    let board = pos.board();
    let mut side = [0i32; 2];
    for color in Color::ALL {
        side[color.index()] = side_score(pos, board, color, pinned);
    }
    let me = pos.to_move().index();
    (side[me] - side[1 - me] + TEMPO).clamp(-MAX_EVAL, MAX_EVAL)
}

/// What `color` has going for it, ignoring the other side.
fn side_score(pos: &Position, board: &Board, color: Color, pinned: u32) -> i32 {
    let mut score = 0;
    for bug in Bug::ALL {
        score += i32::from(pos.in_hand(color, bug)) * IN_HAND[bug.index()];
    }
    let Some(queen) = pos.queen_hex(color) else {
        // Nothing of this side may move before its Queen is placed, so nothing on the board counts as free.
        return score;
    };

    let mut occupied = 0;
    for n in queen.neighbours() {
        if let Some(top) = board.top(n) {
            occupied += 1;
            if top.color() == color && is_free(board, top, pinned) {
                score += FRIENDLY_CAN_LEAVE;
            }
        }
    }
    score -= QUEEN_PRESSURE[occupied];
    if board.height(queen) > 1 {
        score -= QUEEN_COVERED;
    }

    let mut bits = board.on_board_mask() & color_mask(color);
    while bits != 0 {
        let piece = Piece::from_index(bits.trailing_zeros() as usize);
        bits &= bits - 1;
        let Some(hex) = board.hex_of(piece) else { continue };
        if board.top(hex) != Some(piece) {
            score -= COVERED;
            continue;
        }
        if board.height(hex) > 1 {
            score += ON_TOP;
        }
        if is_free(board, piece, pinned) {
            score += FREE[piece.bug().index()];
        }
    }
    score
}

/// Whether `piece` (on top of its stack) could plausibly move: not pinned to the hive, and not boxed in when it
/// can only slide. A cheap stand-in for counting its moves.
#[inline]
fn is_free(board: &Board, piece: Piece, pinned: u32) -> bool {
    let Some(hex) = board.hex_of(piece) else {
        return false;
    };
    if board.height(hex) > 1 {
        return board.top(hex) == Some(piece);
    }
    if pinned & (1 << piece.index()) != 0 {
        return false;
    }
    match piece.bug() {
        // Sliders need an empty cell with an open gate: five occupied neighbours leave the one empty cell gated.
        Bug::Queen | Bug::Spider | Bug::Ant | Bug::Pillbug => occupied_neighbours(board, hex) < 5,
        _ => true,
    }
}

/// How many of the six cells around `hex` hold a piece.
#[inline]
fn occupied_neighbours(board: &Board, hex: Hex) -> usize {
    hex.neighbours().iter().filter(|&&n| board.is_occupied(n)).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_type::GameType;

    #[test]
    fn the_empty_board_is_level_but_for_the_tempo() {
        let mut pos = Position::new(GameType::MLP);
        assert_eq!(evaluate(&mut pos), TEMPO);
    }

    #[test]
    fn a_crowded_queen_is_bad_for_her_owner_whoever_is_to_move() {
        // Black's Queen has five neighbours, White's four (three of them free to step away).
        let white_to_move = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wG1 \\wQ;\
                             bG2 bQ/;wG2 /wQ;bG3 bQ\\;wS2 \\wG1;bA1 \\bQ";
        let black_to_move = format!("{white_to_move};wB1 -wG2");
        let mut pos = Position::from_game_string(white_to_move).unwrap();
        assert!(evaluate(&mut pos) > 2 * TEMPO, "{}", evaluate(&mut pos));
        let mut pos = Position::from_game_string(&black_to_move).unwrap();
        assert!(evaluate(&mut pos) < -2 * TEMPO, "{}", evaluate(&mut pos));
    }

    #[test]
    fn evaluation_is_bounded_and_leaves_the_position_alone() {
        let text = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wG1 \\wQ;bG2 bQ/";
        let mut pos = Position::from_game_string(text).unwrap();
        let (hash, game) = (pos.hash(), pos.game_string());
        assert!(evaluate(&mut pos).abs() <= MAX_EVAL);
        assert_eq!((pos.hash(), pos.game_string()), (hash, game));
    }
}
