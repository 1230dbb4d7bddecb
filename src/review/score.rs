//! A position's value for the side to move, and the win chance it stands for: the curve fitted to self-play
//! results with a tempo (docs/review.md says how), with forced wins and losses at 1 and 0.

use std::fmt;

use crate::eval::win_chance;
use crate::search::Report;

/// The scale S and the tempo T of the review's win-chance curve, 1 / (1 + 10^(−(score − T) / S)): the curve for a
/// searched score (the network's training target keeps its own, `eval::WIN_CURVE_SCALE`). A score whose side is to
/// move has T taken off; one whose side has just moved has it given back, so that a side's chance does not rise
/// each time it is its turn.
pub(crate) use crate::eval::{SEARCHED_CURVE_SCALE as CURVE_SCALE, SEARCHED_CURVE_TEMPO as CURVE_TEMPO};

/// A position's value for the side to move, as the engine found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A value in the engine's units (about a hundred for a clear edge); wins are the other variants.
    Value(i32),
    /// The side to move wins by force, this many plies from the position (0: the game has just been won).
    WinIn(u32),
    /// The side to move loses by force, this many plies from the position (0: the game has just been lost).
    LossIn(u32),
}

impl Score {
    /// The score of a search's report.
    pub fn of(report: &Report) -> Score {
        match report.plies_to_end() {
            Some(plies) if report.is_win() => Score::WinIn(plies),
            Some(plies) => Score::LossIn(plies),
            None => Score::Value(report.score),
        }
    }

    /// The same position seen by the other side, one ply earlier: the score after a move, for the mover.
    pub(crate) fn for_opponent(self) -> Score {
        match self {
            Score::Value(value) => Score::Value(-value),
            Score::WinIn(plies) => Score::LossIn(plies),
            Score::LossIn(plies) => Score::WinIn(plies),
        }
    }

    /// The side to move's chance of winning, from 0 to 1 (a draw counts half).
    pub fn win_chance(self) -> f64 {
        self.chance(-CURVE_TEMPO)
    }

    /// The chance of winning of the side a score is for when the other side is to move, from 0 to 1: a score after
    /// a move, for the mover ([`Score::for_opponent`] of the search of the position after it).
    pub fn win_chance_after_moving(self) -> f64 {
        self.chance(CURVE_TEMPO)
    }

    /// The chance on the curve with `tempo` added to a value.
    fn chance(self, tempo: f64) -> f64 {
        match self {
            Score::Value(value) => win_chance(f64::from(value) + tempo, CURVE_SCALE),
            Score::WinIn(_) => 1.0,
            Score::LossIn(_) => 0.0,
        }
    }

    /// Whether the side to move wins by force.
    pub fn is_win(self) -> bool {
        matches!(self, Score::WinIn(_))
    }

    /// Whether the side to move loses by force.
    pub fn is_loss(self) -> bool {
        matches!(self, Score::LossIn(_))
    }
}

impl fmt::Display for Score {
    /// `+35`, `-120`, `#3` (wins in 3 plies), `#-2` (loses in 2 plies).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Value(value) => write!(f, "{value:+}"),
            Score::WinIn(plies) => write!(f, "#{plies}"),
            Score::LossIn(plies) => write!(f, "#-{plies}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_even_at_the_tempo_and_symmetric() {
        let tempo = CURVE_TEMPO as i32;
        assert_eq!(f64::from(tempo), CURVE_TEMPO);
        assert!((Score::Value(tempo).win_chance() - 0.5).abs() < 1e-12);
        assert!((Score::Value(-tempo).win_chance_after_moving() - 0.5).abs() < 1e-12);
        let up = Score::Value(tempo + 150).win_chance();
        let down = Score::Value(tempo - 150).win_chance();
        assert!((up + down - 1.0).abs() < 1e-12);
        assert!(up > 0.5 && up < 1.0);
        // At one scale beyond the tempo the odds are ten to one.
        assert!((Score::Value(tempo + CURVE_SCALE as i32).win_chance() - 10.0 / 11.0).abs() < 1e-9);
    }

    #[test]
    fn a_position_gives_its_two_sides_chances_that_add_up_to_one() {
        // The same search read by the side to move and, turned round, by the side that has just moved.
        for value in [-400, -30, 0, 7, 55, 900] {
            let to_move = Score::Value(value).win_chance();
            let moved = Score::Value(value).for_opponent().win_chance_after_moving();
            assert!((to_move + moved - 1.0).abs() < 1e-12, "{value}");
        }
        assert_eq!(Score::WinIn(1).for_opponent().win_chance_after_moving(), 0.0);
    }

    #[test]
    fn forced_results_are_certain_and_turn_over_with_the_side() {
        assert_eq!(Score::WinIn(3).win_chance(), 1.0);
        assert_eq!(Score::LossIn(2).win_chance(), 0.0);
        assert_eq!(Score::WinIn(3).for_opponent(), Score::LossIn(3));
        assert_eq!(Score::Value(40).for_opponent(), Score::Value(-40));
        assert_eq!(Score::WinIn(3).to_string(), "#3");
        assert_eq!(Score::LossIn(2).to_string(), "#-2");
        assert_eq!(Score::Value(7).to_string(), "+7");
    }
}
