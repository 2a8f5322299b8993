//! What surrounds an environment read and changes what it means: the call's own default
//! or number parser (a setting's value, whatever the name says), and where the file lies —
//! a command run by hand, production-only settings, a .NET test project, a test run's env
//! file. Cross-ecosystem: each rule is how a framework lays out its project.

use std::sync::LazyLock;

use regex::Regex;

use super::is_config_dir;
use super::rules::is_setting_value;
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::EnvRead;

/// Whether an env file is the one a test run loads (`.env.test`, `.env.testing`, `test.env`,
/// `.env.ci`).
pub fn is_test_run_env_file(name: &str) -> bool {
    name.split('.').any(|part| ["test", "testing", "ci"].iter().any(|t| part.eq_ignore_ascii_case(t)))
}

/// Whether `dir` holds commands a developer runs by hand, not the app's start-up: Django's
/// `management/commands/`, Laravel's `Console/Commands/`, Rails' `lib/tasks/`, and the
/// project's `tools/` and `scripts/` (a migration tool, a seeding script). What they need
/// (`createsuperuser`'s password, the API token of the service a migrator copies from) is asked
/// for when they run: never required to start.
pub fn is_on_demand_command(dir: &str) -> bool {
    const COMMAND_DIRS: &[[&str; 2]] = &[["management", "commands"], ["console", "commands"], ["lib", "tasks"]];
    const TOOL_DIRS: &[&str] = &["tools", "scripts"];
    let parts: Vec<&str> = dir.split('/').collect();
    parts.iter().any(|part| TOOL_DIRS.iter().any(|t| part.eq_ignore_ascii_case(t)))
        || parts.windows(2).any(|pair| {
            COMMAND_DIRS.iter().any(|[a, b]| pair[0].eq_ignore_ascii_case(a) && pair[1].eq_ignore_ascii_case(b))
        })
}

/// Whether `name` in `dir` is the settings of production or staging alone — Django's
/// `settings/production.py`, `config/django/prod.py`, Rails' `config/environments/production.rb`,
/// `appsettings.Production.json`: a deployment gives what they read, development never needs it.
pub fn is_production_settings(dir: &str, name: &str) -> bool {
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let words: Vec<String> = stem.split(['.', '-', '_']).map(str::to_ascii_lowercase).collect();
    let production = words.iter().any(|w| matches!(w.as_str(), "production" | "prod" | "staging"));
    let settings = is_config_dir(dir)
        || words.iter().any(|w| matches!(w.as_str(), "settings" | "appsettings" | "application" | "config"));
    production && settings
}

/// Whether a folder name is a .NET test project's (`Svix.Tests`, `App.UnitTests`,
/// `Api.IntegrationTests`): by convention a project of its own beside the one it tests.
pub fn is_dotnet_test_project(part: &str) -> bool {
    const SUFFIXES: &[&str] = &[".tests", ".test", ".unittests", ".integrationtests", ".functionaltests", ".specs"];
    let lower = part.to_ascii_lowercase();
    SUFFIXES.iter().any(|s| lower.len() > s.len() && lower.ends_with(s))
}

/// Whether the call that reads a variable says its value is a setting, in any language: the
/// default it passes is a setting's value (`env('LIVE_DELETE_TOKEN_AFTER', true)`,
/// `os.getenv("X_TOKENS", "a,b")`, `ENV.fetch("X", "15m")`, `process.env.X ?? "true"`), or
/// a parser of flags or numbers wraps it (`(int) env('X')`,
/// `parse_boolean(os.environ.get("X"))`, `is_truthy(os.environ["X"])`, `String.to_integer(System.get_env("X"))`), or the
/// value is split into a list or parsed as a number right after the call
/// (`System.get_env("X", "") |> String.split(",")`, `os.getenv("X", "").split(",")`). Such a
/// name holds no credential whatever its words say (see [`is_setting_value`]). The parser may
/// be the project's own, named for the type it returns (`parseEnvVarBoolean(`, on the line
/// before, `envToBool('X', false)` as the env helper itself, `env_int(`). (`Boolean(…)`,
/// `bool(…)` and `(bool)` are not such a parser: they test whether a value is set.)
pub fn typed_by_its_call(text: &str, read: &EnvRead) -> bool {
    if read.helper.as_deref().is_some_and(code::names_a_typed_parser) {
        return true;
    }
    static CAST: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:\([[:space:]]*(?:int|integer|float|double)[[:space:]]*\)[[:space:]]*|(?:^|[^[:word:].])(?:int|float|intval|floatval|parse_boolean|parse_bool|strtobool|str2bool|str_to_bool|to_bool|to_boolean|asbool|as_bool|is_truthy|parseInt|parseFloat|Number|String\.to_integer|Integer\.parseInt)\([[:space:]]*)$",
        )
        .expect("the cast pattern is valid")
    });
    let Some(after) = text.get(read.at + read.name.len()..) else { return false };
    let line_start = text[..read.at].rfind('\n').map_or(0, |i| i + 1);
    // Before the read: past its quote and bracket and the reader (`env(`, `os.environ.get(`,
    // `$_ENV[`, `process.env.`), what wraps it.
    let before = text[line_start..read.at].trim_end_matches(['\'', '"', '[', ' ', '\t']);
    let before = before.strip_suffix('(').unwrap_or(before);
    let before = before
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '$' | '\\' | '>' | '-'));
    if CAST.is_match(before) {
        return true;
    }
    // The parser's call may open on the line before (`parseEnvVarBoolean(\n  process.env.X,`).
    let wrapped = if before.trim().is_empty() { text[..line_start].trim_end() } else { before };
    if wrapped.strip_suffix('(').is_some_and(|call| {
        let function = call.rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or_default();
        code::names_a_typed_parser(function)
    }) {
        return true;
    }
    if struct_tag_default(text, read.at).is_some_and(|default| is_setting_value(&read.name, default)) {
        return true;
    }
    let after = after.strip_prefix(['\'', '"']).unwrap_or(after);
    if converted_after_the_call(after) && !names_credentials(&read.name) || compared_to_a_flag(after) {
        return true;
    }
    let after = after.trim_start();
    let after = after.strip_prefix([']', ')']).map_or(after, str::trim_start);
    let default = if let Some(more) = after.strip_prefix(',') {
        let first = crate::detect::ecosystems::code::expression(more, &['"', '\'']).trim();
        // `default="true"`, `default: "15m"`: the keyword's value.
        match first.split_once(['=', ':']) {
            Some((key, value)) if key.trim() == "default" => value.trim(),
            _ => first,
        }
    } else if let Some(more) = ["??", "||", "or "].iter().find_map(|op| after.strip_prefix(op)) {
        crate::detect::ecosystems::code::expression(more.trim_start(), &['"', '\'']).trim()
    } else {
        return false;
    };
    let quoted = default.len() >= 2
        && (default.starts_with('"') && default.ends_with('"') || default.starts_with('\'') && default.ends_with('\''));
    let literal = quoted
        || ["true", "false", "True", "False"].contains(&default)
        || !default.is_empty() && default.chars().all(|c| c.is_ascii_digit() || c == '.' || c == '_');
    literal && is_setting_value(&read.name, default)
}

/// The default a Go struct tag gives the variable read at `at` inside it (`default:"Remote-User"
/// env:"X"`, cleanenv's `env-default:"…"`, caarlos0/env's `envDefault:"…"`, go-envconfig's
/// `env:"X, default=…"`).
fn struct_tag_default(text: &str, at: usize) -> Option<&str> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let open = text[line_start..at].rfind('`')? + line_start;
    let close = text[at..line_end].find('`')? + at;
    let tag = &text[open + 1..close];
    // By hand, not a regex: this runs for every read, and each regex keeps a cache per thread.
    for key in ["default:\"", "env-default:\"", "envDefault:\""] {
        let found = tag.match_indices(key).find(|&(i, _)| i == 0 || tag[..i].ends_with(char::is_whitespace));
        if let Some((i, _)) = found {
            let value = &tag[i + key.len()..];
            return value.find('"').map(|end| value[..end].trim());
        }
    }
    let (_, value) = tag.split_once(", default=").or_else(|| tag.split_once(",default="))?;
    Some(value.split([',', '"']).next().unwrap_or_default().trim())
}

/// Whether the code right after a read's call (`after`: past the name and its quote) turns
/// the value into a list or a number: `… |> String.split(",")`, `….split(",")`,
/// `… |> String.to_integer()`, Ruby's `….to_i`.
fn converted_after_the_call(after: &str) -> bool {
    static CONVERSION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"^[[:space:]]*(?:\|>[[:space:]]*|\.)(?:(?:String\.)?split\([[:space:]]*['"][,;]['"]|String\.to_(?:integer|float)\b|Integer\.parse\b|to_[if]\b)"#,
        )
        .expect("the conversion pattern is valid")
    });
    let rest = crate::detect::ecosystems::code::rest_of_call(after, &['"', '\'']);
    let Some(closed) = after[rest.len()..].strip_prefix([')', ']']) else { return false };
    CONVERSION.is_match(closed)
}

/// Whether the value read is compared with a flag's right after the read (`env('X') == true`,
/// `process.env.X === 'true'`, `os.getenv("X", "0") == "1"`): it is a switch, whatever its
/// name says.
fn compared_to_a_flag(after: &str) -> bool {
    static FLAG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"^[[:space:]]*[!=]==?[[:space:]]*(?:(?:true|false|True|False)(?-u:\b)|['"](?i-u:true|false|yes|no|on|off|1|0)['"])"#)
            .expect("the flag comparison pattern is valid")
    });
    // Cheap refusal first: this runs for every read.
    let mut end = after.len().min(400);
    while !after.is_char_boundary(end) {
        end -= 1;
    }
    let near = &after[..end];
    if !near.contains("==") && !near.contains("!=") {
        return false;
    }
    if FLAG.is_match(after) {
        return true;
    }
    let rest = crate::detect::ecosystems::code::rest_of_call(after, &['"', '\'']);
    after[rest.len()..].strip_prefix([')', ']']).is_some_and(|closed| FLAG.is_match(closed))
}

/// Whether a name's last word is a plural credential (`API_KEYS`, `ADMIN_TOKENS`): a list of
/// credentials is still credentials.
fn names_credentials(name: &str) -> bool {
    let last = name.rsplit('_').next().unwrap_or(name);
    ["KEYS", "TOKENS", "SECRETS", "PASSWORDS"].iter().any(|w| last.eq_ignore_ascii_case(w))
}
