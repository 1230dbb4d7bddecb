//! Serving the API over HTTP with `tiny_http` (small, synchronous, no async runtime): each POST body is one
//! request, answered with the response as the body (`Content-Type: application/json`), each on a thread of its own
//! so that a long think does not hold up the other games.
//!
//! Owns the transport only: status codes, the body size limit and how many requests are served at once. What a
//! request gets as its answer is [`respond`]'s.

use std::io::{self, Read};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

use tiny_http::{Header, Method, Request, Response, Server};

use super::error::RequestError;
use super::request::Ids;
use super::stdio::MAX_LINE;
use super::{error_response, respond};

/// The most requests thought about at once (each has a thread and a 16 MB table); more get status 503.
pub const MAX_IN_FLIGHT: usize = 64;

/// Serve on `addr` until the process ends; `on_ready` hears the bound address (useful with port 0).
pub fn serve(addr: &str, on_ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let server = Server::http(addr).map_err(|e| io::Error::other(format!("cannot listen on {addr}: {e}")))?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| io::Error::other(format!("{addr} is not an IP address")))?;
    on_ready(bound);
    let in_flight = Arc::new(AtomicUsize::new(0));
    for request in server.incoming_requests() {
        if in_flight.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
            in_flight.fetch_sub(1, Ordering::SeqCst);
            let busy = format!("Waggle is answering {MAX_IN_FLIGHT} requests already: try again shortly");
            reply(request, 503, &error_body(&busy));
            continue;
        }
        let slot = Slot(in_flight.clone());
        // Should no thread be had, the closure is dropped with the request (closing its connection) and the slot.
        let _ = thread::Builder::new()
            .name("waggle json request".into())
            .spawn(move || {
                answer(request);
                drop(slot);
            });
    }
    Ok(())
}

/// One of the [`MAX_IN_FLIGHT`] places, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Answer one HTTP request.
fn answer(mut request: Request) {
    if *request.method() != Method::Post {
        let refusal = error_body("send each request as the body of a POST");
        return reply(request, 405, &refusal);
    }
    let mut body = Vec::new();
    let limit = MAX_LINE as u64 + 1;
    if request.as_reader().take(limit).read_to_end(&mut body).is_err() {
        return reply(request, 400, &error_body("the request body could not be read"));
    }
    if body.len() > MAX_LINE {
        let refusal = error_response(&Ids::default(), &RequestError::TooLong(MAX_LINE));
        return reply(request, 413, &refusal);
    }
    let response = match std::str::from_utf8(&body) {
        Ok(text) => respond(text),
        Err(_) => error_response(&Ids::default(), &RequestError::NotText),
    };
    reply(request, 200, &response);
}

/// An Error response saying `message`.
fn error_body(message: &str) -> String {
    super::json_line(&super::ErrorResponse {
        response_type: "Error",
        request_id: None,
        game_id: None,
        message: message.into(),
    })
}

/// Send `body` as JSON with `status`. A client that has gone away is no one's concern.
fn reply(request: Request, status: u16, body: &str) {
    let mut response = Response::from_string(body).with_status_code(status);
    if let Ok(header) = Header::from_bytes("Content-Type", "application/json") {
        response.add_header(header);
    }
    let _ = request.respond(response);
}
