//! A position as the page needs it, in JSON: the canonical GameString and record, whose turn, the game's state,
//! every stack bottom first on axial cells, both hands with their counts, the last move, and the legal moves
//! grouped by the piece they move (each with its destination cell), how a finished game ended, so that a click on a piece shows its targets
//! without another request. Every rule comes from `rules` and `record`: the page draws what this says.
//!
//! Cells are axial `(q, r)` (q to the east, r to the south-east, pointy-topped hexes) relative to the cell where a
//! game's first piece is placed, so that they stay put from move to move: the layout walks the hive (a board that
//! wraps around is never torn apart) and is then anchored at its first cell's place around that origin.

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Value};

use crate::draw::{how_it_ended, last_move};
use crate::record::game::Game;
use crate::rules::ending::Ending;
use crate::rules::hex::Hex;
use crate::rules::layout::Layout;
use crate::rules::moves::Move;
use crate::rules::piece::{Bug, Color};

/// The JSON state of `game` (docs/web.md lists the fields).
pub(crate) fn state_of(game: &Game) -> Value {
    let position = game.position();
    let board = position.board();
    let legal = if position.state().is_over() {
        Vec::new()
    } else {
        game.legal_moves()
    };
    let last = last_move(position);
    let mut extra: Vec<Hex> = legal.iter().filter_map(|mv| mv.to()).collect();
    extra.extend(last.and_then(|last| last.from).filter(|&hex| !board.is_occupied(hex)));
    let layout = Layout::of(board, &extra);
    let places = places(&layout);
    let cell = |hex: Hex| places.get(&hex).map(|&(q, r)| json!({"q": q, "r": r}));

    let cells: Vec<Value> = layout
        .cells()
        .iter()
        .filter(|placed| board.is_occupied(placed.hex))
        .map(|placed| {
            let mut stack: Vec<String> = board.stack(placed.hex).map(|piece| piece.to_string()).collect();
            stack.reverse();
            let (q, r) = places[&placed.hex];
            json!({"q": q, "r": r, "stack": stack})
        })
        .collect();

    let mut hands = serde_json::Map::new();
    for color in Color::ALL {
        let bugs: Vec<Value> = Bug::ALL
            .into_iter()
            .filter(|&bug| position.game_type().includes(bug))
            .map(|bug| {
                json!({
                    "bug": bug.letter().to_string(),
                    "name": bug.name(),
                    "count": position.in_hand(color, bug),
                    "next": position.next_in_hand(color, bug).map(|piece| piece.to_string()),
                })
            })
            .collect();
        hands.insert(color.name().to_string(), Value::Array(bugs));
    }

    let mut moves: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut pass = false;
    for &mv in &legal {
        let name = game.move_string(mv).to_string();
        match mv {
            Move::Pass => pass = true,
            Move::Place { piece, to } | Move::Move { piece, to } => {
                moves
                    .entry(piece.to_string())
                    .or_default()
                    .push(json!({"move": name, "to": cell(to)}));
            }
        }
    }

    let record: Vec<String> = game.record().iter().map(ToString::to_string).collect();
    let last = last.map(|last| {
        json!({
            "move": record.last(),
            "from": last.from.and_then(cell),
            "to": cell(last.to),
        })
    });
    let (to_move, turn) = (position.to_move(), position.turn_number());
    json!({
        "game": game.game_string().to_string(),
        "game_type": position.game_type().to_string(),
        "state": position.state().name(),
        "to_move": to_move.name(),
        "turn": turn,
        "ply": record.len(),
        "moves": record,
        "cells": cells,
        "hands": hands,
        "last": last,
        "legal": moves,
        "pass": pass,
        "ending": Ending::of(position).map(|ending| how_it_ended(&ending)),
    })
}

/// Where each laid-out cell goes: the layout's coordinates moved so that its first cell sits where that cell is
/// around the origin of the board's grid.
fn places(layout: &Layout) -> HashMap<Hex, (i32, i32)> {
    let Some(first) = layout.cells().first() else {
        return HashMap::new();
    };
    let (q0, r0) = first.hex.axial();
    layout
        .cells()
        .iter()
        .map(|placed| (placed.hex, (q0 + placed.q - first.q, r0 + placed.r - first.r)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Rules;

    fn game(text: &str) -> Game {
        Game::from_record(&text.parse().unwrap(), Rules::default()).unwrap()
    }

    #[test]
    fn cells_are_the_grid_s_own_around_the_origin() {
        let game = game("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
        let state = state_of(&game);
        let board = game.position().board();
        for cell in state["cells"].as_array().unwrap() {
            let top = cell["stack"]
                .as_array()
                .unwrap()
                .last()
                .unwrap()
                .as_str()
                .unwrap()
                .to_string();
            let hex = board
                .on_board()
                .into_iter()
                .find(|&piece| piece.to_string() == top)
                .and_then(|piece| board.hex_of(piece))
                .unwrap();
            assert_eq!(
                (cell["q"].as_i64().unwrap() as i32, cell["r"].as_i64().unwrap() as i32),
                hex.axial()
            );
        }
        assert_eq!(state["to_move"], "White");
        assert_eq!(state["ply"], 4);
    }

    #[test]
    fn the_legal_moves_are_grouped_by_piece_and_all_there() {
        let game = game("Base+MLP;InProgress;Black[2];wS1;bP wS1-;wQ -wS1");
        let state = state_of(&game);
        let listed: usize = state["legal"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_array().unwrap().len())
            .sum();
        assert_eq!(listed, game.legal_moves().len());
        for (piece, moves) in state["legal"].as_object().unwrap() {
            for mv in moves.as_array().unwrap() {
                assert!(mv["move"].as_str().unwrap().starts_with(piece.as_str()), "{mv}");
                assert!(mv["to"].is_object(), "every destination has a cell: {mv}");
            }
        }
        let hand = state["hands"]["Black"].as_array().unwrap();
        let pillbug = hand.iter().find(|bug| bug["bug"] == "P").unwrap();
        assert_eq!((pillbug["count"].as_u64(), pillbug["next"].is_null()), (Some(0), true));
        assert_eq!(hand.len(), 8, "every bug of Base+MLP");
    }

    #[test]
    fn stacks_read_bottom_first_and_the_last_move_is_outlined() {
        let game = game("Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bB1 bQ-;wB1 wQ");
        let state = state_of(&game);
        let stacked = state["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|cell| cell["stack"].as_array().unwrap().len() == 2)
            .unwrap();
        assert_eq!(stacked["stack"], json!(["wQ", "wB1"]));
        assert_eq!(state["last"]["move"], "wB1 wQ");
        assert_eq!(state["last"]["to"]["q"], stacked["q"]);
        assert!(state["last"]["from"].is_object());
    }
}
