//! The Hive AI-module JSON API (version 0.1.0 of the Hive project by Trylobot): a game core sends a request as a
//! JSON object, Waggle answers with one. `Greetings` asks who Waggle is; `Choose Turn` gives a game (board, hands,
//! the turns allowed, a deadline) and asks for a turn. Every request stands alone: several games may be in flight
//! at once, and nothing is kept between requests.
//!
//! Served one request a line on stdio ([`serve_lines`]) or one request per POST body over HTTP ([`serve_http`]);
//! [`respond`] answers one request. A request that cannot be answered gets
//! `{"response_type": "Error", "request_id": …, "message": "…"}`, and serving goes on.
//!
//! ```
//! let answer = waggle::json::respond(r#"{"request_type": "Greetings", "request_id": "n6Vvi"}"#);
//! let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
//! assert_eq!(answer["response_type"], "Greetings");
//! assert_eq!(answer["response_id"], "n6Vvi");
//! ```
//!
//! The files: `request` reads a request, `names` the API's words for cells, colours and bugs, `messages` the
//! JSON shapes, `board` turns a `game_state` into a position and back (with `frame` naming Waggle's cells on the
//! API's grid and `carries` naming a Pillbug's ability user), `turns` compares Waggle's moves with the offered
//! turns, `choose` picks the answer, `error` says why a request failed, `stdio` and `http` serve.

mod board;
mod carries;
mod choose;
mod error;
mod frame;
mod http;
mod messages;
mod names;
mod request;
mod stdio;
mod turns;

use std::io::{self, BufRead, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64};

pub use board::{game_state_of, game_type_of, position_of, setup_of, ReadPosition};
pub use choose::{budget, choose, choose_turn, Choice, DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET, TABLE_MB};
pub use error::RequestError;
pub use messages::{
    ChooseTurnResponse, CreationParameters, ErrorResponse, GreetingsResponse, JsonBoard, JsonGameState, JsonPiece,
    PastTurn, PlacementOptions, PossibleTurns, Turn, TurnType,
};
pub use names::{BugError, BugName, CellError, CellName, ColorError, ColorName};
pub use request::{read_request, ChooseTurn, Ids, Request, MAX_PIECES};
pub use stdio::MAX_LINE;
pub use turns::{offered_turns, possible_turns_of, TurnKey, WaggleTurns};

/// A response, and what was noticed while answering (disagreements between the request and Waggle's rules),
/// which front ends report on stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The response as one line of JSON (no newline).
    pub response: String,
    /// Notes for a person, each one line; empty when all was as expected.
    pub notes: Vec<String>,
}

/// The answer to one request: the response and the notes, printed nowhere.
pub fn answer(request: &str) -> Answer {
    answer_with_ids(request).1
}

/// The response to one request, both as JSON text (one line, no newline). Notes on the request go to stderr,
/// one line, prefixed with `waggle json:` and the request's ids.
pub fn respond(request: &str) -> String {
    let (ids, answer) = answer_with_ids(request);
    report(&ids, &answer.notes);
    answer.response
}

/// Serve requests from `input`, one JSON object a line, answering each with one line on `output` (flushed).
/// Blank lines are skipped; a line that is not UTF-8 or is longer than [`MAX_LINE`] gets an Error response, and
/// so does a request that panics. `answered` counts the responses written.
pub fn serve_lines(input: impl BufRead, output: impl Write, answered: &AtomicU64) -> io::Result<()> {
    stdio::serve(input, output, answered)
}

/// Serve requests over HTTP on `addr`, one request per POST body, until `stop` is raised; `on_ready` hears the
/// address once listening. Several requests may be served at once (a thread per request); one that panics gets
/// status 500 with an Error body, and serving goes on. Returns how many requests were answered.
pub fn serve_http(addr: &str, on_ready: impl FnOnce(SocketAddr), stop: &AtomicBool) -> io::Result<u64> {
    http::serve(addr, on_ready, stop)
}

/// The answer to a request, with the ids it was given under.
fn answer_with_ids(request: &str) -> (Ids, Answer) {
    let (ids, read) = read_request(request);
    let (response, notes) = match read.and_then(|r| respond_to(&r, &ids)) {
        Ok(answered) => answered,
        Err(error) => (error_response(&ids, &error), Vec::new()),
    };
    (ids, Answer { response, notes })
}

/// The response (and notes) to a request read without error.
fn respond_to(request: &Request, ids: &Ids) -> Result<(String, Vec<String>), RequestError> {
    match request {
        Request::Greetings => Ok((json_line(&greetings(ids)), Vec::new())),
        Request::ChooseTurn(request) => {
            let choice = choose_turn(request)?;
            let response = ChooseTurnResponse {
                response_type: "Choose Turn",
                request_id: ids.request_id.clone(),
                game_id: ids.game_id.clone(),
                turn: choice.turn,
            };
            Ok((json_line(&response), choice.notes))
        }
    }
}

/// Waggle's identity.
fn greetings(ids: &Ids) -> GreetingsResponse {
    GreetingsResponse {
        response_type: "Greetings",
        request_id: ids.request_id.clone(),
        response_id: ids.request_id.clone(),
        name: "waggle",
        active: true,
        version: env!("CARGO_PKG_VERSION"),
        long_name: "Waggle",
        description: "A Hive engine with the Mosquito, Ladybug and Pillbug: alpha-beta search over Waggle's own rules",
        author: "the Waggle developers",
        language: "Rust",
    }
}

/// The Error response for `error`, under the request's ids.
fn error_response(ids: &Ids, error: &RequestError) -> String {
    json_line(&ErrorResponse {
        response_type: "Error",
        request_id: ids.request_id.clone(),
        game_id: ids.game_id.clone(),
        message: error.to_string(),
    })
}

/// An Error response saying `message`, under no ids.
fn error_body(message: &str) -> String {
    json_line(&ErrorResponse {
        response_type: "Error",
        request_id: None,
        game_id: None,
        message: message.into(),
    })
}

/// What an Error response says when answering panicked: a bug, to be reported with the request.
fn failure(panic: &(dyn std::any::Any + Send)) -> String {
    format!(
        "Waggle failed on this request ({}): this is a bug in Waggle, please report it with the request",
        crate::engine::panic_message(panic)
    )
}

/// A response as one line of JSON.
fn json_line(response: &impl serde::Serialize) -> String {
    // The response types hold strings, numbers and maps with string keys only, which always serialize.
    serde_json::to_string(response).unwrap_or_else(|e| {
        format!(
            r#"{{"response_type":"Error","message":{}}}"#,
            serde_json::Value::from(e.to_string())
        )
    })
}

/// Print `notes` on stderr as one line, naming the request. A failure to print is ignored: the response matters
/// more than the note.
fn report(ids: &Ids, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    let id = |value: &Option<serde_json::Value>| value.as_ref().map_or("-".to_string(), |v| v.to_string());
    let line = format!(
        "waggle json: game {}, request {}: {}",
        id(&ids.game_id),
        id(&ids.request_id),
        notes.join("; ")
    );
    let _ = writeln!(io::stderr().lock(), "{line}");
}
