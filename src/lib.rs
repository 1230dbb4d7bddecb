//! Waggle: a Hive engine (with the Mosquito, Ladybug and Pillbug) that speaks the Universal Hive Protocol.
//!
//! The game core is a bitboard-free hex grid ([`Board`]) inside a [`Position`] that plays and undoes [`Move`]s and
//! generates every legal move; [`notation`] reads and writes UHP strings; [`perft`] counts move sequences.

pub mod bench;
pub mod board;
pub mod draw;
pub mod engine;
pub mod eval;
pub mod game;
pub mod game_type;
pub mod hex;
pub mod legality;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod piece_set;
pub mod position;
pub mod protocol;
pub mod search;
pub mod uhp;

pub use board::Board;
pub use engine::{Engine, EngineError, Options};
pub use game::{Game, PlayError, UndoError};
pub use game_type::GameType;
pub use hex::{Direction, Directions, Hex};
pub use legality::IllegalMove;
pub use moves::{Move, MoveList};
pub use notation::{move_string, GameString, GameStringError, MoveString, NotationError};
pub use piece::{Bug, Color, Piece};
pub use piece_set::PieceSet;
pub use position::{GameState, Position, Rules};
