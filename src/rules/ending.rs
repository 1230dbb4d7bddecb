//! How a game ended: whose Queen was surrounded and by what (a Queen may lie under a Beetle that hides it), both
//! Queens at once, or the same position a third time (under the repetition rule). This only finds it; `draw`
//! says it in words (`draw::how_it_ended`).

use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::position::{GameState, Position};

/// A Queen surrounded: whose, what lies on it, and the pieces on top of the six cells around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Surrounded {
    /// Whose Queen.
    pub queen: Color,
    /// The pieces stacked on the Queen, bottom first (a Beetle or a Mosquito that climbed it), if any.
    pub covered_by: Vec<Piece>,
    /// The piece on top of each cell around the Queen.
    pub by: Vec<Piece>,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// One Queen surrounded: its owner lost.
    Won(Surrounded),
    /// Both Queens surrounded at once.
    BothQueens(Surrounded, Surrounded),
    /// The same position for the third time, with the same player to move.
    Repetition,
}

impl Ending {
    /// How `position`'s game ended, if it has.
    pub fn of(position: &Position) -> Option<Ending> {
        let state = position.state();
        if !state.is_over() {
            return None;
        }
        let white = surrounded(position, Color::White);
        let black = surrounded(position, Color::Black);
        Some(match (state, white, black) {
            (GameState::Draw, Some(white), Some(black)) => Ending::BothQueens(white, black),
            (GameState::Draw, _, _) => Ending::Repetition,
            (_, Some(white), None) => Ending::Won(white),
            (_, None, Some(black)) => Ending::Won(black),
            (_, Some(white), Some(black)) => Ending::BothQueens(white, black),
            // A state the board does not show (a record that said so): nothing more to tell.
            (_, None, None) => return None,
        })
    }

    /// The winner, if there is one.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Ending::Won(queen) => Some(queen.queen.opponent()),
            _ => None,
        }
    }
}

/// `color`'s Queen, if it is on the board and surrounded.
fn surrounded(position: &Position, color: Color) -> Option<Surrounded> {
    let queen = Piece::new(color, Bug::Queen, 1)?;
    let board = position.board();
    let hex = board.hex_of(queen)?;
    let by: Vec<Piece> = hex
        .neighbours()
        .into_iter()
        .filter_map(|cell| board.top(cell))
        .collect();
    if by.len() < 6 {
        return None;
    }
    let mut covered_by: Vec<Piece> = board.stack(hex).take_while(|&piece| piece != queen).collect();
    covered_by.reverse();
    Some(Surrounded {
        queen: color,
        covered_by,
        by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::game::Game;
    use crate::rules::position::Rules;

    fn position(text: &str) -> Position {
        Game::from_moves(&text.parse().unwrap(), Rules::default())
            .unwrap()
            .position()
            .clone()
    }

    #[test]
    fn a_surrounded_queen_is_named_with_what_surrounds_it() {
        let won = position(
            "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;wA2 \\wQ;\
             bA2 \\bG1;wG2 wQ/;bG1 wG2\\",
        );
        let ending = Ending::of(&won);
        let Some(Ending::Won(queen)) = &ending else {
            panic!("{ending:?} in {}", won.state().name());
        };
        assert_eq!(queen.by.len(), 6);
        assert_eq!(ending.as_ref().unwrap().winner(), Some(queen.queen.opponent()));
        assert!(queen.covered_by.is_empty(), "nothing on the Queen");
        assert!(Ending::of(&position("Base;InProgress;Black[1];wS1")).is_none());
    }
}
