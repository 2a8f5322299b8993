//! Tables an app keeps of its settings, each entry naming the variable that sets it in a
//! property that says so (`{ key: 'cookieSecret', envVar: 'APP_COOKIE_SECRET', default: '' }`,
//! `apiKeyEnvVar: 'OPENAI_API_KEY'`): the app's config loader reads each named variable. An
//! entry's `default` makes it optional; a boolean or number default types it as a setting.

use std::sync::LazyLock;

use regex::Regex;

use super::convict::{has_default, object_spans};
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

const VIA: &str = "settings table entry";

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static PROPERTY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)(?:[a-z][A-Za-z0-9]*EnvVar|envVar|[a-z][A-Za-z0-9]*EnvVarName|envVarName|envName)[[:space:]]*:[[:space:]]*['"`]([A-Z][A-Z0-9_]*)['"`]"#)
            .expect("the env-var property pattern is valid")
    });
    static SCALAR_DEFAULT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)default[[:space:]]*:[[:space:]]*(?:true|false|-?[0-9][0-9_.]*)[[:space:]]*[,}\n]")
            .expect("the scalar default pattern is valid")
    });
    let mut found = Vec::new();
    let mut objects = None;
    for c in PROPERTY.captures_iter(text) {
        let Some(name) = c.get(1) else { continue };
        if !code::is_upper_snake(name.as_str()) {
            continue;
        }
        let objects = objects.get_or_insert_with(|| object_spans(text));
        let entry = objects
            .iter()
            .filter(|span| span.contains(&name.start()))
            .min_by_key(|span| span.len())
            .map_or("", |span| &text[span.clone()]);
        let need = if has_default(entry) { Need::Optional } else { Need::Unstated };
        found.push(EnvRead::new(name.as_str(), name.start(), need, VIA).typed_setting(SCALAR_DEFAULT.is_match(entry)));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_name_their_variables() {
        let text = "const configItems = [\n  { key: 'cookieSecret', envVar: 'APP_COOKIE_SECRET', default: 'change-me' },\n  \
            { key: 'cookieSecure', envVar: 'APP_COOKIE_SECURE', default: false },\n  { key: 'port', envVar: 'APP_PORT', default: 80 },\n  \
            { key: 'admin', envVar: 'APP_ADMIN_PASSWORD' },\n];\nconst provider = { apiKeyEnvVar: 'OPENAI_API_KEY' };\nconst x = { envVar: 'lower' };\n";
        let rows: Vec<(String, Need, bool)> = reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect();
        assert_eq!(
            rows,
            [
                ("APP_COOKIE_SECRET".into(), Need::Optional, false),
                ("APP_COOKIE_SECURE".into(), Need::Optional, true),
                ("APP_PORT".into(), Need::Optional, true),
                ("APP_ADMIN_PASSWORD".into(), Need::Unstated, false),
                ("OPENAI_API_KEY".into(), Need::Unstated, false),
            ]
        );
    }

    #[test]
    fn a_plain_env_property_is_not_an_entry() {
        assert!(reads("const job = { env: 'PRODUCTION', environment: 'STAGING' };\n").is_empty());
    }
}
