//! The tuner's data: self-play games, one a line, `RESULT<TAB>GAMESTRING`, where RESULT is the game's end
//! (`WhiteWins`, `BlackWins` or `Draw`, a draw also for a game cut short). Files from several runs (several
//! machines, several seeds) merge by concatenation.
//!
//! Owns the format and the positions drawn from it: every position of every game from a given ply on, with the
//! result from the side to move's point of view.

use std::io::{self, BufRead, Write};

use crate::eval::Features;
use crate::record::game::Game;
use crate::record::notation::GameString;
use crate::rules::position::{GameState, Position, Rules};

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

/// A position's features and how the game ended for its side to move: 1 won, ½ drawn, 0 lost.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub features: Features,
    pub result: f64,
}

/// The positions of `records` from ply `skip` on (the opening's are not the engine's), each with its result.
/// Positions with nothing to decide (the game over, or only a pass) are left out. A record that does not replay
/// is an error.
pub fn samples(records: &[Record], skip: usize) -> Result<Vec<Sample>, DataError> {
    let mut all = Vec::new();
    for (i, record) in records.iter().enumerate() {
        let game = Game::from_record(&record.game, Rules::default()).map_err(|e| DataError {
            line: i + 1,
            why: e.to_string(),
        })?;
        let mut pos = Position::new(record.game.game_type);
        for (ply, mv) in game.position().moves().enumerate() {
            if ply >= skip && !pos.state().is_over() && pos.legal_moves().len() > 1 {
                all.push(Sample {
                    features: Features::of(&pos),
                    result: result_for(record.result, &pos),
                });
            }
            pos.play_unchecked(mv);
        }
    }
    Ok(all)
}

/// The result of a game for the side to move in `pos`.
fn result_for(result: GameState, pos: &Position) -> f64 {
    match (result, pos.to_move()) {
        (GameState::WhiteWins, crate::rules::piece::Color::White)
        | (GameState::BlackWins, crate::rules::piece::Color::Black) => 1.0,
        (GameState::WhiteWins, _) | (GameState::BlackWins, _) => 0.0,
        _ => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_and_give_samples_from_both_sides() {
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
        assert_eq!(back[0].result, GameState::WhiteWins);
        let samples = samples(&back, 2).unwrap();
        assert_eq!(samples.len(), 4);
        assert_eq!(
            samples.iter().map(|s| s.result).collect::<Vec<_>>(),
            [1.0, 0.0, 1.0, 0.0]
        );
        assert!(read(&b"Nobody\tBase"[..]).is_err());
        assert!(read(&b"WhiteWins Base"[..]).is_err());
    }
}
