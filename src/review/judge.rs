//! What the engine thinks of one position: its best move, the line after it and the position's score. A win in
//! one move is looked for before any search, so that a missed win is found at every budget, however small.
//!
//! The score is the mean of the last two depths the search completed, one ending on each side's move: a search
//! that ends on the mover's own move leaves it unanswered and flatters the mover, one that ends on the reply
//! flatters the opponent, and a budget reaches an odd depth in one position and an even one in the next. Judged by
//! the last depth alone, a quiet stretch of a game swung from ply to ply with whose move the search ended on
//! (docs/review.md shows a game before and after).

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
    let mut depths = Depths::default();
    let mut lines = engine.analyze(1, limits, |info| {
        if let Some(line) = info.lines.first() {
            depths.complete(Score::of(&line.report));
        }
    })?;
    let thought = lines.remove(0);
    Ok(Verdict {
        best: thought.report.best,
        score: depths.settled(Score::of(&thought.report)),
        line: thought.pv,
    })
}

/// The scores of the last two depths a search completed, the deeper last.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Depths {
    shallower: Option<Score>,
    deeper: Option<Score>,
}

impl Depths {
    /// One more depth completed, with this score.
    fn complete(&mut self, score: Score) {
        self.shallower = self.deeper.replace(score);
    }

    /// The position's score, given the search's own (`found`: its last completed depth's, or a better move's
    /// found by the depth it was stopped in). A forced result is proven and stands as found; otherwise the mean
    /// of the last two depths, so that neither side's last move in the search weighs more; with one depth, its
    /// score.
    fn settled(self, found: Score) -> Score {
        if found.is_win() || found.is_loss() {
            return found;
        }
        match (self.shallower, self.deeper) {
            (Some(Score::Value(shallower)), Some(Score::Value(deeper))) => {
                // Rounded toward zero, so that the position seen by the other side is the same mean turned round.
                Score::Value(((i64::from(shallower) + i64::from(deeper)) / 2) as i32)
            }
            (_, Some(deeper)) => deeper,
            (_, None) => found,
        }
    }
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
            max_hash_size: crate::engine::HashSize::fixed(1),
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

    /// A middle game of Base+MLP (from a self-play game).
    const MIDDLE_GAME: &str = "Base+MLP;InProgress;White[7];wG1;bG1 \\wG1;wA1 wG1\\;bA1 -bG1;wM wA1\\;bQ -bA1;wQ /wG1;\
                               bM \\bG1;wM \\bQ;bM wA1\\;wB1 -wM;bP bQ\\";

    /// The score a fresh engine's search of `game` to `depth` finds.
    fn score_at_depth(game: &str, depth: u32) -> Score {
        let mut engine = engine_at(game);
        let lines = engine.analyze(1, &Limits::depth(depth), |_| {}).unwrap();
        Score::of(&lines[0].report)
    }

    #[test]
    fn a_position_is_scored_by_the_mean_of_its_last_two_depths() {
        for depth in [3, 4] {
            let (shallower, deeper) = (
                score_at_depth(MIDDLE_GAME, depth - 1),
                score_at_depth(MIDDLE_GAME, depth),
            );
            let (Score::Value(shallower), Score::Value(deeper)) = (shallower, deeper) else {
                panic!("the middle game is not decided at depth {depth}: {shallower}, {deeper}");
            };
            // The two depths disagree here, so the last depth alone would not pass.
            assert_ne!(shallower, deeper, "depth {depth}");
            let verdict = judge(&mut engine_at(MIDDLE_GAME), &Limits::depth(depth)).unwrap();
            assert_eq!(verdict.score, Score::Value((shallower + deeper) / 2), "depth {depth}");
        }
    }

    #[test]
    fn the_mean_is_the_same_seen_from_either_side_and_forced_results_stand() {
        let mut depths = Depths::default();
        assert_eq!(
            depths.settled(Score::Value(12)),
            Score::Value(12),
            "no depth completed: the search's own"
        );
        depths.complete(Score::Value(-31));
        assert_eq!(
            depths.settled(Score::Value(40)),
            Score::Value(-31),
            "one depth: its score"
        );
        depths.complete(Score::Value(80));
        assert_eq!(depths.settled(Score::Value(80)), Score::Value(24));
        let mut turned = Depths::default();
        turned.complete(Score::Value(31));
        turned.complete(Score::Value(-80));
        assert_eq!(turned.settled(Score::Value(-80)), Score::Value(-24));
        // A forced result proven by the last depth, or by a better move of the depth stopped, stands.
        assert_eq!(depths.settled(Score::WinIn(5)), Score::WinIn(5));
        depths.complete(Score::LossIn(4));
        assert_eq!(depths.settled(Score::LossIn(4)), Score::LossIn(4));
        // A depth that found no forced result after one that did: the deeper one.
        depths.complete(Score::Value(-300));
        assert_eq!(depths.settled(Score::Value(-300)), Score::Value(-300));
    }

    #[test]
    fn a_finished_game_scores_for_the_mover() {
        assert_eq!(final_score(GameState::WhiteWins, Color::White), Score::WinIn(0));
        assert_eq!(final_score(GameState::WhiteWins, Color::Black), Score::LossIn(0));
        assert_eq!(final_score(GameState::Draw, Color::Black), Score::Value(0));
    }
}
