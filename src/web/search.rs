//! The routes that search: the engine's move (`/api/bestmove`, one JSON answer), an analysis and a review
//! (`/api/analyse`, `/api/review`: Server-Sent Events as the search goes). Each borrows an engine from the pool
//! and waits its turn when all are busy (a stream says so with a `waiting` event); when the queue is full, a
//! request is refused as busy (503), a stream before its answer starts. A visitor who goes away (a tab closed, a
//! stream no longer read, a connection lost) cancels the search at once: the request's future or the stream's body
//! is dropped, and the guard it holds raises the search's [`Cancel`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::body::Bytes;
use hyper::header::{HeaderValue, CACHE_CONTROL};
use hyper::{Response, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use serde::Serialize;

use super::engine;
use super::error::WebError;
use super::reply::{api, blocking, engine_error, fault, ok};
use super::request::{
    game_of, limits, parse, seconds, AnalyseRequest, BestMoveRequest, ReviewRequest, MAX_ANALYSIS, MAX_LINES,
    MAX_REVIEW_PLIES, MAX_TIME,
};
use super::state::state_of;
use crate::engine::{Engine, EngineError, Level, Options, SearchInfo, Thought};
use crate::http::{reply, Body, Cancel, Fault, Pool, PoolError};
use crate::record::game::Game;
use crate::review::{rounded_chance, JudgedMove, Score};
use crate::rules::piece::Color;
use crate::rules::position::Rules;
use crate::search::Limits;

/// How often a stream with nothing to say writes a comment line, so that a reader who has gone is noticed.
const HEARTBEAT: Duration = Duration::from_millis(250);

/// How long a stream's reader may leave its events unread before the search is given up.
const SLOW_READER: Duration = Duration::from_secs(10);

/// The time of the engine's move when the request gives no limit.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// The time of each position of a review when the request gives no limit.
const DEFAULT_REVIEW_TIME: Duration = Duration::from_millis(200);

/// What the searching routes share: the engines, the rules games are replayed under, and the options every
/// search starts with (a request's own level aside).
pub(crate) struct Searching {
    pub(crate) pool: Arc<Pool>,
    pub(crate) rules: Rules,
    pub(crate) options: Options,
}

/// Lent work that gave no result.
fn lent_fault(fault_: Fault) -> WebError {
    match fault_ {
        Fault::Cancelled => WebError::Busy("the search was cancelled: Waggle is stopping".into()),
        Fault::Panicked(message) => fault(&message),
    }
}

/// No engine could be lent.
fn pool_error(error: PoolError) -> WebError {
    match error {
        PoolError::Memory(e) => WebError::Fault(e.to_string()),
        other => WebError::Busy(other.to_string()),
    }
}

/// A score and the win chance it stands for, for the side to move and for White.
fn score_json(thought: &Thought, to_move: Color) -> Value {
    let score = Score::of(&thought.report);
    let chance = score.win_chance();
    let white = if to_move == Color::White { chance } else { 1.0 - chance };
    json!({
        "moves": thought.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "score": score.to_string(),
        "win_chance": rounded_chance(chance),
        "white_chance": rounded_chance(white),
        "depth": thought.report.depth,
    })
}

/// A search's progress as an `info` event's data.
fn info_json(info: &SearchInfo, to_move: Color) -> Value {
    let best = info.lines.first();
    json!({
        "depth": best.map_or(0, |t| t.report.depth),
        "seldepth": best.map_or(0, |t| t.report.seldepth),
        "nodes": best.map_or(0, |t| t.report.nodes),
        "nps": info.nodes_per_second,
        "elapsed_ms": info.elapsed.as_millis() as u64,
        "table_permille": info.table_permille,
        "lines": info.lines.iter().map(|t| score_json(t, to_move)).collect::<Vec<_>>(),
    })
}

/// One Server-Sent Event.
fn event(name: &str, data: &impl Serialize) -> Bytes {
    let data = serde_json::to_string(data).unwrap_or_else(|e| json!({"error": e.to_string()}).to_string());
    Bytes::from(format!("event: {name}\ndata: {data}\n\n"))
}

/// The response streaming `pieces`, which holds `guard` until the reader goes or the stream ends.
fn stream(pieces: mpsc::Receiver<Bytes>, guard: crate::http::CancelOnDrop) -> Response<Body> {
    let mut response = reply(
        StatusCode::OK,
        "text/event-stream",
        Body::stream(pieces, HEARTBEAT, b": beat\n\n", guard),
    );
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    api(response)
}

/// Send `piece` from a blocking thread, waiting for a slow reader up to [`SLOW_READER`]; a reader gone or too slow
/// cancels the work.
fn deliver(sender: &mpsc::Sender<Bytes>, mut piece: Bytes, cancel: &Cancel) {
    let since = Instant::now();
    loop {
        match sender.try_send(piece) {
            Ok(()) => return,
            Err(mpsc::error::TrySendError::Full(back)) if since.elapsed() < SLOW_READER && !cancel.is_cancelled() => {
                piece = back;
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(_) => {
                cancel.cancel();
                return;
            }
        }
    }
}

/// A request that names a position still to be played: its fields and its game, replayed once (on a blocking
/// thread); a game already over is refused before it waits for an engine, since there is nothing to search.
async fn unfinished<R>(rules: Rules, body: Bytes, game_of_request: fn(&R) -> &str) -> Result<(R, Game), WebError>
where
    R: DeserializeOwned + Send + 'static,
{
    let (request, game) = blocking(move || {
        let request: R = parse(&body)?;
        let (_, game) = game_of(game_of_request(&request), rules)?;
        Ok((request, game))
    })
    .await?;
    if game.state().is_over() {
        return Err(engine_error(EngineError::GameOver(game.state())));
    }
    Ok((request, game))
}

/// `/api/bestmove`: the engine's move, and the game after it.
pub(crate) async fn best_move(searching: &Searching, body: Bytes) -> Result<Response<Body>, WebError> {
    let (request, game) = unfinished(searching.rules, body, |request: &BestMoveRequest| &request.game).await?;
    let level = match request.level {
        None => Level::FULL,
        Some(level) => {
            Level::new(level).map_err(|_| WebError::BadRequest(format!("level must be from 1 to {}", Level::FULL)))?
        }
    };
    let to_move = game.position().to_move();
    let limits = limits(
        request.time,
        request.depth,
        request.nodes,
        request.clock.map(|clock| (clock, to_move)),
        Limits::time(DEFAULT_MOVE_TIME),
    )?;
    let cancel = Cancel::default();
    let guard = cancel.on_drop();
    let lease = searching.pool.lend(&cancel).await.map_err(pool_error)?;
    let (options, searched) = (searching.options.clone(), game.clone());
    let thought = lease
        .run(&cancel, move |engine, _| {
            engine::best_move(engine, &options, searched, level, &limits)
        })
        .await
        .map_err(lent_fault)?
        .map_err(engine_error)?;
    guard.disarm();
    blocking(move || {
        let mut game = game;
        game.play(thought.report.best)
            .map_err(|e| WebError::Fault(format!("the engine's move {} cannot be played: {e}", thought.best)))?;
        let mut answer = score_json(&thought, to_move);
        answer["move"] = json!(thought.best.to_string());
        answer["nodes"] = json!(thought.report.nodes);
        answer["state"] = state_of(&game);
        Ok(ok(&answer))
    })
    .await
}

/// `/api/analyse`: the best lines of a position, streamed as the search deepens, until the reader goes away (or
/// the time given, at most ten minutes).
pub(crate) async fn analyse(searching: &Searching, body: Bytes) -> Result<Response<Body>, WebError> {
    let (request, game) = unfinished(searching.rules, body, |request: &AnalyseRequest| &request.game).await?;
    let lines = request.lines.unwrap_or(1);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(WebError::BadRequest(format!("lines must be from 1 to {MAX_LINES}")));
    }
    let time = match request.time {
        Some(time) => seconds("time", time, MAX_TIME)?,
        None => MAX_ANALYSIS,
    };
    let limits = Limits::time(time);
    let to_move = game.position().to_move();
    let options = searching.options.clone();
    streamed(
        &searching.pool,
        move |engine, cancel, progress| {
            engine::analyse(engine, &options, game, lines, &limits, |info| {
                // An update the reader has no room for is skipped: the next one says more.
                if progress.try_send(event("info", &info_json(info, to_move))).is_err() && progress.is_closed() {
                    cancel.cancel();
                }
            })
        },
        move |lines| {
            event(
                "done",
                &json!({"lines": lines.iter().map(|t| score_json(t, to_move)).collect::<Vec<_>>()}),
            )
        },
    )
}

/// Work run on an engine lent by the pool (waiting its turn as a search does, refused as busy when the queue is
/// full), with the flag that a visitor gone raises: for the routes that prove and rate puzzles.
pub(crate) async fn run_lent<T: Send + 'static>(
    searching: &Searching,
    work: impl FnOnce(&mut Engine, &std::sync::atomic::AtomicBool) -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    let cancel = Cancel::default();
    let guard = cancel.on_drop();
    let lease = searching.pool.lend(&cancel).await.map_err(pool_error)?;
    let result = lease
        .run(&cancel, move |engine, cancel| work(engine, cancel.flag()))
        .await
        .map_err(lent_fault)?;
    guard.disarm();
    result
}

/// A search streamed as Server-Sent Events: refused as busy (503) when the pool's queue is full, else answered at
/// once with the stream, while the search waits for an engine and runs on it. `work` gets the engine, the search's
/// [`Cancel`] and the sender for its progress events; `done` turns its result into the last event (an `error`
/// event when the search fails).
fn streamed<T: Send + 'static>(
    pool: &Arc<Pool>,
    work: impl FnOnce(&mut Engine, &Cancel, mpsc::Sender<Bytes>) -> Result<T, EngineError> + Send + 'static,
    done: impl FnOnce(T) -> Bytes + Send + 'static,
) -> Result<Response<Body>, WebError> {
    pool.admits().map_err(pool_error)?;
    let (sender, pieces) = mpsc::channel(64);
    let cancel = Cancel::default();
    let guard = cancel.on_drop();
    let pool = pool.clone();
    tokio::spawn(async move {
        let Some(lease) = lend(&pool, &cancel, &sender).await else {
            return;
        };
        let progress = sender.clone();
        let last = match lease
            .run(&cancel, move |engine, cancel| work(engine, cancel, progress))
            .await
        {
            Ok(Ok(result)) => done(result),
            Ok(Err(error)) => event("error", &json!({"error": engine_error(error).to_string()})),
            Err(fault_) => event("error", &json!({"error": lent_fault(fault_).to_string()})),
        };
        let _ = sender.send(last).await;
    });
    Ok(stream(pieces, guard))
}

/// An engine for a stream's work, saying `waiting` first when none is free; `None` (an `error` event sent) when
/// none can be had.
async fn lend(pool: &Arc<Pool>, cancel: &Cancel, sender: &mpsc::Sender<Bytes>) -> Option<crate::http::Lease> {
    let status = pool.status();
    if status.running >= status.engines {
        let _ = sender
            .send(event(
                "waiting",
                &json!({"running": status.running, "waiting": status.waiting}),
            ))
            .await;
    }
    match pool.lend(cancel).await {
        Ok(lease) => {
            let _ = sender.send(event("started", &json!({}))).await;
            Some(lease)
        }
        Err(error) => {
            let _ = sender
                .send(event("error", &json!({"error": pool_error(error).to_string()})))
                .await;
            None
        }
    }
}

/// A `ply` event of a review: the move judged as `waggle review --json` gives it, with White's win chance after
/// it, the points it gave away and the number of moves in the game.
#[derive(Serialize)]
struct JudgedPly {
    #[serde(flatten)]
    judged: JudgedMove,
    white_chance: f64,
    lost: f64,
    of: usize,
}

/// `/api/review`: every move of a game judged (`waggle review`'s judgement), a `ply` event each, then `done` with
/// each side's summary.
pub(crate) async fn review(searching: &Searching, body: Bytes) -> Result<Response<Body>, WebError> {
    let rules = searching.rules;
    let (request, game) = blocking(move || {
        let request: ReviewRequest = parse(&body)?;
        let (_, game) = game_of(&request.game, rules)?;
        Ok((request, game))
    })
    .await?;
    let total = game.record().len();
    if total > MAX_REVIEW_PLIES {
        return Err(WebError::BadRequest(format!(
            "a review takes games of {MAX_REVIEW_PLIES} plies at most"
        )));
    }
    if total == 0 {
        return Err(WebError::Unprocessable("the game has no move to review".into()));
    }
    let limits = limits(
        request.time,
        request.depth,
        request.nodes,
        None,
        Limits::time(DEFAULT_REVIEW_TIME),
    )?;
    let options = searching.options.clone();
    streamed(
        &searching.pool,
        move |engine, cancel, progress| {
            engine::review(engine, &options, &game, &limits, cancel.flag(), |ply| {
                let judged = JudgedPly {
                    judged: ply.judged(1),
                    white_chance: rounded_chance(ply.white_chance()),
                    lost: rounded_chance(ply.lost() / 100.0) * 100.0,
                    of: total,
                };
                deliver(&progress, event("ply", &judged), cancel);
            })
        },
        |review| event("done", &review.summary_record()),
    )
}
