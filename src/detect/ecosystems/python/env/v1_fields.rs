//! pydantic v1's per-field environment names: `class Config:` with
//! `fields = {"pg_password": {"env": "PGPASSWORD"}}` (or a list of names, each tried in turn)
//! reads the field from those variables instead of `env_prefix` + its name
//! (docs.pydantic.dev/1.10, "Settings management: environment variable names").

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;

const QUOTES: &[char] = &['"', '\''];

/// The fields a settings class body renames this way: (field, upper case; its variables).
pub(super) fn renamed(body: &str) -> Vec<(String, Vec<String>)> {
    static FIELDS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]+fields[[:space:]]*=[[:space:]]*\{").expect("the Config.fields pattern is valid")
    });
    static ENTRY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"['"]([A-Za-z_][[:word:]]*)['"][[:space:]]*:[[:space:]]*\{[[:space:]]*['"]env['"][[:space:]]*:[[:space:]]*(\[[^\]]*\]|\{[^}]*\}|['"][^'"\n]+['"])"#,
        )
        .expect("the Config.fields entry pattern is valid")
    });
    static NAME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#).expect("the env name pattern is valid"));
    let Some(open) = FIELDS.find(body).map(|m| m.end() - 1) else { return Vec::new() };
    let Some(block) = code::block(&body[open..], QUOTES) else { return Vec::new() };
    ENTRY
        .captures_iter(block)
        .filter_map(|c| {
            let names = NAME.captures_iter(c.get(2)?.as_str()).filter_map(|n| n.get(1)).map(|n| n.as_str().to_string());
            Some((c.get(1)?.as_str().to_ascii_uppercase(), names.collect()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_renames_its_fields() {
        let body = "    PGHOST: str | None = None\n    class Config:\n        env_prefix = \"TAKAHE_\"\n        fields = {\n            \"PGHOST\": {\"env\": \"PGHOST\"},\n            'pg_password': {'env': ['PGPASSWORD', 'DB_PASSWORD']},\n            \"other\": {\"alias\": \"x\"},\n        }\n";
        assert_eq!(
            renamed(body),
            [
                ("PGHOST".to_string(), vec!["PGHOST".to_string()]),
                ("PG_PASSWORD".to_string(), vec!["PGPASSWORD".to_string(), "DB_PASSWORD".to_string()]),
            ]
        );
        assert!(renamed("    x: int = 1\n").is_empty());
    }
}
