//! The searcher: iterative deepening over a negamax alpha-beta search. It never prints: progress goes to a callback.
//!
//! State is split the way a search running beside its front end needs it. What every thread shares lives behind
//! `Arc`s: the transposition table and the [`Stopper`] (the stop flag, whether a search runs, the node count). What
//! one thread keeps to itself is its own copy of the position, its move-ordering memory and its principal
//! variation. The front end owns the thread a search runs on: it moves the [`Searcher`] there and keeps a
//! `Stopper` to end the search from outside.
//!
//! This file owns the public API (limits, reports, the reusable [`Searcher`]) and iterative deepening: the root
//! move order between depths, when to start another depth, and which result to return when a search is cut short.
//! The tree walk is `alphabeta`, the memory `tt`, the move order `ordering`, the principal variation `pv`, the
//! limits `limits` and the time policy `time`; the static evaluation lives in `crate::eval`.

mod alphabeta;
mod limits;
mod ordering;
mod pv;
mod time;
mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crate::eval::{evaluate, Weights};
use crate::moves::{Move, MoveList};
use crate::position::Position;

pub use limits::{Clocks, Limits, SideClock};
pub use tt::TableTooBig;

use alphabeta::Walk;
use ordering::Heuristics;
use pv::PvTable;
use time::Deadline;
use tt::Table;

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

/// What the threads of a search and the front end share besides the table.
#[derive(Default)]
struct Control {
    /// Raised to end the search in progress (or the next one, if none is running).
    stop: AtomicBool,
    /// Whether a search is running.
    searching: AtomicBool,
    /// Nodes visited by the search in progress, or by the last one.
    nodes: AtomicU64,
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

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.0.searching.load(Ordering::SeqCst)
    }

    /// Nodes visited by the search in progress (updated after each depth), or by the last one.
    pub fn nodes(&self) -> u64 {
        self.0.nodes.load(Ordering::Relaxed)
    }
}

/// What one thread of a search keeps to itself.
struct Worker {
    heuristics: Heuristics,
    pv: PvTable,
}

/// A reusable searcher: the shared table, the evaluation weights, and one worker's memory.
pub struct Searcher {
    table_mb: usize,
    table: Arc<Table>,
    control: Arc<Control>,
    worker: Worker,
    weights: Weights,
    /// Whether the table may hold anything (a search ran since it was last cleared).
    dirty: bool,
}

impl Searcher {
    /// A searcher with a transposition table of `table_mb` megabytes and the default evaluation weights; an
    /// error when the machine cannot give that memory.
    pub fn new(table_mb: usize) -> Result<Searcher, TableTooBig> {
        Ok(Searcher {
            table_mb,
            table: Arc::new(Table::new(table_mb)?),
            control: Arc::default(),
            worker: Worker {
                heuristics: Heuristics::new(),
                pv: PvTable::new(),
            },
            weights: Weights::default(),
            dirty: false,
        })
    }

    /// Give the table a new size (and clear it). When the memory is not there, the searcher keeps an empty table
    /// of the old size and answers with the error.
    pub fn resize_table(&mut self, table_mb: usize) -> Result<(), TableTooBig> {
        if table_mb == self.table_mb {
            self.clear();
            return Ok(());
        }
        self.dirty = false;
        let table = match Table::new(table_mb) {
            Ok(table) => table,
            Err(too_big) => {
                // The two may not fit side by side: let go of the old table and try again. If the new size is
                // still refused, take back one of the old size with the memory just freed.
                self.table = Arc::new(Table::new(0)?);
                match Table::new(table_mb) {
                    Ok(table) => table,
                    Err(_) => {
                        if let Ok(old) = Table::new(self.table_mb) {
                            self.table = Arc::new(old);
                        } else {
                            self.table_mb = 0;
                        }
                        return Err(too_big);
                    }
                }
            }
        };
        self.table = Arc::new(table);
        self.table_mb = table_mb;
        Ok(())
    }

    /// The transposition table size in megabytes.
    pub fn table_size(&self) -> usize {
        self.table_mb
    }

    /// A handle that stops this searcher's searches from another thread.
    pub fn stopper(&self) -> Stopper {
        Stopper(self.control.clone())
    }

    /// The evaluation weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Search with other evaluation weights from now on (the table is cleared: its scores were made with the
    /// old ones).
    pub fn set_weights(&mut self, weights: Weights) {
        self.weights = weights;
        self.clear();
    }

    /// Forget everything learnt (new game).
    pub fn clear(&mut self) {
        // Only a search in progress shares the table, and none does once `search` has returned.
        if let (true, Some(table)) = (self.dirty, Arc::get_mut(&mut self.table)) {
            table.clear();
            self.dirty = false;
        }
        self.worker.heuristics.clear();
    }

    /// Search `pos` within `limits`, calling `on_iteration` after each completed depth. Returns `None` only when
    /// the game is over (no legal move). The searcher works on its own copy of the position.
    ///
    /// With a depth or a node limit (and no time), nothing depends on the clock, so the same search from the same
    /// table gives the same move and node count. With a time, iterations continue until the next one is unlikely
    /// to finish, and the one in progress is abandoned at the deadline; a move that an abandoned iteration had
    /// already proved better than the previous best is returned (with the depth of the last completed
    /// iteration). Depth 0, or a stop before the first iteration, gives the move ordering's first choice.
    pub fn search(&mut self, pos: &Position, limits: &Limits, on_iteration: impl FnMut(&Report)) -> Option<Report> {
        let control = self.control.clone();
        control.searching.store(true, Ordering::SeqCst);
        let report = self.run(pos, limits, &control.stop, on_iteration);
        control.stop.store(false, Ordering::SeqCst);
        control.searching.store(false, Ordering::SeqCst);
        report
    }

    fn run(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&Report),
    ) -> Option<Report> {
        if pos.state().is_over() {
            return None;
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mut pos = pos.clone();
        let deadline = Deadline::start(limits, stop);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);

        self.dirty = true;
        self.table.new_search();
        self.worker.heuristics.clear();
        self.order_root(&pos, &mut moves);
        let mut report = Report {
            depth: 0,
            score: evaluate(&pos, &self.weights),
            best: moves[0],
            pv: vec![moves[0]],
            nodes: 0,
        };
        self.control.nodes.store(0, Ordering::Relaxed);
        if max_depth == 0 {
            on_iteration(&report);
            return Some(report);
        }

        let mut nodes = 0;
        for depth in 1..=max_depth {
            if !deadline.next_iteration_fits() {
                break;
            }
            let mut walk = Walk {
                pos: &mut pos,
                table: &self.table,
                heuristics: &mut self.worker.heuristics,
                pv: &mut self.worker.pv,
                weights: &self.weights,
                deadline: &deadline,
                node_limit: limits.nodes.unwrap_or(u64::MAX),
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
                    report.pv = self.worker.pv.line(0).to_vec();
                }
                // The best move goes first next time; the others keep their order.
                moves[..=i].rotate_right(1);
            }
            report.nodes = nodes;
            self.control.nodes.store(nodes, Ordering::Relaxed);
            if aborted {
                break;
            }
            on_iteration(&report);
            let settled = report.is_win() || report.is_loss() || moves.len() == 1;
            if deadline.is_timed() && settled {
                break;
            }
        }
        Some(report)
    }

    /// Put the root moves in the order the tree search would try them.
    fn order_root(&self, pos: &Position, moves: &mut MoveList) {
        let hash_move = self.table.probe(pos.hash(), 0).and_then(|hit| hit.best);
        let mut ordered = self.worker.heuristics.order(pos, moves, hash_move, 0);
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
