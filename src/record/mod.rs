//! Records of games: Mzinga `.pgn` files (what Mzinga.Viewer saves and opens, and other programs' `.pgn`) and games
//! files (one finished game a line, as self-play writes them for the tuner and the book), both ways; BoardSpace's
//! `.sgf` records, read.
//!
//! Inside the crate this room also holds the notations (MoveStrings and GameStrings, exported at the crate's
//! root), the game as the record of its moves ([`crate::Game`]) and the openings of matches.

pub(crate) mod game;
pub(crate) mod games;
pub(crate) mod notation;
// Random openings serve the arena and self-play; a book of openings, the arena alone.
#[cfg(any(feature = "arena", feature = "tune"))]
#[cfg_attr(not(feature = "arena"), allow(dead_code))]
pub(crate) mod openings;
pub(crate) mod pgn;
pub mod sgf;
pub mod training;

pub use games::{read as read_games, FinishedGame, GamesError};
pub use pgn::{parse as read_pgn, GameRecord, PgnError};
pub use sgf::{parse as read_sgf, SgfError};

/// The game the GameString `text` describes, replayed under `rules`: its syntax, then its meaning.
pub(crate) fn replay(
    text: &str,
    rules: crate::rules::position::Rules,
) -> Result<game::Game, notation::GameStringError> {
    game::Game::from_record(&text.parse()?, rules)
}

/// What the unit tests of every room share.
#[cfg(test)]
pub(crate) mod tests {
    use super::game::Game;
    use crate::rules::position::Position;

    /// The position `text` (a GameString) describes, every move replayed and checked.
    pub(crate) fn position(text: &str) -> Position {
        let record = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
        let game = Game::from_record(&record, Default::default()).unwrap_or_else(|e| panic!("{e}: {text}"));
        game.position().clone()
    }
}
