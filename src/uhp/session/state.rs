//! What the session is doing, and who has the engine: the session while it waits for a command, a thread of its
//! own while a command's work (`bestmove`, `analyze`, `perft`) or a ponder search runs. A state holds exactly
//! what it needs, so that a session cannot be busy without a job to stop, or idle without its engine.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::engine::Engine;
use crate::search::Stopper;

/// What the session is doing.
pub(super) enum State {
    /// Waiting for a command, the engine at hand (boxed: the other states are small).
    Idle(Box<Engine>),
    /// A `bestmove`, `analyze` or `perft` runs on a thread that has the engine: lines wait, `stop` ends it.
    Working(Job),
    /// Thinking on the opponent's time on a thread that has the engine: any line ends it.
    Pondering(Stopper),
}

/// A `bestmove`, `analyze` or `perft` in progress.
pub(super) struct Job {
    /// How to end it.
    pub halt: Halt,
    /// Only a stop ends it (an `analyze` without a limit): so does the end of input.
    pub unbounded: bool,
    /// The command line that started it, for the report of a failure.
    pub line: String,
    /// Whether its completed depths are written as intermediate lines: the option's value when it started, since
    /// the engine, and so its options, are away while it runs.
    pub reporting: bool,
}

/// How to end a job that runs beside the session.
pub(super) enum Halt {
    /// A search, through the engine's stopper.
    Search(Stopper),
    /// A perft count, through its own flag.
    Count(Arc<AtomicBool>),
}

impl Halt {
    pub fn stop(&self) {
        match self {
            Halt::Search(stopper) => stopper.stop(),
            Halt::Count(flag) => flag.store(true, Ordering::SeqCst),
        }
    }
}

impl State {
    /// The engine, when the session has it (while idle).
    pub fn engine(&self) -> Option<&Engine> {
        match self {
            State::Idle(engine) => Some(engine),
            State::Working(_) | State::Pondering(_) => None,
        }
    }
}
