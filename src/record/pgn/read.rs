//! Reading record files as leniently as Mzinga.Viewer does (CRLF, a BOM, tags in any order and case, comments,
//! a missing result line), as other programs write them (PGN's results, hivegame.com's downloads, lone bugs
//! numbered as older records number them), and as strictly as a record needs: every error names its line.

use super::{GameRecord, PgnError};
use crate::record::notation::{GameString, MoveString};
use crate::rules::game_type::GameType;
use crate::rules::piece::{Bug, Color};
use crate::rules::position::GameState;

/// Parse a PGN file's text: one or more games. Accepts CRLF, a UTF-8 BOM, blank lines anywhere, tags in any order
/// and case, unknown tags, comments after moves, a missing Result line, move numbers with or without a space after
/// the dot, blanks after a move. Moves are parsed as MoveStrings (a lone bug may be numbered, `wM1`, and is kept as
/// `wM`) but not checked against the rules here (callers replay with [`GameRecord::replay`]).
///
/// A result, in the `Result` tag or on a line of its own after the moves, is Mzinga's (`WhiteWins`, `BlackWins`,
/// `Draw`, `InProgress`, `NotStarted`, any case) or PGN's (`1-0`, `0-1`, `1/2-1/2`, `½-½`, and `*` for none); PGN's
/// may also end the last move's line. A `Result` tag that says no result or one not known (hivegame.com's
/// `Unkown`, a program's own words) leaves the result to the moves, as a missing one does; a line says a result
/// only in those words, or in `Unknown`.
///
/// A comment may follow its move on the move's line or stand on the lines after it (as Mzinga writes it), and may
/// span lines; two comments on one move are joined by a line break. A comment before the first move (Mzinga's note
/// on the start position) has no place in a [`GameRecord`] and is dropped. A move line may lack its number, as Mzinga
/// allows. A new game starts at a tag line once the game before has a move or a result line, or already has that
/// tag. The result line, when there is one, wins over the `Result` tag. The record's state is the result (line or
/// tag) when there is one, else `None`; its turn is the one the number of moves gives.
pub fn parse(text: &str) -> Result<Vec<GameRecord>, PgnError> {
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
            let (moves, said) = split_result(body);
            if !moves.is_empty() {
                if game.result_line.is_some() {
                    return Err(PgnError::AfterResult {
                        line: number,
                        text: moves.to_string(),
                    });
                }
                game.add_move(number, moves)?;
            }
            if let Some(said) = said {
                game.result_line = Some(said);
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
    result_tag: Option<Said>,
    result_line: Option<Said>,
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
            self.result_tag = Some(Said::of_tag(&value));
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
        let mv = MoveString::parse_recorded(move_text).map_err(|reason| PgnError::Move {
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
    fn finish(self) -> Result<Option<GameRecord>, PgnError> {
        if self.first_line.is_none() {
            return Ok(None);
        }
        // Without a GameType tag, as Mzinga.Viewer and hivegame.com read it: Base, with each expansion whose bug moves.
        let game_type = self.game_type.unwrap_or_else(|| {
            let uses = |bug: Bug| {
                self.moves.iter().any(|mv| match *mv {
                    MoveString::Pass => false,
                    MoveString::Alone(piece) => piece.bug() == bug,
                    MoveString::Beside { piece, reference, .. } => piece.bug() == bug || reference.bug() == bug,
                })
            };
            GameType::new(uses(Bug::Mosquito), uses(Bug::Ladybug), uses(Bug::Pillbug))
        });
        let state = [self.result_line, self.result_tag]
            .into_iter()
            .flatten()
            .find_map(Said::state);
        let plies = self.moves.len();
        let to_move = if plies.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let record = GameString {
            game_type,
            state,
            turn: Some((to_move, plies / 2 + 1)),
            moves: self.moves,
        };
        let tags = self.tags.iter().map(|(name, value)| (name.as_str(), value.as_str()));
        Ok(Some(GameRecord::of(tags, record, self.comments)))
    }
}

/// What a record says of its result: a state, or that it does not know (the moves decide).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Said {
    /// A game state: Mzinga's names, PGN's results.
    State(GameState),
    /// No result, or one not known: PGN's `*`, hivegame.com's `Unkown`, any other word in a tag.
    Unknown,
}

impl Said {
    /// The result a word says, if it is one of the words a result is written in.
    fn of_word(word: &str) -> Option<Said> {
        let word = word.trim();
        if let Some(state) = GameState::from_name(word) {
            return Some(Said::State(state));
        }
        // hivegame.com writes a finished game's status as `Finished(1-0)` in places.
        let inner = word
            .strip_prefix("Finished(")
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or(word);
        match inner {
            "1-0" => Some(Said::State(GameState::WhiteWins)),
            "0-1" => Some(Said::State(GameState::BlackWins)),
            "1/2-1/2" | "½-½" => Some(Said::State(GameState::Draw)),
            "*" => Some(Said::Unknown),
            _ if ["Unknown", "Unkown", "Adjudicated"]
                .iter()
                .any(|name| name.eq_ignore_ascii_case(inner)) =>
            {
                Some(Said::Unknown)
            }
            _ => None,
        }
    }

    /// The result a `Result` tag says: any value that is not a result word leaves it to the moves.
    pub(super) fn of_tag(value: &str) -> Said {
        Said::of_word(value).unwrap_or(Said::Unknown)
    }

    /// The state said, if any.
    pub(super) fn state(self) -> Option<GameState> {
        match self {
            Said::State(state) => Some(state),
            Said::Unknown => None,
        }
    }
}

/// A line's text split into what comes before a result and the result: the whole line when it is a result word,
/// or PGN's result ending a move's line (`40. bQ wA1- 1-0`).
fn split_result(body: &str) -> (&str, Option<Said>) {
    if let Some(said) = Said::of_word(body) {
        return ("", Some(said));
    }
    if let Some((before, last)) = body.rsplit_once(char::is_whitespace) {
        if ["1-0", "0-1", "1/2-1/2", "½-½", "*"].contains(&last) {
            return (before.trim_end(), Said::of_word(last));
        }
    }
    (body, None)
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
