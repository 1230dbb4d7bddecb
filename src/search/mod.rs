//! The searcher: iterative deepening over a negamax alpha-beta search. It never prints: progress goes to a callback.
//!
//! This file owns the public API (limits, reports, the reusable [`Searcher`]) and iterative deepening: the root
//! move order between depths, when to start another depth, and which result to return when a search is cut short.
//! The tree walk is `alphabeta`, the memory `tt`, the move order `ordering`, the principal variation `pv` and the
//! clock `clock`; the static evaluation lives in `crate::eval`.

mod alphabeta;
mod clock;
mod ordering;
mod pv;
mod tt;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::eval::evaluate;
use crate::moves::{Move, MoveList};
use crate::position::Position;

use alphabeta::Walk;
use clock::Clock;
use ordering::Heuristics;
use pv::PvTable;
use tt::Table;

/// The score of a game won on the spot; a win `n` plies ahead scores `WIN - n`, a loss `-(WIN - n)`.
pub const WIN: i32 = 30_000;

/// The deepest line the search follows (the depth of a search is clamped below it).
pub(crate) const MAX_PLY: usize = 64;

/// The deepest iteration a search starts.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 4;

/// The depth searched when `Limits` gives neither a depth nor a time.
pub const DEFAULT_DEPTH: u32 = 4;

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

impl Report {
    /// Whether the side to move wins by force (the score is a win score).
    pub fn is_win(&self) -> bool {
        self.score >= WIN - MAX_PLY as i32
    }

    /// Whether the side to move loses by force whatever it plays.
    pub fn is_loss(&self) -> bool {
        self.score <= -(WIN - MAX_PLY as i32)
    }

    /// For a forced win or loss, how many plies until the game ends (1: the best move itself wins).
    pub fn plies_to_end(&self) -> Option<u32> {
        (self.is_win() || self.is_loss()).then(|| (WIN - self.score.abs()) as u32)
    }
}

/// A reusable searcher with its transposition table.
pub struct Searcher {
    tt_mb: usize,
    tt: Table,
    heuristics: Heuristics,
    pv: PvTable,
}

impl Searcher {
    /// A searcher with a transposition table of `tt_mb` megabytes.
    pub fn new(tt_mb: usize) -> Searcher {
        Searcher {
            tt_mb,
            tt: Table::new(tt_mb),
            heuristics: Heuristics::new(),
            pv: PvTable::new(),
        }
    }

    /// Resize (and clear) the transposition table.
    pub fn set_tt_size(&mut self, tt_mb: usize) {
        if tt_mb == self.tt_mb {
            self.tt.clear();
        } else {
            // Free the old table first so that both are never held at once.
            self.tt = Table::new(0);
            self.tt = Table::new(tt_mb);
            self.tt_mb = tt_mb;
        }
    }

    /// The transposition table size in megabytes.
    pub fn tt_size(&self) -> usize {
        self.tt_mb
    }

    /// Forget everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
    }

    /// Search `pos` (left as it was on return) within `limits`, stopping early when `stop` becomes true. Calls
    /// `on_iteration` after each completed depth. Returns `None` only when the game is over (no legal move).
    ///
    /// With a depth, iterations run 1..=depth and nothing depends on the clock, so the same search from the same
    /// table gives the same move and node count. With a time, iterations continue until the next one is unlikely
    /// to finish, and the one in progress is abandoned at the deadline; a move that an abandoned iteration had
    /// already proved better than the previous best is returned (with the depth of the last completed
    /// iteration). Depth 0, or a stop before the first iteration, gives the move ordering's first choice.
    pub fn search(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&Report),
    ) -> Option<Report> {
        if pos.state().is_over() {
            return None;
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        let clock = Clock::start(limits.time, stop);
        let max_depth = match (limits.depth, limits.time) {
            (Some(depth), _) => depth,
            (None, Some(_)) => MAX_DEPTH,
            (None, None) => DEFAULT_DEPTH,
        }
        .min(MAX_DEPTH);

        self.tt.new_search();
        self.heuristics.clear();
        self.order_root(pos, &mut moves);
        let mut report = Report {
            depth: 0,
            score: evaluate(pos),
            best: moves[0],
            pv: vec![moves[0]],
            nodes: 0,
        };
        if max_depth == 0 {
            on_iteration(&report);
            return Some(report);
        }

        let mut nodes = 0;
        for depth in 1..=max_depth {
            if !clock.next_iteration_fits() {
                break;
            }
            let mut walk = Walk {
                pos,
                tt: &mut self.tt,
                heuristics: &mut self.heuristics,
                pv: &mut self.pv,
                clock: &clock,
                nodes,
                aborted: false,
            };
            let result = walk.root(&moves, depth);
            nodes = walk.nodes;
            let aborted = walk.aborted;
            if let Some(i) = result.best {
                // An interrupted iteration only counts when it overturned the previous best move.
                if !aborted || i != 0 {
                    report.depth = if aborted { depth - 1 } else { depth };
                    report.score = result.score;
                    report.best = moves[i];
                    report.pv = self.pv.line(0).to_vec();
                }
                // The best move goes first next time; the others keep their order.
                moves[..=i].rotate_right(1);
            }
            report.nodes = nodes;
            if aborted {
                break;
            }
            on_iteration(&report);
            let settled = report.is_win() || report.is_loss() || moves.len() == 1;
            if clock.is_timed() && settled {
                break;
            }
        }
        Some(report)
    }

    /// Put the root moves in the order the tree search would try them.
    fn order_root(&self, pos: &Position, moves: &mut MoveList) {
        let hash_move = self.tt.probe(pos.hash(), 0).and_then(|hit| hit.best);
        let mut ordered = self.heuristics.order(pos, moves, hash_move, 0);
        let mut i = 0;
        while let Some((mv, _)) = ordered.next() {
            moves[i] = mv;
            i += 1;
        }
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
        };
        assert!(report.is_win() && !report.is_loss());
        assert_eq!(report.plies_to_end(), Some(3));
        let lost = Report {
            score: -(WIN - 2),
            ..report.clone()
        };
        assert!(lost.is_loss());
        assert_eq!(lost.plies_to_end(), Some(2));
        let level = Report { score: 120, ..report };
        assert_eq!(level.plies_to_end(), None);
    }
}
