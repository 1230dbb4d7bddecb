//! Games files: finished games, one a line, `RESULT<TAB>GAMESTRING`, where RESULT is the game's end (`WhiteWins`,
//! `BlackWins` or `Draw`, a draw also for a game cut short). Self-play writes them; the tuner and the book learn
//! from them. Files from several runs (several machines, several seeds) merge by concatenation.
//!
//! Owns the format only.

use std::io::{self, BufRead, Write};

use crate::record::notation::GameString;
use crate::rules::position::GameState;

/// One finished self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// How it ended.
    pub result: GameState,
    /// The moves, from the start.
    pub game: GameString,
}

impl Record {
    /// The line a data file keeps for this game.
    pub fn to_line(&self) -> String {
        format!("{}\t{}", self.result, self.game)
    }
}

/// A line of a data file that is not a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct DataError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

/// Write `records`, one a line.
pub fn write(records: &[Record], out: &mut impl Write) -> io::Result<()> {
    for record in records {
        writeln!(out, "{}", record.to_line())?;
    }
    Ok(())
}

/// Read the games of a data file (blank lines and lines starting with `#` skipped).
pub fn read(input: impl BufRead) -> Result<Vec<Record>, DataError> {
    let mut records = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let bad = |why: String| DataError { line: i + 1, why };
        let line = line.map_err(|e| bad(e.to_string()))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (result, game) = line
            .split_once('\t')
            .ok_or_else(|| bad("expected RESULT<TAB>GAMESTRING".into()))?;
        let result = GameState::from_name(result)
            .filter(|s| s.is_over())
            .ok_or_else(|| bad(format!("'{result}' is not a result: WhiteWins, BlackWins or Draw")))?;
        let game: GameString = game.parse().map_err(|e| bad(format!("{e}")))?;
        records.push(Record { result, game });
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
        let records = vec![Record {
            result: GameState::WhiteWins,
            game,
        }];
        let mut text = Vec::new();
        write(&records, &mut text).unwrap();
        let back = read(&text[..]).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back, records);
        assert!(read(&b"Nobody\tBase"[..]).is_err());
        assert!(read(&b"WhiteWins Base"[..]).is_err());
    }
}
