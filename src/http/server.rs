//! The accept loop and each connection: hyper serves HTTP/1.1 on a small tokio runtime (one thread for the
//! connections; work that takes time runs on blocking threads). No cap is put on the connections beyond the file
//! descriptors the system gives (an idle one costs a few kilobytes; the limit is raised as far as the system
//! allows), so idle or slow clients never take a visitor's place: a head must arrive within
//! [`Settings::head_timeout`], which is also how long a kept-alive connection may sit idle, and what is bounded is
//! the requests answered at once ([`Settings::answering`]), a request beyond them waiting its turn before its body
//! is read.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::body::Body;
use super::catch::CatchUnwind;
use super::files::raise_open_files_limit;

/// What a front end answers.
pub(crate) trait Service: Send + Sync + 'static {
    /// The response to `request` (its body not read yet: see [`super::read_body`]).
    fn answer(self: Arc<Self>, request: Request<Incoming>) -> Pin<Box<dyn Future<Output = Response<Body>> + Send>>;

    /// The response when answering panicked, `message` saying what the panic said.
    fn fault(&self, message: &str) -> Response<Body>;

    /// The server stops: end or let finish the work in progress, as the front end promises.
    fn stopping(&self);
}

/// The local address a request's connection came in on (in the request's extensions): the address of this machine
/// the client used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reached(pub(crate) SocketAddr);

/// How a server treats its connections.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// How long a client may take to send a request's head, and how long a kept-alive connection may wait idle for
    /// the next one before it is closed.
    pub(crate) head_timeout: Duration,
    /// The most bytes of a request's head (its request line and headers).
    pub(crate) max_head: usize,
    /// The most requests answered at once; more wait, with their bodies unread.
    pub(crate) answering: usize,
    /// Whether a client that stops sending (shuts its side) still gets its answers, as a game core that writes a
    /// request and shuts its side expects. Without it, a client that closes its side has gone (a browser tab
    /// closed), and a stream to it ends at once.
    pub(crate) half_close: bool,
    /// How long stopping waits for the requests in progress and the connections closing; `None`: until done.
    pub(crate) grace: Option<Duration>,
}

/// How long a connection being closed goes on reading what the client still sends (see [`Socket`]).
const LINGER: Duration = Duration::from_secs(2);

/// How often the server looks at its stop flag while no connection comes.
const STOP_POLL: Duration = Duration::from_millis(50);

/// The blocking threads at most: work beyond waits for one.
const BLOCKING_THREADS: usize = 64;

/// Connections counted at most, far beyond what any system's descriptors allow: the count only lets stopping wait
/// for the sockets still closing.
const COUNTED: usize = 1 << 20;

/// Serve `service` on `addr` until `stop` is raised; `on_ready` hears the bound address (useful with port 0).
pub(crate) fn serve<S: Service>(
    addr: &str,
    on_ready: impl FnOnce(SocketAddr),
    stop: &AtomicBool,
    service: Arc<S>,
    settings: Settings,
) -> io::Result<()> {
    raise_open_files_limit();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(BLOCKING_THREADS)
        .build()?;
    let served = runtime.block_on(async {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
        on_ready(listener.local_addr()?);
        let connections = Arc::new(Semaphore::new(COUNTED));
        let answering = Arc::new(Semaphore::new(settings.answering.max(1)));
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
            let _ = stream.set_nodelay(true);
            // The address the client reached this machine by: a server listening on every interface answers to
            // each of its own addresses (the front end reads it from the request's extensions).
            let reached = stream.local_addr().ok().map(Reached);
            let Ok(permit) = connections.clone().try_acquire_owned() else {
                continue;
            };
            let (service, answering) = (service.clone(), answering.clone());
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(settings.head_timeout)
                // The buffer's bound alone lets a head that arrives in one go grow past it (heads of 100 KB were
                // read): the head needs a bound of its own.
                .max_buf_size(settings.max_head.max(8192))
                .max_header_size(settings.max_head)
                .half_close(settings.half_close)
                .serve_connection(
                    TokioIo::new(Socket {
                        open: Some((stream, permit)),
                    }),
                    service_fn(move |mut request: Request<Incoming>| {
                        if let Some(reached) = reached {
                            request.extensions_mut().insert(reached);
                        }
                        let (service, answering) = (service.clone(), answering.clone());
                        async move { Ok::<_, Infallible>(answer(service, answering, request).await) }
                    }),
                );
            tokio::spawn(graceful.watch(connection));
        }
        service.stopping();
        // Idle connections close now; those with a request in progress once it is answered; then their sockets,
        // which hold their places until they are closed.
        let closed = async {
            graceful.shutdown().await;
            let _ = connections.acquire_many(COUNTED as u32).await;
        };
        match settings.grace {
            Some(grace) => {
                let _ = tokio::time::timeout(grace, closed).await;
            }
            None => closed.await,
        }
        Ok(())
    });
    // Blocking work still running was told to stop (`Service::stopping`); it is not waited for.
    runtime.shutdown_timeout(Duration::from_millis(100));
    served
}

/// Answer one request once it is its turn, a panic turned into the service's fault response.
async fn answer<S: Service>(service: Arc<S>, answering: Arc<Semaphore>, request: Request<Incoming>) -> Response<Body> {
    let Ok(_turn) = answering.acquire_owned().await else {
        return service.fault("the server is stopping");
    };
    match CatchUnwind::new(service.clone().answer(request)).await {
        Ok(response) => response,
        Err(panic) => service.fault(&crate::failure::panic_message(panic.as_ref())),
    }
}

/// A connection's socket, as hyper reads and writes it, and its place among the connections the descriptors
/// allow. Once hyper is done with it, it is closed the way HTTP asks of a server (RFC 9112, section 9.6; see
/// [`linger`]), and only then gives its place back.
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
