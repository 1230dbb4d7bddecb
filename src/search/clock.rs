//! Time control: when the search must stop (the stop flag, the hard deadline) and when it should not start
//! another iteration (the soft limit).
//!
//! Owns the clock arithmetic only. The search asks `must_stop` every few hundred nodes; iterative deepening asks
//! `next_iteration_fits` between depths. A search limited only by depth never looks at the time, so that it stays
//! reproducible.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Room left for unwinding, the reply and the protocol layer's own work, as a share of the limit and at most this
/// much.
const MAX_MARGIN: Duration = Duration::from_millis(15);

/// The clock of one search.
pub(crate) struct Clock<'a> {
    start: Instant,
    /// Abort the iteration in progress at this instant.
    deadline: Option<Instant>,
    /// Do not start a new iteration once this much time has passed: it would most likely not finish.
    soft: Option<Duration>,
    stop: &'a AtomicBool,
}

impl<'a> Clock<'a> {
    /// Start the clock for a search limited to `time` (if any), also stopped when `stop` becomes true.
    pub fn start(time: Option<Duration>, stop: &'a AtomicBool) -> Clock<'a> {
        let start = Instant::now();
        let budget = time.map(|t| t.saturating_sub((t / 10).min(MAX_MARGIN)));
        Clock {
            start,
            deadline: budget.map(|b| start + b),
            soft: budget.map(|b| b / 2),
            stop,
        }
    }

    /// Whether the stop flag is up.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search must end now: stopped, or past the deadline.
    #[inline]
    pub fn must_stop(&self) -> bool {
        self.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether there is a time limit at all.
    pub fn is_timed(&self) -> bool {
        self.deadline.is_some()
    }

    /// Whether another iteration is worth starting: not stopped, and (with a time limit) less than half the
    /// budget gone, since each depth costs several times the one before.
    pub fn next_iteration_fits(&self) -> bool {
        !self.must_stop() && self.soft.is_none_or(|soft| self.start.elapsed() < soft)
    }
}
