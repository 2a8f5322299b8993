//! env-schema and @fastify/env, which check the environment against a JSON Schema
//! (`{ type: 'object', required: ['DATABASE_URL'], properties: { PORT: { type: 'number',
//! default: 3000 } } }`): each property is a variable, required when the schema's `required`
//! lists it and it has no `default`, optional otherwise (JSON Schema's properties are); a
//! `number`, `integer` or `boolean` type, or an `enum`, types it as a setting.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::{QUOTES, object_entries};
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

const VIA: &str = "env-schema property";

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static PROPERTIES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)properties[[:space:]]*:[[:space:]]*\{").expect("the properties pattern is valid")
    });
    static REQUIRED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)required[[:space:]]*:[[:space:]]*\[([^\]]*)\]")
            .expect("the required list pattern is valid")
    });
    static NAME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"['"`]([A-Za-z_][A-Za-z0-9_]*)['"`]"#).expect("the required name pattern is valid")
    });
    if !text.contains("properties") {
        return Vec::new();
    }
    let loads_environment = ["env-schema", "@fastify/env", "fastify-env"].iter().any(|l| text.contains(l));
    // In the loader's file every schema is the environment's; elsewhere, those named for it.
    let schemas = if loads_environment { vec![Range { start: 0, end: text.len() }] } else { environment_schemas(text) };
    let mut found = Vec::new();
    for schema in schemas {
        let required: Vec<&str> = REQUIRED
            .captures_iter(&text[schema.clone()])
            .filter_map(|c| c.get(1))
            .flat_map(|list| NAME.captures_iter(list.as_str()).filter_map(|n| n.get(1)).map(|n| n.as_str()))
            .collect();
        for m in PROPERTIES.find_iter(&text[schema.clone()]) {
            let open = schema.start + m.end() - 1;
            for entry in object_entries(text, open) {
                if !code::is_upper_snake(entry.name) {
                    continue;
                }
                let property = entry.value;
                let need = if code::has_keyword(property, "default") || !required.contains(&entry.name) {
                    Need::Optional
                } else {
                    Need::Required
                };
                found.push(EnvRead::new(entry.name, entry.at, need, VIA).typed_setting(types_a_setting(property)));
            }
        }
    }
    found.sort_by_key(|r| r.at);
    found.dedup_by(|a, b| a.at == b.at);
    found
}

/// The object literals bound to a name that says it is the environment's schema
/// (`const envSchema = { … }`, `export const schemaEnv = { … }`), in a file that imports no
/// loader: it hands the schema to one elsewhere.
fn environment_schemas(text: &str) -> Vec<Range<usize>> {
    static BOUND: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:const|let|var)[[:space:]]+([A-Za-z_$][[:word:]$]*)(?:[[:space:]]*:[^=]+)?[[:space:]]*=[[:space:]]*\{",
        )
        .expect("the schema binding pattern is valid")
    });
    BOUND
        .captures_iter(text)
        .filter(|c| c.get(1).is_some_and(|n| n.as_str().to_ascii_lowercase().contains("env")))
        .filter_map(|c| {
            let open = c.get(0)?.end() - 1;
            let body = code::block(&text[open..], QUOTES)?;
            Some(open..open + body.len() + 2)
        })
        .collect()
}

fn types_a_setting(property: &str) -> bool {
    static TYPED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)(?:type[[:space:]]*:[[:space:]]*['"`](?:number|integer|boolean|array)['"`]|enum[[:space:]]*:[[:space:]]*\[)"#)
            .expect("the JSON Schema type pattern is valid")
    });
    TYPED.is_match(property)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, Need, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect()
    }

    #[test]
    fn properties_are_required_when_listed_without_a_default() {
        let text = "const fastifyEnv = require('@fastify/env')\n\nconst schema = {\n  type: 'object',\n  required: ['PORT', 'DATABASE_URL', 'JWT_SECRET'],\n  properties: {\n    PORT: { type: 'number', default: 3000 },\n    DATABASE_URL: { type: 'string' },\n    JWT_SECRET: { type: 'string' },\n    LOG_LEVEL: { type: 'string', enum: ['info', 'debug'] },\n    SMTP_PASSWORD: { type: 'string' }\n  }\n}\n\nfastify.register(fastifyEnv, { schema, dotenv: true })\n";
        assert_eq!(
            found(text),
            [
                ("PORT".into(), Need::Optional, true),
                ("DATABASE_URL".into(), Need::Required, false),
                ("JWT_SECRET".into(), Need::Required, false),
                ("LOG_LEVEL".into(), Need::Optional, true),
                ("SMTP_PASSWORD".into(), Need::Optional, false),
            ]
        );
    }

    #[test]
    fn a_schema_named_for_the_environment_without_the_loader() {
        let named = "export const envSchema = {\n  type: 'object',\n  required: ['API_TOKEN'],\n  properties: { API_TOKEN: { type: 'string' } },\n}\n";
        assert_eq!(found(named), [("API_TOKEN".into(), Need::Required, false)]);
        // An OpenAPI body's schema is no environment.
        let body = "const loginBody = {\n  type: 'object',\n  required: ['PASSWORD'],\n  properties: { PASSWORD: { type: 'string' } },\n}\n";
        assert_eq!(found(body), []);
    }
}
