//! A dict of defaults that the environment overrides key by key:
//! `DEFAULTS = {"DB_PW": None, "DEBUG": False}` with
//! `{key: os.environ.get(key, value) for key, value in DEFAULTS.items()}` (or the same as a
//! `for` loop, or through a method of the project that reads `os.environ`): each string key
//! of the dict is a variable, optional, with the dict's value as its default.

use std::sync::LazyLock;

use regex::Regex;

use super::{QUOTES, default_is_setting};
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// How far from the `for … in D.items()` the environment read of the key may be: a
/// comprehension puts it before, a loop's body after.
const WINDOW: usize = 400;

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static WALK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"for[[:space:]]+([[:word:]]+)[[:space:]]*,[[:space:]]*[[:word:]]+[[:space:]]+in[[:space:]]+(?:self\.)?([A-Za-z_][[:word:]]*)\.items\(\)")
            .expect("the dict walk pattern is valid")
    });
    if !text.contains(".items()") || !(text.contains("environ") || text.contains("getenv")) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for walk in WALK.captures_iter(text) {
        let (Some(whole), Some(key), Some(dict)) = (walk.get(0), walk.get(1), walk.get(2)) else { continue };
        if dict.as_str() == "environ" || !reads_key_from_env(text, whole.start(), whole.end(), key.as_str()) {
            continue;
        }
        found.extend(entries(text, dict.as_str()));
    }
    found
}

/// Whether the text around a walk passes the walk's `key` to an environment reader
/// (`os.environ.get(key`, `os.getenv(key`, `environ[key]`, `self.__get_env(key`).
fn reads_key_from_env(text: &str, start: usize, end: usize, key: &str) -> bool {
    let Ok(read) = Regex::new(&format!(
        r"[[:word:]]*(?i-u:env)[[:word:]]*(?:\.get)?[(\[][[:space:]]*{}[[:space:]]*[,)\]]",
        regex::escape(key)
    )) else {
        return false;
    };
    let from = text.floor_char_boundary(start.saturating_sub(WINDOW));
    let to = text.ceil_char_boundary((end + WINDOW).min(text.len()));
    read.is_match(&text[from..to])
}

/// The string keys of the dict literal assigned to `dict` (`DEFAULTS = {` at any indent),
/// each a read with its value as the default.
fn entries(text: &str, dict: &str) -> Vec<EnvRead> {
    static ENTRY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?m)^[ \t]*['"]([A-Z][A-Z0-9_]*)['"][[:space:]]*:"#).expect("the dict entry pattern is valid")
    });
    let Ok(assign) =
        Regex::new(&format!(r"(?m)^[ \t]*{}[[:space:]]*(?::[^=\n]*)?=[[:space:]]*\{{", regex::escape(dict)))
    else {
        return Vec::new();
    };
    let Some(open) = assign.find(text) else { return Vec::new() };
    let body_start = open.end() - 1;
    let Some(body) = code::block(&text[body_start..], QUOTES) else { return Vec::new() };
    let offset = body_start + 1;
    ENTRY
        .captures_iter(body)
        .filter_map(|c| {
            let (name, whole) = (c.get(1)?, c.get(0)?);
            let value = code::expression(body[whole.end()..].trim_start(), QUOTES).trim();
            let read = EnvRead::new(
                name.as_str(),
                offset + name.start(),
                Need::Optional,
                "dict of defaults over the environment",
            );
            Some(read.typed_setting(default_is_setting(&format!(", {value}"))))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.setting)).collect()
    }

    #[test]
    fn a_dict_of_defaults_walked_over_the_environment_is_read_key_by_key() {
        let comprehension = "import os\nDEFAULT_CONFIG = {\n    'DB_PW': None,\n    'DEBUG': False,\n    'API_TOKEN': '',\n}\n\nclass C:\n    def get(self, key, value):\n        return os.environ.get(key, value)\n\n    def init(self):\n        self.config.update({\n            key: self.get_env(key, value)\n            for key, value in DEFAULT_CONFIG.items()\n        })\n";
        assert_eq!(
            names(comprehension),
            [("DB_PW".into(), false), ("DEBUG".into(), true), ("API_TOKEN".into(), false)]
        );
        let looped = "import os\nDEFAULTS = {\"SMTP_PASSWORD\": \"\"}\nfor name, default in DEFAULTS.items():\n    settings[name] = os.getenv(name, default)\n";
        assert_eq!(names(looped), [("SMTP_PASSWORD".into(), false)]);
    }

    #[test]
    fn a_dict_walked_for_another_purpose_is_no_read() {
        let other = "import os\nCOLORS = {'RED': 1}\nfor key, value in COLORS.items():\n    print(key, value)\nX = os.getenv('HOME')\n";
        assert!(reads(other).is_empty());
        let environ = "import os\nfor key, value in os.environ.items():\n    print(os.environ.get(key))\n";
        assert!(reads(environ).is_empty());
    }
}
