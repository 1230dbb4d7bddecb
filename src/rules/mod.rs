//! The game and nothing else: the hex grid, the pieces, the board, the position, move generation, legality,
//! set-up positions and perft.

mod bit_set;
pub mod board;
pub mod ending;
pub mod game_type;
pub mod hex;
pub mod layout;
pub mod legality;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod piece_set;
pub mod position;
pub(crate) mod prefetch;
pub mod setup;
