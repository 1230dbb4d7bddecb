//! Waggle: a Hive engine (with the Mosquito, Ladybug and Pillbug) that speaks the Universal Hive Protocol.
//!
//! The game core is a bitboard-free hex grid ([`Board`]) inside a [`Position`] that plays and undoes [`Move`]s and
//! generates every legal move; [`notation`] reads and writes UHP strings; [`perft`] counts move sequences.

pub mod board;
pub mod eval;
pub mod game_type;
pub mod hex;
pub mod legality;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod search;

pub use board::Board;
pub use game_type::GameType;
pub use hex::{Direction, Hex};
pub use legality::IllegalMove;
pub use moves::{Move, MoveList};
pub use notation::{move_string, GameString, GameStringError, MoveString, NotationError};
pub use piece::{Bug, Color, Piece};
pub use position::{GameState, Position};
