//! Vapor, a runtime configuration library: `%Env{bindings: [db_url: "DB_URL", port:
//! {"PORT", …}]}` (or `{:db_port, "DB_PORT", default: 4369, map: &String.to_integer/1}`) binds
//! each key to a variable, and `Vapor.load!` stops the boot when a binding is missing — bindings
//! are required unless they give a `default:` or say `required: false`. A `map:` that parses a
//! number, boolean or atom, or a default that is one, types the value as a setting.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// Options of a binding, which are no binding themselves (`default: "INFO"`).
const OPTIONS: &[&str] = &["default", "map", "required"];

pub fn reads(text: &str) -> Vec<EnvRead> {
    static PROVIDER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"%(?:Vapor\.Provider\.)?Env\{[[:space:]]*bindings:[[:space:]]*\[")
            .expect("the Vapor Env provider pattern is valid")
    });
    static BINDING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:\{[[:space:]]*:[a-z_][a-z0-9_]*[[:space:]]*,[[:space:]]*|(?-u:\b)([a-z_][a-z0-9_]*):[[:space:]]*\{?[[:space:]]*)"([A-Za-z_][A-Za-z0-9_]*)""#,
        )
        .expect("the Vapor binding pattern is valid")
    });
    if !text.contains("Vapor") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for m in PROVIDER.find_iter(text) {
        let open = m.end() - 1;
        let Some(bindings) = code::block(&text[open..], &['"']) else { continue };
        for c in BINDING.captures_iter(bindings) {
            let (Some(whole), Some(name)) = (c.get(0), c.get(2)) else { continue };
            if c.get(1).is_some_and(|key| OPTIONS.contains(&key.as_str())) {
                continue;
            }
            // The binding's options, up to the end of its tuple.
            let options =
                if whole.as_str().contains('{') { code::rest_of_call(&bindings[whole.end()..], &['"']) } else { "" };
            let optional = code::has_keyword(options, "default") || options.contains("required: false");
            let need = if optional { Need::Optional } else { Need::Required };
            found.push(
                EnvRead::new(name.as_str(), open + 1 + name.start(), need, "Vapor binding")
                    .typed_setting(maps_to_a_setting(options)),
            );
        }
    }
    found
}

/// Whether a binding's options parse a number, boolean or atom (`map: &String.to_integer/1`,
/// `map: fn s -> s == "true" end`) or default to one (`default: 4000`, `default: false`).
fn maps_to_a_setting(options: &str) -> bool {
    static SETTING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"map:[[:space:]]*(?:&String\.to_(?:integer|float|atom|existing_atom)/1|&Integer\.parse/1|&Float\.parse/1|fn[^,]*==[[:space:]]*"true")|default:[[:space:]]*(?:true|false|-?[0-9][0-9_.]*)(?:[[:space:]]*[,}\]]|$)"#)
            .expect("the Vapor setting pattern is valid")
    });
    SETTING.is_match(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_required_unless_defaulted() {
        let text = "alias Vapor.Provider.{Dotenv, Env}\n\nproviders = [\n  %Dotenv{},\n  %Env{\n    bindings: [\n      db_url: \"DATABASE_URL\",\n      {:secret_key_base, \"SECRET_KEY_BASE\"},\n      {:port, \"PORT\", default: 4000, map: &String.to_integer/1},\n      {:log_level, \"LOG_LEVEL\", default: \"INFO\", map: &String.to_existing_atom/1},\n      {:stripe_key, \"STRIPE_SECRET_KEY\", required: false},\n      sentry: {\"SENTRY_DSN\", required: false}\n    ]\n  }\n]\n\nconfig = Vapor.load!(providers)\n";
        let got: Vec<(String, Need, bool)> = reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect();
        assert_eq!(
            got,
            [
                ("DATABASE_URL".into(), Need::Required, false),
                ("SECRET_KEY_BASE".into(), Need::Required, false),
                ("PORT".into(), Need::Optional, true),
                ("LOG_LEVEL".into(), Need::Optional, true),
                ("STRIPE_SECRET_KEY".into(), Need::Optional, false),
                ("SENTRY_DSN".into(), Need::Optional, false),
            ]
        );
    }
}
