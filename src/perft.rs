//! Perft: the number of move sequences of a given length, counting the last ply in bulk; and divide.

use std::fmt;
use std::time::{Duration, Instant};

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The number of distinct move sequences of `depth` plies from `pos` (left as it was).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            let mut total = 0;
            for &mv in &moves {
                pos.play_unchecked(mv);
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
            pos.play_unchecked(mv);
            let count = perft(pos, depth.saturating_sub(1));
            pos.undo();
            (mv, count)
        })
        .collect()
}

/// The perft of one depth and how long it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timed {
    /// The depth counted.
    pub depth: u32,
    /// The number of move sequences of that length.
    pub count: u64,
    /// How long counting took.
    pub elapsed: Duration,
}

impl fmt::Display for Timed {
    /// `perft(D) = COUNT in S s, R M leaves/s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        write!(
            f,
            "perft({}) = {} in {secs:.3} s, {:.1} M leaves/s",
            self.depth,
            self.count,
            self.count as f64 / secs.max(1e-9) / 1e6
        )
    }
}

/// Perft of `pos` at each depth from 1 to `depth`, timed, computed one depth at a time as the iterator is read.
pub fn perft_by_depth(pos: &Position, depth: u32) -> impl Iterator<Item = Timed> {
    let mut pos = pos.clone();
    (1..=depth).map(move |depth| {
        let start = Instant::now();
        let count = perft(&mut pos, depth);
        Timed {
            depth,
            count,
            elapsed: start.elapsed(),
        }
    })
}
