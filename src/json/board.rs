//! A `game_state` as a Waggle position and back: the board's stacks on the API's grid become a [`Setup`] (axial
//! cells: `q = (x - y) / 2`, `r = y`), checked by [`Position::from_setup`]; a position becomes a `game_state` with
//! the `possible_turns` Waggle allows.
//!
//! The board is what counts: the history is never replayed (a game core's history may not even lead to its
//! board); only its last turn is read, to learn which piece moved last (the one the Pillbug may not touch).

use std::collections::BTreeMap;

use crate::rules::game_type::GameType;
use crate::rules::hex::Hex;
use crate::rules::moves::Move;
use crate::rules::piece::{Bug, Color};
use crate::rules::position::{GameState, Position, Rules};
use crate::rules::setup::{Cell, Setup};

use super::carries::ability_users;
use super::error::RequestError;
use super::frame::Frame;
use super::messages::{CreationParameters, JsonBoard, JsonGameState, JsonPiece, PastTurn, TurnType};
use super::names::{BugName, ColorName};
use super::turns::{possible_turns_of, WaggleTurns};

/// A position read from a `game_state`.
#[derive(Clone)]
pub struct ReadPosition {
    /// The position the board describes.
    pub position: Position,
    /// Where the hive's north-west corner is on the API's grid (axial; `(0, 0)` for an empty board): the
    /// position's cells are named from it.
    pub corner: Cell,
    /// What was odd about the request but could be read past (a last turn that points at an empty cell).
    pub notes: Vec<String>,
}

/// The game type of `params`.
pub fn game_type_of(params: CreationParameters) -> GameType {
    GameType::new(params.use_mosquito, params.use_ladybug, params.use_pillbug)
}

/// The [`Setup`] that `state` describes (not yet checked for being a position of Hive), and notes on what was
/// read past.
pub fn setup_of(state: &JsonGameState) -> Result<(Setup, Vec<String>), RequestError> {
    let mut notes = Vec::new();
    let stacks = state
        .board
        .pieces
        .iter()
        .map(|(cell, stack)| (cell.axial(), stack.iter().map(|p| (p.color.0, p.bug.0)).collect()))
        .collect();
    let hands = Color::ALL.map(|color| {
        state
            .hands
            .get(&ColorName(color))
            .map(|hand| {
                // A count past 255 is as impossible as one past 3: the setup refuses both.
                let count = |n: u64| u8::try_from(n).unwrap_or(u8::MAX);
                hand.iter().map(|(bug, &n)| (bug.0, count(n))).collect()
            })
            .unwrap_or_default()
    });
    let last_moved_to = match state.turn_history.last() {
        Some(&PastTurn {
            turn_type: kind @ (TurnType::Movement | TurnType::SpecialAbility),
            destination,
            ..
        }) => {
            let name = if kind == TurnType::Movement {
                "Movement"
            } else {
                "Special Ability"
            };
            let cell = destination.ok_or(RequestError::HistoryWithoutDestination(name))?;
            if state.board.pieces.get(&cell).is_some_and(|stack| !stack.is_empty()) {
                Some(cell.axial())
            } else {
                notes.push(format!(
                    "the last turn of turn_history ({name} to {cell}) ends on an empty cell: no piece is taken to \
                     have moved last"
                ));
                None
            }
        }
        _ => None,
    };
    let setup = Setup {
        game_type: game_type_of(state.creation_parameters),
        stacks,
        hands,
        to_move: state.player_turn.0,
        last_moved_to,
    };
    Ok((setup, notes))
}

/// The position `state` describes; an error when it is no position of Hive.
pub fn position_of(state: &JsonGameState) -> Result<ReadPosition, RequestError> {
    let (setup, notes) = setup_of(state)?;
    let position = Position::from_setup(&setup, Rules::default()).map_err(|e| RequestError::board(&e))?;
    let corner = (
        setup.stacks.iter().map(|s| s.0 .0).min().unwrap_or(0),
        setup.stacks.iter().map(|s| s.0 .1).min().unwrap_or(0),
    );
    Ok(ReadPosition {
        position,
        corner,
        notes,
    })
}

/// The `game_state` of `pos`, as a game core would send it: the board placed with its north-west corner at
/// axial `(0, 0)` (so `x + y` even as always, and the top row at `y = 0`), the hands, whose turn it is, the game
/// type, whether the game is over, the last turn as `turn_history` when it is known (enough for the Pillbug's
/// rule; the turns before it are left out) and `possible_turns` built from Waggle's legal moves.
pub fn game_state_of(pos: &Position) -> JsonGameState {
    let board = pos.board();
    let turns = WaggleTurns::of(pos, CORNER);
    let frame = &turns.frame;
    let mut pieces = BTreeMap::new();
    for piece in board.on_board().iter() {
        let Some((hex, name)) = board.hex_of(piece).and_then(|hex| Some((hex, frame.name(hex)?))) else {
            continue;
        };
        pieces.entry(name).or_insert_with(|| {
            let mut stack: Vec<JsonPiece> = board
                .stack(hex)
                .map(|p| JsonPiece {
                    color: ColorName(p.color()),
                    bug: BugName(p.bug()),
                })
                .collect();
            stack.reverse();
            stack
        });
    }
    let hands = Color::ALL
        .into_iter()
        .map(|color| {
            let hand = Bug::ALL
                .into_iter()
                .map(|bug| (BugName(bug), u64::from(pos.in_hand(color, bug))))
                .filter(|&(_, n)| n > 0)
                .collect();
            (ColorName(color), hand)
        })
        .collect();
    let game_type = pos.game_type();
    let state = pos.state();
    JsonGameState {
        board: JsonBoard { pieces },
        hands,
        player_turn: ColorName(pos.to_move()),
        turn_number: Some(pos.turn_number() as u64),
        game_over: state.is_over(),
        winner: match state {
            GameState::WhiteWins => Some(ColorName(Color::White)),
            GameState::BlackWins => Some(ColorName(Color::Black)),
            _ => None,
        },
        is_draw: state == GameState::Draw,
        creation_parameters: CreationParameters {
            use_mosquito: game_type.includes(Bug::Mosquito),
            use_ladybug: game_type.includes(Bug::Ladybug),
            use_pillbug: game_type.includes(Bug::Pillbug),
        },
        turn_history: last_turn(pos, frame).into_iter().collect(),
        possible_turns: possible_turns_of(pos, &turns),
    }
}

/// Where [`game_state_of`] puts the hive's north-west corner (axial).
const CORNER: Cell = (0, 0);

/// The last turn of `pos` on the grid of `frame` (whose corner is [`CORNER`]), as far as it is known: the whole turn
/// when the position has its history, only where the piece that moved last stands when it was set up.
fn last_turn(pos: &Position, frame: &Frame) -> Option<PastTurn> {
    let board = pos.board();
    let turn = |turn_type| PastTurn {
        turn_type,
        piece_type: None,
        ability_user: None,
        source: None,
        destination: None,
    };
    match pos.last_move() {
        Some(Move::Place { piece, to }) => Some(PastTurn {
            piece_type: Some(BugName(piece.bug())),
            destination: frame.name(to),
            ..turn(TurnType::Placement)
        }),
        Some(Move::Pass) => Some(turn(TurnType::Forfeit)),
        Some(Move::Move { piece, to }) => {
            let mut before = pos.clone();
            before.undo();
            let from = before.board().hex_of(piece)?;
            // The cell the piece left may be empty now: name it through its neighbours.
            let named = |hex: Hex| frame.name(hex).or_else(|| Frame::new(board, &[hex], CORNER).name(hex));
            let user = (piece.color() != before.to_move())
                .then(|| ability_users(&before, from, to).first().copied())
                .flatten();
            Some(PastTurn {
                ability_user: user.and_then(named),
                source: named(from),
                destination: frame.name(to),
                ..turn(if user.is_some() {
                    TurnType::SpecialAbility
                } else {
                    TurnType::Movement
                })
            })
        }
        None => pos.stunned().and_then(|piece| board.hex_of(piece)).map(|hex| PastTurn {
            destination: frame.name(hex),
            ..turn(TurnType::Movement)
        }),
    }
}
