//! A project's own env helpers: functions that read the variable their first parameter names
//! (`pub fn maybe_env<T: FromStr>(var: &str) -> Result<Option<T>> { match std::env::var(var) … }`),
//! directly or through another such function of the file (`require_env(var)` calling
//! `maybe_env(var)`), and the calls of any function with a variable's name as its literal first
//! argument (`require_env("DOCSRS_DATABASE_URL")`), which the secrets signal pairs with them
//! (see [`EnvRead::helper`]).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead};

/// The functions `text` defines whose first parameter goes to `env::var` as it is, or to
/// another such function.
pub fn helpers(text: &str) -> Vec<EnvHelper> {
    static FN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*(?:pub(?:\([a-z]+\))?[[:space:]]+)?fn[[:space:]]+([a-z_][[:word:]]*)[[:space:]]*(?:<[^>{]*>)?[[:space:]]*\(([^)]*)\)(?:[[:space:]]*->[[:space:]]*([^{]*))?")
            .expect("the Rust fn pattern is valid")
    });
    if !text.contains("var(") {
        return Vec::new();
    }
    // (function, parameter, body) of each candidate, a parameter taken by reference (`var:
    // &str`) in any place (`t_str(map, parent, key, env_var: &str)`): the body runs to the
    // next `fn`.
    let starts: Vec<usize> = FN.find_iter(text).map(|m| m.start()).collect();
    let mut typed: Vec<&str> = Vec::new();
    let functions: Vec<(&str, &str, &str)> = FN
        .captures_iter(text)
        .filter_map(|c| {
            let (whole, function, parameters) = (c.get(0)?, c.get(1)?, c.get(2)?);
            if c.get(3).is_some_and(|returned| returns_a_setting(returned.as_str())) {
                typed.push(function.as_str());
            }
            let next = starts.partition_point(|&start| start <= whole.start());
            let body = &text[whole.end()..starts.get(next).copied().unwrap_or(text.len())];
            Some(parameters.as_str().split(',').filter_map(move |parameter| {
                let (name, kind) = parameter.split_once(':')?;
                let name = name.trim();
                (kind.trim_start().starts_with('&') && name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'))
                    .then_some((function.as_str(), name, body))
            }))
        })
        .flatten()
        .collect();
    let passes = |body: &str, call: &str, parameter: &str| {
        body.match_indices(&format!("{call}({parameter}"))
            .any(|(at, m)| body[at + m.len()..].trim_start().starts_with([',', ')']))
    };
    let mut readers: Vec<&str> = Vec::new();
    loop {
        let before = readers.len();
        for (function, parameter, body) in &functions {
            if readers.contains(function) {
                continue;
            }
            let direct = ["env::var", "env::var_os", "dotenvy::var"].iter().any(|call| passes(body, call, parameter));
            if direct || readers.iter().any(|reader| passes(body, reader, parameter)) {
                readers.push(function);
            }
        }
        if readers.len() == before {
            break;
        }
    }
    readers
        .into_iter()
        // `require_env` hands back a `Result` whose error its caller may log, skip or propagate
        // from a constructor only some commands run: the call does not say the app stops.
        .map(|function| {
            let helper = EnvHelper::named(function, false);
            EnvHelper { setting: helper.setting || typed.contains(&function), ..helper }
        })
        .collect()
}

/// Whether a helper hands back a flag or a number (`fn t_u32(…) -> Option<u32>`): what it
/// reads is a setting whatever the variable's name (`PASSWORD_LEN`).
fn returns_a_setting(returned: &str) -> bool {
    let returned = returned.trim().trim_end_matches("where").trim();
    let inner = ["Option<", "Result<"].iter().fold(returned, |t, wrapper| {
        t.strip_prefix(wrapper).map_or(t, |rest| rest.split([',', '>']).next().unwrap_or(rest))
    });
    inner == "bool"
        || ["u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64"]
            .contains(&inner.trim())
}

/// Calls of any function with a variable's name as a literal argument (`maybe_env("X")`,
/// `docs_rs_env_vars::env("X", 8)`, `t_str(&mut map, "db", "password", "DB_PASSWORD")`):
/// reads if the project defines the function as a helper. Optional with another argument.
pub fn helper_calls(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:^|[^[:word:]!])([a-z_][[:word:]]*)(?:::<[^>]*>)?\([[:space:]]*(?:[^()";{}=]|"[^"\n]*")*?"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)""#)
            .expect("the Rust call pattern is valid")
    });
    CALL.captures_iter(text)
        .filter_map(|c| {
            let (function, name, whole) = (c.get(1)?, c.get(2)?, c.get(0)?);
            if matches!(function.as_str(), "var" | "var_os" | "set_var" | "remove_var") {
                return None;
            }
            Some(code::helper_call_read(text, function.as_str(), name, whole.end(), &['"']))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::ecosystems::ecosystem::Need;

    #[test]
    fn helpers_and_the_helpers_they_call() {
        let text = "pub fn env<T>(var: &str, default: T) -> Result<T> {\n    Ok(maybe_env(var)?.unwrap_or(default))\n}\n\npub fn require_env<T>(var: &str) -> Result<T> {\n    maybe_env(var)?.context(\"missing\")\n}\n\npub fn maybe_env<T: FromStr>(var: &str) -> Result<Option<T>> {\n    match std::env::var(var) {\n        Ok(v) => Ok(Some(v.parse()?)),\n        Err(_) => Ok(None),\n    }\n}\n\nfn shout(word: &str) -> String { word.to_uppercase() }\n";
        let mut found: Vec<(String, bool)> = helpers(text).into_iter().map(|h| (h.function, h.required)).collect();
        found.sort();
        assert_eq!(found, [("env".into(), false), ("maybe_env".into(), false), ("require_env".into(), false)]);
    }

    #[test]
    fn a_helper_whose_later_parameter_names_the_variable() {
        let text = "pub fn t_str(map: &mut toml::Table, parent: &str, key: &str, env_var: &str) -> Option<String> {\n    let value = map.remove(key);\n    if !env_var.is_empty() && let Ok(v) = env::var(env_var) {\n        return Some(v);\n    }\n    None\n}\n";
        let names: Vec<String> = helpers(text).into_iter().map(|h| h.function).collect();
        assert_eq!(names, ["t_str"]);
        let numbers = "fn t_u32(map: &mut toml::Table, parent: &str, key: &str, env_var: &str) -> Option<u32> {\n    env::var(env_var).ok()?.parse().ok()\n}\n";
        assert!(helpers(numbers).iter().all(|h| h.setting));
        assert!(helpers(text).iter().all(|h| !h.setting));
        let call = "let keys = t_str(&mut table, \"encryption\", \"keys\", \"ENC_KEYS\");\nlet port = other(3);\n";
        let found: Vec<(String, String)> =
            helper_calls(call).into_iter().map(|r| (r.helper.unwrap_or_default(), r.name)).collect();
        assert_eq!(found, [("t_str".to_string(), "ENC_KEYS".to_string())]);
    }

    #[test]
    fn calls_with_a_variables_name() {
        let text = "let c = Config {\n    url: require_env(\"APP_DATABASE_URL\")?,\n    workers: env(\"APP_BUILD_WORKERS\", 4)?,\n    token: maybe_env::<String>(\"APP_GITHUB_ACCESSTOKEN\")?,\n    key: std::env::var(\"DIRECT_KEY\"),\n};\n";
        let found: Vec<(String, String, Need)> =
            helper_calls(text).into_iter().map(|r| (r.helper.unwrap_or_default(), r.name, r.need)).collect();
        assert_eq!(
            found,
            [
                ("require_env".into(), "APP_DATABASE_URL".into(), Need::Unstated),
                ("env".into(), "APP_BUILD_WORKERS".into(), Need::Optional),
                ("maybe_env".into(), "APP_GITHUB_ACCESSTOKEN".into(), Need::Unstated),
            ]
        );
    }
}
