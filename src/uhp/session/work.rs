//! The work that runs beside the session on a thread of its own, with the engine lent to it: a search, a perft
//! count, a ponder search. The thread sends what it learns as it goes (a completed depth, a counted depth) and
//! hands the engine back with its outcome (`Event::Done`).

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::sync::Arc;

use crate::engine::{Engine, EngineError, SearchInfo, Thought};
use crate::rules::moves::Move;
use crate::rules::perft::perft_by_depth;
use crate::rules::position::Position;
use crate::search::Limits;

use super::Event;

/// What a search is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ask {
    /// The best move (`bestmove`).
    Best,
    /// This many best moves, each with its line (`analyze`).
    Lines(usize),
}

/// Where to ponder once idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PonderOn {
    /// The position after this move (the one the engine just recommended).
    After(Move),
    /// The current position (after a `play`, whoever is to move).
    Current,
}

/// The work to run.
pub(super) enum Task {
    Search {
        ask: Ask,
        limits: Limits,
    },
    Count {
        position: Box<Position>,
        depth: u32,
        stop: Arc<AtomicBool>,
    },
    Ponder(PonderOn),
}

/// What a piece of work came to.
pub(super) enum Outcome {
    Best(Result<Thought, EngineError>),
    Analysis(Result<Vec<Thought>, EngineError>),
    /// A perft count, its lines already sent.
    Counted,
    Pondered,
}

/// A thread's result, with the engine it borrowed.
pub struct Finished {
    pub(super) engine: Box<Engine>,
    pub(super) outcome: Outcome,
}

impl Task {
    /// A perft count of `position` to `depth`, and the flag that stops it.
    pub fn count(position: Position, depth: u32) -> (Task, Arc<AtomicBool>) {
        let stop = Arc::new(AtomicBool::new(false));
        let task = Task::Count {
            position: Box::new(position),
            depth,
            stop: stop.clone(),
        };
        (task, stop)
    }

    /// Do the work with `engine`, telling `events` how it goes.
    pub fn run(self, engine: &mut Engine, events: &Sender<Event>) -> Outcome {
        let progress = |info: &SearchInfo| {
            let _ = events.send(Event::Progress(info.clone()));
        };
        match self {
            Task::Search { ask: Ask::Best, limits } => Outcome::Best(engine.best_move(&limits, progress)),
            Task::Search {
                ask: Ask::Lines(count),
                limits,
            } => Outcome::Analysis(engine.analyze(count, &limits, progress)),
            Task::Count { position, depth, stop } => {
                for counted in perft_by_depth(&position, depth, &stop) {
                    let line = match counted {
                        Ok(timed) => timed.to_string(),
                        Err(interrupted) => interrupted.to_string(),
                    };
                    let _ = events.send(Event::Output(line));
                }
                Outcome::Counted
            }
            Task::Ponder(target) => {
                engine.ponder(match target {
                    PonderOn::After(mv) => Some(mv),
                    PonderOn::Current => None,
                });
                Outcome::Pondered
            }
        }
    }
}
