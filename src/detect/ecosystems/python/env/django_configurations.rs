//! django-configurations: a settings class (`class Base(Configuration)`) whose attributes are
//! values read from the environment — `SECRET_KEY = values.SecretValue()` reads
//! `DJANGO_SECRET_KEY`; `environ_name="X"` names the variable's part after the prefix,
//! `environ_prefix=None` (or `"APP"`) changes the prefix, `environ=False` reads nothing. A
//! value may also stand inside a dict (`"PASSWORD": values.Value(…, environ_name="DB_PASSWORD")`),
//! named by its `environ_name`. `SecretValue` has no default and holds a credential (as does a
//! project's own `*Secret*Value`, which may fall back to a default); a value
//! with `environ_required=True` stops the app without it; a boolean, number, list or path value
//! is a setting. A project's own value class (`SecretFileValue`) reads the same way.

use std::sync::LazyLock;

use regex::Regex;

use super::QUOTES;
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// The library's prefix when a value names none.
const DEFAULT_PREFIX: &str = "DJANGO";

/// Words in a value class's name that make its value a setting.
const SETTING_CLASSES: &[&str] =
    &["Boolean", "Integer", "Float", "Decimal", "List", "Tuple", "Set", "Path", "Regex", "Positive", "Dict", "Backend"];

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static VALUE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)(?:^[ \t]*([A-Z][A-Z0-9_]*)[ \t]*=[ \t]*)?(?:values\.)?((?:[A-Z][A-Za-z]*)?Value)\(")
            .expect("the django-configurations value pattern is valid")
    });
    static NAME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)environ_name[[:space:]]*=[[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#)
            .expect("the environ_name pattern is valid")
    });
    static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)environ_prefix[[:space:]]*=[[:space:]]*(?:None|['"]([A-Za-z0-9_]*)['"])"#)
            .expect("the environ_prefix pattern is valid")
    });
    if !text.contains("configurations") || !text.contains("Value(") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for c in VALUE.captures_iter(text) {
        let (Some(class), Some(whole)) = (c.get(2), c.get(0)) else { continue };
        // Another module's class (`models.Value(…)`, Django's query expression) is no setting.
        let before = &text[..class.start()];
        if before.ends_with('.') && !before.ends_with("values.") {
            continue;
        }
        let arguments = code::rest_of_call(&text[whole.end()..], QUOTES);
        if arguments.contains("environ=False") {
            continue;
        }
        let named = NAME.captures(arguments).and_then(|n| n.get(1));
        let (part, at) = match (named, c.get(1)) {
            (Some(name), _) => (name.as_str(), whole.end() + name.start()),
            (None, Some(attribute)) => (attribute.as_str(), attribute.start()),
            (None, None) => continue,
        };
        let prefix = match PREFIX.captures(arguments) {
            Some(p) => p.get(1).map_or(String::new(), |p| p.as_str().trim_end_matches('_').to_string()),
            None => DEFAULT_PREFIX.to_string(),
        };
        let name = if prefix.is_empty() { part.to_string() } else { format!("{prefix}_{part}") };
        let secret = class.as_str().contains("Secret");
        // A first argument that is no keyword is the default.
        let first = code::expression(arguments.trim_start(), QUOTES).trim();
        let defaulted = !first.is_empty() && !first.contains('=') && first != "None";
        // The library's `SecretValue` refuses to start without a value; a project's own class
        // (`SecretFileValue(None, …)`) falls back to its default like any value.
        let need = if arguments.contains("environ_required=True") || class.as_str() == "SecretValue" && !defaulted {
            Need::Required
        } else {
            Need::Optional
        };
        let setting = SETTING_CLASSES.iter().any(|word| class.as_str().contains(word));
        found.push(
            EnvRead::new(name, at, need, "django-configurations value").typed_setting(setting).marked_secret(secret),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, Need, bool, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.need, r.setting, r.marked_secret)).collect()
    }

    #[test]
    fn configuration_values_read_their_variables() {
        let text = "from configurations import Configuration, values\n\nclass Base(Configuration):\n    SECRET_KEY = values.SecretValue()\n    DEBUG = values.BooleanValue(False)\n    DATA_DIR = values.Value('/data', environ_name='DATA_DIR')\n    DATABASES = {\n        'default': {\n            'PASSWORD': SecretFileValue(\n                'pass', environ_name='DB_PASSWORD', environ_prefix=None\n            ),\n            'PORT': values.IntegerValue(5432, environ_name='DB_PORT', environ_prefix=None),\n        }\n    }\n    LIVEKIT_API_SECRET = values.Value(None, environ_prefix=None, environ_required=True)\n    INTERNAL = values.Value('x', environ=False)\n";
        assert_eq!(
            names(text),
            [
                ("DJANGO_SECRET_KEY".into(), Need::Required, false, true),
                ("DJANGO_DEBUG".into(), Need::Optional, true, false),
                ("DJANGO_DATA_DIR".into(), Need::Optional, false, false),
                ("DB_PASSWORD".into(), Need::Optional, false, true),
                ("DB_PORT".into(), Need::Optional, true, false),
                ("LIVEKIT_API_SECRET".into(), Need::Required, false, false),
            ]
        );
        // Without the library, a class named like a value reads nothing.
        assert!(reads("class X:\n    A = SomeValue(1)\n").is_empty());
        assert!(reads("import configurations\nq = qs.annotate(x=models.Value('a'))\n").is_empty());
    }
}
