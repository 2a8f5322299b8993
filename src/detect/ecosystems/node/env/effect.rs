//! Effect's `Config` (`import { Config } from "effect"`): `Config.redacted("X")` and
//! `Config.secret("X")` read a value Effect keeps out of logs, a secret by declaration;
//! `Config.number`, `Config.boolean`, `Config.duration` and the like type a setting;
//! `Config.string("X")` is a plain read. Effect's default `ConfigProvider` reads them from
//! the environment under their own names. A `Config.withDefault` or `Config.option` on the
//! read makes it optional; otherwise the config fails only where it is run, so the read does
//! not say the app stops.

use std::sync::LazyLock;

use regex::Regex;

use super::QUOTES;
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

const VIA: &str = "Effect Config";

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static IMPORT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?s)import[[:space:]]*\{[^}]*(?-u:\b)Config(?-u:\b)[^}]*\}[[:space:]]*from[[:space:]]*['"]effect['"]"#,
        )
        .expect("the Effect import pattern is valid")
    });
    static READ: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)Config[[:space:]]*\.[[:space:]]*([a-zA-Z]+)\([[:space:]]*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`][[:space:]]*\)"#)
            .expect("the Effect Config pattern is valid")
    });
    if !IMPORT.is_match(text) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for c in READ.captures_iter(text) {
        let (Some(whole), Some(kind), Some(name)) = (c.get(0), c.get(1), c.get(2)) else { continue };
        let (secret, setting) = match kind.as_str() {
            "redacted" | "secret" => (true, false),
            "string" | "nonEmptyString" | "url" => (false, false),
            "number" | "integer" | "boolean" | "duration" | "logLevel" | "port" | "date" | "literal" => (false, true),
            _ => continue,
        };
        let rest = code::expression(&text[whole.end()..], QUOTES);
        let optional = ["withDefault", "option", "orElse"].iter().any(|w| rest.contains(&format!("Config.{w}")));
        let need = if optional { Need::Optional } else { Need::Unstated };
        found.push(EnvRead::new(name.as_str(), name.start(), need, VIA).marked_secret(secret).typed_setting(setting));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, Need, bool, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.need, r.marked_secret, r.setting)).collect()
    }

    #[test]
    fn effect_config_reads() {
        let text = "import { Config, Effect } from \"effect\";\nconst Schema = Config.all({\n  rpcUrl: Config.url(\"RPC_URL\").pipe(Config.option),\n  rpcSecret: Config.redacted(\"RPC_SECRET\"),\n  port: Config.number(\"PORT\").pipe(Config.withDefault(3000)),\n  host: Config.string(\"HOST\"),\n});\n";
        assert_eq!(
            found(text),
            [
                ("RPC_URL".into(), Need::Optional, false, false),
                ("RPC_SECRET".into(), Need::Unstated, true, false),
                ("PORT".into(), Need::Optional, false, true),
                ("HOST".into(), Need::Unstated, false, false),
            ]
        );
        // Another `Config` than Effect's reads nothing.
        assert!(found("import { Config } from \"./config\";\nConfig.redacted(\"X_SECRET\");\n").is_empty());
    }
}
