//! Reads by a string constant of the file rather than a literal: the constant's value is the
//! variable's name.

use std::sync::LazyLock;

use regex::Regex;

use super::{arguments, passes_default};
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// `os.environ.get(ConfigKey.SECRET_KEY)`, `os.getenv(TOKEN_VAR)`: a read of the name a
/// string constant of the file holds (`SECRET_KEY = "SECRET_KEY"` in `class ConfigKey`,
/// `TOKEN_VAR = "APP_TOKEN"`). Optional like a literal read with a default.
pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static READ: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?-u:\b)(?:(?P<index>os\.environ|environ)\[|(?:os\.environ\.get|os\.getenv|environ\.get|getenv)\()[[:space:]]*(?:(?P<class>[A-Z][[:word:]]*)\.)?(?P<constant>[A-Z][A-Z0-9_]*)[[:space:]]*[\]),]",
        )
        .expect("the Python constant environment-read pattern is valid")
    });
    READ.captures_iter(text)
        .filter_map(|c| {
            let (whole, constant) = (c.get(0)?, c.name("constant")?);
            let class = c.name("class").map(|m| m.as_str());
            let after = &text[whole.end() - 1..];
            let need = if c.name("index").is_some() {
                Need::Required
            } else if passes_default(arguments(after)) {
                Need::Optional
            } else {
                Need::Unstated
            };
            let via = "os.getenv of a constant";
            match string_constant(text, class, constant.as_str()) {
                Some(name) => Some(EnvRead::new(name, constant.start(), need, via)),
                // Imported from another module of the project (`from app.const import TOKEN_VAR`).
                None if class.is_none() && assigned_string(text, constant.as_str(), "").is_none() => {
                    Some(EnvRead::of_constant(constant.as_str(), constant.start(), need, via))
                }
                None => None,
            }
        })
        .collect()
}

/// The module's string constants that hold a variable's name (`PLUS_ENV_VAR = "PLUS_API_KEY"`),
/// for the reads of other modules (see [`EnvRead::by_constant`]).
pub fn name_constants(text: &str) -> Vec<(String, String)> {
    static CONSTANT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?m)^([A-Z][A-Z0-9_]*)[[:space:]]*(?::[[:space:]]*(?:str|Final(?:\[str\])?)[[:space:]]*)?=[[:space:]]*['"]([A-Z][A-Z0-9_]*)['"][[:space:]]*$"#,
        )
        .expect("the Python name-constant pattern is valid")
    });
    CONSTANT
        .captures_iter(text)
        .filter(|c| code::is_upper_snake(&c[2]))
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect()
}

/// The variable name the string constant `constant` holds: an assignment of the module, or
/// of `class`'s body when a class is named; `None` unless it is spelled like a variable.
fn string_constant(text: &str, class: Option<&str>, constant: &str) -> Option<String> {
    let from = match class {
        Some(class) => {
            let at =
                Regex::new(&format!(r"(?m)^class[[:space:]]+{}(?-u:\b)", regex::escape(class))).ok()?.find(text)?;
            at.end()
        }
        None => 0,
    };
    let value = assigned_string(&text[from..], constant, "[ \t]*")?;
    code::is_upper_snake(value).then(|| value.to_string())
}

/// The word (`[A-Za-z0-9_]*`) a module-level constant of `text` is assigned as a string:
/// `ENV_PREFIX = "APP_"`.
pub(in crate::detect::ecosystems::python) fn module_string<'t>(text: &'t str, constant: &str) -> Option<&'t str> {
    assigned_string(text, constant, "")
}

/// The word `constant` is assigned as a string on a line of its own, at `indent`.
fn assigned_string<'t>(text: &'t str, constant: &str, indent: &str) -> Option<&'t str> {
    let assignment = Regex::new(&format!(
        r#"(?m)^{indent}{}[[:space:]]*(?::[[:space:]]*str[[:space:]]*)?=[[:space:]]*['"]([A-Za-z0-9_]*)['"][[:space:]]*$"#,
        regex::escape(constant)
    ))
    .ok()?;
    Some(assignment.captures(text)?.get(1)?.as_str())
}
