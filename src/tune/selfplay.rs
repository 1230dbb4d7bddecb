//! Self-play games for the tuner and the book: Waggle against itself from random openings, each move a search of
//! about a fixed number of nodes (jittered, so that two games from one opening part ways), until the game ends or
//! a ply limit calls it a draw. Games are dealt out to threads, each with an [`Engine`] of its own
//! (`crate::engine::selfplay`); with one search thread an engine, the same settings give the same games, in the same order.
//!
//! Owns playing the games; storing them is `crate::record::games`'.

use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::engine::selfplay::side_by_side;
use crate::engine::{Engine, HashSize, Options};
use crate::eval::WeightSets;
use crate::record::games::FinishedGame;
use crate::record::notation::GameString;
use crate::record::openings::random_openings;
use crate::rules::game_type::GameType;
use crate::rules::position::GameState;
use crate::search::Limits;

/// What games to play.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlay {
    /// How many games.
    pub games: usize,
    /// The game type.
    pub game_type: GameType,
    /// Random plies of each opening.
    pub opening_plies: usize,
    /// Nodes per move, give or take a fifth.
    pub nodes: u64,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// Seed of the openings and of the jitter.
    pub seed: u64,
    /// The options of each game's engine (the table size, search threads; the book is for random openings to
    /// leave alone, so self-play switches it off unless told).
    pub options: Options,
    /// The evaluation's weights, a set per game type.
    pub weights: WeightSets,
}

impl SelfPlay {
    /// The engine options self-play uses unless told otherwise: a 16 MB table, one search thread, no book.
    pub fn default_options() -> Options {
        Options {
            max_hash_size: HashSize::fixed(16),
            opening_book: false,
            ..Options::default()
        }
    }
}

/// Play the games on `threads` threads, handing each finished game to `on_game` in the order of the games, so that
/// the same settings hand over the same games in the same order whatever the threads. Once `stop` is raised no new
/// game starts; those in progress are played to their end and handed over.
pub fn play(settings: &SelfPlay, threads: usize, stop: &AtomicBool, on_game: impl FnMut(FinishedGame)) {
    let openings = random_openings(
        settings.game_type,
        settings.opening_plies,
        settings.games,
        settings.seed,
    );
    if openings.is_empty() {
        return;
    }
    let play = |engine: &mut Engine, index: usize| {
        let opening = &openings[index % openings.len()];
        let seed = settings.seed.wrapping_mul(0x9e37_79b9).wrapping_add(index as u64);
        one_game(engine, opening, settings, seed)
    };
    side_by_side(
        settings.games,
        threads,
        (&settings.options, &settings.weights),
        stop,
        play,
        on_game,
    );
}

/// One game from `opening`; `None` if the opening cannot be played (the engine's error).
fn one_game(engine: &mut Engine, opening: &GameString, settings: &SelfPlay, seed: u64) -> Option<FinishedGame> {
    let mut rng = StdRng::seed_from_u64(seed);
    engine.new_game(opening).ok()?;
    let over_or_long = |engine: &Engine| {
        engine
            .game()
            .is_none_or(|game| game.state().is_over() || game.record().len() >= settings.max_plies)
    };
    while !over_or_long(engine) {
        let nodes = (settings.nodes as f64 * rng.gen_range(0.8..1.2)) as u64;
        let thought = engine.best_move(&Limits::nodes(nodes.max(1)), |_| {}).ok()?;
        engine.play(thought.best).ok()?;
    }
    let game = engine.game()?;
    let result = if game.state().is_over() {
        game.state()
    } else {
        GameState::Draw
    };
    Some(FinishedGame {
        result,
        game: game.game_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::game::Game;
    use crate::rules::position::Rules;

    #[test]
    fn games_are_played_to_the_end_and_repeat_for_a_seed() {
        let settings = SelfPlay {
            games: 4,
            game_type: GameType::MLP,
            opening_plies: 4,
            nodes: 300,
            max_plies: 60,
            seed: 5,
            options: SelfPlay::default_options(),
            weights: WeightSets::default(),
        };
        let mut first = Vec::new();
        let go = AtomicBool::new(false);
        play(&settings, 2, &go, |r| first.push(r));
        assert_eq!(first.len(), 4);
        for record in &first {
            let game = Game::from_moves(&record.game, Rules::default()).unwrap();
            assert!(game.state().is_over() || game.record().len() == 60);
            assert!(record.result.is_over());
        }
        let mut again = Vec::new();
        play(&settings, 1, &go, |r| again.push(r));
        assert_eq!(first, again, "the same games in the same order whatever the threads");
    }
}
