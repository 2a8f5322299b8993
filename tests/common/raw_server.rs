//! A raw HTTP/1.1 responder on a free loopback port, for what a real server (`serve`) never
//! sends: junk, storms of 429, endless bodies, echoed requests; and for proxies. It records
//! every request, and every byte it was sent, so the wire contract can be checked.
#![allow(dead_code)] // each test crate compiles this module; not all use every helper

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    /// The request line and headers, each line ending in `\r\n`, without the blank line.
    pub head: String,
    pub body: Vec<u8>,
}

impl Seen {
    /// The head and the body (lossily as text) in one string, as a server quoting the request sees it.
    pub fn text(&self) -> String {
        format!("{}{}", self.head, String::from_utf8_lossy(&self.body))
    }
}

/// How the server answers one request: it writes to the connection, for as long as it likes.
type Answer = dyn Fn(&Seen, &mut dyn Write) + Send + Sync;

pub struct RawServer {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    received: Arc<Mutex<Vec<u8>>>,
}

impl RawServer {
    /// Plain `http://127.0.0.1:PORT`, answering every request with the bytes `answer` gives,
    /// on connections kept open for the next request.
    pub fn start(answer: impl Fn(&Seen) -> Vec<u8> + Send + Sync + 'static) -> RawServer {
        RawServer::start_with(None, answer)
    }

    /// Over TLS with `tls`, as `https://localhost:PORT`; else as [`RawServer::start`].
    pub fn start_with(
        tls: Option<Arc<rustls::ServerConfig>>,
        answer: impl Fn(&Seen) -> Vec<u8> + Send + Sync + 'static,
    ) -> RawServer {
        let write = move |seen: &Seen, stream: &mut dyn Write| {
            let _ = stream.write_all(&answer(seen)).and_then(|()| stream.flush());
        };
        RawServer::listen(tls, true, Arc::new(write))
    }

    /// Plain HTTP where `answer` writes to the connection itself (a body that never ends, a
    /// length it never sends) and the connection closes after it.
    pub fn streaming(answer: impl Fn(&Seen, &mut dyn Write) + Send + Sync + 'static) -> RawServer {
        RawServer::listen(None, false, Arc::new(answer))
    }

    fn listen(tls: Option<Arc<rustls::ServerConfig>>, keep_alive: bool, answer: Arc<Answer>) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let url = match tls {
            Some(_) => format!("https://localhost:{port}"),
            None => format!("http://127.0.0.1:{port}"),
        };
        let server = RawServer { url, seen: Arc::default(), received: Arc::default() };
        let (seen, received) = (Arc::clone(&server.seen), Arc::clone(&server.received));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (seen, received, answer, tls) =
                    (Arc::clone(&seen), Arc::clone(&received), Arc::clone(&answer), tls.clone());
                std::thread::spawn(move || {
                    let log = Log { seen: &seen, received: &received };
                    match tls {
                        Some(config) => {
                            let Ok(conn) = rustls::ServerConnection::new(config) else { return };
                            serve_connection(rustls::StreamOwned::new(conn, stream), &log, keep_alive, answer.as_ref())
                        }
                        None => serve_connection(stream, &log, keep_alive, answer.as_ref()),
                    }
                });
            }
        });
        server
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Every byte received so far (after TLS), parsed or not: what a proxy must never be sent.
    pub fn received(&self) -> Vec<u8> {
        self.received.lock().unwrap().clone()
    }
}

/// A response with `headers` (each ending in `\r\n`) and a `content-length` for `body`.
pub fn http(status: &str, headers: &str, body: &str) -> Vec<u8> {
    format!("HTTP/1.1 {status}\r\ncontent-length: {}\r\n{headers}\r\n{body}", body.len()).into_bytes()
}

struct Log<'a> {
    seen: &'a Mutex<Vec<Seen>>,
    received: &'a Mutex<Vec<u8>>,
}

/// The connection's reads, each also appended to the log of received bytes.
struct Recorded<'a, S> {
    stream: S,
    received: &'a Mutex<Vec<u8>>,
}

impl<S: Read> Read for Recorded<'_, S> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.stream.read(buf)?;
        self.received.lock().unwrap().extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

fn serve_connection<S: Read + Write>(stream: S, log: &Log, keep_alive: bool, answer: &Answer) {
    let mut reader = BufReader::new(Recorded { stream, received: log.received });
    loop {
        let Some(request) = read_request(&mut reader) else { return };
        log.seen.lock().unwrap().push(request.clone());
        answer(&request, &mut reader.get_mut().stream);
        if !keep_alive {
            return;
        }
    }
}

/// One request: the head up to its blank line, then the body its `content-length` announces;
/// `None` when the client closed or sent less.
fn read_request(reader: &mut impl BufRead) -> Option<Seen> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return None;
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let length = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap_or(0)))
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Seen { head, body })
}
