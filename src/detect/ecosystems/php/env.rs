//! How PHP code and Symfony configuration read the environment: plain reads (`getenv`,
//! Laravel's `env()`, `$_ENV`), Symfony's `%env(…)%` parameters with their processors,
//! vlucas/phpdotenv's checks and jbtronics/settings-bundle's `envVar:` parameters.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// Every environment read of a PHP file or a Symfony configuration file.
pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static READ: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:(?-u:\b)getenv\(|(?-u:\b)env\(|\$_ENV\[|\$_SERVER\[|(?-u:\b)Env::get\()[[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#)
            .expect("the PHP environment-read pattern is valid")
    });
    let mut reads = code::reads_of(&READ, text, "env()", |after| {
        let rest = code::rest_of_call(after, &['"', '\'']);
        let closed = after[rest.len()..].get(1..).unwrap_or_default();
        if code::has_another_argument(rest) || code::followed_by(closed, &["??", "?:"]) {
            Need::Optional
        } else {
            Need::Unstated
        }
    });
    reads.extend(symfony_parameters(text));
    reads.extend(phpdotenv_reads(text));
    reads.extend(settings_bundle_reads(text));
    reads.retain(|read| !RUNNER_SET.contains(&read.name.as_str()) && !is_request_header(&read.name));
    reads
}

/// CGI (and PHP's `$_SERVER`) gives each request header as `HTTP_<HEADER>`
/// (`HTTP_X_REMOTE_USER_TOKEN`): what a client sent, not the app's configuration.
fn is_request_header(name: &str) -> bool {
    name.starts_with("HTTP_")
}

/// What PHP's parallel test runners set in each worker: ParaTest's (and Infection's)
/// `TEST_TOKEN`, a process number an app's test config puts in its database name
/// (Symfony's recipe: `dbname_suffix: '_test%env(default::TEST_TOKEN)%'`).
const RUNNER_SET: &[&str] = &["TEST_TOKEN", "UNIQUE_TEST_TOKEN"];

/// Symfony's `%env(X)%` fails without X unless a parameter gives a default; see
/// [`processed_name`] for the processors before the name.
fn symfony_parameters(text: &str) -> Vec<EnvRead> {
    static PARAMETER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"%env\(([-.[:word:]\\:]+)\)%").expect("the Symfony env pattern is valid"));
    PARAMETER
        .captures_iter(text)
        .filter_map(|c| {
            let chain = c.get(1)?;
            let read = processed_name(chain.as_str())?;
            let at = chain.start() + chain.as_str().len() - read.name.len();
            let need = if read.defaulted { Need::Optional } else { Need::Unstated };
            Some(EnvRead::new(read.name, at, need, "%env()% parameter").typed_setting(read.typed))
        })
        .collect()
}

/// The variable a Symfony env-var processor chain reads (`bool:default::NAME`).
#[derive(Debug, PartialEq, Eq)]
struct ProcessedName<'t> {
    name: &'t str,
    /// A `default:` processor gives a value when the variable is unset.
    defaulted: bool,
    /// A processor turns the value into a boolean, number, list or enum: a setting.
    typed: bool,
}

/// Symfony's processors (symfony.com, "Environment Variable Processors") pass the rest of the
/// chain on as the variable's name; `key:`, `default:` and `enum:` first take one argument of
/// their own. A processor Symfony does not ship is the app's or a bundle's, free to read its
/// arguments as anything (jbtronics/settings-bundle's `settings:settingsName:parameterName`
/// reads a stored setting): behind one, only a lone name or one written as variables are
/// (`DATABASE_URL`) is taken — never a property name like `apiKey`.
fn processed_name(chain: &str) -> Option<ProcessedName<'_>> {
    const PASS_ON: &[&str] = &[
        "string",
        "resolve",
        "file",
        "require",
        "trim",
        "base64",
        "url",
        "query_string",
        "urlencode",
        "shuffle",
        "defined",
        "const",
        "json",
    ];
    const TYPING: &[&str] = &["bool", "not", "int", "float", "csv", "enum"];
    const WITH_ARGUMENT: &[&str] = &["key", "default", "enum"];
    let segments: Vec<&str> = chain.split(':').collect();
    let (name, processors) = segments.split_last()?;
    let mut read = ProcessedName { name, defaulted: false, typed: false };
    let mut i = 0;
    while i < processors.len() {
        let processor = processors[i];
        read.defaulted |= processor == "default";
        read.typed |= TYPING.contains(&processor);
        if WITH_ARGUMENT.contains(&processor) {
            i += 1;
        } else if processor == "settings" {
            return None;
        } else if !PASS_ON.contains(&processor) && !TYPING.contains(&processor) {
            let lone = i + 1 == processors.len();
            if !lone && !code::is_upper_snake(name) {
                return None;
            }
        }
        i += 1;
    }
    let variable = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    variable.then_some(read)
}

/// vlucas/phpdotenv's validation: `$dotenv->required('X')` or `->required(['A', 'B'])` stops
/// the app without them, `->ifPresent('X')` checks one only when set; a check chained on
/// (`->isInteger()`, `->isBoolean()`, `->allowedValues([…])`) types the value as a setting.
fn phpdotenv_reads(text: &str) -> Vec<EnvRead> {
    static CHECK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"->(required|ifPresent)\([[:space:]]*(\[[^\]]*\]|['\x22][A-Za-z_][A-Za-z0-9_]*['\x22])[[:space:]]*\)",
        )
        .expect("the phpdotenv check pattern is valid")
    });
    if !text.contains("Dotenv") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for c in CHECK.captures_iter(text) {
        let (Some(whole), Some(check), Some(names)) = (c.get(0), c.get(1), c.get(2)) else { continue };
        let chain = code::rest_of_line(&text[whole.end()..]);
        let setting = ["->isInteger(", "->isBoolean(", "->allowedValues("].iter().any(|t| chain.contains(t));
        let (need, via) = if check.as_str() == "required" {
            (Need::Required, "phpdotenv required")
        } else {
            (Need::Optional, "phpdotenv ifPresent")
        };
        for name in QUOTED_NAME.captures_iter(names.as_str()).filter_map(|n| n.get(1)) {
            found.push(EnvRead::new(name.as_str(), names.start() + name.start(), need, via).typed_setting(setting));
        }
    }
    found
}

static QUOTED_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#).expect("the quoted-name pattern is valid"));

/// jbtronics/settings-bundle: `#[SettingsParameter(envVar: 'NAME')]` on a settings class's
/// property fills it from the variable when set (optional: unset, the stored setting stays).
/// The name may follow Symfony's processors (`bool:NAME`, see [`processed_name`]); a typing
/// processor, an `envVarMapper:` or a property that is not a string makes it a setting.
fn settings_bundle_reads(text: &str) -> Vec<EnvRead> {
    static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"#\[[[:space:]]*SettingsParameter[[:space:]]*\(").expect("the attribute pattern is valid")
    });
    static ENV_VAR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)envVar[[:space:]]*:[[:space:]]*['"]([-.[:word:]\\:]+)['"]"#)
            .expect("the envVar pattern is valid")
    });
    static PROPERTY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[[:space:]]*(?:#\[[^\n]*\][[:space:]]*)*(?:(?:public|protected|private|readonly)[[:space:]]+)+(\??[[:word:]\\|]+)[[:space:]]+\$")
            .expect("the property pattern is valid")
    });
    if !text.contains("SettingsParameter") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for attribute in ATTRIBUTE.find_iter(text) {
        let open = attribute.end() - 1;
        let Some(arguments) = code::block(&text[open..], &['"', '\'']) else { continue };
        let Some(env_var) = ENV_VAR.captures(arguments).and_then(|c| c.get(1)) else { continue };
        let Some(read) = processed_name(env_var.as_str()) else { continue };
        let after = text[open + arguments.len() + 1..].trim_start_matches([')', ']']);
        let string_property = PROPERTY
            .captures(after)
            .and_then(|c| c.get(1))
            .is_none_or(|ty| ty.as_str().trim_start_matches('?').split('|').all(|t| ["string", "null"].contains(&t)));
        let mapped = arguments.contains("envVarMapper");
        let at = open + 1 + env_var.end() - read.name.len();
        found.push(
            EnvRead::new(read.name, at, Need::Optional, "SettingsParameter envVar")
                .typed_setting(read.typed || mapped || !string_property),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(reads: Vec<EnvRead>) -> Vec<(String, Need, bool)> {
        reads.into_iter().map(|r| (r.name, r.need, r.setting)).collect()
    }

    #[test]
    fn phpdotenv_checks_require_and_type() {
        let text = "<?php\n$dotenv = Dotenv\\Dotenv::createImmutable(__DIR__);\n$dotenv->load();\n$dotenv->required(['DB_HOST', 'DB_PASS']);\n$dotenv->required('APP_KEY')->notEmpty();\n$dotenv->required('CACHE_TTL')->isInteger();\n$dotenv->ifPresent('MAILGUN_SECRET')->notEmpty();\n";
        assert_eq!(
            names(reads(text)),
            [
                ("DB_HOST".into(), Need::Required, false),
                ("DB_PASS".into(), Need::Required, false),
                ("APP_KEY".into(), Need::Required, false),
                ("CACHE_TTL".into(), Need::Required, true),
                ("MAILGUN_SECRET".into(), Need::Optional, false),
            ]
        );
    }

    #[test]
    fn symfony_processors_lead_to_the_variable() {
        let name = |chain| processed_name(chain).map(|r| (r.name, r.defaulted, r.typed));
        assert_eq!(name("APP_SECRET"), Some(("APP_SECRET", false, false)));
        assert_eq!(name("resolve:DATABASE_URL"), Some(("DATABASE_URL", false, false)));
        assert_eq!(name("default::SENTRY_DSN"), Some(("SENTRY_DSN", true, false)));
        assert_eq!(name("default:fallback_dsn:SENTRY_DSN"), Some(("SENTRY_DSN", true, false)));
        assert_eq!(name("bool:default::MAINTENANCE"), Some(("MAINTENANCE", true, true)));
        assert_eq!(name("key:password:json:file:SECRETS_FILE"), Some(("SECRETS_FILE", false, false)));
        assert_eq!(name("enum:App\\Mode:APP_MODE"), Some(("APP_MODE", false, true)));
        // The app's own processor reads the variable after it.
        assert_eq!(name("decrypt:PAYMENT_KEY"), Some(("PAYMENT_KEY", false, false)));
        // jbtronics/settings-bundle's processor reads a stored setting, not the environment.
        assert_eq!(name("string:settings:ai_ollama:apiKey"), None);
        assert_eq!(name("settings:digikey:secret"), None);
        // Another processor's arguments are its own business.
        assert_eq!(name("vault:payments:secret"), None);
    }

    #[test]
    fn paratest_s_worker_token_is_the_runner_s() {
        let text = "when@test:\n  doctrine:\n    dbal:\n      dbname_suffix: '_test%env(default::TEST_TOKEN)%'\n      password: '%env(default::DB_PASSWORD)%'\n";
        assert_eq!(names(reads(text)), [("DB_PASSWORD".into(), Need::Optional, false)]);
    }

    #[test]
    fn a_request_header_is_no_configuration() {
        let text = "<?php\n$t = $_SERVER['HTTP_X_REMOTE_USER_TOKEN'];\n$k = $_SERVER['APP_SECRET'];\n";
        assert_eq!(names(reads(text)), [("APP_SECRET".into(), Need::Unstated, false)]);
    }

    #[test]
    fn settings_bundle_parameters_read_their_variables() {
        let text = r#"<?php
#[Settings(name: "shop")]
class ShopSettings
{
    #[SettingsParameter(label: new TM("fixer"), formType: APIKeyType::class,
        envVar: "FIXER_API_KEY", envVarMode: EnvVarMode::OVERWRITE,
        )]
    public ?string $fixerApiKey = null;

    #[SettingsParameter(envVar: 'bool:SHOP_TOKEN_CHECKS', envVarMode: EnvVarMode::OVERWRITE)]
    public bool $tokenChecks = false;

    #[SettingsParameter(envVar: "PROVIDER_API_KEY_LIMIT")]
    #[Assert\Positive]
    private int $keyLimit = 10;

    #[SettingsParameter(envVar: "SECRET_ROTATION", envVarMapper: [self::class, 'mapRotation'])]
    private ?string $rotation = null;

    #[SettingsParameter(envVar: "PROVIDER_SECRET")]
    public string $secret = "";
}
"#;
        assert_eq!(
            names(reads(text)),
            [
                ("FIXER_API_KEY".into(), Need::Optional, false),
                ("SHOP_TOKEN_CHECKS".into(), Need::Optional, true),
                ("PROVIDER_API_KEY_LIMIT".into(), Need::Optional, true),
                ("SECRET_ROTATION".into(), Need::Optional, true),
                ("PROVIDER_SECRET".into(), Need::Optional, false),
            ]
        );
        let at = reads(text)[0].at;
        assert_eq!(&text[at..at + "FIXER_API_KEY".len()], "FIXER_API_KEY");
    }
}
