//! What a review says of each side: the marks it earned and its accuracy; and where the game turned.
//!
//! A move's accuracy follows lichess's: 103.1668 · e^(−0.04354 · lost) − 3.1669, clamped to 0–100, where `lost`
//! is the points of win chance the move gave away against the best move; 100 for a move that lost nothing. A
//! side's accuracy is the mean of its moves'.

use super::{Mark, Ply};
use crate::rules::piece::Color;

/// The win chance (for either side) from which that side counts as ahead, for the turning points.
const AHEAD: f64 = 0.6;

/// What one side's moves earned.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// The moves judged.
    pub moves: usize,
    /// Inaccuracies (10 points of win chance or more given away).
    pub inaccuracies: usize,
    /// Mistakes (20 or more).
    pub mistakes: usize,
    /// Blunders (30 or more, or a game not yet lost turned into a forced loss).
    pub blunders: usize,
    /// Forced wins given away.
    pub missed_wins: usize,
    /// The mean of the moves' accuracies, 0 to 100; `None` when no move was judged (nothing to judge is no
    /// accuracy, not a perfect one).
    pub accuracy: Option<f64>,
}

impl SideSummary {
    /// The summary of `plies` (one side's).
    pub(crate) fn of<'a>(plies: impl Iterator<Item = &'a Ply>) -> SideSummary {
        let mut summary = SideSummary::default();
        let mut accuracy = 0.0;
        for ply in plies {
            summary.moves += 1;
            accuracy += move_accuracy(ply.lost());
            match ply.mark {
                Some(Mark::Inaccuracy) => summary.inaccuracies += 1,
                Some(Mark::Mistake) => summary.mistakes += 1,
                Some(Mark::Blunder) => summary.blunders += 1,
                Some(Mark::MissedWin) => summary.missed_wins += 1,
                Some(Mark::ForcedLoss) | None => {}
            }
        }
        summary.accuracy = (summary.moves > 0).then(|| accuracy / summary.moves as f64);
        summary
    }
}

/// The accuracy of a move that gave away `lost` points of win chance (0 to 100).
pub(crate) fn move_accuracy(lost: f64) -> f64 {
    if lost <= 0.0 {
        return 100.0;
    }
    (103.1668 * (-0.04354 * lost).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The side ahead when White's win chance is `white`, if either is.
fn ahead(white: f64) -> Option<Color> {
    if white >= AHEAD {
        Some(Color::White)
    } else if white <= 1.0 - AHEAD {
        Some(Color::Black)
    } else {
        None
    }
}

/// The numbers of the marked moves after which another side was ahead than before, and of the missed wins.
pub(crate) fn turning_points(plies: &[Ply]) -> Vec<usize> {
    plies
        .iter()
        .filter(|ply| {
            let white_before = match ply.mover {
                Color::White => ply.win_chance_before(),
                Color::Black => 1.0 - ply.win_chance_before(),
            };
            match ply.mark {
                Some(Mark::MissedWin) => true,
                Some(mark) if mark.is_error() => ahead(white_before) != ahead(ply.white_chance()),
                _ => false,
            }
        })
        .map(|ply| ply.number)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::Score;

    fn ply(number: usize, mover: Color, before: i32, after: i32, mark: Option<Mark>) -> Ply {
        Ply {
            number,
            mover,
            played: "wQ".parse().unwrap(),
            best: "wA1".parse().unwrap(),
            line: Vec::new(),
            score_before: Score::Value(before),
            score_after: Score::Value(after),
            mark,
        }
    }

    #[test]
    fn accuracy_falls_with_the_loss() {
        assert_eq!(move_accuracy(0.0), 100.0);
        assert!((move_accuracy(18.8) - 42.3).abs() < 0.1);
        assert_eq!(move_accuracy(100.0), 0.0);
        assert!(move_accuracy(5.0) > move_accuracy(10.0));
    }

    #[test]
    fn a_side_summary_counts_its_marks() {
        let plies = [
            ply(1, Color::White, 0, -100, Some(Mark::Inaccuracy)),
            ply(3, Color::White, 0, -500, Some(Mark::Blunder)),
            ply(5, Color::White, 0, 0, None),
        ];
        let summary = SideSummary::of(plies.iter());
        assert_eq!((summary.moves, summary.inaccuracies, summary.blunders), (3, 1, 1));
        assert!(summary.accuracy.is_some_and(|a| a < 100.0 && a > 0.0));
        assert_eq!(SideSummary::of([].iter()).accuracy, None);
    }

    #[test]
    fn a_turning_point_changes_who_is_ahead() {
        let plies = [
            // White ahead and stays ahead after an inaccuracy: no turn.
            ply(1, Color::White, 400, 250, Some(Mark::Inaccuracy)),
            // Black, behind, blunders further: no turn.
            ply(2, Color::Black, -250, -700, Some(Mark::Blunder)),
            // White, well ahead, blunders into Black being ahead: a turn.
            ply(3, Color::White, 700, -300, Some(Mark::Blunder)),
            // A big swing with no mark (the engine's own move) is no turning point.
            ply(4, Color::Black, 300, -300, None),
        ];
        assert_eq!(turning_points(&plies), vec![3]);
    }
}
