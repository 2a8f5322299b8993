//! Skogsra, a settings library for Elixir apps: in a module that `use Skogsra`, each
//! `app_env :function, :app, :key, opts` reads the OS variable `opts[:os_env]`, else the one
//! Skogsra names after the app and the keys (`:myapp, [:db, :password]` →
//! `MYAPP_DB_PASSWORD`), unless `skip_system: true`; `system_env :name, opts` reads `NAME`.
//! `required: true` stops the app without it; a `default:` makes it optional; a `type:` of a
//! number, boolean, atom or module is a setting, whatever the name says.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// The types Skogsra casts a value to that no credential is.
const SETTING_TYPES: &[&str] = &["integer", "float", "boolean", "atom", "module", "unsafe_module", "list"];

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static DECLARATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?m)^[ \t]*(?:(app_env)[[:space:]]+:[[:word:]?!]+[[:space:]]*,[[:space:]]*:([[:word:]]+)[[:space:]]*,[[:space:]]*(:[[:word:]]+|\[[^\]]*\])|(system_env)[[:space:]]+:([[:word:]]+))",
        )
        .expect("the Skogsra declaration pattern is valid")
    });
    static OS_ENV: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)os_env:[[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)""#)
            .expect("the os_env option pattern is valid")
    });
    static TYPE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)type:[[:space:]]*:([[:word:]]+)").expect("the type option pattern is valid")
    });
    if !text.contains("use Skogsra") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for c in DECLARATION.captures_iter(text) {
        let Some(whole) = c.get(0) else { continue };
        let Some(keyword) = c.get(1).or(c.get(4)) else { continue };
        let options = options(text, keyword.start(), whole.end());
        if options.contains("skip_system: true") {
            continue;
        }
        let (name, at) = match (OS_ENV.captures(options).and_then(|o| o.get(1)), c.get(1), c.get(5)) {
            (Some(os_env), _, _) => (os_env.as_str().to_string(), whole.end() + os_env.start()),
            (None, Some(_), _) => {
                let (Some(app), Some(keys)) = (c.get(2), c.get(3)) else { continue };
                let keys = keys.as_str().trim_matches(['[', ']']).split(',').map(|k| k.trim().trim_start_matches(':'));
                let words: Vec<&str> = std::iter::once(app.as_str()).chain(keys).collect();
                (words.join("_").to_ascii_uppercase(), app.start())
            }
            (None, None, Some(function)) => (function.as_str().to_ascii_uppercase(), function.start()),
            (None, None, None) => continue,
        };
        let need = if options.contains("required: true") {
            Need::Required
        } else if options.contains("default:") {
            Need::Optional
        } else {
            Need::Unstated
        };
        let setting =
            TYPE.captures(options).and_then(|t| t.get(1)).is_some_and(|ty| SETTING_TYPES.contains(&ty.as_str()));
        found.push(EnvRead::new(name, at, need, "Skogsra app_env").typed_setting(setting));
    }
    found
}

/// The options of the declaration at `start..end`: the rest of its line and the lines after it
/// indented deeper than it (a call's continuation lines).
fn options(text: &str, start: usize, end: usize) -> &str {
    let line_start = text[..start].rfind('\n').map_or(0, |at| at + 1);
    let indent = text[line_start..start].len();
    let rest = &text[end..];
    let mut stop = rest.find('\n').unwrap_or(rest.len());
    while stop < rest.len() {
        let next = &rest[stop + 1..];
        let line = next.split('\n').next().unwrap_or_default();
        let depth = line.len() - line.trim_start().len();
        if line.trim().is_empty() || depth <= indent {
            break;
        }
        stop += 1 + line.len();
    }
    &rest[..stop]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, Need, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect()
    }

    #[test]
    fn skogsra_declarations_name_their_variables() {
        let text = "defmodule App.Config do\n  use Skogsra\n\n  @envdoc \"Password for the AMQP consumer\"\n  app_env :amqp_password, :trigger_engine, :amqp_password,\n    os_env: \"TRIGGER_ENGINE_AMQP_PASSWORD\",\n    type: :binary,\n    default: \"guest\"\n\n  app_env :amqp_port, :trigger_engine, :amqp_port,\n    os_env: \"TRIGGER_ENGINE_AMQP_PORT\",\n    type: :integer,\n    default: 5672\n\n  app_env :secret_key, :myapp, [:auth, :secret_key], required: true\n  app_env :cached, :myapp, :cached, skip_system: true\n  system_env :api_token\nend\n";
        assert_eq!(
            names(text),
            [
                ("TRIGGER_ENGINE_AMQP_PASSWORD".into(), Need::Optional, false),
                ("TRIGGER_ENGINE_AMQP_PORT".into(), Need::Optional, true),
                ("MYAPP_AUTH_SECRET_KEY".into(), Need::Required, false),
                ("API_TOKEN".into(), Need::Unstated, false),
            ]
        );
        // Without the library the same words declare nothing.
        assert!(reads(&text.replace("use Skogsra", "use Other")).is_empty());
    }
}
