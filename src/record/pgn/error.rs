//! Why a text is not a PGN game record: each error names the line where it was found, in words for the person
//! who wrote or saved the file.

use crate::record::notation::NotationError;
use crate::rules::game_type::GameTypeError;

/// Text that is not a PGN game record. Every error names the line (counted from 1) where it was found.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum PgnError {
    /// A `GameType` tag that names no game type.
    #[error("line {line}: {reason}")]
    GameType {
        /// The line of the tag.
        line: usize,
        /// Why the value is not a game type.
        reason: GameTypeError,
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
