//! Sealing secret values at rest, the way a KMS does it (envelope encryption).
//!
//! Every value gets its own random 256-bit data key. The value is encrypted under the data
//! key with XChaCha20-Poly1305 (random 192-bit nonce), and the data key is itself encrypted
//! ("wrapped") under the master key. Both encryptions carry associated data binding the
//! ciphertext to `/orgs/<org>/environment/<repo>/<NAME>`: a sealed blob copied under another
//! org, repo or name fails to open. Only the wrapped key and the ciphertexts are stored;
//! the master key lives outside the data dir ([`MasterKey::load`]).
//!
//! Layout of a sealed value (version 1):
//! `0x01 | key nonce (24) | wrapped data key (32 + 16 tag) | value nonce (24) | ciphertext (n + 16 tag)`.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use chacha20poly1305::aead::{Aead, Payload};
use chacha20poly1305::{KeyInit, XChaCha20Poly1305, XNonce};
use rand::TryRng as _;
use secrecy::{ExposeSecret, SecretBox, SecretSlice};
use zeroize::Zeroizing;

const FORMAT_V1: u8 = 1;
const KEY_LEN: usize = 32;
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;
const WRAPPED_KEY_LEN: usize = KEY_LEN + TAG_LEN;
const HEADER_LEN: usize = 1 + NONCE_LEN + WRAPPED_KEY_LEN + NONCE_LEN;
const KEY_FILE_NAME: &str = "serve.key";
/// The largest key file read: the key is 44 characters of base64 (`--key-file /dev/zero` must
/// not fill memory).
const MAX_KEY_FILE_BYTES: u64 = 64 << 10;
/// What the key check seals, so that a wrong master key is caught at start.
const KEY_CHECK_PLAINTEXT: &[u8] = b"hanzo-env serve master key check v1";

#[derive(Debug, thiserror::Error)]
pub enum SealError {
    #[error("the system random number generator failed: {0}")]
    Random(String),
    #[error("encryption failed")]
    Encrypt,
    #[error("a sealed value did not open: wrong master key, or the data was altered")]
    Open,
    #[error("a sealed value has an unknown format (version byte {0})")]
    Format(u8),
}

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("could not read the master key file {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("the master key in {origin} is not base64 of 32 bytes")]
    Malformed { origin: String },
    #[error("the master key file {} is inside the data dir {}", key.display(), data.display())]
    InsideDataDir { key: PathBuf, data: PathBuf },
    #[error("the master key file {} can be read by other users (mode {mode:o})", path.display())]
    Permissions { path: PathBuf, mode: u32 },
    #[error("no platform config dir to keep a generated master key in")]
    NoConfigDir,
    #[error(transparent)]
    Write(#[from] crate::fsutil::WriteError),
    #[error(transparent)]
    Seal(#[from] SealError),
}

impl crate::diagnostic::Diagnostic for KeyError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            KeyError::Read { .. } => "check the --key-file path".into(),
            KeyError::Malformed { .. } => {
                "a key is 32 random bytes, base64-encoded: `head -c 32 /dev/urandom | base64`".into()
            }
            KeyError::InsideDataDir { .. } => {
                "keep the key apart from the data it protects: move it out of the data dir and pass --key-file".into()
            }
            KeyError::Permissions { path, .. } => format!("run `chmod 600 {}`", path.display()),
            KeyError::NoConfigDir => "pass --key-file PATH or set HANZO_ENV_SERVE_KEY (base64 of 32 bytes)".into(),
            KeyError::Write(_) | KeyError::Seal(_) => return None,
        })
    }
}

/// Where the master key came from, for the start-up message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyOrigin {
    File(PathBuf),
    Env,
    Generated(PathBuf),
    Existing(PathBuf),
}

/// The 256-bit key that wraps every data key. Never written beside the data.
pub struct MasterKey {
    cipher: XChaCha20Poly1305,
}

impl MasterKey {
    /// The key from `key_file`, else from `env_value` (base64), else the one kept in
    /// `config_dir` (generated there, mode 0600, on first start). A key file inside
    /// `data_dir` is refused.
    pub fn load(
        key_file: Option<&Path>,
        env_value: Option<&str>,
        config_dir: Option<&Path>,
        data_dir: &Path,
    ) -> Result<(MasterKey, KeyOrigin), KeyError> {
        if let Some(path) = key_file {
            refuse_inside(path, data_dir)?;
            check_private(path)?;
            let text = Zeroizing::new(
                crate::fsutil::read_regular_text(path, MAX_KEY_FILE_BYTES)
                    .map_err(|source| KeyError::Read { path: path.into(), source })?,
            );
            let key = decode_key(&text, &path.display().to_string())?;
            return Ok((MasterKey::from_bytes(&key), KeyOrigin::File(path.into())));
        }
        if let Some(text) = env_value {
            let key = decode_key(text, "HANZO_ENV_SERVE_KEY")?;
            return Ok((MasterKey::from_bytes(&key), KeyOrigin::Env));
        }
        let path = config_dir.ok_or(KeyError::NoConfigDir)?.join(KEY_FILE_NAME);
        refuse_inside(&path, data_dir)?;
        if path.exists() {
            check_private(&path)?;
            let text = Zeroizing::new(
                crate::fsutil::read_regular_text(&path, MAX_KEY_FILE_BYTES)
                    .map_err(|source| KeyError::Read { path: path.clone(), source })?,
            );
            let key = decode_key(&text, &path.display().to_string())?;
            return Ok((MasterKey::from_bytes(&key), KeyOrigin::Existing(path)));
        }
        let key = random_key()?;
        let mut text = Zeroizing::new(base64::engine::general_purpose::STANDARD.encode(key.expose_secret()));
        text.push('\n');
        crate::fsutil::write_atomic(&path, text.as_bytes(), true)?;
        Ok((MasterKey::from_bytes(key.expose_secret()), KeyOrigin::Generated(path)))
    }

    pub fn from_bytes(key: &[u8; KEY_LEN]) -> MasterKey {
        MasterKey { cipher: XChaCha20Poly1305::new(key.into()) }
    }

    /// Seal `value` for `/orgs/<org>/environment/<repo>/<name>`.
    pub fn seal(&self, binding: &Binding, value: &[u8]) -> Result<Vec<u8>, SealError> {
        let aad = binding.aad();
        let data_key = random_key()?;
        let key_nonce = random_nonce()?;
        let value_nonce = random_nonce()?;
        let wrapped = self
            .cipher
            .encrypt(&key_nonce, Payload { msg: data_key.expose_secret(), aad: &aad })
            .map_err(|_| SealError::Encrypt)?;
        let data_cipher = XChaCha20Poly1305::new(data_key.expose_secret().into());
        let ciphertext =
            data_cipher.encrypt(&value_nonce, Payload { msg: value, aad: &aad }).map_err(|_| SealError::Encrypt)?;
        let mut sealed = Vec::with_capacity(HEADER_LEN + ciphertext.len());
        sealed.push(FORMAT_V1);
        sealed.extend_from_slice(&key_nonce);
        sealed.extend_from_slice(&wrapped);
        sealed.extend_from_slice(&value_nonce);
        sealed.extend_from_slice(&ciphertext);
        Ok(sealed)
    }

    /// Open a value sealed by [`MasterKey::seal`] under the same binding.
    pub fn open(&self, binding: &Binding, sealed: &[u8]) -> Result<SecretSlice<u8>, SealError> {
        match sealed.first() {
            Some(&FORMAT_V1) => {}
            Some(&other) => return Err(SealError::Format(other)),
            None => return Err(SealError::Open),
        }
        if sealed.len() < HEADER_LEN + TAG_LEN {
            return Err(SealError::Open);
        }
        let aad = binding.aad();
        let (key_nonce, rest) = sealed[1..].split_at(NONCE_LEN);
        let (wrapped, rest) = rest.split_at(WRAPPED_KEY_LEN);
        let (value_nonce, ciphertext) = rest.split_at(NONCE_LEN);
        let nonce = |bytes: &[u8]| XNonce::try_from(bytes).map_err(|_| SealError::Open);
        let data_key = Zeroizing::new(
            self.cipher
                .decrypt(&nonce(key_nonce)?, Payload { msg: wrapped, aad: &aad })
                .map_err(|_| SealError::Open)?,
        );
        let data_cipher = XChaCha20Poly1305::new_from_slice(&data_key).map_err(|_| SealError::Open)?;
        let plaintext = data_cipher
            .decrypt(&nonce(value_nonce)?, Payload { msg: ciphertext, aad: &aad })
            .map_err(|_| SealError::Open)?;
        Ok(SecretSlice::from(plaintext))
    }

    /// A sealed constant, stored in the data dir, that only this master key opens.
    pub fn key_check(&self) -> Result<Vec<u8>, SealError> {
        self.seal(&Binding::key_check(), KEY_CHECK_PLAINTEXT)
    }

    /// Whether `sealed` (from [`MasterKey::key_check`]) was made with this master key.
    pub fn verify_key_check(&self, sealed: &[u8]) -> bool {
        self.open(&Binding::key_check(), sealed).is_ok_and(|plain| plain.expose_secret() == KEY_CHECK_PLAINTEXT)
    }
}

/// What a sealed value is bound to: its KMS path `/orgs/<org>/environment/<repo>/<NAME>`.
pub struct Binding<'a> {
    pub org: &'a str,
    pub repo: &'a str,
    pub name: &'a str,
}

impl Binding<'_> {
    fn key_check() -> Binding<'static> {
        Binding { org: "", repo: "", name: "" }
    }

    /// Length-prefixed parts, so that no two different bindings share associated data.
    fn aad(&self) -> Vec<u8> {
        let mut aad = b"hanzo-env/environment-secret/v1".to_vec();
        for part in [self.org, self.repo, self.name] {
            aad.extend_from_slice(&(part.len() as u64).to_be_bytes());
            aad.extend_from_slice(part.as_bytes());
        }
        aad
    }
}

fn random_key() -> Result<SecretBox<[u8; KEY_LEN]>, SealError> {
    let mut key = SecretBox::new(Box::new([0u8; KEY_LEN]));
    fill_random(secrecy::ExposeSecretMut::expose_secret_mut(&mut key))?;
    Ok(key)
}

fn random_nonce() -> Result<XNonce, SealError> {
    let mut nonce = XNonce::default();
    fill_random(&mut nonce)?;
    Ok(nonce)
}

fn fill_random(buf: &mut [u8]) -> Result<(), SealError> {
    rand::rngs::SysRng.try_fill_bytes(buf).map_err(|e| SealError::Random(e.to_string()))
}

/// 32 random bytes, base64url without padding, for a generated bearer token.
pub fn random_token() -> Result<Zeroizing<String>, SealError> {
    let key = random_key()?;
    Ok(Zeroizing::new(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(key.expose_secret())))
}

fn decode_key(text: &str, origin: &str) -> Result<[u8; KEY_LEN], KeyError> {
    let malformed = || KeyError::Malformed { origin: origin.to_string() };
    let bytes = Zeroizing::new(base64::engine::general_purpose::STANDARD.decode(text.trim()).map_err(|_| malformed())?);
    <[u8; KEY_LEN]>::try_from(bytes.as_slice()).map_err(|_| malformed())
}

fn refuse_inside(key: &Path, data_dir: &Path) -> Result<(), KeyError> {
    if crate::serve::is_inside(key, data_dir) {
        return Err(KeyError::InsideDataDir { key: key.into(), data: data_dir.into() });
    }
    Ok(())
}

#[cfg(unix)]
fn check_private(path: &Path) -> Result<(), KeyError> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).map_err(|source| KeyError::Read { path: path.into(), source })?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(KeyError::Permissions { path: path.into(), mode });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_path: &Path) -> Result<(), KeyError> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> MasterKey {
        MasterKey::from_bytes(&[byte; KEY_LEN])
    }

    const SITE: Binding<'static> = Binding { org: "acme", repo: "site", name: "DATABASE_URL" };

    #[test]
    fn round_trip_and_no_plaintext_in_the_blob() {
        let value = b"postgres://user:S3CR3T-MARK@db/site";
        let sealed = key(1).seal(&SITE, value).unwrap();
        assert!(!sealed.windows(11).any(|w| w == b"S3CR3T-MARK"));
        assert_eq!(key(1).open(&SITE, &sealed).unwrap().expose_secret(), value);
    }

    #[test]
    fn each_seal_uses_fresh_randomness() {
        assert_ne!(key(1).seal(&SITE, b"v").unwrap(), key(1).seal(&SITE, b"v").unwrap());
    }

    #[test]
    fn wrong_key_binding_or_tampering_fails_to_open() {
        let sealed = key(1).seal(&SITE, b"value").unwrap();
        assert!(key(2).open(&SITE, &sealed).is_err());
        for other in [
            Binding { org: "other", ..SITE },
            Binding { repo: "site2", ..SITE },
            Binding { name: "DATABASE_UR", ..SITE },
            // Length prefixes keep "a"+"bc" apart from "ab"+"c".
            Binding { org: "acmes", repo: "ite", ..SITE },
        ] {
            assert!(key(1).open(&other, &sealed).is_err());
        }
        let mut tampered = sealed.clone();
        *tampered.last_mut().unwrap() ^= 1;
        assert!(key(1).open(&SITE, &tampered).is_err());
        assert!(key(1).open(&SITE, &sealed[..HEADER_LEN]).is_err());
        assert!(matches!(key(1).open(&SITE, &[9, 1, 2]), Err(SealError::Format(9))));
        assert!(key(1).open(&SITE, &[]).is_err());
    }

    #[test]
    fn key_check_tells_keys_apart() {
        let check = key(1).key_check().unwrap();
        assert!(key(1).verify_key_check(&check));
        assert!(!key(2).verify_key_check(&check));
    }

    #[test]
    fn generated_key_is_private_reused_and_never_inside_the_data_dir() {
        let tmp = tempfile::tempdir().unwrap();
        let config = tmp.path().join("config");
        let data = tmp.path().join("data");
        let (first, origin) = MasterKey::load(None, None, Some(&config), &data).unwrap();
        assert!(matches!(origin, KeyOrigin::Generated(_)));
        let (second, origin) = MasterKey::load(None, None, Some(&config), &data).unwrap();
        assert!(matches!(origin, KeyOrigin::Existing(_)));
        assert!(second.verify_key_check(&first.key_check().unwrap()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(config.join(KEY_FILE_NAME)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let inside = data.join("my.key");
        assert!(matches!(MasterKey::load(Some(&inside), None, None, &data), Err(KeyError::InsideDataDir { .. })));
        assert!(matches!(MasterKey::load(None, None, Some(&data), &data), Err(KeyError::InsideDataDir { .. })));
    }

    #[test]
    fn env_key_must_be_32_bytes_of_base64() {
        let data = Path::new("/nonexistent/data");
        assert!(MasterKey::load(None, Some("c2hvcnQ="), None, data).is_err());
        let good = base64::engine::general_purpose::STANDARD.encode([7u8; 32]);
        let (k, origin) = MasterKey::load(None, Some(&good), None, data).unwrap();
        assert_eq!(origin, KeyOrigin::Env);
        assert!(k.verify_key_check(&key(7).key_check().unwrap()));
    }
}
