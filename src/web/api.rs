//! The routes of `waggle web`: the page's files, and the JSON API under `/api/` (docs/web.md documents each).
//! Every request is checked for its Host and Origin first; a POST must carry JSON, at most [`MAX_BODY`] bytes of it.
//! Routes that do not search answer from the rules and records directly, on a blocking thread; those that search
//! (`bestmove`, `analyse`, `review`) are `search`'s.

use std::future::Future;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};

use super::assets;
use super::error::WebError;
use super::guard::Hosts;
use super::request::{
    game_of, given_game, parse, ExportRequest, GameRequest, ImportRequest, PlayRequest, UndoRequest, MAX_DEPTH,
    MAX_LINES, MAX_REVIEW_PLIES, MAX_TIME,
};
use super::state::state_of;
use crate::http::{self, read_body, reply, Body, BodyError, Pool};
use crate::record::pgn::{parse as read_pgn, PgnGame};
use crate::record::sgf::parse as read_sgf;
use crate::rules::game_type::GameType;
use crate::rules::position::Rules;

/// The longest request body read: a long game's `.pgn` is a few kilobytes.
pub(crate) const MAX_BODY: usize = 256 * 1024;

/// How long a client may take to send a request's body.
const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The page's Content-Security-Policy: everything from this server, nothing from anywhere else.
const POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; \
                      connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// What every request shares.
pub(crate) struct WebService {
    pub(crate) pool: Arc<Pool>,
    /// The names this server answers to, known once it listens.
    pub(crate) hosts: OnceLock<Hosts>,
    /// The rules games are replayed under.
    pub(crate) rules: Rules,
}

impl http::Service for WebService {
    fn answer(self: Arc<Self>, request: Request<Incoming>) -> Pin<Box<dyn Future<Output = Response<Body>> + Send>> {
        Box::pin(async move {
            match self.route(request).await {
                Ok(response) => response,
                Err(error) => failure(&error),
            }
        })
    }

    fn fault(&self, message: &str) -> Response<Body> {
        failure(&fault(message))
    }

    fn stopping(&self) {
        self.pool.close();
    }
}

/// The error for a panic that said `message`.
pub(crate) fn fault(message: &str) -> WebError {
    WebError::Fault(format!(
        "Waggle failed on this request ({message}): this is a bug in Waggle, please report it with the request"
    ))
}

/// The response for `error`.
pub(crate) fn failure(error: &WebError) -> Response<Body> {
    api(reply(error.status(), "application/json", error.body()))
}

/// `response` with the headers every API answer gets: never cached, never sniffed.
pub(crate) fn api(mut response: Response<Body>) -> Response<Body> {
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    response
}

/// A JSON answer.
pub(crate) fn ok(value: Value) -> Response<Body> {
    api(reply(StatusCode::OK, "application/json", value.to_string()))
}

impl WebService {
    /// Answer a request, or say why not.
    async fn route(self: &Arc<Self>, request: Request<Incoming>) -> Result<Response<Body>, WebError> {
        if let Some(hosts) = self.hosts.get() {
            hosts.check(request.headers())?;
        }
        let path = request.uri().path().to_string();
        if let Some(asset) = assets::find(&path) {
            if request.method() != Method::GET && request.method() != Method::HEAD {
                return Err(WebError::Method { path, allowed: "GET" });
            }
            let mut response = reply(StatusCode::OK, asset.content_type, asset.bytes);
            let headers = response.headers_mut();
            headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
            headers.insert("content-security-policy", HeaderValue::from_static(POLICY));
            headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
            if request.method() == Method::HEAD {
                *response.body_mut() = Body::Whole(None);
            }
            return Ok(response);
        }
        match path.as_str() {
            "/api/info" | "/api/status" => {
                if request.method() != Method::GET {
                    return Err(WebError::Method { path, allowed: "GET" });
                }
                return Ok(ok(if path == "/api/info" {
                    self.info()
                } else {
                    self.status()
                }));
            }
            "/api/position" | "/api/play" | "/api/undo" | "/api/import" | "/api/export" | "/api/bestmove"
            | "/api/analyse" | "/api/review" => {}
            _ => return Err(WebError::NotFound(path)),
        }
        if request.method() != Method::POST {
            return Err(WebError::Method { path, allowed: "POST" });
        }
        let json = request
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().to_ascii_lowercase().starts_with("application/json"));
        if !json {
            return Err(WebError::NotJson);
        }
        let body = read_body(request, MAX_BODY, BODY_TIMEOUT).await.map_err(|e| match e {
            BodyError::TooLong(max) => WebError::TooLong(max),
            BodyError::TooSlow => WebError::TooSlow,
            BodyError::Unreadable => WebError::BadRequest(e.to_string()),
        })?;
        let rules = self.rules;
        match path.as_str() {
            "/api/position" => blocking(move || position(&body, rules)).await,
            "/api/play" => blocking(move || play(&body, rules)).await,
            "/api/undo" => blocking(move || undo(&body, rules)).await,
            "/api/import" => blocking(move || import(&body, rules)).await,
            "/api/export" => blocking(move || export(&body, rules)).await,
            "/api/bestmove" => super::search::best_move(self.clone(), body).await,
            "/api/analyse" => super::search::analyse(self.clone(), body).await,
            _ => super::search::review(self.clone(), body).await,
        }
    }

    /// What the page needs to know of the server.
    fn info(&self) -> Value {
        json!({
            "name": "Waggle",
            "version": env!("CARGO_PKG_VERSION"),
            "game_types": GameType::ALL.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "levels": 10,
            "max_lines": MAX_LINES,
            "max_time": MAX_TIME,
            "max_depth": MAX_DEPTH,
            "max_review_plies": MAX_REVIEW_PLIES,
            "engines": self.pool.status().engines,
        })
    }

    /// How busy the engines are.
    fn status(&self) -> Value {
        let status = self.pool.status();
        json!({
            "engines": status.engines,
            "built": status.built,
            "running": status.running,
            "waiting": status.waiting,
        })
    }
}

/// Run `work` on a blocking thread (replaying a long game takes time), a panic caught as a fault.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    match tokio::task::spawn_blocking(move || panic::catch_unwind(AssertUnwindSafe(work))).await {
        Ok(Ok(result)) => result,
        Ok(Err(panic)) => Err(fault(&crate::failure::panic_message(panic.as_ref()))),
        Err(error) => Err(fault(&error.to_string())),
    }
}

/// `/api/position`: the state of a game.
fn position(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let request: GameRequest = parse(body)?;
    let (_, game) = game_of(&request.game, rules)?;
    Ok(ok(state_of(&game)))
}

/// `/api/play`: a move played.
fn play(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let request: PlayRequest = parse(body)?;
    let (_, mut game) = game_of(&request.game, rules)?;
    if game.state().is_over() {
        return Err(WebError::Unprocessable(format!(
            "the game is over ({})",
            game.state().name()
        )));
    }
    game.play_text(&request.mv)
        .map_err(|e| WebError::Unprocessable(e.to_string()))?;
    Ok(ok(state_of(&game)))
}

/// `/api/undo`: plies taken back.
fn undo(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let request: UndoRequest = parse(body)?;
    let (_, mut game) = game_of(&request.game, rules)?;
    game.undo(request.plies)
        .map_err(|e| WebError::Unprocessable(e.to_string()))?;
    Ok(ok(state_of(&game)))
}

/// `/api/import`: a GameString, a `.pgn` (its first game) or a BoardSpace `.sgf` read; a game from before the
/// tournament opening is replayed as it was played.
fn import(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
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
        return Ok(ok(json!({
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
            json!({"state": state_of(&game), "white": "", "black": "", "games": 1}),
        ));
    }
    let games = read_pgn(text).map_err(|e| WebError::Unprocessable(format!("the .pgn cannot be read: {e}")))?;
    let Some(first) = games.first() else {
        return Err(WebError::Unprocessable("the .pgn holds no game".into()));
    };
    let game = first
        .replay(rules)
        .map_err(|e| WebError::Unprocessable(format!("the .pgn's game cannot be replayed: {e}")))?;
    Ok(ok(json!({
        "state": state_of(&game),
        "white": first.tag("White").unwrap_or(""),
        "black": first.tag("Black").unwrap_or(""),
        "games": games.len(),
    })))
}

/// `/api/export`: the game as a Mzinga `.pgn`.
fn export(body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let request: ExportRequest = parse(body)?;
    let (record, _) = game_of(&request.game, rules)?;
    let text = PgnGame::new(record, &request.white, &request.black).to_string();
    let mut response = api(reply(StatusCode::OK, "application/x-hive-pgn; charset=utf-8", text));
    response.headers_mut().insert(
        CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"game.pgn\""),
    );
    Ok(response)
}
