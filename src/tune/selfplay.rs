//! Self-play games for the tuner: Waggle against itself from random openings, each move a search of about a
//! fixed number of nodes (jittered, so that two games from one opening part ways), until the game ends or a ply
//! limit calls it a draw. Games are dealt out to threads; the same settings give the same games.
//!
//! Owns playing the games; storing them is `data`'s.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::eval::WeightSets;
use crate::record::game::Game;
use crate::record::games::Record;
use crate::record::openings::random_openings;
use crate::rules::game_type::GameType;
use crate::rules::position::{GameState, Rules};
use crate::search::{Limits, Searcher};

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
    /// The evaluation's weights, a set per game type.
    pub weights: WeightSets,
}

/// Play the games on `threads` threads, handing each finished game to `on_game` (in the order they finish). Once
/// `stop` is raised no new game starts; those in progress are played to their end and handed over.
pub fn play(settings: &SelfPlay, threads: usize, stop: &AtomicBool, mut on_game: impl FnMut(Record)) {
    let openings = random_openings(
        settings.game_type,
        settings.opening_plies,
        settings.games,
        settings.seed,
    );
    if openings.is_empty() {
        return;
    }
    let next = AtomicUsize::new(0);
    let (sender, games) = mpsc::channel();
    thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let (sender, next, openings) = (sender.clone(), &next, &openings);
            scope.spawn(move || {
                let Ok(mut searcher) = Searcher::new(16) else { return };
                searcher.set_weights(settings.weights.clone());
                while !stop.load(Ordering::SeqCst) {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= settings.games {
                        break;
                    }
                    let opening = &openings[index % openings.len()];
                    let seed = settings.seed.wrapping_mul(0x9e37_79b9).wrapping_add(index as u64);
                    if let Some(record) = one_game(&mut searcher, opening, settings, seed) {
                        if sender.send(record).is_err() {
                            break;
                        }
                    }
                }
            });
        }
        drop(sender);
        for record in games {
            on_game(record);
        }
    });
}

/// One game from `opening`.
fn one_game(
    searcher: &mut Searcher,
    opening: &crate::record::notation::GameString,
    settings: &SelfPlay,
    seed: u64,
) -> Option<Record> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::from_record(opening, Rules::default()).ok()?;
    searcher.clear();
    while !game.state().is_over() && game.record().len() < settings.max_plies {
        let nodes = (settings.nodes as f64 * rng.gen_range(0.8..1.2)) as u64;
        let report = searcher.search(game.position(), &Limits::nodes(nodes.max(1)), |_| {})?;
        game.play(report.best).ok()?;
    }
    let result = if game.state().is_over() {
        game.state()
    } else {
        GameState::Draw
    };
    Some(Record {
        result,
        game: game.game_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_played_to_the_end_and_repeat_for_a_seed() {
        let settings = SelfPlay {
            games: 4,
            game_type: GameType::MLP,
            opening_plies: 4,
            nodes: 300,
            max_plies: 60,
            seed: 5,
            weights: WeightSets::default(),
        };
        let mut first = Vec::new();
        let go = AtomicBool::new(false);
        play(&settings, 2, &go, |r| first.push(r));
        assert_eq!(first.len(), 4);
        for record in &first {
            let game = Game::from_record(&record.game, Rules::default()).unwrap();
            assert!(game.state().is_over() || game.record().len() == 60);
            assert!(record.result.is_over());
        }
        let mut again = Vec::new();
        play(&settings, 1, &go, |r| again.push(r));
        let key = |r: &Record| r.to_line();
        let (mut a, mut b): (Vec<String>, Vec<String>) =
            (first.iter().map(key).collect(), again.iter().map(key).collect());
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }
}
