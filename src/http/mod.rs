//! Serving front ends over HTTP/1.1: the transport that `waggle json --listen` and `waggle web` share, so that
//! both behave the same under load. Owns the connections (accepted without a cap of their own: an idle connection
//! costs a few kilobytes and never holds a place a visitor needs), the bounds on each request (the size of its
//! head and body, the time to send them, how long a kept-alive connection may sit idle), the response bodies
//! (whole or streamed, a streamed one noticing its reader has gone), a handler that panics (status 500; serving
//! goes on), stopping, and the engines that requests think with: a pool of a few engines lent in turn, so that the
//! work done at once and the memory are bounded, not the visitors.
//!
//! What a request means and what it is answered is the front end's ([`Service`]).

mod body;
mod catch;
mod files;
mod pool;
mod server;

pub(crate) use body::{read_body, Body, BodyError};
pub(crate) use pool::{searches_at_once, Cancel, CancelOnDrop, Fault, Lease, Pool, PoolError, PoolStatus};
pub(crate) use server::{serve, Reached, Service, Settings};

use hyper::header::{HeaderValue, CONNECTION, CONTENT_TYPE};
use hyper::{Response, StatusCode};

/// `body` as a response with `status` and `content_type`.
pub(crate) fn reply(status: StatusCode, content_type: &'static str, body: impl Into<Body>) -> Response<Body> {
    let mut response = Response::new(body.into());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// `response`, saying that the connection closes after it: for a request whose body was left unread, or not read
/// to its end. hyper will not look for the next request in the middle of that body and closes the connection,
/// but on its own says so only when it noticed the unread body before writing the head (and keeps the connection
/// when the whole body happened to come with the head): a client that had sent more requests on it was left
/// waiting for their answers.
pub(crate) fn closing(mut response: Response<Body>) -> Response<Body> {
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}
