//! How Python code reads the environment: `os.environ["X"]` (required), `os.getenv("X")` and
//! `os.environ.get("X")` (optional with a default), `"X" in os.environ` (optional); the `Env()` readers of environs and
//! django-environ under any name they are bound to (`env.str("X")`, `env("X")`: required
//! without a default, under the prefix of an enclosing `with env.prefixed("APP_"):`); python-decouple's and starlette's `config("X")` (likewise, under any
//! name a `Config(…)` is bound to); pydantic-settings `BaseSettings` classes (each field an
//! upper-cased variable after the class's `env_prefix`, or its `alias`/`validation_alias`;
//! required without a default); and dynaconf `Validator("X", must_exist=True)` under the
//! settings' `envvar_prefix`; and the options of a configparser whose interpolation falls back to
//! the environment.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead, Need};

const QUOTES: &[char] = &['"', '\''];

pub fn reads(text: &str) -> Vec<EnvRead> {
    let mut found = os_reads(text);
    found.extend(membership::reads(text));
    found.extend(by_constant::reads(text));
    found.extend(wrappers::reads(text));
    found.extend(helper_calls::reads(text));
    found.extend(reader_reads(text));
    found.extend(settings_classes(text));
    found.extend(dynaconf_validators(text));
    found.extend(interpolation::reads(text));
    found.extend(flask::config_keys(text));
    found.extend(defaults_dict::reads(text));
    found.extend(sdk_defaults::reads(text));
    found.extend(django_configurations::reads(text));
    // A settings module runs top to bottom at import: a read under `if USE_S3:` or in an
    // `else:` branch happens only in the set-ups that take it, so the app starts without it.
    for read in &mut found {
        // A request handler reads when a request comes, a method when it is called, not when
        // the app starts.
        if read.need == Need::Required
            && (conditions::in_request_handler(text, read.at) || conditions::in_method(text, read.at))
        {
            read.need = Need::Unstated;
            continue;
        }
        if read.need == Need::Required && conditions::under_condition(text, read.at) {
            read.need = Need::Optional;
            read.via = match read.via {
                "os.environ[…]" => "os.environ[…] under a condition",
                "settings reader" => "settings reader under a condition",
                "BaseSettings field" => "BaseSettings field under a condition",
                _ => "read under a condition",
            };
        }
    }
    found
}

/// Whether a field's default is an f-string that interpolates other values
/// (`f"redis://{REDIS_HOST}:{REDIS_PORT}"`): computed, not read.
fn is_formatted_from_fields(default: &str) -> bool {
    let rest = default.strip_prefix(['f', 'F']).unwrap_or_default();
    rest.starts_with(['"', '\'']) && rest.contains('{')
}

/// The text after a call's name argument: its other arguments (see [`code::rest_of_call`]).
fn arguments(after: &str) -> &str {
    code::rest_of_call(after, QUOTES)
}

/// Whether a call passes a default: a second positional argument or `default=`.
fn passes_default(arguments: &str) -> bool {
    code::has_keyword(arguments, "default") || first_extra_is_positional(arguments)
}

/// Whether the first argument after the name is positional (`, "d"`), not a keyword
/// (`, cast=bool`).
fn first_extra_is_positional(arguments: &str) -> bool {
    let Some(more) = arguments.trim_start().strip_prefix(',') else { return false };
    let first = code::expression(more, QUOTES);
    !first.trim().is_empty()
        && !first.split_once('=').is_some_and(|(k, v)| is_identifier(k.trim()) && !v.starts_with('='))
}

/// Whether a call's positional default (the argument after the name) is a setting's value:
/// a flag, a number (`1024`, `0x10`), a collection, a URL without credentials, or an import
/// path (`"oauth2_provider.AccessToken"`) — no credential is any of these.
fn default_is_setting(arguments: &str) -> bool {
    let Some(more) = arguments.trim_start().strip_prefix(',') else { return false };
    if !first_extra_is_positional(arguments) {
        return false;
    }
    let value = code::expression(more, QUOTES).trim();
    if matches!(value, "True" | "False") || value.starts_with(['[', '{', '(']) {
        return true;
    }
    if value.starts_with(|c: char| c.is_ascii_digit())
        && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
    {
        return true;
    }
    let Some(text) = value.strip_prefix(['"', '\'']).and_then(|v| v.strip_suffix(['"', '\''])) else { return false };
    let url = ["http://", "https://"].iter().any(|scheme| text.starts_with(scheme)) && !text.contains('@');
    let import_path =
        text.contains('.') && text.split('.').all(is_identifier) && text.starts_with(|c: char| c.is_ascii_lowercase());
    url || import_path
}

fn is_identifier(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `os.environ["X"]`, `environ["X"]`, `os.environ.get("X")`, `os.getenv("X")`,
/// `os.environ.setdefault("X", …)`, and the same through a name `os.environ` is bound to
/// (`env = os.environ`, then `env.get("X")`).
fn os_reads(text: &str) -> Vec<EnvRead> {
    static READ: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?x)
            (?: (?-u:\b)(?P<index>os\.environ|environ)\[
              | (?-u:\b)(?P<call>os\.environ\.get|os\.getenv|environ\.get|getenv|os\.environ\.setdefault)\(
            )[[:space:]]*['"](?P<name>[A-Za-z_][A-Za-z0-9_]*)['"]
            "#,
        )
        .expect("the Python environment-read pattern is valid")
    });
    static ALIAS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*([a-z_][a-z0-9_]*)[ \t]*=[ \t]*os\.environ[ \t]*(?:#.*)?$")
            .expect("the os.environ alias pattern is valid")
    });
    let mut found = reads_through(&READ, text);
    if !text.contains("= os.environ") && !text.contains("=os.environ") {
        return found;
    }
    for alias in ALIAS.captures_iter(text).filter_map(|c| c.get(1)).map(|a| regex::escape(a.as_str())) {
        let through = format!(
            r#"(?:(?-u:\b)(?P<index>{alias})\[|(?-u:\b)(?P<call>{alias}\.get|{alias}\.setdefault)\()[[:space:]]*['"](?P<name>[A-Za-z_][A-Za-z0-9_]*)['"]"#
        );
        if let Ok(pattern) = Regex::new(&through) {
            found.extend(reads_through(&pattern, text));
        }
    }
    found
}

/// The reads `pattern` finds: its groups are `index` (`environ["X"]`) or `call`, and `name`.
fn reads_through(pattern: &Regex, text: &str) -> Vec<EnvRead> {
    pattern
        .captures_iter(text)
        .filter_map(|c| {
            let (whole, name) = (c.get(0)?, c.name("name")?);
            let after = &text[whole.end()..];
            let rest = arguments(after);
            let closed = after[rest.len()..].get(1..).unwrap_or_default();
            if c.name("index").is_some() && code::assigns(closed) {
                return None;
            }
            let need = if c.name("index").is_some() {
                Need::Required
            } else if passes_default(rest) || code::followed_by(closed, &["or "]) {
                Need::Optional
            } else if sets_django_secret_key(text, whole.start()) && !filled_in_later(text, whole.end(), "SECRET_KEY") {
                // Django refuses to start with an empty SECRET_KEY — unless the settings
                // give it one when the environment does not.
                Need::Required
            } else {
                Need::Unstated
            };
            let via = if c.name("index").is_some() { "os.environ[…]" } else { "os.getenv" };
            // `if os.getenv("SMTP_CREDENTIALS", False):` tests presence: a falsy default there types nothing.
            let presence_test =
                code::expression(rest.trim_start().strip_prefix(',').unwrap_or_default(), QUOTES).trim() == "False"
                    && conditions::in_condition_header(text, whole.start());
            let setting = default_is_setting(rest) && !presence_test;
            Some(EnvRead::new(name.as_str(), name.start(), need, via).typed_setting(setting))
        })
        .collect()
}

/// The types a reader converts a flag or a number to: what it reads is never a secret.
const SCALAR_TYPES: &[&str] = &["bool", "int", "float", "integer", "number", "decimal", "timedelta"];
/// Other reader types that hold settings, not credentials: lists, paths, dates, log levels.
const READER_SETTING_TYPES: &[&str] =
    &["list", "tuple", "path", "datetime", "date", "time", "log_level", "enum", "uuid"];

/// Whether the code after `from` assigns `variable` again inside a block — the fallback of
/// `if not SECRET_KEY and DEBUG: SECRET_KEY = get_random_secret_key()`.
fn filled_in_later(text: &str, from: usize, variable: &str) -> bool {
    text[from..].lines().skip(1).any(|line| {
        let content = line.trim_start();
        content.len() < line.len()
            && content.strip_prefix(variable).is_some_and(|rest| {
                let rest = rest.trim_start();
                rest.starts_with('=') && !rest.starts_with("==")
            })
    })
}

/// Whether the read at `at` is the value of Django's `SECRET_KEY = …` setting.
fn sets_django_secret_key(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..at].trim_start().strip_prefix("SECRET_KEY").is_some_and(|rest| rest.trim_start().starts_with('='))
}

/// The readers environs, django-environ, python-decouple and starlette give: `env.str("X")`,
/// `env("X")`, `config("X", cast=Secret)` — under the names an `Env()`/`Config()` is bound
/// to in the file, and `env`/`config` as everyone names them. Required without a default.
fn reader_reads(text: &str) -> Vec<EnvRead> {
    static BINDING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[[:space:]]*([A-Za-z_][[:word:]]*)[[:space:]]*=[[:space:]]*(?:environ\.|environs\.|decouple\.|starlette\.config\.)?(Env|FileAwareEnv|Config|AutoConfig)\(")
            .expect("the reader binding pattern is valid")
    });
    const TYPED: &str = "str|bool|int|float|list|dict|json|url|db_url|db|cache_url|cache|email_url|search_url|path|decimal|datetime|date|time|timedelta|uuid|log_level|enum|tuple|NOTSET";
    static CAST: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[[:space:],(])cast[[:space:]]*=[[:space:]]*(bool|int|float|Decimal|timedelta|CommaSeparatedStrings|list)\b")
            .expect("the cast pattern is valid")
    });
    let mut names: Vec<String> = vec!["env".into(), "config".into()];
    for c in BINDING.captures_iter(text) {
        if let Some(name) = c.get(1).map(|m| m.as_str().to_string())
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    let pattern = |names: &[String]| {
        let names: Vec<String> = names.iter().map(|n| regex::escape(n)).collect();
        Regex::new(&format!(
            r#"(?:^|[^[:word:].])(?:{})(?:\.({TYPED}))?\([[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#,
            names.join("|")
        ))
    };
    // Most files bind no reader of their own: the common names' pattern is built once.
    static USUAL_READ: std::sync::OnceLock<Option<Regex>> = std::sync::OnceLock::new();
    let own;
    let read = if names.len() == 2 {
        USUAL_READ.get_or_init(|| pattern(&names).ok()).as_ref()
    } else {
        own = pattern(&names).ok();
        own.as_ref()
    };
    let Some(read) = read else { return Vec::new() };
    let scheme = scheme::environ_scheme(text);
    let mut found: Vec<EnvRead> = read
        .captures_iter(text)
        .filter_map(|c| {
            let (whole, name) = (c.get(0)?, c.get(2)?);
            let rest = arguments(&text[whole.end()..]);
            let declared = scheme.iter().find(|entry| entry.name == name.as_str());
            // `env.bool("X")`, `config("X", cast=int)`: a flag or a number is no secret.
            let typed = c.get(1).map(|t| t.as_str().to_ascii_lowercase());
            let typed = typed.or_else(|| declared.map(|entry| entry.cast.clone()));
            let scalar =
                typed.as_deref().is_some_and(|t| SCALAR_TYPES.contains(&t) || READER_SETTING_TYPES.contains(&t))
                    || CAST.is_match(rest);
            let defaulted = passes_default(rest) || declared.is_some_and(|entry| entry.has_default);
            let need = if defaulted { Need::Optional } else { Need::Required };
            let secret = rest.contains("cast=Secret");
            Some(
                EnvRead::new(name.as_str(), name.start(), need, "settings reader")
                    .marked_secret(secret)
                    .typed_setting(scalar),
            )
        })
        .collect();
    found.extend(default_named_reads(text, &names));
    prefixed::apply(text, &mut found);
    found
}

/// The URL readers that read a variable of their own when given none: django-environ's
/// `env.db()` reads `DATABASE_URL` and `env.email()` `EMAIL_URL`; dj-database-url's
/// `config()` reads `DATABASE_URL`, or the literal its `env=` names. Required without a
/// default (django-environ raises), optional with one.
fn default_named_reads(text: &str, readers: &[String]) -> Vec<EnvRead> {
    const READS: &[(&str, &str)] =
        &[("db", "DATABASE_URL"), ("db_url", "DATABASE_URL"), ("email", "EMAIL_URL"), ("email_url", "EMAIL_URL")];
    // Most files call none of them: no pattern is built for those.
    if !text.contains("dj_database_url") && !READS.iter().any(|(method, _)| text.contains(&format!(".{method}("))) {
        return Vec::new();
    }
    let readers: Vec<String> = readers.iter().map(|n| regex::escape(n)).collect();
    let Ok(call) = Regex::new(&format!(
        r"(?:^|[^[:word:].])(?:(?:{})\.(db|db_url|email|email_url)|(dj_database_url\.config))\(",
        readers.join("|")
    )) else {
        return Vec::new();
    };
    call.captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let rest = arguments(&text[whole.end()..]);
            let need = if code::has_keyword(rest, "default") { Need::Optional } else { Need::Required };
            if c.get(2).is_some() {
                // `env=` names another variable; a literal one is read as written.
                static ENV: LazyLock<Regex> = LazyLock::new(|| {
                    Regex::new(r#"(?:^|[[:space:],(])env[[:space:]]*=[[:space:]]*(?:['"]([A-Za-z_][A-Za-z0-9_]*)['"]|([[:word:].]+))"#)
                        .expect("the env= pattern is valid")
                });
                let name = match ENV.captures(rest) {
                    Some(env) => match (env.get(1), env.get(2)) {
                        (Some(literal), _) => literal.as_str(),
                        (None, Some(value)) if value.as_str().ends_with("DEFAULT_ENV") => "DATABASE_URL",
                        _ => return None,
                    },
                    None => "DATABASE_URL",
                };
                let need = if need == Need::Required { Need::Unstated } else { need };
                return Some(EnvRead::new(name, whole.start(), need, "dj_database_url.config()"));
            }
            // A quoted first argument names the variable: the readers' pattern has it.
            if rest.trim_start().starts_with(['\'', '"']) {
                return None;
            }
            let method = c.get(1)?.as_str();
            let name = READS.iter().find(|(m, _)| *m == method)?.1;
            Some(EnvRead::new(name, whole.start(), need, "settings reader's default variable"))
        })
        .collect()
}

/// A class statement: its indentation, name and bases.
static CLASS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^([ \t]*)class[[:space:]]+([A-Za-z_][[:word:]]*)[[:space:]]*(?:\(([^)]*)\))?[[:space:]]*:")
        .expect("the class pattern is valid")
});

/// One class of the file: where its body lies and what it inherits.
struct Class<'t> {
    name: &'t str,
    bases: Vec<&'t str>,
    /// The body: from the line after the `class` line to the first line indented no deeper.
    body: std::ops::Range<usize>,
}

fn classes(text: &str) -> Vec<Class<'_>> {
    CLASS
        .captures_iter(text)
        .filter_map(|c| {
            let (whole, indent, name) = (c.get(0)?, c.get(1)?.as_str(), c.get(2)?.as_str());
            let bases = c.get(3).map_or(Vec::new(), |b| b.as_str().split(',').map(|s| s.trim()).collect());
            let start = text[whole.end()..].find('\n').map_or(text.len(), |i| whole.end() + i + 1);
            let mut end = start;
            for line in text[start..].split_inclusive('\n') {
                let content = line.trim();
                let depth = line.len() - line.trim_start().len();
                if !content.is_empty() && !content.starts_with('#') && depth <= indent.len() {
                    break;
                }
                end += line.len();
            }
            Some(Class { name, bases, body: start..end })
        })
        .collect()
}

/// The fields of pydantic-settings classes: subclasses of `BaseSettings`, directly or through
/// another settings class of the file. A class whose base is defined in another file (a
/// project's `BaseConfigSet(BaseSettings)` in `configset.py`) reads its fields when that base
/// is a settings class: its fields are reads of that base's helper (see [`settings_bases`]).
fn settings_classes(text: &str) -> Vec<EnvRead> {
    let classes = classes(text);
    let mut found = Vec::new();
    let settings = if text.contains("BaseSettings") { settings_of(text, &classes) } else { Vec::new() };
    for class in classes.iter().filter(|class| !settings.iter().any(|(n, _)| *n == class.name)) {
        let imported = class.bases.iter().copied().find(|base| {
            let base = base.rsplit('.').next().unwrap_or(base);
            base.starts_with(|c: char| c.is_ascii_uppercase()) && !classes.iter().any(|c| c.name == base)
        });
        let Some(base) = imported else { continue };
        let base = base.rsplit('.').next().unwrap_or(base);
        let prefix = env_prefix(text, &text[class.body.clone()]).unwrap_or_default();
        found.extend(
            class_fields(text, class, &classes, &prefix)
                .into_iter()
                .map(|read| EnvRead { helper: Some(settings_base_key(base)), ..read }),
        );
    }
    for class in &classes {
        let Some((_, prefix)) = settings.iter().find(|(n, _)| *n == class.name) else { continue };
        found.extend(class_fields(text, class, &classes, prefix));
    }
    found
}

/// The settings classes of the file that set no prefix, as helpers: a class of another file
/// that inherits one reads its fields as they are named (see [`settings_classes`]).
pub fn settings_bases(text: &str) -> Vec<EnvHelper> {
    if !text.contains("BaseSettings") {
        return Vec::new();
    }
    settings_of(text, &classes(text))
        .into_iter()
        .filter(|(_, prefix)| prefix.is_empty())
        .map(|(name, _)| EnvHelper {
            function: settings_base_key(name),
            required: false,
            marked_secret: false,
            setting: false,
        })
        .collect()
}

/// The helper name of a settings class (see [`EnvRead::helper`]): apart from any function's.
fn settings_base_key(class: &str) -> String {
    format!("class {class}(BaseSettings)")
}

/// A settings class's fields, less those given when it is constructed and those its validators
/// build, under the names pydantic v1's `Config.fields` gives them.
fn class_fields(text: &str, class: &Class, classes: &[Class], prefix: &str) -> Vec<EnvRead> {
    let given: Vec<String> = given_at_construction(text, class.name)
        .iter()
        .map(|field| format!("{prefix}{field}").to_ascii_uppercase())
        .collect();
    let built = built_by_validators(&text[class.body.clone()]);
    let nesting = nested::Nesting::of(text, class, classes);
    let renamed = v1_fields::renamed(&text[class.body.clone()]);
    fields(text, class.body.clone(), prefix, nesting.as_ref(), 0)
        .into_iter()
        .filter(|read| {
            !given.contains(&read.name)
                && !built.iter().any(|field| format!("{prefix}{field}").eq_ignore_ascii_case(&read.name))
        })
        .flat_map(|read| {
            match renamed
                .iter()
                .find(|&(field, _)| format!("{prefix}{field}").eq_ignore_ascii_case(&read.name))
                .cloned()
            {
                Some((_, names)) => names.into_iter().map(|name| EnvRead { name, ..read.clone() }).collect(),
                None => vec![read],
            }
        })
        .collect()
}

/// The file's settings classes and their prefixes, parents before children, then the classes
/// they inherit from.
fn settings_of<'t>(text: &str, classes: &[Class<'t>]) -> Vec<(&'t str, String)> {
    let mut settings: Vec<(&str, String)> = Vec::new();
    loop {
        let before = settings.len();
        for class in classes {
            if settings.iter().any(|(n, _)| *n == class.name) {
                continue;
            }
            let base = |b: &&str| b.rsplit('.').next() == Some("BaseSettings");
            let parent = class.bases.iter().find_map(|b| settings.iter().find(|(n, _)| n == b).map(|(_, p)| p.clone()));
            if class.bases.iter().any(base) || parent.is_some() {
                let prefix = env_prefix(text, &text[class.body.clone()]).or(parent).unwrap_or_default();
                settings.push((class.name, prefix));
            }
        }
        if settings.len() == before {
            break;
        }
    }
    // The classes of the file a settings class inherits from are its fields' too (lnbits'
    // `class Settings(EditableSettings, ReadOnlySettings, BaseSettings)` over `BaseModel`
    // groups), under its prefix; their other subclasses are not settings for that.
    let mut next = 0;
    while let Some((name, prefix)) = settings.get(next).cloned() {
        next += 1;
        let Some(class) = classes.iter().find(|c| c.name == name) else { continue };
        for base in class.bases.iter().map(|b| b.rsplit('.').next().unwrap_or(b)) {
            let Some(ancestor) = classes.iter().find(|c| c.name == base) else { continue };
            if !settings.iter().any(|(n, _)| *n == ancestor.name) {
                settings.push((ancestor.name, prefix.clone()));
            }
        }
    }
    settings
}

/// The fields of a settings class that a validator builds from other fields
/// (`@field_validator("POSTGRES_URI")` returning `PostgresDsn.build(…)` or an f-string URL):
/// computed, not read from the environment.
fn built_by_validators(body: &str) -> Vec<String> {
    static VALIDATOR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"@(?:field_)?validator\([[:space:]]*((?:['"][A-Za-z_][[:word:]]*['"][[:space:]]*,?[[:space:]]*)+)"#,
        )
        .expect("the validator pattern is valid")
    });
    static NAME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"['"]([A-Za-z_][[:word:]]*)['"]"#).expect("the name pattern is valid"));
    static BUILDS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"\.build\(|f['"][a-z+]+://"#).expect("the URL-building pattern is valid"));
    let mut built = Vec::new();
    for c in VALIDATOR.captures_iter(body) {
        let (Some(whole), Some(names)) = (c.get(0), c.get(1)) else { continue };
        // The decorated function: from its `def` (after the decorators stacked on it, such as
        // `@classmethod`) up to the next decorator or the end of the class.
        let rest = &body[whole.end()..];
        let rest = &rest[rest.find("def ").unwrap_or(rest.len())..];
        let function = &rest[..rest.find("\n    @").or_else(|| rest.find("\n\t@")).unwrap_or(rest.len())];
        if BUILDS.is_match(function) {
            built.extend(NAME.captures_iter(names.as_str()).filter_map(|n| n.get(1)).map(|n| n.as_str().to_string()));
        }
    }
    built
}

/// The fields the file passes to a settings class's constructor: `Settings(SECRET=…)`, or the
/// keys of a dict literal it unpacks there (`Settings(**values)` after `values = {"SECRET": …}`
/// or `values["SECRET"] = …`).
/// Values given at construction win over the environment, so those fields are not read from it.
fn given_at_construction(text: &str, class: &str) -> Vec<String> {
    static KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"['"]([A-Za-z_][A-Za-z0-9_]*)['"][[:space:]]*:"#).expect("the dict key pattern is valid")
    });
    let Ok(call) = Regex::new(&format!(r"(?-u:\b){}\(", regex::escape(class))) else { return Vec::new() };
    let mut given = Vec::new();
    for found in call.find_iter(text) {
        if text[..found.start()].trim_end().ends_with("class") {
            continue;
        }
        let Some(arguments) = code::block(&text[found.end() - 1..], QUOTES) else { continue };
        for joined in call_arguments(arguments) {
            let trimmed = joined.as_str();
            if let Some(unpacked) = trimmed.strip_prefix("**").filter(|v| is_identifier(v)) {
                let literal = Regex::new(&format!(
                    r"(?m)^[[:space:]]*{}[[:space:]]*(?::[^=\n]*)?=[[:space:]]*\{{",
                    regex::escape(unpacked)
                ));
                if let Some(open) = literal.ok().and_then(|l| l.find(text)).map(|m| m.end() - 1)
                    && let Some(dict) = code::block(&text[open..], QUOTES)
                {
                    given.extend(KEY.captures_iter(dict).filter_map(|k| k.get(1)).map(|k| k.as_str().to_string()));
                }
                // Keys set on it afterwards: `values["credentials"] = merge(…)`.
                let set = Regex::new(&format!(
                    r#"(?m)^[[:space:]]*{}\[[[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"][[:space:]]*\][[:space:]]*=[^=]"#,
                    regex::escape(unpacked)
                ));
                if let Ok(set) = set {
                    given.extend(set.captures_iter(text).filter_map(|k| k.get(1)).map(|k| k.as_str().to_string()));
                }
            } else if let Some((key, _)) =
                trimmed.split_once('=').filter(|(k, v)| is_identifier(k.trim()) && !v.starts_with('='))
            {
                given.push(key.trim().to_string());
            }
        }
    }
    given
}

/// The arguments of a call (`arguments`: inside its brackets), each its code lines joined:
/// comments between arguments (`_env_file=f,  # type: ignore`) lead the next one, dropped.
fn call_arguments(arguments: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = arguments;
    while !rest.trim().is_empty() {
        let argument = code::expression(rest, QUOTES);
        let code_lines: Vec<&str> =
            argument.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
        found.push(code_lines.join(" "));
        let Some(next) = rest.get(argument.len()..).and_then(|after| after.strip_prefix([',', ';'])) else { break };
        rest = next;
    }
    found
}

/// `env_prefix="APP_"` in `model_config = SettingsConfigDict(…)` or a nested `class Config:`
/// of a class `body` in `text`, or `env_prefix=ENV_PREFIX` with `ENV_PREFIX = "APP_"` a string
/// constant of the module (one settings module per section, each naming its prefix once); one
/// in a comment (`# env_prefix='my_prefix_'`) is a note, not the class's setting.
fn env_prefix(text: &str, body: &str) -> Option<String> {
    static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?-u:\b)env_prefix[[:space:]]*[=:][[:space:]]*(?:['"]([A-Za-z0-9_]*)['"]|([A-Z][A-Z0-9_]*)[[:space:]]*[,)\n])"#,
        )
        .expect("the env_prefix pattern is valid")
    });
    PREFIX
        .captures_iter(body)
        .filter(|c| {
            let whole = c.get(0).map_or(0, |m| m.start());
            let line_start = body[..whole].rfind('\n').map_or(0, |i| i + 1);
            !body[line_start..whole].contains('#')
        })
        .find_map(|c| match (c.get(1), c.get(2)) {
            (Some(literal), _) => Some(literal.as_str().to_string()),
            (None, Some(constant)) => by_constant::module_string(text, constant.as_str()).map(str::to_string),
            (None, None) => None,
        })
        .map(|prefix| prefix.to_ascii_uppercase())
}

/// The annotated fields at the first indentation of a class body; a field typed by a model of
/// the file, under a `nesting`, as that model's fields (see [`nested`]), at most
/// [`nested::MAX_DEPTH`] deep.
fn fields(
    text: &str,
    body: std::ops::Range<usize>,
    prefix: &str,
    nesting: Option<&nested::Nesting>,
    level: usize,
) -> Vec<EnvRead> {
    static FIELD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^([A-Za-z_][[:word:]]*)[[:space:]]*:[[:space:]]*([^=\n#]+?)[[:space:]]*(?:=[[:space:]]*(.*))?$")
            .expect("the field pattern is valid")
    });
    static ALIAS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?-u:\b)(?:alias|validation_alias|env)[[:space:]]*=[[:space:]]*(?:AliasChoices\()?[[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#,
        )
        .expect("the alias pattern is valid")
    });
    let mut found = Vec::new();
    let mut constant_named = Vec::new();
    let mut indent: Option<usize> = None;
    let mut offset = body.start;
    for line in text[body.clone()].split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        let content = line.trim_start();
        let depth = line.len() - content.len();
        if content.trim().is_empty() || content.starts_with('#') {
            continue;
        }
        let first = *indent.get_or_insert(depth);
        if depth != first {
            continue;
        }
        let Some(field) = FIELD.captures(content.trim_end()) else { continue };
        let (Some(name), Some(ty)) = (field.get(1), field.get(2)) else { continue };
        let name_text = name.as_str();
        if name_text.starts_with('_') || name_text == "model_config" || ty.as_str().contains("ClassVar") {
            continue;
        }
        let name_at = at + depth;
        let default = field.get(3).map(|d| d.as_str().trim());
        // `POSTGRES_URI: str = f"{POSTGRES_USER}:{POSTGRES_PASSWORD}@…"`: built from the
        // fields above it when the class is defined; the parts are what the environment gives.
        if default.is_some_and(is_formatted_from_fields) {
            continue;
        }
        // `Field(…)` may span lines: read its whole call.
        let call = default.filter(|d| d.starts_with("Field(")).and_then(|_| {
            let open = name_at + content.find("Field(").unwrap_or(0) + "Field".len();
            code::block(&text[open..], QUOTES)
        });
        let need = match (default, call) {
            (None, _) => Need::Required,
            (Some(_), Some(arguments)) => {
                let first = code::expression(arguments.trim_start(), QUOTES).trim();
                let keyed_default =
                    code::has_keyword(arguments, "default") || code::has_keyword(arguments, "default_factory");
                if keyed_default || (!first.is_empty() && first != "..." && !first.contains('=')) {
                    Need::Optional
                } else {
                    Need::Required
                }
            }
            (Some(_), None) => Need::Optional,
        };
        let secret = ty.as_str().contains("SecretStr") || ty.as_str().contains("SecretBytes");
        let names_constant = default.is_some_and(named_constants::names_a_constant);
        if names_constant {
            constant_named.push(name_text.to_ascii_uppercase());
        }
        let setting = is_setting_annotation(ty.as_str()) || names_constant;
        let aliases: Vec<(String, usize)> = call
            .map(|arguments| {
                ALIAS
                    .captures_iter(arguments)
                    .filter_map(|a| a.get(1))
                    .map(|a| (a.as_str().to_string(), name_at))
                    .collect()
            })
            .unwrap_or_default();
        if aliases.is_empty() {
            let env = format!("{prefix}{name_text}").to_ascii_uppercase();
            if let Some((nesting, model)) =
                nesting.and_then(|n| Some((n, n.model(ty.as_str())?))).filter(|_| level < nested::MAX_DEPTH)
            {
                // A model field with a default (or `None`) leaves each of its fields optional.
                let under = format!("{env}{}", nesting.delimiter);
                found.extend(fields(text, model, &under, Some(nesting), level + 1).into_iter().map(|read| {
                    let need = if need != Need::Required && read.need == Need::Required { need } else { read.need };
                    EnvRead { need, ..read }
                }));
                continue;
            }
            found.push(
                EnvRead::new(env, name_at, need, "BaseSettings field").marked_secret(secret).typed_setting(setting),
            );
        } else {
            for (alias, at) in aliases {
                found.push(
                    EnvRead::new(alias, at, need, "BaseSettings field").marked_secret(secret).typed_setting(setting),
                );
            }
        }
    }
    named_constants::mark_variants(&mut found, prefix, &constant_named);
    found
}

/// Whether a settings field's annotation types a setting: a flag, a number, a duration, a
/// list or a choice (`bool`, `int | None`, `timedelta`, `list[str]`, `Literal["a", "b"]`).
fn is_setting_annotation(annotation: &str) -> bool {
    const SETTING_TYPES: &[&str] = &[
        "bool",
        "int",
        "float",
        "Decimal",
        "timedelta",
        "list",
        "List",
        "set",
        "Set",
        "tuple",
        "Tuple",
        "Literal",
        "PositiveInt",
        "NonNegativeInt",
        "conint",
        "Path",
        "DirectoryPath",
        "FilePath",
        // An http(s) URL: a site or an endpoint, not a database's URL with its password.
        "HttpUrl",
        "AnyHttpUrl",
    ];
    // `Optional[int]`, `int | None`, `Annotated[int, …]`: the type without its wrapper.
    let outer = annotation.trim().trim_start_matches("Optional[").trim_start_matches("Annotated[");
    let first = outer.split(['[', '|', ',', ']', ' ']).next().unwrap_or_default().trim();
    SETTING_TYPES.contains(&first)
}

/// dynaconf: `Validator("X", must_exist=True)` (required) or with `default=` (optional),
/// named after the settings' `envvar_prefix` (`DYNACONF` unless the file sets another;
/// `envvar_prefix=False` reads bare names).
fn dynaconf_validators(text: &str) -> Vec<EnvRead> {
    static VALIDATOR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?-u:\b)Validator\([[:space:]]*((?:['"][A-Za-z_][A-Za-z0-9_.]*['"][[:space:]]*,[[:space:]]*)*['"][A-Za-z_][A-Za-z0-9_.]*['"])"#,
        )
        .expect("the dynaconf Validator pattern is valid")
    });
    static NAME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"['"]([A-Za-z_][A-Za-z0-9_.]*)['"]"#).expect("the name pattern is valid"));
    static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)envvar_prefix[[:space:]]*=[[:space:]]*(?:['"]([A-Za-z0-9_]*)['"]|(False))"#)
            .expect("valid")
    });
    if !text.contains("Dynaconf") && !text.contains("dynaconf") {
        return Vec::new();
    }
    let prefix = match PREFIX.captures(text) {
        Some(c) if c.get(2).is_some() => String::new(),
        Some(c) => c.get(1).map_or(String::new(), |p| format!("{}_", p.as_str().to_ascii_uppercase())),
        None => "DYNACONF_".into(),
    };
    let mut found = Vec::new();
    for c in VALIDATOR.captures_iter(text) {
        let (Some(whole), Some(keys)) = (c.get(0), c.get(1)) else { continue };
        let rest = arguments(&text[whole.end()..]);
        let need = if code::has_keyword(rest, "default") {
            Need::Optional
        } else if rest.contains("must_exist=True") || rest.contains("required=True") {
            Need::Required
        } else {
            Need::Unstated
        };
        for key in NAME.captures_iter(keys.as_str()).filter_map(|n| n.get(1)) {
            let name = format!("{prefix}{}", key.as_str().replace('.', "__")).to_ascii_uppercase();
            found.push(EnvRead::new(name, keys.start() + key.start(), need, "dynaconf Validator"));
        }
    }
    found
}

mod by_constant;
pub use by_constant::name_constants;
mod conditions;
mod defaults_dict;
mod django_configurations;
pub(super) mod flask;
mod helper_calls;
mod wrappers;
pub use wrappers::function_helpers;
mod interpolation;
mod membership;
mod named_constants;
mod nested;
mod prefixed;
mod scheme;
mod sdk_defaults;
pub(super) use sdk_defaults::{STORAGES_DEFAULT, gives_storages_keys};
mod v1_fields;

#[cfg(test)]
mod tests;
