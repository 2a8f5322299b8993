//! Ruby's settings libraries that read the environment by names they form themselves.
//!
//! anyway_config: a class `GeminiConfig < Anyway::Config` (or `< ApplicationConfig`, the base
//! its Rails generator writes) reads each `attr_config :api_key` from `GEMINI_API_KEY` — the
//! class's config name (its name without `Config`, lower-cased: `MyCoolConfig` is `mycool`,
//! `Payments::Config` is `payments`; or `config_name :x`) upper-cased, or its `env_prefix`,
//! then `_` and the attribute upper-cased. `required :api_key` makes one required (with `env:`
//! only in those environments); an attribute given a default is optional, and a default that
//! is a flag or number (or a `coerce_types` to one) types it as a setting. Nested attributes
//! (`db: { host: … }`, read as `PREFIX_DB__HOST`) are left out.
//!
//! kithe's `Kithe::ConfigBase`: each `define_key :aws_secret_access_key` of a subclass is read
//! from `AWS_SECRET_ACCESS_KEY` (before its config file); a `default:` makes it optional, and
//! a flag or number default, or the boolean transform, a setting.
//!
//! figaro: `Figaro.env.stripe_key` reads `STRIPE_KEY`, `Figaro.env.stripe_key!` raises without
//! it, `Figaro.env.enabled?` reads a flag, and `Figaro.require_keys("A", "B")` stops the boot
//! without them — as dotenv's `Dotenv.require_keys("A", "B")` does.

use std::sync::LazyLock;

use regex::Regex;

use super::in_method;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    let mut found = anyway_config_reads(text);
    found.extend(kithe_reads(text));
    found.extend(figaro_reads(text));
    found
}

fn kithe_reads(text: &str) -> Vec<EnvRead> {
    static CLASS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^([ \t]*)class[[:space:]]+[A-Z][[:word:]]*[[:space:]]*<[[:space:]]*(?:::)?Kithe::ConfigBase[[:space:]]*$")
            .expect("the kithe config class pattern is valid")
    });
    static KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[[:space:]]*define_key[[:space:]]*\(?[[:space:]]*:([a-z_][a-z0-9_]*)[[:space:]]*(,[^\n]*)?$")
            .expect("the kithe define_key pattern is valid")
    });
    let mut found = Vec::new();
    for class in CLASS.captures_iter(text) {
        let (Some(whole), Some(indent)) = (class.get(0), class.get(1)) else { continue };
        let body = class_body(text, whole.end(), indent.as_str().len());
        for key in KEY.captures_iter(body) {
            let (Some(name), options) = (key.get(1), key.get(2).map_or("", |m| m.as_str())) else { continue };
            let default = options.split_once("default:").map(|(_, rest)| rest.split(',').next().unwrap_or_default());
            let need = if default.is_some() { Need::Optional } else { Need::Unstated };
            let setting = default.is_some_and(is_setting_default) || options.contains("BOOLEAN_TRANSFORM");
            let at = whole.end() + name.start();
            found.push(
                EnvRead::new(name.as_str().to_ascii_uppercase(), at, need, "kithe define_key").typed_setting(setting),
            );
        }
    }
    found
}

const ANYWAY_CONFIG: &str = "anyway_config attribute";

fn anyway_config_reads(text: &str) -> Vec<EnvRead> {
    static CLASS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^([ \t]*)class[[:space:]]+([A-Z][[:word:]]*(?:::[A-Z][[:word:]]*)*)[[:space:]]*<[[:space:]]*(?:::)?(?:Anyway::Config|ApplicationConfig)[[:space:]]*$")
            .expect("the anyway_config class pattern is valid")
    });
    let mut found = Vec::new();
    for class in CLASS.captures_iter(text) {
        let (Some(whole), Some(indent), Some(name)) = (class.get(0), class.get(1), class.get(2)) else { continue };
        let body = class_body(text, whole.end(), indent.as_str().len());
        let Some(prefix) = env_prefix(body).or_else(|| config_name(text, whole.start(), name.as_str(), body)) else {
            continue;
        };
        let required = declared_symbols(body, "required");
        let conditionally_required = conditionally_required(body);
        let coerced = coerced_to_settings(body);
        let offset = whole.end();
        for attribute in attributes(body) {
            let need = if required.contains(&attribute.name) {
                if conditionally_required.contains(&attribute.name) { Need::Optional } else { Need::Required }
            } else if attribute.default.is_some() {
                Need::Optional
            } else {
                Need::Unstated
            };
            let setting =
                attribute.default.as_deref().is_some_and(is_setting_default) || coerced.contains(&attribute.name);
            let variable = format!("{prefix}_{}", attribute.name.to_ascii_uppercase());
            found.push(EnvRead::new(variable, offset + attribute.at, need, ANYWAY_CONFIG).typed_setting(setting));
        }
    }
    found
}

/// The class's body: the lines after its `class` line up to its `end` at the same indent.
fn class_body(text: &str, from: usize, indent: usize) -> &str {
    let mut end = from;
    for line in text[from..].split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.trim_end() == "end" && line.len() - trimmed.len() <= indent {
            break;
        }
        end += line.len();
    }
    &text[from..end]
}

/// `env_prefix :MYAPP` / `env_prefix "MYAPP"`: the prefix as given, upper-cased.
fn env_prefix(body: &str) -> Option<String> {
    static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?m)^[[:space:]]*env_prefix[[:space:]]*\(?[[:space:]]*(?::|['"])([A-Za-z_][A-Za-z0-9_]*)"#)
            .expect("the env_prefix pattern is valid")
    });
    Some(PREFIX.captures(body)?.get(1)?.as_str().to_ascii_uppercase())
}

/// The config name upper-cased: `config_name :payment` in the class, else the class's name
/// without `Config` (`GeminiConfig` → `GEMINI`), or, for a class named `Config`, its
/// module's (`module Payments; class Config` → `PAYMENTS`).
fn config_name(text: &str, class_at: usize, class: &str, body: &str) -> Option<String> {
    static NAMED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?m)^[[:space:]]*config_name[[:space:]]*\(?[[:space:]]*(?::|['"])([A-Za-z_][A-Za-z0-9_]*)"#)
            .expect("the config_name pattern is valid")
    });
    static MODULE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[[:space:]]*module[[:space:]]+([A-Z][[:word:]]*)").expect("the module pattern is valid")
    });
    if let Some(named) = NAMED.captures(body).and_then(|c| c.get(1)) {
        return Some(named.as_str().to_ascii_uppercase());
    }
    let last = class.rsplit("::").next().unwrap_or(class);
    let stem = if last == "Config" {
        match class.rsplit_once("::") {
            Some((outer, _)) => outer.rsplit("::").next().unwrap_or(outer).to_string(),
            None => MODULE.captures_iter(&text[..class_at]).last()?.get(1)?.as_str().to_string(),
        }
    } else {
        last.strip_suffix("Config")?.to_string()
    };
    (!stem.is_empty() && stem != "Application").then(|| stem.to_ascii_uppercase())
}

struct Attribute {
    name: String,
    /// The offset of the name in the class body.
    at: usize,
    default: Option<String>,
}

/// The attributes of `attr_config` statements (a statement runs on while its lines end with
/// `,`): `:name` without a default, `name: value` with one.
fn attributes(body: &str) -> Vec<Attribute> {
    static START: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?m)^[[:space:]]*attr_config\b\(?").expect("the attr_config pattern is valid"));
    static ITEM: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:^|[,([:space:]]):([a-z_][a-z0-9_]*)|(?:^|[,([:space:]])([a-z_][a-z0-9_]*):[[:space:]]+([^,\n]+)"#,
        )
        .expect("the attr_config item pattern is valid")
    });
    let mut found = Vec::new();
    for start in START.find_iter(body) {
        let statement = without_nested_hashes(statement_at(body, start.end()));
        for item in ITEM.captures_iter(&statement) {
            let (name, default) = match (item.get(1), item.get(2), item.get(3)) {
                (Some(name), _, _) => (name, None),
                (None, Some(name), Some(value)) => (name, Some(value.as_str().trim().to_string())),
                _ => continue,
            };
            // A hash default is a group of nested settings, read under `__`.
            if default.as_deref().is_some_and(|d| d.starts_with('{')) {
                continue;
            }
            found.push(Attribute { name: name.as_str().to_string(), at: start.end() + name.start(), default });
        }
    }
    found
}

/// `statement` with the inside of each `{ … }` blanked (offsets kept): a hash default's keys
/// are nested settings, not attributes.
fn without_nested_hashes(statement: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(statement.len());
    for c in statement.chars() {
        let inside = depth > 0;
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let blank = inside && depth > 0 && c != '\n';
        if blank {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// The statement from `from` on: its lines while each ends with `,` (or an open `(`/`[`).
fn statement_at(body: &str, from: usize) -> &str {
    let mut end = from;
    for line in body[from..].split_inclusive('\n') {
        end += line.len();
        let code = line.split(" #").next().unwrap_or(line).trim_end();
        if !(code.ends_with(',') || code.ends_with('(') || code.ends_with('[')) {
            break;
        }
    }
    &body[from..end]
}

/// The symbols a class-level call lists (`required :a, :b`).
fn declared_symbols(body: &str, call: &str) -> Vec<String> {
    let Ok(start) = Regex::new(&format!(r"(?m)^[[:space:]]*{call}\b\(?")) else { return Vec::new() };
    static SYMBOL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r":([a-z_][a-z0-9_]*)").expect("the symbol pattern is valid"));
    start
        .find_iter(body)
        .flat_map(|m| SYMBOL.captures_iter(statement_at(body, m.end())).filter_map(|c| c.get(1)))
        .map(|m| m.as_str().to_string())
        .collect()
}

/// The attributes a `required …, env: …` statement lists: required only in some environments.
fn conditionally_required(body: &str) -> Vec<String> {
    static START: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?m)^[[:space:]]*required\b\(?").expect("the required pattern is valid"));
    static SYMBOL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r":([a-z_][a-z0-9_]*)").expect("the symbol pattern is valid"));
    START
        .find_iter(body)
        .map(|m| statement_at(body, m.end()))
        .filter(|statement| statement.contains("env:"))
        .flat_map(|statement| {
            let names = statement.split("env:").next().unwrap_or_default();
            SYMBOL.captures_iter(names).filter_map(|c| c.get(1)).map(|m| m.as_str().to_string()).collect::<Vec<_>>()
        })
        .collect()
}

/// The attributes `coerce_types` makes a flag, number or list (`coerce_types port: :integer`).
fn coerced_to_settings(body: &str) -> Vec<String> {
    static START: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?m)^[[:space:]]*coerce_types\b\(?").expect("the coerce_types pattern is valid"));
    static COERCED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"([a-z_][a-z0-9_]*):[[:space:]]*(?::(?:integer|float|boolean|date|datetime)|\{[^}]*array:[[:space:]]*true)")
            .expect("the coerced type pattern is valid")
    });
    START
        .find_iter(body)
        .flat_map(|m| COERCED.captures_iter(statement_at(body, m.end())).filter_map(|c| c.get(1)))
        .map(|m| m.as_str().to_string())
        .collect()
}

/// A default that is a flag, number or list.
fn is_setting_default(default: &str) -> bool {
    let default = default.trim();
    matches!(default, "true" | "false")
        || default.starts_with('[')
        || default.starts_with("%w")
        || default.parse::<f64>().is_ok()
        || default.replace('_', "").parse::<i64>().is_ok()
}

const FIGARO: &str = "Figaro.env";

fn figaro_reads(text: &str) -> Vec<EnvRead> {
    static ENV: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)Figaro\.env\.([a-z_][a-z0-9_]*)([!?])?").expect("the Figaro.env pattern is valid")
    });
    static REQUIRE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)(Figaro|Dotenv)\.require_keys\b\(?").expect("the require_keys pattern is valid")
    });
    static KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"['"]([A-Za-z_][A-Za-z0-9_]*)['"]|%w[\[(]([^\])]*)[\])]"#).expect("the key pattern is valid")
    });
    let mut found = Vec::new();
    for c in ENV.captures_iter(text) {
        let (Some(whole), Some(name)) = (c.get(0), c.get(1)) else { continue };
        let punctuation = c.get(2).map(|p| p.as_str());
        let need = match punctuation {
            Some("!") if !in_method(text, whole.start()) => Need::Required,
            _ => Need::Unstated,
        };
        found.push(
            EnvRead::new(name.as_str().to_ascii_uppercase(), name.start(), need, FIGARO)
                .typed_setting(punctuation == Some("?")),
        );
    }
    for c in REQUIRE.captures_iter(text) {
        let Some(m) = c.get(0) else { continue };
        let via = if c.get(1).is_some_and(|l| l.as_str() == "Dotenv") {
            "Dotenv.require_keys"
        } else {
            "Figaro.require_keys"
        };
        let line_end = text[m.end()..].find('\n').map_or(text.len(), |i| m.end() + i);
        for key in KEY.captures_iter(&text[m.end()..line_end]) {
            if let Some(single) = key.get(1) {
                found.push(EnvRead::new(single.as_str(), m.end() + single.start(), Need::Required, via));
            } else if let Some(words) = key.get(2) {
                let mut at = m.end() + words.start();
                for word in words.as_str().split(' ') {
                    if !word.is_empty() {
                        found.push(EnvRead::new(word, at, Need::Required, via));
                    }
                    at += word.len() + 1;
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kithe_keys_are_read_upper_cased() {
        let text = "module Shop\n  class Env < Kithe::ConfigBase\n    define_key :secret_key_base\n    define_key :smtp_password, default: -> {\n      nil\n    }\n    define_key :log_in_using_sso, default: false, system_env_transform: Kithe::ConfigBase::BOOLEAN_TRANSFORM\n    define_key :aws_region, default: \"us-east-1\"\n  end\n\n  define_key :outside_the_class\nend\n";
        let rows: Vec<(String, Need, bool)> =
            kithe_reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect();
        assert_eq!(
            rows,
            [
                ("SECRET_KEY_BASE".into(), Need::Unstated, false),
                ("SMTP_PASSWORD".into(), Need::Optional, false),
                ("LOG_IN_USING_SSO".into(), Need::Optional, true),
                ("AWS_REGION".into(), Need::Optional, false),
            ]
        );
        let read = &kithe_reads(text)[1];
        assert!(text[read.at..].starts_with("smtp_password"));
    }

    fn found(text: &str) -> Vec<(String, Need, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect()
    }

    #[test]
    fn anyway_config_names_attributes_under_the_config_name() {
        let text = "class GeminiConfig < ApplicationConfig\n  attr_config :api_key,\n    model: \"gemini-pro\",\n    timeout: 30,\n    verbose: false\n\n  required :api_key\nend\n";
        assert_eq!(
            found(text),
            [
                ("GEMINI_API_KEY".into(), Need::Required, false),
                ("GEMINI_MODEL".into(), Need::Optional, false),
                ("GEMINI_TIMEOUT".into(), Need::Optional, true),
                ("GEMINI_VERBOSE".into(), Need::Optional, true),
            ]
        );
    }

    #[test]
    fn anyway_config_prefixes_and_conditions() {
        let named = "class StripeConfig < Anyway::Config\n  config_name :payment\n  attr_config :api_key, :webhook_secret, db: { host: \"x\" }\n  required :webhook_secret, env: :production\nend\n";
        assert_eq!(
            found(named),
            [
                ("PAYMENT_API_KEY".into(), Need::Unstated, false),
                ("PAYMENT_WEBHOOK_SECRET".into(), Need::Optional, false)
            ]
        );
        let prefixed = "module Influxer\n  class Config < Anyway::Config\n    env_prefix :INFLUX\n    attr_config :password, port: 8086\n    coerce_types password: :string\n  end\nend\n";
        assert_eq!(
            found(prefixed),
            [("INFLUX_PASSWORD".into(), Need::Unstated, false), ("INFLUX_PORT".into(), Need::Optional, true)]
        );
        let module = "module Mailer\n  class Config < Anyway::Config\n    attr_config :smtp_password\n  end\nend\n";
        assert_eq!(found(module), [("MAILER_SMTP_PASSWORD".into(), Need::Unstated, false)]);
        // The base class the generator writes has no name of its own to read under.
        assert_eq!(found("class ApplicationConfig < Anyway::Config\n  attr_config :x\nend\n"), []);
    }

    #[test]
    fn figaro_reads_upper_cases_and_requires() {
        let text = "Dotenv.require_keys(\"SECRET_KEY_BASE\")\nFigaro.require_keys(\"PUSHER_APP_ID\", \"PUSHER_SECRET\")\nFigaro.require_keys %w[SMTP_PASSWORD MAIL_FROM]\nPusher.key = Figaro.env.pusher_key!\nPusher.cluster = Figaro.env.pusher_cluster\nSIGNUPS = Figaro.env.signups_open?\n";
        assert_eq!(
            found(text),
            [
                ("PUSHER_KEY".into(), Need::Required, false),
                ("PUSHER_CLUSTER".into(), Need::Unstated, false),
                ("SIGNUPS_OPEN".into(), Need::Unstated, true),
                ("SECRET_KEY_BASE".into(), Need::Required, false),
                ("PUSHER_APP_ID".into(), Need::Required, false),
                ("PUSHER_SECRET".into(), Need::Required, false),
                ("SMTP_PASSWORD".into(), Need::Required, false),
                ("MAIL_FROM".into(), Need::Required, false),
            ]
        );
    }
}
