//! Dotenvy, the settings library of `config/runtime.exs` in many Phoenix apps: after
//! `import Dotenvy` and `source!([...])`, `env!("NAME", :type)` raises when the variable is
//! missing, `env!("NAME", :type, default)` falls back to the default, and so does the older
//! `env("NAME", :type, default)`. The type converts the value: a number, boolean, atom or
//! module is a setting, whatever its name says.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// The conversion types (with or without the `?` or `!` that say what an empty value does)
/// that turn a value into something no credential is: a number, a boolean, an atom, a module.
const SETTING_TYPES: &[&str] = &["integer", "float", "boolean", "atom", "existing_atom", "module"];

/// Dotenvy's reads in `text`: `Dotenvy.env!("X", …)` anywhere, and `env!("X", …)` or
/// `env("X", …)` in a file that imports Dotenvy; also with the name piped in
/// (`"X" |> env!(:string)`). Required when `env!` has no default, else optional.
pub fn reads(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:^|[^[:word:].!?:])(Dotenvy\.)?(env!?)\([[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)"|"([A-Za-z_][A-Za-z0-9_]*)"[[:space:]]*\|>[[:space:]]*(Dotenvy\.)?(env!?)\("#,
        )
        .expect("the Dotenvy call pattern is valid")
    });
    static IMPORT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*import[[:space:]]+Dotenvy\b").expect("the Dotenvy import pattern is valid")
    });
    let imported = IMPORT.is_match(text);
    CALL.captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            // The name is the call's first argument, or the value piped into it.
            let (qualified, call, name, piped) = match c.get(3) {
                Some(name) => (c.get(1).is_some(), c.get(2)?, name, false),
                None => (c.get(5).is_some(), c.get(6)?, c.get(4)?, true),
            };
            if !qualified && !imported {
                return None;
            }
            let rest = code::rest_of_call(&text[whole.end()..], &['"']);
            let rest = if piped { rest } else { rest.trim_start().strip_prefix(',').unwrap_or("") };
            let conversion = code::expression(rest, &['"']);
            let defaulted = code::has_another_argument(&rest[conversion.len()..]);
            let need = if call.as_str() == "env!" && !defaulted { Need::Required } else { Need::Optional };
            let via = match (call.as_str(), need) {
                ("env!", Need::Required) => "Dotenvy env!",
                ("env!", _) => "Dotenvy env! with a default",
                _ => "Dotenvy env",
            };
            let read = EnvRead::new(name.as_str(), name.start(), need, via);
            Some(EnvRead { setting: is_setting_type(conversion), ..read })
        })
        .collect()
}

/// Whether the conversion argument (`:integer`, `:boolean!`, `:string?`) names a setting type.
fn is_setting_type(conversion: &str) -> bool {
    conversion.trim().strip_prefix(':').is_some_and(|atom| SETTING_TYPES.contains(&atom.trim_end_matches(['?', '!'])))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, Need, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect()
    }

    #[test]
    fn reads_after_import_with_their_need_and_type() {
        let text = "import Config\nimport Dotenvy\nsource!([\"envs/.env\", System.get_env()])\nconfig :a,\n  key: env!(\"SECRET_KEY_BASE\", :string!),\n  port: env!(\"HTTP_PORT\", :integer, 4000),\n  ssl: env!(\"ENABLE_SSL\", :boolean!),\n  api: env!(\"API_KEY\", :string!, \"not a key\"),\n  plain: env!(\"PLAIN_TOKEN\"),\n  old: env(\"OLD_TOKEN\", :string),\n  piped: \"PIPED_SECRET\" |> env!(:string) |> Base.decode64!(),\n  float: env!(\"RATE\", :float?, nil),\n  calc: env!(\"CALLBACK_SECRET\", fn v -> v end, nil)\n";
        assert_eq!(
            found(text),
            [
                ("SECRET_KEY_BASE".into(), Need::Required, false),
                ("HTTP_PORT".into(), Need::Optional, true),
                ("ENABLE_SSL".into(), Need::Required, true),
                ("API_KEY".into(), Need::Optional, false),
                ("PLAIN_TOKEN".into(), Need::Required, false),
                ("OLD_TOKEN".into(), Need::Optional, false),
                ("PIPED_SECRET".into(), Need::Required, false),
                ("RATE".into(), Need::Optional, true),
                ("CALLBACK_SECRET".into(), Need::Optional, false),
            ]
        );
    }

    #[test]
    fn bare_calls_need_the_import() {
        let text = "config :a, key: env!(\"NOT_DOTENVY_KEY\", :string)\nconfig :a, q: Dotenvy.env!(\"QUALIFIED_KEY\", :string)\nconfig :a, o: Other.env!(\"OTHER_KEY\")\n";
        assert_eq!(found(text), [("QUALIFIED_KEY".into(), Need::Required, false)]);
    }
}
