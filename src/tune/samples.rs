//! The tuner's samples: every position of self-play games from a given ply on, with its features and the game's
//! result from its side to move's point of view.

use crate::eval::Features;
use crate::record::game::Game;
use crate::record::games::FinishedGame;
use crate::record::notation::GameStringError;
use crate::rules::piece::Color;
use crate::rules::position::{GameState, Position, Rules};

/// A game of the data that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game} does not replay: {why}")]
pub struct ReplayError {
    /// The game, counted from 1.
    pub game: usize,
    /// Why.
    pub why: GameStringError,
}

/// A position's features and how the game ended for its side to move: 1 won, ½ drawn, 0 lost.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position's features.
    pub(crate) features: Features,
    /// The game's result for the side to move: 1 won, ½ drawn, 0 lost.
    pub(crate) result: f64,
}

/// The positions of `records` from ply `skip` on (the opening's are not the engine's), each with its result.
/// Positions with nothing to decide (the game over, or only a pass) are left out. A record that does not replay
/// is an error.
pub fn samples(records: &[FinishedGame], skip: usize) -> Result<Vec<Sample>, ReplayError> {
    let mut all = Vec::new();
    for (i, record) in records.iter().enumerate() {
        let game = Game::from_moves(&record.game, Rules::default()).map_err(|why| ReplayError { game: i + 1, why })?;
        let mut pos = Position::new(record.game.game_type);
        for (ply, mv) in game.position().moves().enumerate() {
            if ply >= skip && !pos.state().is_over() && pos.legal_moves().len() > 1 {
                all.push(Sample {
                    features: Features::of(&pos),
                    result: result_for(record.result, &pos),
                });
            }
            pos.play_unchecked(mv);
        }
    }
    Ok(all)
}

/// The result of a game for the side to move in `pos`.
fn result_for(result: GameState, pos: &Position) -> f64 {
    match (result, pos.to_move()) {
        (GameState::WhiteWins, Color::White) | (GameState::BlackWins, Color::Black) => 1.0,
        (GameState::WhiteWins, _) | (GameState::BlackWins, _) => 0.0,
        _ => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_come_from_both_sides() {
        let records = vec![FinishedGame {
            result: GameState::WhiteWins,
            game: "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-"
                .parse()
                .unwrap(),
        }];
        let samples = samples(&records, 2).unwrap();
        assert_eq!(samples.len(), 4);
        assert_eq!(
            samples.iter().map(|s| s.result).collect::<Vec<_>>(),
            [1.0, 0.0, 1.0, 0.0]
        );
    }
}
