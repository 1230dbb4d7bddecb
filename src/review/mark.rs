//! The judgement of one move: how much of the mover's win chance it gave away against the engine's best move,
//! and the mark that earns. The thresholds are in points of win chance (0 to 100); docs/review.md explains them.

use std::fmt;

use super::Ply;

/// A drop of at least this many points of win chance is an inaccuracy.
pub(crate) const INACCURACY: f64 = 10.0;
/// … a mistake.
pub(crate) const MISTAKE: f64 = 20.0;
/// … a blunder.
pub(crate) const BLUNDER: f64 = 30.0;

/// What the review says of a move that is not the engine's own choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// It gave away at least 10 points of win chance.
    Inaccuracy,
    /// At least 20 points.
    Mistake,
    /// At least 30 points, or a game not yet lost turned into a forced loss, whatever the points.
    Blunder,
    /// The mover had a forced win and the move lost it.
    MissedWin,
    /// Every move loses by force: the move is not blamed.
    ForcedLoss,
}

/// The mark `ply` earns, its other fields filled in; the engine's own choice is never marked.
pub(crate) fn judge(ply: &Ply) -> Option<Mark> {
    if ply.is_best() {
        None
    } else if ply.score_before.is_loss() {
        Some(Mark::ForcedLoss)
    } else if ply.score_before.is_win() && !ply.score_after.is_win() {
        Some(Mark::MissedWin)
    } else if ply.score_after.is_loss() {
        // The move a player most needs to find: a game not yet lost becomes a forced loss, however few points
        // of win chance the curve had left it (as lichess marks a move after which mate cannot be avoided).
        Some(Mark::Blunder)
    } else {
        Mark::for_loss(ply.lost())
    }
}

impl Mark {
    /// The mark of a move that gave away `lost` points of win chance, if any (wins and losses aside).
    pub(crate) fn for_loss(lost: f64) -> Option<Mark> {
        if lost >= BLUNDER {
            Some(Mark::Blunder)
        } else if lost >= MISTAKE {
            Some(Mark::Mistake)
        } else if lost >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The name in the JSON output: `inaccuracy`, `mistake`, `blunder`, `missed_win`, `forced_loss`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
            Mark::MissedWin => "missed_win",
            Mark::ForcedLoss => "forced_loss",
        }
    }

    /// Whether the mark blames the move (every mark but a forced loss).
    pub(crate) fn is_error(self) -> bool {
        self != Mark::ForcedLoss
    }
}

impl fmt::Display for Mark {
    /// The mark for a person: `Inaccuracy`, `Mistake`, `Blunder`, `Missed win`, `Forced loss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::Inaccuracy => "Inaccuracy",
            Mark::Mistake => "Mistake",
            Mark::Blunder => "Blunder",
            Mark::MissedWin => "Missed win",
            Mark::ForcedLoss => "Forced loss",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::Score;

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(Mark::for_loss(9.99), None);
        assert_eq!(Mark::for_loss(10.0), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(19.9), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(20.0), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(30.0), Some(Mark::Blunder));
        assert_eq!(Mark::for_loss(-5.0), None);
    }

    fn ply(before: Score, after: Score) -> Ply {
        let mv: crate::MoveString = "wQ".parse().unwrap();
        let other: crate::MoveString = "wA1".parse().unwrap();
        Ply {
            number: 1,
            mover: crate::Color::White,
            played: mv,
            best: other,
            line: Vec::new(),
            score_before: before,
            score_after: after,
            mark: None,
        }
    }

    /// `ply` with the move played made the engine's own choice.
    fn own(ply: Ply) -> Ply {
        Ply {
            best: ply.played,
            ..ply
        }
    }

    #[test]
    fn wins_and_losses_come_before_the_thresholds() {
        // A win lost is a missed win, whatever the drop in win chance.
        assert_eq!(judge(&ply(Score::WinIn(3), Score::Value(900))), Some(Mark::MissedWin));
        // Another winning move, even a slower one, is not a mistake.
        assert_eq!(judge(&ply(Score::WinIn(1), Score::WinIn(5))), None);
        // When every move loses, none is blamed.
        assert_eq!(judge(&ply(Score::LossIn(4), Score::LossIn(2))), Some(Mark::ForcedLoss));
        // The engine's own move is never marked.
        assert_eq!(judge(&own(ply(Score::WinIn(3), Score::Value(-900)))), None);
        // From even to a clear disadvantage: a blunder.
        assert_eq!(judge(&ply(Score::Value(0), Score::Value(-400))), Some(Mark::Blunder));
        // A small drop is no mark.
        assert_eq!(judge(&ply(Score::Value(0), Score::Value(-20))), None);
        // A game not yet lost turned into a forced loss is a blunder, however few points were left to lose
        // (17 % to a loss is a drop of 17 points, an inaccuracy by the thresholds alone).
        assert_eq!(Mark::for_loss(17.0), Some(Mark::Inaccuracy));
        assert_eq!(judge(&ply(Score::Value(-500), Score::LossIn(6))), Some(Mark::Blunder));
        assert_eq!(judge(&ply(Score::Value(-1500), Score::LossIn(2))), Some(Mark::Blunder));
        // A forced win let go into a forced loss is still a missed win; a lost game lost faster is not blamed.
        assert_eq!(judge(&ply(Score::WinIn(3), Score::LossIn(2))), Some(Mark::MissedWin));
        assert_eq!(judge(&ply(Score::LossIn(6), Score::LossIn(2))), Some(Mark::ForcedLoss));
    }
}
