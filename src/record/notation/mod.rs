//! UHP notation: MoveStrings and GameStrings, parsed without a position (syntax) and then resolved against one
//! (meaning), and printed in the one canonical form.
//!
//! Owns text only: the errors of reading it and piece names here, MoveStrings in `move_string`, GameStrings (the
//! game record) in `game_string`. Whether a resolved move is legal is `legality`'s question.

mod game_string;
mod move_string;

pub use game_string::GameString;
pub use move_string::{line, MoveString};

use crate::rules::game_type::GameTypeError;
use crate::rules::legality::IllegalMove;
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::position::GameState;

/// Text that is not a valid MoveString or GameString.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum NotationError {
    /// Not a piece name.
    #[error("'{0}' is not a piece: expected a colour (w or b), a bug letter (Q S B G A M L P) and, for S B G A, a number, as in wQ, bS1, wA3")]
    Piece(String),
    /// Not a MoveString.
    #[error("'{0}' is not a MoveString: expected pass, a piece (wS1), or a piece and a reference such as wA1 -bQ, bB1 wS1/ or wB2 bQ")]
    Move(String),
    /// Not a GameTypeString.
    #[error(transparent)]
    GameType(#[from] GameTypeError),
    /// Not a GameStateString.
    #[error("'{0}' is not a game state: expected NotStarted, InProgress, Draw, WhiteWins or BlackWins")]
    GameState(String),
    /// Not a TurnString.
    #[error("'{0}' is not a turn: expected White[N] or Black[N]")]
    Turn(String),
    /// Nothing at all.
    #[error("the GameString is empty")]
    EmptyGameString,
    /// A field of a GameString left empty.
    #[error("field {number} of the GameString ({what}) is empty: fields are separated by single ';'")]
    EmptyField {
        /// The field, counted from 1.
        number: usize,
        /// What it should hold.
        what: String,
    },
}

/// A GameString that cannot be loaded.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GameStringError {
    /// Text that is not a GameString.
    #[error(transparent)]
    Syntax(#[from] NotationError),
    /// A move that cannot be played where it stands.
    #[error("move {number} ('{text}') cannot be played: {reason}")]
    Illegal {
        /// The move, counted from 1.
        number: usize,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        reason: IllegalMove,
    },
    /// A state field that the moves contradict.
    #[error("the GameString's state field says {written}, but its moves give {moves_give}{}", repetition_note(*.written, *.moves_give, *.repeated))]
    State {
        /// The state written.
        written: GameState,
        /// The state the moves reach.
        moves_give: GameState,
        /// Whether the last position occurs for the third time or more (a draw under the threefold repetition
        /// rule only).
        repeated: bool,
    },
    /// A turn field that the moves contradict.
    #[error("the GameString's turn field says {written}, but its moves give {moves_give}")]
    Turn {
        /// The turn written, as a TurnString.
        written: String,
        /// The turn the moves reach, as a TurnString.
        moves_give: String,
    },
}

/// Why a state field and the moves may disagree over a repetition: the writer played under the other rule.
fn repetition_note(written: GameState, moves_give: GameState, repeated: bool) -> &'static str {
    match (written, moves_give) {
        (GameState::Draw, GameState::InProgress) if repeated => {
            " (a position occurs for the third time, which is a draw only under the threefold repetition rule)"
        }
        (GameState::InProgress, GameState::Draw) if repeated => {
            " (a position occurs for the third time, a draw under the threefold repetition rule, which is on)"
        }
        _ => "",
    }
}

impl std::str::FromStr for Piece {
    type Err = NotationError;

    /// A piece name such as `wQ`, `bS2`, `wM` (any case).
    fn from_str(text: &str) -> Result<Piece, NotationError> {
        parse_piece(text)
    }
}

/// Parse a piece name such as `wQ`, `bS2`, `wM` (any case).
pub(crate) fn parse_piece(text: &str) -> Result<Piece, NotationError> {
    let err = || NotationError::Piece(text.to_string());
    let mut chars = text.chars();
    let color = match chars.next().map(|c| c.to_ascii_lowercase()) {
        Some('w') => Color::White,
        Some('b') => Color::Black,
        _ => return Err(err()),
    };
    let bug = chars.next().and_then(Bug::from_letter).ok_or_else(err)?;
    let rest = chars.as_str();
    let number = match (rest, bug.count()) {
        ("", 1) => 1,
        (digit, n) if n > 1 && digit.len() == 1 => digit.parse::<u8>().map_err(|_| err())?,
        _ => return Err(err()),
    };
    Piece::new(color, bug, number).ok_or_else(err)
}
