//! The searcher: iterative deepening over a negamax alpha-beta search. It never prints: progress goes to a callback.
//!
//! State is split the way a search running beside its front end needs it. What every thread shares lives behind
//! `Arc`s: the transposition table and the [`Stopper`] (the stop flag, whether a search runs, the node count). What
//! one thread keeps to itself is its own copy of the position, its move-ordering memory and its principal
//! variation. The front end owns the thread a search runs on: it moves the [`Searcher`] there and keeps a
//! `Stopper` to end the search from outside.
//!
//! This file owns the vocabulary (reports, progress, the stopper); the [`Searcher`] and its threads are in
//! `searcher`, iterative deepening (the root move order between depths, when to start another depth, which result
//! to return when a search is cut short, several lines for an analysis) in `deepening`, the tree walk in
//! `alphabeta`, how the threads start and end together in `threads`, the moves threads put off for each other in
//! `busy`, the memory in `tt` and `evals`, the move order in `ordering`, the principal variation in `pv`, the
//! limits in `limits` and the time policy in `time`; the static evaluation lives in `crate::eval`.

mod alphabeta;
mod busy;
mod deepening;
mod evals;
mod limits;
mod ordering;
mod pages;
#[cfg(feature = "puzzles")]
pub(crate) mod proof;
mod pv;
mod searcher;
mod threads;
mod time;
mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::rules::moves::Move;

pub use limits::{Clocks, Limits, SideClock};
pub use searcher::Searcher;
#[cfg(feature = "arena")]
pub(crate) use time::move_time;
pub use tt::TableTooBig;

/// The score of a game won on the spot; a win `n` plies ahead scores `WIN - n`, a loss `-(WIN - n)`.
pub const WIN: i32 = 30_000;

/// The deepest line the search follows (the depth of a search is clamped below it).
pub(crate) const MAX_PLY: usize = 64;

/// The deepest iteration a search starts.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 4;

/// What an iteration (or the whole search) found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Depth completed.
    pub depth: u32,
    /// Score from the side to move's point of view, in centi-pawn-like units; wins are large.
    pub score: i32,
    /// The best move found.
    pub best: Move,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Nodes visited so far, by every thread.
    pub nodes: u64,
    /// The deepest ply the search reached (by the main thread).
    pub seldepth: u32,
}

/// What a search reports after each completed depth: its line (or, for an analysis, its lines, best first) and
/// how the search is going.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    /// The best line, then the next best ones when an analysis asked for several.
    pub lines: &'a [Report],
    /// Time since the search started.
    pub elapsed: Duration,
    /// How full the transposition table is, in thousandths (from a sample of its slots).
    pub table_permille: u32,
}

impl Progress<'_> {
    /// The best line.
    pub fn best(&self) -> &Report {
        &self.lines[0]
    }

    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> u64 {
        (self.lines[0].nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

impl Report {
    /// Whether the side to move wins by force (the score is a win score).
    pub fn is_win(&self) -> bool {
        self.score >= WIN - MAX_PLY as i32
    }

    /// Whether the side to move loses by force whatever it plays.
    pub fn is_loss(&self) -> bool {
        self.score <= -(WIN - MAX_PLY as i32)
    }

    /// The side to move's chance of winning that the score stands for, from 0 to 1: 1 for a forced win, 0 for a
    /// forced loss, else the curve fitted to searched scores, with the side to move's tempo taken off (the curve
    /// `waggle review` judges moves by; a score of +7 is even).
    pub fn win_chance(&self) -> f64 {
        use crate::eval::{win_chance, SEARCHED_CURVE_SCALE, SEARCHED_CURVE_TEMPO};
        if self.is_win() {
            1.0
        } else if self.is_loss() {
            0.0
        } else {
            win_chance(f64::from(self.score) - SEARCHED_CURVE_TEMPO, SEARCHED_CURVE_SCALE)
        }
    }

    /// For a forced win or loss, how many plies until the game ends (1: the best move itself wins).
    pub fn plies_to_end(&self) -> Option<u32> {
        (self.is_win() || self.is_loss()).then(|| (WIN - self.score.abs()) as u32)
    }
}

/// What the threads of a search and the front end share besides the table.
#[derive(Default)]
pub(crate) struct Control {
    /// Raised to end the search in progress (or the next one, if none is running).
    pub(crate) stop: AtomicBool,
    /// Whether a search is running.
    pub(crate) searching: AtomicBool,
}

/// A handle that stops a [`Searcher`]'s search from another thread (a signal handler, the front end's input
/// loop). Cheap to clone.
#[derive(Clone)]
pub struct Stopper(Arc<Control>);

impl Stopper {
    /// End the search in progress: it returns the best move found so far. A stop raised while no search runs
    /// ends the next one at once.
    pub fn stop(&self) {
        self.0.stop.store(true, Ordering::SeqCst);
    }

    /// Lower a stop that came too late for the search it was meant for (one that had just returned of itself),
    /// so that it does not end the next search: call it once that search has returned.
    pub fn clear(&self) {
        self.0.stop.store(false, Ordering::SeqCst);
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.0.searching.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_scores_read_back_as_plies() {
        let report = Report {
            depth: 3,
            score: WIN - 3,
            best: Move::Pass,
            pv: vec![Move::Pass],
            nodes: 0,
            seldepth: 0,
        };
        assert!(report.is_win() && !report.is_loss());
        assert_eq!(report.plies_to_end(), Some(3));
        let lost = Report {
            score: -(WIN - 2),
            ..report.clone()
        };
        assert!(lost.is_loss());
        assert_eq!(lost.plies_to_end(), Some(2));
        assert_eq!((report.win_chance(), lost.win_chance()), (1.0, 0.0));
        let level = Report { score: 120, ..report };
        assert_eq!(level.plies_to_end(), None);
        // Even at the tempo: the side to move's score of a position it wins as often as it loses.
        let even = Report {
            score: crate::eval::SEARCHED_CURVE_TEMPO as i32,
            ..level.clone()
        };
        assert!((even.win_chance() - 0.5).abs() < 1e-12);
        assert!((0.5..1.0).contains(&level.win_chance()));
    }
}
