//! Elixir's env helpers: a config module's functions that read and check the variable one of
//! their first two parameters names (`def secret!(env) do … System.get_env(env) …`,
//! `def get_var(config_dir, name, default \\ nil)`), or an anonymous function bound to a
//! variable (`get_env = fn key -> System.get_env(key) end`, or `env = &System.get_env/1`),
//! called with a literal from the runtime configuration
//! (`Livebook.Config.secret!("LIVEBOOK_SECRET_KEY_BASE")`,
//! `get_var(config_dir, "SMTP_PASSWORD", nil)`, `get_env.("GITHUB_CLIENT_SECRET")`). Where a
//! function is defined and where it is called are different files: the secrets signal pairs
//! them (see [`EnvRead::helper`]) by the function's name and the position of the name.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead, Need};

/// The functions `text` defines whose first or second parameter goes to `System.get_env` or
/// `System.fetch_env!` as it is, and the anonymous functions it binds to a variable that do
/// the same with theirs; each keyed as [`helper_key`] spells it.
pub fn helpers(text: &str) -> Vec<EnvHelper> {
    static DEF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?m)^[ \t]*defp?[[:space:]]+([a-z_][[:word:]]*[!?]?)[[:space:]]*\([[:space:]]*([a-z_][[:word:]]*)(?:[[:space:]]*,[[:space:]]*([a-z_][[:word:]]*))?",
        )
        .expect("the Elixir def pattern is valid")
    });
    static NEXT_DEF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*(?:defp?|defmacrop?|defmodule)[[:space:]]").expect("the next-def pattern is valid")
    });
    static FN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^([ \t]*)([a-z_][[:word:]]*)[[:space:]]*=[[:space:]]*fn[[:space:]]*\(?[[:space:]]*([a-z_][[:word:]]*)[[:space:]]*\)?[[:space:]]*->")
            .expect("the Elixir anonymous-function pattern is valid")
    });
    // `env = &System.get_env/1`: the function captured, called as `env.("X")`.
    static CAPTURE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*([a-z_][[:word:]]*)[[:space:]]*=[[:space:]]*&System\.(get_env|fetch_env!)/[12]")
            .expect("the Elixir function-capture pattern is valid")
    });
    // Where each definition starts, found once: a body ends where the next one starts.
    let starts: Vec<usize> = NEXT_DEF.find_iter(text).map(|m| m.start()).collect();
    let mut found: Vec<EnvHelper> = Vec::new();
    let mut add = |function: &str, body: &str, parameter: &str, key: String| {
        if let Some(required) = reading(body, parameter)
            && !found.iter().any(|h| h.function == key)
        {
            found.push(EnvHelper { function: key, ..EnvHelper::named(function, required) });
        }
    };
    for c in DEF.captures_iter(text) {
        let (Some(whole), Some(function)) = (c.get(0), c.get(1)) else { continue };
        let next = starts.partition_point(|&start| start < whole.end());
        let body = &text[whole.end()..starts.get(next).copied().unwrap_or(text.len())];
        for (position, parameter) in [c.get(2), c.get(3)].into_iter().enumerate() {
            if let Some(parameter) = parameter {
                add(function.as_str(), body, parameter.as_str(), helper_key(function.as_str(), false, position));
            }
        }
    }
    for c in FN.captures_iter(text) {
        let (Some(whole), Some(indent), Some(function), Some(parameter)) = (c.get(0), c.get(1), c.get(2), c.get(3))
        else {
            continue;
        };
        // The body ends at the `end` of the assignment's indentation.
        let closing = format!("\n{}end", indent.as_str());
        let rest = &text[whole.end()..];
        let body = &rest[..rest.find(&closing).unwrap_or(rest.len())];
        add(function.as_str(), body, parameter.as_str(), helper_key(function.as_str(), true, 0));
    }
    for c in CAPTURE.captures_iter(text) {
        let (Some(function), Some(call)) = (c.get(1), c.get(2)) else { continue };
        let key = helper_key(function.as_str(), true, 0);
        if !found.iter().any(|h| h.function == key) {
            let required = call.as_str() == "fetch_env!";
            found.push(EnvHelper { function: key, ..EnvHelper::named(function.as_str(), required) });
        }
    }
    found
}

/// Whether `body` passes `parameter` as it is to `System.get_env` or `System.fetch_env!`, as
/// an argument or down a pipe:
/// `Some(true)` when it always fails without the variable (`fetch_env!` and no `get_env`,
/// which is a way on without it).
fn reading(body: &str, parameter: &str) -> Option<bool> {
    let reads = |call: &str| {
        let argument = body
            .match_indices(&format!("{call}({parameter}"))
            // A piped call's first argument in brackets is its second.
            .any(|(at, m)| {
                body[at + m.len()..].trim_start().starts_with([',', ')']) && !body[..at].trim_end().ends_with("|>")
            });
        // Piped in as the first argument: `env_var |> System.get_env(default)`.
        let piped = body.match_indices(&format!("|> {call}(")).any(|(at, _)| {
            let before = body[..at].trim_end();
            before
                .strip_suffix(parameter)
                .is_some_and(|head| !head.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        });
        argument || piped
    };
    let (required, optional) = (reads("System.fetch_env!"), reads("System.get_env") || reads("System.fetch_env"));
    (required || optional).then_some(required && !optional)
}

/// How a helper is known to the secrets signal: its name, a `.` for an anonymous function
/// (called `get_env.("X")`), and `#1` when the variable's name is its second argument.
fn helper_key(function: &str, anonymous: bool, position: usize) -> String {
    let dot = if anonymous { "." } else { "" };
    if position == 0 { format!("{function}{dot}") } else { format!("{function}{dot}#{position}") }
}

/// Calls of any function with a variable's name as their first argument, or as their second
/// after a variable (`Config.secret!("X")`, `boolean!("X", false)`, `get_var(dir, "X")`,
/// `get_env.("X")`): reads if the project defines the function as a helper. Optional with
/// another argument (but `nil`) or an `||` fallback.
pub fn helper_calls(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:^|[^[:word:].!?])(?:[A-Z][[:word:]]*\.)*([a-z_][[:word:]]*[!?]?)(\.)?\([[:space:]]*(?:([a-z_][[:word:]]*)[[:space:]]*,[[:space:]]*)?"([A-Z][A-Z0-9]*_[A-Z0-9_]*)""#,
        )
        .expect("the Elixir call pattern is valid")
    });
    CALL.captures_iter(text)
        .filter_map(|c| {
            let (function, name, whole) = (c.get(1)?, c.get(4)?, c.get(0)?);
            let anonymous = c.get(2).is_some();
            if !anonymous && matches!(function.as_str(), "get_env" | "fetch_env" | "fetch_env!") {
                return None;
            }
            let after = &text[whole.end()..];
            let rest = code::rest_of_call(after, &['"']);
            let fallback = after[rest.len()..].trim_start_matches(')').trim_start();
            let default = code::has_another_argument(rest) && rest.trim_start()[1..].trim() != "nil";
            let need = if default || fallback.starts_with("||") { Need::Optional } else { Need::Unstated };
            let position = usize::from(c.get(3).is_some());
            let read = EnvRead::new(name.as_str(), name.start(), need, "an env helper of the project");
            Some(EnvRead { helper: Some(helper_key(function.as_str(), anonymous, position)), ..read })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_a_config_module_defines() {
        let text = "defmodule App.Config do\n  @doc \"\"\"\n  Parses the secret.\n  \"\"\"\n  def secret!(env) do\n    if secret = System.get_env(env) do\n      secret\n    end\n  end\n\n  def boolean!(env, default) do\n    case System.get_env(env) do\n      nil -> default\n    end\n  end\n\n  def need!(name), do: System.fetch_env!(name)\n\n  def port(value), do: String.to_integer(value)\nend\n";
        let found: Vec<_> =
            helpers(text).into_iter().map(|h| (h.function, h.required, h.marked_secret, h.setting)).collect();
        assert_eq!(
            found,
            [
                ("secret!".into(), false, true, false),
                ("boolean!".into(), false, false, true),
                ("need!".into(), true, false, false),
            ]
        );
    }

    #[test]
    fn many_definitions_stay_cheap() {
        let text: String = (0..20_000).map(|i| format!("  def f{i}(x), do: x\n")).collect();
        let started = std::time::Instant::now();
        assert!(helpers(&text).is_empty());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn calls_with_a_variables_name() {
        let text = "config :app, :secret_key_base,\n  App.Config.secret!(\"APP_SECRET_KEY_BASE\") || App.random()\nif password = App.Config.password!(\"APP_PASSWORD\") do\nend\nif App.Config.boolean!(\"APP_AWS_CREDENTIALS\", false) do\nend\nSystem.get_env(\"DIRECT_READ\")\nIO.puts(\"NOT_A_CALL\")\nfoo.bar(\"LOWER_X\")\n";
        let found: Vec<_> =
            helper_calls(text).into_iter().map(|r| (r.helper.unwrap_or_default(), r.name, r.need)).collect();
        assert_eq!(
            found,
            [
                ("secret!".into(), "APP_SECRET_KEY_BASE".into(), Need::Optional),
                ("password!".into(), "APP_PASSWORD".into(), Need::Unstated),
                ("boolean!".into(), "APP_AWS_CREDENTIALS".into(), Need::Optional),
                ("puts".into(), "NOT_A_CALL".into(), Need::Unstated),
            ]
        );
    }

    #[test]
    fn a_captured_system_function_is_a_helper() {
        let text = "import Config\nenv = &System.get_env/1\nmust = &System.fetch_env!/1\nif secret_key_base = env.(\"SECRET_KEY_BASE\") do\n  config :app, secret_key_base: secret_key_base\nend\n";
        let found: Vec<_> = helpers(text).into_iter().map(|h| (h.function, h.required)).collect();
        assert_eq!(found, [("env.".into(), false), ("must.".into(), true)]);
        let calls: Vec<String> = helper_calls(text).into_iter().map(|r| r.name).collect();
        assert_eq!(calls, ["SECRET_KEY_BASE"]);
    }

    #[test]
    fn helpers_with_the_name_second_and_anonymous_ones() {
        let text = "defmodule C do\n  def get_var(config_dir, var_name, default \\\\ nil) do\n    System.get_env(var_name, default)\n  end\nend\nget_env = fn key ->\n  if hosted do\n    System.fetch_env!(key)\n  else\n    System.get_env(key)\n  end\nend\nneed = fn key -> System.fetch_env!(key) end\ndef safe_get_env(env_var, default_value) do\n    env_var\n    |> System.get_env(default_value)\n    |> case do\n      \"\" -> default_value\n    end\nend\ndef upcased(env_var) do\n    other_var\n    |> System.get_env()\nend\n";
        let found: Vec<_> = helpers(text).into_iter().map(|h| (h.function, h.required)).collect();
        assert_eq!(
            found,
            [
                ("get_var#1".into(), false),
                ("safe_get_env".into(), false),
                ("get_env.".into(), false),
                ("need.".into(), true)
            ]
        );
        let calls = "a = C.get_var(config_dir, \"SMTP_PASSWORD\", nil)\nb = get_var(dir, \"SMTP_AUTH\", \"login\")\nc = get_env.(\"OAUTH_SECRET\")\nd = System.get_env(\"PLAIN\")\n";
        let found: Vec<_> =
            helper_calls(calls).into_iter().map(|r| (r.helper.unwrap_or_default(), r.name, r.need)).collect();
        assert_eq!(
            found,
            [
                ("get_var#1".into(), "SMTP_PASSWORD".into(), Need::Unstated),
                ("get_var#1".into(), "SMTP_AUTH".into(), Need::Optional),
                ("get_env.".into(), "OAUTH_SECRET".into(), Need::Unstated),
            ]
        );
    }
}
