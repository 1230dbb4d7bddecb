//! The score of a match: wins, losses and draws, from the first engine's point of view.

use std::ops::AddAssign;

/// The result of one game from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// The first engine won.
    Win,
    /// The game was drawn.
    Draw,
    /// The first engine lost.
    Loss,
}

impl GameScore {
    /// The points in halves (2, 1 or 0), so that pairs of games add up exactly.
    pub(super) fn half_points(self) -> u32 {
        match self {
            GameScore::Win => 2,
            GameScore::Draw => 1,
            GameScore::Loss => 0,
        }
    }
}

/// Games from one side's point of view: how many it won, lost and drew.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games this side won.
    pub wins: u32,
    /// Games this side lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Score {
    /// The number of games played (saturating at `u32::MAX` rather than overflowing).
    pub fn games(&self) -> u32 {
        self.wins.saturating_add(self.losses).saturating_add(self.draws)
    }

    /// The points taken: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The share of the points taken, in `0..=1`; `None` when no game was played.
    pub fn ratio(&self) -> Option<f64> {
        let games = self.games_f64();
        (games > 0.0).then(|| self.points() / games)
    }

    /// Adds the games of `other` to these (each count saturating at `u32::MAX`).
    pub fn add(&mut self, other: Score) {
        self.wins = self.wins.saturating_add(other.wins);
        self.losses = self.losses.saturating_add(other.losses);
        self.draws = self.draws.saturating_add(other.draws);
    }

    /// Counts one more game.
    pub fn record(&mut self, game: GameScore) {
        let count = match game {
            GameScore::Win => &mut self.wins,
            GameScore::Draw => &mut self.draws,
            GameScore::Loss => &mut self.losses,
        };
        *count = count.saturating_add(1);
    }

    /// The number of games as a float, summed without the saturation of [`Score::games`].
    pub(super) fn games_f64(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.losses) + f64::from(self.draws)
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.add(other);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::stats::tests::*;

    #[test]
    fn score_counts_points_and_reverses() {
        let mut total = score(3, 1, 2);
        assert_eq!(total.games(), 6);
        assert_eq!(total.points(), 4.0); // 3 + 2/2
        assert_eq!(total.ratio(), Some(4.0 / 6.0));
        total += score(1, 0, 1);
        assert_eq!(total, score(4, 1, 3));
        total.record(GameScore::Loss);
        total.record(GameScore::Draw);
        assert_eq!(total, score(4, 2, 4));
        assert_eq!(Score::default().ratio(), None);
        assert_eq!(score(u32::MAX, 1, 0).games(), u32::MAX);
    }

    #[test]
    fn game_scores() {
        assert_eq!(GameScore::Win.half_points(), 2);
        assert_eq!(GameScore::Draw.half_points(), 1);
        assert_eq!(GameScore::Loss.half_points(), 0);
    }
}
