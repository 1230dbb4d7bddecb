//! How long a search may run: a depth, a node count, a fixed time, a chess clock, or nothing (until stopped).
//!
//! Owns the vocabulary only. How a time or a clock becomes a deadline is `time`'s business, in one place.

use std::time::Duration;

/// A side's clock under a chess clock: time left and the increment added after each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Both clocks, seen from the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    /// The clock of the side to move, whose move is searched.
    pub own: SideClock,
    /// The opponent's clock.
    pub opponent: SideClock,
}

/// When a search stops. Every limit given applies, and the first one reached ends the search; with none at all
/// the search runs until it is stopped (an infinite analysis, or pondering) or reaches the deepest depth it
/// starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search exactly this many plies (0: any legal move, no search).
    pub depth: Option<u32>,
    /// Stop after visiting this many nodes. Like a depth, a node limit gives the same answer every time.
    pub nodes: Option<u64>,
    /// Answer within this wall-clock time.
    pub time: Option<Duration>,
    /// Budget the move from a chess clock: the search decides how much of it to spend.
    pub clocks: Option<Clocks>,
}

impl Limits {
    /// No limit: search until stopped.
    pub fn infinite() -> Limits {
        Limits::default()
    }

    /// Search `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Visit at most `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Answer within `time`.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// Budget the move from `clocks`.
    pub fn clocks(clocks: Clocks) -> Limits {
        Limits {
            clocks: Some(clocks),
            ..Limits::default()
        }
    }

    /// Whether nothing but a stop ends the search.
    pub fn is_infinite(&self) -> bool {
        *self == Limits::default()
    }

    /// Whether the wall clock plays a part: a search without one gives the same result every time.
    pub fn is_timed(&self) -> bool {
        self.time.is_some() || self.clocks.is_some()
    }
}
