//! Playing levels a person can beat: below full strength (level 10) the engine searches fewer nodes and, at the
//! lowest levels, now and then plays a random legal move instead, as a beginner overlooks things; but at every
//! level it takes a win that is one move away. The reference player, for calibrating level 1, plays a random
//! legal move unless it can win at once. docs/strength.md measures each level.

use rand::Rng;

use crate::rules::moves::Move;
use crate::rules::position::Position;

/// Full strength: no cap and no noise.
pub(crate) const FULL: u8 = 10;

/// How a level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Strength {
    /// The most nodes a search may visit (none at full strength).
    pub(crate) nodes: Option<u64>,
    /// The chance, 0 to 1, that a move is a random legal one rather than the search's.
    pub(crate) random_share: f64,
}

/// How level `level` (1 to 10) plays.
pub(crate) fn strength(level: u8) -> Strength {
    let (nodes, random_share) = match level {
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
        for level in 1..FULL {
            let (this, next) = (strength(level), strength(level + 1));
            assert!(this.random_share >= next.random_share, "level {level}");
            match (this.nodes, next.nodes) {
                (Some(a), Some(b)) => assert!(a < b, "level {level}"),
                (Some(_), None) => assert_eq!(level + 1, FULL),
                _ => panic!("level {level} has no cap"),
            }
        }
        assert_eq!(
            strength(FULL),
            Strength {
                nodes: None,
                random_share: 0.0
            }
        );
    }
}
