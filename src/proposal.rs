//! The local proposal file, `.hanzo/environment.toml` (DESIGN.md §3): parse strictly,
//! render canonically. `detect` writes it; `diff`, `save`, `pull` and the local runs read it.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The proposal as the user reviewed it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proposal {
    /// The repo name inside the org; `None` means "derive it from the checkout".
    pub repo: Option<String>,
    pub install: String,
    pub start: String,
    /// Every secret name the file declares, in file order.
    pub secrets: Vec<String>,
    /// Those of `secrets` listed after the [`OPTIONAL_MARKER`] line: the project runs without
    /// them. The others are required.
    pub optional_secrets: Vec<String>,
    pub note: String,
    /// `[env]`, in file order: local runs only, never sent to the server.
    pub env: Vec<(String, String)>,
}

/// The comment line in `secrets = [ … ]` after which the names are optional: `detect` writes
/// the required names first, then this line, then the optional ones, so every name stays
/// declared in the one array and a reader sees at once what must be set.
pub const OPTIONAL_MARKER: &str = "# optional:";

/// The largest proposal file read: two 16 KiB scripts, a note, secret names and `[env]`
/// fit many times over; anything bigger is not a proposal.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

#[derive(Debug, thiserror::Error)]
pub enum ProposalError {
    #[error("{} does not exist", path.display())]
    Missing { path: PathBuf },
    #[error("could not read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    /// A FIFO, a device, a directory, a file over [`MAX_FILE_BYTES`].
    #[error("refusing to read {}: {reason}", path.display())]
    Refused { path: PathBuf, reason: String },
    /// `.hanzo` or the file is a symlink that leads out of the checkout.
    #[error("refusing to {action} {}: it resolves to {}, outside the checkout {}", path.display(), target.display(), checkout.display())]
    Outside { action: &'static str, path: PathBuf, target: PathBuf, checkout: PathBuf },
    /// `detail` is the TOML library's message, which names the line, column and key.
    #[error("{} is not a valid environment file: {detail}", path.display())]
    Invalid { path: PathBuf, detail: String },
}

impl crate::diagnostic::Diagnostic for ProposalError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            ProposalError::Missing { .. } => {
                "run `hanzo-env detect` to draft one, or `hanzo-env pull` to fetch the saved copy".into()
            }
            ProposalError::Read { .. } => "check the file's permissions".into(),
            ProposalError::Refused { .. } => "the proposal is a small text file: remove what is there and draft \
                                               a new one with `hanzo-env detect --force` (or `hanzo-env pull`)"
                .into(),
            ProposalError::Outside { .. } => "keep .hanzo/environment.toml inside the checkout: replace the symlink \
                                              with a folder and file of its own, or print the proposal with \
                                              `hanzo-env detect --stdout`"
                .into(),
            ProposalError::Invalid { .. } => "fix the file at the line shown; it holds repo, install, start and note \
                                              (strings), secrets (a list of names) and an [env] table of string values"
                .into(),
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProposal {
    repo: Option<String>,
    #[serde(default)]
    install: String,
    #[serde(default)]
    start: String,
    #[serde(default)]
    secrets: Vec<String>,
    #[serde(default)]
    note: String,
    #[serde(default)]
    env: toml::map::Map<String, toml::Value>,
}

impl Proposal {
    /// Read and parse the file at `path` (`<checkout>/.hanzo/environment.toml`; see [`read_text`]).
    pub fn load(path: &Path) -> Result<Proposal, ProposalError> {
        let text = read_text(path)?;
        Proposal::parse(&text).map_err(|detail| ProposalError::Invalid { path: path.to_path_buf(), detail })
    }

    /// Parse file contents; the error text names the line, column and key.
    pub fn parse(text: &str) -> Result<Proposal, String> {
        let raw: RawProposal = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
        let mut env = Vec::with_capacity(raw.env.len());
        for (name, value) in raw.env {
            match value {
                toml::Value::String(s) => env.push((name, s)),
                other => {
                    let line = line_of_env_key(text, &name);
                    return Err(format!(
                        "[env] {name}{}: expected a string, found {}; write it quoted, e.g. {name} = \"{}\"",
                        line.map(|l| format!(" (line {l})")).unwrap_or_default(),
                        other.type_str(),
                        other.to_string().replace('"', "")
                    ));
                }
            }
        }
        for name in &raw.secrets {
            if let Err(err) = crate::names::validate_secret_name(name) {
                let line = line_of_secret(text, name).map(|l| format!(" (line {l})")).unwrap_or_default();
                return Err(format!("secrets{line}: {err}; `secret set` would refuse it too"));
            }
        }
        Ok(Proposal {
            repo: raw.repo.filter(|r| !r.is_empty()),
            install: raw.install,
            start: raw.start,
            optional_secrets: optional_secrets(text),
            secrets: raw.secrets,
            note: raw.note,
            env,
        })
    }

    /// The declared secrets the project cannot run without: those before the optional marker.
    pub fn required_secrets(&self) -> impl Iterator<Item = &String> {
        self.secrets.iter().filter(|name| !self.optional_secrets.contains(name))
    }

    /// Canonical TOML for this proposal, without evidence comments.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if let Some(repo) = &self.repo {
            out.push_str(&format!("repo = {}\n", toml_string(repo)));
        }
        out.push_str(&format!("install = {}\n", toml_string(&self.install)));
        out.push_str(&format!("start = {}\n", toml_string(&self.start)));
        if self.optional_secrets.is_empty() {
            out.push_str(&format!("secrets = {}\n", toml_string_array(&self.secrets)));
        } else {
            out.push_str("secrets = [\n");
            for name in self.required_secrets() {
                out.push_str(&format!("  {},\n", toml_string(name)));
            }
            out.push_str(&format!("  {OPTIONAL_MARKER}\n"));
            for name in self.secrets.iter().filter(|name| self.optional_secrets.contains(name)) {
                out.push_str(&format!("  {},\n", toml_string(name)));
            }
            out.push_str("]\n");
        }
        out.push_str(&format!("note = {}\n", toml_string(&self.note)));
        if !self.env.is_empty() {
            out.push_str("\n[env]\n");
            for (name, value) in &self.env {
                out.push_str(&format!("{} = {}\n", toml_key(name), toml_string(value)));
            }
        }
        out
    }
}

/// The names of the `secrets` array listed after a line that is the [`OPTIONAL_MARKER`]
/// (a comment on a line of its own; text after the colon is allowed). `text` already parsed
/// as TOML; a file without the marker declares every name required.
fn optional_secrets(text: &str) -> Vec<String> {
    let Ok(document) = text.parse::<toml_edit::DocumentMut>() else { return Vec::new() };
    let Some(array) = document.get("secrets").and_then(|item| item.as_array()) else { return Vec::new() };
    let is_marker = |line: &str| {
        line.trim().strip_prefix('#').is_some_and(|comment| {
            let comment = comment.trim().to_ascii_lowercase();
            comment == "optional" || comment.starts_with("optional:")
        })
    };
    let mut optional = false;
    let mut found = Vec::new();
    for value in array.iter() {
        // The first line of a value's prefix is the rest of the line before it (the previous
        // name's evidence comment): only whole lines can be the marker.
        let prefix = value.decor().prefix().and_then(|p| p.as_str()).unwrap_or_default();
        if prefix.split('\n').skip(1).any(is_marker) {
            optional = true;
        }
        if optional && let Some(name) = value.as_str() {
            found.push(name.to_string());
        }
    }
    found
}

/// The text of the proposal file at `path` (`<checkout>/.hanzo/environment.toml`): only a
/// regular file of at most [`MAX_FILE_BYTES`], and through symlinks only when it stays inside
/// the checkout. A checkout may come from anyone; `/dev/zero` or a FIFO in its place must not
/// exhaust memory or hang every command.
pub fn read_text(path: &Path) -> Result<String, ProposalError> {
    let refused = |reason: String| ProposalError::Refused { path: path.to_path_buf(), reason };
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ProposalError::Missing { path: path.to_path_buf() });
        }
        Err(source) => return Err(ProposalError::Read { path: path.to_path_buf(), source }),
        Ok(_) => {}
    }
    check_inside(path, "read", path)?;
    let bytes = crate::fsutil::read_regular(path, MAX_FILE_BYTES).map_err(|refusal| match refusal {
        crate::fsutil::Refusal::Missing => ProposalError::Missing { path: path.to_path_buf() },
        crate::fsutil::Refusal::Io(source) => ProposalError::Read { path: path.to_path_buf(), source },
        other => refused(other.to_string()),
    })?;
    String::from_utf8(bytes).map_err(|_| refused("it is not UTF-8 text".into()))
}

/// Refuse to write the proposal file at `path` when its folder (`.hanzo`) resolves outside the
/// checkout: the write would land wherever the link points. (A symlink in the file's own
/// place is harmless: the atomic write replaces the link, not what it points to.)
pub fn check_destination(path: &Path) -> Result<(), ProposalError> {
    match path.parent() {
        Some(dir) if dir.exists() => check_inside(dir, "write", path),
        _ => Ok(()),
    }
}

/// `Outside` when `resolved` (the proposal file or its folder) leads out of the checkout that
/// holds `.hanzo`.
fn check_inside(resolved: &Path, action: &'static str, path: &Path) -> Result<(), ProposalError> {
    let Some(checkout) = path.parent().and_then(Path::parent) else { return Ok(()) };
    let checkout = if checkout.as_os_str().is_empty() { Path::new(".") } else { checkout };
    let (Ok(checkout), Ok(target)) = (std::fs::canonicalize(checkout), std::fs::canonicalize(resolved)) else {
        // A dangling link: the read or write that follows says what is wrong.
        return Ok(());
    };
    if target.starts_with(&checkout) {
        return Ok(());
    }
    Err(ProposalError::Outside { action, path: path.to_path_buf(), target, checkout })
}

/// The line of `"name"` in the `secrets = [...]` list (which may span lines).
fn line_of_secret(text: &str, name: &str) -> Option<usize> {
    let quoted = toml_string(name);
    let start = text.lines().position(|l| l.trim_start().starts_with("secrets"))?;
    text.lines().skip(start).position(|l| l.contains(&quoted)).map(|i| start + i + 1)
}

/// The line of `key` in the `[env]` table: the exact key (bare or quoted), not one it prefixes.
fn line_of_env_key(text: &str, key: &str) -> Option<usize> {
    let mut in_env = false;
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            in_env = header.split(']').next().is_some_and(|table| table.trim() == "env");
            continue;
        }
        let Some((name, _)) = line.split_once('=') else { continue };
        if in_env && name.trim().trim_matches(['"', '\'']) == key {
            return Some(index + 1);
        }
    }
    None
}

/// A TOML string for `s`: a multi-line basic string (`"""`, as DESIGN.md §3 writes scripts)
/// when `s` has several lines, else a one-line basic string; escaped only where TOML needs it.
/// A script with backslashes and nothing a literal string cannot hold is written as a
/// multi-line literal string (`'''`), so its shell reads as it runs, with no doubled `\\`.
pub fn toml_string(s: &str) -> String {
    if !s.contains('\n') {
        return toml_edit::Value::from(s).to_string().trim().to_string();
    }
    let literal_holds =
        !s.contains("'''") && !s.ends_with('\'') && !s.chars().any(|c| c.is_control() && c != '\n' && c != '\t');
    if s.contains('\\') && literal_holds {
        // The newline right after the opening quotes is not part of the value.
        return format!("'''\n{s}'''");
    }
    // The newline right after the opening quotes is not part of the value.
    let mut out = String::from("\"\"\"\n");
    let chars: Vec<char> = s.chars().collect();
    let mut quotes_in_a_row = 0;
    for (i, &c) in chars.iter().enumerate() {
        match c {
            // A third quote in a row, or quotes that would run into the closing `"""`.
            '"' if quotes_in_a_row == 2 || chars[i..].iter().all(|&q| q == '"') => {
                out.push_str("\\\"");
                quotes_in_a_row = 0;
                continue;
            }
            '"' => {
                out.push('"');
                quotes_in_a_row += 1;
                continue;
            }
            '\\' => out.push_str("\\\\"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
        quotes_in_a_row = 0;
    }
    out.push_str("\"\"\"");
    out
}

/// `["A", "B"]` on one line.
pub fn toml_string_array(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| toml_string(s)).collect();
    format!("[{}]", inner.join(", "))
}

/// A bare key when it can be one, else a quoted key.
pub fn toml_key(key: &str) -> String {
    if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        key.to_string()
    } else {
        toml_string(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Proposal {
        Proposal {
            repo: Some("site".into()),
            install: "set -euo pipefail\n# pnpm-lock.yaml\ncorepack enable\npnpm install --frozen-lockfile\n".into(),
            start: "docker compose up -d postgres".into(),
            secrets: vec!["DATABASE_URL".into(), "STRIPE_SECRET_KEY".into()],
            optional_secrets: vec!["STRIPE_SECRET_KEY".into()],
            note: "Node 20".into(),
            env: vec![("NODE_ENV".into(), "test".into()), ("TOKEN".into(), "?prompt".into())],
        }
    }

    #[cfg(unix)]
    #[test]
    fn only_a_bounded_regular_file_inside_the_checkout_is_read() {
        let checkout = tempfile::tempdir().unwrap();
        let dir = checkout.path().join(".hanzo");
        std::fs::create_dir(&dir).unwrap();
        let path = dir.join("environment.toml");
        assert!(matches!(read_text(&path), Err(ProposalError::Missing { .. })));
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let err = read_text(&path).unwrap_err().to_string();
        assert!(err.contains("outside the checkout"), "{err}");
        std::fs::remove_file(&path).unwrap();
        std::fs::write(dir.join("real.toml"), "install = \"make\"\n").unwrap();
        std::os::unix::fs::symlink("real.toml", &path).unwrap();
        assert_eq!(Proposal::load(&path).unwrap().install, "make", "a link inside the checkout is fine");
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "#".repeat(MAX_FILE_BYTES as usize + 1)).unwrap();
        let err = read_text(&path).unwrap_err().to_string();
        assert!(err.contains("over the 1048576 byte limit"), "{err}");
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(read_text(&path).unwrap_err().to_string().contains("not a regular file but a directory"));
    }

    #[cfg(unix)]
    #[test]
    fn a_hanzo_folder_linked_out_of_the_checkout_is_refused() {
        let checkout = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), checkout.path().join(".hanzo")).unwrap();
        let path = checkout.path().join(".hanzo/environment.toml");
        let err = check_destination(&path).unwrap_err().to_string();
        assert!(err.starts_with("refusing to write") && err.contains("outside the checkout"), "{err}");
        assert!(check_destination(&tempfile::tempdir().unwrap().path().join(".hanzo/environment.toml")).is_ok());
    }

    #[test]
    fn render_then_parse_round_trips() {
        let p = sample();
        assert_eq!(Proposal::parse(&p.render()).unwrap(), p);
    }

    #[test]
    fn the_optional_marker_splits_the_secrets() {
        let text = "secrets = [\n  \"DATABASE_URL\",  # .env.example:3 (optional: not this one)\n  # optional:\n  \"SMTP_PASSWORD\",  # a\n  \"SENTRY_DSN\",\n]\n";
        let p = Proposal::parse(text).unwrap();
        assert_eq!(p.secrets, ["DATABASE_URL", "SMTP_PASSWORD", "SENTRY_DSN"]);
        assert_eq!(p.optional_secrets, ["SMTP_PASSWORD", "SENTRY_DSN"]);
        assert_eq!(p.required_secrets().collect::<Vec<_>>(), ["DATABASE_URL"]);
        // Without the marker every name is required, as before.
        let p = Proposal::parse("secrets = [\"A\", \"B\"]\n").unwrap();
        assert!(p.optional_secrets.is_empty());
        assert_eq!(p.required_secrets().count(), 2);
        // Everything optional: the marker first.
        let p = Proposal::parse("secrets = [\n  # Optional: nice to have\n  \"A\",\n]\n").unwrap();
        assert_eq!(p.optional_secrets, ["A"]);
        assert_eq!(Proposal::parse(&p.render()).unwrap(), p);
    }

    #[test]
    fn awkward_strings_round_trip() {
        for s in [
            "a'''b\nc",
            "ends with quote'\n",
            "tab\there\n",
            "\"quoted\"",
            "back\\slash\n",
            "\u{7}bell\n",
            "é ünïcödé\n",
            "echo \"a\"\nb\"",
            "x\n\"\"\"\"\"\"\"y",
            "x\n\"\"",
            "crlf\r\nline\n",
            "x\n\\\ny\\",
        ] {
            let p = Proposal { install: s.into(), ..Proposal::default() };
            assert_eq!(Proposal::parse(&p.render()).unwrap().install, s, "{s:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_script_round_trips(install in "(\\PC|[\"\\\\\n\r\t'])*") {
            let p = Proposal { install: install.clone(), ..Proposal::default() };
            proptest::prop_assert_eq!(Proposal::parse(&p.render()).map(|p| p.install), Ok(install));
        }
    }

    #[test]
    fn scripts_are_multi_line_basic_strings() {
        let p = Proposal { install: "npm ci\necho \"done\"\n".into(), ..Proposal::default() };
        assert!(p.render().contains("install = \"\"\"\nnpm ci\necho \"done\"\n\"\"\"\n"), "{}", p.render());
    }

    #[test]
    fn scripts_with_backslashes_are_literal_strings_when_they_can_be() {
        let script = "sed -i 's/\\s$//' x\nf() { local u=${1//\\'/\\'\\'}; }\necho ''\n";
        let p = Proposal { start: script.into(), ..Proposal::default() };
        assert!(p.render().contains(&format!("start = '''\n{script}'''\n")), "{}", p.render());
        for awkward in ["a\\\n'''b", "a\\\nb'", "a\\\r\nb", "a\\\n\u{7}"] {
            let p = Proposal { start: awkward.into(), ..Proposal::default() };
            assert!(p.render().contains("start = \"\"\"\n"), "{awkward:?}: {}", p.render());
            assert_eq!(Proposal::parse(&p.render()).unwrap().start, awkward);
        }
    }

    #[test]
    fn unknown_keys_name_the_key_and_line() {
        let err = Proposal::parse("install = \"x\"\ninstal = \"y\"\n").unwrap_err();
        assert!(err.contains("instal"), "{err}");
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn secret_names_follow_the_api_rules() {
        let err =
            Proposal::parse("install = \"make\"\nsecrets = [\n  \"DATABASE_URL\",\n  \"bad-name\",\n]\n").unwrap_err();
        assert!(err.contains("secrets (line 4)") && err.contains("`bad-name`"), "{err}");
        let err = Proposal::parse("secrets = [\"PATH\"]\n").unwrap_err();
        assert!(err.contains("reserved"), "{err}");
    }

    #[test]
    fn env_values_must_be_strings() {
        let err = Proposal::parse("[env]\nPORT = 3000\n").unwrap_err();
        assert!(err.contains("PORT") && err.contains("line 2"), "{err}");
        // The exact key in [env], not an earlier one it prefixes or a script line that looks alike.
        let err = Proposal::parse("install = \"\"\"\nA = 1\n\"\"\"\n[env]\nAB = \"x\"\n\"A\" = 1\n").unwrap_err();
        assert!(err.contains("[env] A (line 6)"), "{err}");
    }
}
