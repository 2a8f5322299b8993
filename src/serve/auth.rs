//! Bearer tokens: where they come from, and checking one in constant time.
//!
//! Tokens come from `--token-file` (one per line; blank lines and `#` comments skipped), else
//! `HANZO_ENV_SERVE_TOKENS` (separated by commas or newlines), else one generated at first
//! start and kept mode 0600 in the platform config dir, outside the data dir. Only SHA-256
//! digests are kept in memory; a presented token is hashed and compared against every digest
//! with [`subtle`], so neither the comparison nor the token length shows in the timing.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

const TOKEN_FILE_NAME: &str = "serve-token";
/// The shortest token a server beyond loopback accepts (a warning on loopback): a short
/// token is guessed; a generated one is 4 + 43 characters.
pub const MIN_TOKEN_CHARS: usize = 16;

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("could not read the token file {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{origin} holds no token")]
    Empty { origin: String },
    #[error("no platform config dir to keep a generated token in")]
    NoConfigDir,
    #[error("the token file {} is inside the data dir {}", token.display(), data.display())]
    InsideDataDir { token: PathBuf, data: PathBuf },
    #[error(transparent)]
    Write(#[from] crate::fsutil::WriteError),
    #[error(transparent)]
    Random(#[from] super::seal::SealError),
    #[error(
        "{origin} holds {count} token(s) shorter than {MIN_TOKEN_CHARS} characters, refused for a server beyond loopback"
    )]
    TooShort { origin: String, count: usize },
}

impl crate::diagnostic::Diagnostic for TokenError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            TokenError::Read { .. } => "check the --token-file path".into(),
            TokenError::Empty { .. } => {
                "put one token per line in the file (blank lines and # comments are skipped)".into()
            }
            TokenError::NoConfigDir => "pass --token-file PATH or set HANZO_ENV_SERVE_TOKENS".into(),
            TokenError::InsideDataDir { .. } => "pass --token-file with a path outside the data dir".into(),
            TokenError::TooShort { .. } => {
                "use long random tokens, e.g. `printf 'hzs_%s\\n' \"$(openssl rand -hex 24)\"` for each".into()
            }
            TokenError::Write(_) | TokenError::Random(_) => return None,
        })
    }
}

/// Where the accepted tokens came from, for the start-up message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenOrigin {
    File(PathBuf),
    Env,
    /// Generated on this start and written to the path.
    Generated(PathBuf),
    /// Generated on an earlier start.
    Existing(PathBuf),
}

/// The accepted bearer tokens, as SHA-256 digests.
pub struct Tokens {
    digests: Vec<[u8; 32]>,
    /// Where they came from (for messages), and how many are under [`MIN_TOKEN_CHARS`].
    origin: String,
    short: usize,
}

impl Tokens {
    pub fn load(
        token_file: Option<&Path>,
        env_value: Option<&str>,
        config_dir: Option<&Path>,
        data_dir: &Path,
    ) -> Result<(Tokens, TokenOrigin), TokenError> {
        if let Some(path) = token_file {
            let text = read(path)?;
            let tokens = Tokens::parse(&text, &['\n'], &path.display().to_string())?;
            return Ok((tokens, TokenOrigin::File(path.into())));
        }
        if let Some(text) = env_value {
            return Ok((Tokens::parse(text, &['\n', ','], "HANZO_ENV_SERVE_TOKENS")?, TokenOrigin::Env));
        }
        let path = config_dir.ok_or(TokenError::NoConfigDir)?.join(TOKEN_FILE_NAME);
        if super::is_inside(&path, data_dir) {
            return Err(TokenError::InsideDataDir { token: path, data: data_dir.into() });
        }
        if path.exists() {
            let tokens = Tokens::parse(&read(&path)?, &['\n'], &path.display().to_string())?;
            return Ok((tokens, TokenOrigin::Existing(path)));
        }
        let mut token = super::seal::random_token()?;
        token.insert_str(0, "hzs_");
        let tokens = Tokens::parse(&token, &['\n'], "the generated token")?;
        token.push('\n');
        crate::fsutil::write_atomic(&path, token.as_bytes(), true)?;
        Ok((tokens, TokenOrigin::Generated(path)))
    }

    fn parse(text: &str, separators: &[char], origin: &str) -> Result<Tokens, TokenError> {
        let tokens: Vec<&str> =
            text.split(separators).map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')).collect();
        if tokens.is_empty() {
            return Err(TokenError::Empty { origin: origin.to_string() });
        }
        let short = tokens.iter().filter(|t| t.chars().count() < MIN_TOKEN_CHARS).count();
        Ok(Tokens { digests: tokens.into_iter().map(digest).collect(), origin: origin.to_string(), short })
    }

    /// How many tokens are shorter than [`MIN_TOKEN_CHARS`].
    pub fn short(&self) -> usize {
        self.short
    }

    /// Refuse short tokens (for a server that listens beyond loopback).
    pub fn require_long(&self) -> Result<(), TokenError> {
        match self.short {
            0 => Ok(()),
            count => Err(TokenError::TooShort { origin: self.origin.clone(), count }),
        }
    }

    /// Whether an `Authorization` header value carries an accepted bearer token.
    pub fn accepts(&self, authorization: Option<&[u8]>) -> bool {
        let Some(presented) = authorization.and_then(bearer) else {
            return false;
        };
        let presented = digest_bytes(presented);
        let mut found = Choice::from(0);
        for accepted in &self.digests {
            found |= accepted.ct_eq(&presented);
        }
        found.into()
    }
}

/// The token of `Bearer <token>` (scheme case-insensitive, RFC 7235).
fn bearer(header: &[u8]) -> Option<&[u8]> {
    let (scheme, rest) = header.split_at_checked(7)?;
    if !scheme.eq_ignore_ascii_case(b"bearer ") {
        return None;
    }
    let token = rest.trim_ascii();
    (!token.is_empty()).then_some(token)
}

/// The largest token file read: a line per token, far under this.
const MAX_TOKEN_FILE_BYTES: u64 = 1 << 20;

/// A token file: a regular file of bounded size (`--token-file /dev/zero` must not fill memory).
fn read(path: &Path) -> Result<Zeroizing<String>, TokenError> {
    crate::fsutil::read_regular_text(path, MAX_TOKEN_FILE_BYTES)
        .map(Zeroizing::new)
        .map_err(|source| TokenError::Read { path: path.into(), source })
}

fn digest(token: &str) -> [u8; 32] {
    digest_bytes(token.as_bytes())
}

fn digest_bytes(token: &[u8]) -> [u8; 32] {
    Sha256::digest(token).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_tokens_one_per_line() {
        let tokens = Tokens::parse("# comment\n tok-a \n\ntok-b\r\n", &['\n'], "test").unwrap();
        assert!(tokens.accepts(Some(b"Bearer tok-a")));
        assert!(tokens.accepts(Some(b"bearer tok-b")));
        assert!(!tokens.accepts(Some(b"Bearer tok-c")));
        assert!(!tokens.accepts(Some(b"Bearer tok-")));
        assert!(!tokens.accepts(Some(b"Basic tok-a")));
        assert!(!tokens.accepts(Some(b"Bearer ")));
        assert!(!tokens.accepts(Some(b"tok-a")));
        assert!(!tokens.accepts(None));
        assert!(!tokens.accepts(Some(b"Bearer # comment")));
    }

    #[test]
    fn env_tokens_split_on_commas_and_newlines() {
        let tokens = Tokens::parse("a1,b2\nc3", &['\n', ','], "env").unwrap();
        for t in ["a1", "b2", "c3"] {
            assert!(tokens.accepts(Some(format!("Bearer {t}").as_bytes())));
        }
        assert!(Tokens::parse(" , \n", &['\n', ','], "env").is_err());
    }

    #[test]
    fn generated_token_is_kept_private_and_reused() {
        let tmp = tempfile::tempdir().unwrap();
        let config = tmp.path().join("config");
        let data = tmp.path().join("data");
        let (first, origin) = Tokens::load(None, None, Some(&config), &data).unwrap();
        let TokenOrigin::Generated(path) = origin else { panic!("{origin:?}") };
        let token = std::fs::read_to_string(&path).unwrap();
        assert!(first.accepts(Some(format!("Bearer {}", token.trim()).as_bytes())));
        let (second, origin) = Tokens::load(None, None, Some(&config), &data).unwrap();
        assert_eq!(origin, TokenOrigin::Existing(path.clone()));
        assert!(second.accepts(Some(format!("Bearer {}", token.trim()).as_bytes())));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }
}
