//! The time policy, in one place: how a fixed time per move or a chess clock becomes a deadline (when the search
//! must stop) and a soft limit (when it should not start another iteration), and the stop flag.
//!
//! The search asks `must_stop` every few hundred nodes and `next_iteration_fits` between depths. A search without
//! a time limit never looks at the time, so that it stays reproducible.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::limits::{Clocks, Limits};

/// Kept back from the time for a move, for unwinding the search once the deadline passes, writing the reply and
/// the front end's own work: a share of the time, at least `MIN_MARGIN` and at most `MAX_MARGIN`. All of that
/// takes well under a millisecond on an idle machine (`benches/bestmove_time.py`); the rest of the margin is for a
/// busy one, where the process may wait its turn for a core.
const MARGIN_SHARE: u32 = 25;
const MIN_MARGIN: Duration = Duration::from_millis(1);
const MAX_MARGIN: Duration = Duration::from_millis(20);
/// Under a clock, the share of the remaining time one move may take: about this many moves are still to come.
const MOVES_TO_GO: u32 = 25;

/// The wall-clock time the search itself may take for `limits`, margins taken: `None` when no time limit applies.
/// `late` is how far recent searches ran past their deadlines (a busy machine): it widens the margin, up to a
/// fifth of the time.
pub(crate) fn search_time(limits: &Limits, late: Duration) -> Option<Duration> {
    let per_move = match (limits.time, limits.clocks.map(move_time)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }?;
    let margin = (per_move / MARGIN_SHARE).clamp(MIN_MARGIN, MAX_MARGIN) + late.min(per_move / 5);
    Some(per_move.saturating_sub(margin).max(Duration::from_micros(500)))
}

/// Under a clock, the deadline of an iteration in progress: room to finish one the search is unsure about, but
/// never more than a sixth of the time left (so that a long think cannot lose on time).
fn hard_time(limits: &Limits, budget: Duration) -> Duration {
    let left = limits.clocks.map_or(budget, |c| c.own.remaining / 6);
    budget.mul_f64(UNSURE).min(left.max(budget))
}

/// The time to give one move under `clocks`: a share of what is left plus most of the increment, never more than
/// half of what is left. The one clock policy: the search budgets its own moves with it, and the arena gives it
/// to an engine that takes only `bestmove time`.
pub(crate) fn move_time(clocks: Clocks) -> Duration {
    let own = clocks.own;
    let share = own.remaining / MOVES_TO_GO + own.increment * 3 / 4;
    share.min(own.remaining / 2)
}

/// The clock of one search.
pub(crate) struct Deadline<'a> {
    start: Instant,
    /// Abort the iteration in progress at this instant.
    hard: Option<Instant>,
    /// Do not start a new iteration once this much time has passed: it would most likely not finish.
    soft: Option<Duration>,
    /// Under a clock, how far the soft limit may stretch when the search is unsure of its move.
    stretch: bool,
    stop: &'a AtomicBool,
    /// A second reason to stop: the main thread has finished (for helper threads).
    also: Option<&'a AtomicBool>,
}

/// How much longer than usual an unsure search under a clock may go on (best move just changed).
const UNSURE: f64 = 1.6;

impl<'a> Deadline<'a> {
    /// Start the clock for a search within `limits`, also stopped when `stop` becomes true; `late` as for
    /// [`search_time`].
    pub fn start(limits: &Limits, stop: &'a AtomicBool, late: Duration) -> Deadline<'a> {
        let start = Instant::now();
        let budget = search_time(limits, late);
        let clocked = limits.clocks.is_some();
        Deadline {
            start,
            // Under a clock the deadline leaves room to stretch; the soft limit is the usual share.
            hard: budget.map(|b| start + if clocked { hard_time(limits, b) } else { b }),
            // Under a clock, time saved now is time for later moves: past half the budget the next depth, which
            // costs several times the last, rarely finishes, so none starts. With a fixed time per move nothing is
            // saved by stopping early: iterations go on to the deadline, and an interrupted one still counts when
            // it has proved another move better.
            soft: budget.filter(|_| clocked).map(|b| b / 2),
            stretch: clocked,
            stop,
            also: None,
        }
    }

    /// A deadline with no time limit that ends when `stop` or `also` is raised: a helper thread's.
    pub fn helper(stop: &'a AtomicBool, also: &'a AtomicBool) -> Deadline<'a> {
        Deadline {
            start: Instant::now(),
            hard: None,
            soft: None,
            stretch: false,
            stop,
            also: Some(also),
        }
    }

    /// Whether a stop flag is up.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.also.is_some_and(|a| a.load(Ordering::Relaxed))
    }

    /// Whether the search must end now: stopped, or past the deadline.
    #[inline]
    pub fn must_stop(&self) -> bool {
        self.stopped() || self.hard.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether there is a time limit at all.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// Whether another iteration is worth starting: not stopped, and (with a time limit) less than half the
    /// budget gone. Under a clock, a search that is `unsure` (its best move just changed) may go on longer.
    pub fn next_iteration_fits(&self, unsure: bool) -> bool {
        let factor = if self.stretch && unsure { UNSURE } else { 1.0 };
        !self.must_stop() && self.soft.is_none_or(|soft| self.start.elapsed() < soft.mul_f64(factor))
    }

    /// How far past its deadline the search is now (zero before it, or without a time limit).
    pub fn overrun(&self) -> Duration {
        self.hard
            .map_or(Duration::ZERO, |hard| Instant::now().saturating_duration_since(hard))
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::SideClock;

    #[test]
    fn margins_are_taken_once() {
        let time = |ms| search_time(&Limits::time(Duration::from_millis(ms)), Duration::ZERO).unwrap();
        assert_eq!(time(10_000), Duration::from_millis(9_980));
        assert_eq!(time(1000), Duration::from_millis(980));
        assert_eq!(time(100), Duration::from_millis(96));
        assert_eq!(time(20), Duration::from_millis(19));
        assert!(time(1) > Duration::ZERO);
        assert_eq!(search_time(&Limits::depth(3), Duration::ZERO), None);
        // A machine that made recent searches late widens the margin, within limits.
        let late = |ms| search_time(&Limits::time(Duration::from_millis(100)), Duration::from_millis(ms)).unwrap();
        assert_eq!(late(3), Duration::from_millis(93));
        assert_eq!(late(50), Duration::from_millis(76));
    }

    #[test]
    fn a_clock_never_gives_away_more_than_half_of_what_is_left() {
        let clocks = |remaining_ms, increment_ms| Clocks {
            own: SideClock {
                remaining: Duration::from_millis(remaining_ms),
                increment: Duration::from_millis(increment_ms),
            },
            opponent: SideClock::default(),
        };
        assert_eq!(move_time(clocks(10_000, 100)), Duration::from_millis(475));
        assert_eq!(move_time(clocks(100, 1000)), Duration::from_millis(50));
        let budget = search_time(&Limits::clocks(clocks(10_000, 100)), Duration::ZERO).unwrap();
        assert!(budget < Duration::from_millis(475));
    }
}
