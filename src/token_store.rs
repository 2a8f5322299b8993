//! Where the API token lives (DESIGN.md §5): `HANZO_API_KEY`, the token store (the OS keyring
//! or an opt-in 0600 file), then `hanzo auth token`. Tokens stay in `secrecy` types; nothing
//! here implements `Debug`/`Display` of a token.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use secrecy::{ExposeSecret, SecretString};
use zeroize::Zeroizing;

use crate::diagnostic::{Diagnostic, Exit};

/// The keyring service name under which tokens are stored, one entry per API URL.
pub const KEYRING_SERVICE: &str = "hanzo-env";
/// Selects the token store: unset or `keyring` → the OS keyring; `file:<path>` → an opt-in
/// plaintext file, mode 0600 (for machines without a keyring, and for tests).
pub const STORE_ENV: &str = "HANZO_ENV_TOKEN_STORE";
/// Every keyring call gives up after this long (a locked or absent Secret Service can hang).
pub const KEYRING_TIMEOUT: Duration = Duration::from_secs(3);
/// `hanzo auth token` gets this long.
pub const HANZO_CLI_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("no API token: HANZO_API_KEY is not set and none is stored in {store}")]
    Missing { store: String },
    #[error("the OS keyring could not {action}: {reason}")]
    Keyring { action: &'static str, reason: String },
    /// No source had a token, and the keyring could not even be asked: sign-in is needed.
    #[error("no API token: HANZO_API_KEY is not set and {0}")]
    KeyringUnavailable(Box<TokenError>),
    #[error("the token file {} could not be {action}: {reason}", path.display())]
    File { path: PathBuf, action: &'static str, reason: String },
    #[error("{STORE_ENV}=`{value}` is not understood")]
    BadStoreSetting { value: String },
    #[error("`hanzo auth token` failed: {reason}")]
    HanzoCli { reason: String },
    #[error("the token is empty")]
    Empty,
    #[error("the token from {source_name} has spaces or control characters inside it")]
    Malformed { source_name: String },
}

impl Diagnostic for TokenError {
    fn exit(&self) -> Exit {
        match self {
            TokenError::Missing { .. } | TokenError::KeyringUnavailable(_) | TokenError::HanzoCli { .. } => Exit::Auth,
            _ => Exit::Local,
        }
    }
    fn hint(&self) -> Option<String> {
        Some(match self {
            TokenError::Missing { .. } => "run `hanzo-env login`, or set HANZO_API_KEY".into(),
            TokenError::Keyring { .. } | TokenError::KeyringUnavailable(_) => format!(
                "set HANZO_API_KEY for this shell, or opt in to a plaintext 0600 file: \
                 {STORE_ENV}=file:$HOME/.config/hanzo-env/token hanzo-env login"
            ),
            TokenError::File { .. } => format!("check the path in {STORE_ENV} and its permissions"),
            TokenError::BadStoreSetting { .. } => format!("{STORE_ENV} is `keyring` or `file:/absolute/path`"),
            TokenError::HanzoCli { .. } => "run `hanzo login`, or `hanzo-env login`, or set HANZO_API_KEY".into(),
            TokenError::Empty => "paste the whole token".into(),
            TokenError::Malformed { .. } => "a token is one word of printable characters; paste it again".into(),
        })
    }
}

/// Where `login` puts the token and where it is looked up after `HANZO_API_KEY`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenStore {
    Keyring,
    /// The explicit opt-in plaintext store: one `URL<TAB>TOKEN` line per API, mode 0600.
    File(PathBuf),
}

/// Which source a token came from (for `auth status`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenSource {
    EnvVar,
    Store(TokenStore),
    HanzoCli(PathBuf),
}

impl TokenSource {
    pub fn describe(&self) -> String {
        match self {
            TokenSource::EnvVar => "HANZO_API_KEY".into(),
            TokenSource::Store(store) => store.describe(),
            TokenSource::HanzoCli(path) => format!("`{} auth token`", path.display()),
        }
    }
}

impl TokenStore {
    /// The store chosen by `HANZO_ENV_TOKEN_STORE` (`keyring` when unset).
    pub fn from_env() -> Result<TokenStore, TokenError> {
        match std::env::var(STORE_ENV) {
            Err(_) => Ok(TokenStore::Keyring),
            Ok(v) if v.is_empty() || v == "keyring" => Ok(TokenStore::Keyring),
            Ok(v) => match v.strip_prefix("file:") {
                Some(path) if Path::new(path).is_absolute() => Ok(TokenStore::File(PathBuf::from(path))),
                _ => Err(TokenError::BadStoreSetting { value: v }),
            },
        }
    }

    pub fn describe(&self) -> String {
        match self {
            TokenStore::Keyring => format!("the OS keyring (service `{KEYRING_SERVICE}`)"),
            TokenStore::File(path) => format!("the plaintext file {} (opt-in, mode 0600)", path.display()),
        }
    }

    /// The token stored for `api`, if any.
    pub fn get(&self, api: &str) -> Result<Option<SecretString>, TokenError> {
        match self {
            TokenStore::Keyring => {
                let account = api.to_string();
                with_keyring("read the token", move || {
                    match keyring::Entry::new(KEYRING_SERVICE, &account)?.get_password() {
                        Ok(token) => Ok(Some(SecretString::from(token))),
                        Err(keyring::Error::NoEntry) => Ok(None),
                        Err(e) => Err(e),
                    }
                })
            }
            TokenStore::File(path) => {
                let lines = read_token_file(path)?;
                Ok(lines.iter().find(|(url, _)| url == api).map(|(_, token)| token.clone()))
            }
        }
    }

    pub fn set(&self, api: &str, token: &SecretString) -> Result<(), TokenError> {
        match self {
            TokenStore::Keyring => {
                let account = api.to_string();
                let token = token.clone();
                with_keyring("store the token", move || {
                    keyring::Entry::new(KEYRING_SERVICE, &account)?.set_password(token.expose_secret())
                })
            }
            TokenStore::File(path) => {
                let mut lines = read_token_file(path)?;
                lines.retain(|(url, _)| url != api);
                lines.push((api.to_string(), token.clone()));
                write_token_file(path, &lines)
            }
        }
    }

    /// Remove the token for `api`; false when there was none.
    pub fn delete(&self, api: &str) -> Result<bool, TokenError> {
        match self {
            TokenStore::Keyring => {
                let account = api.to_string();
                with_keyring("remove the token", move || {
                    match keyring::Entry::new(KEYRING_SERVICE, &account)?.delete_credential() {
                        Ok(()) => Ok(true),
                        Err(keyring::Error::NoEntry) => Ok(false),
                        Err(e) => Err(e),
                    }
                })
            }
            TokenStore::File(path) => {
                let mut lines = read_token_file(path)?;
                let before = lines.len();
                lines.retain(|(url, _)| url != api);
                if lines.len() == before {
                    return Ok(false);
                }
                write_token_file(path, &lines)?;
                Ok(true)
            }
        }
    }
}

/// Run one keyring call on its own thread and give up after [`KEYRING_TIMEOUT`].
fn with_keyring<T: Send + 'static>(
    action: &'static str,
    call: impl FnOnce() -> keyring::Result<T> + Send + 'static,
) -> Result<T, TokenError> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(call());
    });
    match rx.recv_timeout(KEYRING_TIMEOUT) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(TokenError::Keyring { action, reason: keyring_reason(&e) }),
        Err(_) => Err(TokenError::Keyring {
            action,
            reason: format!(
                "no answer within {}s (is the keyring locked or its service not running?)",
                KEYRING_TIMEOUT.as_secs()
            ),
        }),
    }
}

fn keyring_reason(e: &keyring::Error) -> String {
    match e {
        keyring::Error::NoDefaultStore => {
            let why = match keyring::Entry::store_status() {
                Err(e) => format!(" ({e})"),
                Ok(()) => String::new(),
            };
            format!(
                "no keyring is available here{why}; on Linux it is a Secret Service such as gnome-keyring over D-Bus"
            )
        }
        keyring::Error::NoStorageAccess(inner) => format!("access denied or keyring locked: {inner}"),
        keyring::Error::PlatformFailure(inner) => format!("the platform keyring failed: {inner}"),
        // Variants that carry stored bytes are summarised without them.
        keyring::Error::BadEncoding(_) | keyring::Error::BadDataFormat(..) => "the stored entry is not text".into(),
        other => other.to_string(),
    }
}

type TokenLines = Vec<(String, SecretString)>;

/// The largest token file read: a line per API, far under this.
const MAX_TOKEN_FILE_BYTES: u64 = 1 << 20;

fn read_token_file(path: &Path) -> Result<TokenLines, TokenError> {
    let fail = |action, reason: String| TokenError::File { path: path.to_path_buf(), action, reason };
    let text = match crate::fsutil::read_regular_io(path, MAX_TOKEN_FILE_BYTES) {
        Ok(bytes) => Zeroizing::new(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(fail("read", e.to_string())),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map_err(|e| fail("read", e.to_string()))?.permissions().mode();
        if mode & 0o077 != 0 {
            return Err(fail("used", format!("its mode is {:o}; others may read it (chmod 600 it)", mode & 0o777)));
        }
    }
    let text = std::str::from_utf8(&text).map_err(|_| fail("read", "it is not text".into()))?;
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (url, token) =
            line.split_once('\t').ok_or_else(|| fail("read", format!("line {} is not `URL<TAB>TOKEN`", number + 1)))?;
        lines.push((url.to_string(), SecretString::from(token)));
    }
    Ok(lines)
}

fn write_token_file(path: &Path, lines: &TokenLines) -> Result<(), TokenError> {
    let mut text = Zeroizing::new(String::new());
    for (url, token) in lines {
        text.push_str(url);
        text.push('\t');
        text.push_str(token.expose_secret());
        text.push('\n');
    }
    crate::fsutil::write_atomic(path, text.as_bytes(), true).map_err(|e| TokenError::File {
        path: path.to_path_buf(),
        action: "written",
        reason: e.source.to_string(),
    })
}

/// The token to use for `api`, and where it came from: `HANZO_API_KEY`, then the store,
/// then `hanzo auth token`. A store failure is reported unless a later source answers.
pub fn resolve_token(store: &TokenStore, api: &str) -> Result<(SecretString, TokenSource), TokenError> {
    if let Ok(token) = std::env::var("HANZO_API_KEY") {
        let token = Zeroizing::new(token);
        let trimmed = token.trim();
        if !trimmed.is_empty() {
            check_token(trimmed, "HANZO_API_KEY")?;
            return Ok((SecretString::from(trimmed), TokenSource::EnvVar));
        }
    }
    let store_error = match store.get(api) {
        Ok(Some(token)) => {
            check_token(token.expose_secret(), &store.describe())?;
            return Ok((token, TokenSource::Store(store.clone())));
        }
        Ok(None) => None,
        Err(e) => Some(e),
    };
    if let Some(hanzo) = find_on_path("hanzo") {
        let token = hanzo_auth_token(&hanzo)?;
        return Ok((token, TokenSource::HanzoCli(hanzo)));
    }
    Err(no_token(store_error, store))
}

/// Why no token was found. A keyring that cannot be reached (a headless machine, a locked
/// Secret Service) leaves the caller signed out, so it is exit 4 like a missing token; a
/// broken opt-in file or setting is a local error to fix (exit 2).
fn no_token(store_error: Option<TokenError>, store: &TokenStore) -> TokenError {
    match store_error {
        Some(keyring @ TokenError::Keyring { .. }) => TokenError::KeyringUnavailable(Box::new(keyring)),
        Some(other) => other,
        None => TokenError::Missing { store: store.describe() },
    }
}

/// A token goes into an HTTP header: one word of printable ASCII.
pub fn check_token(token: &str, source_name: &str) -> Result<(), TokenError> {
    if token.is_empty() {
        return Err(TokenError::Empty);
    }
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(TokenError::Malformed { source_name: source_name.into() });
    }
    Ok(())
}

/// The first executable `name` in `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// Run `hanzo auth token` with a timeout; its stdout is the token and is never shown.
fn hanzo_auth_token(program: &Path) -> Result<SecretString, TokenError> {
    let fail = |reason: String| TokenError::HanzoCli { reason };
    let mut child = Command::new(program)
        .args(["auth", "token"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| fail(e.to_string()))?;
    let mut stdout = child.stdout.take().ok_or_else(|| fail("no stdout".into()))?;
    let reader = std::thread::spawn(move || {
        let mut out = Zeroizing::new(Vec::new());
        let _ = stdout.by_ref().take(64 << 10).read_to_end(&mut out);
        out
    });
    let deadline = Instant::now() + HANZO_CLI_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(fail(format!("no answer within {}s", HANZO_CLI_TIMEOUT.as_secs())));
            }
            Err(e) => return Err(fail(e.to_string())),
        }
    };
    let out = reader.join().map_err(|_| fail("reading its output failed".into()))?;
    if !status.success() {
        return Err(fail(format!("it exited with {status}")));
    }
    let text = std::str::from_utf8(&out).map_err(|_| fail("its output is not text".into()))?;
    let token = text.trim();
    if token.is_empty() {
        return Err(fail("it printed no token".into()));
    }
    check_token(token, "`hanzo auth token`")?;
    Ok(SecretString::from(token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_store_round_trips_per_api_with_mode_0600() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::File(dir.path().join("token"));
        assert!(store.get("https://a/").unwrap().is_none());
        store.set("https://a/", &SecretString::from("t-a")).unwrap();
        store.set("http://127.0.0.1:1/", &SecretString::from("t-b")).unwrap();
        store.set("https://a/", &SecretString::from("t-a2")).unwrap();
        assert_eq!(store.get("https://a/").unwrap().unwrap().expose_secret(), "t-a2");
        assert_eq!(store.get("http://127.0.0.1:1/").unwrap().unwrap().expose_secret(), "t-b");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("token")).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(store.delete("https://a/").unwrap());
        assert!(!store.delete("https://a/").unwrap());
        assert!(store.get("https://a/").unwrap().is_none());
    }

    #[test]
    fn an_unreachable_keyring_means_sign_in_is_needed() {
        let keyring = TokenError::Keyring { action: "read the token", reason: "no keyring is available here".into() };
        let err = no_token(Some(keyring), &TokenStore::Keyring);
        assert_eq!(err.exit(), Exit::Auth);
        assert!(err.to_string().contains("no API token") && err.to_string().contains("no keyring"), "{err}");
        assert!(err.hint().unwrap().contains("HANZO_API_KEY"));
        let file = TokenError::File { path: "/t".into(), action: "used", reason: "mode 644".into() };
        assert_eq!(no_token(Some(file), &TokenStore::File("/t".into())).exit(), Exit::Local);
        assert_eq!(no_token(None, &TokenStore::Keyring).exit(), Exit::Auth);
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_others_can_read_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "https://a/\tsecret-token\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = TokenStore::File(path).get("https://a/").unwrap_err();
        assert!(err.to_string().contains("644"), "{err}");
        assert!(!err.to_string().contains("secret-token"));
    }
}
