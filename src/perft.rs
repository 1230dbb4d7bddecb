//! Perft: the number of move sequences of a given length, counting the last ply in bulk; and divide.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The number of distinct move sequences of `depth` plies from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            let mut total = 0;
            for &mv in &moves {
                pos.play(mv);
                total += perft(pos, depth - 1);
                pos.undo();
            }
            total
        }
    }
}

/// The perft count under each root move, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            pos.play(mv);
            let count = perft(pos, depth.saturating_sub(1));
            pos.undo();
            (mv, count)
        })
        .collect()
}
