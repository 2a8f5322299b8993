//! Elixir's env helpers: a config module's functions that read and check the variable their
//! first parameter names (`def secret!(env) do … System.get_env(env) …`), called with a
//! literal from the runtime configuration (`Livebook.Config.secret!("LIVEBOOK_SECRET_KEY_BASE")`).
//! Where a function is defined and where it is called are different files: the secrets
//! signal pairs them (see [`EnvRead::helper`]).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead, Need};

/// The functions `text` defines whose first parameter goes to `System.get_env` or
/// `System.fetch_env!` as it is.
pub fn helpers(text: &str) -> Vec<EnvHelper> {
    static DEF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*defp?\s+([a-z_][[:word:]]*[!?]?)\s*\(\s*([a-z_][[:word:]]*)")
            .expect("the Elixir def pattern is valid")
    });
    static NEXT_DEF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*(?:defp?|defmacrop?|defmodule)\s").expect("the next-def pattern is valid")
    });
    // Where each definition starts, found once: a body ends where the next one starts.
    let starts: Vec<usize> = NEXT_DEF.find_iter(text).map(|m| m.start()).collect();
    let mut found: Vec<EnvHelper> = Vec::new();
    for c in DEF.captures_iter(text) {
        let (Some(whole), Some(function), Some(parameter)) = (c.get(0), c.get(1), c.get(2)) else { continue };
        let next = starts.partition_point(|&start| start < whole.end());
        let body = &text[whole.end()..starts.get(next).copied().unwrap_or(text.len())];
        let reads = |call: &str| {
            body.match_indices(&format!("{call}({}", parameter.as_str()))
                .any(|(at, m)| body[at + m.len()..].trim_start().starts_with([',', ')']))
        };
        let required = reads("System.fetch_env!");
        if (required || reads("System.get_env") || reads("System.fetch_env"))
            && !found.iter().any(|h| h.function == function.as_str())
        {
            found.push(EnvHelper::named(function.as_str(), required));
        }
    }
    found
}

/// Calls of any function with a variable's name as their first argument
/// (`Config.secret!("X")`, `boolean!("X", false)`): reads if the project defines the
/// function as a helper. Optional with another argument or an `||` fallback.
pub fn helper_calls(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:^|[^[:word:].!?])(?:[A-Z][[:word:]]*\.)*([a-z_][[:word:]]*[!?]?)\(\s*"([A-Z][A-Z0-9]*_[A-Z0-9_]*)""#,
        )
        .expect("the Elixir call pattern is valid")
    });
    CALL.captures_iter(text)
        .filter_map(|c| {
            let (function, name, whole) = (c.get(1)?, c.get(2)?, c.get(0)?);
            if matches!(function.as_str(), "get_env" | "fetch_env" | "fetch_env!") {
                return None;
            }
            let after = &text[whole.end()..];
            let rest = code::rest_of_call(after, &['"']);
            let fallback = after[rest.len()..].trim_start_matches(')').trim_start();
            let need = if code::has_another_argument(rest) || fallback.starts_with("||") {
                Need::Optional
            } else {
                Need::Unstated
            };
            let read = EnvRead::new(name.as_str(), name.start(), need, "an env helper of the project");
            Some(EnvRead { helper: Some(function.as_str().to_string()), ..read })
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
}
