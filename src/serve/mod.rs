//! `hanzo-env serve`: a local, durable, sealed implementation of the API (DESIGN.md §2, §8).
//!
//! The platform's endpoints, exactly:
//!
//! | Method | Path | Answer |
//! |---|---|---|
//! | GET | `/v1/environment` | `{"data":[Environment…]}`: repos with scripts saved, a proposal pending or a secret set |
//! | GET | `/v1/environment/{repo}` | `Environment` (state none, empty scripts, when nothing is saved) |
//! | PUT | `/v1/environment/{repo}` | `{"install","start"}` → `Environment`, state ready, pending proposal cleared |
//! | DELETE | `/v1/environment/{repo}` | 204; sealed values removed first, then the record (one transaction) |
//! | PUT | `/v1/environment/{repo}/secrets/{name}` | `{"value"}` → `Environment`; replaces an existing value |
//! | DELETE | `/v1/environment/{repo}/secrets/{name}` | `Environment`; 404 when the name is not set |
//!
//! **Local extension**, not part of the platform API:
//! `PUT /v1/environment/{repo}/proposal` with `{"install","start","secrets","note"}` records a
//! pending proposal, as the platform's setup run would (state `proposed`, a fresh `session`),
//! so that `diff --against proposal` and `pull` can be exercised offline. Saving scripts
//! afterwards is the review: it clears the proposal.
//!
//! Rules kept: bearer tokens checked in constant time ([`auth`]); orgs from `X-Org-Id`
//! ([`routes::DEFAULT_ORG`] when absent) share nothing; a strong `ETag` on every environment
//! answer and `If-Match` honoured on every write (412 on mismatch); caps and names of §2
//! refused as problem+json ([`problem`]); values sealed at rest ([`seal`]) in a redb file
//! committed durably before any write is acknowledged ([`store`]). DELETE of a repo with
//! nothing saved is a 204 too (deleting is idempotent).

pub mod auth;
pub mod conn;
pub mod problem;
pub mod routes;
pub mod seal;
pub mod store;

use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use auth::TokenOrigin;
pub use conn::Limits;
pub use seal::KeyOrigin;

/// How long requests in flight may take to finish once a shutdown is asked for.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// What `serve` needs, with every default already resolved by the command.
pub struct Config {
    pub listen: String,
    pub allow_remote: bool,
    pub data_dir: PathBuf,
    /// The platform config dir for a generated token and key (`<config>/hanzo-env`).
    pub config_dir: Option<PathBuf>,
    pub token_file: Option<PathBuf>,
    /// `HANZO_ENV_SERVE_TOKENS`.
    pub tokens_env: Option<zeroize::Zeroizing<String>>,
    pub key_file: Option<PathBuf>,
    /// `HANZO_ENV_SERVE_KEY`, base64.
    pub key_env: Option<zeroize::Zeroizing<String>>,
    /// Timeouts and the connection limit.
    pub limits: Limits,
}

/// What the server tells its operator once it listens.
#[derive(Debug)]
pub struct Started {
    pub url: String,
    pub address: SocketAddr,
    pub data_dir: PathBuf,
    pub tokens: TokenOrigin,
    pub key: KeyOrigin,
    /// Listening beyond loopback (allowed by `--allow-remote`): plain HTTP on the network.
    pub remote: bool,
    /// How many accepted tokens are shorter than [`auth::MIN_TOKEN_CHARS`] (loopback only:
    /// beyond it they are refused).
    pub short_tokens: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("`{0}` is not an address to listen on")]
    Address(String),
    #[error("refusing to listen on {0}: not a loopback address")]
    NotLoopback(SocketAddr),
    #[error("could not listen on {address}: {source}")]
    Bind { address: SocketAddr, source: std::io::Error },
    #[error("could not start the server: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Key(#[from] seal::KeyError),
    #[error(transparent)]
    Tokens(#[from] auth::TokenError),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl crate::diagnostic::Diagnostic for ServeError {
    fn hint(&self) -> Option<String> {
        match self {
            ServeError::Address(_) => {
                Some("pass --listen HOST:PORT, e.g. 127.0.0.1:8787 (port 0 picks a free one)".into())
            }
            ServeError::NotLoopback(_) => Some(
                "this server speaks plain HTTP: pass --allow-remote to listen beyond loopback, behind a TLS proxy"
                    .into(),
            ),
            ServeError::Bind { .. } => Some("pick another port with --listen, or stop what holds this one".into()),
            ServeError::Io(_) => None,
            ServeError::Key(e) => e.hint(),
            ServeError::Tokens(e) => e.hint(),
            ServeError::Store(e) => e.hint(),
        }
    }
}

/// Open the store, listen, call `on_start` once listening, and serve until `shutdown`
/// resolves; then finish the requests in flight and close the store cleanly.
pub fn run(
    config: Config,
    log: routes::LogSink,
    on_start: impl FnOnce(&Started),
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let address = parse_listen(&config.listen)?;
    let remote = !address.ip().is_loopback();
    if remote && !config.allow_remote {
        return Err(ServeError::NotLoopback(address));
    }
    let (key, key_origin) = seal::MasterKey::load(
        config.key_file.as_deref(),
        config.key_env.as_deref().map(String::as_str),
        config.config_dir.as_deref(),
        &config.data_dir,
    )?;
    let (tokens, token_origin) = auth::Tokens::load(
        config.token_file.as_deref(),
        config.tokens_env.as_deref().map(String::as_str),
        config.config_dir.as_deref(),
        &config.data_dir,
    )?;
    if remote {
        tokens.require_long()?;
    }
    let short_tokens = tokens.short();
    let store = Arc::new(store::Store::open(&config.data_dir, &key)?);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let limits = config.limits;
    let state = routes::AppState {
        store: Arc::clone(&store),
        key: Arc::new(key),
        tokens: Arc::new(tokens),
        log,
        body_timeout: limits.body_timeout,
    };
    let watched = Arc::clone(&store);
    let served = runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(address).await.map_err(|source| ServeError::Bind { address, source })?;
        let address = listener.local_addr()?;
        // Poll the shutdown future once before anyone is told where we listen: that first
        // poll installs its signal handlers, so a SIGTERM sent as soon as the URL is seen
        // stops the server cleanly instead of killing it.
        let mut shutdown = Box::pin(shutdown);
        let signalled = std::future::poll_fn(|cx| std::task::Poll::Ready(shutdown.as_mut().poll(cx).is_ready())).await;
        on_start(&Started {
            url: url_of(address),
            address,
            data_dir: config.data_dir.clone(),
            tokens: token_origin,
            key: key_origin,
            remote,
            short_tokens,
        });
        let (stopping, stop) = tokio::sync::watch::channel(signalled);
        let failing = Arc::clone(&watched);
        tokio::spawn(async move {
            if !signalled {
                // A store that failed to write takes no more writes until it is re-opened:
                // stop, so that the failure is reported and a supervisor restarts the server.
                tokio::select! {
                    () = shutdown => {}
                    _ = failing.failed() => {}
                }
            }
            let _ = stopping.send(true);
        });
        let stopped = |mut stop: tokio::sync::watch::Receiver<bool>| async move {
            let _ = stop.wait_for(|stopping| *stopping).await;
        };
        let server = conn::serve(listener, routes::router(state), limits, stop.clone());
        // Requests in flight get a grace period; a client that never finishes does not hold
        // the server open (what it sent is either committed or was never acknowledged).
        let grace = async {
            stopped(stop).await;
            tokio::time::sleep(SHUTDOWN_GRACE).await;
        };
        tokio::select! {
            served = server => served?,
            () = grace => {}
        }
        Ok::<(), ServeError>(())
    });
    // Requests cut off by the shutdown may still hold the store; wait for them to go.
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    let failure = store.failure();
    drop(store);
    served?;
    failure.map_or(Ok(()), |failure| Err(failure.into()))
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}

/// The URL a client on this machine uses: an unspecified address (all interfaces) is
/// reached through loopback.
fn url_of(address: SocketAddr) -> String {
    let mut reachable = address;
    match address.ip() {
        std::net::IpAddr::V4(ip) if ip.is_unspecified() => reachable.set_ip(std::net::Ipv4Addr::LOCALHOST.into()),
        std::net::IpAddr::V6(ip) if ip.is_unspecified() => reachable.set_ip(std::net::Ipv6Addr::LOCALHOST.into()),
        _ => {}
    }
    format!("http://{reachable}")
}

/// `HOST:PORT`, where HOST is an IP address or `localhost` (read as 127.0.0.1).
fn parse_listen(listen: &str) -> Result<SocketAddr, ServeError> {
    if let Ok(address) = listen.parse::<SocketAddr>() {
        return Ok(address);
    }
    match listen.rsplit_once(':') {
        Some((host, port)) if host.eq_ignore_ascii_case("localhost") => port
            .parse::<u16>()
            .map(|port| SocketAddr::from(([127, 0, 0, 1], port)))
            .map_err(|_| ServeError::Address(listen.into())),
        _ => Err(ServeError::Address(listen.into())),
    }
}

/// Whether `path` is `dir` or lies under it, after resolving `.`/`..` and symlinks of
/// the parts that exist (either may not exist yet).
pub(crate) fn is_inside(path: &Path, dir: &Path) -> bool {
    resolve(path).starts_with(resolve(dir))
}

fn resolve(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    // Lexically first: `canonicalize` cannot see through `missing/..`.
    let mut absolute_clean = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                absolute_clean.pop();
            }
            other => absolute_clean.push(other),
        }
    }
    let absolute = absolute_clean;
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            return rest.iter().rev().fold(real, |acc: PathBuf, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return absolute,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loopback server's configuration: data under `data`, token `t`, a fixed key.
    fn loopback_config(data: &std::path::Path, limits: Limits) -> Config {
        Config {
            listen: "127.0.0.1:0".into(),
            allow_remote: false,
            data_dir: data.join("data"),
            config_dir: None,
            token_file: None,
            tokens_env: Some(zeroize::Zeroizing::new("t".into())),
            key_file: None,
            key_env: Some(zeroize::Zeroizing::new("QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=".into())),
            limits,
        }
    }

    #[test]
    fn signal_handlers_are_in_place_before_the_url_is_told() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let data = tempfile::tempdir().unwrap();
        let config = loopback_config(data.path(), Limits::default());
        let polled = Arc::new(AtomicBool::new(false));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let shutdown = {
            let polled = Arc::clone(&polled);
            async move {
                polled.store(true, Ordering::SeqCst);
                let _ = stopped.await;
            }
        };
        let mut polled_at_start = None;
        let on_start = |_: &Started| {
            polled_at_start = Some(polled.load(Ordering::SeqCst));
            let _ = stop.send(());
        };
        run(config, Arc::new(|_, _| {}), on_start, shutdown).unwrap();
        assert_eq!(polled_at_start, Some(true), "the shutdown future was not polled before on_start");
    }

    /// A server on a free loopback port with `limits`, token `t`, stopped when dropped.
    struct Running {
        address: SocketAddr,
        stop: Option<tokio::sync::oneshot::Sender<()>>,
        thread: Option<std::thread::JoinHandle<()>>,
        _data: tempfile::TempDir,
    }

    impl Drop for Running {
        fn drop(&mut self) {
            let _ = self.stop.take().map(|stop| stop.send(()));
            let _ = self.thread.take().map(std::thread::JoinHandle::join);
        }
    }

    fn start(limits: Limits) -> Running {
        let data = tempfile::tempdir().unwrap();
        let config = loopback_config(data.path(), limits);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (tell, told) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let shutdown = async move {
                let _ = stopped.await;
            };
            run(config, Arc::new(|_, _| {}), |started| tell.send(started.address).unwrap(), shutdown).unwrap();
        });
        let address = told.recv_timeout(std::time::Duration::from_secs(20)).unwrap();
        Running { address, stop: Some(stop), thread: Some(thread), _data: data }
    }

    fn connect(server: &Running) -> std::net::TcpStream {
        let stream = std::net::TcpStream::connect(server.address).unwrap();
        stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
        stream
    }

    /// How long until the server closes `stream` (reading what it answers first).
    fn closed_after(mut stream: std::net::TcpStream, started: std::time::Instant) -> (std::time::Duration, String) {
        use std::io::Read;
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        (started.elapsed(), String::from_utf8_lossy(&answer).into_owned())
    }

    const GET: &[u8] = b"GET /v1/environment HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n";

    fn limits(header: u64, body: u64, idle: u64) -> Limits {
        let ms = std::time::Duration::from_millis;
        Limits { header_timeout: ms(header), body_timeout: ms(body), idle_timeout: ms(idle), max_connections: 64 }
    }

    #[test]
    fn a_connection_that_sends_nothing_is_closed_when_idle() {
        let server = start(limits(30_000, 30_000, 300));
        let (waited, _) = closed_after(connect(&server), std::time::Instant::now());
        assert!(waited < std::time::Duration::from_secs(3), "{waited:?}");
        // Nor does an idle timer cut a client that keeps talking.
        use std::io::Write;
        let mut stream = connect(&server);
        stream.write_all(GET).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        stream
            .write_all(
                b"GET /v1/environment HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n",
            )
            .unwrap();
        let (_, answer) = closed_after(stream, std::time::Instant::now());
        assert_eq!(answer.matches("HTTP/1.1 200").count(), 2, "{answer}");
    }

    #[test]
    fn a_head_sent_drop_by_drop_is_cut_off() {
        use std::io::Write;
        let server = start(limits(700, 30_000, 30_000));
        let mut stream = connect(&server);
        let started = std::time::Instant::now();
        stream.write_all(b"GET /v1/environment HTTP/1.1\r\n").unwrap();
        // A header byte every 100 ms keeps the connection from ever being idle.
        for _ in 0..40 {
            if stream.write_all(b"X").is_err() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let (waited, answer) = closed_after(stream, started);
        assert!(waited < std::time::Duration::from_secs(4), "{waited:?}");
        assert!(!answer.contains("200 OK"), "{answer}");
    }

    #[test]
    fn a_body_that_trickles_in_gets_a_408_and_the_connection_closed() {
        use std::io::Write;
        let server = start(limits(30_000, 700, 30_000));
        let mut stream = connect(&server);
        let started = std::time::Instant::now();
        stream
            .write_all(
                b"PUT /v1/environment/site HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\
                  Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
            )
            .unwrap();
        for _ in 0..40 {
            if stream.write_all(b" ").is_err() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let (waited, answer) = closed_after(stream, started);
        assert!(waited < std::time::Duration::from_secs(4), "{waited:?}");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("request_timeout"), "{answer}");
    }

    #[test]
    fn a_request_still_gets_through_when_every_slot_is_taken_by_a_stalled_client() {
        use std::io::{Read, Write};
        let ms = std::time::Duration::from_millis;
        let server = start(Limits {
            header_timeout: ms(60_000),
            body_timeout: ms(60_000),
            idle_timeout: ms(60_000),
            max_connections: 8,
        });
        let stalled: Vec<std::net::TcpStream> = (0..8)
            .map(|i| {
                let mut stream = connect(&server);
                if i % 2 == 1 {
                    stream.write_all(b"GET /v1/env").unwrap();
                }
                stream
            })
            .collect();
        std::thread::sleep(ms(200));
        let started = std::time::Instant::now();
        let mut stream = connect(&server);
        stream.write_all(GET).unwrap();
        let mut answer = [0u8; 12];
        stream.read_exact(&mut answer).unwrap();
        assert_eq!(&answer, b"HTTP/1.1 200");
        assert!(started.elapsed() < std::time::Duration::from_secs(3));
        // The oldest stalled client made room.
        let (waited, _) = closed_after(stalled.into_iter().next().unwrap(), std::time::Instant::now());
        assert!(waited < std::time::Duration::from_secs(3), "{waited:?}");
    }

    #[test]
    fn listen_addresses() {
        assert_eq!(parse_listen("127.0.0.1:0").unwrap(), "127.0.0.1:0".parse().unwrap());
        assert_eq!(parse_listen("localhost:8787").unwrap(), "127.0.0.1:8787".parse().unwrap());
        assert_eq!(parse_listen("[::1]:1").unwrap(), "[::1]:1".parse().unwrap());
        assert!(parse_listen("nowhere").is_err());
        assert!(parse_listen("example.com:80").is_err());
    }

    #[test]
    fn urls_reach_unspecified_addresses_through_loopback() {
        assert_eq!(url_of("0.0.0.0:80".parse().unwrap()), "http://127.0.0.1:80");
        assert_eq!(url_of("[::]:80".parse().unwrap()), "http://[::1]:80");
        assert_eq!(url_of("10.1.2.3:80".parse().unwrap()), "http://10.1.2.3:80");
    }

    #[test]
    fn inside_follows_dots_and_missing_parts() {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        assert!(is_inside(&data.join("k"), &data));
        assert!(is_inside(&tmp.path().join("x/../data/sub/k"), &data));
        assert!(!is_inside(&tmp.path().join("data2/k"), &data));
        assert!(!is_inside(&tmp.path().join("k"), &data));
    }
}
