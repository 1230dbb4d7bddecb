//! Reading one request: the JSON text to a [`Request`], with the ids to echo kept apart so that even a request
//! that fails later is answered under its `request_id`.
//!
//! Owns what a request must look like (an object, a known `request_type`, fields of the right types) and the early
//! refusals that keep hostile input cheap (boards with more pieces than the game has). What the game state means
//! is `board`'s business.

use serde_json::{Map, Value};

use super::error::RequestError;
use super::messages::JsonGameState;

/// The most pieces a board can hold: both sides' fourteen.
pub const MAX_PIECES: usize = 28;

/// What a request asks.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Who is this? (`"Greetings"`)
    Greetings,
    /// Which turn, in this game? (`"Choose Turn"`)
    ChooseTurn(Box<ChooseTurn>),
}

/// A Choose Turn request's content.
#[derive(Clone, Debug, PartialEq)]
pub struct ChooseTurn {
    /// When the request was sent, in milliseconds since the epoch (by the sender's clock).
    pub request_timestamp: Option<f64>,
    /// When the answer is due, in milliseconds since the epoch (by the sender's clock).
    pub response_deadline: Option<f64>,
    /// The game: board, hands, history and the turns allowed.
    pub game_state: JsonGameState,
}

/// The ids a response echoes: each a string or a number, as the request gave it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ids {
    /// The request's `request_id`.
    pub request_id: Option<Value>,
    /// The request's `game_id`.
    pub game_id: Option<Value>,
}

/// Read a request: the ids to echo (as far as they could be read) and the request, or why it cannot be answered.
pub fn read_request(text: &str) -> (Ids, Result<Request, RequestError>) {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return (Ids::default(), Err(RequestError::NotJson(e.to_string()))),
    };
    let Value::Object(mut object) = value else {
        return (Ids::default(), Err(RequestError::NotObject));
    };
    let request_id = id(&object, "request_id");
    let game_id = id(&object, "game_id");
    let ids = Ids {
        request_id: request_id.clone().ok().flatten(),
        game_id: game_id.clone().ok().flatten(),
    };
    let request = request_id.and(game_id).and_then(|_| request_of(&mut object));
    (ids, request)
}

/// The request an object asks, its ids already read.
fn request_of(object: &mut Map<String, Value>) -> Result<Request, RequestError> {
    let kind = match object.get("request_type") {
        None | Some(Value::Null) => return Err(RequestError::NoRequestType),
        Some(Value::String(kind)) => kind.as_str(),
        Some(other) => return Err(RequestError::UnknownRequest(shortened(other))),
    };
    match kind {
        "Greetings" => Ok(Request::Greetings),
        "Choose Turn" => Ok(Request::ChooseTurn(Box::new(ChooseTurn {
            request_timestamp: milliseconds(object, "request_timestamp")?,
            response_deadline: milliseconds(object, "response_deadline")?,
            game_state: game_state(object)?,
        }))),
        _ => Err(RequestError::UnknownRequest(shortened(&Value::String(
            kind.to_string(),
        )))),
    }
}

/// An id to echo: a string or a number; `null` or left out is none.
fn id(object: &Map<String, Value>, field: &'static str) -> Result<Option<Value>, RequestError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(value @ (Value::String(_) | Value::Number(_))) => Ok(Some(value.clone())),
        Some(_) => Err(RequestError::Field {
            field,
            message: "expected a string or a number".into(),
        }),
    }
}

/// A time in milliseconds since the epoch; `null` or left out is none.
fn milliseconds(object: &Map<String, Value>, field: &'static str) -> Result<Option<f64>, RequestError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64()),
        Some(_) => Err(RequestError::Field {
            field,
            message: "expected a number of milliseconds since the epoch".into(),
        }),
    }
}

/// The `game_state`, refused early when its board lists more pieces than a game has.
fn game_state(object: &mut Map<String, Value>) -> Result<JsonGameState, RequestError> {
    let state = object.remove("game_state").ok_or(RequestError::Missing("game_state"))?;
    if !state.is_object() {
        return Err(RequestError::Field {
            field: "game_state",
            message: "expected an object".into(),
        });
    }
    if let Some(Value::Object(pieces)) = state.get("board").and_then(|b| b.get("pieces")) {
        if pieces.len() > MAX_PIECES {
            return Err(RequestError::TooManyPieces(pieces.len()));
        }
        let count: usize = pieces.values().filter_map(Value::as_array).map(Vec::len).sum();
        if count > MAX_PIECES {
            return Err(RequestError::TooManyPieces(count));
        }
    }
    serde_json::from_value(state).map_err(|e| RequestError::Field {
        field: "game_state",
        message: e.to_string(),
    })
}

/// A value as JSON, cut short when long (for quoting it in an error).
fn shortened(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_kept_when_the_rest_fails() {
        let (ids, request) = read_request(r#"{"request_id": "a1", "game_id": 7, "request_type": "Dance"}"#);
        assert_eq!(ids.request_id, Some(Value::from("a1")));
        assert_eq!(ids.game_id, Some(Value::from(7)));
        assert!(matches!(request, Err(RequestError::UnknownRequest(_))));
        let (ids, request) = read_request(r#"{"request_id": [1], "request_type": "Greetings"}"#);
        assert_eq!(ids.request_id, None);
        assert!(matches!(
            request,
            Err(RequestError::Field {
                field: "request_id",
                ..
            })
        ));
    }

    #[test]
    fn crowded_boards_are_refused_before_they_are_read() {
        let cells: Vec<String> = (0..40).map(|i| format!("\"{},0\": []", 2 * i)).collect();
        let text = format!(
            r#"{{"request_type": "Choose Turn", "game_state": {{"board": {{"pieces": {{{}}}}}}}}}"#,
            cells.join(",")
        );
        assert_eq!(read_request(&text).1, Err(RequestError::TooManyPieces(40)));
    }
}
