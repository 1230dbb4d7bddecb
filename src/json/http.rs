//! Serving the API over HTTP with `tiny_http` (small, synchronous, no async runtime): each POST body is one
//! request, answered with the response as the body (`Content-Type: application/json`), each on a thread of its own
//! so that a long think does not hold up the other games.
//!
//! Owns the transport only: status codes, the body size limit, how many requests are served at once, a request
//! that panics (status 500 with an Error body; the server goes on) and stopping (no new request is taken, those in
//! progress are answered). What a request gets as its answer is [`respond`]'s.

use std::io::{self, Read};
use std::net::SocketAddr;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, Server};

use super::error::RequestError;
use super::request::Ids;
use super::stdio::MAX_LINE;
use super::{error_body, error_response, failure, respond};

/// The most requests thought about at once (each has a thread and a 16 MB table); more get status 503.
pub const MAX_IN_FLIGHT: usize = 64;

/// How often the server looks at its stop flag while no request comes.
const STOP_POLL: Duration = Duration::from_millis(50);

/// What answers a request body: [`respond`], or a stand-in in tests.
type Responder = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// Serve on `addr` until `stop` is raised; `on_ready` hears the bound address (useful with port 0). Returns the
/// number of requests answered, once those in progress when `stop` was raised have been.
pub fn serve(addr: &str, on_ready: impl FnOnce(SocketAddr), stop: &AtomicBool) -> io::Result<u64> {
    serve_with(addr, on_ready, stop, Arc::new(respond))
}

fn serve_with(
    addr: &str,
    on_ready: impl FnOnce(SocketAddr),
    stop: &AtomicBool,
    responder: Responder,
) -> io::Result<u64> {
    let server = Server::http(addr).map_err(|e| io::Error::other(format!("cannot listen on {addr}: {e}")))?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| io::Error::other(format!("{addr} is not an IP address")))?;
    on_ready(bound);
    let in_flight = Arc::new(AtomicUsize::new(0));
    let answered = Arc::new(AtomicU64::new(0));
    while !stop.load(Ordering::SeqCst) {
        let request = match server.recv_timeout(STOP_POLL) {
            Ok(Some(request)) => request,
            Ok(None) => continue,
            Err(e) => return Err(e),
        };
        if in_flight.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
            in_flight.fetch_sub(1, Ordering::SeqCst);
            let busy = format!("Waggle is answering {MAX_IN_FLIGHT} requests already: try again shortly");
            reply(request, 503, &error_body(&busy));
            continue;
        }
        let slot = Slot(in_flight.clone());
        let (responder, answered) = (responder.clone(), answered.clone());
        // Should no thread be had, the closure is dropped with the request (closing its connection) and the slot.
        let _ = thread::Builder::new()
            .name("waggle json request".into())
            .spawn(move || {
                answer(request, responder.as_ref());
                answered.fetch_add(1, Ordering::SeqCst);
                drop(slot);
            });
    }
    // Those in progress are answered: each thinks within the deadline its request gave.
    while in_flight.load(Ordering::SeqCst) > 0 {
        thread::sleep(Duration::from_millis(10));
    }
    Ok(answered.load(Ordering::SeqCst))
}

/// One of the [`MAX_IN_FLIGHT`] places, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Answer one HTTP request.
fn answer(mut request: Request, responder: &(dyn Fn(&str) -> String + Send + Sync)) {
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
    let text = match std::str::from_utf8(&body) {
        Ok(text) => text,
        Err(_) => return reply(request, 200, &error_response(&Ids::default(), &RequestError::NotText)),
    };
    match panic::catch_unwind(AssertUnwindSafe(|| responder(text))) {
        Ok(response) => reply(request, 200, &response),
        Err(panic) => reply(request, 500, &error_body(&failure(panic.as_ref()))),
    }
}

/// Send `body` as JSON with `status`. A client that has gone away is no one's concern.
fn reply(request: Request, status: u16, body: &str) {
    let mut response = Response::from_string(body).with_status_code(status);
    if let Ok(header) = Header::from_bytes("Content-Type", "application/json") {
        response.add_header(header);
    }
    let _ = request.respond(response);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;
    use std::net::TcpStream;

    /// POST `body` and read the whole response (the server closes the connection).
    fn post(addr: SocketAddr, body: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(
            stream,
            "POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        text
    }

    #[test]
    fn a_request_that_panics_gets_a_500_and_the_next_one_is_served() {
        let stop = Arc::new(AtomicBool::new(false));
        let (ready, bound) = std::sync::mpsc::channel();
        let responder: Responder = Arc::new(|body: &str| {
            if body.contains("boom") {
                panic!("a fault made on purpose");
            }
            respond(body)
        });
        let flag = stop.clone();
        let server = thread::spawn(move || {
            serve_with("127.0.0.1:0", |addr| ready.send(addr).unwrap(), &flag, responder).unwrap()
        });
        let addr = bound.recv().unwrap();
        let failed = post(addr, "boom");
        assert!(failed.starts_with("HTTP/1.1 500"), "{failed}");
        let body = failed.split("\r\n\r\n").nth(1).unwrap();
        let error: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(error["response_type"], "Error");
        assert!(
            error["message"].as_str().unwrap().contains("(a fault made on purpose)"),
            "{body}"
        );
        let greeted = post(addr, r#"{"request_type": "Greetings", "request_id": "x"}"#);
        assert!(
            greeted.starts_with("HTTP/1.1 200") && greeted.contains("\"Greetings\""),
            "{greeted}"
        );
        stop.store(true, Ordering::SeqCst);
        assert_eq!(
            server.join().unwrap(),
            2,
            "both requests answered, then the server stopped"
        );
    }
}
