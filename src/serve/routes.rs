//! The HTTP surface: routes, handlers, auth and the request log.
//!
//! Every answer is JSON; every refusal is problem+json ([`ApiError`]). The body of a request
//! is capped ([`MAX_BODY_BYTES`]) before it is read whole; a secret value is parsed straight
//! into a [`SecretString`], sealed, and the parse buffer wiped where it is ours to wipe.

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, put};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use zeroize::Zeroize;

use super::auth::Tokens;
use super::problem::ApiError;
use super::seal::{Binding, MasterKey};
use super::store::{self, Change, Precondition, Store, WriteError, WriteRequest};
use crate::api::{Environment, EnvironmentList, PendingProposal, Scripts};
use crate::names::{MAX_SCRIPT_BYTES, MAX_VALUE_BYTES, NameError, validate_secret_name};

/// The largest request body read at all: room for a 64 KiB value or two 16 KiB scripts
/// even when every byte is JSON-escaped (`\u00XX`, 6 bytes each), and little more.
pub const MAX_BODY_BYTES: usize = 512 << 10;
/// The org of requests without `X-Org-Id`.
pub const DEFAULT_ORG: &str = "default";
/// A proposal names at most this many secrets.
const MAX_PROPOSED_SECRETS: usize = 1000;
const MAX_REPO_CHARS: usize = 200;
const MAX_ORG_CHARS: usize = 128;

/// What a log line reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    /// One request answered.
    Request,
    /// A failure the client only saw as a 500.
    Error,
}

/// Where log lines go (the command sends them to stderr).
pub type LogSink = Arc<dyn Fn(LogKind, &str) + Send + Sync>;

#[derive(Clone)]
pub struct AppState {
    pub store: Arc<Store>,
    pub key: Arc<MasterKey>,
    pub tokens: Arc<Tokens>,
    pub log: LogSink,
    /// How long a request body may take to arrive.
    pub body_timeout: std::time::Duration,
}

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/v1/environment", get(list_environments))
        .route("/v1/environment/{repo}", get(get_environment).put(save_scripts).delete(delete_environment))
        .route("/v1/environment/{repo}/proposal", put(propose))
        .route("/v1/environment/{repo}/secrets/{name}", put(set_secret).delete(delete_secret))
        .fallback(|| async { ApiError::not_found("no such endpoint; see DESIGN.md §2 for the API") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "this endpoint does not take that method",
            )
        })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state((state.body_timeout, MAX_BODY_BYTES), super::conn::read_body_in_time))
        .layer(middleware::from_fn(refuse_announced_oversize))
        .layer(middleware::from_fn_with_state(state.clone(), require_token))
        .layer(middleware::from_fn_with_state(state.clone(), log_request))
        .with_state(state)
}

async fn require_token(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let authorization = request.headers().get(header::AUTHORIZATION).map(HeaderValue::as_bytes);
    if !state.tokens.accepts(authorization) {
        return ApiError::unauthorized().into_response();
    }
    next.run(request).await
}

/// A body announced over the cap is refused before a byte of it is read; one without a
/// length (chunked) is cut off at the cap by [`DefaultBodyLimit`] as it streams in.
async fn refuse_announced_oversize(request: Request, next: Next) -> Response {
    let announced = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return body_too_large().into_response();
    }
    next.run(request).await
}

fn body_too_large() -> ApiError {
    ApiError::too_large(format!("the request body is over {MAX_BODY_BYTES} bytes"))
}

/// One line per request: time, method, path, status, duration. Never a body, a header or
/// a query string.
async fn log_request(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = loggable_path(request.uri().path());
    let response = next.run(request).await;
    let millis = started.elapsed().as_secs_f64() * 1000.0;
    let at = humantime::format_rfc3339_millis(std::time::SystemTime::now());
    (state.log)(
        LogKind::Request,
        &format!(
            "{at} request method={method} path={path:?} status={} duration_ms={millis:.3}",
            response.status().as_u16()
        ),
    );
    response
}

/// The path as logged: at most 256 characters, and nothing after an `=`, written plainly or
/// percent-encoded as `%3D` (a client that wrongly put `NAME=value` in the URL must not get
/// the value into the log).
fn loggable_path(path: &str) -> String {
    let value_at = path.find('=').into_iter().chain(path.to_ascii_uppercase().find("%3D")).min();
    let before_value = &path[..value_at.unwrap_or(path.len())];
    let mut shown: String = before_value.chars().take(256).collect();
    if shown.len() < path.len() {
        shown.push('…');
    }
    shown
}

// --- handlers -------------------------------------------------------------------------

async fn list_environments(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let org = org_of(&headers)?;
    let data = state.store.list(&org).map_err(|e| internal(&state, &e))?;
    Ok(json_response(StatusCode::OK, &EnvironmentList { data }))
}

async fn get_environment(
    State(state): State<AppState>,
    headers: HeaderMap,
    repo: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let org = org_of(&headers)?;
    let repo = repo_of(repo)?;
    let env = state.store.get(&org, &repo).map_err(|e| internal(&state, &e))?;
    Ok(environment_response(&env))
}

async fn save_scripts(
    State(state): State<AppState>,
    headers: HeaderMap,
    repo: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let org = org_of(&headers)?;
    let repo = repo_of(repo)?;
    let scripts: Scripts = parse_strict(&body_of(body)?, r#"{"install": "…", "start": "…"}"#)?;
    check_sizes(&[("install", &scripts.install), ("start", &scripts.start)])?;
    write(&state, &headers, org, repo, Change::SaveScripts(scripts)).await
}

/// Local extension (not part of the platform API): record a pending proposal, as the
/// platform's setup run would, so that `diff --against proposal` and `pull` have one.
async fn propose(
    State(state): State<AppState>,
    headers: HeaderMap,
    repo: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let org = org_of(&headers)?;
    let repo = repo_of(repo)?;
    let body: PendingProposal =
        parse_strict(&body_of(body)?, r#"{"install": "…", "start": "…", "secrets": ["NAME"], "note": "…"}"#)?;
    check_sizes(&[("install", &body.install), ("start", &body.start), ("note", &body.note)])?;
    if body.secrets.len() > MAX_PROPOSED_SECRETS {
        return Err(ApiError::too_large(format!("a proposal names at most {MAX_PROPOSED_SECRETS} secrets")));
    }
    let mut secrets: Vec<String> = Vec::with_capacity(body.secrets.len());
    for name in body.secrets {
        validate_secret_name(&name).map_err(|e| name_refusal(&name, &e))?;
        if !secrets.contains(&name) {
            secrets.push(name);
        }
    }
    let proposal = PendingProposal { install: body.install, start: body.start, secrets, note: body.note };
    write(&state, &headers, org, repo, Change::Propose(proposal)).await
}

async fn delete_environment(
    State(state): State<AppState>,
    headers: HeaderMap,
    repo: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let org = org_of(&headers)?;
    let repo = repo_of(repo)?;
    write(&state, &headers, org, repo, Change::Delete).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SecretBody {
    value: SecretString,
}

async fn set_secret(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let org = org_of(&headers)?;
    let (repo, name) = repo_and_name_of(path)?;
    let body = body_of(body)?;
    let parsed = parse_secret_body(body);
    let value = parsed?.value;
    let length = value.expose_secret().len();
    if length == 0 {
        return Err(ApiError::unprocessable("empty_value", "a secret value is at least 1 byte"));
    }
    if length > MAX_VALUE_BYTES {
        return Err(ApiError::too_large(format!(
            "the value is {length} bytes; a secret value is at most {MAX_VALUE_BYTES} bytes (64 KiB)"
        )));
    }
    let binding = Binding { org: &org, repo: &repo, name: &name };
    let sealed = state.key.seal(&binding, value.expose_secret().as_bytes()).map_err(|e| internal(&state, &e))?;
    drop(value);
    write(&state, &headers, org, repo, Change::SetSecret { name, sealed }).await
}

/// Parse `{"value": "…"}`, then wipe the body buffer when no one else holds it. A refusal
/// never quotes the body: serde's messages can echo the value.
fn parse_secret_body(body: Bytes) -> Result<SecretBody, ApiError> {
    let parsed = serde_json::from_slice::<SecretBody>(&body).map_err(|err| {
        ApiError::bad_request(
            "invalid_body",
            format!(
                "the body must be a JSON object {{\"value\": \"…\"}} with a string value and nothing else \
                 ({} at line {}, column {})",
                describe(&err),
                err.line(),
                err.column()
            ),
        )
    });
    if let Ok(mut buffer) = body.try_into_mut() {
        buffer.as_mut().zeroize();
    }
    parsed
}

fn describe(err: &serde_json::Error) -> &'static str {
    match err.classify() {
        serde_json::error::Category::Io => "read error",
        serde_json::error::Category::Syntax => "malformed JSON",
        serde_json::error::Category::Data => "unexpected shape",
        serde_json::error::Category::Eof => "unexpected end",
    }
}

async fn delete_secret(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, ApiError> {
    let org = org_of(&headers)?;
    let (repo, name) = repo_and_name_of(path)?;
    write(&state, &headers, org, repo, Change::DeleteSecret { name }).await
}

// --- helpers --------------------------------------------------------------------------

/// Queue a change, wait for its durable commit, answer the environment as it now is.
async fn write(
    state: &AppState,
    headers: &HeaderMap,
    org: String,
    repo: String,
    change: Change,
) -> Result<Response, ApiError> {
    let unset = match &change {
        Change::DeleteSecret { name } => format!("secret `{name}` is not set on `{repo}`"),
        _ => String::new(),
    };
    let precondition = headers
        .get(header::IF_MATCH)
        .map(|value| value.to_str().map(Precondition::parse).unwrap_or(Precondition::OneOf(Vec::new())));
    match state.store.write(WriteRequest { org, repo, precondition, change }).await {
        Ok(env) => Ok(environment_response(&env)),
        Err(WriteError::PreconditionFailed) => Err(ApiError::precondition_failed()),
        Err(WriteError::SecretNotSet) => Err(ApiError::not_found(unset)),
        Err(WriteError::Storage(message)) => Err(internal(state, &message)),
        Err(WriteError::Unavailable(message)) => {
            internal(state, &message);
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "storage_failed",
                "the server could not write to its storage (see its log) and is stopping; nothing of this request \
                 was saved: retry once it is back",
            ))
        }
    }
}

/// Log the cause (never a value: storage and sealing errors carry none) and answer 500.
fn internal(state: &AppState, cause: &dyn std::fmt::Display) -> ApiError {
    (state.log)(
        LogKind::Error,
        &format!("{} error {cause}", humantime::format_rfc3339_millis(std::time::SystemTime::now())),
    );
    ApiError::internal()
}

fn json_response<T: serde::Serialize>(status: StatusCode, body: &T) -> Response {
    json_bytes_response(status, serde_json::to_vec(body).unwrap_or_default())
}

fn json_bytes_response(status: StatusCode, bytes: Vec<u8>) -> Response {
    let mut response = (status, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// An environment with its strong `ETag` (the digest of exactly these bytes).
fn environment_response(env: &Environment) -> Response {
    let bytes = serde_json::to_vec(env).unwrap_or_default();
    let tag = HeaderValue::from_str(&store::etag_of_json(&bytes));
    let mut response = json_bytes_response(StatusCode::OK, bytes);
    if let Ok(tag) = tag {
        response.headers_mut().insert(header::ETAG, tag);
    }
    response
}

fn body_of(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            body_too_large()
        } else {
            ApiError::bad_request("invalid_body", "the request body could not be read")
        }
    })
}

/// A body of `T`'s fields and nothing else. The wire types stay lenient for the client
/// (it reads what newer servers add); the server refuses a field it does not know.
#[derive(Deserialize)]
struct Strict<T> {
    #[serde(flatten)]
    body: T,
    #[serde(flatten)]
    unknown: std::collections::BTreeMap<String, serde::de::IgnoredAny>,
}

fn parse_strict<T: DeserializeOwned>(body: &[u8], shape: &str) -> Result<T, ApiError> {
    let refuse =
        |why: String| ApiError::bad_request("invalid_body", format!("the body must be a JSON object {shape}: {why}"));
    let strict: Strict<T> = serde_json::from_slice(body).map_err(|err| refuse(err.to_string()))?;
    match strict.unknown.keys().next() {
        Some(field) => Err(refuse(format!("unknown field `{}`", field.chars().take(64).collect::<String>()))),
        None => Ok(strict.body),
    }
}

/// Scripts and a proposal's note are each at most 16 KiB.
fn check_sizes(fields: &[(&str, &str)]) -> Result<(), ApiError> {
    for (field, text) in fields {
        if text.len() > MAX_SCRIPT_BYTES {
            return Err(ApiError::too_large(format!(
                "`{field}` is {} bytes; at most {MAX_SCRIPT_BYTES} bytes (16 KiB)",
                text.len()
            )));
        }
    }
    Ok(())
}

/// The org from `X-Org-Id`, or [`DEFAULT_ORG`] when absent or empty.
fn org_of(headers: &HeaderMap) -> Result<String, ApiError> {
    let Some(value) = headers.get("x-org-id") else {
        return Ok(DEFAULT_ORG.into());
    };
    let refuse = || {
        ApiError::bad_request(
            "invalid_org",
            format!("X-Org-Id must be 1 to {MAX_ORG_CHARS} characters of A-Z a-z 0-9 . _ : -"),
        )
    };
    let org = value.to_str().map_err(|_| refuse())?.trim();
    if org.is_empty() {
        return Ok(DEFAULT_ORG.into());
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':' | '-');
    if org.len() > MAX_ORG_CHARS || !org.chars().all(allowed) {
        return Err(refuse());
    }
    Ok(org.to_string())
}

fn path_refusal(_: PathRejection) -> ApiError {
    ApiError::bad_request("invalid_path", "a path segment is not valid percent-encoded UTF-8")
}

fn repo_of(path: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    let Path(repo) = path.map_err(path_refusal)?;
    check_repo(&repo)?;
    Ok(repo)
}

fn repo_and_name_of(path: Result<Path<(String, String)>, PathRejection>) -> Result<(String, String), ApiError> {
    let Path((repo, name)) = path.map_err(path_refusal)?;
    check_repo(&repo)?;
    validate_secret_name(&name).map_err(|e| name_refusal(&name, &e))?;
    Ok((repo, name))
}

/// A repo is a name inside the org (never `owner/name`): no `/` even percent-encoded, no
/// control characters, not `.` or `..`.
fn check_repo(repo: &str) -> Result<(), ApiError> {
    let problem = if repo.is_empty() {
        Some("is empty")
    } else if repo.chars().count() > MAX_REPO_CHARS {
        Some("is longer than 200 characters")
    } else if repo.contains(['/', '\\']) {
        Some("contains a slash: a repo is a name inside the org, never owner/name")
    } else if repo.chars().any(char::is_control) {
        Some("contains control characters")
    } else if repo == "." || repo == ".." {
        Some("is `.` or `..`")
    } else {
        None
    };
    match problem {
        Some(why) => Err(ApiError::bad_request("invalid_repo", format!("the repo name {}", why))),
        None => Ok(()),
    }
}

/// Refuse a secret name, quoting at most its first 64 characters and nothing after an `=`.
fn name_refusal(name: &str, err: &NameError) -> ApiError {
    let shown: String = name.split('=').next().unwrap_or_default().chars().take(64).collect();
    match err {
        NameError::Reserved(_) => ApiError::unprocessable(
            "reserved_name",
            format!(
                "secret name `{shown}` is reserved: names starting HANZO_ and PATH HOME USER SHELL PWD HOSTNAME IFS ENV \
                 BASH_ENV are kept by the sandbox"
            ),
        ),
        NameError::ValueOnArgv(_) => ApiError::bad_request(
            "invalid_name",
            format!("secret name `{shown}=…` contains `=`: a value goes in the PUT body, never in the URL"),
        ),
        _ => ApiError::bad_request(
            "invalid_name",
            format!("secret name `{shown}` is not valid: a name matches ^[A-Za-z_][A-Za-z0-9_]{{0,127}}$"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_paths_stop_before_any_value() {
        assert_eq!(loggable_path("/v1/environment/site"), "/v1/environment/site");
        assert_eq!(loggable_path("/v1/environment/site/secrets/A=hunter2"), "/v1/environment/site/secrets/A…");
        assert_eq!(loggable_path("/v1/environment/site/secrets/A%3Dhunter2"), "/v1/environment/site/secrets/A…");
        assert_eq!(loggable_path("/v1/environment/site/secrets/A%3dhunter2"), "/v1/environment/site/secrets/A…");
        assert_eq!(loggable_path(&"/x".repeat(300)).chars().count(), 257);
    }

    #[test]
    fn bodies_are_strict() {
        let scripts: Scripts = parse_strict(br#"{"install": "make"}"#, "").unwrap();
        assert_eq!((scripts.install.as_str(), scripts.start.as_str()), ("make", ""));
        let proposal: PendingProposal = parse_strict(br#"{"secrets": ["A"], "note": "n"}"#, "").unwrap();
        assert_eq!(proposal.secrets, ["A"]);
        let err = parse_strict::<Scripts>(br#"{"install": "make", "stat": "x"}"#, "").err().unwrap();
        assert!(err.detail.contains("unknown field `stat`"), "{}", err.detail);
        assert!(parse_strict::<Scripts>(br#"{"install": 1}"#, "").is_err());
        assert!(parse_strict::<Scripts>(b"[]", "").is_err());
    }

    #[test]
    fn repos_are_single_names() {
        for bad in ["", "a/b", "a\\b", "..", ".", "a\nb", &"r".repeat(201)] {
            assert!(check_repo(bad).is_err(), "{bad:?}");
        }
        for good in ["site", "my-repo.v2", "über", &"r".repeat(200)] {
            assert!(check_repo(good).is_ok(), "{good:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn no_input_panics(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..300), text in "\\PC{0,200}") {
            let _ = parse_secret_body(Bytes::from(bytes.clone()));
            let _ = parse_strict::<Scripts>(&bytes, "");
            let _ = parse_strict::<PendingProposal>(&bytes, "");
            let _ = Precondition::parse(&text);
            let _ = loggable_path(&text);
            let _ = check_repo(&text);
            if let Err(err) = validate_secret_name(&text) {
                let _ = name_refusal(&text, &err);
            }
            let mut headers = HeaderMap::new();
            if let Ok(value) = HeaderValue::from_bytes(&bytes) {
                headers.insert("x-org-id", value);
                let _ = org_of(&headers);
            }
        }
    }

    #[test]
    fn secret_body_refusals_never_quote_the_value() {
        for body in [r#"{"value": 12345678}"#, r#"{"value": "abc", "x": "hunter2"}"#, r#"{"value": "hunter2"#] {
            let err = parse_secret_body(Bytes::from(body.to_string())).err().unwrap();
            assert!(!err.detail.contains("12345678") && !err.detail.contains("hunter2"), "{}", err.detail);
        }
    }
}
