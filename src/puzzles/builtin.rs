//! The built-in set: puzzles mined from Waggle's own self-play games and the records in the repository (the one
//! command that makes it again is in docs/puzzles.md), kept in `builtin.jsonl` and built into the binary. The
//! page is served them through its JSON API a page at a time, and `waggle puzzle` plays them when given no file.
//!
//! Owns the set and the filters a solver picks puzzles by.

use std::sync::OnceLock;

use crate::rules::game_type::GameType;

use super::record::{read_puzzles, Kind, Puzzle};

/// The set, one record a line.
const SET: &str = include_str!("builtin.jsonl");

/// The built-in puzzles, in the order they were mined (read once, on first use; a line that does not read is left
/// out, which a test rules out).
pub fn builtin() -> &'static [Puzzle] {
    static SET_READ: OnceLock<Vec<Puzzle>> = OnceLock::new();
    SET_READ.get_or_init(|| read_puzzles(SET).puzzles)
}

/// What a solver asks of the puzzles to be shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this game type.
    pub game_type: Option<GameType>,
    /// Only this kind.
    pub kind: Option<Kind>,
    /// Rated at least this.
    pub min_rating: Option<u32>,
    /// Rated at most this.
    pub max_rating: Option<u32>,
    /// Only puzzles with this theme.
    pub theme: Option<String>,
}

impl Filter {
    /// Whether `puzzle` is one the filter lets through.
    pub fn admits(&self, puzzle: &Puzzle) -> bool {
        self.game_type.is_none_or(|t| puzzle.game_type == t)
            && self.kind.is_none_or(|k| puzzle.kind == k)
            && self.min_rating.is_none_or(|r| puzzle.rating >= r)
            && self.max_rating.is_none_or(|r| puzzle.rating <= r)
            && self
                .theme
                .as_ref()
                .is_none_or(|theme| puzzle.themes.iter().any(|t| t == theme))
    }
}
