//! How JavaScript and TypeScript code reads the environment: `process.env.X`,
//! `import.meta.env.X`, `Bun.env.X` and `process.env["X"]` (optional with a `??`/`||`
//! fallback, required with a `!` assertion outside functions and conditional blocks); destructuring
//! (`const { X, Y = "d" } = process.env`); the `env("X")` helpers apps define; the schemas
//! that validate the environment — t3-env's `createEnv({ server: { X: z.string() } })`, zod
//! objects parsed from it, envalid's `cleanEnv(process.env, { X: str() })` — whose entries
//! are required unless optional or defaulted, and znv's `parseEnv(process.env, { X: z.string() })`;
//! joi schemas (see [`joi`]), convict's (see [`convict`]), settings tables (see [`env_tables`]), env-schema's (see [`env_schema`]) and Effect's `Config` (see [`effect`]); the `env-var` package (`env.get("X").required()`);
//! NestJS's `ConfigService` (`config.getOrThrow("X")`); AdonisJS's `Env` (see [`adonis`]);
//! Prisma schemas (`url = env("DATABASE_URL")`, required); and the variables a `turbo.json`
//! says its tasks depend on (`globalEnv`, `tasks.*.env`), which also covers what libraries
//! read by themselves (the AI SDK's `OPENAI_API_KEY`); and the variables an SDK reads when
//! its client is made without a value (see [`sdk_defaults`]).

use crate::rel_path::RelPath;
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};
use crate::detect::sources::Sources;

const QUOTES: &[char] = &['"', '\'', '`'];

/// NestJS `ConfigService` reads by a constant's name (see [`named_keys`]).
pub fn reads_by_constant(sources: &Sources, rel: &RelPath, text: &str) -> Vec<EnvRead> {
    named_keys::reads(sources, rel, text)
}

pub fn reads(rel: &RelPath, text: &str) -> Vec<EnvRead> {
    if rel.ends_with(".prisma") {
        return prisma_reads(text);
    }
    if rel.ends_with(".json") {
        return turbo_reads(text);
    }
    let mut found = member_reads(text);
    found.extend(destructured(text));
    found.extend(schema_reads(text));
    found.extend(joi::reads(text));
    found.extend(convict::reads(text));
    found.extend(env_tables::reads(text));
    found.extend(env_schema::reads(text));
    found.extend(effect::reads(text));
    found.extend(class_validator_reads(text));
    found.extend(env_var_reads(text));
    found.extend(adonis::reads(text));
    found.extend(nest_config_reads(text));
    found.extend(declared(text));
    found.extend(helpers::reads(text));
    found.extend(helpers::foreign_calls(text));
    found.extend(aliased_reads(text));
    found.extend(sdk_defaults::reads(text));
    found
}

/// The file's env helpers, which other files call (see [`helpers::helpers`]).
pub fn env_helpers(text: &str) -> Vec<crate::detect::ecosystems::ecosystem::EnvHelper> {
    helpers::helpers(text)
}

/// At most this many other names for `process.env` are followed in one file.
const MAX_ALIASES: usize = 8;

/// Reads through another name for `process.env`: `const env = process.env`, or a parameter
/// typed as it (`@param {NodeJS.ProcessEnv} env`, `(env: NodeJS.ProcessEnv)`), then
/// `env.DB_PASS` (mastodon's streaming server reads its database and Redis settings so).
/// Upper-case names only: `env.get(…)` and the like are the object's methods.
fn aliased_reads(text: &str) -> Vec<EnvRead> {
    static ALIAS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:(?:const|let|var)[[:space:]]+([A-Za-z_$][[:word:]$]*)[[:space:]]*=[[:space:]]*process\.env[[:space:]]*[;\n]|@param[[:space:]]+\{(?:NodeJS\.)?ProcessEnv\}[[:space:]]+([A-Za-z_$][[:word:]$]*)|([A-Za-z_$][[:word:]$]*)\??[[:space:]]*:[[:space:]]*NodeJS\.ProcessEnv(?-u:\b))",
        )
        .expect("the process.env alias pattern is valid")
    });
    let mut aliases: Vec<&str> = ALIAS
        .captures_iter(text)
        .filter_map(|c| c.get(1).or(c.get(2)).or(c.get(3)).map(|m| m.as_str()))
        .filter(|alias| *alias != "process")
        .collect();
    aliases.sort_unstable();
    aliases.dedup();
    // A file names process.env once or twice; a bound keeps a generated one cheap.
    aliases.truncate(MAX_ALIASES);
    let strings = string_text(text);
    let mut found = Vec::new();
    for alias in aliases {
        let Ok(read) =
            Regex::new(&format!(r"(?:^|[^[:word:]$.])({})\.([A-Z_][A-Z0-9_]*)(?-u:\b)", regex::escape(alias)))
        else {
            continue;
        };
        for c in read.captures_iter(text) {
            let (Some(start), Some(name)) = (c.get(1), c.get(2)) else { continue };
            let after = &text[name.end()..];
            if strings.iter().any(|s| s.contains(&start.start())) || code::assigns(after) {
                continue;
            }
            found.push(EnvRead::new(name.as_str(), name.start(), code::script_need_after(after), "process.env"));
        }
    }
    found
}

/// `process.env.X`, `import.meta.env.X`, `Bun.env.X`, `process.env["X"]`, `env("X")`.
fn member_reads(text: &str) -> Vec<EnvRead> {
    static READ: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:(?-u:\b)process\.env|(?-u:\b)import\.meta\.env|(?-u:\b)Bun\.env)(?:\.([A-Za-z_][A-Za-z0-9_]*)(?-u:\b)|\[[[:space:]]*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`][[:space:]]*\])|(?-u:\b)env\([[:space:]]*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`]"#,
        )
        .expect("the Node environment-read pattern is valid")
    });
    let strings = string_text(text);
    READ.captures_iter(text)
        .filter_map(|c| {
            let (whole, name) = (c.get(0)?, c.get(1).or(c.get(2)).or(c.get(3))?);
            // `process.env.X` written inside a string is a snippet shown to users, not a read.
            if strings.iter().any(|s| s.contains(&whole.start())) {
                return None;
            }
            let after = &text[whole.end()..];
            if c.get(3).is_none() && code::assigns(after) {
                return None;
            }
            let need = if c.get(3).is_some() {
                let rest = code::rest_of_call(after, QUOTES);
                if code::has_another_argument(rest) {
                    Need::Optional
                } else {
                    code::script_need_after(after[rest.len()..].get(1..).unwrap_or_default())
                }
            } else {
                code::script_need_after(after)
            };
            Some(EnvRead::new(name.as_str(), name.start(), need, "process.env"))
        })
        .collect()
}

/// The byte ranges of string text: quoted strings and the literal parts of template strings
/// (not their `${…}` expressions, which are code), past comments. A quote left open at the
/// end of a line closes there, so one misread character (a quote in a regex literal) costs a
/// line, not the file.
fn string_text(text: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    // Open template strings, each with the `{` depth its current `${…}` started at.
    let mut templates: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let mut in_template_text = false;
    let mut start = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_template_text {
            match b {
                b'\\' => i += 1,
                b'`' => {
                    spans.push(start..i);
                    in_template_text = false;
                    templates.pop();
                }
                b'$' if bytes.get(i + 1) == Some(&b'{') => {
                    spans.push(start..i);
                    in_template_text = false;
                    depth += 1;
                    if let Some(open) = templates.last_mut() {
                        *open = depth;
                    }
                    i += 1;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = text[i..].find('\n').map_or(bytes.len(), |n| i + n),
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(bytes.len(), |n| i + 2 + n + 1);
            }
            b'\'' | b'"' => {
                let open = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                spans.push(open + 1..i.min(bytes.len()));
            }
            b'`' => {
                templates.push(0);
                in_template_text = true;
                start = i + 1;
            }
            b'{' => depth += 1,
            b'}' => {
                if templates.last().is_some_and(|open| *open == depth && depth > 0) {
                    in_template_text = true;
                    start = i + 1;
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        i += 1;
    }
    if in_template_text {
        spans.push(start..bytes.len());
    }
    spans
}

/// `const { A, B: b, C = "d" } = process.env` (also `import.meta.env`, `Bun.env`).
fn destructured(text: &str) -> Vec<EnvRead> {
    static DESTRUCTURE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?-u:\b)(?:const|let|var)[[:space:]]*\{([^{}]*)\}[[:space:]]*=[[:space:]]*(?:process\.env|import\.meta\.env|Bun\.env)(?-u:\b)",
        )
        .expect("the destructuring pattern is valid")
    });
    static ENTRY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*(?::[[:space:]]*[A-Za-z_$][[:word:]$]*[[:space:]]*)?(=)?")
            .expect("the entry pattern is valid")
    });
    let mut found = Vec::new();
    for c in DESTRUCTURE.captures_iter(text) {
        let Some(entries) = c.get(1) else { continue };
        let mut offset = entries.start();
        for entry in entries.as_str().split(',') {
            if let Some(e) = ENTRY.captures(entry)
                && let Some(name) = e.get(1)
                && !entry.trim_start().starts_with("...")
            {
                let need = if e.get(2).is_some() { Need::Optional } else { Need::Unstated };
                found.push(EnvRead::new(name.as_str(), offset + name.start(), need, "process.env destructuring"));
            }
            offset += entry.len() + 1;
        }
    }
    found
}

/// The entries of the environment's schemas: t3-env `createEnv({ server, shared, client })`,
/// envalid `cleanEnv(env, { … })`, znv `parseEnv(process.env, { … })`, and `z.object({ … })` in a file that reads the
/// environment.
fn schema_reads(text: &str) -> Vec<EnvRead> {
    // A schema's comments are prose (`// under ClickHouse's 10MB limit`, `/* You'll … */`): an
    // apostrophe there would open a quote that never closes and hide the rest of the schema.
    let blanked = code::without_comments(text, "//", Some(("/*", "*/")), QUOTES);
    let text = blanked.as_str();
    static CREATE_ENV: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?-u:\b)createEnv\([[:space:]]*\{").expect("the createEnv pattern is valid"));
    static SECTION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)(?:server|shared|client)[[:space:]]*:[[:space:]]*\{")
            .expect("the t3-env section pattern is valid")
    });
    static CLEAN_ENV: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?-u:\b)cleanEnv\(").expect("the cleanEnv pattern is valid"));
    // znv's `parseEnv(process.env, { X: z.string() })`: a plain object of zod validators.
    static PARSE_ENV: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?-u:\b)parseEnv\([[:space:]]*(?:process\.env|import\.meta\.env|Bun\.env)[[:space:]]*,[[:space:]]*\{",
        )
        .expect("the znv parseEnv pattern is valid")
    });
    static ZOD_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)z[[:space:]]*\.(?:object|strictObject|looseObject)\([[:space:]]*\{")
            .expect("the z.object pattern is valid")
    });
    static SKIPPED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)skipValidation[[:space:]]*:[[:space:]]*true(?-u:\b)")
            .expect("the skipValidation pattern is valid")
    });
    let mut blocks: Vec<(usize, &'static str)> = Vec::new();
    for m in CREATE_ENV.find_iter(text).take(MAX_SCHEMAS) {
        let open = m.end() - 1;
        let Some(body) = schema_block(&text[open..]) else { continue };
        // `skipValidation: true`: t3-env never checks the schema, so nothing in it is
        // required (a condition, `!!process.env.SKIP_ENV_VALIDATION`, still checks by default).
        let via = if SKIPPED.is_match(body) { UNCHECKED_T3_ENV } else { "t3-env schema" };
        for section in SECTION.find_iter(body) {
            let section_open = open + 1 + section.end() - 1;
            blocks.push((section_open, via));
            blocks.extend(spread_sections(text, section_open).into_iter().map(|spread| (spread, via)));
        }
    }
    for m in CLEAN_ENV.find_iter(text).take(MAX_SCHEMAS) {
        let Some(arguments) = code::block(&text[m.end() - 1..], QUOTES) else { continue };
        // The second argument: the validators.
        let first = code::expression(arguments, QUOTES);
        let second = m.end() + first.len() + 1;
        if let Some(brace) = text.get(second..).and_then(|t| t.find('{')).map(|i| second + i)
            && text[second..brace].trim().is_empty()
        {
            blocks.push((brace, "envalid cleanEnv"));
        }
    }
    for m in PARSE_ENV.find_iter(text).take(MAX_SCHEMAS) {
        blocks.push((m.end() - 1, "znv parseEnv"));
    }
    let reads_environment = ["process.env", "import.meta.env", "Bun.env", "createEnv"].iter().any(|r| text.contains(r));
    if reads_environment {
        for m in ZOD_OBJECT.find_iter(text).take(MAX_SCHEMAS) {
            if !blocks.iter().any(|(b, _)| *b == m.end() - 1) {
                let via = if only_safe_parsed(text, m.start(), m.end() - 1) { SAFE_PARSED_ZOD } else { "zod schema" };
                blocks.push((m.end() - 1, via));
            }
        }
    }
    let mut found: Vec<EnvRead> = blocks.into_iter().flat_map(|(open, via)| schema_entries(text, open, via)).collect();
    found.sort_by_key(|r| r.at);
    found.dedup_by(|a, b| a.at == b.at);
    found
}

/// The object blocks a t3-env section block (opening at `open`) spreads in from the same
/// file: `...githubEnv.server` is the `server: { … }` of `const githubEnv = { … }`, and
/// `...authVars` the object `const authVars = { … }` itself (a schema split by feature).
fn spread_sections(text: &str, open: usize) -> Vec<usize> {
    static SPREAD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\.\.\.[[:space:]]*([A-Za-z_$][[:word:]$]*)(?:[[:space:]]*\.[[:space:]]*(server|shared|client))?[[:space:]]*(?:,|$)")
            .expect("the spread pattern is valid")
    });
    let Some(body) = schema_block(&text[open..]) else { return Vec::new() };
    let mut found = Vec::new();
    for spread in SPREAD.captures_iter(body) {
        let Some(name) = spread.get(1) else { continue };
        let definition = format!(
            r"(?-u:\b)(?:const|let|var)[[:space:]]+{}[[:space:]]*(?::[^=]*)?=[[:space:]]*\{{",
            regex::escape(name.as_str())
        );
        let Some(object) = Regex::new(&definition).ok().and_then(|d| d.find(text)).map(|m| m.end() - 1) else {
            continue;
        };
        match spread.get(2) {
            None => found.push(object),
            Some(member) => {
                let entry = object_entries(text, object).into_iter().find(|e| e.name == member.as_str());
                if let Some(entry) = entry.filter(|e| e.value.trim_start().starts_with('{')) {
                    let value_at = entry.value.as_ptr() as usize - text.as_ptr() as usize;
                    found.push(value_at + (entry.value.len() - entry.value.trim_start().len()));
                }
            }
        }
    }
    found
}

/// How far a schema's block is followed: one object of a few hundred variables, each with its
/// comment, is 60 KB.
const SCHEMA_BYTES: usize = 256 * 1024;
/// How many schema blocks of each kind a file gives: a file of nothing but unclosed
/// `z.object({` stays linear.
const MAX_SCHEMAS: usize = 64;

/// The inside of the schema block opening at the start of `text`.
fn schema_block(text: &str) -> Option<&str> {
    code::block_within(text, QUOTES, SCHEMA_BYTES)
}

/// A zod schema the code checks with `safeParse`, going on without the values when they fail.
const SAFE_PARSED_ZOD: &str = "zod schema, checked with safeParse";

/// Whether the zod object starting at `start`, its fields' block opening at `open`, is only
/// ever checked with `safeParse` — chained on it, or on the name it is bound to — which hands
/// back a failure for the code to handle instead of throwing: its fields are optional.
fn only_safe_parsed(text: &str, start: usize, open: usize) -> bool {
    static BOUND: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:const|let|var)[[:space:]]+([A-Za-z_$][[:word:]$]*)(?:[[:space:]]*:[^=]+)?[[:space:]]*=[[:space:]]*$",
        )
        .expect("the binding pattern is valid")
    });
    let Some(body) = code::block(&text[open..], QUOTES) else { return false };
    let after = text[open + body.len() + 2..].trim_start();
    let after = after.strip_prefix(')').unwrap_or(after).trim_start();
    if after.starts_with(".safeParse(") {
        return true;
    }
    if after.starts_with('.') {
        return false;
    }
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let Some(name) = BOUND.captures(&text[line_start..start]).and_then(|c| c.get(1)) else { return false };
    let name = regex::escape(name.as_str());
    let Ok(check) = Regex::new(&format!(
        r"(?:^|[^[:word:]$.]){name}[[:space:]]*\.[[:space:]]*(safeParse|parse|safeParseAsync|parseAsync)\("
    )) else {
        return false;
    };
    let mut checked = false;
    for c in check.captures_iter(text) {
        let (Some(whole), Some(method)) = (c.get(0), c.get(1)) else { continue };
        if !method.as_str().starts_with("safe")
            || (stops_on_failure(&text[whole.end()..]) && runs_at_load(text, whole.start()))
        {
            return false;
        }
        checked = true;
    }
    checked
}

/// Whether the code at `at` runs when the module loads: at the top level, or in a function
/// the top level calls (`export const env = validateEnv();`) — not in one called on demand
/// (`getSlackEnv()` from a route).
fn runs_at_load(text: &str, at: usize) -> bool {
    static FUNCTION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[[:space:]]*(?:export[[:space:]]+)?(?:(?:async[[:space:]]+)?function[[:space:]]+([A-Za-z_$][[:word:]$]*)|(?:const|let|var)[[:space:]]+([A-Za-z_$][[:word:]$]*)[[:space:]]*=.*=>)")
            .expect("the function pattern is valid")
    });
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent_of = |line: &str| line.len() - line.trim_start().len();
    let indent = indent_of(&text[line_start..at]);
    if indent == 0 {
        return true;
    }
    let Some(function) =
        text[..line_start].lines().rev().filter(|line| !line.trim().is_empty() && indent_of(line) < indent).find_map(
            |line| FUNCTION.captures(line).and_then(|c| c.get(1).or(c.get(2))).map(|m| m.as_str().to_string()),
        )
    else {
        return true;
    };
    text.lines().any(|line| {
        !line.starts_with(char::is_whitespace)
            && line.match_indices(&format!("{function}(")).any(|(i, _)| {
                !line[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '.')
                    && !line[..i].trim_end().ends_with("function")
            })
    })
}

/// Whether the lines after a `safeParse(` stop the app when it fails
/// (`if (!result.success) { …; process.exit(1) }`, `throw`): then it checks like `parse`.
fn stops_on_failure(after: &str) -> bool {
    /// How many lines after the call its failure is looked for.
    const LINES: usize = 8;
    after.lines().take(LINES).any(|line| line.contains("process.exit(") || line.contains("throw "))
}

/// A t3-env schema whose `createEnv` says `skipValidation: true`.
const UNCHECKED_T3_ENV: &str = "t3-env schema, never validated";

/// The `NAME: validator` entries of the object block opening at `open`.
fn schema_entries(text: &str, open: usize, via: &'static str) -> Vec<EnvRead> {
    const OPTIONAL: &[&str] =
        &[".optional()", ".default(", ".prefault(", ".catch(", ".nullish()", "default:", "devDefault:"];
    const ENVALID: &[&str] = &["str(", "bool(", "num(", "email(", "host(", "port(", "url(", "json(", "makeValidator("];
    object_entries(text, open)
        .into_iter()
        .filter(|entry| code::is_upper_snake(entry.name))
        .map(|entry| {
            let value = entry.value.trim();
            let need = if OPTIONAL.iter().any(|o| value.contains(o)) {
                Need::Optional
            } else if via == UNCHECKED_T3_ENV || via == SAFE_PARSED_ZOD {
                Need::Unstated
            } else if value.starts_with("z.") || ENVALID.iter().any(|v| value.starts_with(v)) {
                Need::Required
            } else {
                Need::Unstated
            };
            EnvRead::new(entry.name, entry.at, need, via).typed_setting(types_a_setting(value))
        })
        .collect()
}

/// One `key: value` entry of an object literal: its key (unquoted), the key's offset in the
/// whole text, and the value's expression.
struct ObjectEntry<'t> {
    name: &'t str,
    at: usize,
    value: &'t str,
}

/// The `key: value` entries of the object block opening at `open` (comments before a key,
/// quoted keys), skipping spreads and methods.
fn object_entries(text: &str, open: usize) -> Vec<ObjectEntry<'_>> {
    static KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"^[[:space:]]*(?:(?://[^\n]*|/\*[[:space:][:^space:]]*?\*/)[[:space:]]*)*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?[[:space:]]*:[[:space:]]*"#)
            .expect("valid")
    });
    let Some(body) = schema_block(&text[open..]) else { return Vec::new() };
    let mut found = Vec::new();
    let mut offset = 0;
    while offset < body.len() {
        let rest = &body[offset..];
        let Some(key) = KEY.captures(rest) else {
            // Not an entry (a spread, a method): skip to the next one.
            let skip = code::expression(rest, QUOTES).len();
            offset += skip + 1;
            continue;
        };
        let (Some(whole), Some(name)) = (key.get(0), key.get(1)) else { break };
        let value = code::expression(&rest[whole.end()..], QUOTES);
        found.push(ObjectEntry { name: name.as_str(), at: open + 1 + offset + name.start(), value });
        offset += whole.end() + value.len() + 1;
    }
    found
}

/// Whether a schema entry's validator types the value as a setting: a boolean, number, enum
/// or list (`z.coerce.number()`, `z.enum([…])`, `z.array(…)`, envalid's `bool()`/`num()`/
/// `port()`, a helper named for booleans like `booleanString`), or gives it a default that
/// is one (`.default(false)`, `.default(30)`, `.default([])`).
fn types_a_setting(validator: &str) -> bool {
    static TYPED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^(?:z\.(?:coerce\.)?(?:boolean|number|bigint|enum|nativeEnum|literal|array|stringbool|date)\(|(?:bool|num|port)\(|[A-Za-z_$][[:word:]$]*(?i-u:bool)[[:word:]$]*(?:[[:space:].;,(]|$))",
        )
        .expect("the setting-validator pattern is valid")
    });
    static SETTING_DEFAULT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\.default\([[:space:]]*(?:(?:true|false|-?[0-9][0-9_.]*)[[:space:]]*\)|\[)"#)
            .expect("the setting-default pattern is valid")
    });
    let validator = validator.trim();
    TYPED.is_match(validator) || SETTING_DEFAULT.is_match(validator)
}

/// The fields of a class-validator class the environment is validated against (NestJS's
/// `validateConfig(process.env, EnvironmentVariables)`, or `plainToInstance(Env, config)` in
/// the `validate` hook of `ConfigModule.forRoot`): each upper-case field is a read, required
/// unless `@IsOptional()`, `@ValidateIf(…)` (needed only in some set-ups), `?` or a default
/// make it optional; `@IsBoolean()`, `@IsInt()`, `@IsEnum(…)` and the like (or a `number` or
/// `boolean` type) type it as a setting.
fn class_validator_reads(text: &str) -> Vec<EnvRead> {
    static CLASS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)class[[:space:]]+[A-Za-z_$][[:word:]$]*[[:space:]]*(?:(?:extends|implements)[[:space:]]+[^{]*)?\{")
            .expect("the class pattern is valid")
    });
    static FIELD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:readonly[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*([?!])?[[:space:]]*:[[:space:]]*([^;=\n]*)(=)?")
            .expect("the class field pattern is valid")
    });
    static SETTING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"@(?:IsBoolean|IsBooleanString|IsInt|IsNumber|IsNumberString|IsPositive|IsEnum|IsIn|IsPort|Min|Max|IsArray|IsDate)\(")
            .expect("the setting decorator pattern is valid")
    });
    let validates_environment = text.contains("class-validator")
        && ["process.env", "plainToInstance(", "plainToClass("].iter().any(|r| text.contains(r));
    if !validates_environment {
        return Vec::new();
    }
    let mut found = Vec::new();
    for m in CLASS.find_iter(text) {
        let open = m.end() - 1;
        let Some(body) = code::block(&text[open..], QUOTES) else { continue };
        let mut decorators = String::new();
        let mut offset = open + 1;
        for line in body.split_inclusive('\n') {
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            if trimmed.starts_with('@') || !decorators.is_empty() && !FIELD.is_match(trimmed) {
                // A decorator, or the rest of one spread over lines.
                decorators.push_str(trimmed);
            } else if let Some(field) = FIELD.captures(trimmed)
                && let Some(name) = field.get(1)
            {
                if code::is_upper_snake(name.as_str()) && !decorators.is_empty() {
                    let ty = field.get(3).map_or("", |t| t.as_str()).trim();
                    let optional = decorators.contains("@IsOptional(")
                        || decorators.contains("@ValidateIf(")
                        || field.get(2).is_some_and(|q| q.as_str() == "?")
                        || field.get(4).is_some();
                    let setting = SETTING.is_match(&decorators) || matches!(ty, "number" | "boolean");
                    let need = if optional { Need::Optional } else { Need::Required };
                    found.push(
                        EnvRead::new(name.as_str(), offset + indent + name.start(), need, "class-validator field")
                            .typed_setting(setting),
                    );
                }
                decorators.clear();
            }
            offset += line.len();
        }
    }
    found
}

/// The `env-var` package: `env.get("X").required()` (required), `.default(…)` (optional),
/// under the name it is imported as.
fn env_var_reads(text: &str) -> Vec<EnvRead> {
    static IMPORT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:(?:const|let|var)[[:space:]]+([A-Za-z_$][[:word:]$]*)[[:space:]]*=[[:space:]]*require\([[:space:]]*['"]env-var['"][[:space:]]*\)|import[[:space:]]+(?:\*[[:space:]]+as[[:space:]]+)?([A-Za-z_$][[:word:]$]*)[[:space:]]+from[[:space:]]+['"]env-var['"])"#)
            .expect("the env-var import pattern is valid")
    });
    let Some(binding) = IMPORT.captures(text).and_then(|c| c.get(1).or(c.get(2))) else { return Vec::new() };
    let Ok(get) = Regex::new(&format!(
        r#"(?-u:\b){}\.get\([[:space:]]*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`][[:space:]]*\)"#,
        regex::escape(binding.as_str())
    )) else {
        return Vec::new();
    };
    code::reads_of(&get, text, "env-var", |after| {
        let chain = code::expression(after, QUOTES);
        if chain.contains(".default(") {
            Need::Optional
        } else if chain.contains(".required()") || chain.contains(".required(true)") {
            Need::Required
        } else {
            Need::Unstated
        }
    })
}

/// NestJS's `ConfigService` (`@nestjs/config`), which reads the environment by the names it
/// is asked for: `config.getOrThrow("X")` (required), `config.get("X", "d")` (optional),
/// `config.get<string>("X")`. Upper-case keys only: `get("database.host")` is a namespace's.
fn nest_config_reads(text: &str) -> Vec<EnvRead> {
    static GET: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i-u:config)[[:word:]]*[[:space:]]*\.[[:space:]]*(get|getOrThrow)[[:space:]]*(?:<[^>()]*>)?\([[:space:]]*['"`]([A-Z][A-Z0-9_]*)['"`]"#)
            .expect("the ConfigService pattern is valid")
    });
    if !text.contains("@nestjs/config") {
        return Vec::new();
    }
    GET.captures_iter(text)
        .filter_map(|c| {
            let (method, name, whole) = (c.get(1)?, c.get(2)?, c.get(0)?);
            // A `getOrThrow` in a `try` block is caught: the app goes on without the value
            // (a login strategy it then leaves out).
            let caught = method.as_str() == "getOrThrow" && code::in_try_block(text, whole.start());
            let need = if caught {
                Need::Optional
            } else if method.as_str() == "getOrThrow" {
                Need::Required
            } else if code::has_another_argument(code::rest_of_call(&text[whole.end()..], QUOTES)) {
                Need::Optional
            } else {
                Need::Unstated
            };
            let via = if caught { "ConfigService getOrThrow in a try block" } else { "ConfigService" };
            Some(EnvRead::new(name.as_str(), name.start(), need, via))
        })
        .collect()
}

/// The environment a declaration file types (`process-env.d.ts`, Vite's `env.d.ts`):
/// `interface ProcessEnv { X?: string; Y: string }` (optional with `?`), `ImportMetaEnv`;
/// and the project's own type of its environment (`interface EnvVariables`, `type ServerEnv
/// = {`, a Worker's `interface Env`), whose upper-case members are the variables it parses
/// (a `boolean` or `number` member is a setting).
fn declared(text: &str) -> Vec<EnvRead> {
    static INTERFACE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?-u:\b)(?:interface[[:space:]]+([A-Za-z]*Env(?:ironment)?(?:Vars|Variables)?)|type[[:space:]]+([A-Za-z]*Env(?:ironment)?(?:Vars|Variables)?)[[:space:]]*=)(?-u:\b)[^{;]*\{",
        )
        .expect("the env interface pattern is valid")
    });
    static MEMBER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[[:space:]]*(?:readonly[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*)(\?)?[[:space:]]*:[[:space:]]*([^;,\n]*)")
            .expect("the member pattern is valid")
    });
    let mut found = Vec::new();
    for c in INTERFACE.captures_iter(text) {
        let (Some(whole), Some(type_name)) = (c.get(0), c.get(1).or(c.get(2))) else { continue };
        let process_env = matches!(type_name.as_str(), "ProcessEnv" | "ImportMetaEnv");
        let open = whole.end() - 1;
        let Some(body) = code::block(&text[open..], QUOTES) else { continue };
        for member in MEMBER.captures_iter(body) {
            let Some(name) = member.get(1) else { continue };
            if !process_env && !code::is_upper_snake(name.as_str()) {
                continue;
            }
            let need = if member.get(2).is_some() { Need::Optional } else { Need::Unstated };
            let typed = member.get(3).map(|t| t.as_str().trim()).is_some_and(|t| matches!(t, "boolean" | "number"));
            let via = if process_env { "ProcessEnv declaration" } else { "the project's env type" };
            found.push(EnvRead::new(name.as_str(), open + 1 + name.start(), need, via).typed_setting(typed));
        }
    }
    found
}

/// The variables a `turbo.json` declares: `globalEnv`, `globalPassThroughEnv`, and each
/// task's (`tasks`, or turbo 1's `pipeline`) `env` and `passThroughEnv`; wildcards left out.
fn turbo_reads(text: &str) -> Vec<EnvRead> {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    let tasks = json.get("tasks").or_else(|| json.get("pipeline")).and_then(|t| t.as_object());
    let lists = ["globalEnv", "globalPassThroughEnv"].iter().filter_map(|k| json.get(*k)).chain(
        tasks
            .into_iter()
            .flat_map(|t| t.values())
            .flat_map(|task| ["env", "passThroughEnv"].map(|k| task.get(k)))
            .flatten(),
    );
    let mut found: Vec<EnvRead> = Vec::new();
    for name in lists.filter_map(|list| list.as_array()).flatten().filter_map(|n| n.as_str()) {
        if name.contains('*') || name.starts_with('!') || found.iter().any(|r| r.name == name) {
            continue;
        }
        let at = text.find(&format!("\"{name}\"")).map_or(0, |i| i + 1);
        // turbo hashes these into its cache key: a list kept by hand, often of names no code
        // reads any more. It backs a name an env file or compose file gives too.
        found.push(EnvRead::derived(name, at, Need::Unstated, "turbo.json env"));
    }
    found
}

/// `env("DATABASE_URL")` in a Prisma schema: the client cannot connect without it. The
/// `shadowDatabaseUrl` is only for `prisma migrate dev`'s scratch database: optional.
fn prisma_reads(text: &str) -> Vec<EnvRead> {
    static ENV: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)env\([[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)"[[:space:]]*\)"#)
            .expect("the Prisma env pattern is valid")
    });
    let mut reads = code::reads_of(&ENV, text, "Prisma schema", |_| Need::Required);
    for read in &mut reads {
        let line_start = text[..read.at].rfind('\n').map_or(0, |i| i + 1);
        if text[line_start..read.at].trim_start().starts_with("shadowDatabaseUrl") {
            read.need = Need::Optional;
        }
    }
    reads
}

mod adonis;
mod convict;
mod effect;
mod env_schema;
mod env_tables;
mod helpers;
mod joi;
mod named_keys;
mod sdk_defaults;

#[cfg(test)]
mod tests;
