//! The searcher: negamax alpha-beta with iterative deepening. It never prints: progress goes to a callback.
//!
//! PLACEHOLDER API (being implemented by the search work): the signatures below are the contract the UHP layer
//! codes against.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// How long to search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search exactly this many plies (0: any legal move, no search).
    pub depth: Option<u32>,
    /// Answer within this wall-clock time.
    pub time: Option<Duration>,
}

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
    /// Nodes visited so far.
    pub nodes: u64,
}

/// A reusable searcher with its transposition table.
pub struct Searcher {
    tt_mb: usize,
}

impl Searcher {
    /// A searcher with a transposition table of `tt_mb` megabytes.
    pub fn new(tt_mb: usize) -> Searcher {
        Searcher { tt_mb }
    }

    /// Resize (and clear) the transposition table.
    pub fn set_tt_size(&mut self, tt_mb: usize) {
        self.tt_mb = tt_mb;
    }

    /// Forget everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Search `pos` (left as it was on return) within `limits`, stopping early when `stop` becomes true. Calls
    /// `on_iteration` after each completed depth. Returns `None` only when the game is over (no legal move).
    pub fn search(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&Report),
    ) -> Option<Report> {
        let _ = (limits, stop.load(Ordering::Relaxed), self.tt_mb);
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let best = *moves.first()?;
        let report = Report {
            depth: 0,
            score: 0,
            best,
            pv: vec![best],
            nodes: 0,
        };
        on_iteration(&report);
        Some(report)
    }
}
