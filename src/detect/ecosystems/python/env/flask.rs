//! Flask's configuration from the environment: `app.config.from_prefixed_env()` (Flask 2.1)
//! loads every variable named `FLASK_<KEY>` (or `<prefix>_<KEY>` for `prefix="X"`) into the
//! config key `<KEY>`, so each key of the app's config classes is a variable under that
//! prefix. Older apps walk `os.environ` for a prefix themselves, the same shape.

use std::sync::LazyLock;

use regex::Regex;

use super::{QUOTES, classes};
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// The prefix `text` has Flask's config load variables under: `from_prefixed_env()` gives
/// `FLASK_`, `from_prefixed_env(prefix="APP")` or `("APP")` gives `APP_`; a loop over
/// `os.environ` that keeps the names starting with a literal (or a parameter's literal
/// default, `def load(app, prefix="APP_")`) and stores them in a config gives that literal.
pub(in crate::detect::ecosystems::python) fn prefix(text: &str) -> Option<String> {
    static PREFIXED_ENV: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"\.from_prefixed_env\([[:space:]]*(?:(?:prefix[[:space:]]*=[[:space:]]*)?['"]([A-Za-z0-9_]*)['"])?"#,
        )
        .expect("the from_prefixed_env pattern is valid")
    });
    if let Some(c) = PREFIXED_ENV.captures(text) {
        let prefix = c.get(1).map_or("FLASK", |p| p.as_str());
        return Some(format!("{}_", prefix.trim_end_matches('_')));
    }
    walked_prefix(text)
}

/// `for key, value in os.environ.items(): if key.startswith(P): … config[…] = value`, with
/// `P` a literal or a parameter of the function with a literal default; or the same as a
/// comprehension that strips the prefix from each key (see [`comprehended_prefix`]).
fn walked_prefix(text: &str) -> Option<String> {
    if let Some(prefix) = comprehended_prefix(text) {
        return Some(prefix);
    }
    static WALK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"for[[:space:]]+([[:word:]]+)[[:space:]]*,[[:space:]]*[[:word:]]+[[:space:]]+in[[:space:]]+os\.environ\.items\(\)[[:space:]]*:")
            .expect("the environ walk pattern is valid")
    });
    static STARTS_WITH: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"([[:word:]]+)\.startswith\([[:space:]]*(?:['"]([A-Za-z0-9_]+)['"]|([A-Za-z_][[:word:]]*))[[:space:]]*\)"#)
            .expect("the startswith pattern is valid")
    });
    let walk = WALK.captures(text)?;
    let key = walk.get(1)?.as_str();
    let body = &text[walk.get(0)?.end()..];
    let body = &body[..body.len().min(600)];
    if !body.contains("config[") {
        return None;
    }
    let test = STARTS_WITH.captures_iter(body).find(|c| c.get(1).is_some_and(|v| v.as_str() == key))?;
    if let Some(literal) = test.get(2) {
        return Some(literal.as_str().to_string());
    }
    let parameter = test.get(3)?.as_str();
    let default =
        Regex::new(&format!(r#"def[[:space:]]+[[:word:]]+\([^)]*(?-u:\b){parameter}[[:space:]]*(?::[[:space:]]*[[:word:]]+[[:space:]]*)?=[[:space:]]*['"]([A-Za-z0-9_]+)['"]"#))
            .ok()?;
    let before = &text[..walk.get(0)?.start()];
    default.captures_iter(before).last()?.get(1).map(|p| p.as_str().to_string())
}

/// `{key.replace("APP_", ""): os.environ.get(key) for key in os.environ.keys() if
/// key.startswith("APP_")}` (or `key[len(P):]`, `key.removeprefix(P)`): a config loaded from
/// every variable under a literal prefix, the prefix stripped.
fn comprehended_prefix(text: &str) -> Option<String> {
    static COMPREHENSION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"\{[[:space:]]*([A-Za-z_][[:word:]]*)(\.replace\(|\.removeprefix\(|\[[[:space:]]*len\(|\[[[:space:]]*[0-9]+[[:space:]]*:)[^{}]*?for[[:space:]]+([A-Za-z_][[:word:]]*)(?:[[:space:]]*,[[:space:]]*[A-Za-z_][[:word:]]*)?[[:space:]]+in[[:space:]]+[^{}]*?if[[:space:]]+([A-Za-z_][[:word:]]*)\.startswith\([[:space:]]*['"]([A-Za-z0-9_]+)['"][[:space:]]*\)"#,
        )
        .expect("the environ comprehension pattern is valid")
    });
    if !text.contains("environ") || !text.contains(".startswith(") {
        return None;
    }
    COMPREHENSION.captures_iter(text).find_map(|c| {
        let (key, looped, tested) = (c.get(1)?.as_str(), c.get(3)?.as_str(), c.get(4)?.as_str());
        let comprehension = c.get(0)?.as_str();
        (key == looped && key == tested && comprehension.contains("environ"))
            .then(|| c.get(5).map(|p| p.as_str().to_string()))?
    })
}

/// The keys of the app's config classes (Flask's convention: `class Config:`,
/// `class ProductionConfig(Config):`; `from_object` keeps their upper-case attributes), each
/// a variable only under the prefix the project loads its config from (see [`prefix`]):
/// optional, the class gives the value; a boolean or number is a setting. A key the class
/// already reads from the environment (`SECRET_KEY = os.environ["SECRET_KEY"]`) is read so.
pub(super) fn config_keys(text: &str) -> Vec<EnvRead> {
    static KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^([ \t]+)([A-Z][A-Z0-9_]*)[ \t]*(?::[^=\n]*)?=[ \t]*([^\n]*)")
            .expect("the config key pattern is valid")
    });
    static SCALAR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:True|False|-?[0-9][0-9_.]*|timedelta\(.*)[[:space:]]*(?:#.*)?$")
            .expect("the scalar pattern is valid")
    });
    // `"DB_PASSWORD": "…",` in a dict literal; `self.get("DB_PASSWORD")`.
    static DICT_ENTRY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?m)^[ \t]*['"]([A-Z][A-Z0-9_]*)['"][[:space:]]*:[ \t]*([^\n]*?),?[ \t]*$"#)
            .expect("the config dict entry pattern is valid")
    });
    static LOOKUP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"self\.get\([[:space:]]*['"]([A-Z][A-Z0-9_]*)['"]"#).expect("the config lookup pattern is valid")
    });
    static DICT_ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^([ \t]*)[A-Za-z_][[:word:]]*[ \t]*(?::[^=\n]*)?=[ \t]*\{")
            .expect("the dict attribute pattern is valid")
    });
    let mut found = Vec::new();
    for class in classes(text).iter().filter(|class| class.name.ends_with("Config")) {
        let body = &text[class.body.clone()];
        let indent = body.lines().find(|l| !l.trim().is_empty()).map_or(0, |l| l.len() - l.trim_start().len());
        for c in KEY.captures_iter(body) {
            let (Some(depth), Some(key), Some(value)) = (c.get(1), c.get(2), c.get(3)) else { continue };
            let value = value.as_str().trim();
            if depth.as_str().len() != indent || value.contains("environ") || value.contains("getenv") {
                continue;
            }
            let read = EnvRead::new(key.as_str(), class.body.start + key.start(), Need::Optional, "Flask config key");
            found.push(read.under_project_prefix().typed_setting(SCALAR.is_match(value)));
        }
        // A config that is a dict (`class Config(dict)`): its `defaults = {"DB_PASSWORD": …}`
        // and the keys its methods look up (`self.get("REDIS_PASSWORD")`).
        if class.bases.contains(&"dict") {
            let mut seen = Vec::new();
            // The dict literals the class itself holds (not those its methods build), and the
            // methods' lookups.
            let held: Vec<std::ops::Range<usize>> = DICT_ATTRIBUTE
                .captures_iter(body)
                .filter(|c| c.get(1).is_some_and(|depth| depth.as_str().len() == indent))
                .filter_map(|c| {
                    let open = c.get(0)?.end() - 1;
                    code::block(&body[open..], QUOTES).map(|inside| open..open + inside.len() + 2)
                })
                .collect();
            let entries = DICT_ENTRY
                .captures_iter(body)
                .filter_map(|c| Some((c.get(1)?, c.get(2))))
                .filter(|(key, _)| held.iter().any(|dict| dict.contains(&key.start())));
            let lookups = LOOKUP.captures_iter(body).filter_map(|c| Some((c.get(1)?, None)));
            for (key, value) in entries.chain(lookups) {
                if seen.contains(&key.as_str()) {
                    continue;
                }
                seen.push(key.as_str());
                let setting = value.is_some_and(|value| SCALAR.is_match(value.as_str().trim()));
                let read =
                    EnvRead::new(key.as_str(), class.body.start + key.start(), Need::Optional, "config dict key");
                found.push(read.under_project_prefix().typed_setting(setting));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flask_loads_its_config_under_a_prefix() {
        assert_eq!(prefix("app.config.from_prefixed_env()\n").as_deref(), Some("FLASK_"));
        assert_eq!(prefix("app.config.from_prefixed_env(prefix=\"SHOP\")\n").as_deref(), Some("SHOP_"));
        assert_eq!(prefix("app.config.from_prefixed_env('SHOP')\n").as_deref(), Some("SHOP_"));
        let walk = "def config_from_env(app, prefix=\"SHOP_\"):\n    for key, value in os.environ.items():\n        if key.startswith(prefix):\n            app.config[key[len(prefix):]] = value\n";
        assert_eq!(prefix(walk).as_deref(), Some("SHOP_"));
        let literal = "for name, value in os.environ.items():\n    if name.startswith(\"APP_\"):\n        config[name[4:]] = value\n";
        assert_eq!(prefix(literal).as_deref(), Some("APP_"));
        let comprehension = "keys = os.environ.keys()\nconfig = {key.replace('MAXKB_', ''): os.environ.get(key) for key in keys if key.startswith('MAXKB_')}\n";
        assert_eq!(prefix(comprehension).as_deref(), Some("MAXKB_"));
        let sliced = "cfg = {k[len(P):]: v for k, v in os.environ.items() if k.startswith(\"APP_\")}\n";
        assert_eq!(prefix(sliced).as_deref(), Some("APP_"));
        // A comprehension that keeps the names as they are is no config under a prefix.
        assert_eq!(prefix("names = {k: v for k, v in os.environ.items() if k.startswith('LC_')}\n"), None);
        // A walk that stores nothing in a config loads nothing.
        assert_eq!(
            prefix("for key, value in os.environ.items():\n    if key.startswith(\"X_\"):\n        print(key)\n"),
            None
        );
    }

    #[test]
    fn a_config_dict_gives_its_defaults_and_the_keys_it_looks_up() {
        let text = "class Config(dict):\n    defaults = {\n        # the database\n        \"DB_PASSWORD\": \"Password123@postgres\",\n        'DB_PORT': 5432,\n        'DEBUG': False,\n    }\n\n    def get_cache_setting(self):\n        return {\n            'PASSWORD': self.get('REDIS_PASSWORD'),\n            'DB': self.get('DB_PASSWORD'),\n        }\n";
        let got: Vec<(String, bool, bool)> =
            config_keys(text).into_iter().map(|r| (r.name, r.needs_prefix, r.setting)).collect();
        assert_eq!(
            got,
            [
                ("DB_PASSWORD".into(), true, false),
                ("DB_PORT".into(), true, true),
                ("DEBUG".into(), true, true),
                ("REDIS_PASSWORD".into(), true, false),
            ]
        );
    }

    #[test]
    fn config_classes_give_the_keys() {
        let text = "class Config(object):\n    DEBUG = False\n    SECRET_KEY = \"change me\"\n    MAIL_PASSWORD = \"\"\n    DATABASE_URL = os.environ.get(\"DATABASE_URL\")\n    PER_PAGE = 20\n\n    def helper(self):\n        LOCAL_KEY = 1\n\nclass Unrelated:\n    API_KEY = \"x\"\n";
        let got: Vec<(String, bool, bool)> =
            config_keys(text).into_iter().map(|r| (r.name, r.needs_prefix, r.setting)).collect();
        assert_eq!(
            got,
            [
                ("DEBUG".into(), true, true),
                ("SECRET_KEY".into(), true, false),
                ("MAIL_PASSWORD".into(), true, false),
                ("PER_PAGE".into(), true, true),
            ]
        );
    }
}
