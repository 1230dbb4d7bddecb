//! How hard a puzzle is: the lowest playing level whose thinking finds its move, put on a rating scale. Each level
//! below full strength caps a search's nodes (`crate::engine`'s levels: 10 nodes at level 1 up to 20,000 at level
//! 9); full strength is given [`FULL_BUDGET`] nodes. The levels' random moves are left out, so that a rating is
//! the same every time: level L finds the move when a search of its node cap, from a fresh table on one thread,
//! plays it; a win on the spot is found at every level, as every level plays one.
//!
//! The scale puts level 1 (which a beginner who knows the rules can beat) at 800 and each level above it at the
//! Elo its play measured above level 1 (docs/strength.md, "Levels"), so that a puzzle's rating reads like a
//! player's: docs/puzzles.md explains it. A move no level finds within its budget rates [`BEYOND`].

use crate::engine::{level_nodes, Engine, EngineError, Level};
use crate::record::game::Game;
use crate::rules::moves::Move;
use crate::search::Limits;

/// The nodes full strength is given to find the move.
pub(crate) const FULL_BUDGET: u64 = 200_000;

/// The rating of each level, 1 to 10: 800 for level 1, then each level's Elo above level 1 as docs/strength.md
/// measured it (levels' Elo against full strength: -1928, -1746, -1526, -1296, -1110, -933, -782, -518, -308, 0).
const LEVEL_RATINGS: [u32; 10] = [800, 982, 1202, 1432, 1618, 1795, 1946, 2210, 2420, 2728];

/// The rating of a puzzle no level finds within its budget.
pub(crate) const BEYOND: u32 = 2900;

/// The rating bands a set is spread over, lowest first: each from its first rating up to the next band's.
pub const BANDS: [(u32, &str); 6] = [
    (0, "under 1000"),
    (1000, "1000-1399"),
    (1400, "1400-1799"),
    (1800, "1800-2199"),
    (2200, "2200-2599"),
    (2600, "2600 and over"),
];

/// The rating of a puzzle that level `level` (1 to 10; 11 for none) is the lowest to solve.
pub fn rating_of_level(level: u8) -> u32 {
    match level {
        1..=10 => LEVEL_RATINGS[usize::from(level) - 1],
        _ => BEYOND,
    }
}

/// The lowest level whose search finds `first` in `game` (11 when none does), with `engine` (one thread, no
/// book: the caller's options); the engine's game is replaced.
pub(crate) fn lowest_level(engine: &mut Engine, game: &Game, first: Move) -> Result<u8, EngineError> {
    if game.position().clone().winning_move() == Some(first) {
        return Ok(1);
    }
    for level in Level::all() {
        let nodes = level_nodes(level).unwrap_or(FULL_BUDGET);
        // A fresh table each time, so that a level is not helped by what a lower one learnt.
        engine.set_game(game.clone());
        let thought = engine.best_move(&Limits::nodes(nodes), |_| {})?;
        if thought.report.best == first {
            return Ok(level.get());
        }
    }
    Ok(Level::FULL.get() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_rise_with_the_level_and_fall_in_every_band() {
        assert!(LEVEL_RATINGS.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(rating_of_level(10) < rating_of_level(11));
        for (band, &(from, _)) in BANDS.iter().enumerate() {
            let to = BANDS.get(band + 1).map_or(u32::MAX, |next| next.0);
            assert!(
                (1..=11).any(|level| (from..to).contains(&rating_of_level(level))),
                "band {band} holds no level"
            );
        }
    }
}
