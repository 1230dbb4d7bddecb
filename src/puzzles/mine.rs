//! Mining games for puzzles: every position of every game examined (`find`), each puzzle found written out
//! (`line`, `themes`, `rating`), on several threads, each game by one of them. Every answer is the same whatever
//! thread gives it and whatever it did before (the proof search forgets before each position, the rating searches
//! from a fresh table), so the same games and options find the same puzzles; the caller puts them in the games'
//! order and drops the repeats.
//!
//! Owns the threads and what each keeps (a proof search, an engine for the rating); reading the games, the
//! progress bar, Ctrl-C and the file are the command line's.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use crate::book::key;
use crate::engine::{Engine, EngineError, Options};
use crate::record::game::Game;
use crate::record::notation::{line as name_line, GameString};
use crate::rules::position::{GameState, Position, Rules};
use crate::search::proof::{Halt, Prover};

use super::find::{examine, Found};
use super::line::lines;
use super::rating::{lowest_level, rating_of_level};
use super::record::{Defence, Puzzle, Source};
use super::themes::themes;

/// A game to mine, and where it came from.
#[derive(Clone)]
pub struct GameToMine {
    /// The game (replayed under any rules: puzzles are proved under the default ones, without the repetition
    /// draw).
    pub game: Game,
    /// Where it came from; `index` is its number among the games mined, and `ply` is filled in for each puzzle.
    pub source: Source,
}

/// How to mine.
#[derive(Clone, Debug)]
pub struct MineOptions {
    /// N: a forced win (or escape) within this many plies, 1 to [`super::MAX_PLIES`].
    pub plies: u32,
    /// Threads, each mining one game at a time.
    pub threads: usize,
    /// The most nodes one question to the proof search may take; a position that needs more is given up (and
    /// counted).
    pub budget: u64,
    /// At most this many puzzles from one game (`None`: every one). With a limit, the positions along a puzzle's
    /// forced line (the next `plies - 1` plies of the game after it) are not examined either, so that one game's
    /// puzzles are not one line met again a move later: a set drawn from many games stays varied.
    pub per_game: Option<usize>,
}

impl Default for MineOptions {
    fn default() -> Self {
        MineOptions {
            plies: super::DEFAULT_PLIES,
            threads: 1,
            budget: 20_000_000,
            per_game: None,
        }
    }
}

/// One game mined.
#[derive(Clone, Debug, Default)]
pub struct Mined {
    /// The game's index (its source's).
    pub index: usize,
    /// Positions examined.
    pub positions: usize,
    /// The puzzles found, in the order of their positions.
    pub puzzles: Vec<Puzzle>,
    /// Positions given up: a question needed more nodes than the budget.
    pub gave_up: usize,
    /// Nodes of the proof search.
    pub nodes: u64,
}

/// What a run mined, added up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games mined to their end.
    pub games: usize,
    /// Positions examined in them.
    pub positions: usize,
    /// Puzzles found (repeats included).
    pub puzzles: usize,
    /// Positions given up.
    pub gave_up: usize,
    /// Nodes of the proof search.
    pub nodes: u64,
}

impl Summary {
    /// Add a game mined.
    pub fn add(&mut self, mined: &Mined) {
        self.games += 1;
        self.positions += mined.positions;
        self.puzzles += mined.puzzles.len();
        self.gave_up += mined.gave_up;
        self.nodes += mined.nodes;
    }
}

/// Mine `games` with `options`: each game mined to its end is handed to `on_game` (on the caller's thread, in the
/// order they end), and `on_position` hears of every position examined (from the mining threads). When `stop` is
/// raised the games in progress are dropped and no new one starts.
pub fn mine(
    games: &[GameToMine],
    options: &MineOptions,
    stop: &Arc<AtomicBool>,
    on_position: impl Fn() + Sync,
    mut on_game: impl FnMut(Mined),
) -> Result<(), EngineError> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<Result<Mined, EngineError>>();
    let threads = options.threads.clamp(1, games.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, on_position) = (&next, &on_position);
            scope.spawn(move || {
                let mut engine = match rating_engine() {
                    Ok(engine) => engine,
                    Err(e) => {
                        let _ = sender.send(Err(e));
                        return;
                    }
                };
                let mut worker = Miner::new(options, Some(stop.clone()));
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= games.len() || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    match worker.mine_game(&mut engine, &games[index], on_position) {
                        Ok(Some(mined)) => {
                            if sender.send(Ok(mined)).is_err() {
                                break;
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            let _ = sender.send(Err(e));
                            stop.store(true, Ordering::SeqCst);
                            break;
                        }
                    }
                }
            });
        }
        drop(sender);
        let mut failure = None;
        for result in receiver {
            match result {
                Ok(mined) => on_game(mined),
                Err(e) => failure = failure.or(Some(e)),
            }
        }
        failure.map_or(Ok(()), Err)
    })
}

/// An engine to rate puzzles with: one thread, no book, a small table.
pub fn rating_engine() -> Result<Engine, EngineError> {
    Ok(Engine::new(Options {
        max_hash_size: crate::engine::HashSize::fixed(8),
        opening_book: false,
        ..Options::default()
    })?)
}

/// What one mining thread keeps.
pub(crate) struct Miner {
    prover: Prover,
    plies: u32,
    per_game: Option<usize>,
}

/// Why a position was not settled.
pub(crate) enum Trouble {
    /// The proof search gave up or was stopped.
    Halt(Halt),
    /// The rating's search failed.
    Engine(EngineError),
}

impl From<Halt> for Trouble {
    fn from(halt: Halt) -> Trouble {
        Trouble::Halt(halt)
    }
}

impl From<EngineError> for Trouble {
    fn from(error: EngineError) -> Trouble {
        Trouble::Engine(error)
    }
}

impl Miner {
    /// A miner with `options`, giving up when `stop` (if any) is raised.
    pub(crate) fn new(options: &MineOptions, stop: Option<Arc<AtomicBool>>) -> Miner {
        let mut prover = Prover::new(18);
        prover.set_budget(Some(options.budget));
        if let Some(stop) = stop {
            prover.set_stop(stop);
        }
        Miner {
            prover,
            plies: options.plies.clamp(1, super::MAX_PLIES),
            per_game: options.per_game,
        }
    }

    /// Mine every position of `game` in progress, rating with `engine`; `None` when stopped before the end. A
    /// position the game met before (up to the grid's symmetries) is not examined again: it would be a repeat.
    fn mine_game(
        &mut self,
        engine: &mut Engine,
        game: &GameToMine,
        on_position: &impl Fn(),
    ) -> Result<Option<Mined>, EngineError> {
        let mut mined = Mined {
            index: game.source.index,
            ..Mined::default()
        };
        let nodes = self.prover.nodes();
        let record = game.game.record();
        let opening = game.game.position().opening();
        let Ok(mut prefix) = Game::from_moves_with(&game.game.position().game_type().into(), Rules::default(), opening)
        else {
            return Ok(Some(mined));
        };
        let mut met = HashSet::new();
        // With a limit a game, the positions before this ply lie along a puzzle's line and are passed over.
        let mut skip_until = 0;
        for ply in 0..=record.len() {
            if ply > 0 {
                // The record was replayed once already: its moves are legal (under the default rules, a game a
                // repetition drew goes on).
                let Ok(mv) = record[ply - 1].to_move(prefix.position()) else {
                    break;
                };
                if prefix.play(mv).is_err() {
                    break;
                }
            }
            if prefix.state() != GameState::InProgress && prefix.state() != GameState::NotStarted {
                break;
            }
            if self.per_game.is_some_and(|most| mined.puzzles.len() >= most) {
                break;
            }
            if ply < skip_until || !met.insert(id_of(prefix.position())) {
                on_position();
                continue;
            }
            mined.positions += 1;
            let source = Source {
                ply,
                ..game.source.clone()
            };
            match self.puzzle_at(engine, &prefix, source) {
                Ok(Some(puzzle)) => {
                    if self.per_game.is_some() {
                        skip_until = ply + self.plies as usize;
                    }
                    mined.puzzles.push(puzzle);
                }
                Ok(None) => {}
                Err(Trouble::Halt(Halt::Budget(_))) => mined.gave_up += 1,
                Err(Trouble::Halt(Halt::Stopped)) => return Ok(None),
                Err(Trouble::Engine(e)) => return Err(e),
            }
            on_position();
        }
        mined.nodes = self.prover.nodes() - nodes;
        Ok(Some(mined))
    }

    /// The puzzle of the position `game` stands at, if it is one, written out with `source` and rated with
    /// `engine` (its game is replaced).
    pub(crate) fn puzzle_at(
        &mut self,
        engine: &mut Engine,
        game: &Game,
        source: Source,
    ) -> Result<Option<Puzzle>, Trouble> {
        let position = game.position();
        let Some(found) = examine(&mut self.prover, position, self.plies)? else {
            return Ok(None);
        };
        Ok(Some(self.write_out(engine, game, found, source)?))
    }

    /// The record of the puzzle `found` in `game`'s position.
    fn write_out(&mut self, engine: &mut Engine, game: &Game, found: Found, source: Source) -> Result<Puzzle, Trouble> {
        let position = game.position();
        let lines = lines(&mut self.prover, position, found, self.plies)?;
        let level = lowest_level(engine, game, found.first)?;
        let mut defences = Vec::new();
        for (ply, moves) in &lines.defences {
            let mut at = position.clone();
            for &mv in &lines.solution[..*ply] {
                at.play_unchecked(mv);
            }
            defences.push(Defence {
                ply: *ply,
                line: name_line(&at, moves.iter().copied()),
            });
        }
        Ok(Puzzle {
            id: id_of(position),
            game_type: position.game_type(),
            game: game_string(game),
            to_move: position.to_move(),
            kind: found.kind,
            plies: lines.plies,
            solution: game.line(&lines.solution),
            defences,
            themes: themes(position, found.kind, &lines.solution),
            rating: rating_of_level(level),
            level,
            source,
        })
    }
}

/// The GameString of `game` as UHP's `newgame` takes it: the state and the turn its moves give.
fn game_string(game: &Game) -> GameString {
    game.game_string()
}

/// The id of a position: 16 hex digits of a 64-bit FNV-1a hash of its key up to the grid's symmetries, so that a
/// position turned, mirrored or moved keeps its id, and every build names it alike.
pub(crate) fn id_of(position: &Position) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in key(position).as_bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}
