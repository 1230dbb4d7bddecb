//! A player's own mistakes as puzzles: from a review, the moves after which a game that was not lost became lost
//! (the review marks them blunders: the score after the move is a forced loss) and the moves that let a forced
//! win go (missed wins); the position before each is a puzzle when exactly one move would have held, or won,
//! within N plies, which the proof search decides as for any position. The review only points at the moves; it
//! proves nothing.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{Engine, EngineError};
use crate::record::game::Game;
use crate::record::notation::MoveString;
use crate::review::{Mark, Ply, Review};
use crate::rules::piece::Color;
use crate::rules::position::Rules;
use crate::search::proof::Halt;

use super::mine::{MineOptions, Miner, Trouble};
use super::record::{Puzzle, Source};

/// Whether the review says `ply` turned a game that was not lost into a lost one, or let a win go.
pub(crate) fn is_turning_mistake(ply: &Ply) -> bool {
    match ply.mark {
        Some(Mark::MissedWin) => true,
        Some(Mark::Blunder) => ply.score_after.is_loss() && !ply.score_before.is_loss(),
        _ => false,
    }
}

/// The puzzles of the mistakes `review` found in `game` (the game reviewed, from its start), for `player` if given
/// (otherwise both sides'), each with `source` and the move played instead, rated with `engine` (one thread and no
/// book, as [`super::rating_engine`] makes it; its game is replaced). Stops early when `stop` is raised.
pub fn from_review(
    engine: &mut Engine,
    review: &Review,
    game: &Game,
    player: Option<Color>,
    source: &Source,
    options: &MineOptions,
    stop: &AtomicBool,
) -> Result<Vec<Puzzle>, EngineError> {
    let plies: Vec<usize> = review
        .plies
        .iter()
        .filter(|ply| is_turning_mistake(ply) && player.is_none_or(|side| ply.mover == side))
        .map(|ply| ply.number)
        .collect();
    at_moves(engine, game, &plies, source, options, stop)
}

/// The puzzles of the positions before the moves numbered `numbers` (from 1) of `game`, each with `source` and
/// the move played there, rated with `engine`: the page's "practise these", whose review marked those moves. `stop`
/// is looked at between positions (each proof is bounded by the options' budget).
pub fn at_moves(
    engine: &mut Engine,
    game: &Game,
    numbers: &[usize],
    source: &Source,
    options: &MineOptions,
    stop: &AtomicBool,
) -> Result<Vec<Puzzle>, EngineError> {
    let mut miner = Miner::new(options, None);
    let record = game.record();
    let mut puzzles = Vec::new();
    let mut numbers: Vec<usize> = numbers
        .iter()
        .copied()
        .filter(|&n| n >= 1 && n <= record.len())
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    for number in numbers {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Some(before) = prefix(game, number - 1) else {
            continue;
        };
        let played: MoveString = record[number - 1];
        let source = Source {
            ply: number - 1,
            played: Some(played.to_string()),
            ..source.clone()
        };
        match miner.puzzle_at(engine, &before, source) {
            Ok(Some(puzzle)) if puzzle.solution.first() != Some(&played) => puzzles.push(puzzle),
            Ok(_) | Err(Trouble::Halt(Halt::Budget(_))) => {}
            Err(Trouble::Halt(Halt::Stopped)) => break,
            Err(Trouble::Engine(e)) => return Err(e),
        }
    }
    Ok(puzzles)
}

/// `game` after its first `plies` moves, replayed under the default rules.
fn prefix(game: &Game, plies: usize) -> Option<Game> {
    let opening = game.position().opening();
    let mut replayed = Game::from_moves_with(&game.position().game_type().into(), Rules::default(), opening).ok()?;
    for name in &game.record()[..plies] {
        let mv = name.to_move(replayed.position()).ok()?;
        replayed.play(mv).ok()?;
    }
    (!replayed.state().is_over()).then_some(replayed)
}
