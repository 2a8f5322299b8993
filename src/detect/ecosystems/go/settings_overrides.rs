//! Settings files whose items the environment overrides by a name built from section and key:
//! - an INI file (`conf/app.ini`, go-ini's format) whose code builds `<PREFIX>_<SECTION>_<KEY>`
//!   (`fmt.Sprintf("%s_%s_%s", envPrefix, strings.ToUpper(section), strings.ToUpper(key))`,
//!   `"GF_" + strings.ToUpper(section) + "_" + strings.ToUpper(key)`) and reads it;
//! - a TOML file (`config.toml`) that koanf loads, with an env provider that turns `__` into
//!   the key path's dots (`env.Provider(".", env.Opt{Prefix: "APP_", TransformFunc: … "__", "."})`):
//!   `[db] password` is `APP_DB__PASSWORD`.
//!
//! The file's items are unprefixed reads under the prefix the code uses (see
//! [`EnvRead::needs_prefix`]), each with the value the file gives: an item the file leaves to
//! give (`passwd =`, `password = ""`) is a variable to set.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{EnvRead, Need};
use crate::rel_path::RelPath;

/// INI files that configure a tool, not the app.
const TOOL_FILES: &[&str] =
    &["tox.ini", "pytest.ini", "mypy.ini", "setup.cfg", "php.ini", "uwsgi.ini", "alembic.ini", "desktop.ini"];

/// Words of a TOML file's name that make it the app's settings (`config.toml`,
/// `config.sample.toml`, `settings.toml`).
const TOML_SETTINGS_WORDS: &[&str] = &["config", "settings"];

/// Whether `name` is an INI or TOML file that may hold the app's settings.
pub fn is_settings_file(name: &str) -> bool {
    if let Some(stem) = name.strip_suffix(".toml") {
        return stem.split(['.', '-', '_']).any(|w| TOML_SETTINGS_WORDS.iter().any(|s| w.eq_ignore_ascii_case(s)));
    }
    name.ends_with(".ini") && !TOOL_FILES.contains(&name)
}

/// The prefix koanf's env provider loads nested keys under, with `__` for the key path's dots.
pub fn nested_prefix(text: &str) -> Option<String> {
    static NESTED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)Replace(?:All)?\([^()\n]*\)?[^\n]*"__"[[:space:]]*,[[:space:]]*"\.""#)
            .expect("the nested-key replacement pattern is valid")
    });
    if !NESTED.is_match(text) {
        return None;
    }
    super::env::namespace(text)
}

/// The prefix the code of `text` builds override names under, with its trailing `_`
/// (`EBK_`), when the file reads the environment and builds the names one way. A builder
/// whose prefix constant names a file path (`…FilePathEnvNamePrefix`: the `_FILE` convention,
/// a path to read the value from) is left aside.
pub fn prefix(text: &str) -> Option<String> {
    static BUILDER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r#"fmt\.Sprintf\([[:space:]]*"(?:%s_|([A-Z][A-Z0-9]*_))%s_%s"[[:space:]]*,[[:space:]]*"#,
            r#"(?:([A-Za-z_][[:word:]]*)[[:space:]]*,[[:space:]]*)?strings\.ToUpper\("#,
            r#"|"([A-Z][A-Z0-9]*_)"[[:space:]]*\+[[:space:]]*strings\.ToUpper\([^()\n]*\)[[:space:]]*\+[[:space:]]*"_"[[:space:]]*\+[[:space:]]*strings\.ToUpper\("#,
        ))
        .expect("the override-name builder pattern is valid")
    });
    if !text.contains("os.Getenv(") && !text.contains("os.LookupEnv(") {
        return None;
    }
    let mut prefixes: Vec<String> = Vec::new();
    for c in BUILDER.captures_iter(text) {
        let prefix = if let Some(literal) = c.get(1).or(c.get(3)) {
            literal.as_str().to_string()
        } else {
            let Some(constant) = c.get(2) else { continue };
            let lower = constant.as_str().to_ascii_lowercase();
            if lower.contains("file") || lower.contains("path") {
                continue;
            }
            let Some(value) = super::envconfig::string_constant(text, constant.as_str()) else { continue };
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()) {
                continue;
            }
            format!("{value}_")
        };
        if !prefixes.contains(&prefix) {
            prefixes.push(prefix);
        }
    }
    match prefixes.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The items of the settings file `rel`: an INI file's as `SECTION_KEY`, a TOML file's as
/// `SECTION__KEY` (see the module documentation).
pub fn reads(rel: &RelPath, text: &str) -> Vec<EnvRead> {
    if rel.ends_with(".toml") { items(text, "__") } else { items(text, "_") }
}

/// The items of `text`, each as an unprefixed read of its section and key (upper-cased; a
/// section's dots as `joiner`, other punctuation as `_`) joined by `joiner`, with the value
/// the file gives. Items before the first section have no name of that form and are left out.
fn items(text: &str, joiner: &str) -> Vec<EnvRead> {
    static ITEM: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^([A-Za-z][A-Za-z0-9_.-]*)[ \t]*=[ \t]*(.*)$").expect("the INI item pattern is valid")
    });
    let mut found = Vec::new();
    let mut section: Option<String> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if let Some(name) = trimmed.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')) {
            let path: Vec<String> = name.split('.').map(env_word).collect();
            section = Some(path.join(joiner));
        } else if let Some(section) = &section
            && let Some(c) = ITEM.captures(trimmed)
            && let (Some(key), Some(value)) = (c.get(1), c.get(2))
        {
            let value = value.as_str().trim().trim_matches(['"', '\'', '`']);
            let offset = at + line.find(key.as_str()).unwrap_or(0);
            let name = format!("{section}{joiner}{}", env_word(key.as_str()));
            found.push(
                EnvRead::new(name, offset, Need::Unstated, "settings item the environment overrides")
                    .under_project_prefix()
                    .of_settings_key(format!("{section}.{}", key.as_str()), value),
            );
        }
        at += line.len();
    }
    found
}

/// A section or key as it appears in a variable's name.
fn env_word(word: &str) -> String {
    word.trim().trim_matches(['"', '\'']).replace(['.', '-', ' '], "_").to_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_formatted_override_name_gives_its_prefix() {
        let text = "const (\n\tenvPrefix = \"EBK\"\n\tfilePathEnvPrefix = \"EBKCFP\"\n)\n\
            func fromEnv(section, item string) string {\n\tp := os.Getenv(fmt.Sprintf(\"%s_%s_%s\", filePathEnvPrefix, strings.ToUpper(section), strings.ToUpper(item)))\n\
            \treturn os.Getenv(fmt.Sprintf(\"%s_%s_%s\", envPrefix, strings.ToUpper(section), strings.ToUpper(item)))\n}\n";
        assert_eq!(prefix(text).as_deref(), Some("EBK_"));
        let literal = "v := os.Getenv(\"GF_\" + strings.ToUpper(section) + \"_\" + strings.ToUpper(key))\n";
        assert_eq!(prefix(literal).as_deref(), Some("GF_"));
        let inline = "v, ok := os.LookupEnv(fmt.Sprintf(\"APP_%s_%s\", strings.ToUpper(s), strings.ToUpper(k)))\n";
        assert_eq!(prefix(inline).as_deref(), Some("APP_"));
    }

    #[test]
    fn no_prefix_without_a_read_or_with_two_builders() {
        let unread = "name := fmt.Sprintf(\"APP_%s_%s\", strings.ToUpper(s), strings.ToUpper(k))\n";
        assert_eq!(prefix(unread), None);
        let two = "os.Getenv(fmt.Sprintf(\"A_%s_%s\", strings.ToUpper(s), strings.ToUpper(k)))\n\
            os.Getenv(fmt.Sprintf(\"B_%s_%s\", strings.ToUpper(s), strings.ToUpper(k)))\n";
        assert_eq!(prefix(two), None);
        let lower =
            "const p = \"app\"\nos.Getenv(fmt.Sprintf(\"%s_%s_%s\", p, strings.ToUpper(s), strings.ToUpper(k)))\n";
        assert_eq!(prefix(lower), None);
    }

    #[test]
    fn items_are_named_by_section_and_key_with_their_values() {
        let text = "app_mode = production\n[database]\ntype = sqlite3\npasswd =\n; host = x\n\n[auth.github]\nclient-secret = \"\"\n";
        let rows: Vec<(String, bool, String)> = items(text, "_")
            .into_iter()
            .map(|r| (r.name, r.needs_prefix, r.settings_key.map(|k| k.value).unwrap_or_default()))
            .collect();
        assert_eq!(
            rows,
            [
                ("DATABASE_TYPE".into(), true, "sqlite3".into()),
                ("DATABASE_PASSWD".into(), true, String::new()),
                ("AUTH_GITHUB_CLIENT_SECRET".into(), true, String::new()),
            ]
        );
    }

    #[test]
    fn tool_files_are_not_settings() {
        assert!(is_settings_file("ezbookkeeping.ini"));
        assert!(is_settings_file("config.sample.toml"));
        assert!(!is_settings_file("tox.ini"));
        assert!(!is_settings_file(".golangci.toml"));
        assert!(!is_settings_file("netlify.toml"));
    }

    #[test]
    fn a_koanf_toml_nests_under_double_underscores() {
        let code = "ko.Load(env.Provider(\".\", env.Opt{\n\tPrefix: \"APP_\",\n\tTransformFunc: func(key, val string) (string, any) {\n\t\tkey = strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(key, \"APP_\")), \"__\", \".\")\n\t\treturn key, val\n\t},\n}), nil)\n";
        assert_eq!(nested_prefix(code).as_deref(), Some("APP_"));
        assert_eq!(nested_prefix("ko.Load(env.Provider(\"APP_\", \".\", nil), nil)\n"), None);
        let toml = "[app]\nencryption_key = \"your-32-char-random-string-here!\"\n\n[upload.s3]\nsecret_key = \"\"\n";
        let names: Vec<String> =
            reads(RelPath::new("config.sample.toml").unwrap(), toml).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["APP__ENCRYPTION_KEY", "UPLOAD__S3__SECRET_KEY"]);
    }
}
