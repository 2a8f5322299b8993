//! Accepting connections with the limits a server needs when any process may connect: a
//! connection that sends nothing, half a request head, or a body that never ends must not
//! stay open, and open connections must not use up the process's file descriptors.
//!
//! - Head: a request's head arrives in full within [`Limits::header_timeout`] of when the
//!   server starts waiting for it (hyper's timer), so a connection that goes quiet between
//!   requests, or never sends one, is closed after it too.
//! - Body: a request's body arrives in full within [`Limits::body_timeout`] ([`read_body_in_time`]),
//!   or the answer is a 408 and the connection is closed.
//! - Idle: a connection on which nothing moves either way for [`Limits::idle_timeout`] is
//!   closed ([`IdleIo`]), wherever it stands (a client that stops reading its answer).
//! - Count: at most [`Limits::max_connections`] are open. One more closes the oldest that is
//!   waiting for its client (idle, or sending a body); when every one is busy with a request,
//!   the new one is closed instead.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{Notify, watch};

use super::problem::ApiError;

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            max_connections: default_max_connections(),
        }
    }
}

/// Half the process's file descriptor limit, at most 1024: the store and the runtime keep
/// the other half, so that accepting never fails for want of one.
fn default_max_connections() -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit(2) fills the struct it is given.
    let soft = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 { limit.rlim_cur } else { 1024 };
    usize::try_from(soft / 2).unwrap_or(usize::MAX).clamp(16, 1024)
}

/// What a connection is doing, for choosing which one to close when there are too many.
#[derive(Clone, Default)]
pub struct Activity(Arc<AtomicU8>);

/// Waiting for a request (new, or between two).
const IDLE: u8 = 0;
/// Reading a request's body.
const RECEIVING: u8 = 1;
/// A request is being answered.
const ANSWERING: u8 = 2;

impl Activity {
    fn set(&self, state: u8) {
        self.0.store(state, Ordering::Relaxed);
    }
    fn get(&self) -> u8 {
        self.0.load(Ordering::Relaxed)
    }
}

/// An open connection, as the accept loop sees it.
struct Slot {
    id: u64,
    activity: Activity,
    close: Arc<Notify>,
}

/// Serve `router` on `listener` within `limits` until `stop` turns true; then let every open
/// connection finish its request and return once all are closed.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let open: Arc<Mutex<Vec<Slot>>> = Arc::default();
    let mut tasks = tokio::task::JoinSet::new();
    let mut next_id = 0u64;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.wait_for(|stopping| *stopping) => break,
        };
        while tasks.try_join_next().is_some() {}
        let stream = match accepted {
            Ok((stream, _)) => stream,
            // Out of descriptors (or a connection reset before it was taken): wait a moment.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        next_id += 1;
        let id = next_id;
        let Some((activity, close)) = admit(&open, id, limits.max_connections) else {
            drop(stream); // every connection is busy answering: this one waits for none
            continue;
        };
        let open = Arc::clone(&open);
        let stop = stop.clone();
        let router = router.clone();
        tasks.spawn(async move {
            serve_connection(stream, router, limits, activity, close, stop).await;
            lock(&open).retain(|s| s.id != id);
        });
    }
    while tasks.join_next().await.is_some() {}
    Ok(())
}

/// A slot for connection `id`, closing the oldest waiting connection when all are taken;
/// `None` when every open connection is answering a request.
fn admit(open: &Mutex<Vec<Slot>>, id: u64, max: usize) -> Option<(Activity, Arc<Notify>)> {
    let mut open = lock(open);
    if open.len() >= max {
        let victim = open
            .iter()
            .position(|s| s.activity.get() == IDLE)
            .or_else(|| open.iter().position(|s| s.activity.get() == RECEIVING))?;
        open.remove(victim).close.notify_one();
    }
    let slot = Slot { id, activity: Activity::default(), close: Arc::new(Notify::new()) };
    let handles = (slot.activity.clone(), Arc::clone(&slot.close));
    open.push(slot);
    Some(handles)
}

fn lock(open: &Mutex<Vec<Slot>>) -> std::sync::MutexGuard<'_, Vec<Slot>> {
    open.lock().unwrap_or_else(|e| e.into_inner())
}

async fn serve_connection(
    stream: tokio::net::TcpStream,
    router: Router,
    limits: Limits,
    activity: Activity,
    close: Arc<Notify>,
    mut stop: watch::Receiver<bool>,
) {
    let service = TowerToHyperService::new(router);
    let tracked = activity.clone();
    let handler = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
        tracked.set(ANSWERING);
        request.extensions_mut().insert(tracked.clone());
        let answer = hyper::service::Service::call(&service, request.map(Body::new));
        let tracked = tracked.clone();
        async move {
            let response = answer.await;
            tracked.set(IDLE);
            response
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    let connection = builder.serve_connection(TokioIo::new(IdleIo::new(stream, limits.idle_timeout)), handler);
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => return,
        () = close.notified() => return,
        _ = stop.wait_for(|stopping| *stopping) => {}
    }
    // Shutting down: the request in progress is answered, no other is taken.
    connection.as_mut().graceful_shutdown();
    let _ = connection.await;
}

/// Read the whole request body within `timeout` (and within the body cap the router sets), so
/// that a client sending it slowly, or not at all, cannot hold the request open: a 408 then,
/// and the connection is closed.
pub async fn read_body_in_time(
    State((timeout, max_bytes)): State<(Duration, usize)>,
    request: Request,
    next: Next,
) -> Response {
    let activity = request.extensions().get::<Activity>().cloned();
    let (parts, body) = request.into_parts();
    if let Some(activity) = &activity {
        activity.set(RECEIVING);
    }
    let read = tokio::time::timeout(timeout, axum::body::to_bytes(body, max_bytes)).await;
    if let Some(activity) = &activity {
        activity.set(ANSWERING);
    }
    match read {
        Ok(Ok(bytes)) => next.run(Request::from_parts(parts, Body::from(bytes))).await,
        // The connection failed mid-body (hyper's error), or the body passed the cap.
        Ok(Err(err)) if failed_in_transit(&err) => {
            ApiError::bad_request("invalid_body", "the request body could not be read").into_response()
        }
        Ok(Err(_)) => ApiError::too_large(format!("the request body is over {max_bytes} bytes")).into_response(),
        Err(_) => {
            let mut response = ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "request_timeout",
                format!("the request body did not arrive within {}s", timeout.as_secs_f64()),
            )
            .into_response();
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

/// Whether reading a body failed on the connection (hyper's error somewhere in the chain)
/// rather than at the cap.
fn failed_in_transit(err: &axum::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(error) = cause {
        if error.is::<hyper::Error>() {
            return true;
        }
        cause = error.source();
    }
    false
}

/// A stream that fails once nothing has been read or written for `idle`, while the server
/// waits on it.
pub struct IdleIo<S> {
    inner: S,
    idle: Duration,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl<S> IdleIo<S> {
    pub fn new(inner: S, idle: Duration) -> IdleIo<S> {
        IdleIo { inner, idle, deadline: Box::pin(tokio::time::sleep(idle)) }
    }

    fn moved(&mut self) {
        self.deadline.as_mut().reset(tokio::time::Instant::now() + self.idle);
    }

    /// `Pending` from the stream: an error once the deadline passes.
    fn check(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "nothing moved on the connection for too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for IdleIo<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    self.moved();
                }
                Poll::Ready(result)
            }
            Poll::Pending => self.check(cx),
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for IdleIo<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, data) {
            Poll::Ready(result) => {
                if matches!(result, Ok(n) if n > 0) {
                    self.moved();
                }
                Poll::Ready(result)
            }
            Poll::Pending => self.check(cx).map_ok(|()| 0),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match Pin::new(&mut self.inner).poll_flush(cx) {
            Poll::Ready(result) => Poll::Ready(result),
            Poll::Pending => self.check(cx),
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test]
    async fn a_stream_where_nothing_moves_fails_after_the_idle_time() {
        let (client, server) = tokio::io::duplex(64);
        let mut io = IdleIo::new(server, Duration::from_millis(200));
        let mut client = client;
        client.write_all(b"ab").await.unwrap();
        let mut buf = [0u8; 2];
        io.read_exact(&mut buf).await.unwrap();
        let started = tokio::time::Instant::now();
        let err = io.read(&mut buf).await.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::TimedOut);
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(150) && waited < Duration::from_secs(2), "{waited:?}");
    }

    #[test]
    fn the_default_connection_limit_leaves_descriptors_to_spare() {
        let max = Limits::default().max_connections;
        assert!((16..=1024).contains(&max), "{max}");
    }
}
