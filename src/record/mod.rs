//! Notations and records: MoveStrings and GameStrings, the game as a record of its moves, Mzinga `.pgn` files,
//! games files and openings.

pub mod game;
pub mod games;
pub mod notation;
pub mod openings;
pub mod pgn;

/// The game the GameString `text` describes, replayed under `rules`: its syntax, then its meaning.
pub(crate) fn replay(
    text: &str,
    rules: crate::rules::position::Rules,
) -> Result<game::Game, notation::GameStringError> {
    game::Game::from_record(&text.parse()?, rules)
}

/// The position `text` (a GameString) describes, for tests.
#[cfg(test)]
pub(crate) fn position(text: &str) -> crate::rules::position::Position {
    let record = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
    let game = game::Game::from_record(&record, Default::default()).unwrap_or_else(|e| panic!("{e}: {text}"));
    game.position().clone()
}
