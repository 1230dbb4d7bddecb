//! Games files: finished games, one a line, `RESULT<TAB>GAMESTRING`, where RESULT is the game's end (`WhiteWins`,
//! `BlackWins` or `Draw`, a draw also for a game cut short). Self-play writes them; the tuner and the book learn
//! from them. Files from several runs (several machines, several seeds) merge by concatenation.
//!
//! Owns the format only.

use std::io::{self, BufRead};

use crate::record::notation::{GameString, NotationError};
use crate::rules::position::GameState;

/// One finished self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// How it ended.
    pub result: GameState,
    /// The moves, from the start.
    pub game: GameString,
}

impl FinishedGame {
    /// The line a data file keeps for this game.
    pub fn to_line(&self) -> String {
        format!("{}\t{}", self.result, self.game)
    }
}

/// A games file that cannot be read, or a line of it that is not a game.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    /// The file could not be read.
    #[error("line {line}: {why}")]
    Read {
        /// The line being read, counted from 1.
        line: usize,
        /// Why.
        why: io::Error,
    },
    /// A line without the tab between the result and the game.
    #[error("line {line}: expected RESULT<TAB>GAMESTRING")]
    NoTab {
        /// The line, counted from 1.
        line: usize,
    },
    /// A result that is not the end of a game.
    #[error("line {line}: '{text}' is not a result: WhiteWins, BlackWins or Draw")]
    Result {
        /// The line, counted from 1.
        line: usize,
        /// What stood there.
        text: String,
    },
    /// A game that is not a GameString.
    #[error("line {line}: {why}")]
    Game {
        /// The line, counted from 1.
        line: usize,
        /// Why.
        why: NotationError,
    },
}

/// Read the games of a data file (blank lines and lines starting with `#` skipped).
pub fn read(input: impl BufRead) -> Result<Vec<FinishedGame>, GamesError> {
    let mut records = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line_number = i + 1;
        let line = line.map_err(|why| GamesError::Read { line: line_number, why })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (result, game) = line.split_once('\t').ok_or(GamesError::NoTab { line: line_number })?;
        let result = GameState::from_name(result)
            .filter(|s| s.is_over())
            .ok_or_else(|| GamesError::Result {
                line: line_number,
                text: result.to_string(),
            })?;
        let game: GameString = game
            .parse()
            .map_err(|why| GamesError::Game { line: line_number, why })?;
        records.push(FinishedGame { result, game });
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back() {
        let game: GameString = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-"
            .parse()
            .unwrap();
        let records = vec![FinishedGame {
            result: GameState::WhiteWins,
            game,
        }];
        let text: String = records.iter().map(|r| format!("{}\n", r.to_line())).collect();
        let back = read(text.as_bytes()).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back, records);
        assert!(read(&b"Nobody\tBase"[..]).is_err());
        assert!(read(&b"WhiteWins Base"[..]).is_err());
    }
}
