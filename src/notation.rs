//! UHP notation: MoveStrings and GameStrings, parsed without a position (syntax) and then resolved against one
//! (meaning), and printed in the one canonical form.
//!
//! Owns text only. Whether a resolved move is legal is `legality`'s question.

use std::fmt;
use std::str::FromStr;

use crate::game_type::{GameType, GameTypeError};
use crate::hex::{Direction, Hex};
use crate::legality::IllegalMove;
use crate::moves::Move;
use crate::piece::{Bug, Color, Piece};
use crate::position::{GameState, Position};

/// Text that is not a valid MoveString or GameString.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum NotationError {
    #[error("'{0}' is not a piece: expected a colour (w or b), a bug letter (Q S B G A M L P) and, for S B G A, a number, as in wQ, bS1, wA3")]
    Piece(String),
    #[error("'{0}' is not a MoveString: expected pass, a piece (wS1), or a piece and a reference such as wA1 -bQ, bB1 wS1/ or wB2 bQ")]
    Move(String),
    #[error(transparent)]
    GameType(#[from] GameTypeError),
    #[error("'{0}' is not a game state: expected NotStarted, InProgress, Draw, WhiteWins or BlackWins")]
    GameState(String),
    #[error("'{0}' is not a turn: expected White[N] or Black[N]")]
    Turn(String),
    #[error("the GameString is empty")]
    EmptyGameString,
}

/// A GameString that cannot be loaded.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GameStringError {
    #[error(transparent)]
    Syntax(#[from] NotationError),
    #[error("move {number} ('{text}') cannot be played: {reason}")]
    Illegal {
        number: usize,
        text: String,
        reason: IllegalMove,
    },
}

/// Parse a piece name such as `wQ`, `bS2`, `wM` (any case).
pub fn parse_piece(text: &str) -> Result<Piece, NotationError> {
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

/// A MoveString as written, before it meets a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveString {
    /// `pass`.
    Pass,
    /// A piece with no reference: the first move of a game.
    Alone(Piece),
    /// A piece and where it goes: next to `reference` in `direction`, or on top of it when `direction` is `None`.
    Beside {
        piece: Piece,
        reference: Piece,
        direction: Option<Direction>,
    },
}

impl FromStr for MoveString {
    type Err = NotationError;

    /// Accepts any case, surrounding blanks and any run of blanks between the two parts.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words = s.split_whitespace();
        let (Some(first), second, None) = (words.next(), words.next(), words.next()) else {
            return Err(NotationError::Move(s.trim().to_string()));
        };
        if first.eq_ignore_ascii_case("pass") && second.is_none() {
            return Ok(MoveString::Pass);
        }
        let piece = parse_piece(first)?;
        let Some(reference) = second else {
            return Ok(MoveString::Alone(piece));
        };
        let (direction, name) = if let Some(name) = reference.strip_prefix('-') {
            (Some(Direction::West), name)
        } else if let Some(name) = reference.strip_prefix('/') {
            (Some(Direction::SouthWest), name)
        } else if let Some(name) = reference.strip_prefix('\\') {
            (Some(Direction::NorthWest), name)
        } else if let Some(name) = reference.strip_suffix('-') {
            (Some(Direction::East), name)
        } else if let Some(name) = reference.strip_suffix('/') {
            (Some(Direction::NorthEast), name)
        } else if let Some(name) = reference.strip_suffix('\\') {
            (Some(Direction::SouthEast), name)
        } else {
            (None, reference)
        };
        let reference = parse_piece(name).map_err(|_| NotationError::Move(s.trim().to_string()))?;
        Ok(MoveString::Beside {
            piece,
            reference,
            direction,
        })
    }
}

impl fmt::Display for MoveString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveString::Pass => f.write_str("pass"),
            MoveString::Alone(piece) => write!(f, "{piece}"),
            MoveString::Beside {
                piece,
                reference,
                direction,
            } => match direction {
                None => write!(f, "{piece} {reference}"),
                Some(Direction::East) => write!(f, "{piece} {reference}-"),
                Some(Direction::West) => write!(f, "{piece} -{reference}"),
                Some(Direction::NorthEast) => write!(f, "{piece} {reference}/"),
                Some(Direction::SouthWest) => write!(f, "{piece} /{reference}"),
                Some(Direction::SouthEast) => write!(f, "{piece} {reference}\\"),
                Some(Direction::NorthWest) => write!(f, "{piece} \\{reference}"),
            },
        }
    }
}

impl MoveString {
    /// The move this MoveString names in `pos`: the piece placed if it is in hand, moved if it is on the board.
    /// Reference positions are taken before the move, so a piece may name itself. Whether the move is legal is
    /// not checked here.
    pub fn to_move(self, pos: &Position) -> Result<Move, IllegalMove> {
        let game = pos.game_type();
        let (piece, to) = match self {
            MoveString::Pass => return Ok(Move::Pass),
            MoveString::Alone(piece) => {
                check_in_game(game, piece)?;
                if pos.board().piece_count() != 0 {
                    return Err(IllegalMove::NeedsReference(piece));
                }
                (piece, Hex::ORIGIN)
            }
            MoveString::Beside {
                piece,
                reference,
                direction,
            } => {
                check_in_game(game, piece)?;
                check_in_game(game, reference)?;
                let Some(at) = pos.board().hex_of(reference) else {
                    return Err(IllegalMove::ReferenceNotOnBoard(reference));
                };
                (piece, direction.map_or(at, |d| at.step(d)))
            }
        };
        Ok(if pos.board().is_on_board(piece) {
            Move::Move { piece, to }
        } else {
            Move::Place { piece, to }
        })
    }

    /// The canonical MoveString of `mv` in `pos` (before it is played), in Mzinga's form: climbing names the top of
    /// the stack climbed; otherwise, with the mover lifted, the top of the first occupied neighbour of the
    /// destination looking NW, NE, E, SE, SW, W.
    pub fn from_move(pos: &Position, mv: Move) -> MoveString {
        let (piece, to) = match mv {
            Move::Pass => return MoveString::Pass,
            Move::Place { piece, to } | Move::Move { piece, to } => (piece, to),
        };
        let board = pos.board();
        let from = match mv {
            Move::Move { .. } => board.hex_of(piece),
            _ => None,
        };
        // The top of a cell once the mover is lifted.
        let top = |hex: Hex| -> Option<Piece> {
            if Some(hex) == from {
                board.below(piece)
            } else {
                board.top(hex)
            }
        };
        if let Some(reference) = top(to) {
            return MoveString::Beside {
                piece,
                reference,
                direction: None,
            };
        }
        for dir in Direction::ALL {
            if let Some(reference) = top(to.step(dir)) {
                return MoveString::Beside {
                    piece,
                    reference,
                    direction: Some(dir.opposite()),
                };
            }
        }
        MoveString::Alone(piece)
    }
}

fn check_in_game(game: GameType, piece: Piece) -> Result<(), IllegalMove> {
    if game.includes(piece.bug()) {
        Ok(())
    } else {
        Err(IllegalMove::NotInGame(piece, game))
    }
}

/// The canonical MoveString of `mv` in `pos`, as text.
pub fn move_string(pos: &Position, mv: Move) -> String {
    MoveString::from_move(pos, mv).to_string()
}

/// A GameString split into its fields, before its moves are replayed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameString {
    /// The game type.
    pub game_type: GameType,
    /// The state field, as written (never trusted).
    pub state: Option<GameState>,
    /// The turn field, as written (never trusted).
    pub turn: Option<(Color, usize)>,
    /// The moves, in order.
    pub moves: Vec<MoveString>,
}

impl FromStr for GameString {
    type Err = NotationError;

    /// Accepts a bare GameTypeString too, and blanks around every field.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut fields = s.trim().split(';').map(str::trim);
        let game_type = match fields.next() {
            Some("") | None => return Err(NotationError::EmptyGameString),
            Some(text) => text.parse::<GameType>()?,
        };
        let state = fields
            .next()
            .map(|text| GameState::from_name(text).ok_or_else(|| NotationError::GameState(text.to_string())))
            .transpose()?;
        let turn = fields.next().map(parse_turn).transpose()?;
        let moves = fields.map(str::parse).collect::<Result<Vec<MoveString>, _>>()?;
        Ok(GameString {
            game_type,
            state,
            turn,
            moves,
        })
    }
}

/// Parse a TurnString such as `White[3]`.
fn parse_turn(text: &str) -> Result<(Color, usize), NotationError> {
    let err = || NotationError::Turn(text.to_string());
    let (name, rest) = text.split_once('[').ok_or_else(err)?;
    let number = rest.strip_suffix(']').ok_or_else(err)?;
    let color = Color::ALL
        .into_iter()
        .find(|c| c.name().eq_ignore_ascii_case(name.trim()))
        .ok_or_else(err)?;
    let number = number.trim().parse::<usize>().map_err(|_| err())?;
    if number == 0 {
        return Err(err());
    }
    Ok((color, number))
}

impl Position {
    /// Load a GameString (or a bare GameTypeString): every move is replayed with full validation; the state and
    /// turn fields are not trusted.
    pub fn from_game_string(text: &str) -> Result<Position, GameStringError> {
        let parsed: GameString = text.parse()?;
        let mut pos = Position::new(parsed.game_type);
        for (i, ms) in parsed.moves.iter().enumerate() {
            let illegal = |reason| GameStringError::Illegal {
                number: i + 1,
                text: ms.to_string(),
                reason,
            };
            let mv = ms.to_move(&pos).map_err(illegal)?;
            pos.try_play(mv).map_err(illegal)?;
        }
        Ok(pos)
    }

    /// The GameString of this game: type, state, turn and every move in canonical form.
    pub fn game_string(&self) -> String {
        let mut replay = Position::new(self.game_type());
        let mut text = format!("{};{};{}", self.game_type(), self.state(), self.turn_string());
        for mv in self.moves() {
            text.push(';');
            text.push_str(&move_string(&replay, mv));
            replay.play(mv);
        }
        text
    }

    /// The TurnString: whose turn it is and the turn number, as `White[3]`.
    pub fn turn_string(&self) -> String {
        format!("{}[{}]", self.to_move().name(), self.turn_number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_strings_round_trip_as_text() {
        for text in [
            "pass",
            "wQ",
            "wS1 bQ-",
            "bA3 -wQ",
            "wB1 bQ",
            "wG2 /bL",
            "bM wP\\",
            "wA1 \\bS2",
            "wL bG3/",
        ] {
            let parsed: MoveString = text.parse().unwrap();
            assert_eq!(parsed.to_string(), text);
        }
        assert_eq!("  WS1   BQ-  ".parse::<MoveString>().unwrap().to_string(), "wS1 bQ-");
    }

    #[test]
    fn bad_move_strings_are_rejected() {
        for text in [
            "",
            "wQ2",
            "wS",
            "wS3",
            "xQ",
            "wQ bQ -",
            "wQ -bQ-",
            "wQ bX",
            "wA1 bQ wS1",
            "passs",
            "wQ //bQ",
        ] {
            assert!(text.parse::<MoveString>().is_err(), "{text}");
        }
    }

    #[test]
    fn game_strings_parse_fields() {
        let g: GameString = "Base+M;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1".parse().unwrap();
        assert_eq!(g.game_type.to_string(), "Base+M");
        assert_eq!(g.state, Some(GameState::InProgress));
        assert_eq!(g.turn, Some((Color::Black, 2)));
        assert_eq!(g.moves.len(), 3);
        for bad in [
            "",
            "Base;Running",
            "Base;InProgress;Red[1]",
            "Base;InProgress;White[0]",
            "Base;InProgress;White[1];wQ9",
        ] {
            assert!(bad.parse::<GameString>().is_err(), "{bad}");
        }
    }
}
