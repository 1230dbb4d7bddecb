//! Every call `waggle web` makes into the [`Engine`], in one place, so that a change of the Engine's API is met
//! here alone: building one, loading the game a request carries, the playing level, the engine's move, an
//! analysis, a review.

use std::sync::atomic::AtomicBool;

use crate::engine::{Engine, EngineError, EngineOption, Options, SearchInfo, Thought};
use crate::eval::WeightSets;
use crate::record::notation::GameString;
use crate::review::{Ply, Review};
use crate::search::{Limits, TableTooBig};

/// A new engine with `options` and `weights`, for the pool.
pub(crate) fn build(options: &Options, weights: &WeightSets) -> Result<Engine, TableTooBig> {
    let mut engine = Engine::new(options.clone())?;
    engine.set_weights(weights.clone());
    Ok(engine)
}

/// Load `game` (replayed move by move under the opening it shows; the table forgotten) into `engine`.
pub(crate) fn load(engine: &mut Engine, game: &GameString) -> Result<(), EngineError> {
    engine.new_game_with(game, game.opening())?;
    Ok(())
}

/// Play at `level` (1 to 10) from now on.
pub(crate) fn set_level(engine: &mut Engine, level: u8) -> Result<(), EngineError> {
    engine.set_option(EngineOption::Level, &level.to_string())?;
    Ok(())
}

/// The engine's move in `game` at `level`, within `limits`.
pub(crate) fn best_move(
    engine: &mut Engine,
    game: &GameString,
    level: u8,
    limits: &Limits,
) -> Result<Thought, EngineError> {
    load(engine, game)?;
    set_level(engine, level)?;
    engine.best_move(limits, |_| {})
}

/// The `lines` best lines of `game` at full strength, `on_depth` hearing of each completed depth.
pub(crate) fn analyse(
    engine: &mut Engine,
    game: &GameString,
    lines: usize,
    limits: &Limits,
    on_depth: impl FnMut(&SearchInfo),
) -> Result<Vec<Thought>, EngineError> {
    load(engine, game)?;
    engine.analyze(lines, limits, on_depth)
}

/// The review of `game`, each position searched within `limits`, until `stop` is raised.
pub(crate) fn review(
    engine: &mut Engine,
    game: &GameString,
    limits: &Limits,
    stop: &AtomicBool,
    on_ply: impl FnMut(&Ply),
) -> Result<Review, EngineError> {
    Review::of(engine, game, limits, stop, on_ply)
}
