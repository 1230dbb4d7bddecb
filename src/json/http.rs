//! Serving the API over HTTP/1.1 (the transport is `crate::http`'s, shared with `waggle web`): each POST body is
//! one request, answered with the response as the body (`Content-Type: application/json`). A request that thinks
//! borrows an engine from the server's pool, waiting its turn when all are thinking (its deadline counted from its
//! arrival, so that it still answers in time, thinking less); a request read or answered without thinking never
//! waits for one.
//!
//! Owns what is particular to this API's transport: POST only, the status codes, the bound on a request body
//! ([`MAX_LINE`], as on stdio), the answer to a request that panics (status 500 with an Error body) and stopping
//! (no new connection is taken, the requests in progress are answered).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::panic;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::body::{Body as _, Incoming};
use hyper::{Method, Request, Response, StatusCode};

use super::error::RequestError;
use super::request::{read_request, Ids, Request as ApiRequest};
use super::stdio::MAX_LINE;
use super::{error_body, error_response, failure, report, respond_to, Answer, Notes, Thinking};
use crate::http::{self, closing, read_body, reply, searches_at_once, Body, BodyError, Cancel, Pool, Settings};

/// How requests are served: a head must come within 10 s (also the longest a kept-alive connection waits idle),
/// 64 KB of head at most, 128 requests answered at once, and clients that shut their side still get answers.
const SETTINGS: Settings = Settings {
    head_timeout: Duration::from_secs(10),
    max_head: 64 * 1024,
    answering: 128,
    half_close: true,
    grace: None,
};

/// How long a client may take to send a request's body.
const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The most requests waiting for an engine; more get status 503 at once.
pub const MAX_WAITING: usize = 64;

/// Serve on `addr` until `stop` is raised; `on_ready` hears the bound address (useful with port 0). Returns the
/// number of requests answered, once those in progress when `stop` was raised have been.
pub fn serve(addr: &str, on_ready: impl FnOnce(SocketAddr), stop: &AtomicBool, thinking: Thinking) -> io::Result<u64> {
    let engines = searches_at_once(thinking.options.max_helper_threads);
    let thinking = Arc::new(thinking);
    let builder = thinking.clone();
    let service = Arc::new(JsonService {
        pool: Arc::new(Pool::new(engines, MAX_WAITING, move || builder.engine())),
        answered: AtomicU64::new(0),
        notes: thinking.notes.clone(),
        read: read_request,
    });
    http::serve(addr, on_ready, stop, service.clone(), SETTINGS)?;
    Ok(service.answered.load(Ordering::SeqCst))
}

/// What every request shares.
struct JsonService {
    pool: Arc<Pool>,
    /// Requests answered with an API response.
    answered: AtomicU64,
    /// Where notes on the requests go.
    notes: Notes,
    /// How a body is read into a request ([`read_request`], or a stand-in in tests).
    read: Reader,
}

/// What reads a request's body.
type Reader = fn(&str) -> (Ids, Result<ApiRequest, RequestError>);

impl http::Service for JsonService {
    fn answer(self: Arc<Self>, request: Request<Incoming>) -> Pin<Box<dyn Future<Output = Response<Body>> + Send>> {
        Box::pin(async move { self.answer_request(request).await })
    }

    fn fault(&self, message: &str) -> Response<Body> {
        let message = format!(
            "Waggle failed on this request ({message}): this is a bug in Waggle, please report it with the request"
        );
        json(StatusCode::INTERNAL_SERVER_ERROR, error_body(&message))
    }

    fn stopping(&self) {}
}

impl JsonService {
    /// Answer one HTTP request.
    async fn answer_request(&self, request: Request<Incoming>) -> Response<Body> {
        let arrived = Instant::now();
        if request.method() != Method::POST {
            let refusal = json(
                StatusCode::METHOD_NOT_ALLOWED,
                error_body("send each request as the body of a POST"),
            );
            // Its body, if any, is left unread.
            return if request.body().is_end_stream() {
                refusal
            } else {
                closing(refusal)
            };
        }
        let body = match read_body(request, MAX_LINE, BODY_TIMEOUT).await {
            Ok(body) => body,
            Err(BodyError::TooLong(_)) => {
                let error = error_response(&Ids::default(), &RequestError::TooLong(MAX_LINE));
                return closing(json(StatusCode::PAYLOAD_TOO_LARGE, error));
            }
            Err(error @ BodyError::Unreadable) => {
                return closing(json(StatusCode::BAD_REQUEST, error_body(&error.to_string())))
            }
            Err(error @ BodyError::TooSlow) => {
                return closing(json(StatusCode::REQUEST_TIMEOUT, error_body(&error.to_string())))
            }
        };
        let Ok(text) = String::from_utf8(body.to_vec()) else {
            return json(StatusCode::OK, error_response(&Ids::default(), &RequestError::NotText));
        };
        let reader = self.read;
        // Reading a request of up to 16 MB takes time: on a blocking thread, not the one serving the connections.
        let read = tokio::task::spawn_blocking(move || panic::catch_unwind(|| reader(&text))).await;
        let (ids, request) = match read {
            Ok(Ok(read)) => read,
            Ok(Err(panic)) => return json(StatusCode::INTERNAL_SERVER_ERROR, error_body(&failure(panic.as_ref()))),
            Err(error) => return http::Service::fault(self, &error.to_string()),
        };
        let answer = match request {
            Ok(ApiRequest::ChooseTurn(choose)) => {
                let request = ApiRequest::ChooseTurn(choose);
                match self.think(request, ids.clone(), arrived).await {
                    Ok(answer) => answer,
                    Err(response) => return response,
                }
            }
            Ok(request) => match respond_to(&request, &ids, &mut NoEngine, Duration::ZERO) {
                Ok((response, notes)) => Answer { response, notes },
                Err(error) => Answer {
                    response: error_response(&ids, &error),
                    notes: Vec::new(),
                },
            },
            Err(error) => Answer {
                response: error_response(&ids, &error),
                notes: Vec::new(),
            },
        };
        report(&ids, &answer.notes, &self.notes);
        self.answered.fetch_add(1, Ordering::SeqCst);
        json(StatusCode::OK, answer.response)
    }

    /// Answer a request that thinks, with an engine of the pool once it is free; the search is stopped should the
    /// connection fail meanwhile (hyper then drops this future, and the guard with it).
    async fn think(&self, request: ApiRequest, ids: Ids, arrived: Instant) -> Result<Answer, Response<Body>> {
        let cancel = Cancel::default();
        let guard = cancel.on_drop();
        let lease = match self.pool.lend(&cancel).await {
            Ok(lease) => lease,
            Err(error) => return Err(json(StatusCode::SERVICE_UNAVAILABLE, error_body(&error.to_string()))),
        };
        let waited = arrived.elapsed();
        let ran = lease
            .run(&cancel, move |engine, _| {
                match respond_to(&request, &ids, &mut &mut *engine, waited) {
                    Ok((response, notes)) => Answer { response, notes },
                    Err(error) => Answer {
                        response: error_response(&ids, &error),
                        notes: Vec::new(),
                    },
                }
            })
            .await;
        guard.disarm();
        ran.map_err(|fault| json(StatusCode::INTERNAL_SERVER_ERROR, error_body(&fault.to_string())))
    }
}

/// No engine: for requests that do not think.
struct NoEngine;

impl super::EngineSource for NoEngine {
    fn engine(&mut self) -> Option<&mut crate::engine::Engine> {
        None
    }
}

/// `body` (JSON) with `status`.
fn json(status: StatusCode, body: String) -> Response<Body> {
    reply(status, "application/json", body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write as _};
    use std::net::TcpStream;
    use std::thread;

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
        let thinking = Arc::new(Thinking::default());
        let builder = thinking.clone();
        let service = Arc::new(JsonService {
            pool: Arc::new(Pool::new(1, MAX_WAITING, move || builder.engine())),
            answered: AtomicU64::new(0),
            notes: Notes::default(),
            read: |text| match text {
                "boom" => panic!("a fault made on purpose"),
                text => read_request(text),
            },
        });
        let (flag, served) = (stop.clone(), service.clone());
        let server = thread::spawn(move || {
            http::serve("127.0.0.1:0", |addr| ready.send(addr).unwrap(), &flag, served, SETTINGS).unwrap()
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
        server.join().unwrap();
        assert_eq!(service.answered.load(Ordering::SeqCst), 1, "the greeting was answered");
    }
}
