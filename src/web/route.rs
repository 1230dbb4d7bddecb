//! What a request asks for, read once from its method and path into a [`Route`], so that every other part of the
//! server matches on a type rather than on strings; a path that is nothing, or a method a route does not take,
//! is refused here.

use hyper::Method;

use super::assets::{self, Asset};
use super::error::WebError;

/// A route of `waggle web` (docs/web.md lists them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// A file of the page (`GET` or `HEAD`).
    Page {
        /// The file.
        asset: &'static Asset,
        /// A `HEAD` request: the headers alone.
        head: bool,
    },
    /// A `GET` of the API.
    Get(Query),
    /// A `POST` of the API, with a JSON body.
    Post(Action),
}

/// What a `GET` of the API asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Query {
    /// `/api/info`: what the page needs to know of the server.
    Info,
    /// `/api/status`: how busy the engines are.
    Status,
}

/// What a `POST` of the API asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// `/api/position`.
    Position,
    /// `/api/play`.
    Play,
    /// `/api/undo`.
    Undo,
    /// `/api/import`.
    Import,
    /// `/api/export`.
    Export,
    /// `/api/bestmove`.
    BestMove,
    /// `/api/analyse`.
    Analyse,
    /// `/api/review`.
    Review,
    /// `/api/explore`: the opening explorer.
    Explore,
    /// `/api/db/add`: a game added to the database.
    AddGame,
    /// `/api/puzzles`.
    Puzzles,
    /// `/api/puzzles/read`.
    PuzzlesRead,
    /// `/api/puzzles/move`.
    PuzzleMove,
    /// `/api/puzzles/help`.
    PuzzleHelp,
    /// `/api/puzzles/mistakes`.
    PuzzleMistakes,
}

impl Route {
    /// The route `method` and `path` ask for.
    pub(crate) fn of(method: &Method, path: &str) -> Result<Route, WebError> {
        let wrong = |allowed| {
            Err(WebError::Method {
                path: path.to_string(),
                allowed,
            })
        };
        if let Some(asset) = assets::find(path) {
            return match *method {
                Method::GET => Ok(Route::Page { asset, head: false }),
                Method::HEAD => Ok(Route::Page { asset, head: true }),
                _ => wrong("GET"),
            };
        }
        let route = match path {
            "/api/info" => Route::Get(Query::Info),
            "/api/status" => Route::Get(Query::Status),
            "/api/position" => Route::Post(Action::Position),
            "/api/play" => Route::Post(Action::Play),
            "/api/undo" => Route::Post(Action::Undo),
            "/api/import" => Route::Post(Action::Import),
            "/api/export" => Route::Post(Action::Export),
            "/api/bestmove" => Route::Post(Action::BestMove),
            "/api/analyse" => Route::Post(Action::Analyse),
            "/api/review" => Route::Post(Action::Review),
            "/api/explore" => Route::Post(Action::Explore),
            "/api/db/add" => Route::Post(Action::AddGame),
            "/api/puzzles" => Route::Post(Action::Puzzles),
            "/api/puzzles/read" => Route::Post(Action::PuzzlesRead),
            "/api/puzzles/move" => Route::Post(Action::PuzzleMove),
            "/api/puzzles/help" => Route::Post(Action::PuzzleHelp),
            "/api/puzzles/mistakes" => Route::Post(Action::PuzzleMistakes),
            _ => return Err(WebError::NotFound(path.to_string())),
        };
        match (route, method) {
            (Route::Get(_), &Method::GET) | (Route::Post(_), &Method::POST) => Ok(route),
            (Route::Post(_), _) => wrong("POST"),
            _ => wrong("GET"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_path_and_method_reads_as_its_route_or_a_refusal() {
        assert!(matches!(
            Route::of(&Method::GET, "/"),
            Ok(Route::Page { head: false, .. })
        ));
        assert!(matches!(
            Route::of(&Method::HEAD, "/index.html"),
            Ok(Route::Page { head: true, .. })
        ));
        assert_eq!(Route::of(&Method::GET, "/api/info"), Ok(Route::Get(Query::Info)));
        assert_eq!(Route::of(&Method::POST, "/api/play"), Ok(Route::Post(Action::Play)));
        assert_eq!(
            Route::of(&Method::POST, "/api/puzzles/move"),
            Ok(Route::Post(Action::PuzzleMove))
        );
        assert!(matches!(
            Route::of(&Method::POST, "/"),
            Err(WebError::Method { allowed: "GET", .. })
        ));
        assert!(matches!(
            Route::of(&Method::GET, "/api/play"),
            Err(WebError::Method { allowed: "POST", .. })
        ));
        assert!(matches!(
            Route::of(&Method::DELETE, "/api/status"),
            Err(WebError::Method { allowed: "GET", .. })
        ));
        assert!(matches!(
            Route::of(&Method::GET, "/api/nothing"),
            Err(WebError::NotFound(_))
        ));
    }
}
