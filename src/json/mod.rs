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
//! use waggle::json::{respond, Thinking};
//!
//! let answer = respond(r#"{"request_type": "Greetings", "request_id": "n6Vvi"}"#, &Thinking::default());
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
#[cfg(test)]
mod tests;
mod turns;

use std::io::{self, BufRead, Write};
use std::net::SocketAddr;
use std::panic::RefUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Duration;

pub use stdio::MAX_LINE;

use choose::choose_turn;
use error::RequestError;
use messages::{ChooseTurnResponse, ErrorResponse, GreetingsResponse, JsonGameState, Turn};
use request::{read_request, Ids, Request};
use turns::offered_turns;

use crate::engine::{Engine, HashSize, Options};
use crate::eval::WeightSets;
use crate::rules::position::Position;

/// How requests think: with engines of these options and weights (over HTTP several requests may be thought
/// about at once, each with an engine of its own, so the default table is small: 16 MB).
#[derive(Clone, Debug)]
pub struct Thinking {
    /// The options of each request's engine.
    pub options: Options,
    /// The evaluation's weights.
    pub weights: WeightSets,
    /// Where notes on the requests go (nowhere unless a front end says).
    pub notes: Notes,
}

impl Default for Thinking {
    fn default() -> Self {
        Thinking {
            options: Thinking::default_options(),
            weights: WeightSets::default(),
            notes: Notes::default(),
        }
    }
}

/// Where the notes on requests go: what was noticed while answering (a disagreement between a request and
/// Waggle's rules), one line a request, naming it. The front end chooses (`waggle json` writes them to stderr); by
/// default they go nowhere.
#[derive(Clone, Default)]
pub struct Notes(Option<Arc<Say>>);

/// What hears each note.
type Say = dyn Fn(&str) + Send + Sync + RefUnwindSafe;

impl Notes {
    /// Notes handed to `say`, a line at a time.
    pub fn to(say: impl Fn(&str) + Send + Sync + RefUnwindSafe + 'static) -> Notes {
        Notes(Some(Arc::new(say)))
    }

    fn say(&self, line: &str) {
        if let Some(say) = &self.0 {
            say(line);
        }
    }
}

impl std::fmt::Debug for Notes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Notes(to a front end)"
        } else {
            "Notes(nowhere)"
        })
    }
}

impl Thinking {
    /// The options a request's engine has unless told otherwise: a 16 MB table, the rest as the UHP engine's.
    pub fn default_options() -> Options {
        Options {
            max_hash_size: HashSize::fixed(16),
            ..Options::default()
        }
    }
}

/// The `game_state` a game core would send for `position`: its board on the API's grid, the hands, whose turn it
/// is and the turns it may play (`possible_turns`). For a program that speaks the API as a game core.
pub fn game_state_of(position: &Position) -> serde_json::Value {
    serde_json::to_value(board::game_state_of(position)).unwrap_or_default()
}

/// Whether the turn of `response` (a Choose Turn response) is one of the turns `game_state`'s `possible_turns`
/// offers: how a game core checks an answer.
pub fn is_offered(game_state: &serde_json::Value, response: &serde_json::Value) -> bool {
    let (Ok(state), Ok(turn)) = (
        serde_json::from_value::<JsonGameState>(game_state.clone()),
        serde_json::from_value::<Turn>(response.clone()),
    ) else {
        return false;
    };
    offered_turns(&state.possible_turns).contains(&turn)
}

impl Thinking {
    /// A new engine with these options and weights; an error when its table does not fit in memory.
    pub(crate) fn engine(&self) -> Result<Engine, crate::search::TableTooBig> {
        let mut engine = Engine::new(self.options.clone())?;
        engine.set_weights(self.weights.clone());
        Ok(engine)
    }
}

/// Where a request that thinks gets its engine: asked only when a search is needed.
pub(crate) trait EngineSource {
    /// The engine, or `None` when none can be had (its table does not fit in memory).
    fn engine(&mut self) -> Option<&mut Engine>;
}

/// An engine built as [`Thinking`] says when first asked for, then kept for the requests that follow.
pub(crate) struct Engines<'a> {
    thinking: &'a Thinking,
    engine: Option<Engine>,
}

impl<'a> Engines<'a> {
    /// No engine yet.
    pub(crate) fn new(thinking: &'a Thinking) -> Engines<'a> {
        Engines { thinking, engine: None }
    }

    /// Throw the engine away (after a panic, which may have left it half-changed).
    pub(crate) fn forget(&mut self) {
        self.engine = None;
    }
}

impl EngineSource for Engines<'_> {
    fn engine(&mut self) -> Option<&mut Engine> {
        if self.engine.is_none() {
            self.engine = self.thinking.engine().ok();
        }
        self.engine.as_mut()
    }
}

impl EngineSource for &mut Engine {
    fn engine(&mut self) -> Option<&mut Engine> {
        Some(&mut **self)
    }
}

/// A response, and what was noticed while answering (disagreements between the request and Waggle's rules),
/// which front ends report on stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Answer {
    /// The response as one line of JSON (no newline).
    pub response: String,
    /// Notes for a person, each one line; empty when all was as expected.
    pub notes: Vec<String>,
}

/// The response to one request, thinking as `thinking` says, as JSON text (one line, no newline). Notes on the
/// request go to `thinking.notes`, one line naming the request's ids.
pub fn respond(request: &str, thinking: &Thinking) -> String {
    respond_with(request, &mut Engines::new(thinking), Duration::ZERO, &thinking.notes)
}

/// [`respond`], thinking with an engine of `engines`, the request having waited `waited` for it already; the notes
/// go to `notes`.
pub(crate) fn respond_with(request: &str, engines: &mut dyn EngineSource, waited: Duration, notes: &Notes) -> String {
    let (ids, answer) = answer_with_ids(request, engines, waited);
    report(&ids, &answer.notes, notes);
    answer.response
}

/// Serve requests from `input`, one JSON object a line, answering each with one line on `output` (flushed).
/// Blank lines are skipped; a line that is not UTF-8 or is longer than [`MAX_LINE`] gets an Error response, and
/// so does a request that panics. `answered` counts the responses written.
pub fn serve_lines(
    input: impl BufRead,
    output: impl Write,
    answered: &AtomicU64,
    thinking: &Thinking,
) -> io::Result<()> {
    stdio::serve(input, output, answered, thinking)
}

/// Serve requests over HTTP on `addr`, one request per POST body, until `stop` is raised; `on_ready` hears the
/// address once listening. Several requests may be served at once: as many think at once as the machine has
/// cores for (a pool of engines, reused), the others wait their turn, their deadlines counted from their arrival;
/// one that panics gets status 500 with an Error body, and serving goes on. Returns how many requests were
/// answered.
pub fn serve_http(
    addr: &str,
    on_ready: impl FnOnce(SocketAddr),
    stop: &AtomicBool,
    thinking: Thinking,
) -> io::Result<u64> {
    http::serve(addr, on_ready, stop, thinking)
}

/// The answer to a request, with the ids it was given under.
fn answer_with_ids(request: &str, engines: &mut dyn EngineSource, waited: Duration) -> (Ids, Answer) {
    let (ids, read) = read_request(request);
    let (response, notes) = match read.and_then(|r| respond_to(&r, &ids, engines, waited)) {
        Ok(answered) => answered,
        Err(error) => (error_response(&ids, &error), Vec::new()),
    };
    (ids, Answer { response, notes })
}

/// The response (and notes) to a request read without error.
fn respond_to(
    request: &Request,
    ids: &Ids,
    engines: &mut dyn EngineSource,
    waited: Duration,
) -> Result<(String, Vec<String>), RequestError> {
    match request {
        Request::Greetings => Ok((json_line(&greetings(ids)), Vec::new())),
        Request::ChooseTurn(request) => {
            let choice = choose_turn(request, engines, waited)?;
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
        crate::failure::panic_message(panic)
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

/// Give `notes` to `to` as one line, naming the request.
fn report(ids: &Ids, notes: &[String], to: &Notes) {
    if notes.is_empty() {
        return;
    }
    let id = |value: &Option<serde_json::Value>| value.as_ref().map_or("-".to_string(), |v| v.to_string());
    to.say(&format!(
        "game {}, request {}: {}",
        id(&ids.game_id),
        id(&ids.request_id),
        notes.join("; ")
    ));
}
