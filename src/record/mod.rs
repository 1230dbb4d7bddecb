//! Notations and records: MoveStrings and GameStrings, the game as a record of its moves, Mzinga `.pgn` files,
//! games files and openings.

pub mod game;
pub mod games;
pub mod notation;
pub mod openings;
pub mod pgn;
