//! django-environ's scheme: `environ.Env(DEBUG=(bool, False), SECRET_KEY=str)` (or its
//! `FileAwareEnv`, which also reads `X_FILE`) declares each
//! variable's cast and default once, and every `env("DEBUG")` of the file takes them — a read
//! of a declared bool is a setting, one with a default is optional.

use std::sync::LazyLock;

use regex::Regex;

use super::QUOTES;
use crate::detect::ecosystems::code;

/// A variable django-environ's scheme declares: `Env(DEBUG=(bool, False), SECRET=str)`.
pub(super) struct SchemeEntry {
    pub(super) name: String,
    /// The cast, lower case (`bool`, `str`, `list`).
    pub(super) cast: String,
    /// A `(cast, default)` pair: reads of the name fall back to the default.
    pub(super) has_default: bool,
}

/// The scheme of the file's `Env(…)` constructors: each keyword argument a variable, its cast
/// and whether it has a default, which every `env("X")` of it then takes.
pub(super) fn environ_scheme(text: &str) -> Vec<SchemeEntry> {
    static CONSTRUCTOR: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?-u:\b)(?:FileAware)?Env\(").expect("the Env constructor pattern is valid"));
    static ENTRY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*=[[:space:]]*(\()?[[:space:]]*([A-Za-z_][[:word:].]*)",
        )
        .expect("the scheme entry pattern is valid")
    });
    let mut found = Vec::new();
    if !CONSTRUCTOR.is_match(text) {
        return found;
    }
    // The scheme's comments are prose (`# the 'async' mode`): blanked, they open no quote.
    let blanked = code::without_line_comments(text, "#", QUOTES);
    let text = blanked.as_str();
    for m in CONSTRUCTOR.find_iter(text) {
        let Some(arguments) = code::block(&text[m.end() - 1..], QUOTES) else { continue };
        for joined in super::call_arguments(arguments) {
            if let Some(c) = ENTRY.captures(&joined)
                && let (Some(name), Some(cast)) = (c.get(1), c.get(3))
            {
                let cast = cast.as_str().rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
                let tuple = c.get(2).is_some();
                // The tuple's own comma is inside its brackets: `(bool, False)`.
                let after_cast = joined[c.get(0).map_or(0, |w| w.end())..].trim_start();
                let has_default =
                    tuple && after_cast.strip_prefix(',').is_some_and(|default| !default.trim_start().starts_with(')'));
                found.push(SchemeEntry { name: name.as_str().to_string(), cast, has_default });
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scheme_gives_each_variable_its_cast_and_default() {
        let text = "env = environ.FileAwareEnv(\n    # flags\n    DD_DEBUG=(bool, False),\n    DD_HOSTS=(list, []),  # the 'hosts\n    DD_SECRET_KEY=(str, \"\"),\n    DD_API_TOKEN=str,\n    DD_SALT=(str,),\n)\n";
        let got: Vec<(String, String, bool)> =
            environ_scheme(text).into_iter().map(|e| (e.name, e.cast, e.has_default)).collect();
        let entry = |name: &str, cast: &str, default: bool| (name.to_string(), cast.to_string(), default);
        assert_eq!(
            got,
            [
                entry("DD_DEBUG", "bool", true),
                entry("DD_HOSTS", "list", true),
                entry("DD_SECRET_KEY", "str", true),
                entry("DD_API_TOKEN", "str", false),
                entry("DD_SALT", "str", false),
            ]
        );
    }
}
