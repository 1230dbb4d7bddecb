//! What the engine thinks of one position: its best move, the line after it and the position's score. A win in
//! one move is looked for before any search, so that a missed win is found at every budget, however small.

use super::Score;
use crate::engine::{Engine, EngineError};
use crate::record::game::Game;
use crate::record::notation::MoveString;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::GameState;
use crate::search::Limits;

/// The engine's view of a position.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Verdict {
    /// The best move.
    pub(crate) best: Move,
    /// Its MoveString, then the rest of the principal variation.
    pub(crate) line: Vec<MoveString>,
    /// The position's score for the side to move.
    pub(crate) score: Score,
}

/// The verdict on the engine's current position, which must be in progress: a win in one if there is one,
/// otherwise a search within `limits`.
pub(crate) fn judge(engine: &mut Engine, limits: &Limits) -> Result<Verdict, EngineError> {
    let game = engine.game().ok_or(EngineError::NoGame)?;
    if let Some(best) = win_in_one(game) {
        let line = vec![game.move_string(best)];
        return Ok(Verdict {
            best,
            line,
            score: Score::WinIn(1),
        });
    }
    let mut lines = engine.analyze(1, limits, |_| {})?;
    let thought = lines.remove(0);
    Ok(Verdict {
        best: thought.report.best,
        score: Score::of(&thought.report),
        line: thought.pv,
    })
}

/// A move that wins the game at once for the side to move, if there is one.
pub(crate) fn win_in_one(game: &Game) -> Option<Move> {
    game.position().clone().winning_move()
}

/// The score, for the player who just moved, of a game that has ended: 1 for a win, 0 for a loss, a draw even.
pub(crate) fn final_score(state: GameState, mover: Color) -> Score {
    match (state, mover) {
        (GameState::WhiteWins, Color::White) | (GameState::BlackWins, Color::Black) => Score::WinIn(0),
        (GameState::WhiteWins, Color::Black) | (GameState::BlackWins, Color::White) => Score::LossIn(0),
        _ => Score::Value(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;

    /// An engine with a small table, at `game` (a GameString).
    fn engine_at(game: &str) -> Engine {
        let mut engine = Engine::new(Options {
            max_hash_size: 1,
            ..Options::default()
        })
        .unwrap();
        engine.new_game(&game.parse().unwrap()).unwrap();
        engine
    }

    #[test]
    fn no_win_in_one_at_the_start() {
        let engine = engine_at("Base+MLP");
        assert_eq!(win_in_one(engine.game().unwrap()), None);
    }

    #[test]
    fn a_finished_game_scores_for_the_mover() {
        assert_eq!(final_score(GameState::WhiteWins, Color::White), Score::WinIn(0));
        assert_eq!(final_score(GameState::WhiteWins, Color::Black), Score::LossIn(0));
        assert_eq!(final_score(GameState::Draw, Color::Black), Score::Value(0));
    }
}
