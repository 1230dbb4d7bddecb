//! Where a side may place: anywhere for the first piece, next to it for the second, and afterwards on empty cells
//! touching its own colour and not the other's (judged by the top of each stack).

use super::dests::CellSet;
use crate::board::Board;
use crate::hex::{Direction, Hex};
use crate::piece::{Color, Piece};

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
        _ => {
            let opponent = color.opponent();
            let own = on_board & color_mask(color);
            let mut bits = own;
            while bits != 0 {
                let piece = Piece::from_index(bits.trailing_zeros() as usize);
                bits &= bits - 1;
                let hex = board.hex_of_unchecked(piece);
                if board.top(hex) != Some(piece) {
                    continue;
                }
                let empty = !board.occupied_bits(hex);
                for dir in Direction::ALL {
                    if empty & (1 << dir.index()) == 0 {
                        continue;
                    }
                    let n = hex.step(dir);
                    // A cell next to several own pieces is taken once: from its first own neighbour.
                    let own_around = board.touching_bits(color, n);
                    let first_own = own_around & own_around.wrapping_neg();
                    if board.touching_bits(opponent, n) == 0 && first_own == 1 << dir.opposite().index() {
                        out.push(n);
                    }
                }
            }
        }
    }
}

/// Bits of the pieces of `color`.
#[inline]
pub(crate) const fn color_mask(color: Color) -> u32 {
    match color {
        Color::White => 0x3fff,
        Color::Black => 0x3fff << 14,
    }
}
