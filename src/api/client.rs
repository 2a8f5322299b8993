//! The API client (DESIGN.md §2): one blocking HTTPS client with timeouts, bounded retries
//! for 429/5xx, the three refusal shapes read, and every status mapped to a typed error.
//!
//! Secret values only ever travel in a PUT body built at the last moment from the secret;
//! nothing here logs a body or a header, and a refusal that quotes the value sent has the
//! value cut out before anyone sees it.
//!
//! A server is not trusted to be small or quick: bodies are read to a cap and a deadline,
//! whatever `Content-Length` says. Loopback traffic never goes through a proxy (plain http to
//! a proxy would hand it the token); https goes through one only as a CONNECT tunnel.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Once;
use std::time::{Duration, Instant};

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::blocking::{Client as Http, RequestBuilder, Response};
use reqwest::header::{self, HeaderMap};
use reqwest::{Method, StatusCode};
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;
use zeroize::Zeroizing;

use super::{Environment, EnvironmentList, Problem, Scripts};
use crate::diagnostic::{Diagnostic, Exit};

/// Where the platform answers when nothing else is configured.
pub const DEFAULT_BASE_URL: &str = "https://api.hanzo.ai";

/// A path segment keeps only RFC 3986 unreserved characters; everything else is escaped.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// How the client connects; built by the command layer from flags and the environment.
pub struct Settings {
    pub base_url: String,
    pub org: Option<String>,
    pub token: SecretString,
    /// Extra PEM roots: `--ca-cert` and `SSL_CERT_FILE`.
    pub ca_certs: Vec<PathBuf>,
    pub timeout: Duration,
    pub retry: RetryPolicy,
}

/// Bounded retries with exponential backoff and full jitter; `Retry-After` is honoured up
/// to `max_wait`.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    pub attempts: u32,
    pub base: Duration,
    pub max_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy { attempts: 4, base: Duration::from_millis(250), max_wait: Duration::from_secs(30) }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("API URL `{url}` is not valid: {reason}")]
    BadUrl { url: String, reason: String },
    #[error("API URL `{url}` is plain http:// to a host that is not loopback")]
    Insecure { url: String },
    #[error("could not use CA certificate {}: {reason}", path.display())]
    CaCert { path: PathBuf, reason: String },
    #[error("could not set up the HTTP client: {0}")]
    Setup(String),
    #[error("could not reach {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("{method} {url} timed out after {}s", timeout.as_secs())]
    Timeout { method: String, url: String, timeout: Duration },
    #[error("the server refused the token (401): {message}")]
    Unauthorized { message: String },
    #[error("only an org admin may do this (403): {message}")]
    Forbidden { message: String },
    #[error("the org's plan does not allow this (402): {message}")]
    PlanLimit { message: String },
    #[error("not found (404): {message}")]
    NotFound { message: String },
    #[error("conflict ({status}): {message}")]
    Conflict { status: u16, message: String },
    #[error("the server is rate limiting (429) and kept refusing after {attempts} attempts: {message}")]
    RateLimited { attempts: u32, message: String },
    #[error("the server failed ({status}) after {attempts} attempts: {message}")]
    ServerError { status: u16, attempts: u32, message: String },
    #[error("the server refused the request ({status}): {message}")]
    Refused { status: u16, message: String },
    #[error("the server's answer to {method} {path} was not understood ({status}): {reason}")]
    Malformed { method: String, path: String, status: u16, reason: String },
}

impl Diagnostic for ApiError {
    fn exit(&self) -> Exit {
        match self {
            ApiError::BadUrl { .. } | ApiError::Insecure { .. } | ApiError::CaCert { .. } | ApiError::Setup(_) => {
                Exit::Local
            }
            ApiError::Unauthorized { .. } => Exit::Auth,
            ApiError::Conflict { .. } => Exit::Conflict,
            _ => Exit::Remote,
        }
    }

    fn hint(&self) -> Option<String> {
        Some(match self {
            ApiError::BadUrl { .. } => "pass --api-url https://HOST (or set HANZO_BASE_URL)".into(),
            ApiError::Insecure { .. } => {
                "use https://, or http:// only to 127.0.0.1/localhost/[::1] (e.g. `hanzo-env serve`)".into()
            }
            ApiError::CaCert { .. } => "point --ca-cert / SSL_CERT_FILE at a readable PEM file".into(),
            ApiError::Setup(_) => return None,
            ApiError::Unreachable { .. } | ApiError::Timeout { .. } => {
                "check the URL (--api-url / HANZO_BASE_URL), that the server is up, and HTTPS_PROXY/NO_PROXY".into()
            }
            ApiError::Unauthorized { .. } => {
                "sign in again: `hanzo-env login`, or set HANZO_API_KEY to a valid token".into()
            }
            ApiError::Forbidden { .. } => "ask an admin of the org to do it, or to make you an admin".into(),
            ApiError::PlanLimit { .. } => {
                "the org's plan limit is reached; upgrade the plan or remove unused items".into()
            }
            ApiError::NotFound { .. } => "check the repo (--repo) and org (--org / HANZO_ORG_ID)".into(),
            ApiError::Conflict { .. } => "run `hanzo-env diff` to see the server copy, then try again".into(),
            ApiError::RateLimited { .. } | ApiError::ServerError { .. } => "try again in a minute".into(),
            ApiError::Refused { .. } => {
                "the server found the request invalid: check --org / HANZO_ORG_ID, --repo and the names given; \
                 -v shows each request"
                    .into()
            }
            ApiError::Malformed { .. } => "check that --api-url points at the environment API".into(),
        })
    }
}

/// A record with the ETag the server sent with it, if any.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub env: Environment,
    pub etag: Option<String>,
}

/// A connected API client.
pub struct Client {
    http: Http,
    base: url::Url,
    org: Option<String>,
    token: SecretString,
    timeout: Duration,
    retry: RetryPolicy,
    /// Called with one line per request (method, path, status, time); never bodies or headers.
    trace: Box<dyn Fn(&str) + Send + Sync>,
}

/// Whether a request may be sent again after a 5xx (a 429 always may: it was not processed).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Idempotent {
    Yes,
    No,
}

/// The largest CA bundle read (`--ca-cert`, `SSL_CERT_FILE`): a system bundle is ~200 KiB.
const MAX_CA_BUNDLE_BYTES: u64 = 4 << 20;

impl Client {
    pub fn new(settings: Settings) -> Result<Client, ApiError> {
        install_crypto_provider();
        let base = parse_base_url(&settings.base_url)?;
        let mut certs = Vec::new();
        for path in &settings.ca_certs {
            // A regular file of bounded size: `SSL_CERT_FILE=/dev/zero` must not fill memory.
            let pem = crate::fsutil::read_regular_io(path, MAX_CA_BUNDLE_BYTES)
                .map_err(|e| ApiError::CaCert { path: path.clone(), reason: e.to_string() })?;
            let found = reqwest::Certificate::from_pem_bundle(&pem)
                .map_err(|e| ApiError::CaCert { path: path.clone(), reason: e.to_string() })?;
            if found.is_empty() {
                return Err(ApiError::CaCert { path: path.clone(), reason: "no PEM certificate in it".into() });
            }
            certs.extend(found);
        }
        let mut http = Http::builder();
        if is_loopback(&base) {
            // HTTP_PROXY/ALL_PROXY would otherwise receive the token and the values in the
            // clear: the API on this machine is reached directly.
            http = http.no_proxy();
        }
        let http = http
            .user_agent(concat!("hanzo-env/", env!("CARGO_PKG_VERSION")))
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout.min(Duration::from_secs(10)))
            // A redirect could carry the bearer token elsewhere; the API never redirects.
            .redirect(reqwest::redirect::Policy::none())
            .tls_certs_merge(certs)
            .build()
            .map_err(|e| ApiError::Setup(error_chain(&e)))?;
        Ok(Client {
            http,
            base,
            org: settings.org.filter(|o| !o.is_empty()),
            token: settings.token,
            timeout: settings.timeout,
            retry: settings.retry,
            trace: Box::new(|_| {}),
        })
    }

    /// Receive one line per request (for `-v`).
    pub fn with_trace(mut self, trace: impl Fn(&str) + Send + Sync + 'static) -> Client {
        self.trace = Box::new(trace);
        self
    }

    pub fn base_url(&self) -> &str {
        self.base.as_str()
    }

    /// `GET /v1/environment`.
    pub fn list(&self) -> Result<Vec<Environment>, ApiError> {
        let path = "/v1/environment".to_string();
        let resp = self.send(Method::GET, &path, Idempotent::Yes, None, |r| r)?;
        let list: EnvironmentList = self.read_json("GET", &path, resp, None)?;
        Ok(list.data)
    }

    /// `GET /v1/environment/{repo}`.
    pub fn get(&self, repo: &str) -> Result<Fetched, ApiError> {
        let path = env_path(repo);
        let resp = self.send(Method::GET, &path, Idempotent::Yes, None, |r| r)?;
        let etag = etag_of(resp.headers());
        let env = self.read_json("GET", &path, resp, None)?;
        Ok(Fetched { env, etag })
    }

    /// `PUT /v1/environment/{repo}` with `If-Match` when an ETag is known.
    pub fn put_scripts(&self, repo: &str, scripts: &Scripts, if_match: Option<&str>) -> Result<Fetched, ApiError> {
        let path = env_path(repo);
        let body = serde_json::to_vec(scripts).map_err(|e| ApiError::Setup(e.to_string()))?;
        let resp = self.send(Method::PUT, &path, Idempotent::Yes, None, |r| {
            let r = r.header(header::CONTENT_TYPE, "application/json").body(body.clone());
            match if_match {
                Some(tag) => r.header(header::IF_MATCH, tag),
                None => r,
            }
        })?;
        let etag = etag_of(resp.headers());
        let env = self.read_json("PUT", &path, resp, None)?;
        Ok(Fetched { env, etag })
    }

    /// `DELETE /v1/environment/{repo}`. Only a 429 is retried: after a 5xx the delete may
    /// have happened, and a second one would answer a misleading 404.
    pub fn delete(&self, repo: &str) -> Result<(), ApiError> {
        self.send(Method::DELETE, &env_path(repo), Idempotent::No, None, |r| r).map(drop)
    }

    /// `PUT /v1/environment/{repo}/secrets/{name}` with `{"value": …}`. The body is built
    /// from the secret here, for this request only; our buffer is zeroized afterwards (the
    /// HTTP stack's copy is dropped with the request).
    pub fn put_secret(&self, repo: &str, name: &str, value: &SecretString) -> Result<Environment, ApiError> {
        #[derive(serde::Serialize)]
        struct Body<'a> {
            value: &'a str,
        }
        let path = secret_path(repo, name);
        let body = Zeroizing::new(
            serde_json::to_vec(&Body { value: value.expose_secret() }).map_err(|e| ApiError::Setup(e.to_string()))?,
        );
        // Setting the same value again is harmless: 429 and 5xx are retried.
        let sent = Some(value.expose_secret());
        let resp = self.send(Method::PUT, &path, Idempotent::Yes, sent, |r| {
            r.header(header::CONTENT_TYPE, "application/json").body(body.to_vec())
        })?;
        self.read_json("PUT", &path, resp, sent)
    }

    /// `DELETE /v1/environment/{repo}/secrets/{name}`.
    pub fn delete_secret(&self, repo: &str, name: &str) -> Result<Environment, ApiError> {
        let path = secret_path(repo, name);
        let resp = self.send(Method::DELETE, &path, Idempotent::No, None, |r| r)?;
        self.read_json("DELETE", &path, resp, None)
    }

    /// Send one request, retrying 429 (always) and 5xx (idempotent calls) with backoff.
    /// `sent` is a secret value the request carries: a refusal never quotes it.
    fn send(
        &self,
        method: Method,
        path: &str,
        idempotent: Idempotent,
        sent: Option<&str>,
        build: impl Fn(RequestBuilder) -> RequestBuilder,
    ) -> Result<Response, ApiError> {
        let url = self.url(path);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut request = self
                .http
                .request(method.clone(), url.clone())
                .bearer_auth(self.token.expose_secret())
                .header(header::ACCEPT, "application/json, application/problem+json");
            if let Some(org) = &self.org {
                request = request.header("X-Org-Id", org);
            }
            let started = Instant::now();
            let result = build(request).send();
            let elapsed = started.elapsed().as_millis();
            let resp = match result {
                Ok(resp) => resp,
                Err(err) => {
                    (self.trace)(&format!("{method} {path} → {} ({elapsed} ms)", transport_summary(&err)));
                    return Err(if err.is_timeout() {
                        ApiError::Timeout { method: method.to_string(), url: url.to_string(), timeout: self.timeout }
                    } else {
                        ApiError::Unreachable { url: self.base.to_string(), reason: root_cause(&err) }
                    });
                }
            };
            let status = resp.status();
            (self.trace)(&format!("{method} {path} → {} ({elapsed} ms)", status.as_u16()));
            if status.is_success() {
                return Ok(resp);
            }
            let retryable =
                status == StatusCode::TOO_MANY_REQUESTS || (status.is_server_error() && idempotent == Idempotent::Yes);
            if retryable && attempt < self.retry.attempts {
                let wait = self.backoff(attempt, retry_after(resp.headers()));
                (self.trace)(&format!(
                    "retrying in {} ms (attempt {attempt} of {})",
                    wait.as_millis(),
                    self.retry.attempts
                ));
                drop(resp);
                std::thread::sleep(wait);
                continue;
            }
            return Err(self.status_error(method.as_str(), path, resp, attempt, sent));
        }
    }

    /// Read a success body as `T`; anything else is a clear "not understood" error.
    fn read_json<T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        resp: Response,
        sent: Option<&str>,
    ) -> Result<T, ApiError> {
        let status = resp.status().as_u16();
        let malformed = |reason: String| ApiError::Malformed {
            method: method.into(),
            path: path.into(),
            status,
            reason: shown(&reason, &self.carried(sent)).unwrap_or_default(),
        };
        let bytes = read_capped(resp, MAX_BODY, self.timeout).map_err(malformed)?;
        // serde quotes a string it did not expect: the server may have echoed the value there.
        serde_json::from_slice(&bytes).map_err(|e| malformed(format!("expected JSON of the environment API: {e}")))
    }

    /// The secrets a request carried, each with what stands in for it in a server's message:
    /// the bearer token always (a server may quote the `Authorization` header), and the
    /// value `sent`.
    fn carried<'a>(&'a self, sent: Option<&'a str>) -> Vec<(&'a str, &'static str)> {
        let token = self.token.expose_secret();
        // A token of a few characters (a test's `t`) would cut every such letter out of the
        // message; a real one is far longer.
        let mut carried: Vec<_> =
            (token.len() >= MIN_TOKEN_CUT).then_some((token, REDACTED_TOKEN)).into_iter().collect();
        carried.extend(sent.map(|value| (value, REDACTED)));
        carried
    }

    /// Turn a refusal into its typed error, reading problem+json, `{error:{message}}` or `{msg}`.
    fn status_error(&self, method: &str, path: &str, resp: Response, attempts: u32, sent: Option<&str>) -> ApiError {
        let status = resp.status().as_u16();
        // A refusal's message is a line or two: a body too big, too slow or cut off has none.
        let bytes = read_capped(resp, MAX_REFUSAL_BODY, self.timeout).unwrap_or_default();
        let message = refusal_text(&bytes).and_then(|text| shown(&text, &self.carried(sent))).unwrap_or_else(|| {
            StatusCode::from_u16(status)
                .ok()
                .and_then(|s| s.canonical_reason())
                .unwrap_or("no reason given")
                .to_string()
        });
        match status {
            401 => ApiError::Unauthorized { message },
            402 => ApiError::PlanLimit { message },
            403 => ApiError::Forbidden { message },
            404 => ApiError::NotFound { message },
            409 | 412 => ApiError::Conflict { status, message },
            429 => ApiError::RateLimited { attempts, message },
            500..=599 => ApiError::ServerError { status, attempts, message },
            300..=399 => ApiError::Malformed {
                method: method.into(),
                path: path.into(),
                status,
                reason: "a redirect; the API never redirects".into(),
            },
            _ => ApiError::Refused { status, message },
        }
    }

    fn backoff(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.retry.max_wait);
        }
        let ceiling = self.retry.base.saturating_mul(1 << attempt.min(10)).min(self.retry.max_wait);
        // Full jitter: anywhere between zero and the ceiling, so that clients spread out.
        let millis = ceiling.as_millis() as u64;
        Duration::from_millis(if millis == 0 { 0 } else { rand::random_range(0..=millis) })
    }

    fn url(&self, path: &str) -> url::Url {
        let mut url = self.base.clone();
        let joined = format!("{}{}", url.path().trim_end_matches('/'), path);
        url.set_path(&joined);
        url
    }
}

/// rustls needs one process-wide crypto provider; reqwest is built without one.
fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Err only means another provider was installed first, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Parse and check the base URL: https anywhere, http only to loopback.
pub fn parse_base_url(raw: &str) -> Result<url::Url, ApiError> {
    let bad = |reason: String| ApiError::BadUrl { url: shown_url(raw), reason };
    let url = url::Url::parse(raw.trim()).map_err(|e| bad(e.to_string()))?;
    if url.query().is_some() || url.fragment().is_some() {
        return Err(bad("a base URL has no query or fragment".into()));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad("credentials do not belong in the URL; use `hanzo-env login` or HANZO_API_KEY".into()));
    }
    match url.scheme() {
        "https" => {}
        "http" if is_loopback(&url) => {}
        "http" => return Err(ApiError::Insecure { url: shown_url(raw) }),
        other => return Err(bad(format!("scheme `{other}` is not http(s)"))),
    }
    if url.host().is_none() {
        return Err(bad("no host".into()));
    }
    Ok(url)
}

/// A URL as an error may quote it: without a `user:password@` part or a query, either of
/// which may carry a token.
fn shown_url(raw: &str) -> String {
    let raw = raw.trim();
    let (head, rest) = match raw.split_once("://") {
        Some((scheme, rest)) => (format!("{scheme}://"), rest),
        None => (String::new(), raw),
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let rest = match rest[..authority_end].rfind('@') {
        Some(at) => format!("…@{}", &rest[at + 1..]),
        None => rest.to_string(),
    };
    match rest.find(['?', '#']) {
        Some(cut) => format!("{head}{}…", &rest[..cut]),
        None => format!("{head}{rest}"),
    }
}

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

/// One percent-encoded path segment.
pub fn segment(raw: &str) -> String {
    utf8_percent_encode(raw, SEGMENT).to_string()
}

fn env_path(repo: &str) -> String {
    format!("/v1/environment/{}", segment(repo))
}

fn secret_path(repo: &str, name: &str) -> String {
    format!("/v1/environment/{}/secrets/{}", segment(repo), segment(name))
}

fn etag_of(headers: &HeaderMap) -> Option<String> {
    headers.get(header::ETAG).and_then(|v| v.to_str().ok()).map(str::to_string).filter(|s| !s.is_empty())
}

/// `Retry-After` as seconds or an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(header::RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = humantime::parse_rfc3339_weak(value).ok().or_else(|| httpdate(value))?;
    Some(when.duration_since(std::time::SystemTime::now()).unwrap_or(Duration::ZERO))
}

/// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), the one date form HTTP servers send.
fn httpdate(value: &str) -> Option<std::time::SystemTime> {
    let parts: Vec<&str> = value.split_whitespace().collect();
    let [_, day, month, year, time, "GMT"] = parts.as_slice() else { return None };
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let month = MONTHS.iter().position(|m| m == month)? + 1;
    humantime::parse_rfc3339(&format!("{year}-{month:02}-{day:0>2}T{time}Z")).ok()
}

/// The largest answer read: a list of every environment of a big org fits many times over.
const MAX_BODY: u64 = 8 << 20;
/// The largest refusal read: its message is a line or two.
const MAX_REFUSAL_BODY: u64 = 64 << 10;

/// The body of `resp`, at most `cap` bytes of it and within `timeout` (each read has the
/// client's timeout too): a larger `Content-Length` is refused before a byte is read, and a
/// body that keeps coming is cut off at the cap, never kept whole.
fn read_capped(resp: Response, cap: u64, timeout: Duration) -> Result<Vec<u8>, String> {
    if let Some(announced) = resp.content_length()
        && announced > cap
    {
        return Err(format!("the body announces {announced} bytes, over the {cap} byte limit"));
    }
    let started = Instant::now();
    let mut body = resp.take(cap + 1);
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 16 << 10];
    loop {
        match body.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("reading the body failed: {}", error_chain(&e))),
        }
        if bytes.len() as u64 > cap {
            return Err(format!("the body is over the {cap} byte limit"));
        }
        if started.elapsed() > timeout {
            return Err(format!("the body was still coming after {}s", timeout.as_secs()));
        }
    }
    Ok(bytes)
}

/// What of a server's text is shown: one clipped line, and never a secret the request
/// carried (the token, a value: `carried`, each with its stand-in), even when the server
/// echoes the request. Every copy of each (as sent, or JSON-escaped as in a quoted body) is
/// cut out, then, in the clipped line, every run of [`ECHO_WINDOW`] or more of its bytes (an
/// echo the server shortened, or the clip cut).
fn shown(text: &str, carried: &[(&str, &str)]) -> Option<String> {
    let mut text = text.to_string();
    let mut forms_of = Vec::new();
    for &(value, stand_in) in carried.iter().filter(|(v, _)| !v.is_empty()) {
        let escaped = serde_json::to_string(value).unwrap_or_default();
        let escaped = escaped.get(1..escaped.len().saturating_sub(1)).unwrap_or_default().to_string();
        let forms: Vec<String> = [value.to_string(), escaped].into_iter().filter(|f| !f.is_empty()).collect();
        for form in &forms {
            text = text.replace(form.as_str(), stand_in);
        }
        forms_of.push((value, forms, stand_in));
    }
    let mut line = clip(text)?;
    for (value, forms, stand_in) in &forms_of {
        if value.len() > ECHO_WINDOW {
            line = cut_runs(&line, forms, stand_in);
        }
    }
    Some(line)
}

/// `line` with every run of [`ECHO_WINDOW`] bytes of any of `forms` replaced by `stand_in`.
fn cut_runs(line: &str, forms: &[String], stand_in: &str) -> String {
    let runs: std::collections::HashSet<&[u8]> = forms.iter().flat_map(|f| f.as_bytes().windows(ECHO_WINDOW)).collect();
    let bytes = line.as_bytes();
    let mut secret = vec![false; bytes.len()];
    for start in (0..bytes.len().saturating_sub(ECHO_WINDOW - 1)).filter(|&i| line.is_char_boundary(i)) {
        if runs.contains(&bytes[start..start + ECHO_WINDOW]) {
            secret[start..start + ECHO_WINDOW].iter_mut().for_each(|b| *b = true);
        }
    }
    let mut cut = String::with_capacity(line.len());
    let mut in_secret = false;
    for (i, c) in line.char_indices() {
        match (secret[i], in_secret) {
            (true, false) => cut.push_str(stand_in),
            (false, _) => cut.push(c),
            (true, true) => {}
        }
        in_secret = secret[i];
    }
    cut
}

/// What stands in for a value cut out of a server's message.
const REDACTED: &str = "[the value sent]";
/// What stands in for the bearer token cut out of a server's message.
const REDACTED_TOKEN: &str = "[the token]";
/// The shortest token cut out of a server's message.
const MIN_TOKEN_CUT: usize = 8;
/// The shortest run of a value's bytes cut out of a server's message on its own.
const ECHO_WINDOW: usize = 12;

/// The human message of a refusal body, in any of the three shapes; `None` when unreadable.
pub fn refusal_message(body: &[u8]) -> Option<String> {
    refusal_text(body).and_then(clip)
}

/// The message of a refusal body as the server wrote it.
fn refusal_text(body: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Legacy {
        error: Option<LegacyError>,
        msg: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct LegacyError {
        message: Option<String>,
    }
    if let Ok(problem) = serde_json::from_slice::<Problem>(body)
        && (!problem.detail.is_empty() || !problem.title.is_empty())
    {
        return Some(match (problem.title.is_empty(), problem.detail.is_empty()) {
            (false, false) => format!("{}: {}", problem.title, problem.detail),
            (true, _) => problem.detail,
            (_, true) => problem.title,
        });
    }
    let legacy: Legacy = serde_json::from_slice(body).ok()?;
    legacy.error.and_then(|e| e.message).or(legacy.msg)
}

/// One line of at most 300 characters; `None` when nothing is left.
fn clip(text: String) -> Option<String> {
    let text = text.trim().replace(['\n', '\r'], " ");
    if text.is_empty() {
        return None;
    }
    Some(if text.chars().count() > 300 { text.chars().take(300).collect::<String>() + "…" } else { text })
}

fn transport_summary(err: &reqwest::Error) -> &'static str {
    if err.is_timeout() {
        "timeout"
    } else if err.is_connect() {
        "connection failed"
    } else {
        "transport error"
    }
}

/// The innermost cause: "Connection refused (os error 111)" rather than reqwest's wrappers.
fn root_cause(err: &(dyn std::error::Error + 'static)) -> String {
    let mut last = err;
    while let Some(cause) = last.source() {
        last = cause;
    }
    last.to_string()
}

/// An error and its causes on one line (reqwest's own Display stops at the outermost).
fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn http_only_to_loopback() {
        assert!(parse_base_url("https://api.hanzo.ai").is_ok());
        assert!(parse_base_url("http://127.0.0.1:8787").is_ok());
        assert!(parse_base_url("http://localhost:1").is_ok());
        assert!(parse_base_url("http://[::1]:1").is_ok());
        assert!(matches!(parse_base_url("http://api.hanzo.ai"), Err(ApiError::Insecure { .. })));
        assert!(matches!(parse_base_url("http://127.0.0.1.evil.com"), Err(ApiError::Insecure { .. })));
        assert!(matches!(parse_base_url("ftp://x"), Err(ApiError::BadUrl { .. })));
        assert!(matches!(parse_base_url("https://u:p@x"), Err(ApiError::BadUrl { .. })));
        assert!(matches!(parse_base_url("not a url"), Err(ApiError::BadUrl { .. })));
    }

    #[test]
    fn url_errors_never_quote_credentials_or_queries() {
        for raw in [
            "https://user:tok_MARKER_1@api.hanzo.ai",
            "http://tok_MARKER_1@example.com/v1",
            "https://api.hanzo.ai/?token=tok_MARKER_1",
            "http://api.hanzo.ai#tok_MARKER_1",
            "ftp://u:tok_MARKER_1@x/",
            "https://u:tok_MARKER_1@[bad",
        ] {
            let err = parse_base_url(raw).unwrap_err();
            let shown = format!("{err} {err:?} {}", err.hint().unwrap_or_default());
            assert!(!shown.contains("MARKER"), "{raw}: {shown}");
        }
        assert_eq!(shown_url("https://u:p@h:1/x?q"), "https://…@h:1/x…");
        assert_eq!(shown_url("not a url"), "not a url");
    }

    #[test]
    fn segments_are_percent_encoded() {
        assert_eq!(segment("site"), "site");
        assert_eq!(segment("a/b"), "a%2Fb");
        assert_eq!(segment("../x y?z#"), "..%2Fx%20y%3Fz%23");
        assert_eq!(segment("é"), "%C3%A9");
        assert_eq!(env_path("my repo"), "/v1/environment/my%20repo");
    }

    #[test]
    fn reads_all_three_refusal_shapes() {
        let problem = br#"{"type":"about:blank","title":"Forbidden","status":403,"detail":"org admin only"}"#;
        assert_eq!(refusal_message(problem).as_deref(), Some("Forbidden: org admin only"));
        assert_eq!(refusal_message(br#"{"error":{"message":"bad repo"}}"#).as_deref(), Some("bad repo"));
        assert_eq!(refusal_message(br#"{"msg":"slow down"}"#).as_deref(), Some("slow down"));
        assert_eq!(refusal_message(b"<html>oops</html>"), None);
        assert_eq!(refusal_message(b""), None);
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        let mut h = HeaderMap::new();
        h.insert(header::RETRY_AFTER, HeaderValue::from_static("3"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
        h.insert(header::RETRY_AFTER, HeaderValue::from_static("Sun, 06 Nov 1994 08:49:37 GMT"));
        assert_eq!(retry_after(&h), Some(Duration::ZERO), "a date in the past means now");
        h.insert(header::RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&h), None);
    }

    #[test]
    fn statuses_map_to_exit_codes() {
        let e = ApiError::Unauthorized { message: String::new() };
        assert_eq!(e.exit(), Exit::Auth);
        assert!(e.hint().unwrap().contains("sign in again"));
        assert_eq!(ApiError::Conflict { status: 412, message: String::new() }.exit(), Exit::Conflict);
        assert_eq!(ApiError::RateLimited { attempts: 4, message: String::new() }.exit(), Exit::Remote);
        assert_eq!(ApiError::Insecure { url: String::new() }.exit(), Exit::Local);
        let refused = ApiError::Refused { status: 400, message: String::new() };
        assert_eq!(refused.exit(), Exit::Remote);
        assert!(refused.hint().is_some_and(|h| h.contains("--org")), "every error says how to fix it");
    }
}
