//! A Ruby project's own env helpers: methods that read the variable their first parameter
//! names (`def self.get(name) = ENV.fetch(name)`, `def env(key, default = nil)` over
//! `ENV[key]`), and the calls that give them a literal name (`GlobalConfig.get("X")`). Such
//! a call is a read only where some file of the project defines the method as a helper (see
//! [`EnvRead::helper`]).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead};

const QUOTES: &[char] = &['"', '\''];

/// The methods `text` defines whose first parameter goes as it is to `ENV[…]` or
/// `ENV.fetch`. One that raises without the value (`ENV.fetch(key)` with no default or
/// block, or a `raise` in its body) is required.
pub fn helpers(text: &str) -> Vec<EnvHelper> {
    static DEF: LazyLock<Regex> = LazyLock::new(|| {
        // `def env(key)`, `def self.get(name, default = nil)`, `def fetch_env key`.
        Regex::new(r"(?m)^([ \t]*)def[[:space:]]+(?:self\.)?([a-z_][[:word:]]*[!?]?)(?:\([[:space:]]*|[ \t]+)([a-z_][[:word:]]*)")
            .expect("the Ruby def pattern is valid")
    });
    let mut found: Vec<EnvHelper> = Vec::new();
    for c in DEF.captures_iter(text) {
        let (Some(whole), Some(indent), Some(method), Some(parameter)) = (c.get(0), c.get(1), c.get(2), c.get(3))
        else {
            continue;
        };
        let body = method_body(&text[whole.end()..], indent.as_str());
        let parameter = parameter.as_str();
        let indexed = body.contains(&format!("ENV[{parameter}]")) || body.contains(&format!("ENV[{parameter}."));
        let fetched = fetch_of(body, parameter);
        if !(indexed || fetched.is_some()) || found.iter().any(|h| h.function == method.as_str()) {
            continue;
        }
        let raises = fetched == Some(true) || body.contains("raise ") || body.contains("raise(");
        found.push(EnvHelper::named(method.as_str(), raises));
    }
    found
}

/// Whether `body` passes `parameter` to `ENV.fetch`, and then whether that fetch raises
/// without the value (no default, no block): `None` when it does not fetch it.
fn fetch_of(body: &str, parameter: &str) -> Option<bool> {
    let mut raises = None;
    for call in [format!("ENV.fetch({parameter}"), format!("ENV.fetch {parameter}")] {
        let mut from = 0;
        while let Some(found) = body[from..].find(&call) {
            let after = &body[from + found + call.len()..];
            from += found + call.len();
            // The parameter itself, not a longer name that starts with it.
            if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = code::rest_of_call(after, QUOTES);
            let closed = after[rest.len()..].get(1..).unwrap_or_default();
            let optional = code::has_another_argument(rest) || code::followed_by(closed, &["{", "do"]);
            raises = Some(raises.unwrap_or(false) || !optional);
        }
    }
    raises
}

/// The body of a method whose `def` line starts with `indent` and whose signature ends where
/// `after` begins: the rest of the line for an endless method (`def get(k) = ENV[k]`), else
/// up to the `end` at the `def`'s indentation.
fn method_body<'t>(after: &'t str, indent: &str) -> &'t str {
    let line_end = after.find('\n').unwrap_or(after.len());
    let signature_rest = &after[..line_end];
    if signature_rest.contains(") =") || signature_rest.trim_start().starts_with('=') {
        return signature_rest;
    }
    let closing = format!("\n{indent}end");
    let end = after.find(&closing).unwrap_or(after.len());
    &after[..end]
}

/// Calls of any method with a variable's name as its literal first argument
/// (`GlobalConfig.get("X")`, `env 'X'`, `Settings::Env.secret!("X")`): reads if the project
/// defines the method as a helper. One inside a method runs when that method does.
pub fn calls(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:^|[^[:word:].:])(?P<receiver>(?:[A-Z][[:word:]]*(?:::|\.))*)(?P<function>[a-z_][[:word:]]*[!?]?)(?:\([[:space:]]*|[ \t]+)['"](?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"]"#,
        )
        .expect("the Ruby helper-call pattern is valid")
    });
    // `ENV.fetch("X")` is Ruby's own read, found by the ecosystem.
    let reads = code::helper_call_reads(&CALL, text, QUOTES, |receiver, _| receiver == "ENV.");
    reads.into_iter().map(|read| EnvRead { on_demand: super::in_method(text, read.at), ..read }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::ecosystems::ecosystem::Need;

    #[test]
    fn methods_that_read_the_name_they_are_given() {
        let text = "class GlobalConfig\n  def self.get(name, default = nil)\n    ENV.fetch(name, default)\n  end\n\n  def self.dig(*keys)\n    ENV.fetch(keys.join('_'))\n  end\nend\n\nmodule Settings\n  def require_env(key)\n    value = ENV[key]\n    raise \"#{key} is not set\" if value.blank?\n    value\n  end\n\n  def secret!(key) = ENV.fetch(key)\n\n  def token_for(keyword)\n    ENV[\"TOKEN\"]\n  end\n\n  def flag(key)\n    ENV.fetch(key) { 'false' } == 'true'\n  end\nend\n";
        let found: Vec<(String, bool)> = helpers(text).into_iter().map(|h| (h.function, h.required)).collect();
        assert_eq!(
            found,
            [
                ("get".to_string(), false),
                ("require_env".to_string(), true),
                ("secret!".to_string(), true),
                ("flag".to_string(), false)
            ],
            "`dig` reads a name it builds, `token_for` a literal: neither passes its parameter on"
        );
    }

    #[test]
    fn calls_with_a_literal_name_are_reads_through_the_helper() {
        let text = "STRONGBOX = GlobalConfig.get(\"STRONGBOX_GENERAL_PASSWORD\")\nKEY = Settings::Env.secret!('CIPHER_KEY', 'dev')\nENV.fetch(\"REDIS_URL\")\nputs \"HELLO_WORLD\"\n\ndef client\n  Client.new(token: env(\"API_TOKEN\"))\nend\n";
        let found: Vec<(Option<String>, String, Need, bool)> =
            calls(text).into_iter().map(|r| (r.helper, r.name, r.need, r.on_demand)).collect();
        assert_eq!(
            found,
            [
                (Some("get".into()), "STRONGBOX_GENERAL_PASSWORD".into(), Need::Unstated, false),
                (Some("secret!".into()), "CIPHER_KEY".into(), Need::Optional, false),
                (Some("puts".into()), "HELLO_WORLD".into(), Need::Unstated, false),
                (Some("env".into()), "API_TOKEN".into(), Need::Unstated, true),
            ],
            "a call is kept whatever its method; only a defined helper makes it a read"
        );
    }
}
