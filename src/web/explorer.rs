//! The routes of the opening explorer, over the games database `waggle web --db PATH` names: the moves played from
//! a position with their counts and results and the latest games that reached it (`/api/explore`), and a game
//! added to the database (`/api/db/add`). Without a database (or in a build without the `db` feature) both answer
//! with what to do to have one. Each request borrows an open connection to the file (or opens another), on a
//! blocking thread.
//!
//! Owns those routes; the queries are `crate::db`'s.

use std::path::Path;
use std::sync::Mutex;

use hyper::Response;
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::WebError;
use super::reply::ok;
use super::request::{game_of, parse};
use crate::db::{Database, DbError, NewGame};
use crate::http::Body;
use crate::rules::position::{GameState, Rules};

/// The most games an explorer answer lists.
const MAX_GAMES: usize = 100;

/// What the page is told when the server has no database.
pub(crate) const NO_DATABASE: &str = "this server has no games database: start it with `waggle web --db PATH`, \
     after importing games with `waggle db add FILES… --db PATH`";

/// The database of a server, and its idle connections.
pub(crate) struct Explorer {
    path: String,
    idle: Mutex<Vec<Database>>,
}

impl Explorer {
    /// The database at `path`, opened (made if there is none) and checked.
    pub(crate) fn open(path: &Path) -> Result<Explorer, DbError> {
        let database = Database::open(path)?;
        Ok(Explorer {
            path: path.display().to_string(),
            idle: Mutex::new(vec![database]),
        })
    }

    /// `work` done with a connection of the pool (or a new one), which goes back to the pool after.
    fn with<T>(&self, work: impl FnOnce(&mut Database) -> Result<T, DbError>) -> Result<T, WebError> {
        let taken = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let mut database = match taken {
            Some(database) => database,
            None => Database::open(Path::new(&self.path)).map_err(|e| WebError::Fault(e.to_string()))?,
        };
        let done = work(&mut database).map_err(|e| WebError::Fault(e.to_string()));
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(database);
        }
        done
    }

    /// What `/api/info` says of the database: its file and how many games it holds.
    pub(crate) fn info(&self) -> Value {
        let games = self.with(|database| database.count()).ok();
        json!({"path": self.path, "games": games})
    }
}

/// `{"game": …, "games": N}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExploreRequest {
    game: String,
    #[serde(default = "twenty")]
    games: usize,
}

fn twenty() -> usize {
    20
}

/// `{"game": …, "white": …, "black": …, "result": …}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AddRequest {
    game: String,
    #[serde(default)]
    white: String,
    #[serde(default)]
    black: String,
    /// A result the moves need not reach (a resignation): `WhiteWins`, `BlackWins` or `Draw`.
    #[serde(default)]
    result: Option<String>,
}

/// The explorer's database, or the answer that there is none.
fn database(explorer: Option<&Explorer>) -> Result<&Explorer, WebError> {
    explorer.ok_or_else(|| WebError::Unavailable(NO_DATABASE.to_string()))
}

/// `/api/explore`: the moves played from the position and the latest games that reached it.
pub(crate) fn explore(explorer: Option<&Explorer>, body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let explorer = database(explorer)?;
    let request: ExploreRequest = parse(body)?;
    let (_, game) = game_of(&request.game, rules)?;
    let explored = explorer.with(|database| database.explore(&game, request.games.min(MAX_GAMES)))?;
    let mut answer = explored.to_json();
    // Which file on the server each game was read from is the server's business, not a visitor's.
    for game in answer["games"].as_array_mut().into_iter().flatten() {
        if let Some(fields) = game.as_object_mut() {
            fields.remove("source");
        }
    }
    Ok(ok(&answer))
}

/// `/api/db/add`: the game added to the database; says whether it was new and how many games there are now.
pub(crate) fn add(explorer: Option<&Explorer>, body: &[u8], rules: Rules) -> Result<Response<Body>, WebError> {
    let explorer = database(explorer)?;
    let request: AddRequest = parse(body)?;
    let (_, game) = game_of(&request.game, rules)?;
    if game.record().is_empty() {
        return Err(WebError::Unprocessable("the game has no move to add".into()));
    }
    let result = match request.result.as_deref() {
        None | Some("") => None,
        Some(name) => Some(
            GameState::from_name(name)
                .filter(|state| state.is_over())
                .ok_or_else(|| {
                    WebError::Unprocessable(format!("'{name}' is not a result: WhiteWins, BlackWins or Draw"))
                })?,
        ),
    };
    let tags = [
        ("White".to_string(), request.white),
        ("Black".to_string(), request.black),
    ];
    let entry = NewGame::of(&game, &tags, result, "the page");
    let (added, games) = explorer.with(|database| Ok((database.add_game(entry)?, database.count()?)))?;
    Ok(ok(&json!({"added": added, "games": games})))
}
