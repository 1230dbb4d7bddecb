//! Where the games of a match start: random openings of a few plies from a seed, or the openings of a book (a
//! file of GameStrings, one a line, or a Mzinga `.pgn` file).
//!
//! Owns making and reading openings; every opening is checked with Waggle's rules, and openings that end the
//! game are left out.

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::record::game::Game;
use crate::record::notation::{GameString, GameStringError};
use crate::record::pgn;
use crate::rules::game_type::GameType;
use crate::rules::position::Rules;

/// Up to `count` distinct openings of `plies` random legal moves each from the start of `game_type`, the same for
/// the same seed. Openings that end the game are skipped; when fewer distinct openings exist than asked for (few
/// plies), the list is as long as could be found.
pub fn random_openings(game_type: GameType, plies: usize, count: usize, seed: u64) -> Vec<GameString> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::with_capacity(count);
    let mut attempts = 0;
    while openings.len() < count && attempts < count * 50 + 100 {
        attempts += 1;
        let mut game = Game::new(game_type, Rules::default());
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            if game.play(mv).is_err() {
                break;
            }
        }
        if game.state().is_over() {
            continue;
        }
        let record = game.game_string();
        if seen.insert(record.to_string()) {
            openings.push(record);
        }
    }
    openings
}

/// A file of openings that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file cannot be read.
    #[error("cannot read the openings {path}: {why}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        why: std::io::Error,
    },
    /// A `.pgn` file that is not a Mzinga record.
    #[error("{path}: {why}")]
    Pgn {
        /// The file.
        path: String,
        /// Why.
        why: pgn::PgnError,
    },
    /// A game of a `.pgn` file, or a line of a text file, that is not a playable game.
    #[error("{path}, {place}: {why}")]
    Game {
        /// The file.
        path: String,
        /// `line N` or `game N`.
        place: String,
        /// Why.
        why: GameStringError,
    },
    /// Every opening of the file ends the game.
    #[error("{path} holds no opening that leaves the game in progress")]
    Empty {
        /// The file.
        path: String,
    },
}

/// The openings of the book at `path`: a Mzinga `.pgn` file (one or more games; the whole game is the opening),
/// or a text file of GameStrings, one a line (blank lines and lines starting with `#` are skipped). Each is
/// replayed with Waggle's rules; one that ends the game is left out.
pub fn read_book(path: &str) -> Result<Vec<GameString>, OpeningsError> {
    let text = std::fs::read_to_string(path).map_err(|why| OpeningsError::Read {
        path: path.to_string(),
        why,
    })?;
    let text = text.trim_start_matches('\u{feff}');
    let mut openings = Vec::new();
    if text.trim_start().starts_with('[') {
        let games = pgn::parse(text).map_err(|why| OpeningsError::Pgn {
            path: path.to_string(),
            why,
        })?;
        for (i, game) in games.into_iter().enumerate() {
            // A match is played under the tournament opening, so its openings are checked under it too.
            let checked = Game::from_moves(&game.record, Rules::default()).map_err(|why| OpeningsError::Game {
                path: path.to_string(),
                place: format!("game {}", i + 1),
                why,
            })?;
            if !checked.state().is_over() {
                openings.push(checked.game_string());
            }
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let game = crate::record::replay(line, Rules::default()).map_err(|why| OpeningsError::Game {
                path: path.to_string(),
                place: format!("line {}", i + 1),
                why,
            })?;
            if !game.state().is_over() {
                openings.push(game.game_string());
            }
        }
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty { path: path.to_string() });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_distinct_playable_and_repeatable() {
        let openings = random_openings(GameType::MLP, 4, 30, 7);
        assert_eq!(openings.len(), 30);
        let texts: HashSet<String> = openings.iter().map(|o| o.to_string()).collect();
        assert_eq!(texts.len(), 30);
        for opening in &openings {
            assert_eq!(opening.moves.len(), 4);
            assert!(!Game::from_record(opening, Rules::default()).unwrap().state().is_over());
        }
        assert_eq!(random_openings(GameType::MLP, 4, 30, 7), openings);
        assert_ne!(random_openings(GameType::MLP, 4, 30, 8), openings);
        // Only one opening has no moves at all.
        assert_eq!(random_openings(GameType::BASE, 0, 5, 1).len(), 1);
    }

    #[test]
    fn a_book_of_game_strings_is_read_and_checked() {
        let dir = std::env::temp_dir().join(format!("waggle-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.txt");
        std::fs::write(
            &path,
            "# two openings\nBase;InProgress;Black[1];wS1\n\nBase+M;NotStarted;White[1]\n",
        )
        .unwrap();
        let book = read_book(path.to_str().unwrap()).unwrap();
        assert_eq!(book.len(), 2);
        std::fs::write(
            &path,
            "Base;InProgress;Black[1];wS1\nBase;InProgress;White[2];wS1;bQ wS1-\n",
        )
        .unwrap();
        let err = read_book(path.to_str().unwrap()).unwrap_err();
        assert!(err.to_string().contains(", line 2: move 2"), "{err}");
        assert!(matches!(
            read_book("/nonexistent/book"),
            Err(OpeningsError::Read { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
