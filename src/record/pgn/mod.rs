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
//! caller's question, answered by replaying the record ([`PgnGame::replay`], [`Game::from_record`]).

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::record::game::Game;
use crate::record::notation::{GameString, GameStringError, MoveString, NotationError};
use crate::rules::game_type::{GameType, GameTypeError};
use crate::rules::piece::Color;
use crate::rules::position::{GameState, Rules};

/// One game record as a PGN file holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// Tag pairs in file order (name, value), GameType and Result included.
    pub tags: Vec<(String, String)>,
    /// The game: its type and its moves (state and turn as the tags/moves say, may be None).
    pub record: GameString,
    /// A comment after each move (same length as record.moves), without braces.
    pub comments: Vec<Option<String>>,
    /// The result line / Result tag, when the game ended.
    pub result: Option<GameState>,
}

/// Text that is not a PGN game record. Every error names the line (counted from 1) where it was found.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum PgnError {
    /// A game without a `GameType` tag.
    #[error("line {line}: the game starting here has no GameType tag: expected a line such as [GameType \"Base+MLP\"] before its moves")]
    MissingGameType {
        /// The first line of the game.
        line: usize,
    },
    /// A `GameType` tag that names no game type.
    #[error("line {line}: {reason}")]
    GameType {
        /// The line of the tag.
        line: usize,
        /// Why the value is not a game type.
        reason: GameTypeError,
    },
    /// A `Result` tag whose value is not a game state.
    #[error("line {line}: '{value}' is not a result: expected WhiteWins, BlackWins, Draw, InProgress or NotStarted")]
    Result {
        /// The line of the tag.
        line: usize,
        /// The value as written.
        value: String,
    },
    /// A move line whose move is not a MoveString.
    #[error("line {line}: the move '{text}' cannot be read: {reason}")]
    Move {
        /// The line of the move.
        line: usize,
        /// The move as written, without its number and comment.
        text: String,
        /// Why it is not a MoveString.
        reason: NotationError,
    },
    /// A move whose number is not the next ply.
    #[error(
        "line {line}: move number {found} where {expected} was expected: moves are numbered 1, 2, 3, … one per ply"
    )]
    MoveNumber {
        /// The line of the move.
        line: usize,
        /// The number the move should have had.
        expected: usize,
        /// The number written.
        found: String,
    },
    /// A move after the result line of its game.
    #[error("line {line}: '{text}' comes after the result line, which ends the game")]
    AfterResult {
        /// The line of the move.
        line: usize,
        /// The line's text.
        text: String,
    },
    /// A line that opens like a tag but is not `[Name "value"]`.
    #[error("line {line}: '{text}' is not a tag: expected [Name \"value\"], the name one word and the value in double quotes")]
    Tag {
        /// The line of the tag.
        line: usize,
        /// The line's text.
        text: String,
    },
    /// A comment that is never closed.
    #[error("line {line}: the comment opened here is never closed with '}}'")]
    UnclosedComment {
        /// The line where the comment opens.
        line: usize,
    },
    /// Text after the closing brace of a comment.
    #[error("line {line}: '{text}' follows a comment on its line: a comment ends its line")]
    AfterComment {
        /// The line of the comment's end.
        line: usize,
        /// The text after the brace.
        text: String,
    },
    /// Text without a single game.
    #[error("no game in the file: expected tags such as [GameType \"Base\"] followed by numbered moves")]
    NoGame,
}

impl PgnGame {
    /// A record of `record` ready to write, between `white` and `black`, without comments.
    ///
    /// Its tags are the ones Mzinga.Viewer writes, in its order: `GameType`, `Date` (today as `yyyy.MM.dd`; the
    /// UTC day, where Mzinga takes the local one), `Event`, `Site` and `Round` (empty), `White`, `Black`, and
    /// `Result`: the record's state, or `NotStarted` / `InProgress` (as there are moves or not) when it has none.
    /// The result is the record's state when that is an end.
    pub fn new(record: GameString, white: &str, black: &str) -> PgnGame {
        let result = record.state.filter(|state| state.is_over());
        let mut game = PgnGame {
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
    /// value names one; when it does not, only the tag text changes, and writing the record still writes the
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
            if let Some(state) = GameState::from_name(value.trim()) {
                self.record.state = Some(state);
                self.result = Some(state).filter(|state| state.is_over());
            }
        }
    }

    /// Replay the moves under `rules`, each checked: the game the record describes, or why it cannot be played.
    pub fn replay(&self, rules: Rules) -> Result<Game, GameStringError> {
        Game::from_record(&self.record, rules)
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

impl fmt::Display for PgnGame {
    /// The file text, lines ended by `\n`: the tags in order (`GameType` and `Result` with the record's values,
    /// first and last if the tags lack them), then, if there are moves, a blank line and one numbered move a line,
    /// each followed by its comment on a line of its own as Mzinga writes it; then, if the game has ended, a blank
    /// line and the result. Tag values are escaped (`\"`, `\\`) and kept on one line; comments lose any braces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game_type = self.record.game_type.to_string();
        let has = |name: &str| self.tag(name).is_some();
        if !has("GameType") {
            write_tag(f, "GameType", &game_type)?;
        }
        for (name, value) in &self.tags {
            let value = if name.eq_ignore_ascii_case("GameType") {
                game_type.as_str()
            } else if name.eq_ignore_ascii_case("Result") {
                self.result_name()
            } else {
                value.as_str()
            };
            write_tag(f, name, value)?;
        }
        if !has("Result") {
            write_tag(f, "Result", self.result_name())?;
        }
        if !self.record.moves.is_empty() {
            writeln!(f)?;
        }
        for (index, mv) in self.record.moves.iter().enumerate() {
            writeln!(f, "{}. {mv}", index + 1)?;
            let comment = self.comments.get(index).and_then(Option::as_deref);
            let comment = comment.map(|text| text.replace(['{', '}'], "")).unwrap_or_default();
            if !comment.trim().is_empty() {
                writeln!(f, "{{{}}}", comment.trim())?;
            }
        }
        if let Some(result) = self.result.filter(|state| state.is_over()) {
            writeln!(f)?;
            writeln!(f, "{result}")?;
        }
        Ok(())
    }
}

/// One tag line, its value escaped and its line breaks made spaces.
fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    f.write_str("[")?;
    f.write_str(name)?;
    f.write_str(" \"")?;
    for c in value.trim().chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\r' | '\n' => f.write_str(" ")?,
            _ => write!(f, "{c}")?,
        }
    }
    f.write_str("\"]\n")
}

/// The text of a file holding `games`, a blank line between one game and the next.
pub fn write(games: &[PgnGame]) -> String {
    games.iter().map(PgnGame::to_string).collect::<Vec<_>>().join("\n")
}

/// The date `unix_seconds` after 1970-01-01 00:00 UTC falls on, as Mzinga writes dates: `yyyy.MM.dd`.
pub fn mzinga_date(unix_seconds: u64) -> String {
    // Days to a civil date in the proleptic Gregorian calendar, counted in 400-year eras from 0000-03-01, so
    // that the leap day falls at the end of each counted year.
    let days = unix_seconds / 86_400 + 719_468;
    let era = days / 146_097;
    let day_of_era = days % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Parse a PGN file's text: one or more games. Accepts CRLF, a UTF-8 BOM, blank lines anywhere, tags in any order
/// and case, unknown tags, comments after moves, a missing Result line, move numbers with or without a space after
/// the dot. Moves are parsed as MoveStrings but not checked against the rules here (callers replay with
/// [`Game::from_record`] or [`PgnGame::replay`]).
///
/// A comment may follow its move on the move's line or stand on the lines after it (as Mzinga writes it), and may
/// span lines; two comments on one move are joined by a line break. A comment before the first move (Mzinga's note
/// on the start position) has no place in a [`PgnGame`] and is dropped. A move line may lack its number, as Mzinga
/// allows. A new game starts at a tag line once the game before has a move or a result line, or already has that
/// tag. The result line, when there is one, wins over the `Result` tag. The record's state is the result (line or
/// tag) when there is one, else `None`; its turn is the one the number of moves gives.
pub fn parse(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut game = Reader::default();
    let mut open: Option<OpenComment> = None;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if let Some(comment) = open.as_mut() {
            if let Some(rest) = comment.take_line(line) {
                ends_line(number, rest)?;
                if let Some(done) = open.take() {
                    game.comment(&done.text);
                }
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            let (name, value) = parse_tag(number, line)?;
            if game.has_body || game.tag(&name).is_some() {
                games.extend(std::mem::take(&mut game).finish()?);
            }
            game.add_tag(number, name, value)?;
            continue;
        }
        let (body, comment) = match line.split_once('{') {
            Some((before, after)) => (before.trim(), Some(after)),
            None => (line, None),
        };
        if !body.is_empty() {
            game.first_line.get_or_insert(number);
            game.has_body = true;
            if let Some(state) = GameState::from_name(body) {
                game.result_line = Some(state);
            } else if game.result_line.is_some() {
                return Err(PgnError::AfterResult {
                    line: number,
                    text: body.to_string(),
                });
            } else {
                game.add_move(number, body)?;
            }
        }
        if let Some(comment_text) = comment {
            let mut comment = OpenComment {
                line: number,
                text: String::new(),
            };
            match comment.take_line(comment_text) {
                Some(rest) => {
                    ends_line(number, rest)?;
                    game.comment(&comment.text);
                }
                None => open = Some(comment),
            }
        }
    }
    if let Some(comment) = open {
        return Err(PgnError::UnclosedComment { line: comment.line });
    }
    games.extend(game.finish()?);
    if games.is_empty() {
        return Err(PgnError::NoGame);
    }
    Ok(games)
}

/// Nothing but blanks may follow a comment's closing brace on its line.
fn ends_line(line: usize, rest: &str) -> Result<(), PgnError> {
    let rest = rest.trim();
    if rest.is_empty() {
        Ok(())
    } else {
        Err(PgnError::AfterComment {
            line,
            text: rest.to_string(),
        })
    }
}

/// A comment whose closing brace is still to come.
struct OpenComment {
    /// The line where it opened.
    line: usize,
    /// Its text so far, lines trimmed and joined by `\n`.
    text: String,
}

impl OpenComment {
    /// Take in one line of the comment (of its first line, the text after the opening brace): the text after the
    /// closing brace if the comment ends on this line.
    fn take_line<'a>(&mut self, line: &'a str) -> Option<&'a str> {
        let (inside, rest) = match line.split_once('}') {
            Some((inside, rest)) => (inside, Some(rest)),
            None => (line, None),
        };
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(inside.trim());
        rest
    }
}

/// One game as it is read, line by line.
#[derive(Default)]
struct Reader {
    /// The first line of the game, once it has one.
    first_line: Option<usize>,
    tags: Vec<(String, String)>,
    game_type: Option<GameType>,
    result_tag: Option<GameState>,
    result_line: Option<GameState>,
    moves: Vec<MoveString>,
    comments: Vec<Option<String>>,
    /// Whether a move or a result line has been read: a tag after them starts the next game.
    has_body: bool,
}

impl Reader {
    /// The value of the tag `name` (any case), if read.
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Take a tag, reading the value of the two that carry the game: `GameType` and `Result`.
    fn add_tag(&mut self, line: usize, name: String, value: String) -> Result<(), PgnError> {
        self.first_line.get_or_insert(line);
        if name.eq_ignore_ascii_case("GameType") {
            let game_type = value.parse().map_err(|reason| PgnError::GameType { line, reason })?;
            self.game_type = Some(game_type);
        } else if name.eq_ignore_ascii_case("Result") {
            let state = GameState::from_name(value.trim()).ok_or_else(|| PgnError::Result {
                line,
                value: value.clone(),
            })?;
            self.result_tag = Some(state);
        }
        self.tags.push((name, value));
        Ok(())
    }

    /// Take a move line without its comment: `N. MoveString`, `N.MoveString` or a bare MoveString.
    fn add_move(&mut self, line: usize, text: &str) -> Result<(), PgnError> {
        let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (number, rest) = text.split_at(digits);
        let expected = self.moves.len() + 1;
        if !number.is_empty() && number.parse::<usize>().ok() != Some(expected) {
            return Err(PgnError::MoveNumber {
                line,
                expected,
                found: number.to_string(),
            });
        }
        let move_text = rest.trim_start_matches('.').trim();
        let mv = move_text.parse().map_err(|reason| PgnError::Move {
            line,
            text: move_text.to_string(),
            reason,
        })?;
        self.moves.push(mv);
        self.comments.push(None);
        Ok(())
    }

    /// Attach a finished comment to the last move read (a comment before the first move is dropped).
    fn comment(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if let Some(slot) = self.comments.last_mut() {
            *slot = Some(match slot.take() {
                Some(before) => format!("{before}\n{text}"),
                None => text.to_string(),
            });
        }
    }

    /// The finished game, or `None` if nothing of a game was read.
    fn finish(self) -> Result<Option<PgnGame>, PgnError> {
        let Some(first_line) = self.first_line else {
            return Ok(None);
        };
        let game_type = self.game_type.ok_or(PgnError::MissingGameType { line: first_line })?;
        let state = self.result_line.or(self.result_tag);
        let plies = self.moves.len();
        let to_move = if plies.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        Ok(Some(PgnGame {
            tags: self.tags,
            record: GameString {
                game_type,
                state,
                turn: Some((to_move, plies / 2 + 1)),
                moves: self.moves,
            },
            comments: self.comments,
            result: state.filter(|state| state.is_over()),
        }))
    }
}

/// Parse a tag line `[Name "value"]`, undoing the escapes `\"` and `\\` (any other backslash is kept, as Mzinga
/// writes values unescaped).
fn parse_tag(line: usize, text: &str) -> Result<(String, String), PgnError> {
    let bad = || PgnError::Tag {
        line,
        text: text.to_string(),
    };
    let inner = text
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or_else(bad)?
        .trim_start();
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_end);
    let quoted = rest.trim_start();
    if name.is_empty() || quoted.len() == rest.len() {
        return Err(bad());
    }
    let mut chars = quoted.strip_prefix('"').ok_or_else(bad)?.chars();
    let mut value = String::new();
    loop {
        match chars.next() {
            None => return Err(bad()),
            Some('"') => break,
            Some('\\') => match chars.clone().next() {
                Some(escaped @ ('"' | '\\')) => {
                    value.push(escaped);
                    chars.next();
                }
                _ => value.push('\\'),
            },
            Some(c) => value.push(c),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return Err(bad());
    }
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Base game that Black wins on ply 10, in canonical MoveStrings.
    const BLACK_WINS: &str = "Base;BlackWins;White[6];wG1;bB1 wG1\\;wQ wG1/;bQ bB1-;wS1 -wQ;bA1 bQ\\;wA1 wQ/;bA1 -wA1;\
                              wA2 wA1\\;bQ wQ\\";

    fn record(text: &str) -> GameString {
        text.parse().expect("a valid GameString")
    }

    /// A record as `new` makes it, with a fixed date so that its text is known.
    fn dated(text: &str, white: &str, black: &str) -> PgnGame {
        let mut game = PgnGame::new(record(text), white, black);
        game.set_tag("Date", "2024.05.17");
        game
    }

    fn round_trip(game: &PgnGame) {
        let text = game.to_string();
        assert_eq!(parse(&text), Ok(vec![game.clone()]), "{text}");
    }

    #[test]
    fn the_text_of_a_known_game_is_exactly_mzingas() {
        let mut game = dated(BLACK_WINS, "Alice", "Waggle 0.1.0");
        game.comments[1] = Some("0.52s, score -0.31".to_string());
        game.comments[9] = Some("mate".to_string());
        let expected = "[GameType \"Base\"]\n\
                        [Date \"2024.05.17\"]\n\
                        [Event \"\"]\n\
                        [Site \"\"]\n\
                        [Round \"\"]\n\
                        [White \"Alice\"]\n\
                        [Black \"Waggle 0.1.0\"]\n\
                        [Result \"BlackWins\"]\n\
                        \n\
                        1. wG1\n\
                        2. bB1 wG1\\\n\
                        {0.52s, score -0.31}\n\
                        3. wQ wG1/\n\
                        4. bQ bB1-\n\
                        5. wS1 -wQ\n\
                        6. bA1 bQ\\\n\
                        7. wA1 wQ/\n\
                        8. bA1 -wA1\n\
                        9. wA2 wA1\\\n\
                        10. bQ wQ\\\n\
                        {mate}\n\
                        \n\
                        BlackWins\n";
        assert_eq!(game.to_string(), expected);
    }

    #[test]
    fn an_unfinished_game_has_no_result_line_and_a_new_one_no_moves() {
        let game = dated("Base+MLP;InProgress;White[2];wS1;bG1 -wS1", "a", "b");
        let expected = "[GameType \"Base+MLP\"]\n[Date \"2024.05.17\"]\n[Event \"\"]\n[Site \"\"]\n[Round \"\"]\n\
                        [White \"a\"]\n[Black \"b\"]\n[Result \"InProgress\"]\n\n1. wS1\n2. bG1 -wS1\n";
        assert_eq!(game.to_string(), expected);
        let fresh = dated("Base+M", "a", "b");
        assert!(fresh.to_string().ends_with("[Result \"NotStarted\"]\n"), "{fresh}");
        round_trip(&game);
    }

    #[test]
    fn new_writes_mzingas_tags_in_mzingas_order() {
        let game = PgnGame::new(record(BLACK_WINS), "w", "b");
        let names: Vec<&str> = game.tags.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(
            names,
            ["GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result"]
        );
        let date = game.tag("date").expect("a Date tag");
        let shape: String = date.chars().map(|c| if c.is_ascii_digit() { '9' } else { c }).collect();
        assert_eq!(shape, "9999.99.99");
        assert!(date.as_bytes() >= b"2024.01.01".as_slice(), "{date}");
        assert_eq!(game.tag("RESULT"), Some("BlackWins"));
        assert_eq!(game.result, Some(GameState::BlackWins));
        assert_eq!(game.comments, vec![None; 10]);
        assert_eq!(game.tag("Annotator"), None);
    }

    #[test]
    fn set_tag_replaces_in_place_appends_and_keeps_the_record_in_step() {
        let mut game = dated("Base;InProgress;Black[1];wS1", "w", "b");
        game.set_tag("white", "Carol");
        assert_eq!(game.tags[5], ("White".to_string(), "Carol".to_string()));
        game.set_tag("TimeControl", "300+5");
        assert_eq!(
            game.tags.last(),
            Some(&("TimeControl".to_string(), "300+5".to_string()))
        );
        assert_eq!(game.tags.len(), 9);
        game.set_tag("Result", "Draw");
        assert_eq!(
            (game.result, game.record.state),
            (Some(GameState::Draw), Some(GameState::Draw))
        );
        assert!(game
            .to_string()
            .ends_with("[TimeControl \"300+5\"]\n\n1. wS1\n\nDraw\n"));
        game.set_tag("GameType", "Base+P");
        assert_eq!(game.record.game_type, "Base+P".parse().unwrap());
        round_trip(&game);
        game.set_tag("GameType", "Chess");
        assert_eq!(game.tag("GameType"), Some("Chess"));
        assert!(
            game.to_string().starts_with("[GameType \"Base+P\"]\n"),
            "the record's type is written"
        );
    }

    #[test]
    fn records_round_trip_through_their_text() {
        let mut finished = dated(BLACK_WINS, "Alice", "Waggle");
        finished.comments[0] = Some("book".to_string());
        finished.comments[4] = Some("1.5s 0.25\nsecond line".to_string());
        round_trip(&finished);

        let passing = dated("Base+MLP;InProgress;Black[2];wS1;bG1 -wS1;pass", "x", "y");
        assert!(passing.to_string().contains("\n3. pass\n"));
        round_trip(&passing);

        let mut escaped = dated("Base+L;Draw;White[2];wL;bL wL-", "Jon \"the Bee\" Q\\Hive", "b");
        escaped.set_tag("Event", "Cup \"2024\"");
        let text = escaped.to_string();
        assert!(text.contains("[White \"Jon \\\"the Bee\\\" Q\\\\Hive\"]\n"), "{text}");
        assert_eq!(escaped.result, Some(GameState::Draw));
        round_trip(&escaped);
        assert_eq!(parse(&text).unwrap()[0].tag("white"), Some("Jon \"the Bee\" Q\\Hive"));
    }

    #[test]
    fn comments_lose_their_braces_and_blank_ones_are_not_written() {
        let mut game = dated("Base;InProgress;White[2];wS1;bS1 wS1-", "w", "b");
        game.comments[0] = Some("{odd} text".to_string());
        game.comments[1] = Some("   ".to_string());
        let text = game.to_string();
        assert!(text.ends_with("1. wS1\n{odd text}\n2. bS1 wS1-\n"), "{text}");
        assert_eq!(parse(&text).unwrap()[0].comments, [Some("odd text".to_string()), None]);
    }

    #[test]
    fn a_file_saved_by_mzinga_viewer_parses_and_replays() {
        let file = "[GameType \"Base\"]\r\n[Date \"2024.05.17\"]\r\n[Event \"\"]\r\n[Site \"\"]\r\n[Round \"\"]\r\n\
                    [White \"alice\"]\r\n[Black \"Mzinga v0.15.2\"]\r\n[Result \"BlackWins\"]\r\n\r\n\
                    1. wG1\r\n2. bB1 wG1\\\r\n{thought for 0.52s}\r\n3. wQ wG1/\r\n4. bQ bB1-\r\n5. wS1 -wQ\r\n\
                    6. bA1 bQ\\\r\n7. wA1 wQ/\r\n8. bA1 -wA1\r\n9. wA2 wA1\\\r\n10. bQ wQ\\\r\n\r\nBlackWins\r\n";
        let games = parse(file).unwrap();
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.record, record(BLACK_WINS));
        assert_eq!(game.result, Some(GameState::BlackWins));
        assert_eq!(game.tag("Black"), Some("Mzinga v0.15.2"));
        assert_eq!(game.tags.len(), 8);
        assert_eq!(game.comments[1].as_deref(), Some("thought for 0.52s"));
        assert_eq!(game.comments.iter().flatten().count(), 1);
        let played = Game::from_record(&game.record, Rules::default()).expect("every move legal");
        assert_eq!(played.state(), GameState::BlackWins);
        assert_eq!(played.game_string(), game.record);
        assert_eq!(
            game.replay(Rules::default()).map(|g| g.state()),
            Ok(GameState::BlackWins)
        );
        // Written back with CRLF line ends, it is the same file.
        assert_eq!(game.to_string().replace('\n', "\r\n"), file);
    }

    #[test]
    fn two_games_in_one_file_written_loosely() {
        let file = "\u{feff}\n[GameType \"Base\"]\n[Result \"BlackWins\"]\n\n1. wG1\n2. bB1 wG1\\\n3. wQ wG1/\n\
                    4. bQ bB1-\n5. wS1 -wQ\n6. bA1 bQ\\\n7. wA1 wQ/\n8. bA1 -wA1\n9. wA2 wA1\\\n10. bQ wQ\\\nBlackWins\n\
                    \n\n[white \"Bo\"]\n\n[Annotator \"me\"]\n[gametype \"base+mlp\"]\n\n\
                    1.wS1 {12.0s 0.10}\n2.   bG1 -wS1\n  3. wQ wS1-  {a comment\n   over two lines }\n4. bQ -bG1\n";
        let games = parse(file).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].record, record(BLACK_WINS));
        let second = &games[1];
        let expected = GameString {
            state: None, // neither a Result tag nor a result line
            ..record("Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wQ wS1-;bQ -bG1")
        };
        assert_eq!(second.record, expected);
        assert_eq!(second.result, None);
        assert_eq!(
            second.tags,
            [
                ("white".to_string(), "Bo".to_string()),
                ("Annotator".to_string(), "me".to_string()),
                ("gametype".to_string(), "base+mlp".to_string())
            ]
        );
        assert_eq!(
            second.comments,
            [
                Some("12.0s 0.10".to_string()),
                None,
                Some("a comment\nover two lines".to_string()),
                None
            ]
        );
        assert_eq!(second.replay(Rules::default()).map(|g| g.record().len()), Ok(4));
        // Written out together and read back, both games are as they were read.
        let mut both = games.clone();
        both[1].set_tag("Result", "InProgress");
        both[1].set_tag("GameType", "Base+MLP"); // the tag is written as the record's type is
        assert_eq!(parse(&write(&both)), Ok(both));
    }

    #[test]
    fn the_result_line_wins_and_start_comments_are_dropped() {
        let file = "[GameType \"Base\"]\n[Result \"InProgress\"]\n{the start}\n1. wS1\n{one}\n{two}\n\nDraw {agreed}\n";
        let game = &parse(file).unwrap()[0];
        assert_eq!(game.result, Some(GameState::Draw));
        assert_eq!(game.record.state, Some(GameState::Draw));
        assert_eq!(game.record.turn, Some((Color::Black, 1)));
        assert_eq!(game.comments, [Some("one\ntwo\nagreed".to_string())]);
        let bare = &parse("[GameType \"Base\"]\nwS1\nbS1 wS1-\n").unwrap()[0];
        assert_eq!(bare.record.moves.len(), 2, "Mzinga reads moves without numbers");
    }

    #[test]
    fn a_game_without_moves_is_followed_by_the_next_when_a_tag_repeats() {
        let games = parse("[GameType \"Base\"]\n[Result \"NotStarted\"]\n[GameType \"Base+M\"]\n1. wM\n").unwrap();
        assert_eq!(games.len(), 2);
        assert!(games[0].record.moves.is_empty());
        assert_eq!(games[1].record.to_string(), "Base+M");
    }

    #[test]
    fn each_error_names_its_line() {
        let cases: [(&str, PgnError); 12] = [
            ("[White \"x\"]\n\n1. wS1\n", PgnError::MissingGameType { line: 1 }),
            (
                "[GameType \"Base\"]\n1. wS1\n\n[White \"y\"]\n1. wS1\n",
                PgnError::MissingGameType { line: 4 },
            ),
            (
                "\n[GameType \"Base+X\"]\n",
                PgnError::GameType {
                    line: 2,
                    reason: GameTypeError("Base+X".to_string()),
                },
            ),
            (
                "[GameType \"Base\"]\n\n1. wS1\n2. bG1 -wX1\n",
                PgnError::Move {
                    line: 4,
                    text: "bG1 -wX1".to_string(),
                    reason: NotationError::Move("bG1 -wX1".to_string()),
                },
            ),
            (
                "[GameType \"Base\"]\n\n1. wS1\n3. bG1 -wS1\n",
                PgnError::MoveNumber {
                    line: 4,
                    expected: 2,
                    found: "3".to_string(),
                },
            ),
            (
                "[GameType \"Base\"]\n[White Alice]\n",
                PgnError::Tag {
                    line: 2,
                    text: "[White Alice]".to_string(),
                },
            ),
            (
                "[GameType \"Base\"]\n[Result \"1-0\"]\n",
                PgnError::Result {
                    line: 2,
                    value: "1-0".to_string(),
                },
            ),
            (
                "[GameType \"Base\"]\n1. wS1\nWhiteWins\n2. bS1 wS1-\n",
                PgnError::AfterResult {
                    line: 4,
                    text: "2. bS1 wS1-".to_string(),
                },
            ),
            (
                "[GameType \"Base\"]\n1. wS1\n{never\nclosed\n",
                PgnError::UnclosedComment { line: 3 },
            ),
            (
                "[GameType \"Base\"]\n1. wS1 {a\nb} 2. bS1 wS1-\n",
                PgnError::AfterComment {
                    line: 3,
                    text: "2. bS1 wS1-".to_string(),
                },
            ),
            ("", PgnError::NoGame),
            ("\u{feff}\r\n  \r\n{just a note}\r\n", PgnError::NoGame),
        ];
        for (text, expected) in cases {
            assert_eq!(parse(text), Err(expected), "{text:?}");
        }
    }

    #[test]
    fn bad_tags_are_refused() {
        for (line, text) in [
            "[White \"Alice]",
            "[White \"Alice\" extra]",
            "[White \"Alice\"",
            "[\"Alice\"]",
            "[White\"Alice\"]",
            "[Wh-ite \"Alice\"]",
            "[]",
        ]
        .into_iter()
        .enumerate()
        {
            let file = format!("[GameType \"Base\"]\n{}{text}\n", "\n".repeat(line));
            let err = parse(&file).unwrap_err();
            assert_eq!(
                err,
                PgnError::Tag {
                    line: line + 2,
                    text: text.to_string()
                }
            );
        }
    }

    #[test]
    fn error_messages_read_as_sentences() {
        let message = |text: &str| parse(text).unwrap_err().to_string();
        assert_eq!(
            message("[GameType \"Base\"]\n1. wS1\n3. bS1 wS1-\n"),
            "line 3: move number 3 where 2 was expected: moves are numbered 1, 2, 3, … one per ply"
        );
        let bad_move = message("[GameType \"Base\"]\n1. wQ2\n");
        assert!(
            bad_move.starts_with("line 2: the move 'wQ2' cannot be read: 'wQ2' is not a piece"),
            "{bad_move}"
        );
        assert!(message("[GameType \"Hive\"]").starts_with("line 1: 'Hive' is not a game type"));
        assert!(message("1. wS1").contains("line 1: the game starting here has no GameType tag"));
        assert!(message("").starts_with("no game in the file"));
        assert_eq!(
            message("[GameType \"Base\"]\n1. wS1\n{"),
            "line 3: the comment opened here is never closed with '}'"
        );
    }

    #[test]
    fn dates_are_written_as_mzinga_writes_them() {
        assert_eq!(mzinga_date(0), "1970.01.01");
        assert_eq!(mzinga_date(951_782_400), "2000.02.29");
        assert_eq!(mzinga_date(1_709_251_199), "2024.02.29");
        assert_eq!(mzinga_date(4_102_444_800), "2100.01.01");
        assert_eq!(mzinga_date(253_402_300_799), "9999.12.31");
    }
}
