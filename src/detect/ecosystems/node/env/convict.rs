//! convict (`convict({ db: { password: { doc, format, default, env: "DB_PASSWORD" } } })`):
//! each property of the schema, however deeply nested, reads the variable its `env` names.
//! Every property has a `default`; a `default: null` fails `config.validate()` unless the
//! property is `nullable: true`, so such a property is required where the file validates
//! (and loads no file, `loadFile`, that could give it).
//! `sensitive: true` declares the value a secret; a `format` of a port, number, boolean,
//! duration, list or fixed set of values types it as a setting.

use std::sync::LazyLock;

use regex::Regex;

use super::QUOTES;
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

const VIA: &str = "convict schema";

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    // `convict({ … })`, or `convict(schema)` with `const schema = { … }` in the file.
    static CONVICT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?-u:\b)convict[[:space:]]*(?:<[^>()]*>)?\([[:space:]]*(?:\{|([A-Za-z_$][A-Za-z0-9_$]*)[[:space:]]*\))",
        )
        .expect("the convict pattern is valid")
    });
    static ENV: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)env[[:space:]]*:[[:space:]]*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`]"#)
            .expect("the convict env pattern is valid")
    });
    // A value left `null` fails `validate()`, unless a file loaded first (`loadFile`) gives it.
    let validates = text.contains(".validate(") && !text.contains(".loadFile(");
    let mut found = Vec::new();
    for c in CONVICT.captures_iter(text) {
        let open = match c.get(1) {
            Some(schema) => match schema_object(text, schema.as_str()) {
                Some(open) => open,
                None => continue,
            },
            None => c.get(0).map_or(0, |m| m.end() - 1),
        };
        let Some(body) = code::block(&text[open..], QUOTES) else { continue };
        let objects = object_spans(body);
        for c in ENV.captures_iter(body) {
            let Some(name) = c.get(1) else { continue };
            // The innermost object around the `env` is its property.
            let Some(property) =
                objects.iter().filter(|span| span.contains(&name.start())).min_by_key(|span| span.len())
            else {
                continue;
            };
            let property = &body[property.clone()];
            let need = if !has_default(property) {
                Need::Unstated
            } else if defaults_to_nothing(property) && !property_is(property, "nullable") {
                if validates { Need::Required } else { Need::Unstated }
            } else {
                Need::Optional
            };
            found.push(
                EnvRead::new(name.as_str(), open + 1 + name.start(), need, VIA)
                    .marked_secret(property_is(property, "sensitive"))
                    .typed_setting(formats_a_setting(property)),
            );
        }
    }
    found
}

/// Where the object a schema variable of the file is assigned opens: `const schema = {`.
fn schema_object(text: &str, variable: &str) -> Option<usize> {
    let assigned = Regex::new(&format!(
        r"(?-u:\b)(?:const|let|var)[[:space:]]+{}[[:space:]]*(?::[^=]+)?=[[:space:]]*\{{",
        regex::escape(variable)
    ))
    .ok()?;
    assigned.find(text).map(|m| m.end() - 1)
}

/// The byte ranges of the `{ … }` objects in `body` (braces included), past quoted text.
pub(super) fn object_spans(body: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = body.as_bytes();
    let mut open = Vec::new();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'"' | b'\'' | b'`') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => open.push(i),
            b'}' => {
                if let Some(start) = open.pop() {
                    spans.push(start..i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    spans
}

pub(super) fn has_default(property: &str) -> bool {
    static DEFAULT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?-u:\b)default[[:space:]]*:").expect("the convict default pattern is valid"));
    DEFAULT.is_match(property)
}

/// `default: null` (or `undefined`): nothing to fall back on.
fn defaults_to_nothing(property: &str) -> bool {
    static NOTHING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)default[[:space:]]*:[[:space:]]*(?:null|undefined)(?-u:\b)")
            .expect("the convict null default is valid")
    });
    NOTHING.is_match(property)
}

/// Whether the property sets the flag `key: true` (`sensitive`, `nullable`).
fn property_is(property: &str, key: &str) -> bool {
    Regex::new(&format!(r"(?-u:\b){key}[[:space:]]*:[[:space:]]*true(?-u:\b)"))
        .is_ok_and(|flag| flag.is_match(property))
}

/// Whether the property's `format` types a setting: one of convict's port, number, duration or
/// address formats, a JavaScript `Boolean`/`Number`/`Array`, or a list of allowed values.
fn formats_a_setting(property: &str) -> bool {
    static FORMAT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)format[[:space:]]*:[[:space:]]*(?:['"`](?:port|int|nat|duration|timestamp|ipaddress|windows_named_pipe|port_or_windows_named_pipe|Boolean|Number|Array|boolean|number)['"`]|(?:Boolean|Number|Array)(?-u:\b)|\[)"#)
            .expect("the convict format pattern is valid")
    });
    FORMAT.is_match(property)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_property_reads_its_env() {
        let text = "const convict = require('convict');\n\nconst config = convict({\n  env: {\n    doc: 'The application environment.',\n    format: ['production', 'development', 'test'],\n    default: 'development',\n    env: 'NODE_ENV'\n  },\n  port: {\n    format: 'port',\n    default: 8080,\n    env: 'PORT'\n  },\n  db: {\n    url: {\n      doc: 'Database connection string',\n      format: String,\n      default: null,\n      env: 'DATABASE_URL'\n    },\n    password: {\n      format: '*',\n      default: '',\n      sensitive: true,\n      env: 'DB_PASSWORD'\n    },\n    replica: {\n      format: String,\n      default: null,\n      nullable: true,\n      env: 'REPLICA_URL'\n    }\n  },\n  token: { format: String, default: null, sensitive: true, env: \"API_TOKEN\" },\n  admins: { format: Array, default: [], env: 'ADMIN_EMAILS' }\n});\n\nconfig.validate({ allowed: 'strict' });\n";
        let got: Vec<(String, Need, bool, bool)> =
            reads(text).into_iter().map(|r| (r.name, r.need, r.marked_secret, r.setting)).collect();
        assert_eq!(
            got,
            [
                ("NODE_ENV".into(), Need::Optional, false, true),
                ("PORT".into(), Need::Optional, false, true),
                ("DATABASE_URL".into(), Need::Required, false, false),
                ("DB_PASSWORD".into(), Need::Optional, true, false),
                ("REPLICA_URL".into(), Need::Optional, false, false),
                ("API_TOKEN".into(), Need::Required, true, false),
                ("ADMIN_EMAILS".into(), Need::Optional, false, true),
            ]
        );
    }

    #[test]
    fn a_schema_of_the_file_given_by_name() {
        let text = "const convict = require('convict')\nconst schema = {\n  githubToken: {\n    doc: 'Access token',\n    format: String,\n    default: null,\n    env: 'GITHUB_TOKEN'\n  },\n  port: { format: 'port', default: 0, env: 'PORT' }\n}\nconst other = { x: { env: 'NOT_READ' } }\nlet config = convict(schema)\nconfig.loadFile(path.join(__dirname, 'config.json'))\nconfig.validate()\n";
        let got: Vec<(String, Need, bool)> = reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect();
        // The file loaded before `validate()` may give what the schema leaves `null`.
        assert_eq!(got, [("GITHUB_TOKEN".into(), Need::Unstated, false), ("PORT".into(), Need::Optional, true)]);
    }

    #[test]
    fn without_validate_a_null_default_stops_nothing() {
        let text = "import convict from 'convict';\nexport default convict({ secret: { format: String, default: null, env: 'SESSION_SECRET' } });\n";
        let got: Vec<(String, Need)> = reads(text).into_iter().map(|r| (r.name, r.need)).collect();
        assert_eq!(got, [("SESSION_SECRET".into(), Need::Unstated)]);
    }
}
