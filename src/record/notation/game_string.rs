//! GameStrings: `Base+MLP;InProgress;White[3];wS1;bS1 wS1-;…`, the game record that UHP, PGN files and the JSON
//! API all read and write. Parsed field by field without a position; loading one replays every move with full
//! validation.

use std::fmt;
use std::str::FromStr;

use super::{line, GameStringError, MoveString, NotationError};
use crate::rules::game_type::GameType;
use crate::rules::piece::{Bug, Color};
use crate::rules::position::{GameState, Opening, Position, Rules};

/// A GameString split into its fields: the game record. Parsed from text, its state and turn fields are as
/// written and never trusted; made from a game ([`GameString::of`]), they are the game's and the moves are canonical.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameString {
    /// The game type.
    pub game_type: GameType,
    /// The state field.
    pub state: Option<GameState>,
    /// The turn field.
    pub turn: Option<(Color, usize)>,
    /// The moves, in order.
    pub moves: Vec<MoveString>,
}

impl GameString {
    /// The record of `pos`: its type, state and turn, and every move of its game in canonical form.
    pub fn of(pos: &Position) -> GameString {
        GameString::with_moves(
            pos,
            line(
                &Position::with_opening(pos.game_type(), pos.rules(), pos.opening()),
                pos.moves(),
            ),
        )
    }

    /// How the game this record describes opened, as Waggle decides it for a record: without the tournament rule
    /// ([`Opening::Free`]) when one of its first two moves places a Queen, which only a game played before the rule
    /// does; otherwise under it. A record cannot say more: a game under the rule looks the same as one without it
    /// whose Queens came out later.
    pub fn opening(&self) -> Opening {
        let queen_first = self.moves.iter().take(2).any(|mv| match mv {
            MoveString::Pass => false,
            MoveString::Alone(piece) | MoveString::Beside { piece, .. } => piece.bug() == Bug::Queen,
        });
        if queen_first {
            Opening::Free
        } else {
            Opening::Tournament
        }
    }

    /// The record of `pos` with its moves already named (in canonical form, as a game keeps them).
    pub fn with_moves(pos: &Position, moves: Vec<MoveString>) -> GameString {
        GameString {
            game_type: pos.game_type(),
            state: Some(pos.state()),
            turn: Some((pos.to_move(), pos.turn_number())),
            moves,
        }
    }
}

impl From<GameType> for GameString {
    /// The record of a game of `game_type` not yet started.
    fn from(game_type: GameType) -> GameString {
        GameString {
            game_type,
            state: None,
            turn: None,
            moves: Vec::new(),
        }
    }
}

impl fmt::Display for GameString {
    /// `GameType;GameState;Turn;Move1;…`, as far as the fields are known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.game_type)?;
        if let Some(state) = self.state {
            write!(f, ";{state}")?;
            if let Some((color, number)) = self.turn {
                write!(f, ";{}[{number}]", color.name())?;
                for mv in &self.moves {
                    write!(f, ";{mv}")?;
                }
            }
        }
        Ok(())
    }
}

impl FromStr for GameString {
    type Err = NotationError;

    /// Accepts a bare GameTypeString too, blanks around every field, and one empty field at the end (game servers
    /// build GameStrings that end in `;`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut fields: Vec<&str> = s.trim().split(';').map(str::trim).collect();
        if fields.len() > 1 && fields.last() == Some(&"") {
            fields.pop();
        }
        if fields == [""] {
            return Err(NotationError::EmptyGameString);
        }
        if let Some(empty) = fields.iter().position(|f| f.is_empty()) {
            let what = match empty {
                0 => "the game type".to_string(),
                1 => "the game state".to_string(),
                2 => "the turn".to_string(),
                n => format!("move {}", n - 2),
            };
            return Err(NotationError::EmptyField {
                number: empty + 1,
                what,
            });
        }
        let mut fields = fields.into_iter();
        let game_type = fields.next().unwrap_or_default().parse::<GameType>()?;
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
    /// Replay the moves of `record` from the start of its game type under `rules` and `opening`, each checked (for
    /// [`crate::record::game::Game::from_record`], the one way in).
    pub(crate) fn load(record: &GameString, rules: Rules, opening: Opening) -> Result<Position, GameStringError> {
        let mut pos = Position::with_opening(record.game_type, rules, opening);
        for (i, ms) in record.moves.iter().enumerate() {
            let illegal = |reason| GameStringError::Illegal {
                number: i + 1,
                text: ms.to_string(),
                reason,
            };
            let mv = ms.to_move(&pos).map_err(illegal)?;
            pos.play(mv).map_err(illegal)?;
        }
        Ok(pos)
    }

    /// The GameString of this game: type, state, turn and every move in canonical form.
    pub fn game_string(&self) -> String {
        GameString::of(self).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn one_empty_field_at_the_end_is_forgiven_and_any_other_is_named() {
        let g: GameString = "Base;InProgress;Black[1];wS1;".parse().unwrap();
        assert_eq!(g.moves.len(), 1);
        assert_eq!(g.to_string(), "Base;InProgress;Black[1];wS1");
        assert_eq!("Base;".parse::<GameString>().unwrap().to_string(), "Base");
        let named = |text: &str| text.parse::<GameString>().unwrap_err().to_string();
        assert!(named("Base;InProgress;Black[1];wS1;;").contains("field 5 of the GameString (move 2)"));
        assert!(named("Base;InProgress;;wS1").contains("field 3 of the GameString (the turn)"));
        assert!(named(";InProgress").contains("field 1 of the GameString (the game type)"));
        assert!(named("Base;;").contains("field 2 of the GameString (the game state)"));
        assert_eq!("  ".parse::<GameString>(), Err(NotationError::EmptyGameString));
    }

    #[test]
    fn the_record_of_a_game_prints_as_its_game_string() {
        let text = "Base+M;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
        let pos = crate::record::tests::position(text);
        let record = GameString::of(&pos);
        assert_eq!(record.to_string(), text);
        assert_eq!(record.to_string().parse::<GameString>(), Ok(record));
    }
}
