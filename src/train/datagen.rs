//! Self-play that gathers training positions: Waggle against itself from random openings of every game type asked
//! for, each move a search of about a fixed number of nodes (jittered, so that games from alike openings part
//! ways), every position where the side to move has a choice kept with the search's score and, once the game is
//! over, its result.
//!
//! Everything about game `i` (its game type, its opening, the jitter) comes from the seed and `i` alone, and each
//! engine searches on one thread with its table cleared for every game, so a run is the same whatever the threads,
//! and the games are handed over in their order: the same command writes the same file. A shard (`I/N`) plays the
//! games `i` with `i mod N = I − 1`, so that N machines share one run.

use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::engine::selfplay::side_by_side;
use crate::engine::{Engine, HashSize, Options};
use crate::eval::WeightSets;
use crate::record::game::Game;
use crate::record::notation::MoveString;
use crate::record::training::{Outcome, TrainingPosition};
use crate::rules::game_type::GameType;
use crate::search::Limits;

/// The part of a run one process plays: the `index`-th (from 1) of `count` slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether game `game` (from 0) is this shard's.
    pub fn plays(self, game: u64) -> bool {
        game % self.count == self.index - 1
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N`, 1 ≤ I ≤ N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard I/N with 1 <= I <= N");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (
            index.trim().parse().map_err(|_| bad())?,
            count.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// What to gather.
#[derive(Clone, Debug, PartialEq)]
pub struct Datagen {
    /// Games of the whole run (over every shard).
    pub games: u64,
    /// The game types, dealt out in turn: game `i` is of `game_types[i mod len]`.
    pub game_types: Vec<GameType>,
    /// Random plies of each opening, drawn from this range for each game.
    pub opening_plies: RangeInclusive<usize>,
    /// Nodes per move, give or take a fifth.
    pub nodes: u64,
    /// A game still going after this many plies is stopped (its positions keep their scores, no result).
    pub max_plies: usize,
    /// The share of moves after the opening played at random instead of searched (the position before is still
    /// searched and kept): so that the positions after a poor move, which a search meets at every node but games
    /// between good players rarely reach, are learnt from too.
    pub random_moves: f64,
    /// Seed of everything random.
    pub seed: u64,
    /// The slice of the run this process plays.
    pub shard: Shard,
    /// The options of each engine (one search thread, no book: see [`Datagen::default_options`]).
    pub options: Options,
    /// The evaluation's weights.
    pub weights: WeightSets,
}

impl Datagen {
    /// The engine options data is gathered with unless told otherwise: a 16 MB table, one search thread, no
    /// book, and the repetition rule on (as hivegame.com and nokamute play), so that shuffles end.
    pub fn default_options() -> Options {
        Options {
            max_hash_size: HashSize::fixed(16),
            opening_book: false,
            threefold_repetition_draw: true,
            ..Options::default()
        }
    }

    /// How many of the run's games this shard plays.
    pub fn shard_games(&self) -> u64 {
        (0..self.games).filter(|&g| self.shard.plays(g)).count() as u64
    }
}

/// One game's positions, as gathered.
#[derive(Clone, Debug)]
pub struct GameData {
    /// The game's number in the run, from 0.
    pub index: u64,
    /// Its positions where the side to move had a choice, each with its table hash (for removing duplicates).
    pub positions: Vec<(u64, TrainingPosition)>,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// How it ended.
    pub outcome: Outcome,
}

/// Play this shard's games on `threads` threads, handing each to `on_game` in the order of the run. Once `stop` is
/// raised no new game starts; those in progress are played to their end and handed over.
pub fn gather(settings: &Datagen, threads: usize, stop: &AtomicBool, on_game: impl FnMut(GameData)) {
    let mine: Vec<u64> = (0..settings.games).filter(|&g| settings.shard.plays(g)).collect();
    if settings.game_types.is_empty() {
        return;
    }
    let engines = (&settings.options, &settings.weights);
    let play = |engine: &mut Engine, game: usize| Some(one_game(engine, settings, mine[game]));
    side_by_side(mine.len(), threads, engines, stop, play, on_game);
}

/// Game `index` of the run.
fn one_game(engine: &mut Engine, settings: &Datagen, index: u64) -> GameData {
    let mut rng = StdRng::seed_from_u64(settings.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let game_type = settings.game_types[(index % settings.game_types.len() as u64) as usize];
    let mut data = GameData {
        index,
        positions: Vec::new(),
        plies: 0,
        outcome: Outcome::Unfinished,
    };
    let mut opening = Game::new(game_type, engine.rules());
    for _ in 0..rng.gen_range(settings.opening_plies.clone()) {
        let moves = opening.legal_moves();
        if opening.state().is_over() || moves.is_empty() {
            break;
        }
        if opening.play(moves[rng.gen_range(0..moves.len())]).is_err() {
            break;
        }
    }
    if opening.state().is_over() || engine.new_game(&opening.game_string()).is_err() {
        data.plies = opening.record().len();
        data.outcome = Outcome::of(opening.state());
        return data;
    }
    while let Some(game) = engine.game() {
        let pos = game.position();
        if pos.state().is_over() || pos.ply() >= settings.max_plies {
            break;
        }
        let choice = pos.legal_moves().len() > 1;
        let (hash, before) = (pos.hash(), choice.then(|| pos.clone()));
        let nodes = (settings.nodes as f64 * rng.gen_range(0.8..1.2)) as u64;
        let Ok(thought) = engine.best_move(&Limits::nodes(nodes.max(1)), |_| {}) else {
            break;
        };
        let random = settings.random_moves > 0.0 && rng.gen_bool(settings.random_moves.min(1.0));
        let played = match before {
            Some(pos) => {
                let record = TrainingPosition::of(&pos, thought.report.score, Outcome::Unfinished);
                data.positions.push((hash, record));
                let moves = pos.legal_moves();
                if random {
                    MoveString::from_move(&pos, moves[rng.gen_range(0..moves.len())])
                } else {
                    thought.best
                }
            }
            None => thought.best,
        };
        if engine.play(played).is_err() {
            break;
        }
    }
    if let Some(game) = engine.game() {
        data.plies = game.record().len();
        data.outcome = Outcome::of(game.state());
    }
    for (_, record) in &mut data.positions {
        record.outcome = data.outcome;
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(shard: Shard) -> Datagen {
        Datagen {
            games: 6,
            game_types: GameType::ALL.to_vec(),
            opening_plies: 2..=5,
            nodes: 300,
            max_plies: 50,
            random_moves: 0.1,
            seed: 7,
            shard,
            options: Datagen::default_options(),
            weights: WeightSets::default(),
        }
    }

    fn bytes(games: &[GameData]) -> Vec<u8> {
        games
            .iter()
            .flat_map(|g| g.positions.iter().flat_map(|(_, p)| p.to_bytes()))
            .collect()
    }

    #[test]
    fn a_run_is_the_same_whatever_the_threads_and_its_shards_make_it_up() {
        let go = AtomicBool::new(false);
        let mut one = Vec::new();
        gather(&settings(Shard::ALL), 1, &go, |g| one.push(g));
        let mut two = Vec::new();
        gather(&settings(Shard::ALL), 2, &go, |g| two.push(g));
        assert_eq!(one.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
        assert_eq!(bytes(&one), bytes(&two), "two threads gather what one does");
        assert!(one.iter().map(|g| g.positions.len()).sum::<usize>() > 30);
        let mut shards = Vec::new();
        for index in 1..=2 {
            gather(&settings(Shard { index, count: 2 }), 1, &go, |g| shards.push(g));
        }
        shards.sort_by_key(|g| g.index);
        assert_eq!(bytes(&shards), bytes(&one), "the shards together are the run");
        for game in &one {
            let game_type = GameType::ALL[game.index as usize % 8];
            for (hash, record) in &game.positions {
                assert_eq!(record.game_type, game_type);
                assert_eq!(record.outcome, game.outcome);
                assert_eq!(record.position().hash(), *hash);
                assert!(record.rules.threefold_draw);
            }
        }
    }

    #[test]
    fn shards_are_read_and_checked() {
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let shard = Shard { index: 2, count: 3 };
        assert_eq!((0..7).filter(|&g| shard.plays(g)).collect::<Vec<_>>(), [1, 4]);
    }
}
