//! What a person types in `waggle play`: a move, or one of a few words. Parsing only; nothing here touches the
//! game.

use crate::record::notation::{parse_piece, MoveString, NotationError};
use crate::rules::piece::Piece;

/// One line of the person's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Nothing (an empty line).
    Nothing,
    /// A move: a MoveString or `pass`.
    Move(MoveString),
    /// Take back the last move of each side.
    Undo,
    /// Ask the engine what it would play.
    Hint,
    /// Give up, with an optional reason.
    Resign(Option<String>),
    /// Save the game as a Mzinga `.pgn` file.
    Save(String),
    /// Mark where a piece may go.
    Show(Piece),
    /// Draw the board again.
    Board,
    /// The list of commands.
    Help,
    /// Leave.
    Quit,
}

/// A word of the game typed without what it needs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// `save` without a file name.
    #[error("save needs a file name, for example: save game.pgn")]
    SaveWhere,
    /// `show` (or `moves`) without a piece.
    #[error("{0} needs a piece, for example: {0} wA1")]
    WhichPiece(String),
    /// Neither a word of the game nor a MoveString.
    #[error("That move cannot be played: {0}")]
    NotAMove(NotationError),
    /// `show` (or `moves`) with something that is not a piece.
    #[error("{word}: {reason}")]
    NotAPiece {
        /// The word typed: `show` or `moves`.
        word: String,
        /// Why what followed it is no piece.
        reason: NotationError,
    },
}

/// Read one line: a word the game knows, or else a move (whether it can be played is checked when it is).
pub fn parse(line: &str) -> Result<Input, InputError> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    };
    Ok(match word.to_ascii_lowercase().as_str() {
        "" => Input::Nothing,
        "undo" | "takeback" if rest.is_empty() => Input::Undo,
        "hint" if rest.is_empty() => Input::Hint,
        "resign" | "forfeit" => Input::Resign((!rest.is_empty()).then(|| rest.to_string())),
        "save" if rest.is_empty() => return Err(InputError::SaveWhere),
        "save" => Input::Save(rest.to_string()),
        "show" | "moves" if rest.is_empty() => return Err(InputError::WhichPiece(word.to_string())),
        "show" | "moves" => match parse_piece(rest) {
            Ok(piece) => Input::Show(piece),
            Err(reason) => {
                return Err(InputError::NotAPiece {
                    word: word.to_string(),
                    reason,
                })
            }
        },
        "board" if rest.is_empty() => Input::Board,
        "help" | "?" if rest.is_empty() => Input::Help,
        "quit" | "exit" if rest.is_empty() => Input::Quit,
        "play" if !rest.is_empty() => Input::Move(rest.parse().map_err(InputError::NotAMove)?),
        _ => Input::Move(line.parse().map_err(InputError::NotAMove)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_moves() {
        assert_eq!(parse("  "), Ok(Input::Nothing));
        assert_eq!(parse("UNDO"), Ok(Input::Undo));
        assert_eq!(parse("resign"), Ok(Input::Resign(None)));
        assert_eq!(
            parse("resign  I am tired "),
            Ok(Input::Resign(Some("I am tired".into())))
        );
        assert_eq!(parse("save my game.pgn"), Ok(Input::Save("my game.pgn".into())));
        assert!(parse("save").is_err());
        assert_eq!(parse("show wa1"), Ok(Input::Show(parse_piece("wA1").unwrap())));
        assert_eq!(
            parse("show zz").unwrap_err().to_string(),
            format!("show: {}", NotationError::Piece("zz".into()))
        );
        assert!(parse("show zz")
            .unwrap_err()
            .to_string()
            .starts_with("show: 'zz' is not a piece"));
        assert_eq!(
            parse("moves").unwrap_err().to_string(),
            "moves needs a piece, for example: moves wA1"
        );
        let name = |text: &str| text.parse::<MoveString>().unwrap();
        assert_eq!(parse("wS1"), Ok(Input::Move(name("wS1"))));
        assert_eq!(parse("play bA1 -wS1"), Ok(Input::Move(name("bA1 -wS1"))));
        assert_eq!(parse("pass"), Ok(Input::Move(MoveString::Pass)));
        assert!(matches!(parse("wX9"), Err(InputError::NotAMove(_))));
        assert_eq!(parse("quit"), Ok(Input::Quit));
    }
}
