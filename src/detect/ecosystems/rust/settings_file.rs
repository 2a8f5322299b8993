//! The settings file a Rust server ships beside the `config` crate or figment
//! (`server.toml`, `config.default.toml`, `settings.toml`): the environment overrides each of
//! its top-level keys under the library's prefix (`db_uri` → `ATUIN_DB_URI` under
//! `Environment::with_prefix("atuin")`), so a credential key the file leaves to give
//! (empty, a stand-in, commented out with an example that holds a password) is a variable to
//! set. The prefix is set in another file: the reads are unprefixed, and name nothing while
//! the project sets none (see [`EnvRead::needs_prefix`]).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// Words of a TOML file's name that make it the app's settings (`server.toml`,
/// `config.default.toml`, `settings.example.toml`).
const SETTINGS_WORDS: &[&str] = &["config", "settings", "server", "default", "defaults"];

/// Whether `name` in `dir` is such a settings file: not Cargo's own configuration.
pub fn is_settings_file(dir: &str, name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".toml") else { return false };
    !dir.split('/').any(|d| d == ".cargo")
        && stem.split(['.', '-', '_']).any(|w| SETTINGS_WORDS.iter().any(|s| w.eq_ignore_ascii_case(s)))
}

/// The top-level keys of the settings file `text`, set or commented out (`# db_uri = "…"`),
/// each as an unprefixed read of its upper-cased name with the value the file gives.
pub fn reads(text: &str) -> Vec<EnvRead> {
    static KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"^#*[[:space:]]*([a-z][a-z0-9_]*)[[:space:]]*=[[:space:]]*(.*)$"#)
            .expect("the TOML key pattern is valid")
    });
    let mut found = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        // Nested tables need the library's separator, which the file does not say.
        if trimmed.starts_with('[') {
            break;
        }
        if let Some(c) = KEY.captures(trimmed)
            && let (Some(key), Some(value)) = (c.get(1), c.get(2))
        {
            let value = value.as_str().trim().trim_matches(['"', '\'']);
            let offset = at + line.find(key.as_str()).unwrap_or(0);
            let read = EnvRead::new(key.as_str().to_ascii_uppercase(), offset, Need::Unstated, "settings file key")
                .under_project_prefix()
                .of_settings_key(key.as_str(), value);
            found.push(read);
        }
        at += line.len();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_files_by_name() {
        for (dir, name) in [("crates/server", "server.toml"), ("", "config.default.toml"), ("", "settings.toml")] {
            assert!(is_settings_file(dir, name), "{dir}/{name}");
        }
        for (dir, name) in [("", "Cargo.toml"), (".cargo", "config.toml"), ("", "rustfmt.toml"), ("", "deny.toml")] {
            assert!(!is_settings_file(dir, name), "{dir}/{name}");
        }
    }

    #[test]
    fn top_level_keys_set_or_commented_out() {
        let text = "## bind\n# host = \"127.0.0.1\"\n# db_uri=\"postgres://u:p@localhost/app\"\napi_key = \"\"\n\n[metrics]\n# token = \"\"\n";
        let found: Vec<_> = reads(text)
            .into_iter()
            .map(|r| (r.name, r.needs_prefix, r.settings_key.map(|k| k.value).unwrap_or_default()))
            .collect();
        assert_eq!(
            found,
            [
                ("HOST".into(), true, "127.0.0.1".into()),
                ("DB_URI".into(), true, "postgres://u:p@localhost/app".into()),
                ("API_KEY".into(), true, String::new()),
            ]
        );
    }
}
