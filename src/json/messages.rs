//! The API's messages as Rust types, read and written by serde: the `game_state` of a Choose Turn request (its
//! board, hands, history and possible turns) and the three responses (Greetings, Choose Turn, Error).
//!
//! Owns the shape of the JSON only. What a `game_state` means as a position is `board`'s business; which turn to
//! answer, `choose`'s.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::names::{BugName, CellName, ColorName};

/// The `game_state` of a Choose Turn request, as the game core describes a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonGameState {
    /// The pieces on the board.
    pub board: JsonBoard,
    /// What each side has in hand: a count per bug name. Sides and bugs left out have none.
    pub hands: BTreeMap<ColorName, BTreeMap<BugName, u64>>,
    /// Whose turn it is.
    pub player_turn: ColorName,
    /// The turn number as the game core counts it (informative only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_number: Option<u64>,
    /// Whether the game has ended.
    #[serde(default)]
    pub game_over: bool,
    /// Who won, once the game is over.
    #[serde(default)]
    pub winner: Option<ColorName>,
    /// Whether the game ended in a draw.
    #[serde(default)]
    pub is_draw: bool,
    /// Which expansion pieces the game uses.
    pub creation_parameters: CreationParameters,
    /// The turns played, oldest first. Only the last one matters here: it tells which piece moved last.
    #[serde(default, deserialize_with = "null_as_default")]
    pub turn_history: Vec<PastTurn>,
    /// The turns the game core allows now.
    #[serde(default, deserialize_with = "null_as_default")]
    pub possible_turns: PossibleTurns,
}

/// The board: each occupied cell with its stack, bottom first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JsonBoard {
    /// Occupied cells and their stacks, bottom first.
    pub pieces: BTreeMap<CellName, Vec<JsonPiece>>,
}

/// One piece of a stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonPiece {
    /// Whose piece it is.
    pub color: ColorName,
    /// Which bug it is.
    #[serde(rename = "type")]
    pub bug: BugName,
}

/// The game type: which expansion pieces are in (left out: not in).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreationParameters {
    /// Whether the Mosquito is in the game.
    #[serde(default)]
    pub use_mosquito: bool,
    /// Whether the Ladybug is in the game.
    #[serde(default)]
    pub use_ladybug: bool,
    /// Whether the Pillbug is in the game.
    #[serde(default)]
    pub use_pillbug: bool,
}

/// The kinds of turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TurnType {
    /// A piece from the hand put on the board.
    Placement,
    /// A piece moving by itself.
    Movement,
    /// A piece carried by a Pillbug (or a Mosquito next to one).
    #[serde(rename = "Special Ability")]
    SpecialAbility,
    /// No turn: the side gives up its turn (or the game).
    Forfeit,
}

/// An entry of `turn_history`. Fields a kind of turn does not use are left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PastTurn {
    /// What kind of turn it was.
    pub turn_type: TurnType,
    /// The bug placed (a Placement).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece_type: Option<BugName>,
    /// Where the Pillbug (or Mosquito) that carried the piece stands (a Special Ability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability_user: Option<CellName>,
    /// Where the piece came from (a Movement or Special Ability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<CellName>,
    /// Where the piece went.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination: Option<CellName>,
}

/// The turns allowed now, by kind. A kind left out (or `null`) allows nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PossibleTurns {
    /// Placements: any of the piece types on any of the positions.
    #[serde(rename = "Placement", default, deserialize_with = "null_as_default")]
    pub placement: PlacementOptions,
    /// Movements: from each source, the destinations.
    #[serde(rename = "Movement", default, deserialize_with = "null_as_default")]
    pub movement: BTreeMap<CellName, Vec<CellName>>,
    /// Special abilities: from each ability user, for each source it can carry, the destinations.
    #[serde(rename = "Special Ability", default, deserialize_with = "null_as_default")]
    pub special_ability: BTreeMap<CellName, BTreeMap<CellName, Vec<CellName>>>,
}

/// The placements allowed: every piece type listed may go to every position listed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementOptions {
    /// The bugs that may be placed.
    #[serde(default, deserialize_with = "null_as_default")]
    pub piece_types: Vec<BugName>,
    /// The cells where they may be placed.
    #[serde(default, deserialize_with = "null_as_default")]
    pub positions: Vec<CellName>,
}

/// A turn as a Choose Turn response gives it (and as `possible_turns` lists it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "turn_type")]
pub enum Turn {
    /// Put a piece of `piece_type` from the hand on `destination`.
    Placement {
        /// The bug placed.
        piece_type: BugName,
        /// Where it goes.
        destination: CellName,
    },
    /// Move the piece on top at `source` to `destination`.
    Movement {
        /// Where the piece stands.
        source: CellName,
        /// Where it goes.
        destination: CellName,
    },
    /// The Pillbug (or Mosquito) at `ability_user` carries the piece at `source` to `destination`.
    #[serde(rename = "Special Ability")]
    SpecialAbility {
        /// Where the carrier stands.
        ability_user: CellName,
        /// Where the carried piece stands.
        source: CellName,
        /// Where it is set down.
        destination: CellName,
    },
    /// Give up the turn.
    Forfeit,
}

/// The identity Waggle gives in answer to Greetings (the fields of an AI module's package.json).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GreetingsResponse {
    /// Always `"Greetings"`.
    pub response_type: &'static str,
    /// The request's `request_id`, echoed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<Value>,
    /// The request's `request_id` again, under the key the API's own example uses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_id: Option<Value>,
    /// Short name: `"waggle"`.
    pub name: &'static str,
    /// Whether the module is fit to use: always true.
    pub active: bool,
    /// Waggle's version.
    pub version: &'static str,
    /// Display name: `"Waggle"`.
    pub long_name: &'static str,
    /// One line about Waggle.
    pub description: &'static str,
    /// Who wrote it.
    pub author: &'static str,
    /// The language it is written in.
    pub language: &'static str,
}

/// The turn Waggle chose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChooseTurnResponse {
    /// Always `"Choose Turn"`.
    pub response_type: &'static str,
    /// The request's `request_id`, echoed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<Value>,
    /// The request's `game_id`, echoed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<Value>,
    /// The turn: `turn_type` and its fields.
    #[serde(flatten)]
    pub turn: Turn,
}

/// A request Waggle could not answer, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorResponse {
    /// Always `"Error"`.
    pub response_type: &'static str,
    /// The request's `request_id`, when it had a usable one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<Value>,
    /// The request's `game_id`, when it had a usable one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<Value>,
    /// What was wrong, for the person reading it.
    pub message: String,
}

/// Read a value that may also be given as `null`, which means the same as leaving it out.
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}
