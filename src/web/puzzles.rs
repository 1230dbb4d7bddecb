//! The puzzle routes of `waggle web` (docs/web.md lists their fields): the built-in set, filtered, a page at a
//! time (`/api/puzzles`, so that the set is never one of the page's files); a puzzle file read
//! (`/api/puzzles/read`, for a file dropped on the page); a move of a puzzle judged, with the opponent's answer or
//! the refutation (`/api/puzzles/move`); a hint or the rest of the solution (`/api/puzzles/help`); the puzzles of
//! a reviewed game's marked moves (`/api/puzzles/mistakes`). The routes that ask the proof search or rate puzzles
//! wait their turn for an engine from the pool, as searches do: a request carries the puzzle and the moves played
//! since its start, and the server keeps nothing.

use std::sync::atomic::AtomicBool;

use hyper::body::Bytes;
use hyper::Response;
use serde::Deserialize;
use serde_json::{json, Value};

use super::engine;
use super::error::WebError;
use super::reply::{blocking, engine_error, ok};
use super::request::{game_of, parse, MAX_REVIEW_PLIES};
use super::search::{run_lent, Searching};
use super::state::state_of;
use crate::http::Body;
use crate::puzzles::{builtin, read_puzzles, theme_names, Answer, Attempt, Filter, Kind, Puzzle, BANDS};
use crate::record::notation::MoveString;
use crate::rules::game_type::GameType;

/// The most puzzles on one page of the list.
pub(crate) const MAX_PER_PAGE: usize = 50;

/// The most moves a request may say were played since a puzzle's start.
const MAX_MOVES: usize = 64;

/// The most marked moves a request for a game's mistakes may name.
const MAX_MISTAKES: usize = 64;

/// `/api/puzzles`: the filters, and which page.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListRequest {
    game_type: Option<String>,
    kind: Option<String>,
    min_rating: Option<u32>,
    max_rating: Option<u32>,
    theme: Option<String>,
    /// Only the puzzle with this id (a link to it).
    id: Option<String>,
    /// From 0.
    #[serde(default)]
    page: usize,
    per_page: Option<usize>,
}

/// `/api/puzzles/read`: a puzzle file's text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReadRequest {
    text: String,
}

/// `/api/puzzles/move` and `/api/puzzles/help`: a puzzle, the moves played since its start, and the move tried or
/// the help wanted.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SolveRequest {
    puzzle: Value,
    #[serde(default)]
    moves: Vec<String>,
    /// The solver's move (for `/api/puzzles/move`).
    #[serde(rename = "move")]
    mv: Option<String>,
    /// `hint` or `solution` (for `/api/puzzles/help`).
    what: Option<String>,
}

/// `/api/puzzles/mistakes`: a reviewed game and the numbers of its marked moves.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MistakesRequest {
    game: String,
    plies: Vec<usize>,
}

/// The filter a list request asks for.
fn filter_of(request: &ListRequest) -> Result<Filter, WebError> {
    let game_type = match request.game_type.as_deref() {
        None | Some("") => None,
        Some(text) => Some(
            text.parse::<GameType>()
                .map_err(|e| WebError::BadRequest(format!("game_type: {e}")))?,
        ),
    };
    let kind = match request.kind.as_deref() {
        None | Some("") => None,
        Some("win") => Some(Kind::Win),
        Some("defend") => Some(Kind::Defend),
        Some(other) => {
            return Err(WebError::BadRequest(format!(
                "kind is '{other}': expected win or defend"
            )))
        }
    };
    let theme = request.theme.clone().filter(|theme| !theme.is_empty());
    if let Some(theme) = &theme {
        if !theme_names().any(|name| name == theme) {
            return Err(WebError::BadRequest(format!("'{theme}' is not a theme")));
        }
    }
    Ok(Filter {
        game_type,
        kind,
        min_rating: request.min_rating,
        max_rating: request.max_rating,
        theme,
    })
}

/// `/api/puzzles`: a page of the built-in set, filtered, with what the filters may choose from.
pub(crate) fn list(body: &[u8]) -> Result<Response<Body>, WebError> {
    let request: ListRequest = if body.is_empty() {
        ListRequest::default()
    } else {
        parse(body)?
    };
    let filter = filter_of(&request)?;
    let per_page = request.per_page.unwrap_or(20);
    if !(1..=MAX_PER_PAGE).contains(&per_page) {
        return Err(WebError::BadRequest(format!(
            "per_page must be from 1 to {MAX_PER_PAGE}"
        )));
    }
    let chosen: Vec<&Puzzle> = builtin()
        .iter()
        .filter(|p| filter.admits(p) && request.id.as_ref().is_none_or(|id| &p.id == id))
        .collect();
    let page: Vec<Value> = chosen
        .iter()
        .skip(request.page.saturating_mul(per_page))
        .take(per_page)
        .map(|p| p.to_json())
        .collect();
    Ok(ok(&json!({
        "total": chosen.len(),
        "page": request.page,
        "per_page": per_page,
        "puzzles": page,
        "themes": theme_names().collect::<Vec<_>>(),
        "bands": BANDS.iter().map(|&(from, name)| json!({"from": from, "name": name})).collect::<Vec<_>>(),
        "game_types": GameType::ALL.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "set": builtin().len(),
    })))
}

/// `/api/puzzles/read`: the puzzles of a file's text, each checked, and a message for each line refused.
pub(crate) fn read(body: &[u8]) -> Result<Response<Body>, WebError> {
    let request: ReadRequest = parse(body)?;
    let read = read_puzzles(&request.text);
    if read.puzzles.is_empty() {
        let why = read
            .refused
            .first()
            .map_or("it holds no puzzle record".to_string(), Clone::clone);
        return Err(WebError::Unprocessable(format!(
            "the puzzle file cannot be played: {why}"
        )));
    }
    Ok(ok(&json!({
        "puzzles": read.puzzles.iter().map(Puzzle::to_json).collect::<Vec<_>>(),
        "refused": read.refused,
    })))
}

/// The puzzle a request carries, taken up with the moves played since its start.
fn attempt_of(request: &SolveRequest) -> Result<Attempt, WebError> {
    if request.moves.len() > MAX_MOVES {
        return Err(WebError::BadRequest(format!("moves holds {MAX_MOVES} moves at most")));
    }
    let puzzle = Puzzle::from_json(&request.puzzle).map_err(|e| WebError::Unprocessable(e.to_string()))?;
    let moves = request
        .moves
        .iter()
        .map(|text| text.parse::<MoveString>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| WebError::Unprocessable(format!("moves: {e}")))?;
    Attempt::resume(puzzle, &moves).map_err(|e| WebError::Unprocessable(e.to_string()))
}

/// Moves as text.
fn names(moves: &[MoveString]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// `/api/puzzles/move`: the solver's move judged; right, it is played with the opponent's answer (the state after
/// both); wrong, nothing is played and the refutation is told.
pub(crate) async fn try_move(searching: &Searching, body: Bytes) -> Result<Response<Body>, WebError> {
    let request: SolveRequest = blocking(move || parse(&body)).await?;
    let text = request
        .mv
        .clone()
        .ok_or_else(|| WebError::BadRequest("move: the solver's move is missing".into()))?;
    let name: MoveString = text.parse().map_err(|e| WebError::Unprocessable(format!("{e}")))?;
    let answer = run_lent(searching, move |_, _| {
        let mut attempt = attempt_of(&request)?;
        let tried = attempt
            .game()
            .resolve(&name.to_string())
            .ok()
            .map(|mv| attempt.game().move_string(mv).to_string());
        let answer = attempt
            .try_move(name)
            .map_err(|e| WebError::Unprocessable(e.to_string()))?;
        let state = state_of(attempt.game());
        Ok(match answer {
            Answer::Right { reply, solved } => json!({
                "right": true,
                "reply": reply.map(|r| r.to_string()),
                "solved": solved,
                "moves": names(attempt.played()),
                "state": state,
            }),
            Answer::Wrong { refutation } => json!({
                "right": false,
                "tried": tried,
                "refutation": names(&refutation),
                "moves": names(attempt.played()),
                "state": state,
            }),
        })
    })
    .await?;
    Ok(ok(&answer))
}

/// `/api/puzzles/help`: the piece to move (`hint`), or the rest of the solution (`solution`).
pub(crate) async fn help(searching: &Searching, body: Bytes) -> Result<Response<Body>, WebError> {
    let request: SolveRequest = blocking(move || parse(&body)).await?;
    let answer = run_lent(searching, move |_, _| {
        let mut attempt = attempt_of(&request)?;
        let unprocessable = |e: crate::puzzles::SolveError| WebError::Unprocessable(e.to_string());
        Ok(match request.what.as_deref() {
            Some("hint") => json!({"piece": attempt.hint().map_err(unprocessable)?.map(|p| p.to_string())}),
            Some("solution") => json!({"line": names(&attempt.rest_of_solution().map_err(unprocessable)?)}),
            _ => return Err(WebError::BadRequest("what must be hint or solution".into())),
        })
    })
    .await?;
    Ok(ok(&answer))
}

/// `/api/puzzles/mistakes`: the puzzles of the positions before a game's marked moves (proved, rated on a lent
/// engine).
pub(crate) async fn mistakes(searching: &Searching, body: Bytes) -> Result<Response<Body>, WebError> {
    let rules = searching.rules;
    let (request, game) = blocking(move || {
        let request: MistakesRequest = parse(&body)?;
        let (_, game) = game_of(&request.game, rules)?;
        Ok((request, game))
    })
    .await?;
    if game.record().len() > MAX_REVIEW_PLIES {
        return Err(WebError::BadRequest(format!(
            "games of {MAX_REVIEW_PLIES} plies at most"
        )));
    }
    if request.plies.len() > MAX_MISTAKES {
        return Err(WebError::BadRequest(format!(
            "plies names {MAX_MISTAKES} moves at most"
        )));
    }
    let options = searching.options.clone();
    let puzzles = run_lent(searching, move |engine, stop: &AtomicBool| {
        engine::mistakes(engine, &options, &game, &request.plies, stop).map_err(engine_error)
    })
    .await?;
    Ok(ok(&json!({
        "puzzles": puzzles.iter().map(Puzzle::to_json).collect::<Vec<_>>(),
    })))
}
