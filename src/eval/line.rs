//! The evaluation as a search thread sees it: one door that follows the thread's line (each move played and taken
//! back) and scores the position at its end. Behind it the hand-written evaluation works from the position alone,
//! and the network keeps its neurons up to date move by move (`net::accumulator`); the search knows neither.
//!
//! Owns the door and the memory a thread keeps for it; not the evaluations themselves.

use super::net::accumulator::Accumulators;
use super::{evaluate, Evaluator, MAX_EVAL};
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// What one search thread's evaluation keeps along its line, from one search to the next.
pub(crate) struct LineMemory {
    accumulators: Accumulators,
}

impl LineMemory {
    /// Room for a line of `plies` moves (a longer one grows it).
    pub(crate) fn new(plies: usize) -> LineMemory {
        LineMemory {
            accumulators: Accumulators::new(plies),
        }
    }
}

/// An evaluator following a search thread's line, with the thread's memory.
pub(crate) struct LineEvaluator<'a> {
    evaluator: Evaluator<'a>,
    memory: &'a mut LineMemory,
}

impl<'a> LineEvaluator<'a> {
    /// `evaluator` following a line with `memory`; [`LineEvaluator::start`] before the first move.
    pub(crate) fn new(evaluator: Evaluator<'a>, memory: &'a mut LineMemory) -> LineEvaluator<'a> {
        LineEvaluator { evaluator, memory }
    }

    /// Start the line at `pos`: whatever the memory held is forgotten.
    pub(crate) fn start(&mut self, pos: &Position) {
        if let Evaluator::Net(net) = self.evaluator {
            self.memory.accumulators.reset(net, pos);
        }
    }

    /// `mv`, one of the legal moves of `pos`, is about to be played.
    #[inline]
    pub(crate) fn play(&mut self, pos: &Position, mv: Move) {
        if let Evaluator::Net(_) = self.evaluator {
            self.memory.accumulators.push(pos, mv);
        }
    }

    /// The move last played has been taken back.
    #[inline]
    pub(crate) fn undo(&mut self) {
        if let Evaluator::Net(_) = self.evaluator {
            self.memory.accumulators.pop();
        }
    }

    /// The value for the side to move of `pos`, the position at the end of the line (`±MAX_EVAL` at most).
    #[inline]
    pub(crate) fn evaluate(&mut self, pos: &Position) -> i32 {
        match self.evaluator {
            Evaluator::Classic(weights) => evaluate(pos, weights),
            Evaluator::Net(net) => net
                .evaluate_along(&mut self.memory.accumulators, pos)
                .clamp(-MAX_EVAL, MAX_EVAL),
        }
    }
}
