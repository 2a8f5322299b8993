//! Secret names and size caps that the client and the server both keep (DESIGN.md §2).

/// `install` and `start` are at most 16 KiB each.
pub const MAX_SCRIPT_BYTES: usize = 16 << 10;
/// A secret value is 1 byte to 64 KiB.
pub const MAX_VALUE_BYTES: usize = 64 << 10;
/// The longest accepted name: one leading character plus 127.
pub const MAX_NAME_LEN: usize = 128;

/// Names the platform refuses outright (compared upper-cased), besides the `HANZO_` prefix.
pub const RESERVED_NAMES: &[&str] = &["PATH", "HOME", "USER", "SHELL", "PWD", "HOSTNAME", "IFS", "ENV", "BASH_ENV"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("secret name is empty")]
    Empty,
    #[error("secret name `{0}` is too long ({1} characters; at most 128)")]
    TooLong(String, usize),
    #[error("secret name `{0}` has characters other than A-Z, a-z, 0-9 and _ (or starts with a digit)")]
    BadCharacters(String),
    #[error("secret name `{0}` is reserved")]
    Reserved(String),
    #[error("`{0}` looks like NAME=value: values never go on the command line")]
    ValueOnArgv(String),
}

impl crate::diagnostic::Diagnostic for NameError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            NameError::Reserved(_) => {
                "names starting HANZO_ and PATH HOME USER SHELL PWD HOSTNAME IFS ENV BASH_ENV are kept by the sandbox; pick another name".into()
            }
            NameError::ValueOnArgv(arg) => {
                let name = arg.split('=').next().unwrap_or_default();
                format!("pass the name alone and the value on stdin: `printf %s \"$VALUE\" | hanzo-env secret set {name}`")
            }
            _ => "a name matches ^[A-Za-z_][A-Za-z0-9_]{0,127}$, e.g. DATABASE_URL".into(),
        })
    }
}

/// Check a secret (or `[env]`) name against DESIGN.md §2.
///
/// The error never contains anything after an `=`: such an argument may carry a value.
pub fn validate_secret_name(name: &str) -> Result<(), NameError> {
    if let Some((before, _)) = name.split_once('=') {
        return Err(NameError::ValueOnArgv(format!("{before}=…")));
    }
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    let len = name.chars().count();
    if len > MAX_NAME_LEN {
        return Err(NameError::TooLong(quoted(name, 32), len));
    }
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(NameError::BadCharacters(quoted(name, MAX_NAME_LEN)));
    }
    if is_reserved(name) {
        return Err(NameError::Reserved(name.to_string()));
    }
    Ok(())
}

/// A wrong name as an error quotes it: at most `max` characters, and nothing from the first
/// blank or control character on (`NAME value` or `NAME: value` typed as one argument
/// carries a value there).
fn quoted(name: &str, max: usize) -> String {
    let end = name.find(|c: char| c.is_whitespace() || c.is_control()).unwrap_or(name.len());
    let mut shown: String = name[..end].chars().take(max).collect();
    if shown.len() < name.len() {
        shown.push('…');
    }
    shown
}

/// True for names the platform refuses: `HANZO_*` and the shell's own variables.
pub fn is_reserved(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.starts_with("HANZO_") || RESERVED_NAMES.contains(&upper.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_names() {
        for name in ["DATABASE_URL", "_X", "a1", &"A".repeat(128)] {
            assert_eq!(validate_secret_name(name), Ok(()), "{name}");
        }
    }

    #[test]
    fn refuses_bad_names() {
        assert!(matches!(validate_secret_name(""), Err(NameError::Empty)));
        assert!(matches!(validate_secret_name("1ABC"), Err(NameError::BadCharacters(_))));
        assert!(matches!(validate_secret_name("BAD-NAME"), Err(NameError::BadCharacters(_))));
        for argument in [
            "API_KEY sk_live_MARKER",
            "API_KEY: sk_live_MARKER",
            "API_KEY\tsk_live_MARKER",
            &format!("API_KEY sk_live_MARKER{}", "x".repeat(200)),
        ] {
            let err = validate_secret_name(argument).unwrap_err();
            let shown = format!("{err} {err:?} {}", crate::diagnostic::Diagnostic::hint(&err).unwrap_or_default());
            assert!(!shown.contains("MARKER"), "{shown}");
            assert!(shown.contains("API_KEY"), "{shown}");
        }
        assert!(matches!(validate_secret_name(&"A".repeat(129)), Err(NameError::TooLong(..))));
        assert!(matches!(validate_secret_name("hanzo_token"), Err(NameError::Reserved(_))));
        assert!(matches!(validate_secret_name("path"), Err(NameError::Reserved(_))));
        assert!(matches!(validate_secret_name("BASH_ENV"), Err(NameError::Reserved(_))));
    }

    #[test]
    fn name_value_argument_never_echoes_the_value() {
        let err = validate_secret_name("TOKEN=hunter2").unwrap_err();
        assert!(matches!(err, NameError::ValueOnArgv(_)));
        assert!(!err.to_string().contains("hunter2"));
        let hint = crate::diagnostic::Diagnostic::hint(&err).unwrap();
        assert!(!hint.contains("hunter2"));
    }
}
