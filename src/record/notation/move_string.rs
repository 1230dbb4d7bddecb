//! MoveStrings: `wS1`, `bA2 -wQ`, `wB1 bQ`, `pass`. Parsed without a position, resolved against one, and printed
//! in Mzinga's canonical form.

use std::fmt;
use std::str::FromStr;

use super::{parse_piece, NotationError};
use crate::rules::game_type::GameType;
use crate::rules::hex::{Direction, Hex};
use crate::rules::legality::IllegalMove;
use crate::rules::moves::Move;
use crate::rules::piece::{Bug, Piece};
use crate::rules::position::Position;

/// A MoveString as written, before it meets a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveString {
    /// `pass`.
    Pass,
    /// A piece with no reference: the first move of a game.
    Alone(Piece),
    /// A piece and where it goes: next to `reference` in `direction`, or on top of it when `direction` is `None`.
    Beside {
        /// The piece that moves or is placed.
        piece: Piece,
        /// The piece its destination is named from.
        reference: Piece,
        /// Where from the reference: beside it in this direction, or on top of it for `None`.
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

impl MoveString {
    /// A MoveString as other programs' records write it: as [`str::parse`], and a bug of which each side has
    /// one may carry the number 1 (`wM1`, `bQ1 -wL1`), as older records name it; the number is not kept, so the
    /// move is written back in the standard form (`wM`). An error names the text as written.
    pub fn parse_recorded(text: &str) -> Result<MoveString, NotationError> {
        let standard: Vec<String> = text.split_whitespace().map(without_lone_number).collect();
        // A name is only changed into one that reads, so a piece named in an error is named as it was written.
        standard.join(" ").parse().map_err(|e| match e {
            NotationError::Move(_) => NotationError::Move(text.trim().to_string()),
            other => other,
        })
    }
}

/// `word` (a piece, or a piece and the mark of a direction) with the `1` after the letter of a lone bug dropped.
fn without_lone_number(word: &str) -> String {
    let (before, rest) = word.split_at(word.len() - word.trim_start_matches(['-', '/', '\\']).len());
    let name_end = rest.find(['-', '/', '\\']).unwrap_or(rest.len());
    let (name, after) = rest.split_at(name_end);
    let mut chars = name.chars();
    let (_, letter) = (chars.next(), chars.next());
    let lone = chars.as_str() == "1" && letter.and_then(Bug::from_letter).is_some_and(|bug| bug.count() == 1);
    let name = if lone { &name[..name.len() - 1] } else { name };
    format!("{before}{name}{after}")
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
                // The other side's piece in hand is never this side's to place, reference or not.
                if piece.color() != pos.to_move() && !pos.board().is_on_board(piece) {
                    return Err(IllegalMove::NotYourTurn(piece));
                }
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

/// The canonical MoveStrings of `moves` played one after another from `start`: a game record from its start
/// position, or a principal variation from the position searched. Each move must be legal where it is played.
pub fn line(start: &Position, moves: impl IntoIterator<Item = Move>) -> Vec<MoveString> {
    let mut pos = start.clone();
    moves
        .into_iter()
        .map(|mv| {
            let name = MoveString::from_move(&pos, mv);
            pos.play_unchecked(mv);
            name
        })
        .collect()
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
    fn recorded_moves_may_number_a_lone_bug() {
        for (text, standard) in [
            ("wM1", "wM"),
            ("bL1 wS1/", "bL wS1/"),
            ("wP1 -bQ1", "wP -bQ"),
            ("bA1 \\wM1", "bA1 \\wM"),
            ("wQ1", "wQ"),
            ("wS1 wP1", "wS1 wP"),
            ("pass", "pass"),
        ] {
            assert_eq!(
                MoveString::parse_recorded(text).map(|mv| mv.to_string()),
                Ok(standard.to_string())
            );
        }
        for bad in [
            "wM2",
            "wA",
            "wM11",
            "wQ1 -wX",
            "bL1 wS1/ x",
            "wé",
            "wé1",
            "é",
            "wM1 é1/",
        ] {
            assert!(MoveString::parse_recorded(bad).is_err(), "{bad}");
        }
        assert_eq!(
            MoveString::parse_recorded("wM2 wS1/"),
            Err(NotationError::Piece("wM2".to_string()))
        );
        assert_eq!(
            MoveString::parse_recorded("bL1  wX1/"),
            Err(NotationError::Move("bL1  wX1/".to_string()))
        );
        assert!("wM1".parse::<MoveString>().is_err(), "UHP itself stays strict");
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
}
