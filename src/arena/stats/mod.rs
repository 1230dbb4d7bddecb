//! The statistics of an engine match, computed the way chess engine testers (cutechess-cli, fastchess, fishtest)
//! compute them: the score, the Elo difference with its 95 % error margin, the likelihood of superiority, and a
//! sequential probability ratio test (SPRT) over game pairs.
//!
//! Pure functions and small types: this file plays no games, reads no files and prints nothing. Two models are
//! used, and each function says which:
//! - the *trinomial* (per game) model of cutechess-cli for the Elo estimate and its margin: every game is an
//!   independent win, draw or loss;
//! - the *pentanomial* (per game pair) model of fishtest and fastchess for the SPRT: the two games of an opening,
//!   played once with each colour, are one sample scoring 0, ½, 1, 1½ or 2 points.
//!
//! All Elo here is *logistic* Elo: a score ratio `s` means `-400 log10(1/s - 1)` Elo.

mod elo;
mod score;
mod sprt;

pub use elo::{elo_estimate, EloEstimate};
pub use score::{GameScore, Score};
pub use sprt::{sprt, Pentanomial, SettingError, SprtSettings, Verdict};

/// What the tests of the statistics share.
#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn assert_close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    pub(crate) fn score(wins: u32, losses: u32, draws: u32) -> Score {
        Score { wins, losses, draws }
    }

    pub(crate) fn settings_0_5() -> SprtSettings {
        SprtSettings {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}
