//! Perft: the number of move sequences of a given length, counting the last ply in bulk; and divide. A count can
//! be stopped from another thread (Ctrl-C, `stop`), and then says how far it got.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;

/// The number of distinct move sequences of `depth` plies from `pos` (left as it was).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let mut leaves = 0;
    count(pos, depth, &AtomicBool::new(false), &mut leaves);
    leaves
}

/// How far a perft got before it was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// The depth being counted.
    pub depth: u32,
    /// Root moves whose count was complete.
    pub root_moves_done: usize,
    /// Root moves in all.
    pub root_moves: usize,
    /// Move sequences counted so far, the root move in progress included.
    pub leaves: u64,
    /// How long counting went on.
    pub elapsed: Duration,
}

impl fmt::Display for Interrupted {
    /// `perft(D) interrupted after S s: R of N root moves done, L leaves counted`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "perft({}) interrupted after {:.3} s: {} of {} root moves done, {} leaves counted",
            self.depth,
            self.elapsed.as_secs_f64(),
            self.root_moves_done,
            self.root_moves,
            self.leaves
        )
    }
}

/// Perft of `pos` to `depth`, which ends early once `stop` is raised (looked at in every node but the last two
/// plies, so that it stops within a millisecond or so) and then says how far it got.
pub(crate) fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Result<u64, Interrupted> {
    let start = Instant::now();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut leaves = 0;
    if depth <= 1 {
        return Ok(if depth == 0 { 1 } else { moves.len() as u64 });
    }
    for (done, &mv) in moves.iter().enumerate() {
        pos.play_unchecked(mv);
        let complete = count(pos, depth - 1, stop, &mut leaves);
        pos.undo();
        if !complete {
            return Err(Interrupted {
                depth,
                root_moves_done: done,
                root_moves: moves.len(),
                leaves,
                elapsed: start.elapsed(),
            });
        }
    }
    Ok(leaves)
}

/// Add the move sequences of `depth` plies from `pos` to `leaves`; false when `stop` ended the count early.
fn count(pos: &mut Position, depth: u32, stop: &AtomicBool, leaves: &mut u64) -> bool {
    match depth {
        0 => *leaves += 1,
        1 => *leaves += pos.count_moves(),
        _ => match count_below(pos, depth, stop) {
            Ok(count) => *leaves += count,
            Err(partial) => {
                *leaves += partial;
                return false;
            }
        },
    }
    true
}

/// The move sequences of `depth` (at least 2) plies from `pos`, or those counted before `stop` was seen.
fn count_below(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Result<u64, u64> {
    if stop.load(Ordering::Relaxed) {
        return Err(0);
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut total = 0;
    for &mv in &moves {
        pos.play_unchecked(mv);
        let counted = if depth == 2 {
            Ok(pos.count_moves())
        } else {
            count_below(pos, depth - 1, stop)
        };
        pos.undo();
        match counted {
            Ok(count) => total += count,
            Err(partial) => return Err(total + partial),
        }
    }
    Ok(total)
}

/// The perft count under each root move, in generation order; ended early once `stop` is raised, and then
/// saying how far it got.
pub fn divide_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Result<Vec<(Move, u64)>, Interrupted> {
    let start = Instant::now();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut counts = Vec::with_capacity(moves.len());
    let mut leaves = 0;
    for &mv in &moves {
        pos.play_unchecked(mv);
        let mut under = 0;
        let complete = count(pos, depth.saturating_sub(1), stop, &mut under);
        pos.undo();
        leaves += under;
        if !complete {
            return Err(Interrupted {
                depth,
                root_moves_done: counts.len(),
                root_moves: moves.len(),
                leaves,
                elapsed: start.elapsed(),
            });
        }
        counts.push((mv, under));
    }
    Ok(counts)
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

/// Perft of `pos` at each depth from 1 to `depth`, timed, computed one depth at a time as the iterator is read;
/// once `stop` is raised, the depth in progress ends with how far it got, and nothing follows it.
pub fn perft_by_depth<'a>(
    pos: &Position,
    depth: u32,
    stop: &'a AtomicBool,
) -> impl Iterator<Item = Result<Timed, Interrupted>> + 'a {
    let mut pos = pos.clone();
    let mut interrupted = false;
    (1..=depth).map_while(move |depth| {
        if interrupted {
            return None;
        }
        let start = Instant::now();
        let counted = perft_until(&mut pos, depth, stop).map(|count| Timed {
            depth,
            count,
            elapsed: start.elapsed(),
        });
        interrupted = counted.is_err();
        Some(counted)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_count_says_how_far_it_got() {
        let pos = crate::record::tests::position("Base+MLP");
        let stop = AtomicBool::new(false);
        let counts: Vec<_> = perft_by_depth(&pos, 3, &stop).map(|t| t.map(|t| t.count)).collect();
        assert_eq!(counts, [Ok(7), Ok(294), Ok(6678)]);
        stop.store(true, Ordering::Relaxed);
        let stopped: Vec<_> = perft_by_depth(&pos, 3, &stop).collect();
        // Depths 1 and 2 are counted whole in bulk; depth 3 stops in its first root move.
        assert_eq!(stopped.len(), 3);
        let Err(interrupted) = stopped[2] else {
            panic!("{stopped:?}")
        };
        assert_eq!(
            (interrupted.depth, interrupted.root_moves_done, interrupted.root_moves),
            (3, 0, 7)
        );
        assert_eq!(interrupted.leaves, 0);
        assert!(
            interrupted.to_string().starts_with("perft(3) interrupted after "),
            "{interrupted}"
        );
        assert!(
            interrupted
                .to_string()
                .ends_with(": 0 of 7 root moves done, 0 leaves counted"),
            "{interrupted}"
        );
    }
}
