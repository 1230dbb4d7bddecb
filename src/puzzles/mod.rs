//! Puzzles found in the games players have: positions where the side to move has exactly one move that forces a
//! win within N plies (the win may come on the opponent's own move, when every reply surrounds its own Queen), or
//! exactly one move that escapes a forced loss within N. Each is proved by the proof search
//! (`crate::search::proof`), never judged from a score; then its forced line is written out with the opponent's
//! longest defence and the other defences that last as long, its motifs named, and its difficulty rated by the
//! weakest playing level that finds the move. docs/puzzles.md describes the record and the rating.
//!
//! The room owns the puzzle record and its file (`record`), finding puzzles in a position (`find`), their lines
//! (`line`), themes (`themes`) and rating (`rating`), mining whole games on several threads (`mine`), a player's
//! own mistakes from a review (`mistakes`), the built-in set (`builtin`), solving one move at a time (`solve`),
//! which the terminal and the page share, and the conversation of `waggle puzzle` (`terminal`, on any `Write`).
//! It reads no file: `waggle puzzles`, `waggle puzzle` and the page do.

mod builtin;
mod find;
mod line;
mod mine;
mod mistakes;
mod rating;
mod record;
mod solve;
mod terminal;
mod themes;

pub use builtin::{builtin, Filter};
pub use mine::{mine, rating_engine, GameToMine, MineOptions, Mined, Summary};
pub use mistakes::{at_moves, from_review};
pub use rating::{rating_of_level, BANDS};
pub use record::{read_puzzles, Defence, Kind, Puzzle, PuzzleError, Read, Source};
pub use solve::{Answer, Attempt, SolveError};
pub use terminal::{solve_at_terminal, task, Tally};
pub use themes::names as theme_names;

/// The default N: a forced win (or escape) within this many plies.
pub const DEFAULT_PLIES: u32 = 7;

/// The largest N a miner takes.
pub const MAX_PLIES: u32 = 9;
