//! The opening explorer: the moves played from a position in the database's games, with how often each was
//! played and how those games ended, and the latest games that reached the position.
//!
//! The database knows a move only by the key of the position it led to, since the game that played it may have
//! had the board turned or mirrored; the explorer names each move as it is played in the position asked about, by
//! finding the legal move that leads to the same key (for a game from before the tournament opening, among the
//! moves that opening allowed too).
//!
//! Owns the query; what is shown of it is the front ends'.

use rusqlite::params;

use super::key::position_key;
use super::list::{game_row, GameRow, GAME_COLUMNS};
use super::{Database, DbError};
use crate::record::game::Game;
use crate::record::notation::MoveString;
use crate::rules::moves::Move;
use crate::rules::position::{Opening, Position};

/// A move of the explorer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploredMove {
    /// The move, as played in the position asked about (the first such move generated).
    pub mv: MoveString,
    /// The other legal moves that lead to the same position up to the board's symmetries (in the start position,
    /// every placement beside the first piece).
    pub same: Vec<MoveString>,
    /// Games that played it.
    pub games: u64,
    /// Of those, the games White won.
    pub white: u64,
    /// The games drawn.
    pub draw: u64,
    /// The games Black won.
    pub black: u64,
}

/// What the database knows of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Explored {
    /// The position's key in the tables `moves` and `reached`.
    pub key: i64,
    /// The moves played from it, the most played first.
    pub moves: Vec<ExploredMove>,
    /// The latest games added that reached it (at most as many as asked), each with the ply where it did.
    pub games: Vec<(GameRow, usize)>,
}

impl Explored {
    /// Games that went on from the position (each counted once, by the move it played first from there).
    pub fn total(&self) -> u64 {
        self.moves.iter().map(|m| m.games).sum()
    }
}

impl Database {
    /// The moves played from `game`'s position and at most `games` of the latest games that reached it.
    pub fn explore(&self, game: &Game, games: usize) -> Result<Explored, DbError> {
        let position = game.position();
        let key = position_key(position);
        let mut statement = self
            .connection
            .prepare_cached("SELECT child, white, draw, black, unfinished FROM moves WHERE position = ?1")
            .map_err(|e| self.error(e))?;
        let rows: Vec<(i64, [u64; 4])> = statement
            .query_map(params![key], |row| {
                Ok((row.get(0)?, [row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?]))
            })
            .and_then(|rows| rows.collect())
            .map_err(|e| self.error(e))?;
        let mut moves = Vec::with_capacity(rows.len());
        if !rows.is_empty() {
            let named = name_children(position, rows.iter().map(|&(child, _)| child).collect());
            for ((_, [white, draw, black, unfinished]), found) in rows.into_iter().zip(named) {
                // A child no legal move reaches: a game played under other rules, or two positions sharing a key.
                let Some((&mv, same)) = found.split_first() else {
                    continue;
                };
                moves.push(ExploredMove {
                    mv: MoveString::from_move(position, mv),
                    same: same
                        .iter()
                        .map(|&other| MoveString::from_move(position, other))
                        .collect(),
                    games: white + draw + black + unfinished,
                    white,
                    draw,
                    black,
                });
            }
        }
        moves.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then_with(|| a.mv.to_string().cmp(&b.mv.to_string()))
        });
        let mut statement = self
            .connection
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS}, reached.ply FROM reached JOIN games ON games.id = reached.game \
                 WHERE reached.position = ?1 ORDER BY reached.game DESC LIMIT ?2"
            ))
            .map_err(|e| self.error(e))?;
        let games = statement
            .query_map(params![key, games as i64], |row| {
                Ok((game_row(row)?, row.get::<_, i64>(15)? as usize))
            })
            .and_then(|rows| rows.collect())
            .map_err(|e| self.error(e))?;
        Ok(Explored { key, moves, games })
    }
}

/// For each of `children` (keys of positions), the legal moves of `position` that lead there, in generation order:
/// moves that lead to the same key are the same move up to the board's symmetries.
fn name_children(position: &Position, children: Vec<i64>) -> Vec<Vec<Move>> {
    let mut named: Vec<Vec<Move>> = vec![Vec::new(); children.len()];
    let search = |from: &Position, named: &mut Vec<Vec<Move>>| {
        let mut scratch = from.clone();
        for &mv in from.legal_moves().iter() {
            scratch.play_unchecked(mv);
            let key = position_key(&scratch);
            scratch.undo();
            if let Some(slot) = children.iter().position(|&child| child == key) {
                named[slot].push(mv);
            }
        }
    };
    search(position, &mut named);
    // A Queen placed on a side's first turn: only the games from before the tournament opening have those.
    if named.iter().any(Vec::is_empty) && position.opening() == Opening::Tournament && position.ply() < 2 {
        let mut free = Position::with_opening(position.game_type(), position.rules(), Opening::Free);
        for mv in position.moves() {
            free.play_unchecked(mv);
        }
        let mut queens = vec![Vec::new(); children.len()];
        search(&free, &mut queens);
        for (slot, found) in named.iter_mut().zip(queens) {
            if slot.is_empty() {
                *slot = found;
            }
        }
    }
    named
}
