//! Playing levels a person can beat: below full strength (level 10) the engine searches fewer nodes and, at the
//! lowest levels, now and then plays a random legal move instead, as a beginner overlooks things; but at every
//! level it takes a win that is one move away. The reference player, for calibrating level 1, plays a random
//! legal move unless it can win at once. docs/strength.md measures each level.

use std::fmt;

use rand::Rng;

use super::options::{in_range, EngineOption, OptionError};
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// A playing level, from 1 (a beginner can beat it) to 10 (full strength): no other value can be made.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Level(u8);

impl Level {
    /// The weakest level, 1.
    pub const LOWEST: Level = Level(1);
    /// Full strength, 10: no cap and no noise.
    pub const FULL: Level = Level(10);

    /// Level `level`; an error unless it is from 1 to 10.
    pub fn new(level: u8) -> Result<Level, OptionError> {
        let (min, max) = (Level::LOWEST.0, Level::FULL.0);
        in_range(EngineOption::Level, level.into(), (min.into(), max.into())).map(|()| Level(level))
    }

    /// The level's number, 1 to 10.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (Level::LOWEST.0..=Level::FULL.0).map(Level)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How a level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Strength {
    /// The most nodes a search may visit (none at full strength).
    pub(crate) nodes: Option<u64>,
    /// The chance, 0 to 1, that a move is a random legal one rather than the search's.
    pub(crate) random_share: f64,
}

/// How `level` plays.
pub(crate) fn strength(level: Level) -> Strength {
    let (nodes, random_share) = match level.get() {
        1 => (Some(10), 0.98),
        2 => (Some(30), 0.8),
        3 => (Some(100), 0.6),
        4 => (Some(200), 0.45),
        5 => (Some(500), 0.3),
        6 => (Some(1_000), 0.2),
        7 => (Some(2_000), 0.1),
        8 => (Some(8_000), 0.02),
        9 => (Some(20_000), 0.0),
        _ => (None, 0.0),
    };
    Strength { nodes, random_share }
}

/// A legal move of `position` drawn at random (`pass` when it is the only one).
pub(crate) fn random_move(position: &Position, rng: &mut impl Rng) -> Option<Move> {
    let moves = position.legal_moves();
    (!moves.is_empty()).then(|| moves[rng.gen_range(0..moves.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger() {
        let levels: Vec<Level> = Level::all().collect();
        assert_eq!((levels.len(), levels[0], levels[9]), (10, Level::LOWEST, Level::FULL));
        for pair in levels.windows(2) {
            let (this, next) = (strength(pair[0]), strength(pair[1]));
            assert!(this.random_share >= next.random_share, "level {}", pair[0]);
            match (this.nodes, next.nodes) {
                (Some(a), Some(b)) => assert!(a < b, "level {}", pair[0]),
                (Some(_), None) => assert_eq!(pair[1], Level::FULL),
                _ => panic!("level {} has no cap", pair[0]),
            }
        }
        assert_eq!(
            strength(Level::FULL),
            Strength {
                nodes: None,
                random_share: 0.0
            }
        );
    }

    #[test]
    fn only_the_ten_levels_can_be_made() {
        assert_eq!(Level::new(1), Ok(Level::LOWEST));
        assert_eq!(Level::new(10), Ok(Level::FULL));
        for bad in [0, 11, 255] {
            assert_eq!(
                Level::new(bad).unwrap_err().to_string(),
                "Level must be a whole number from 1 to 10"
            );
        }
    }
}
