//! Serving the API over HTTP/1.1 with hyper on a small tokio runtime: each POST body is one request, answered
//! with the response as the body (`Content-Type: application/json`); each request thinks on a blocking thread of
//! its own, so that a long think does not hold up the other games.
//!
//! Owns the transport only: status codes, the limits that keep one client from taking the server down (the size
//! of a request's head and body, the time to send them, the connections and the requests served at once), a
//! request that panics (status 500 with an Error body; the server goes on) and stopping (no new connection is
//! taken, the requests in progress are answered). What a request gets as its answer is [`respond`]'s.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Body as _, Bytes, Incoming};
use hyper::header::{HeaderValue, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::RequestError;
use super::request::Ids;
use super::stdio::MAX_LINE;
use super::{error_body, error_response, failure, respond, Thinking};

/// The most requests thought about at once (each has a thread and a 16 MB table); more get status 503.
pub const MAX_IN_FLIGHT: usize = 64;

/// The most connections open at once; a connection beyond them is answered 503 and closed.
const MAX_CONNECTIONS: usize = 256;

/// The most bytes of a request's head (its request line and headers).
const MAX_HEAD: usize = 64 * 1024;

/// How long a client may take to send a request's head, and then its body: an idle or slow connection is closed
/// rather than held.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a connection being closed goes on reading what the client still sends (see [`Socket`]).
const LINGER: Duration = Duration::from_secs(2);

/// How often the server looks at its stop flag while no connection comes.
const STOP_POLL: Duration = Duration::from_millis(50);

/// What answers a request body: [`respond`], or a stand-in in tests.
type Responder = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// Serve on `addr` until `stop` is raised; `on_ready` hears the bound address (useful with port 0). Returns the
/// number of requests answered, once those in progress when `stop` was raised have been.
pub fn serve(addr: &str, on_ready: impl FnOnce(SocketAddr), stop: &AtomicBool, thinking: Thinking) -> io::Result<u64> {
    serve_with(
        addr,
        on_ready,
        stop,
        Arc::new(move |text: &str| respond(text, &thinking)),
    )
}

fn serve_with(
    addr: &str,
    on_ready: impl FnOnce(SocketAddr),
    stop: &AtomicBool,
    responder: Responder,
) -> io::Result<u64> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
        on_ready(listener.local_addr()?);
        let server = Server {
            responder,
            in_flight: Arc::new(AtomicUsize::new(0)),
            answered: Arc::new(AtomicU64::new(0)),
        };
        let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        let graceful = GracefulShutdown::new();
        let mut poll = tokio::time::interval(STOP_POLL);
        while !stop.load(Ordering::SeqCst) {
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                _ = poll.tick() => continue,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors, or a connection reset before it was accepted: wait a moment and go on
                // listening; the connections that close free what is needed.
                Err(_) => {
                    tokio::time::sleep(STOP_POLL).await;
                    continue;
                }
            };
            let Ok(permit) = connections.clone().try_acquire_owned() else {
                tokio::spawn(refuse(stream));
                continue;
            };
            let server = server.clone();
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_TIMEOUT)
                // The buffer's bound alone lets a head that arrives in one go grow past it (heads of 100 KB were
                // read): the head needs a bound of its own.
                .max_buf_size(MAX_HEAD)
                .max_header_size(MAX_HEAD)
                // A client may stop writing once its request is sent: its answer is still due. Without this, hyper
                // takes the end of the client's bytes for the client leaving, and drops the request being thought
                // about.
                .half_close(true)
                .serve_connection(
                    TokioIo::new(Socket {
                        open: Some((stream, permit)),
                    }),
                    service_fn(move |request| {
                        let server = server.clone();
                        async move { Ok::<_, Infallible>(server.answer(request).await) }
                    }),
                );
            tokio::spawn(graceful.watch(connection));
        }
        // Idle connections close now; those with a request in progress once it is answered; then their sockets,
        // which hold their places until they are closed.
        graceful.shutdown().await;
        let _ = connections.acquire_many(MAX_CONNECTIONS as u32).await;
        Ok(server.answered.load(Ordering::SeqCst))
    })
}

/// What every connection's requests share.
#[derive(Clone)]
struct Server {
    responder: Responder,
    /// Requests being thought about.
    in_flight: Arc<AtomicUsize>,
    /// Requests answered with an API response.
    answered: Arc<AtomicU64>,
}

impl Server {
    /// Answer one HTTP request.
    async fn answer(&self, request: Request<Incoming>) -> Response<Full<Bytes>> {
        if request.method() != Method::POST {
            let refusal = error_body("send each request as the body of a POST");
            let refusal = reply(StatusCode::METHOD_NOT_ALLOWED, refusal);
            // Its body, if any, is left unread.
            return if request.body().is_end_stream() {
                refusal
            } else {
                closing(refusal)
            };
        }
        let too_long = || {
            let error = error_response(&Ids::default(), &RequestError::TooLong(MAX_LINE));
            closing(reply(StatusCode::PAYLOAD_TOO_LARGE, error))
        };
        let declared = request
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        if declared.is_some_and(|length| length > MAX_LINE as u64) {
            return too_long();
        }
        let collected = Limited::new(request.into_body(), MAX_LINE).collect();
        let body = match tokio::time::timeout(BODY_TIMEOUT, collected).await {
            Ok(Ok(body)) => body.to_bytes(),
            Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => return too_long(),
            Ok(Err(_)) => {
                let unread = error_body("the request body could not be read");
                return closing(reply(StatusCode::BAD_REQUEST, unread));
            }
            Err(_) => {
                let late = error_body("the request body took too long to arrive");
                return closing(reply(StatusCode::REQUEST_TIMEOUT, late));
            }
        };
        let Ok(text) = String::from_utf8(body.to_vec()) else {
            return reply(StatusCode::OK, error_response(&Ids::default(), &RequestError::NotText));
        };
        let Some(slot) = Slot::take(&self.in_flight) else {
            let busy = format!("Waggle is answering {MAX_IN_FLIGHT} requests already: try again shortly");
            return reply(StatusCode::SERVICE_UNAVAILABLE, error_body(&busy));
        };
        let responder = self.responder.clone();
        // The slot goes with the thinking, not with this future: should the connection fail meanwhile, hyper drops
        // the future, but the thread thinks on, holding its table, until it is done.
        let thought = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            panic::catch_unwind(AssertUnwindSafe(|| responder(&text)))
        })
        .await;
        self.answered.fetch_add(1, Ordering::SeqCst);
        match thought {
            Ok(Ok(response)) => reply(StatusCode::OK, response),
            Ok(Err(panic)) => reply(StatusCode::INTERNAL_SERVER_ERROR, error_body(&failure(panic.as_ref()))),
            Err(_) => reply(
                StatusCode::INTERNAL_SERVER_ERROR,
                error_body("the request's thread was lost"),
            ),
        }
    }
}

/// A place among the [`MAX_IN_FLIGHT`] requests thought about at once, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    /// A place, if one is free.
    fn take(in_flight: &Arc<AtomicUsize>) -> Option<Slot> {
        if in_flight.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
            in_flight.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Slot(in_flight.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// `body` as JSON with `status`.
fn reply(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// `response`, saying that the connection closes after it: for a request whose body was left unread, or not read
/// to its end. hyper will not look for the next request in the middle of that body and closes the connection,
/// but on its own says so only when it noticed the unread body before writing the head (and keeps the connection
/// when the whole body happened to come with the head): a client that had sent more requests on it was left
/// waiting for their answers.
fn closing(mut response: Response<Full<Bytes>>) -> Response<Full<Bytes>> {
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A connection's socket, as hyper reads and writes it, and its place among [`MAX_CONNECTIONS`]. Once hyper is done
/// with it, it is closed the way HTTP asks of a server (RFC 9112, section 9.6; see [`linger`]), and only then gives
/// its place back.
struct Socket {
    /// `None` only once dropped, when both go to [`linger`].
    open: Option<(TcpStream, OwnedSemaphorePermit)>,
}

impl Socket {
    /// The stream, to read or write.
    fn stream(self: Pin<&mut Self>) -> io::Result<Pin<&mut TcpStream>> {
        match &mut self.get_mut().open {
            Some((stream, _)) => Ok(Pin::new(stream)),
            None => Err(io::ErrorKind::NotConnected.into()),
        }
    }
}

impl AsyncRead for Socket {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        self.stream()?.poll_read(cx, buf)
    }
}

impl AsyncWrite for Socket {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.stream()?.poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.stream()?.poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.open.as_ref().is_some_and(|(stream, _)| stream.is_write_vectored())
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.stream()?.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.stream()?.poll_shutdown(cx)
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        // Outside the runtime (as it is dropped) there is nothing left to linger for.
        if let (Some((stream, permit)), Ok(runtime)) = (self.open.take(), Handle::try_current()) {
            runtime.spawn(async move {
                linger(stream).await;
                drop(permit);
            });
        }
    }
}

/// Close `stream` in stages: its sending side first, then read and throw away what the client still sends, until
/// it closes its side or for [`LINGER`] at most, and only then the socket. A socket closed with bytes of the
/// client's unread gets the connection reset, and the reset throws away what was written but not yet delivered:
/// the answer to a request refused before its body or head was read, and those to the requests before it.
async fn linger(mut stream: TcpStream) {
    let _ = stream.shutdown().await;
    let _ = tokio::time::timeout(LINGER, tokio::io::copy(&mut stream, &mut tokio::io::sink())).await;
}

/// Turn away a connection beyond [`MAX_CONNECTIONS`]: a 503 with an Error body, then close it.
async fn refuse(mut stream: TcpStream) {
    let body = error_body(&format!(
        "Waggle has {MAX_CONNECTIONS} connections open already: try again shortly"
    ));
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).await;
    let _ = stream.write_all(body.as_bytes()).await;
    linger(stream).await;
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
        let responder: Responder = Arc::new(|body: &str| {
            if body.contains("boom") {
                panic!("a fault made on purpose");
            }
            crate::json::respond(body, &Thinking::default())
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
