//! Bodies both ways: a request's body read within bounds of size and time, and a response's body, whole or
//! streamed from a channel (Server-Sent Events). A streamed body writes a heartbeat when nothing else comes, so
//! that a reader who has gone is noticed within a beat (the write fails), and holds a guard that is dropped with
//! it: how a front end hears that nobody reads any more and stops the work that fed the stream.

use std::any::Any;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use http_body_util::{BodyExt, Limited};
use hyper::body::{Body as HttpBody, Bytes, Frame, Incoming, SizeHint};
use hyper::header::CONTENT_LENGTH;
use hyper::Request;
use tokio::sync::mpsc;
use tokio::time::{Interval, MissedTickBehavior};

/// Why a request's body could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BodyError {
    /// Longer than the bound (said in its head, or found while reading).
    #[error("the request body is longer than {0} bytes")]
    TooLong(usize),
    /// The connection failed or the body was malformed.
    #[error("the request body could not be read")]
    Unreadable,
    /// Not all of it came in time.
    #[error("the request body took too long to arrive")]
    TooSlow,
}

/// The body of `request`, at most `max` bytes, all of it within `time`.
pub(crate) async fn read_body(request: Request<Incoming>, max: usize, time: Duration) -> Result<Bytes, BodyError> {
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|length| length > max as u64) {
        return Err(BodyError::TooLong(max));
    }
    let collected = Limited::new(request.into_body(), max).collect();
    match tokio::time::timeout(time, collected).await {
        Ok(Ok(body)) => Ok(body.to_bytes()),
        Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => Err(BodyError::TooLong(max)),
        Ok(Err(_)) => Err(BodyError::Unreadable),
        Err(_) => Err(BodyError::TooSlow),
    }
}

/// A response's body.
pub(crate) enum Body {
    /// All of it at once (taken when written).
    Whole(Option<Bytes>),
    /// Pieces as they come, until every sender is dropped.
    Stream(Stream),
}

/// A streamed body's parts.
pub(crate) struct Stream {
    pieces: mpsc::Receiver<Bytes>,
    heartbeat: Interval,
    beat: Bytes,
    /// Dropped with the body: when the reader has gone, or the stream has ended.
    _guard: Box<dyn Any + Send>,
}

impl Body {
    /// A body streamed from `pieces`, writing `beat` whenever nothing came for `every`, and holding `guard` until
    /// it is dropped.
    pub(crate) fn stream(
        pieces: mpsc::Receiver<Bytes>,
        every: Duration,
        beat: &'static [u8],
        guard: impl Any + Send,
    ) -> Body {
        let mut heartbeat = tokio::time::interval(every);
        heartbeat.set_missed_tick_behavior(MissedTickBehavior::Delay);
        Body::Stream(Stream {
            pieces,
            heartbeat,
            beat: Bytes::from_static(beat),
            _guard: Box::new(guard),
        })
    }
}

impl From<String> for Body {
    fn from(text: String) -> Body {
        Body::Whole(Some(Bytes::from(text)))
    }
}

impl From<&'static str> for Body {
    fn from(text: &'static str) -> Body {
        Body::Whole(Some(Bytes::from_static(text.as_bytes())))
    }
}

impl From<&'static [u8]> for Body {
    fn from(bytes: &'static [u8]) -> Body {
        Body::Whole(Some(Bytes::from_static(bytes)))
    }
}

impl From<Vec<u8>> for Body {
    fn from(bytes: Vec<u8>) -> Body {
        Body::Whole(Some(Bytes::from(bytes)))
    }
}

impl HttpBody for Body {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        match self.get_mut() {
            Body::Whole(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Body::Stream(stream) => match stream.pieces.poll_recv(cx) {
                Poll::Ready(Some(piece)) => {
                    stream.heartbeat.reset();
                    Poll::Ready(Some(Ok(Frame::data(piece))))
                }
                Poll::Ready(None) => Poll::Ready(None),
                Poll::Pending => match stream.heartbeat.poll_tick(cx) {
                    Poll::Ready(_) => Poll::Ready(Some(Ok(Frame::data(stream.beat.clone())))),
                    Poll::Pending => Poll::Pending,
                },
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Body::Whole(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Body::Whole(Some(bytes)) => SizeHint::with_exact(bytes.len() as u64),
            Body::Whole(None) => SizeHint::with_exact(0),
            Body::Stream(_) => SizeHint::default(),
        }
    }
}
