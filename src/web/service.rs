//! What every request of `waggle web` shares, and the way each is answered: its Host and Origin checked, its
//! route read ([`Route`]), its body read within bounds, then handed to the routes that do not search (`api`) or to
//! those that do (`search`).

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode};

use super::error::WebError;
use super::guard::Hosts;
use super::reply::{blocking, failure, fault, ok, refused_host_page};
use super::route::{Action, Query, Route};
use super::search::{self, Searching};
use super::{api, puzzles};
use crate::http::{self, read_body, reply, Body, BodyError, Reached};

/// The longest request body read: a long game's `.pgn` is a few kilobytes.
pub(crate) const MAX_BODY: usize = 256 * 1024;

/// How long a client may take to send a request's body.
const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The page's Content-Security-Policy: everything from this server, nothing from anywhere else.
const POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; \
                      connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// What every request shares.
pub(crate) struct WebService {
    /// The engines, and how each search starts.
    pub(crate) searching: Searching,
    /// The names this server answers to, known once it listens.
    pub(crate) hosts: OnceLock<Hosts>,
    /// The games database of the explorer, if the server has one.
    #[cfg(feature = "db")]
    pub(crate) explorer: Option<Arc<super::explorer::Explorer>>,
}

impl http::Service for WebService {
    fn answer(self: Arc<Self>, request: Request<Incoming>) -> Pin<Box<dyn Future<Output = Response<Body>> + Send>> {
        Box::pin(async move {
            let page = !request.uri().path().starts_with("/api/");
            match self.route(request).await {
                Ok(response) => response,
                // A browser that opened the page by a name this server does not answer to is shown what to do.
                Err(error @ WebError::Host(_)) if page => refused_host_page(&error),
                Err(error) => failure(&error),
            }
        })
    }

    fn fault(&self, message: &str) -> Response<Body> {
        failure(&fault(message))
    }

    fn stopping(&self) {
        self.searching.pool.close();
    }
}

impl WebService {
    /// Answer a request, or say why not.
    async fn route(self: &Arc<Self>, request: Request<Incoming>) -> Result<Response<Body>, WebError> {
        if let Some(hosts) = self.hosts.get() {
            let reached = request.extensions().get::<Reached>().map(|reached| reached.0);
            hosts.check(request.headers(), reached)?;
        }
        match Route::of(request.method(), request.uri().path())? {
            Route::Page { asset, head } => {
                let mut response = reply(StatusCode::OK, asset.content_type, asset.bytes);
                let headers = response.headers_mut();
                headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
                headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
                headers.insert("content-security-policy", HeaderValue::from_static(POLICY));
                headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
                if head {
                    *response.body_mut() = Body::Whole(None);
                }
                Ok(response)
            }
            Route::Get(Query::Info) => {
                let mut info = api::info(self.searching.pool.status().engines);
                info["database"] = self.database_info();
                Ok(ok(&info))
            }
            Route::Get(Query::Status) => Ok(ok(&api::status(self.searching.pool.status()))),
            Route::Post(action) => self.post(action, request).await,
        }
    }

    /// Answer a POST of the API: its body must be JSON, at most [`MAX_BODY`] bytes of it.
    async fn post(&self, action: Action, request: Request<Incoming>) -> Result<Response<Body>, WebError> {
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
        let rules = self.searching.rules;
        match action {
            Action::Position => blocking(move || api::position(&body, rules)).await,
            Action::Play => blocking(move || api::play(&body, rules)).await,
            Action::Undo => blocking(move || api::undo(&body, rules)).await,
            Action::Import => blocking(move || api::import(&body, rules)).await,
            Action::Export => blocking(move || api::export(&body, rules)).await,
            Action::BestMove => search::best_move(&self.searching, body).await,
            Action::Analyse => search::analyse(&self.searching, body).await,
            Action::Review => search::review(&self.searching, body).await,
            #[cfg(feature = "db")]
            Action::Explore => {
                let explorer = self.explorer.clone();
                blocking(move || super::explorer::explore(explorer.as_deref(), &body, rules)).await
            }
            #[cfg(feature = "db")]
            Action::AddGame => {
                let explorer = self.explorer.clone();
                blocking(move || super::explorer::add(explorer.as_deref(), &body, rules)).await
            }
            #[cfg(not(feature = "db"))]
            Action::Explore | Action::AddGame => Err(WebError::Unavailable(
                "this Waggle was built without the games database (its `db` feature)".into(),
            )),
            Action::Puzzles => blocking(move || puzzles::list(&body)).await,
            Action::PuzzlesRead => blocking(move || puzzles::read(&body)).await,
            Action::PuzzleMove => puzzles::try_move(&self.searching, body).await,
            Action::PuzzleHelp => puzzles::help(&self.searching, body).await,
            Action::PuzzleMistakes => puzzles::mistakes(&self.searching, body).await,
        }
    }

    /// What `/api/info` says of the games database: its file and size, or null without one.
    fn database_info(&self) -> serde_json::Value {
        #[cfg(feature = "db")]
        if let Some(explorer) = &self.explorer {
            return explorer.info();
        }
        serde_json::Value::Null
    }
}
