//! Why a request to `waggle web` failed, with the HTTP status it earns: 4xx for what the request got wrong (a
//! message that says what), 503 when the server is too busy, 500 for a fault of Waggle's. Every error reaches the
//! page as `{"error": "…"}`.

use hyper::StatusCode;

/// A request that cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum WebError {
    /// No such page or route.
    #[error("there is nothing at {0}")]
    NotFound(String),
    /// A route asked with the wrong method.
    #[error("{path} takes {allowed} requests")]
    Method {
        /// The route.
        path: String,
        /// The method it takes.
        allowed: &'static str,
    },
    /// A Host that is not one of this server's names.
    #[error(
        "this server does not answer to the host {0}: open it by one of its own addresses or names, or start it \
         with --allow-host NAME to let that name in"
    )]
    Host(String),
    /// An Origin that is not this server's, or no Host.
    #[error("{0}")]
    Forbidden(String),
    /// A body that is not JSON, or not the JSON the route takes.
    #[error("{0}")]
    BadRequest(String),
    /// A body longer than the bound.
    #[error("the request body is longer than {0} bytes")]
    TooLong(usize),
    /// A body that came too slowly.
    #[error("the request body took too long to arrive")]
    TooSlow,
    /// A POST that does not say its body is JSON.
    #[error("send the request's body as JSON (Content-Type: application/json)")]
    NotJson,
    /// What this server does not offer (the explorer without a database).
    #[error("{0}")]
    Unavailable(String),
    /// A game, move or record that Hive does not allow or that cannot be read.
    #[error("{0}")]
    Unprocessable(String),
    /// Too much work already.
    #[error("{0}")]
    Busy(String),
    /// A fault of Waggle's.
    #[error("{0}")]
    Fault(String),
}

impl WebError {
    /// The status the error earns.
    pub(crate) fn status(&self) -> StatusCode {
        match self {
            WebError::NotFound(_) | WebError::Unavailable(_) => StatusCode::NOT_FOUND,
            WebError::Method { .. } => StatusCode::METHOD_NOT_ALLOWED,
            WebError::Host(_) | WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::TooLong(_) => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::TooSlow => StatusCode::REQUEST_TIMEOUT,
            WebError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            WebError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            WebError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            WebError::Fault(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The body: `{"error": "…"}`.
    pub(crate) fn body(&self) -> String {
        serde_json::json!({ "error": self.to_string() }).to_string()
    }
}
