//! AdonisJS's `Env` service, under the name it is imported as (`import Env from
//! '@ioc:Adonis/Core/Env'` in v5, `import env from '#start/env'` in v6, `use('Env')` in v4):
//! `Env.get("X")` (a second argument is the default), `Env.getOrFail("X")` (required), and the
//! validation schema of `env.ts` (`Env.rules({ X: Env.schema.string() })`, v6's
//! `Env.create(root, { … })`), whose entries are required unless `.optional()`; a
//! `number`, `boolean` or `enum` entry is a setting.

use std::sync::LazyLock;

use regex::Regex;

use super::{QUOTES, object_entries};
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static IMPORT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:import[[:space:]]+([A-Za-z_$][[:word:]$]*)[[:space:]]+from[[:space:]]+['"](?:@ioc:Adonis/Core/Env|#start/env)['"]|import[[:space:]]*\{[[:space:]]*(Env)[[:space:]]*\}[[:space:]]*from[[:space:]]+['"]@adonisjs/core/env['"]|(?:const|let|var)[[:space:]]+([A-Za-z_$][[:word:]$]*)[[:space:]]*=[[:space:]]*use\([[:space:]]*['"](?:Env|Adonis/Src/Env)['"][[:space:]]*\))"#)
            .expect("the AdonisJS Env import pattern is valid")
    });
    // Most files import none of these: the plain search is far cheaper than the pattern.
    const MODULES: &[&str] =
        &["Adonis/Core/Env", "#start/env", "@adonisjs/core/env", "use('Env')", "use(\"Env\")", "Adonis/Src/Env"];
    if !MODULES.iter().any(|module| text.contains(module)) {
        return Vec::new();
    }
    let Some(binding) = IMPORT.captures(text).and_then(|c| c.get(1).or(c.get(2)).or(c.get(3))) else {
        return Vec::new();
    };
    let binding = regex::escape(binding.as_str());
    let mut found = calls(text, &binding);
    found.extend(schema(text, &binding));
    found
}

/// `Env.get("X")`, `Env.get("X", "d")` and `Env.getOrFail("X")`.
fn calls(text: &str, binding: &str) -> Vec<EnvRead> {
    let Ok(get) =
        Regex::new(&format!(r#"(?-u:\b){binding}\.(get|getOrFail)\([[:space:]]*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`]"#))
    else {
        return Vec::new();
    };
    get.captures_iter(text)
        .filter_map(|c| {
            let (method, name, whole) = (c.get(1)?, c.get(2)?, c.get(0)?);
            let need = if method.as_str() == "getOrFail" {
                Need::Required
            } else if code::has_another_argument(code::rest_of_call(&text[whole.end()..], QUOTES)) {
                Need::Optional
            } else {
                Need::Unstated
            };
            Some(EnvRead::new(name.as_str(), name.start(), need, "AdonisJS Env"))
        })
        .collect()
}

/// The entries of `Env.rules({ … })` or `Env.create(root, { … })`.
fn schema(text: &str, binding: &str) -> Vec<EnvRead> {
    let Ok(rules) = Regex::new(&format!(
        r"(?-u:\b){binding}\.(?:rules\([[:space:]]*|create\([^,()]*(?:\([^()]*\))?[^,()]*,[[:space:]]*)\{{"
    )) else {
        return Vec::new();
    };
    let Some(open) = rules.find(text).map(|m| m.end() - 1) else { return Vec::new() };
    object_entries(text, open)
        .into_iter()
        .filter(|entry| code::is_upper_snake(entry.name))
        .map(|entry| {
            let rule = entry.value;
            let optional = rule.contains(".optional(");
            let need = if optional { Need::Optional } else { Need::Required };
            let setting = [".number(", ".boolean(", ".enum("].iter().any(|t| rule.contains(t));
            EnvRead::new(entry.name, entry.at, need, "AdonisJS env rule").typed_setting(setting)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, Need, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect()
    }

    #[test]
    fn env_service_calls_under_their_import() {
        let text = "import Env from '@ioc:Adonis/Core/Env';\nexport default {\n  key: Env.get('MAILGUN_API_KEY'),\n  secret: Env.get('JWT_PRIVATE_KEY', ''),\n  app: Env.getOrFail('APP_KEY'),\n};\n";
        assert_eq!(
            names(text),
            [
                ("MAILGUN_API_KEY".into(), Need::Unstated, false),
                ("JWT_PRIVATE_KEY".into(), Need::Optional, false),
                ("APP_KEY".into(), Need::Required, false),
            ]
        );
        let v4 = "const Env = use('Env')\nmodule.exports = { key: Env.get('APP_KEY') }\n";
        assert_eq!(names(v4), [("APP_KEY".into(), Need::Unstated, false)]);
        // Without the import, `Env.get` is some other object's.
        assert!(names("const x = Env.get('APP_KEY')\n").is_empty());
    }

    #[test]
    fn the_validation_schema_requires_what_is_not_optional() {
        let v5 = "import Env from '@ioc:Adonis/Core/Env'\nexport default Env.rules({\n  PORT: Env.schema.number(),\n  APP_KEY: Env.schema.string(),\n  SMTP_PASSWORD: Env.schema.string.optional(),\n  NODE_ENV: Env.schema.enum(['development', 'production'] as const),\n})\n";
        assert_eq!(
            names(v5),
            [
                ("PORT".into(), Need::Required, true),
                ("APP_KEY".into(), Need::Required, false),
                ("SMTP_PASSWORD".into(), Need::Optional, false),
                ("NODE_ENV".into(), Need::Required, true),
            ]
        );
        let v6 = "import { Env } from '@adonisjs/core/env'\nexport default await Env.create(new URL('../', import.meta.url), {\n  APP_KEY: Env.schema.string(),\n})\n";
        assert_eq!(names(v6), [("APP_KEY".into(), Need::Required, false)]);
    }
}
