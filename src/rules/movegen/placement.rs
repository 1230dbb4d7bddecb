//! Where a side may place: anywhere for the first piece, next to it for the second, and afterwards on empty cells
//! touching its own colour and not the other's (judged by the top of each stack).

use super::dests::CellSet;
use crate::rules::board::Board;
use crate::rules::hex::{Direction, Hex};
use crate::rules::piece::{Color, Piece};

/// The cells where `color` may place a piece.
pub(crate) fn placement_cells(board: &Board, color: Color, out: &mut CellSet) {
    out.clear();
    let on_board = board.on_board().bits();
    match on_board.count_ones() {
        0 => {
            out.insert(Hex::ORIGIN);
        }
        1 => {
            let only = Piece::from_index(on_board.trailing_zeros() as usize);
            for n in board.hex_of_unchecked(only).neighbours() {
                out.insert(n);
            }
        }
        _ => each_own_top(board, color, |hex, empty| {
            for dir in Direction::ALL {
                if empty & (1 << dir.index()) == 0 {
                    continue;
                }
                let n = hex.step(dir);
                if counted_from(board, color, empty, n, dir) {
                    out.push(n);
                }
            }
            true
        }),
    }
}

/// How many cells `color` could place on once the hive has two pieces or more (the same cells as
/// [`placement_cells`], counted without listing them), stopping at `cap` (looked at after each piece).
pub(crate) fn placement_count(board: &Board, color: Color, cap: u32) -> u32 {
    let mut count = 0;
    each_own_top(board, color, |hex, empty| {
        for dir in Direction::ALL {
            count += u32::from(counted_from(board, color, empty, hex.step(dir), dir));
        }
        count < cap
    });
    count.min(cap)
}

/// Hand each piece of `color` on top of its stack to `f`, as its cell and the bits of the directions in which
/// its neighbour is empty, until `f` returns false.
#[inline(always)]
fn each_own_top(board: &Board, color: Color, mut f: impl FnMut(Hex, u8) -> bool) {
    let mut bits = board.on_board().bits() & color_mask(color);
    while bits != 0 {
        let piece = Piece::from_index(bits.trailing_zeros() as usize);
        bits &= bits - 1;
        let hex = board.hex_of_unchecked(piece);
        if board.top(hex) == Some(piece) && !f(hex, !board.occupied_bits(hex)) {
            return;
        }
    }
}

/// Whether `n`, the neighbour in direction `dir` of a cell topped by a piece of `color` whose empty neighbours
/// are the bits `empty`, is a cell where `color` may place, and is counted from this cell: it is empty, touches
/// no top of the other colour, and this is its first own neighbour (so that a cell next to several is taken
/// once). Without branches: which way each test goes follows the board, not a pattern a processor could learn.
#[inline(always)]
fn counted_from(board: &Board, color: Color, empty: u8, n: Hex, dir: Direction) -> bool {
    let own_around = board.touching_bits(color, n);
    let first_own = own_around & own_around.wrapping_neg();
    ((empty >> dir.index()) & 1 != 0)
        & (board.touching_bits(color.opponent(), n) == 0)
        & (first_own == 1 << dir.opposite().index())
}

/// Bits of the pieces of `color`.
#[inline]
pub(crate) const fn color_mask(color: Color) -> u32 {
    match color {
        Color::White => 0x3fff,
        Color::Black => 0x3fff << 14,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game_type::GameType;
    use crate::rules::moves::MoveList;
    use crate::rules::position::Position;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Over random games of every game type, the count agrees with the cells listed, up to the cap.
    #[test]
    fn the_count_is_the_number_of_cells_listed() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut cells = CellSet::default();
        let mut checked = 0;
        for game in 0..40 {
            let mut pos = Position::new(GameType::ALL[game % GameType::ALL.len()]);
            for _ in 0..60 {
                if pos.state().is_over() {
                    break;
                }
                if pos.board().on_board().len() >= 2 {
                    for color in Color::ALL {
                        placement_cells(pos.board(), color, &mut cells);
                        let listed = cells.len() as u32;
                        assert_eq!(placement_count(pos.board(), color, u32::MAX), listed);
                        assert_eq!(placement_count(pos.board(), color, 3), listed.min(3));
                        checked += 1;
                    }
                }
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                let mv = moves[rng.gen_range(0..moves.len())];
                pos.play_unchecked(mv);
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
