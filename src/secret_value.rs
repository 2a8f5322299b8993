//! Secret values on the client (DESIGN.md §5): reading one from stdin, a file or the prompt's
//! bytes, and checking it is a value the API takes. Values stay in `secrecy` types; nothing
//! here implements `Debug`/`Display` of a value. Where the API token lives is `token_store`.

use std::io::Read;
use std::path::Path;

use secrecy::{ExposeSecret, SecretBox, SecretString};
use zeroize::{Zeroize, Zeroizing};

use crate::diagnostic::Diagnostic;
use crate::names::MAX_VALUE_BYTES;

/// A value as read, before it is known to be text.
pub type SecretBytes = SecretBox<Vec<u8>>;

#[derive(Debug, thiserror::Error)]
pub enum ValueError {
    #[error("no value: {source_name} was empty")]
    Empty { source_name: String },
    #[error("the value from {source_name} is over 64 KiB ({bytes} bytes or more; at most {MAX_VALUE_BYTES})")]
    TooLarge { source_name: String, bytes: usize },
    #[error("the value from {source_name} is not UTF-8 text")]
    NotText { source_name: String },
    #[error("could not read {source_name}: {source}")]
    Read { source_name: String, source: std::io::Error },
    #[error("no value to read: stdin is a terminal and prompting is off")]
    NoInput,
    #[error("the value from {source_name} holds a NUL byte, {NUL_WHY}")]
    Nul { source_name: String },
}

/// Why a value with a NUL byte is refused (a sandbox exports values as environment variables).
pub const NUL_WHY: &str = "which no environment variable can hold";

/// Whether a value holds a NUL byte (see [`NUL_WHY`]).
pub fn holds_nul(value: &str) -> bool {
    value.contains('\0')
}

impl Diagnostic for ValueError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            ValueError::Empty { .. } => "a value is 1 byte to 64 KiB; pipe it in or use --from-file PATH".into(),
            ValueError::TooLarge { .. } => "store a larger value elsewhere and keep a reference to it here".into(),
            ValueError::NotText { .. } | ValueError::Nul { .. } => {
                "the API takes text values; base64-encode binary data first".into()
            }
            ValueError::Read { .. } => "check the path and its permissions".into(),
            ValueError::NoInput => {
                "pipe the value on stdin (`printf %s \"$VALUE\" | hanzo-env secret set NAME`) or pass --from-file PATH"
                    .into()
            }
        })
    }
}

/// Read everything from `reader` as raw bytes, refusing more than 64 KiB without keeping it.
/// Room is left for the one trailing `\r\n` that [`strip_one_newline`] may take off: the
/// size rule holds for the value, and [`into_text`] checks it once the newline is gone.
pub fn read_value(mut reader: impl Read, source_name: &str) -> Result<SecretBytes, ValueError> {
    let mut buf = Zeroizing::new(vec![0u8; MAX_VALUE_BYTES + NEWLINE_ROOM + 1]);
    let mut len = 0;
    loop {
        if len == buf.len() {
            return Err(ValueError::TooLarge { source_name: source_name.into(), bytes: len });
        }
        match reader.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => return Err(ValueError::Read { source_name: source_name.into(), source }),
        }
    }
    Ok(SecretBox::new(Box::new(buf[..len].to_vec())))
}

/// The longest trailing newline stripped from a piped value: `\r\n`.
const NEWLINE_ROOM: usize = 2;

/// Read a file verbatim (a value file is never trimmed).
pub fn read_value_file(path: &Path) -> Result<SecretBytes, ValueError> {
    let source_name = path.display().to_string();
    let file =
        std::fs::File::open(path).map_err(|source| ValueError::Read { source_name: source_name.clone(), source })?;
    read_value(file, &source_name)
}

/// Strip exactly one trailing `\n` or `\r\n`; true when one was there.
pub fn strip_one_newline(value: &mut SecretBytes) -> bool {
    let bytes = secrecy::ExposeSecretMut::expose_secret_mut(value);
    let cut = if bytes.ends_with(b"\r\n") {
        2
    } else if bytes.ends_with(b"\n") {
        1
    } else {
        0
    };
    let keep = bytes.len() - cut;
    bytes[keep..].zeroize();
    bytes.truncate(keep);
    cut > 0
}

/// Check the size rules and that the value is text; the result is what the request carries.
pub fn into_text(value: SecretBytes, source_name: &str) -> Result<SecretString, ValueError> {
    let bytes = value.expose_secret();
    if bytes.is_empty() {
        return Err(ValueError::Empty { source_name: source_name.into() });
    }
    if bytes.len() > MAX_VALUE_BYTES {
        return Err(ValueError::TooLarge { source_name: source_name.into(), bytes: bytes.len() });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| ValueError::NotText { source_name: source_name.into() })?;
    if holds_nul(text) {
        return Err(ValueError::Nul { source_name: source_name.into() });
    }
    Ok(SecretString::from(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &SecretBytes) -> &[u8] {
        value.expose_secret()
    }

    #[test]
    fn exactly_one_trailing_newline_is_stripped() {
        for (input, output, stripped) in [
            (&b"abc\n"[..], &b"abc"[..], true),
            (b"abc\r\n", b"abc", true),
            (b"abc\n\n", b"abc\n", true),
            (b"abc", b"abc", false),
            (b"abc\r", b"abc\r", false),
        ] {
            let mut value = read_value(input, "stdin").unwrap();
            assert_eq!(strip_one_newline(&mut value), stripped);
            assert_eq!(text(&value), output);
        }
    }

    #[test]
    fn sizes_are_enforced_without_truncation() {
        let exact = vec![b'a'; MAX_VALUE_BYTES];
        let value = read_value(&exact[..], "stdin").unwrap();
        assert_eq!(into_text(value, "stdin").unwrap().expose_secret().len(), MAX_VALUE_BYTES);
        let over = vec![b'a'; MAX_VALUE_BYTES + 1];
        let value = read_value(&over[..], "stdin").unwrap();
        assert!(matches!(into_text(value, "stdin"), Err(ValueError::TooLarge { .. })));
        let far_over = vec![b'a'; MAX_VALUE_BYTES + 3];
        assert!(matches!(read_value(&far_over[..], "stdin"), Err(ValueError::TooLarge { .. })));
        // The cap is on the value: its one trailing newline is stripped first.
        for newline in [&b"\n"[..], b"\r\n"] {
            let mut piped = read_value(&[exact.as_slice(), newline].concat()[..], "stdin").unwrap();
            assert!(strip_one_newline(&mut piped));
            assert_eq!(into_text(piped, "stdin").unwrap().expose_secret().len(), MAX_VALUE_BYTES);
        }
        let empty = read_value(&b""[..], "stdin").unwrap();
        assert!(matches!(into_text(empty, "stdin"), Err(ValueError::Empty { .. })));
        let binary = read_value(&[0xff, 0xfe][..], "stdin").unwrap();
        assert!(matches!(into_text(binary, "stdin"), Err(ValueError::NotText { .. })));
    }
}
