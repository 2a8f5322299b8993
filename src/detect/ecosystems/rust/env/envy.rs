//! envy fills a serde struct from the environment (`envy::from_env::<Config>()`,
//! `envy::prefixed("APP_").from_env::<Config>()`): each field is the variable of its name
//! upper-cased after the prefix. The struct is often defined in another crate of the workspace
//! (`let env: Env = envy::from_env()?` with `use app_client::config::Env`): each file gives
//! the secrets signal its calls and its serde structs, and the signal puts them together over
//! the project. A call whose struct its own file defines is read there (see
//! [`super::serde_struct_reads`]).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{
    FieldKeys, Need, SettingsField, SettingsRoot, SettingsStruct, SettingsTypes,
};

const QUOTES: &[char] = &['"'];

pub(in crate::detect::ecosystems::rust) fn settings_structs(text: &str) -> SettingsTypes {
    // A file of serde structs that never speaks of the environment (an API's types) holds
    // none envy fills: a large workspace has thousands.
    let speaks_of_env = ["env", "Env", "ENV"].iter().any(|word| text.contains(word));
    if !speaks_of_env || !text.contains("Deserialize") && !text.contains("envy::") {
        return SettingsTypes::default();
    }
    SettingsTypes { structs: structs(text), roots: roots(text), decoders: Vec::new(), root_prefix: None }
}

/// The structs envy fills here whose definition is elsewhere: the type of the call's
/// turbofish, else of the `let` it is assigned to.
fn roots(text: &str) -> Vec<SettingsRoot> {
    static ENVY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"envy::(?:prefixed\([[:space:]]*"([A-Za-z0-9_]*)"[[:space:]]*\)[[:space:]]*\.)?from_env(?:::<[[:space:]]*([A-Za-z_][[:word:]]*)[[:space:]]*>)?\("#,
        )
        .expect("the envy pattern is valid")
    });
    static ANNOTATED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"let[[:space:]]+(?:mut[[:space:]]+)?[[:word:]]+[[:space:]]*:[[:space:]]*([A-Z][[:word:]]*)[[:space:]]*=[[:space:]]*(?:match)?$")
            .expect("the annotated let pattern is valid")
    });
    if !text.contains("envy::") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for c in ENVY.captures_iter(text) {
        let Some(whole) = c.get(0) else { continue };
        let annotated = || {
            let before = text[..whole.start()].trim_end();
            ANNOTATED.captures(before).and_then(|a| a.get(1)).map(|m| m.as_str())
        };
        let Some(ty) = c.get(2).map(|m| m.as_str()).or_else(annotated).or_else(|| returned(&text[..whole.start()]))
        else {
            continue;
        };
        if defines(text, ty) {
            continue;
        }
        let prefix = c.get(1).map_or("", |p| p.as_str());
        found.push(SettingsRoot { module: imported_from(text, ty), ..SettingsRoot::new(prefix, ty, FieldKeys::Serde) });
    }
    found
}

/// The struct the function around the end of `before` returns (`fn env() -> &'static Env`,
/// `-> anyhow::Result<Env>`): what its untyped `envy::from_env()` gives.
fn returned(before: &str) -> Option<&str> {
    static RETURNED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"->[[:space:]]*(?:&'static[[:space:]]+)?(?:(?:[[:word:]]+::)*(?:Result|Option)<[[:space:]]*)?([A-Z][[:word:]]*)[[:space:]]*[,>{]")
            .expect("the returned type pattern is valid")
    });
    let signature = &before[before.rfind("fn ")?..];
    RETURNED.captures(signature)?.get(1).map(|m| m.as_str())
}

/// The module a `use` names `ty` in: `use app::config::core::Env;` or `core::{Config, Env}`
/// (also inside a nested group) gives `core`.
fn imported_from(text: &str, ty: &str) -> Option<String> {
    let pattern = format!(r"([a-z_][[:word:]]*)::(?:\{{[^{{}}]*(?-u:\b){ty}(?-u:\b)[^{{}}]*\}}|{ty}(?-u:\b))");
    let import = Regex::new(&pattern).ok()?;
    text.match_indices("use ")
        .filter_map(|(at, _)| {
            let statement = &text[at..];
            import.captures(&statement[..statement.find(';')?])
        })
        .find_map(|c| c.get(1).map(|m| m.as_str().to_string()))
}

fn defines(text: &str, ty: &str) -> bool {
    text.contains(&format!("struct {ty} {{")) || text.contains(&format!("struct {ty}{{"))
}

/// The structs the file derives `Deserialize` for, with their fields: optional when an
/// `Option`, a `Vec` or a `#[serde(default)]`; a `#[serde(flatten)]` field holds its
/// struct's fields under the same prefix.
fn structs(text: &str) -> Vec<SettingsStruct> {
    static SERDE_ALIAS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)alias[[:space:]]*=[[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)""#)
            .expect("the serde alias pattern is valid")
    });
    static STRUCT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"#\[derive\([^)]*Deserialize[^)]*\)\][[:space:]]*(?:#\[[^\n]*\][[:space:]]*)*(?:pub(?:\([^)]*\))?[[:space:]]+)?struct[[:space:]]+([A-Z][[:word:]]*)[[:space:]]*\{")
            .expect("the serde struct pattern is valid")
    });
    if !text.contains("Deserialize") {
        return Vec::new();
    }
    let tests = super::test_modules(text);
    let mut found = Vec::new();
    for s in STRUCT.captures_iter(text) {
        let (Some(whole), Some(name)) = (s.get(0), s.get(1)) else { continue };
        if tests.iter().any(|t| t.contains(&whole.start())) {
            continue;
        }
        let open = whole.end() - 1;
        let Some(body) = code::block(&text[open..], QUOTES) else { continue };
        let fields = super::STRUCT_FIELD
            .captures_iter(body)
            .flat_map(|f| {
                let (Some(attributes), Some(field), Some(field_type)) = (f.get(1), f.get(2), f.get(3)) else {
                    return Vec::new();
                };
                let (attributes, field_type) = (attributes.as_str(), field_type.as_str().trim());
                let key = super::SERDE_RENAME
                    .captures(attributes)
                    .and_then(|c| c.get(1))
                    .map_or(field.as_str(), |m| m.as_str());
                let optional = super::optional_type(field_type) || attributes.contains("default");
                let inner =
                    field_type.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(field_type).trim();
                let field = SettingsField {
                    key: key.to_ascii_uppercase(),
                    mapped_key: None,
                    ty: inner.rsplit("::").next().unwrap_or(inner).to_string(),
                    embedded: attributes.contains("flatten"),
                    need: if optional { Need::Optional } else { Need::Required },
                    setting: super::is_setting_type(field_type),
                    at: open + 1 + field.start(),
                };
                // serde takes the field under each of its `alias = "…"` names too (an older name
                // kept working): each is a variable that sets it, none needed.
                let aliases: Vec<SettingsField> = SERDE_ALIAS
                    .captures_iter(attributes)
                    .filter_map(|a| a.get(1))
                    .map(|alias| SettingsField {
                        key: alias.as_str().to_ascii_uppercase(),
                        need: Need::Optional,
                        ..field.clone()
                    })
                    .collect();
                std::iter::once(field).chain(aliases).collect()
            })
            .collect();
        found.push(SettingsStruct { name: name.as_str().to_string(), fields, constants: Vec::new() });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_envy_call_names_a_struct_defined_elsewhere() {
        let call = "use app_client::config::Env;\n\nfn load() -> Env {\n    let env: Env = match envy::from_env()\n        .context(\"bad env\") { Ok(e) => e, Err(e) => panic!(\"{e}\") };\n    let other = envy::prefixed(\"APP_\").from_env::<Other>();\n    env\n}\n";
        let env = SettingsRoot { module: Some("config".into()), ..SettingsRoot::new("", "Env", FieldKeys::Serde) };
        assert_eq!(settings_structs(call).roots, [env.clone(), SettingsRoot::new("APP_", "Other", FieldKeys::Serde)]);
        // A struct the calling file defines is read there.
        let here = format!("{call}\n#[derive(Deserialize)]\nstruct Other {{ a: String }}\n");
        assert_eq!(settings_structs(&here).roots, [env]);
        // The type a function returns, for a call that names none.
        let returned = "use app::config::cli::Env;\npub fn cli_env() -> &'static Env {\n  CELL.get_or_init(|| match envy::from_env() { Ok(e) => e, Err(e) => panic!() })\n}\n";
        assert_eq!(settings_structs(returned).roots[0].ty, "Env");
        assert_eq!(settings_structs(returned).roots[0].module.as_deref(), Some("cli"));
        // Imported in a nested group.
        let grouped = call.replace(
            "use app_client::config::Env;",
            "use app::entities::{\n  config::core::{CoreConfig, Env},\n  logger::Log,\n};",
        );
        assert_eq!(settings_structs(&grouped).roots[0].module.as_deref(), Some("core"));
    }

    #[test]
    fn serde_structs_give_their_fields() {
        let text = "#[derive(Debug, Clone, Deserialize)]\npub struct Env {\n  /// The database password.\n  pub komodo_database_password: Option<String>,\n  #[serde(default)]\n  pub komodo_port: u16,\n  #[serde(rename = \"main_secret\")]\n  secret: String,\n  #[serde(alias = \"komodo_mongo_password\")]\n  pub komodo_database_password2: Option<String>,\n  #[serde(flatten)]\n  pub oauth: OauthEnv,\n}\n\n#[derive(Debug)]\nstruct NotSerde {\n  a: String,\n}\n";
        let structs = settings_structs(text).structs;
        assert_eq!(structs.len(), 1);
        let fields: Vec<(&str, Need, bool, bool)> =
            structs[0].fields.iter().map(|f| (f.key.as_str(), f.need, f.setting, f.embedded)).collect();
        assert_eq!(
            fields,
            [
                ("KOMODO_DATABASE_PASSWORD", Need::Optional, false, false),
                ("KOMODO_PORT", Need::Optional, true, false),
                ("MAIN_SECRET", Need::Required, false, false),
                ("KOMODO_DATABASE_PASSWORD2", Need::Optional, false, false),
                ("KOMODO_MONGO_PASSWORD", Need::Optional, false, false),
                ("OAUTH", Need::Required, false, true),
            ]
        );
    }
}
