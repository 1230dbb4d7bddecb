//! Every call `waggle web` makes into the [`Engine`], in one place, so that a change of the Engine's API is met
//! here alone: building one, a move played or taken back (by an engine with no table to speak of, so that the
//! rules are decided where every other front end's are), and, on an engine lent by the pool, the engine's move,
//! an analysis and a review. A lent engine starts every request with the options that request asked for (the
//! server's, and the request's level), so that nothing one visitor asked for carries over to the next, and with
//! the request's game as the server replayed it, once.

use std::sync::atomic::AtomicBool;

use crate::engine::{Engine, EngineError, HashSize, HelperThreads, Level, Options, SearchInfo, Thought};
use crate::eval::WeightSets;
use crate::puzzles::{at_moves, MineOptions, Puzzle, Source};
use crate::record::game::Game;
use crate::record::notation::MoveString;
use crate::review::{Ply, Review};
use crate::rules::position::Rules;
use crate::search::{Limits, TableTooBig};

/// A new engine with `options` and `weights`, for the pool.
pub(crate) fn build(options: &Options, weights: &WeightSets) -> Result<Engine, TableTooBig> {
    let mut engine = Engine::new(options.clone())?;
    engine.set_weights(weights.clone());
    Ok(engine)
}

/// An engine that only keeps the rules: the smallest table, which it never searches.
fn referee(game: Game, rules: Rules) -> Result<Engine, EngineError> {
    let mut engine = Engine::new(Options {
        max_hash_size: HashSize::MIN,
        threefold_repetition_draw: rules.threefold_draw,
        ..Options::default()
    })?;
    engine.set_game(game);
    Ok(engine)
}

/// `game` after the move `name` names, as the Engine decides it (a game over takes none).
pub(crate) fn play(game: Game, name: MoveString, rules: Rules) -> Result<Game, EngineError> {
    let mut engine = referee(game, rules)?;
    Ok(engine.play(name)?.clone())
}

/// `game` with `plies` taken back.
pub(crate) fn undo(game: Game, plies: usize, rules: Rules) -> Result<Game, EngineError> {
    let mut engine = referee(game, rules)?;
    Ok(engine.undo(plies)?.clone())
}

/// Start a request on a lent engine: `options` in force (nothing left of the last request's), `game` loaded.
fn start(engine: &mut Engine, options: Options, game: Game) -> Result<(), EngineError> {
    engine.set_options(options)?;
    engine.set_game(game);
    Ok(())
}

/// The engine's move in `game` at `level`, within `limits`, the server's `options` otherwise.
pub(crate) fn best_move(
    engine: &mut Engine,
    options: &Options,
    game: Game,
    level: Level,
    limits: &Limits,
) -> Result<Thought, EngineError> {
    start(
        engine,
        Options {
            level,
            ..options.clone()
        },
        game,
    )?;
    engine.best_move(limits, |_| {})
}

/// The `lines` best lines of `game` at full strength, `on_depth` hearing of each completed depth.
pub(crate) fn analyse(
    engine: &mut Engine,
    options: &Options,
    game: Game,
    lines: usize,
    limits: &Limits,
    on_depth: impl FnMut(&SearchInfo),
) -> Result<Vec<Thought>, EngineError> {
    let full = Options {
        level: Level::FULL,
        ..options.clone()
    };
    start(engine, full, game)?;
    engine.analyze(lines, limits, on_depth)
}

/// The review of `game`, each position searched within `limits`, until `stop` is raised.
pub(crate) fn review(
    engine: &mut Engine,
    options: &Options,
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    on_ply: impl FnMut(&Ply),
) -> Result<Review, EngineError> {
    engine.set_options(Options {
        level: Level::FULL,
        ..options.clone()
    })?;
    Review::of_game(engine, game, limits, stop, on_ply)
}

/// The most nodes a question of the proof search may take for a visitor's mistakes.
const MISTAKES_BUDGET: u64 = 5_000_000;

/// The puzzles of the positions before the moves numbered `plies` of `game` (a reviewed game's marked moves),
/// rated on `engine` as the miner rates them (one thread, no book), until `stop` is raised.
pub(crate) fn mistakes(
    engine: &mut Engine,
    options: &Options,
    game: &Game,
    plies: &[usize],
    stop: &AtomicBool,
) -> Result<Vec<Puzzle>, EngineError> {
    engine.set_options(Options {
        level: Level::FULL,
        opening_book: false,
        max_helper_threads: HelperThreads::None,
        ..options.clone()
    })?;
    let mining = MineOptions {
        budget: MISTAKES_BUDGET,
        ..MineOptions::default()
    };
    at_moves(engine, game, plies, &Source::default(), &mining, stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Game {
        Game::from_record(&text.parse().unwrap(), Rules::default()).unwrap()
    }

    #[test]
    fn a_lent_engine_starts_each_request_with_that_request_s_options() {
        let server = Options {
            max_hash_size: HashSize::MIN,
            ..Options::default()
        };
        let mut engine = build(&server, &WeightSets::default()).unwrap();
        best_move(&mut engine, &server, game("Base+MLP"), Level::LOWEST, &Limits::depth(1)).unwrap();
        assert_eq!(engine.options().level, Level::LOWEST, "the first visitor's level");
        // The next visitor analyses on the same engine: at full strength, not at the last visitor's level.
        analyse(
            &mut engine,
            &server,
            game("Base+MLP;InProgress;Black[1];wS1"),
            1,
            &Limits::depth(2),
            |_| {},
        )
        .unwrap();
        assert_eq!(engine.options(), &server);
        let fourth = Level::new(4).unwrap();
        best_move(&mut engine, &server, game("Base+MLP"), fourth, &Limits::depth(1)).unwrap();
        let stop = AtomicBool::new(false);
        review(
            &mut engine,
            &server,
            &game("Base;InProgress;Black[1];wS1"),
            &Limits::depth(1),
            &stop,
            |_| {},
        )
        .unwrap();
        assert_eq!(engine.options(), &server);
    }

    #[test]
    fn moves_and_undo_are_the_engine_s_to_decide() {
        let start = game("Base+MLP;InProgress;Black[1];wS1");
        let played = play(start.clone(), "bS1 wS1-".parse().unwrap(), Rules::default()).unwrap();
        assert_eq!(played.record().len(), 2);
        assert!(play(start.clone(), "bQ wS1/".parse().unwrap(), Rules::default()).is_err());
        assert_eq!(undo(played, 2, Rules::default()).unwrap().record().len(), 0);
        assert!(matches!(undo(start, 2, Rules::default()), Err(EngineError::Undo(_))));
    }
}
