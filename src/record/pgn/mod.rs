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

/// One game's record as a `.pgn` file holds it (a BoardSpace `.sgf` record is read into the same): its tag pairs in
/// order, the game (its type, its moves, the state the record gives it) and a comment after each move. The game
/// type and the result are held once, in the game ([`GameString::game_type`], [`GameString::state`]); their tags
/// only keep their places among the others, and are written with the game's values.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The tags in file order.
    tags: Vec<Tag>,
    /// The game: its type, its moves, and its state as the record says it (its result, once the game ended).
    pub record: GameString,
    /// A comment after each move (same length as record.moves), without braces.
    pub comments: Vec<Option<String>>,
}

/// A tag pair of a record, in its place.
#[derive(Clone, Debug, PartialEq)]
enum Tag {
    /// `GameType`, whose value is the game's type.
    GameType,
    /// `Result`, whose value is the game's state.
    Result,
    /// Any other tag, with its value.
    Other {
        /// Its name, as the record spells it.
        name: String,
        /// Its value.
        value: String,
    },
}

impl Tag {
    /// The tag `name`: one of the two the game carries (any case), or another with `value`.
    fn named(name: &str, value: &str) -> Tag {
        if name.eq_ignore_ascii_case("GameType") {
            Tag::GameType
        } else if name.eq_ignore_ascii_case("Result") {
            Tag::Result
        } else {
            Tag::Other {
                name: name.to_string(),
                value: value.to_string(),
            }
        }
    }

    /// Its name.
    fn name(&self) -> &str {
        match self {
            Tag::GameType => "GameType",
            Tag::Result => "Result",
            Tag::Other { name, .. } => name,
        }
    }
}

impl GameRecord {
    /// A record of `record` ready to write, between `white` and `black`, without comments.
    ///
    /// Its tags are the ones Mzinga.Viewer writes, in its order: `GameType`, `Date` (today as `yyyy.MM.dd`; the
    /// UTC day, where Mzinga takes the local one), `Event`, `Site` and `Round` (empty), `White`, `Black`, and
    /// `Result`: the record's state, or `NotStarted` / `InProgress` (as there are moves or not) when it has none.
    pub fn new(record: GameString, white: &str, black: &str) -> GameRecord {
        let today = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        let tags = [
            ("GameType", String::new()),
            ("Date", mzinga_date(today)),
            ("Event", String::new()),
            ("Site", String::new()),
            ("Round", String::new()),
            ("White", white.to_string()),
            ("Black", black.to_string()),
            ("Result", String::new()),
        ];
        GameRecord::of(
            tags.iter().map(|(name, value)| (*name, value.as_str())),
            record,
            Vec::new(),
        )
    }

    /// A record of the tags `tags` (name and value, in order), the game `record` and `comments` (one a move, none
    /// when short). The values of `GameType` and `Result` among the tags are the game's, whatever they say.
    pub(crate) fn of<'a>(
        tags: impl IntoIterator<Item = (&'a str, &'a str)>,
        record: GameString,
        mut comments: Vec<Option<String>>,
    ) -> GameRecord {
        comments.resize(record.moves.len(), None);
        GameRecord {
            tags: tags.into_iter().map(|(name, value)| Tag::named(name, value)).collect(),
            record,
            comments,
        }
    }

    /// How the game ended, when the record says it did.
    pub fn result(&self) -> Option<GameState> {
        self.record.state.filter(|state| state.is_over())
    }

    /// The value of the tag `name` (any case), if the record has it: for `GameType` and `Result`, the game's.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|tag| tag.name().eq_ignore_ascii_case(name))
            .map(|tag| self.value(tag))
    }

    /// The tags, name and value, in order.
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().map(|tag| (tag.name(), self.value(tag)))
    }

    /// The value of `tag`.
    fn value<'a>(&'a self, tag: &'a Tag) -> &'a str {
        match tag {
            Tag::GameType => self.record.game_type.name(),
            Tag::Result => self.result_name(),
            Tag::Other { value, .. } => value,
        }
    }

    /// Give the tag `name` (any case) the value `value`, in its place if the record has it, else at the end. A new
    /// tag's name should be one word of letters, digits and `_`, or the file will not read back.
    ///
    /// `GameType` and `Result` set the game's type and state when the value names one (a result as the reader
    /// takes it: `WhiteWins` or `1-0`), and change nothing when it does not.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        let tag = Tag::named(name, value);
        match &tag {
            Tag::GameType => match value.parse::<GameType>() {
                Ok(game_type) => self.record.game_type = game_type,
                Err(_) => return,
            },
            Tag::Result => match read::Said::of_tag(value).state() {
                Some(state) => self.record.state = Some(state),
                None => return,
            },
            Tag::Other { .. } => {}
        }
        match self.tags.iter_mut().find(|old| old.name().eq_ignore_ascii_case(name)) {
            // In its place, spelt as the record spelt it.
            Some(Tag::Other { value: old, .. }) => *old = value.to_string(),
            Some(_) => {}
            None => self.tags.push(tag),
        }
    }

    /// Replay the moves under `rules` and the opening the record shows ([`GameString::opening`]: an older game
    /// may open with a Queen), each checked: the game the record describes, or why it cannot be played. The
    /// result need not be where the moves lead (a resignation, a clock), so the record's state is not compared
    /// with theirs.
    pub fn replay(&self, rules: Rules) -> Result<Game, GameStringError> {
        Game::from_moves_with(&self.record, rules, self.record.opening())
    }

    /// The name the `Result` tag is written with: the record's state, else what Mzinga writes for an unfinished
    /// game.
    fn result_name(&self) -> &'static str {
        let unfinished = if self.record.moves.is_empty() {
            GameState::NotStarted
        } else {
            GameState::InProgress
        };
        self.record.state.unwrap_or(unfinished).name()
    }
}

#[cfg(test)]
mod tests;
