//! `waggle review`: every move of a game judged by the engine, as lichess does for chess.
//!
//! Each position of the game is searched once, within the same limits: its best move and score are the
//! "before" of the move played there, and, turned round, the "after" of the move that led to it. A score becomes
//! a win chance through a curve fitted to self-play results ([`Score::win_chance`]); a move is marked by how much
//! win chance it gave away against the engine's best move ([`Mark`]), and each side gets an accuracy from those
//! losses ([`SideSummary`]). A move the engine itself would play is never marked. docs/review.md explains the
//! curve, the marks and the accuracy with a worked example.
//!
//! The room owns the judgement, the summary, the commentary of a `.pgn` and the chart; the command line (`waggle
//! review`) reads the games, prints and writes the files.

mod chart;
mod comment;
mod json;
mod judge;
mod mark;
mod score;
mod summary;
mod text;

#[cfg(feature = "web")]
pub(crate) use json::{rounded_chance, JudgedMove};
pub use mark::Mark;
pub use score::Score;
pub use summary::SideSummary;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{Engine, EngineError};
use crate::record::game::Game;
use crate::record::notation::{GameString, MoveString};
use crate::rules::game_type::GameType;
use crate::rules::piece::Color;
use crate::search::Limits;

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// Its number in the game, from 1.
    pub number: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: MoveString,
    /// The engine's best move in the position before it.
    pub best: MoveString,
    /// The engine's principal variation after `best` (the moves that follow it).
    pub line: Vec<MoveString>,
    /// The position's score before the move, for the mover (the score of `best`).
    pub score_before: Score,
    /// The score after the move, for the mover.
    pub score_after: Score,
    /// The mark, if the move earned one.
    pub mark: Option<Mark>,
}

impl Ply {
    /// The mover's win chance before the move (with the best move), 0 to 1.
    pub fn win_chance_before(&self) -> f64 {
        self.score_before.win_chance()
    }

    /// The mover's win chance after the move, 0 to 1 (the opponent now on move).
    pub fn win_chance_after(&self) -> f64 {
        self.score_after.win_chance_after_moving()
    }

    /// Whether the move played is the engine's own choice.
    pub fn is_best(&self) -> bool {
        self.played == self.best
    }

    /// The points of win chance (0 to 100) the move gave away against the best move; 0 for the best move itself.
    pub fn lost(&self) -> f64 {
        if self.is_best() {
            return 0.0;
        }
        (100.0 * (self.win_chance_before() - self.win_chance_after())).clamp(0.0, 100.0)
    }

    /// White's win chance after the move.
    pub fn white_chance(&self) -> f64 {
        match self.mover {
            Color::White => self.win_chance_after(),
            Color::Black => 1.0 - self.win_chance_after(),
        }
    }
}

/// A game judged move by move.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The game's type.
    pub game_type: GameType,
    /// The moves judged, in order: all of them, or those before the review was stopped.
    pub plies: Vec<Ply>,
    /// The number of moves in the game.
    pub moves_in_game: usize,
}

impl Review {
    /// Judge every move of `record` with `engine`, each position searched within `limits`; `on_ply` hears of each
    /// move as it is judged. When `stop` is raised (Ctrl-C: stop the engine's search too, with its
    /// [`Engine::stopper`]) the review ends with the moves judged so far.
    ///
    /// The engine's game is replaced by the one reviewed. A game that cannot be replayed is refused before any search
    /// ([`EngineError::Load`] names the move and why); [`EngineError::Failed`] is a bug in a search.
    pub fn of(
        engine: &mut Engine,
        record: &GameString,
        limits: &Limits,
        stop: &AtomicBool,
        on_ply: impl FnMut(&Ply),
    ) -> Result<Review, EngineError> {
        let game = Game::from_moves_with(record, engine.rules(), record.opening())?;
        Review::of_game(engine, &game, limits, stop, on_ply)
    }

    /// Judge every move of `game`, a game already replayed (as a server has replayed the game a request carries,
    /// to check it), as [`Review::of`] does.
    pub fn of_game(
        engine: &mut Engine,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        mut on_ply: impl FnMut(&Ply),
    ) -> Result<Review, EngineError> {
        // A record of an older game may open with a Queen: it is judged under the opening it was played under.
        let game_type = game.position().game_type();
        let moves = game.record();
        engine.new_game_with(&game_type.into(), game.position().opening())?;
        let mut review = Review {
            game_type,
            plies: Vec::with_capacity(moves.len()),
            moves_in_game: moves.len(),
        };
        let mut before = None;
        for (index, &played) in moves.iter().enumerate() {
            let verdict = match before.take() {
                Some(verdict) => verdict,
                None => judge::judge(engine, limits)?,
            };
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let game = engine.game().ok_or(EngineError::NoGame)?;
            let mover = game.position().to_move();
            let best = game.move_string(verdict.best);
            let game = engine.play(played)?;
            let played = *game.record().last().unwrap_or(&played);
            let state = game.state();
            let score_after = if state.is_over() {
                judge::final_score(state, mover)
            } else {
                let next = judge::judge(engine, limits)?;
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let score = next.score.for_opponent();
                before = Some(next);
                score
            };
            let mut ply = Ply {
                number: index + 1,
                mover,
                played,
                best,
                line: verdict.line.into_iter().skip(1).collect(),
                score_before: verdict.score,
                score_after,
                mark: None,
            };
            ply.mark = mark::judge(&ply);
            on_ply(&ply);
            review.plies.push(ply);
        }
        Ok(review)
    }

    /// Whether every move of the game was judged.
    pub fn is_complete(&self) -> bool {
        self.plies.len() == self.moves_in_game
    }

    /// The counts of marks and the accuracy of `side`.
    pub fn summary(&self, side: Color) -> SideSummary {
        SideSummary::of(self.plies.iter().filter(|ply| ply.mover == side))
    }

    /// The numbers of the moves where the game turned: marked moves after which another side was ahead (a win
    /// chance of 60 % or more), and every missed win.
    pub fn turning_points(&self) -> Vec<usize> {
        summary::turning_points(&self.plies)
    }

    /// The commentary of each move judged, in order, for a `.pgn`.
    pub fn comments(&self) -> Vec<String> {
        self.plies.iter().map(comment::comment).collect()
    }

    /// The chart of White's win chance over the moves, titled `title`: an SVG document.
    pub fn chart(&self, title: &str) -> String {
        let points: Vec<chart::ChartPoint> = self
            .plies
            .iter()
            .map(|ply| chart::ChartPoint {
                ply: ply.number,
                white_chance: ply.white_chance(),
                mark: ply.mark,
            })
            .collect();
        chart::chart(title, &points)
    }
}
