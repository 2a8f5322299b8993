//! A file's own env helpers: functions that read the variable their first parameter names
//! (`function requireEnv(name) { const v = process.env[name]; … }`,
//! `const getEnv = (key: string) => process.env[key]`). Their calls are reads, with the name
//! as a literal or as a string constant of the file (`getFileEnv(basicAuthPassword)` after
//! `const basicAuthPassword = 'ME_CONFIG_BASICAUTH_PASSWORD'`).
//!
//! A helper another file defines (a workspace's shared `getEnvVariable(name, default?)`) is
//! called with a literal name: such calls are reads through a helper ([`foreign_calls`]), which
//! the secrets signal pairs with the project's helpers ([`helpers`]).

use std::sync::LazyLock;

use regex::Regex;

use super::QUOTES;
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead, Need};

/// The reads of a variable named by an expression: `process.env[name]`.
const INDEXED_READS: &[&str] = &["process.env[", "import.meta.env[", "Bun.env["];

/// The functions of `text` that read the variable their first parameter names.
fn wrappers(text: &str) -> Vec<&str> {
    static FUNCTION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:(?-u:\b)function[[:space:]]+([A-Za-z_$][[:word:]$]*)[[:space:]]*(?:<[^>]*>)?\([[:space:]]*([A-Za-z_$][[:word:]$]*)|(?-u:\b)(?:const|let)[[:space:]]+([A-Za-z_$][[:word:]$]*)[[:space:]]*=[[:space:]]*(?:<[^>]*>)?\([[:space:]]*([A-Za-z_$][[:word:]$]*))[^)]*\)[^{=;]*(?:=>[[:space:]]*)?",
        )
        .expect("the function pattern is valid")
    });
    if !INDEXED_READS.iter().any(|access| text.contains(access)) {
        return Vec::new();
    }
    let mut wrappers: Vec<&str> = Vec::new();
    for c in FUNCTION.captures_iter(text) {
        let (Some(whole), Some(function), Some(parameter)) = (c.get(0), c.get(1).or(c.get(3)), c.get(2).or(c.get(4)))
        else {
            continue;
        };
        let after = &text[whole.end()..];
        let body = if after.starts_with('{') {
            code::block(after, QUOTES).unwrap_or_default()
        } else {
            code::expression(after, QUOTES)
        };
        let parameter = parameter.as_str();
        let reads_it = INDEXED_READS.iter().any(|access| body.contains(&format!("{access}{parameter}]")));
        if reads_it && !wrappers.contains(&function.as_str()) {
            wrappers.push(function.as_str());
        }
    }
    wrappers
}

/// The file's env helpers, for the calls other files make of them (see [`foreign_calls`]). Its
/// name marks no secret: a project's `getSecret` reads its database host as well.
pub(super) fn helpers(text: &str) -> Vec<EnvHelper> {
    wrappers(text)
        .into_iter()
        .map(|function| EnvHelper { marked_secret: false, ..EnvHelper::named(function, is_required(function)) })
        .collect()
}

/// Calls with a variable's name as the literal first argument of a function the file does not
/// define (`getEnvVariable("STACK_RESEND_API_KEY")`): reads where some file of the project
/// defines the function as an env helper. Not a method's (`map.get("X")`, `t("KEY_NAME")`
/// through `i18n.`), whose receiver is no helper of the project's.
pub(super) fn foreign_calls(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:^|[^[:word:].$])(?P<function>[A-Za-z_$][[:word:]$]*)\([[:space:]]*['"`](?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"`]"#)
            .expect("the JavaScript helper-call pattern is valid")
    });
    let own = wrappers(text);
    // `env("X")` is read as every app's helper already (see `super::reads`).
    code::helper_call_reads(&CALL, text, QUOTES, |_, function| function == "env" || own.contains(&function))
}

/// Whether a helper's name says it fails without the variable (`requireEnv`, `mustGetEnv`).
fn is_required(function: &str) -> bool {
    let lower = function.to_ascii_lowercase();
    lower.contains("require") || lower.contains("must")
}

/// The calls of the file's own helpers with a name: required when the helper's name says so,
/// optional with a second argument (`getEnv('PORT', 3000)`) or a fallback after it.
pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    let mut found = Vec::new();
    for wrapper in wrappers(text) {
        let Ok(call) = Regex::new(&format!(
            r#"(?-u:\b){}\([[:space:]]*(?:['"`](?P<name>[A-Za-z_][A-Za-z0-9_]*)['"`]|(?P<constant>[A-Za-z_$][[:word:]$]*)[[:space:]]*[,)])"#,
            regex::escape(wrapper)
        )) else {
            continue;
        };
        let required = is_required(wrapper);
        // `envToBool('PREVENT_SIGNUP', false)`: the helper says what it makes of the value.
        let typed = code::names_a_typed_parser(wrapper);
        for c in call.captures_iter(text) {
            let Some(argument) = c.name("name").or(c.name("constant")) else { continue };
            let name = match c.name("constant") {
                Some(constant) => match string_constant(text, constant.as_str()) {
                    Some(value) => value,
                    None => continue,
                },
                None => argument.as_str(),
            };
            let after = &text[argument.end()..];
            let after = after.strip_prefix(['\'', '"', '`']).unwrap_or(after);
            let rest = code::rest_of_call(after, QUOTES);
            let need = if code::has_another_argument(rest) {
                Need::Optional
            } else if required {
                Need::Required
            } else {
                code::script_need_after(after[rest.len()..].get(1..).unwrap_or_default())
            };
            found.push(EnvRead::new(name, argument.start(), need, "env helper").typed_setting(typed));
        }
    }
    found
}

/// The variable name a string constant of the file holds (`const basicAuthPassword =
/// 'ME_CONFIG_BASICAUTH_PASSWORD'`); `None` unless it is spelled like one.
fn string_constant<'t>(text: &'t str, constant: &str) -> Option<&'t str> {
    let assignment = Regex::new(&format!(
        r#"(?-u:\b)(?:const|let|var)[[:space:]]+{}[[:space:]]*=[[:space:]]*['"`]([A-Z][A-Z0-9_]*)['"`]"#,
        regex::escape(constant)
    ))
    .ok()?;
    let value = assignment.captures(text)?.get(1)?.as_str();
    code::is_upper_snake(value).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_file_s_calls_are_reads_through_a_helper() {
        let shared = "export function getEnvVariable(name: string, defaultValue?: string): string {\n  let value = process.env[name];\n  if (value === undefined) throw new Error(name);\n  return value;\n}\n";
        let helpers: Vec<String> = helpers(shared).into_iter().map(|h| h.function).collect();
        assert_eq!(helpers, ["getEnvVariable"]);
        let app = "const key = getEnvVariable(\"STACK_RESEND_API_KEY\");\nconst url = getEnvVariable('STACK_API_URL', 'http://localhost');\nconst label = i18n.t(\"SAVE_BUTTON\");\n";
        let found: Vec<(Option<String>, String, Need)> =
            foreign_calls(app).into_iter().map(|r| (r.helper, r.name, r.need)).collect();
        assert_eq!(
            found,
            [
                (Some("getEnvVariable".into()), "STACK_RESEND_API_KEY".into(), Need::Unstated),
                (Some("getEnvVariable".into()), "STACK_API_URL".into(), Need::Optional),
            ]
        );
        // The file's own helper's calls are read with it, not again.
        assert!(foreign_calls(&format!("{shared}getEnvVariable(\"X_KEY\");\n")).is_empty());
    }

    #[test]
    fn calls_of_the_files_own_helpers() {
        let text = "function requireEnv(name) {\n  const v = process.env[name];\n  if (!v) throw new Error(name);\n  return v;\n}\nconst getEnv = (key, fallback) => process.env[key] ?? fallback;\nconst db = requireEnv('DATABASE_PASSWORD');\nconst port = getEnv('PORT', 3000);\nconst key = getEnv(\"STRIPE_SECRET_KEY\");\n";
        let found: Vec<(String, Need)> = reads(text).into_iter().map(|r| (r.name, r.need)).collect();
        assert_eq!(
            found,
            [
                ("DATABASE_PASSWORD".to_string(), Need::Required),
                ("PORT".to_string(), Need::Optional),
                ("STRIPE_SECRET_KEY".to_string(), Need::Unstated),
            ]
        );
    }

    #[test]
    fn a_helper_called_with_a_string_constant_reads_its_value() {
        let text = "function getFileEnv(envVariable) {\n  const origVar = process.env[envVariable];\n  return origVar;\n}\nconst basicAuthPassword = 'ME_CONFIG_BASICAUTH_PASSWORD';\nconst dbUrl = 'ME_CONFIG_MONGODB_URL';\nconst other = someValue;\nmodule.exports = {\n  password: getFileEnv(basicAuthPassword) || 'pass',\n  url: getFileEnv(dbUrl),\n  skipped: getFileEnv(other),\n};\n";
        let found: Vec<(String, Need)> = reads(text).into_iter().map(|r| (r.name, r.need)).collect();
        assert_eq!(
            found,
            [
                ("ME_CONFIG_BASICAUTH_PASSWORD".to_string(), Need::Optional),
                ("ME_CONFIG_MONGODB_URL".to_string(), Need::Unstated),
            ]
        );
    }
}
