//! How Rust code reads the environment: `std::env::var("X")` (required when unwrapped or
//! `?`-propagated, optional with a fallback), `env!`/`option_env!`, and `env::var(NAME)` of a
//! string constant of the file; clap arguments with `env = "X"`, `env = NAME` (a constant) or
//! a bare `env` (the field's name, upper-cased), required unless optional, defaulted or a flag,
//! and a setting when its type is a flag, number, duration or list; `#[envconfig(from = "X")]`
//! fields; and serde structs filled from the environment by `envy`
//! (`envy::prefixed("APP_").from_env::<Config>()`), the `config` crate
//! (`Environment::with_prefix("APP")`) or figment (`Env::prefixed("APP_")`, then
//! `extract::<Config>()` or `let config: Config = figment.extract()?`). Inline test modules (`#[cfg(test)] mod tests`)
//! are left out: their literals are fixtures, not reads. The project's own helpers
//! (`require_env("X")`) are in [`helpers`].

use std::sync::LazyLock;

use regex::Regex;

pub use self::helpers::helpers;
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

pub(super) mod envy;
mod helpers;

const QUOTES: &[char] = &['"'];

pub fn reads(text: &str) -> Vec<EnvRead> {
    let tests = test_modules(text);
    let mut found = var_reads(text);
    found.extend(constant_var_reads(text));
    found.extend(clap_reads(text));
    found.extend(envconfig_reads(text));
    found.extend(serde_struct_reads(text));
    found.extend(schematic_reads(text));
    found.extend(helpers::helper_calls(text));
    found.retain(|r| !tests.iter().any(|t| t.contains(&r.at)));
    found
}

/// `env::var("X")`, `env::var_os("X")`, `dotenvy::var("X")`, `env!("X")`, `option_env!("X")`.
fn var_reads(text: &str) -> Vec<EnvRead> {
    static READ: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:(?-u:\b)(?:env|dotenvy|dotenv)::var(?:_os)?\(|(?-u:\b)(env!|option_env!)\()[[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)"[[:space:]]*\)"#,
        )
        .expect("the Rust environment-read pattern is valid")
    });
    // `use std::env::{self, var};` then `var("AWS_ACCESS_KEY_ID")`: the bare function is the same read.
    static IMPORTS_VAR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[[:space:]]*use[[:space:]]+std::env::(?:var[[:space:]]*;|\{[^}]*(?-u:\b)var(?-u:\b)[^}]*\})")
            .expect("the std::env::var import pattern is valid")
    });
    static BARE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:^|[^[:word:].:])var\(()[[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)"[[:space:]]*\)"#)
            .expect("the bare var pattern is valid")
    });
    let bare = IMPORTS_VAR.is_match(text).then(|| BARE.captures_iter(text)).into_iter().flatten();
    READ.captures_iter(text)
        .chain(bare)
        .filter_map(|c| {
            let (whole, name) = (c.get(0)?, c.get(2)?);
            let after = &text[whole.end()..];
            let need = match c.get(1).map(|m| m.as_str()).filter(|m| !m.is_empty()) {
                Some("env!") => Need::Required,
                Some(_) => Need::Optional,
                None if code::followed_by(
                    after,
                    &[".unwrap_or", ".ok()", ".is_ok()", ".is_err()", ".map_or", ".unwrap_or_default"],
                ) =>
                {
                    Need::Optional
                }
                None if code::followed_by(after, &["?", ".unwrap()", ".expect("]) => Need::Required,
                None => Need::Unstated,
            };
            Some(EnvRead::new(name.as_str(), name.start(), need, "std::env::var"))
        })
        .collect()
}

/// `env::var(DATABASE_URL_ENV)` with `const DATABASE_URL_ENV: &str = "DATABASE_URL";` in the file,
/// or `env::var(vars::SIGNING_KEY)` with the constant in another module of the project.
fn constant_var_reads(text: &str) -> Vec<EnvRead> {
    static READ: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?-u:\b)(?:env|dotenvy|dotenv)::var(?:_os)?\([[:space:]]*(?:[a-z_][a-z0-9_]*::)*([A-Z_][A-Z0-9_]*)[[:space:]]*\)"#,
        )
        .expect("the Rust constant-read pattern is valid")
    });
    READ.captures_iter(text)
        .filter_map(|c| {
            let (whole, constant) = (c.get(0)?, c.get(1)?);
            let after = &text[whole.end()..];
            let need = if code::followed_by(after, &[".unwrap_or", ".ok()", ".is_ok()", ".is_err()", ".map_or"]) {
                Need::Optional
            } else if code::followed_by(after, &["?", ".unwrap()", ".expect("]) {
                Need::Required
            } else {
                Need::Unstated
            };
            Some(match string_constant(text, constant.as_str()) {
                Some(name) => EnvRead::new(name, constant.start(), need, "std::env::var"),
                None => EnvRead::of_constant(constant.as_str(), constant.start(), need, "std::env::var of a constant"),
            })
        })
        .collect()
}

/// The file's string constants that hold a variable's name (`pub const SIGNING_KEY: &str =
/// "WASTEBIN_SIGNING_KEY";`), for the reads of other files (see [`EnvRead::by_constant`]).
pub fn name_constants(text: &str) -> Vec<(String, String)> {
    static CONSTANT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?-u:\b)(?:const|static)[[:space:]]+([A-Z_][A-Z0-9_]*)[[:space:]]*:[[:space:]]*&(?:'static[[:space:]]+)?str[[:space:]]*=[[:space:]]*"([A-Z_][A-Z0-9_]*)"[[:space:]]*;"#,
        )
        .expect("the Rust name-constant pattern is valid")
    });
    CONSTANT
        .captures_iter(text)
        .filter(|c| code::is_upper_snake(&c[2]))
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect()
}

/// A field declaration right after an attribute: `pub name: Type,` (other attributes and doc
/// comments in between skipped).
static FIELD_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\][[:space:]]*(?:(?:#\[[^\n]*\]|///[^\n]*|//[^\n]*)[[:space:]]*)*(?:pub(?:\([^)]*\))?[[:space:]]+)?([a-z_][a-z0-9_]*)[[:space:]]*:[[:space:]]*([^,\n]+)",
    )
    .expect("the field pattern is valid")
});

/// Whether a field type needs no value: `Option<…>`, `Vec<…>`, `bool`.
fn optional_type(ty: &str) -> bool {
    let ty = ty.trim();
    ty.starts_with("Option<") || ty.starts_with("Vec<") || ty == "bool" || ty.starts_with("std::option::Option<")
}

/// `#[arg(long, env = "X")]`, `#[clap(env)]`, `#[arg(env = "X", default_value = "…")]`.
fn clap_reads(text: &str) -> Vec<EnvRead> {
    static ATTRIBUTE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"#\[(?:arg|clap)\(").expect("the clap attribute pattern is valid"));
    static ENV: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:^|[,([:space:]])env[[:space:]]*(?:=[[:space:]]*(?:"([A-Za-z_][A-Za-z0-9_]*)"|([A-Z_][A-Z0-9_]*)))?[[:space:]]*(?:,|$)"#)
            .expect("the clap env pattern is valid")
    });
    let mut found = Vec::new();
    for attribute in ATTRIBUTE.find_iter(text) {
        let open = attribute.end() - 1;
        let Some(arguments) = code::block(&text[open..], QUOTES) else { continue };
        let Some(env) = ENV.captures(arguments) else { continue };
        let after = &text[open + 1 + arguments.len() + 1..];
        let field = FIELD_AFTER.captures(after);
        // `env = MASTER_KEY_ENV`: a string constant of the file names the variable.
        let constant = env.get(2).and_then(|c| Some((string_constant(text, c.as_str())?, c.start())));
        let (name, at) = match (env.get(1), &field) {
            (Some(name), _) => (name.as_str().to_string(), open + 1 + name.start()),
            (None, _) if env.get(2).is_some() => match constant {
                Some((name, start)) => (name, open + 1 + start),
                None => continue,
            },
            (None, Some(field)) => match field.get(1) {
                Some(f) => (f.as_str().to_ascii_uppercase(), open + 1 + env.get(0).map_or(0, |m| m.start())),
                None => continue,
            },
            (None, None) => continue,
        };
        let ty = field.as_ref().and_then(|f| f.get(2)).map_or("", |t| t.as_str());
        let defaulted =
            ["default_value", "default_values", "default_missing_value"].iter().any(|k| arguments.contains(k));
        let need = if arguments.contains("required = true") {
            Need::Required
        } else if defaulted || optional_type(ty) || arguments.contains("action") {
            Need::Optional
        } else {
            Need::Required
        };
        found.push(EnvRead::new(name, at, need, "clap env").typed_setting(is_setting_type(ty)));
    }
    found
}

/// The value of a string constant of the file: `const MASTER_KEY_ENV: &str = "MEILI_MASTER_KEY";`.
fn string_constant(text: &str, name: &str) -> Option<String> {
    let pattern = Regex::new(&format!(
        r#"(?-u:\b)(?:const|static)[[:space:]]+{}[[:space:]]*:[[:space:]]*&(?:'static[[:space:]]+)?str[[:space:]]*=[[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)""#,
        regex::escape(name)
    ))
    .ok()?;
    pattern.captures(text).and_then(|c| c.get(1)).map(|m| m.as_str().to_string())
}

/// Whether a field type holds a setting: a flag, a number, a duration or a list.
fn is_setting_type(ty: &str) -> bool {
    let ty = ty.trim();
    let inner = ty.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(ty).trim();
    inner == "bool"
        || ["u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64"]
            .contains(&inner)
        || inner.ends_with("Duration")
        || inner.starts_with("Vec<") && inner != "Vec<u8>"
}

/// `#[envconfig(from = "X")]` (the `envconfig` crate): optional with a default or an
/// `Option` field.
fn envconfig_reads(text: &str) -> Vec<EnvRead> {
    static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"#\[envconfig\(([^\]]*?)from[[:space:]]*=[[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)"([^\]]*)\)"#)
            .expect("the envconfig pattern is valid")
    });
    ATTRIBUTE
        .captures_iter(text)
        .filter_map(|c| {
            let (whole, name) = (c.get(0)?, c.get(2)?);
            let options = format!("{}{}", c.get(1).map_or("", |m| m.as_str()), c.get(3).map_or("", |m| m.as_str()));
            let ty = FIELD_AFTER.captures(&text[whole.end() - 1..]).and_then(|f| f.get(2)).map_or("", |t| t.as_str());
            let need = if options.contains("default") || optional_type(ty) { Need::Optional } else { Need::Required };
            Some(EnvRead::new(name.as_str(), name.start(), need, "envconfig field"))
        })
        .collect()
}

/// moonrepo's schematic: a `#[derive(Config)]` struct with `#[config(env_prefix = "APP_")]`
/// reads each field from the prefix and its upper-cased name. Every setting has a default
/// (the type's), so none is required unless `#[setting(required)]` says so.
fn schematic_reads(text: &str) -> Vec<EnvRead> {
    static CONFIG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"#\[config\([^\]]*?env_prefix[[:space:]]*=[[:space:]]*"([A-Za-z0-9_]*)"[^\]]*\)\][[:space:]]*(?:#\[[^\]]*\][[:space:]]*)*(?:pub(?:\([^)]*\))?[[:space:]]+)?struct[[:space:]]+([A-Za-z_][[:word:]]*)"#)
            .expect("the schematic config pattern is valid")
    });
    if !text.contains("schematic") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for c in CONFIG.captures_iter(text) {
        let (Some(prefix), Some(ty)) = (c.get(1), c.get(2)) else { continue };
        let fields = struct_fields(text, ty.as_str(), prefix.as_str(), "schematic config field");
        found.extend(fields.into_iter().map(|read| EnvRead { need: Need::Optional, ..read }));
    }
    found
}

/// The fields of a serde struct filled from the environment, each the upper-cased field
/// name after the prefix: `envy::prefixed("APP_").from_env::<Config>()`,
/// `envy::from_env::<Config>()`, or a `config` crate builder with
/// `Environment::with_prefix("APP")` deserialized into `Settings`.
fn serde_struct_reads(text: &str) -> Vec<EnvRead> {
    static ENVY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"envy::(?:prefixed\([[:space:]]*"([A-Za-z0-9_]*)"[[:space:]]*\)[[:space:]]*\.)?from_env(?:::<[[:space:]]*([A-Za-z_][[:word:]]*)[[:space:]]*>)?\("#,
        )
        .expect("the envy pattern is valid")
    });
    static DESERIALIZE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:try_deserialize|try_into|deserialize|extract)::<[[:space:]]*([A-Za-z_][[:word:]]*)[[:space:]]*>",
        )
        .expect("valid")
    });
    // `fn load(f: Figment) -> anyhow::Result<Config> { … f.extract() … }`: the type a
    // function returns is what its untyped `extract()` gives.
    static RETURNED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"->[[:space:]]*(?:[[:word:]]+::)*Result<[[:space:]]*([A-Z][[:word:]]*)[[:space:]]*[,>]")
            .expect("the returned type pattern is valid")
    });
    static ANNOTATED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"let[[:space:]]+(?:mut[[:space:]]+)?[[:word:]]+[[:space:]]*:[[:space:]]*([A-Z][[:word:]]*)[[:space:]]*=",
        )
        .expect("the annotated let pattern is valid")
    });
    let mut found = Vec::new();
    let returned = || {
        let call = text.find(".extract()").or_else(|| text.find(".try_deserialize()"))?;
        let signature = &text[text[..call].rfind("fn ")?..];
        let signature = &signature[..signature.find('{')?];
        RETURNED.captures(signature)?.get(1).map(|m| m.as_str())
    };
    let annotated = || returned().or_else(|| ANNOTATED.captures(text).and_then(|c| c.get(1)).map(|m| m.as_str()));
    for c in ENVY.captures_iter(text) {
        let prefix = c.get(1).map_or(String::new(), |p| p.as_str().to_string());
        let Some(ty) = c.get(2).map(|m| m.as_str()).or_else(annotated) else { continue };
        found.extend(struct_fields(text, ty, &prefix, "envy field"));
    }
    // `extract::<Self>()` in `impl Config { … }` is the `Config` the block implements.
    let implemented = |at: usize| {
        static IMPL: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(?m)^impl(?:<[^>\n]*>)?[[:space:]]+([A-Z][[:word:]]*)[[:space:]]*\{").expect("valid")
        });
        IMPL.captures_iter(&text[..at]).last().and_then(|c| c.get(1)).map(|m| m.as_str())
    };
    let deserialized = || {
        let c = DESERIALIZE.captures(text)?;
        let ty = c.get(1)?;
        if ty.as_str() == "Self" { implemented(ty.start()) } else { Some(ty.as_str()) }
    };
    let deserialized = || deserialized().or_else(annotated);
    // Over settings a file may give, a field needs no variable: the environment only overrides it.
    let overriding = |reads: Vec<EnvRead>, layered: bool| {
        reads.into_iter().map(move |read| {
            let need = if layered && read.need == Need::Required { Need::Unstated } else { read.need };
            EnvRead { need, ..read }
        })
    };
    if let Some(prefix) = config_prefix(text)
        && let Some(ty) = deserialized()
    {
        // Configuration files (`File::from(base.join("base.yaml"))`) under the environment.
        let files = text.contains("File::from") || text.contains("File::with_name");
        let separator = nesting_separator(text, &CONFIG_PREFIX, r"\.separator");
        let fields = nested_fields(text, ty, &prefix, separator.as_deref(), "config crate field", 0);
        found.extend(overriding(fields, files));
    }
    if let Some(prefix) = figment_prefix(text)
        && let Some(ty) = deserialized()
    {
        // Defaults built into the binary (`Toml::string(DEFAULTS)`); a `Toml::file(…)` may be
        // missing where the app runs, so its fields stay as the struct says.
        let defaults =
            ["Toml::string(", "Yaml::string(", "Json::string("].iter().any(|provider| text.contains(provider));
        let separator = nesting_separator(text, &FIGMENT_PREFIX, r"\.split");
        found.extend(overriding(nested_fields(text, ty, &prefix, separator.as_deref(), "figment field", 0), defaults));
    }
    found
}

/// The config crate's `Environment::with_prefix("app")`: its variables start `APP_`, or
/// `APP` and the `prefix_separator` — which defaults to the `separator` if one is set.
fn config_prefix(text: &str) -> Option<String> {
    static PREFIX_SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\.prefix_separator\([[:space:]]*"([^"]*)"[[:space:]]*\)"#)
            .expect("the prefix separator pattern is valid")
    });
    let c = CONFIG_PREFIX.captures(text)?;
    let chain = code::expression(&text[c.get(0)?.end()..], QUOTES);
    let separator = PREFIX_SEPARATOR
        .captures(chain)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_string())
        .or_else(|| nesting_separator(text, &CONFIG_PREFIX, r"\.separator"))
        .unwrap_or_else(|| "_".to_string());
    Some(format!("{}{separator}", c.get(1)?.as_str().to_ascii_uppercase()))
}

static CONFIG_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"Environment::with_prefix\([[:space:]]*"([A-Za-z0-9_]*)"[[:space:]]*\)"#)
        .expect("the config prefix pattern is valid")
});
static FIGMENT_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u:\b)Env::prefixed\([[:space:]]*"([A-Za-z0-9_]*)"[[:space:]]*\)"#)
        .expect("the figment prefix pattern is valid")
});

/// The separator between nested keys that the call chain after `source` sets with `method`
/// (the config crate's `.separator("__")`, figment's `.split("__")`): `APP_DATABASE__PASSWORD`
/// sets `database.password`. Without one a nested struct cannot be set from the environment.
fn nesting_separator(text: &str, source: &Regex, method: &str) -> Option<String> {
    let chain = code::expression(&text[source.find_iter(text).last()?.end()..], QUOTES);
    let pattern = Regex::new(&format!(r#"{method}\([[:space:]]*"([^"]+)"[[:space:]]*\)"#)).ok()?;
    Some(pattern.captures(chain)?.get(1)?.as_str().to_string())
}

/// figment's `Env::prefixed("APP_")`: the prefix as written, `_` included; of several merged
/// (a renamed project's `CONDUIT_` then `CONDUWUIT_`), the last, which wins.
fn figment_prefix(text: &str) -> Option<String> {
    Some(FIGMENT_PREFIX.captures_iter(text).last()?.get(1)?.as_str().to_ascii_uppercase())
}

/// The prefix figment (`Env::prefixed("APP_")`, as written) or the config crate
/// (`Environment::with_prefix("app")`, upper case and `_`) loads every variable under.
pub fn namespace(text: &str) -> Option<String> {
    // An empty prefix would claim every variable there is.
    figment_prefix(text).or_else(|| config_prefix(text)).filter(|prefix| !prefix.trim_end_matches('_').is_empty())
}

/// The fields of `struct ty { … }` in `text` as environment reads `PREFIX` + `FIELD`:
/// required unless an `Option` or `#[serde(default…)]`; a setting when typed as one, a
/// credential when the secrecy crate wraps it (`Secret<String>`, `SecretString`). With a
/// `separator`, a field whose type is another struct of the file stands for that struct's
/// fields, `PREFIX` + `FIELD` + `separator` + its field.
/// A struct's field with its attributes, name and type (one compiled pattern for the readers
/// of serde structs here and in [`envy`]).
static STRUCT_FIELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)^[[:space:]]*((?:#\[(?:[^\[\]]|\[[^\]]*\])*\][[:space:]]*)*)(?:pub(?:\([^)]*\))?[[:space:]]+)?([a-z_][a-z0-9_]*)[[:space:]]*:[[:space:]]*([^,\n]+)",
    )
    .expect("the struct field pattern is valid")
});
/// serde's `rename = "x"` in a field's attributes.
static SERDE_RENAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u:\b)rename[[:space:]]*=[[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)""#)
        .expect("the serde rename pattern is valid")
});

fn struct_fields(text: &str, ty: &str, prefix: &str, via: &'static str) -> Vec<EnvRead> {
    nested_fields(text, ty, prefix, None, via, 0)
}

fn nested_fields(
    text: &str,
    ty: &str,
    prefix: &str,
    separator: Option<&str>,
    via: &'static str,
    depth: usize,
) -> Vec<EnvRead> {
    let Some(start) = text.find(&format!("struct {ty} {{")).or_else(|| text.find(&format!("struct {ty}{{"))) else {
        return Vec::new();
    };
    let open = start + text[start..].find('{').unwrap_or(0);
    let Some(body) = code::block(&text[open..], QUOTES) else { return Vec::new() };
    let mut found = Vec::new();
    for f in STRUCT_FIELD.captures_iter(body) {
        let (Some(attributes), Some(field), Some(field_type)) = (f.get(1), f.get(2), f.get(3)) else { continue };
        let (attributes, field_type) = (attributes.as_str(), field_type.as_str().trim());
        let optional = optional_type(field_type) || attributes.contains("default");
        // `#[serde(rename = "main_secret")] encryption: Encryption` is read as `main_secret`.
        let key = SERDE_RENAME.captures(attributes).and_then(|c| c.get(1)).map_or(field.as_str(), |m| m.as_str());
        let inner = field_type.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(field_type).trim();
        if let Some(separator) = separator
            && depth < 4
            && inner.starts_with(|c: char| c.is_ascii_uppercase())
            && (text.contains(&format!("struct {inner} {{")) || text.contains(&format!("struct {inner}{{")))
        {
            let nested = format!("{prefix}{key}{separator}");
            found.extend(nested_fields(text, inner, &nested, Some(separator), via, depth + 1).into_iter().map(
                |read| {
                    let need = if optional { Need::Optional } else { read.need };
                    EnvRead { need, ..read }
                },
            ));
            continue;
        }
        let need = if optional { Need::Optional } else { Need::Required };
        let name = format!("{prefix}{key}").to_ascii_uppercase();
        let secret = ["Secret<", "SecretString", "SecretBox<", "secrecy::"].iter().any(|t| inner.starts_with(t));
        found.push(
            EnvRead::new(name, open + 1 + field.start(), need, via)
                .typed_setting(is_setting_type(field_type))
                .marked_secret(secret),
        );
    }
    found
}

/// The byte ranges of inline test modules: a `#[cfg(test)]` attribute followed by
/// `mod name {`, up to its closing brace (found past strings, raw strings, characters and
/// comments, which hold anything in tests).
fn test_modules(text: &str) -> Vec<std::ops::Range<usize>> {
    static TEST_MOD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"#\[cfg\((?:test|all\(test[^\n]*)\)\][[:space:]]*(?:#\[[^\n]*\][[:space:]]*)*(?:pub(?:\([^)]*\))?[[:space:]]+)?mod[[:space:]]+[[:word:]]+[[:space:]]*\{")
            .expect("the test module pattern is valid")
    });
    TEST_MOD.find_iter(text).map(|m| m.start()..m.end() + closing_brace(&text[m.end()..])).collect()
}

/// The length of Rust code up to and including the `}` that closes a block already opened
/// (the whole text when it never closes).
fn closing_brace(code: &str) -> usize {
    let bytes = code.as_bytes();
    let mut depth = 1usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = code[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = code[i + 2..].find("*/").map_or(bytes.len(), |n| i + 2 + n + 1);
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) && (i == 0 || !is_ident(bytes[i - 1])) => {
                let hashes = bytes[i + 1..].iter().take_while(|b| **b == b'#').count();
                if bytes.get(i + 1 + hashes) == Some(&b'"') {
                    let end = format!("\"{}", "#".repeat(hashes));
                    let from = i + 2 + hashes;
                    i = code[from..].find(&end).map_or(bytes.len(), |n| from + n + end.len() - 1);
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' => {
                // A character literal ('x', '\n', 'é'), not a lifetime ('a).
                if bytes.get(i + 1) == Some(&b'\\') {
                    i = code[i + 2..].find('\'').map_or(bytes.len(), |n| i + 2 + n);
                } else if let Some(c) = code[i + 1..].chars().next()
                    && code[i + 1 + c.len_utf8()..].starts_with('\'')
                {
                    i += c.len_utf8() + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

fn is_ident(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, Need)> {
        reads(text).into_iter().map(|r| (r.name, r.need)).collect()
    }

    #[test]
    fn names_given_by_string_constants() {
        let text = "const MASTER_KEY_ENV: &str = \"MEILI_MASTER_KEY\";\nconst DB_ENV: &'static str = \"DATABASE_URL\";\n#[derive(Parser)]\nstruct Opt {\n    #[arg(long, env = MASTER_KEY_ENV)]\n    master_key: Option<String>,\n    #[arg(long, env = \"MAX_INDEX_SIZE\")]\n    max_index_size: u64,\n}\nfn main() { let db = std::env::var(DB_ENV)?; }\n";
        let rows: Vec<(String, Need, bool)> = reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect();
        assert_eq!(
            rows,
            [
                ("DATABASE_URL".into(), Need::Required, false),
                ("MEILI_MASTER_KEY".into(), Need::Optional, false),
                ("MAX_INDEX_SIZE".into(), Need::Required, true),
            ]
        );
    }

    #[test]
    fn std_env_reads_and_what_follows_them() {
        let text = "let a = std::env::var(\"API_TOKEN\")?;\nlet b = env::var(\"DB_PASSWORD\").unwrap_or_default();\nlet c = env::var(\"X_KEY\");\nlet d = option_env!(\"OPT\");\n";
        assert_eq!(
            found(text),
            [
                ("API_TOKEN".into(), Need::Required),
                ("DB_PASSWORD".into(), Need::Optional),
                ("X_KEY".into(), Need::Unstated),
                ("OPT".into(), Need::Optional)
            ]
        );
    }

    #[test]
    fn the_imported_var_function_read_bare() {
        let text = "use std::env::{self, var};
fn s3() { let k = var(\"AWS_SECRET_ACCESS_KEY\").ok(); let m = var(\"MAIL_PASSWORD\")?; }
";
        assert_eq!(
            found(text),
            [("AWS_SECRET_ACCESS_KEY".into(), Need::Optional), ("MAIL_PASSWORD".into(), Need::Required)]
        );
        // Without the import, `var` is some other function.
        assert!(found("fn f() { let k = var(\"AWS_SECRET_ACCESS_KEY\"); }\n").is_empty());
    }

    #[test]
    fn clap_arguments_with_env() {
        let text = r#"
#[derive(Parser)]
struct Args {
    /// The database.
    #[arg(long, env = "DATABASE_URL")]
    database_url: String,
    #[clap(long, env)]
    pub hmac_key: String,
    #[arg(long, env = "SMTP_PASSWORD")]
    smtp_password: Option<String>,
    #[arg(long, env = "PORT", default_value_t = 8080)]
    port: u16,
    #[arg(long, value_parser = ["a", "b"], env = "MODE_TOKEN")]
    #[serde(skip)]
    mode: String,
}
"#;
        assert_eq!(
            found(text),
            [
                ("DATABASE_URL".into(), Need::Required),
                ("HMAC_KEY".into(), Need::Required),
                ("SMTP_PASSWORD".into(), Need::Optional),
                ("PORT".into(), Need::Optional),
                ("MODE_TOKEN".into(), Need::Required),
            ]
        );
    }

    #[test]
    fn envy_config_crate_and_envconfig() {
        let text = r#"
#[derive(Deserialize)]
struct Config {
    database_url: String,
    #[serde(default)]
    api_key: String,
    smtp_pass: Option<String>,
}
let c = envy::prefixed("APP_").from_env::<Config>()?;
#[derive(Envconfig)]
struct Other {
    #[envconfig(from = "SECRET_KEY")]
    pub secret_key: String,
    #[envconfig(from = "REDIS_PASSWORD", default = "x")]
    pub redis: String,
}
"#;
        assert_eq!(
            found(text),
            [
                ("SECRET_KEY".into(), Need::Required),
                ("REDIS_PASSWORD".into(), Need::Optional),
                ("APP_DATABASE_URL".into(), Need::Required),
                ("APP_API_KEY".into(), Need::Optional),
                ("APP_SMTP_PASS".into(), Need::Optional),
            ]
        );
        let text = "struct Settings { jwt_secret: String }\nlet s = Config::builder().add_source(Environment::with_prefix(\"app\")).build()?.try_deserialize::<Settings>()?;\n";
        assert_eq!(found(text), [("APP_JWT_SECRET".into(), Need::Required)]);
        // Over a configuration file, the file may give it: the variable only overrides.
        let layered = text.replace(
            ".add_source(Environment",
            ".add_source(File::from(base.join(\"base.yaml\"))).add_source(Environment",
        );
        assert_eq!(found(&layered), [("APP_JWT_SECRET".into(), Need::Unstated)]);
    }

    #[test]
    fn config_crate_separators_nest_the_settings_structs() {
        let text = "pub struct Settings {\n    pub database: DatabaseSettings,\n    pub email: Option<EmailSettings>,\n    pub redis_uri: Secret<String>,\n}\npub struct DatabaseSettings {\n    pub password: Secret<String>,\n    pub port: u16,\n}\npub struct EmailSettings {\n    pub token: String,\n}\nlet s = Config::builder()\n    .add_source(config::Environment::with_prefix(\"APP\")\n        .prefix_separator(\"_\")\n        .separator(\"__\"))\n    .build()?;\ns.try_deserialize::<Settings>()\n";
        let found = reads(text);
        let rows: Vec<(&str, Need, bool, bool)> =
            found.iter().map(|r| (r.name.as_str(), r.need, r.setting, r.marked_secret)).collect();
        assert_eq!(
            rows,
            [
                ("APP_DATABASE__PASSWORD", Need::Required, false, true),
                ("APP_DATABASE__PORT", Need::Required, true, false),
                ("APP_EMAIL__TOKEN", Need::Optional, false, false),
                ("APP_REDIS_URI", Need::Required, false, true),
            ]
        );
        // The prefix separator defaults to the separator; without one, nothing nests.
        let doubled = text.replace("\n        .prefix_separator(\"_\")", "");
        assert_eq!(namespace(&doubled).as_deref(), Some("APP__"));
        assert!(reads(&doubled).iter().any(|r| r.name == "APP__DATABASE__PASSWORD"));
        let flat = doubled.replace("\n        .separator(\"__\")", "");
        let names: Vec<String> = reads(&flat).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["APP_DATABASE", "APP_EMAIL", "APP_REDIS_URI"]);
        // figment's `split` nests the same way.
        let figment = "struct Config { db: Db }\nstruct Db { password: String }\nlet c: Config = Figment::new().merge(Env::prefixed(\"APP_\").split(\"__\")).extract()?;\n";
        let names: Vec<String> = reads(figment).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["APP_DB__PASSWORD"]);
    }

    #[test]
    fn figment_env_prefixed_into_a_struct() {
        let text = r#"
pub struct Configuration {
    #[builder(default)]
    pub jwt_secret: Option<SecUtf8>,
    pub key_seed: String,
}
let env = || Env::prefixed("LLDAP_").split("__");
let mut config: Configuration = Figment::new().merge(env()).extract()?;
"#;
        assert_eq!(
            found(text),
            [("LLDAP_JWT_SECRET".into(), Need::Optional), ("LLDAP_KEY_SEED".into(), Need::Required)]
        );
        let text = "struct App { token: String }\nlet a = Figment::from(Env::prefixed(\"APP_\")).extract::<App>()?;\n";
        assert_eq!(found(text), [("APP_TOKEN".into(), Need::Required)]);
        // `extract::<Self>()` in the type's own `impl`; of two prefixes merged, the last wins
        // (a renamed project's).
        let text = "pub struct Config {\n    pub turn_secret: String,\n}\nimpl Config {\n    pub fn load() -> Result<Figment> {\n        Ok(Figment::new().merge(Env::prefixed(\"OLD_\").split(\"__\")).merge(Env::prefixed(\"NEW_\").split(\"__\")))\n    }\n    pub fn new(raw: &Figment) -> Result<Self> {\n        raw.extract::<Self>()\n    }\n}\n";
        assert_eq!(found(text), [("NEW_TURN_SECRET".into(), Need::Required)]);
    }

    #[test]
    fn figment_through_a_function_over_a_file_of_defaults() {
        // The type comes from the function that extracts; a renamed field is read by its
        // serde name; over a file of defaults a field needs no variable.
        let text = r#"
pub struct ConfigurationInner {
    /// The main secret.
    #[serde(
        rename = "main_secret",
        deserialize_with = "deserialize_main_secret"
    )]
    pub encryption: Encryption,
    pub db_dsn: String,
}
fn try_extract(figment: Figment) -> anyhow::Result<ConfigurationInner> {
    Ok(figment.extract()?)
}
pub fn load() -> anyhow::Result<ConfigurationInner> {
    try_extract(Figment::new().merge(Toml::string(DEFAULTS)).merge(Env::prefixed("APP_")))
}
#[cfg(test)]
mod tests {
    fn t() { let actual: Other = Figment::new().extract().unwrap(); }
}
"#;
        assert_eq!(found(text), [("APP_MAIN_SECRET".into(), Need::Unstated), ("APP_DB_DSN".into(), Need::Unstated)]);
    }

    #[test]
    fn schematic_configs_read_each_field_under_their_prefix() {
        let text = "use schematic::Config;\n\n#[derive(Debug, Clone, Config)]\n#[config(rename_all = \"snake_case\", env_prefix = \"MUSIC_SPOTIFY_\")]\npub struct SpotifyConfig {\n    /// The client ID.\n    pub client_id: String,\n    /// The client secret.\n    pub client_secret: String,\n    pub timeout_secs: u64,\n}\n\n#[derive(Config)]\n#[config(rename_all = \"snake_case\")]\npub struct MusicConfig {\n    pub password: String,\n}\n";
        let rows: Vec<(String, Need, bool)> = reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect();
        assert_eq!(
            rows,
            [
                ("MUSIC_SPOTIFY_CLIENT_ID".into(), Need::Optional, false),
                ("MUSIC_SPOTIFY_CLIENT_SECRET".into(), Need::Optional, false),
                ("MUSIC_SPOTIFY_TIMEOUT_SECS".into(), Need::Optional, true),
            ]
        );
        // Without schematic, a `config` attribute is some other derive's.
        assert_eq!(reads(&text.replace("schematic", "other")), []);
    }

    #[test]
    fn test_modules_end_at_their_own_brace() {
        let text = "#[cfg(test)]\nmod tests {\n    const A: &str = r#\"\n}\n\"#;\n    const B: char = '}';\n    // }\n    fn f<'a>(x: &'a str) -> &'a str { \"}\\\"\" ; x }\n}\nfn after() {}\n";
        let modules = test_modules(text);
        assert_eq!(modules.len(), 1);
        assert_eq!(&text[modules[0].end..], "\nfn after() {}\n");
        assert_eq!(closing_brace("never closed {"), 14);
    }

    #[test]
    fn inline_test_modules_are_not_reads() {
        let text = "fn main() { env::var(\"REAL_TOKEN\"); }\n\n#[cfg(test)]\nmod tests {\n    fn t() {\n        let _ = env::var(\"FIXTURE_TOKEN\");\n    }\n}\n\nfn after() { env::var(\"LATER_TOKEN\"); }\n";
        let names: Vec<String> = found(text).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["REAL_TOKEN", "LATER_TOKEN"]);
    }
}
