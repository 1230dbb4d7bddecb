//! Mzinga-style `.pgn` game records: the files Mzinga.Viewer (the reference Hive viewer) saves and opens.
//!
//! Owns the text of a record file, both ways: the tag pairs, the numbered moves, the comments after them and the
//! result line. It follows Mzinga's `GameRecording.SavePGN` / `LoadPGN`: the tags `GameType`, `Date` (written
//! `yyyy.MM.dd`), `Event`, `Site`, `Round`, `White`, `Black` and `Result` in that order, then any others; a blank
//! line and one move a line, `1. wS1`, `2. bG1 -wS1`, … numbered by ply from 1; a comment on its own line after the
//! move it belongs to, `{…}`; and, when the game has ended, a blank line and the result (`WhiteWins`, `BlackWins`
//! or `Draw`) on a line of its own.
//!
//! Moves are read as MoveStrings and never checked against the rules here: whether they can be played is the
//! caller's question, answered by replaying the record ([`GameRecord::replay`], [`Game::from_record`]).

mod error;
mod read;
mod write;

pub use error::PgnError;
pub use read::parse;
pub(crate) use write::mzinga_date;

use std::time::{SystemTime, UNIX_EPOCH};

use crate::record::game::Game;
use crate::record::notation::{GameString, GameStringError};
use crate::rules::game_type::GameType;
use crate::rules::position::{GameState, Rules};

/// One game record as a PGN file holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Tag pairs in file order (name, value), GameType and Result included.
    pub tags: Vec<(String, String)>,
    /// The game: its type and its moves (state and turn as the tags/moves say, may be None).
    pub record: GameString,
    /// A comment after each move (same length as record.moves), without braces.
    pub comments: Vec<Option<String>>,
    /// The result line / Result tag, when the game ended.
    pub result: Option<GameState>,
}
impl GameRecord {
    /// A record of `record` ready to write, between `white` and `black`, without comments.
    ///
    /// Its tags are the ones Mzinga.Viewer writes, in its order: `GameType`, `Date` (today as `yyyy.MM.dd`; the
    /// UTC day, where Mzinga takes the local one), `Event`, `Site` and `Round` (empty), `White`, `Black`, and
    /// `Result`: the record's state, or `NotStarted` / `InProgress` (as there are moves or not) when it has none.
    /// The result is the record's state when that is an end.
    pub fn new(record: GameString, white: &str, black: &str) -> GameRecord {
        let result = record.state.filter(|state| state.is_over());
        let mut game = GameRecord {
            tags: Vec::new(),
            comments: vec![None; record.moves.len()],
            record,
            result,
        };
        let today = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        game.tags = vec![
            ("GameType".to_string(), game.record.game_type.to_string()),
            ("Date".to_string(), mzinga_date(today)),
            ("Event".to_string(), String::new()),
            ("Site".to_string(), String::new()),
            ("Round".to_string(), String::new()),
            ("White".to_string(), white.to_string()),
            ("Black".to_string(), black.to_string()),
            ("Result".to_string(), game.result_name().to_string()),
        ];
        game
    }

    /// The value of the tag `name` (any case), if the record has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Give the tag `name` (any case) the value `value`, in its place if the record has it, else at the end. A
    /// new tag's name should be one word of letters, digits and `_`, or the file will not read back.
    ///
    /// `GameType` and `Result` also set the record's game type and the result (and the record's state) when the
    /// value names one (a result as the reader takes it: `WhiteWins` or `1-0`); when it does not, only the tag text changes, and writing the record still writes the
    /// record's own game type and result.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(tag, _)| tag.eq_ignore_ascii_case(name)) {
            Some((_, old)) => *old = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
        if name.eq_ignore_ascii_case("GameType") {
            if let Ok(game_type) = value.parse::<GameType>() {
                self.record.game_type = game_type;
            }
        } else if name.eq_ignore_ascii_case("Result") {
            if let Some(state) = read::Said::of_tag(value).state() {
                self.record.state = Some(state);
                self.result = Some(state).filter(|state| state.is_over());
            }
        }
    }

    /// Replay the moves under `rules` and the opening the record shows ([`GameString::opening`]: an older game
    /// may open with a Queen), each checked: the game the record describes, or why it cannot be played. The
    /// result need not be where the moves lead (a resignation, a clock), so the record's state is not compared
    /// with theirs.
    pub fn replay(&self, rules: Rules) -> Result<Game, GameStringError> {
        Game::from_moves_with(&self.record, rules, self.record.opening())
    }

    /// The name the `Result` tag is written with: the result, else the record's state, else what Mzinga writes
    /// for an unfinished game.
    fn result_name(&self) -> &'static str {
        let unfinished = if self.record.moves.is_empty() {
            GameState::NotStarted
        } else {
            GameState::InProgress
        };
        self.result.or(self.record.state).unwrap_or(unfinished).name()
    }
}

#[cfg(test)]
mod tests;
