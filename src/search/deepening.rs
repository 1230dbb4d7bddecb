//! Iterative deepening: the main thread's, which reports each completed depth, keeps the root moves in the order
//! the last depth left them, finds several lines for an analysis, and decides which result an interrupted depth
//! leaves; and a helper thread's, which only fills the shared table.
//!
//! Owns the loop over depths; one depth's tree walk is `alphabeta`'s, the time policy `time`'s.

use std::sync::atomic::AtomicU64;

use super::alphabeta::Walk;
use super::busy::Split;
use super::evals::Evals;
use super::limits::Limits;
use super::ordering::Heuristics;
use super::pv::PvTable;
use super::time::Deadline;
use super::tt::Table;
use super::{Report, MAX_DEPTH};
use crate::eval::{Evaluator, LineEvaluator, LineMemory};
use crate::rules::moves::MoveList;
use crate::rules::position::Position;

/// What one thread of a search keeps to itself besides its position: its move-ordering memory, its principal
/// variation and the static evaluations it made.
pub(crate) struct Worker {
    pub heuristics: Heuristics,
    pub pv: PvTable,
    pub evals: Evals,
    pub line: LineMemory,
}

impl Worker {
    pub fn new() -> Worker {
        Worker {
            heuristics: Heuristics::new(),
            pv: PvTable::new(),
            evals: Evals::new(),
            line: LineMemory::new(super::MAX_PLY + 2),
        }
    }

    /// A walk over one depth's tree with this thread's memory, from no nodes visited. With `alone` (no helper
    /// threads) the node limit holds exactly, node for node, so that the search is reproducible; with helpers it
    /// holds for all threads together, to within a few hundred nodes a thread.
    fn walk<'a>(
        &'a mut self,
        pos: &'a mut Position,
        shared: &'a Shared,
        deadline: &'a Deadline,
        alone: bool,
    ) -> Walk<'a> {
        Walk {
            pos,
            table: shared.table,
            heuristics: &mut self.heuristics,
            pv: &mut self.pv,
            evals: &mut self.evals,
            eval: LineEvaluator::new(shared.eval, &mut self.line),
            deadline,
            busy: shared.busy,
            node_limit: if alone { shared.node_limit } else { u64::MAX },
            all_nodes: shared.nodes,
            all_nodes_limit: shared.node_limit,
            nodes: 0,
            counted: 0,
            seldepth: 0,
            aborted: false,
        }
    }
}

/// What the threads of one search share.
pub(crate) struct Shared<'a> {
    pub table: &'a Table,
    pub eval: Evaluator<'a>,
    /// Nodes all threads have visited so far, each adding its own every few hundred nodes and at the end of each
    /// depth.
    pub nodes: &'a AtomicU64,
    /// The search ends once all threads together have visited this many nodes.
    pub node_limit: u64,
    /// Whether helper threads search beside the main one.
    pub helped: bool,
    /// With helper threads: the moves each thread is on, which the others put off.
    pub busy: Option<&'a dyn Split>,
}

/// The main thread's iterative deepening over the root `(pos, moves)` (the legal moves of `pos`, in the order to
/// try them):
/// `count` lines, best first (one for a move, several for an analysis). `on_depth` hears of each completed
/// depth. Returns the lines of the last completed depth (or of depth 0: the first moves of the order, when no
/// depth completed); a single line is updated by an interrupted depth that proved a better move, while an
/// analysis keeps the lines of the last completed depth.
pub(crate) fn deepen(
    worker: &mut Worker,
    (mut pos, mut moves): (Position, MoveList),
    limits: &Limits,
    count: usize,
    shared: &Shared,
    deadline: &Deadline,
    mut on_depth: impl FnMut(&[Report]),
) -> Vec<Report> {
    let count = count.clamp(1, moves.len());
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
    let score = shared.eval.evaluate(&pos);
    let mut lines: Vec<Report> = moves[..count]
        .iter()
        .map(|&mv| Report {
            depth: 0,
            score,
            best: mv,
            pv: vec![mv],
            nodes: 0,
            seldepth: 0,
        })
        .collect();
    if max_depth == 0 {
        on_depth(&lines);
        return lines;
    }

    let (mut nodes, mut seldepth, mut unsure) = (0, 0, false);
    for depth in 1..=max_depth {
        if !deadline.next_iteration_fits(unsure) {
            break;
        }
        let mut walk = worker.walk(&mut pos, shared, deadline, !shared.helped);
        (walk.nodes, walk.counted, walk.seldepth) = (nodes, nodes, seldepth);
        let mut found = Vec::with_capacity(count);
        for k in 0..count {
            // The k-th line is the best of the moves the lines before it did not take.
            let result = walk.root(&moves[k..], depth, k == 0);
            let Some(i) = result.best else { break };
            if walk.aborted {
                // An interrupted depth only counts when it overturned the previous best move, and only for a
                // single line: the lines of an analysis stay those of one completed depth.
                if count == 1 && i != 0 {
                    let line = &mut lines[0];
                    line.depth = depth - 1;
                    line.score = result.score;
                    line.best = moves[i];
                    line.pv = walk.pv.line(0).to_vec();
                }
                // The move goes first next time; the others keep their order.
                moves[k..=k + i].rotate_right(1);
                break;
            }
            // The search that chose the line before this one bounded every move left by that line's score; a
            // later search of those moves alone, whose tree differs, can score one a little higher. The lines stay
            // in the order they were chosen, so that the first is the move `bestmove` plays, and their scores
            // keep to that bound.
            let score = found
                .last()
                .map_or(result.score, |before: &Report| result.score.min(before.score));
            found.push(Report {
                depth,
                score,
                best: moves[k + i],
                pv: walk.pv.line(0).to_vec(),
                nodes: 0,
                seldepth: 0,
            });
            moves[k..=k + i].rotate_right(1);
        }
        let all_nodes = walk.count_nodes();
        (nodes, seldepth) = (walk.nodes, walk.seldepth);
        let aborted = walk.aborted;
        if !aborted {
            unsure = found[0].best != lines[0].best;
            lines = found;
        }
        for line in &mut lines {
            (line.nodes, line.seldepth) = (all_nodes, seldepth as u32);
        }
        if aborted {
            break;
        }
        on_depth(&lines);
        let settled = lines[0].is_win() || lines[0].is_loss() || moves.len() == 1;
        if deadline.is_timed() && settled {
            break;
        }
    }
    lines
}

/// A helper thread's iterative deepening: the same root moves, from the second depth on for every other helper,
/// so that the threads' trees differ; it ends when its deadline's flags are raised. Its results reach the main
/// thread only through the table.
pub(crate) fn help(
    worker: &mut Worker,
    mut pos: Position,
    mut moves: MoveList,
    index: usize,
    shared: &Shared,
    deadline: &Deadline,
) {
    for depth in (1 + index as u32 % 2)..=MAX_DEPTH {
        if deadline.stopped() {
            break;
        }
        let mut walk = worker.walk(&mut pos, shared, deadline, false);
        let result = walk.root(&moves, depth, true);
        walk.count_nodes();
        if walk.aborted {
            break;
        }
        if let Some(i) = result.best {
            moves[..=i].rotate_right(1);
        }
    }
}
