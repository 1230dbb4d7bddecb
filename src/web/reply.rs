//! How `waggle web` answers: JSON with the headers every API answer gets, an error as `{"error": "…"}` with its
//! status, the page a browser is shown when its Host is refused, and work that takes time run on a blocking thread
//! with a panic turned into a fault. Shared by the routes that search and those that do not.

use std::panic::{self, AssertUnwindSafe};

use hyper::header::{HeaderValue, CACHE_CONTROL};
use hyper::{Response, StatusCode};
use serde::Serialize;

use super::error::WebError;
use crate::draw::escape;
use crate::engine::EngineError;
use crate::http::{reply, Body};

/// The error for a panic that said `message`.
pub(crate) fn fault(message: &str) -> WebError {
    WebError::Fault(format!(
        "Waggle failed on this request ({message}): this is a bug in Waggle, please report it with the request"
    ))
}

/// An engine error: the request's fault (422), or Waggle's (500).
pub(crate) fn engine_error(error: EngineError) -> WebError {
    match error {
        EngineError::Failed { .. } | EngineError::Memory(_) | EngineError::Table { .. } => {
            WebError::Fault(error.to_string())
        }
        other => WebError::Unprocessable(other.to_string()),
    }
}

/// The response for `error`.
pub(crate) fn failure(error: &WebError) -> Response<Body> {
    api(reply(error.status(), "application/json", error.body()))
}

/// The page a browser is shown for a Host this server does not answer to: what to type to let it in.
pub(crate) fn refused_host_page(error: &WebError) -> Response<Body> {
    let WebError::Host(host) = error else {
        return failure(error);
    };
    let host = escape(host);
    let name = escape(
        host.rsplit_once(':')
            .map_or(host.as_str(), |(name, _)| name)
            .trim_matches(['[', ']']),
    );
    let page = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\"><title>Waggle: not this name</title></head>\n<body \
         style=\"font: 16px/1.5 sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem\">\n<h1>This \
         Waggle server does not answer to {host}</h1>\n<p>So that no other web site can reach it through a name of \
         its own (DNS rebinding), <code>waggle web</code> answers only to its own addresses and names. To open it \
         as <b>{host}</b>, start it with the name let in:</p>\n<pre>waggle web --listen 0.0.0.0:PORT \
         --allow-host {name}</pre>\n<p>(<code>--allow-host</code> may be given several times; docs/web.md has a \
         section on playing from another device on the same network.)</p>\n</body></html>\n"
    );
    let mut response = reply(StatusCode::FORBIDDEN, "text/html; charset=utf-8", page);
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `response` with the headers every API answer gets: never cached, never sniffed.
pub(crate) fn api(mut response: Response<Body>) -> Response<Body> {
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    response
}

/// A JSON answer.
pub(crate) fn ok(value: &impl Serialize) -> Response<Body> {
    match serde_json::to_string(value) {
        Ok(text) => api(reply(StatusCode::OK, "application/json", text)),
        Err(error) => failure(&fault(&error.to_string())),
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
