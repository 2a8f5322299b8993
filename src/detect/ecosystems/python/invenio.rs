//! Invenio (InvenioRDM, Zenodo): an instance's `invenio.cfg` sets the app's configuration, and
//! invenio-config lets the environment override any of its keys as `INVENIO_<KEY>`
//! (`INVENIO_SECRET_KEY`). A key the file leaves to give (`"CHANGE ME"`, `None`, a dict of
//! such: `{"consumer_key": "CHANGE ME", …}`) or whose value carries a password is a variable
//! the deployment sets; the secrets signal judges each by its value (see
//! [`EnvRead::settings_key`]), a dict by its first string.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// The instance configuration file Invenio loads.
pub const CONFIG_FILE: &str = "invenio.cfg";

/// The prefix invenio-config reads every key under.
const PREFIX: &str = "INVENIO_";

/// The `INVENIO_` variables `text` (an `invenio.cfg`) gives keys for, each with its value as
/// the file gives it: a string's contents, `""` for `None`, a dict's first string. Other
/// values (numbers, flags, expressions) are settings, left out.
pub fn reads(text: &str) -> Vec<EnvRead> {
    static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*([A-Z][A-Z0-9_]*)[ \t]*=[ \t]*(.*)$").expect("the Invenio assignment pattern is valid")
    });
    static STRING: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"^(?:"([^"\n]*)"|'([^'\n]*)')[ \t]*(?:#.*)?$"#).expect("valid"));
    static DICT_STRING: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#":[[:space:]]*(?:"([^"\n]*)"|'([^'\n]*)')"#).expect("valid"));
    let mut found = Vec::new();
    for c in ASSIGNMENT.captures_iter(text) {
        let (Some(key), Some(value)) = (c.get(1), c.get(2)) else { continue };
        let value_text = value.as_str().trim();
        let given = if let Some(s) = STRING.captures(value_text) {
            s.get(1).or(s.get(2)).map_or("", |m| m.as_str()).to_string()
        } else if value_text == "None" || value_text.starts_with("None ") {
            String::new()
        } else if value_text.starts_with('{') {
            let Some(dict) = code::block(&text[value.start() + value.as_str().find('{').unwrap_or(0)..], &['"', '\''])
            else {
                continue;
            };
            // A dict of credentials (`{"consumer_key": …, "consumer_secret": …}`) is given as
            // its first string: a stand-in there leaves the whole to give.
            let Some(first) = DICT_STRING.captures(dict).and_then(|s| s.get(1).or(s.get(2))) else { continue };
            first.as_str().to_string()
        } else {
            continue;
        };
        let read = EnvRead::new(format!("{PREFIX}{}", key.as_str()), key.start(), Need::Optional, "Invenio config key")
            .of_settings_key(key.as_str(), given);
        found.push(read);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_overridden_under_the_invenio_prefix() {
        let text = "SECRET_KEY = \"CHANGE_ME\"\nSITE_UI_URL = \"https://127.0.0.1\"\nDEBUG = False\nMETRICS_API_KEY = None\n\
            GITHUB_APP_CREDENTIALS = {\n    \"consumer_key\": \"CHANGE ME\",\n    \"consumer_secret\": \"CHANGE ME\",\n}\n\
            THEME_COLORS = {\"primary\": \"#fff\"}\nFLAGS = {}\nif X:\n    pass\nelse:\n    SQLALCHEMY_DATABASE_URI = \"postgresql://app:pw@localhost/app\"\n";
        let rows: Vec<(String, String)> =
            reads(text).into_iter().map(|r| (r.name, r.settings_key.map(|k| k.value).unwrap_or_default())).collect();
        assert_eq!(
            rows,
            [
                ("INVENIO_SECRET_KEY".into(), "CHANGE_ME".into()),
                ("INVENIO_SITE_UI_URL".into(), "https://127.0.0.1".into()),
                ("INVENIO_METRICS_API_KEY".into(), String::new()),
                ("INVENIO_GITHUB_APP_CREDENTIALS".into(), "CHANGE ME".into()),
                ("INVENIO_THEME_COLORS".into(), "#fff".into()),
                ("INVENIO_SQLALCHEMY_DATABASE_URI".into(), "postgresql://app:pw@localhost/app".into()),
            ]
        );
    }
}
