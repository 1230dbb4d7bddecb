//! The routes of `waggle web` that do not search, answered from the rules and records on a blocking thread: the
//! server's limits and status, a position's state, a move played or taken back (decided by an [`Engine`] as every
//! other front end's are, through `engine`), a game imported or exported. docs/web.md documents each.
//!
//! [`Engine`]: crate::engine::Engine

use hyper::header::{HeaderValue, CONTENT_DISPOSITION};
use hyper::{Response, StatusCode};
use serde_json::{json, Value};

use super::engine;
use super::error::WebError;
use super::reply::{api, engine_error, ok};
use super::request::{
    game_of, given_game, parse, ExportRequest, GameRequest, ImportRequest, PlayRequest, UndoRequest, MAX_DEPTH,
    MAX_LINES, MAX_REVIEW_PLIES, MAX_TIME,
};
use super::state::state_of;
use crate::engine::Level;
use crate::http::{reply, Body, PoolStatus};
use crate::record::notation::MoveString;
use crate::record::pgn::{parse as read_pgn, GameRecord};
use crate::record::sgf::parse as read_sgf;
use crate::rules::game_type::GameType;
use crate::rules::position::Rules;

/// What the page needs to know of the server: the game types, and the limits of every field it offers (so that the
/// page is told them, never keeps copies of its own).
pub(crate) fn info(engines: usize) -> Value {
    json!({
        "name": "Waggle",
        "version": env!("CARGO_PKG_VERSION"),
        "game_types": GameType::ALL.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "levels": Level::FULL.get(),
        "max_lines": MAX_LINES,
        "max_time": MAX_TIME,
        "max_depth": MAX_DEPTH,
        "max_review_plies": MAX_REVIEW_PLIES,
        "engines": engines,
    })
}

/// How busy the engines are.
pub(crate) fn status(status: PoolStatus) -> Value {
    json!({
        "engines": status.engines,
        "built": status.built,
        "running": status.running,
        "waiting": status.waiting,
    })
}

/// `/api/position`: the state of a game.
pub(crate) fn position(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let request: GameRequest = parse(body)?;
    let (_, game) = game_of(&request.game, rules)?;
    Ok(ok(&state_of(&game)))
}

/// `/api/play`: a move played.
pub(crate) fn play(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let request: PlayRequest = parse(body)?;
    let name: MoveString = request
        .mv
        .parse()
        .map_err(|e| WebError::Unprocessable(format!("{e}")))?;
    let (_, game) = game_of(&request.game, rules)?;
    let game = engine::play(game, name, rules).map_err(engine_error)?;
    Ok(ok(&state_of(&game)))
}

/// `/api/undo`: plies taken back.
pub(crate) fn undo(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let request: UndoRequest = parse(body)?;
    let (_, game) = game_of(&request.game, rules)?;
    let game = engine::undo(game, request.plies, rules).map_err(engine_error)?;
    Ok(ok(&state_of(&game)))
}

/// `/api/import`: a GameString, a `.pgn` (its first game) or a BoardSpace `.sgf` read; a game from before the
/// tournament opening is replayed as it was played.
pub(crate) fn import(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let request: ImportRequest = parse(body)?;
    let text = request.text.trim().trim_start_matches('\u{feff}').trim_start();
    if text.is_empty() {
        return Err(WebError::Unprocessable(
            "there is nothing to import: paste a GameString, a .pgn or a BoardSpace .sgf".into(),
        ));
    }
    if text.starts_with('(') {
        let record = read_sgf(text, None)
            .map_err(|e| WebError::Unprocessable(format!("the BoardSpace .sgf cannot be read: {e}")))?;
        let game = record
            .replay(rules)
            .map_err(|e| WebError::Unprocessable(format!("the .sgf's game cannot be replayed: {e}")))?;
        return Ok(ok(&json!({
            "state": state_of(&game),
            "white": record.tag("White").unwrap_or(""),
            "black": record.tag("Black").unwrap_or(""),
            "games": 1,
        })));
    }
    let numbered = text.trim_start_matches(|c: char| c.is_ascii_digit()).starts_with('.') && !text.starts_with('.');
    if !text.starts_with('[') && !numbered {
        let game = given_game(text, rules)?;
        return Ok(ok(
            &json!({"state": state_of(&game), "white": "", "black": "", "games": 1}),
        ));
    }
    let games = read_pgn(text).map_err(|e| WebError::Unprocessable(format!("the .pgn cannot be read: {e}")))?;
    let Some(first) = games.first() else {
        return Err(WebError::Unprocessable("the .pgn holds no game".into()));
    };
    let game = first
        .replay(rules)
        .map_err(|e| WebError::Unprocessable(format!("the .pgn's game cannot be replayed: {e}")))?;
    Ok(ok(&json!({
        "state": state_of(&game),
        "white": first.tag("White").unwrap_or(""),
        "black": first.tag("Black").unwrap_or(""),
        "games": games.len(),
    })))
}

/// `/api/export`: the game as a Mzinga `.pgn`.
pub(crate) fn export(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let request: ExportRequest = parse(body)?;
    let (record, _) = game_of(&request.game, rules)?;
    let text = GameRecord::new(record, &request.white, &request.black).to_string();
    let mut response = api(reply(StatusCode::OK, "application/x-hive-pgn; charset=utf-8", text));
    response.headers_mut().insert(
        CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"game.pgn\""),
    );
    Ok(response)
}
