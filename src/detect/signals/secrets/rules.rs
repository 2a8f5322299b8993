//! The cross-ecosystem rules of what a secret is, on the name alone (split into words at
//! `_` and at camel-case boundaries: `STRIPE_SECRET_KEY`, `Stripe__SecretKey`), and what a
//! value says: a stand-in to replace (`changethis`, `<your-key>`) or credentials in a URL.
//!
//! A name is a secret when
//! - its last word is a credential word (PASSWORD, PASS, PWD, SECRET, TOKEN, KEY, APIKEY,
//!   CREDENTIALS, DSN, SALT, …) — unless it is KEY/TOKEN and the word before makes it an
//!   identifier or a public value (CACHE_KEY, PUBLIC_KEY, SITE_KEY, ANON_KEY, CSRF_TOKEN, and
//!   `<SERVICE>_APP_KEY`, the public half of a Pusher/Reverb app's key and secret);
//!   `*_ACCESS_KEY_ID` counts;
//! - or SECRET/PASSWORD/TOKEN/CREDENTIALS/APIKEY (or PRIVATE right before KEY) comes earlier
//!   and the last word is not a setting about it (`SECRET_KEY_BASE` yes, `PASSWORD_TIMEOUT` no);
//! - or it is a connection string: `*_CONNECTION_STRING`, .NET's `ConnectionStrings__*`, a
//!   database or webhook `*_URL`/`*_URI`, or the URL of a cache, broker or mail server
//!   (REDIS_URL) — the latter only while no example the repo gives shows it without
//!   credentials (see [`is_url_setting`]);
//! - or it is the encoded contents of one of the above (`*_CREDENTIALS_JSON`,
//!   `*_PRIVATE_KEY_BASE64`, `*_KEY_FILE_CONTENTS`), a PEM or a file's contents given in
//!   place of its path (`GITHUB_APP_PEM`, `SIGNING_FILE_CONTENTS`) that is no certificate or
//!   public key, or the seed a key is derived from (`KEY_SEED`).
//!
//! Never a secret: a name [`crate::names::validate_secret_name`] refuses; a value bundled for
//! the browser (`NEXT_PUBLIC_*`, `VITE_*`, `PUBLIC_*`, `EXPO_PUBLIC_*`, `REACT_APP_*`, …); a
//! setting about a credential (`*_PORT`, `*_HOST`, `*_TRANSPORT`, `*_TIMEOUT_MS`,
//! `*_FROM_ADDRESS`, `*_ALLOWED_*`, `*_DEBUG_*`, …); the path to a credential file
//! (`*_KEY_FILE`, `*_KEY_PATH`, `GOOGLE_APPLICATION_CREDENTIALS`: the file is the secret).
//! Release, signing and coverage credentials never count, nor those CI uses for itself.

use std::sync::LazyLock;

use regex::Regex;

/// Words that, last in a name, make it a credential and name the value itself.
const CREDENTIAL_NOUNS: &[&str] = &[
    "PASSWORD",
    "PASSWORDS",
    "PASSWD",
    "PASS",
    "PASSPHRASE",
    "PWD",
    "SECRET",
    "SECRETS",
    "TOKEN",
    "TOKENS",
    "KEY",
    "KEYS",
    "APIKEY",
    "CREDENTIALS",
    "CREDENTIAL",
    "CREDS",
    "DSN",
    "SALT",
    "PEPPER",
];
/// Words that, last in a name, make it a credential but also name a mode (`PROXY_AUTH=off`).
const CREDENTIAL_MODES: &[&str] = &["AUTH", "JWT", "PAT"];
/// Words that, anywhere before the last, make a name a credential (`SECRET_KEY_BASE`).
const STRONG_WORDS: &[&str] = &["SECRET", "PASSWORD", "TOKEN", "CREDENTIALS", "APIKEY"];
/// Words before KEY/KEYS/TOKEN/TOKENS that make the name an identifier or a public value.
const IDENTIFIER_QUALIFIERS: &[&str] = &[
    "CACHE",
    "PRIMARY",
    "PARTITION",
    "SORT",
    "ROUTING",
    "FOREIGN",
    "HASH",
    "PUBLIC",
    "PUBLISHABLE",
    "SITE",
    "ANON",
    "IDEMPOTENCY",
    "LOOKUP",
    "CURSOR",
    "QUERY",
    "OBJECT",
    "HEADER",
    "COOKIE",
    "CSRF",
    // The attribute a single sign-on response keeps a user's field under (`CAS_UID_KEY`).
    "UID",
    "NAME",
    "EMAIL",
    "IMAGE",
    "NICKNAME",
    "PHONE",
    "LOCATION",
    "ATTRIBUTE",
    "ATTR",
    // The key file of a TLS pair, beside its `*_SSL_CERT` (`MYSQL_SSL_KEY`): a path.
    "SSL",
    "TLS",
    // Keys their products publish in browser code: a PostHog project key, a Segment write key.
    "POSTHOG",
    "SEGMENT",
    "WRITE",
];
/// Last words that make a name a setting about something, never the secret itself.
const SETTING_WORDS: &[&str] = &[
    "PORT",
    "HOST",
    "HOSTS",
    "HOSTNAME",
    "ADDRESS",
    "CONNECTION",
    "TABLE",
    "DRIVER",
    "TRANSPORT",
    "SERVICE",
    "SECURE",
    "TLS",
    "SSL",
    "SELECTOR",
    "PROMPT",
    "LABEL",
    "KNOWN",
    "AUTHORITY",
    "CONTAINER",
    "STYLE",
    "CONCURRENCY",
    "TIMEOUT",
    "MS",
    "SECONDS",
    "MINUTES",
    "HOURS",
    "DAYS",
    "TTL",
    "LIFETIME",
    "EXPIRE",
    "EXPIRES",
    "EXPIRY",
    "EXPIRATION",
    "BROKER",
    "ENABLED",
    "ENABLE",
    "DISABLED",
    "PATH",
    "DIR",
    "DIRECTORY",
    "FILE",
    "NAME",
    "ID",
    "IDS",
    "PREFIX",
    "SUFFIX",
    "LENGTH",
    "ROUNDS",
    "ALGORITHM",
    "ALGO",
    "TYPE",
    "MODE",
    "LEVEL",
    "STORE",
    "QUEUE",
    "CHANNEL",
    "REGION",
    "BUCKET",
    "VERSION",
    "COUNT",
    "SIZE",
    "LIMIT",
    "HEADER",
    "FIELD",
    "PARAM",
    "COLUMN",
    "DISK",
    "LOCATION",
    "ENDPOINT",
    "ISSUER",
    "AUDIENCE",
    "SCOPE",
    "SCOPES",
    "FORMAT",
    "CLIENT",
    "USER",
    "USERNAME",
    "EMAIL",
    "DOMAIN",
    "URL",
    "URI",
    "REQUIRED",
    "POLICY",
    "RESET",
    "MIN",
    "MAX",
    "ATTEMPTS",
    "RETRIES",
    "INTERVAL",
    "RATE",
    "THROTTLE",
    "IN",
    "PROVIDER",
    "BACKEND",
    "ENGINE",
    "CLASS",
    "METHOD",
    "STRATEGY",
    "NOTIFICATION",
    "NOTIFICATIONS",
    "TIME",
    "DURATION",
    "AGE",
    "DELAY",
    "PERIOD",
    "LEEWAY",
    "THRESHOLD",
    "SKEW",
    "ITERATIONS",
    "HINT",
    "HINTS",
    "ALLOWED",
    "SUBJECT",
    "TEMPLATE",
    "ENCODING",
    "MANAGER",
    "ROOT",
];
/// Words that, before the last, make a name a switch or a setting about a credential
/// (`AUTH_PROVIDER_USE_ID_TOKEN`, `SKIP_AUTH`, `ALLOWED_TOKEN_ORIGINS`, `DEBUG_TOKEN_X`,
/// `FORCE_UPDATE_PRIVATE_KEY`, `TURN_STRICT_AUTH`).
const SWITCH_WORDS: &[&str] = &[
    "USE", "ENABLE", "DISABLE", "ALLOW", "ALLOWED", "REQUIRE", "SKIP", "VERIFY", "VALIDATE", "DEBUG", "FORCE", "STRICT",
];
/// First words of the names a browser-test suite reads for its fixtures.
const TEST_SUITE_WORDS: &[&str] = &["E2E", "PLAYWRIGHT", "CYPRESS"];
/// Words that make a name a stand-in, not a credential anyone sets (`DUMMY_ENCRYPTION_KEY`).
const STAND_IN_WORDS: &[&str] = &["DUMMY", "FAKE", "MOCK", "EXAMPLE", "SAMPLE"];
/// What a `*_URL`/`*_URI` is about when it always carries credentials: a database, a webhook.
const DATABASE_WORDS: &[&str] = &[
    "DATABASE",
    "DB",
    "POSTGRES",
    "POSTGRESQL",
    "PG",
    "MYSQL",
    "MARIADB",
    "MONGO",
    "MONGODB",
    "CLICKHOUSE",
    "NEO4J",
    "JDBC",
    "SQL",
    "SQLALCHEMY",
    "COUCHDB",
    "WEBHOOK",
];
/// What a `*_URL`/`*_URI` is about, right before it, when it may carry credentials: caches,
/// brokers, mail and search servers (`REDIS_URL`, `CELERY_BROKER_URL`). Such a URL is a
/// setting when every example of it has none.
const SERVICE_WORDS: &[&str] = &[
    "REDIS",
    "VALKEY",
    "AMQP",
    "RABBITMQ",
    "RABBIT",
    "BROKER",
    "CELERY",
    "KAFKA",
    "ELASTICSEARCH",
    "ELASTIC",
    "OPENSEARCH",
    "MEMCACHED",
    "CACHE",
    "SMTP",
    "MAIL",
    "MQTT",
    "NATS",
    "RMQ",
];
/// Words between a service word and its `URL` that qualify the connection (`REDIS_TLS_URL`).
const URL_QUALIFIERS: &[&str] = &["TLS", "SSL", "PRIVATE", "INTERNAL"];
/// Last words that say a name holds another credential's encoded contents.
const ENCODING_WORDS: &[&str] = &["CONTENTS", "CONTENT", "BASE64", "B64", "JSON", "PEM"];
/// Words that make a key file's contents public: a certificate, its chain, a public key.
const CERTIFICATE_WORDS: &[&str] = &["PUBLIC", "CRT", "CERT", "CERTS", "CERTIFICATE", "CERTIFICATES", "CHAIN", "CA"];
/// Leading words of values bundled into browser code by a front-end toolchain.
const PUBLIC_PREFIXES: &[&[&str]] = &[
    &["NEXT", "PUBLIC"],
    &["NUXT", "PUBLIC"],
    &["EXPO", "PUBLIC"],
    &["PLASMO", "PUBLIC"],
    &["PUBLIC"],
    &["VITE"],
    &["REACT", "APP"],
    &["VUE", "APP"],
    &["GATSBY"],
    &["STORYBOOK"],
];

/// Words of credentials that publish, sign or report (`GPG_KEY`, `NUGET_KEY`,
/// `PYPI_TOKEN`, `CODECOV_TOKEN`): release automation needs them, running the tests never.
/// (`SIGNING` is not one: apps sign their JWTs and cookies with such keys.)
const RELEASE_WORDS: &[&str] = &[
    "PYPI",
    "TWINE",
    "NUGET",
    "OSSRH",
    "SONATYPE",
    "GPG",
    "PGP",
    "COSIGN",
    "DEPLOY",
    "RELEASE",
    "PUBLISH",
    "CODESIGN",
    "NOTARIZE",
    "CODECOV",
    "COVERALLS",
    "SONAR",
];

/// The words of a name, upper-cased: split at `_` and where case changes
/// (`Stripe__SecretKey` → STRIPE SECRET KEY, `OpenAIKey` → OPEN AI KEY).
pub fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    for part in name.split('_').filter(|p| !p.is_empty()) {
        // Only a mixed-case part has case boundaries: `NEO4J` is one word.
        let mixed = part.chars().any(char::is_lowercase) && part.chars().any(char::is_uppercase);
        let chars: Vec<char> = part.chars().collect();
        let mut word = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let previous = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1);
            let boundary = mixed
                && c.is_uppercase()
                && previous.is_some_and(|p| {
                    p.is_lowercase() || p.is_ascii_digit() || p.is_uppercase() && next.is_some_and(|n| n.is_lowercase())
                });
            if boundary && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.extend(c.to_uppercase());
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

/// True when `name` is bundled into browser code (`NEXT_PUBLIC_*`, `VITE_*`, …): whatever it
/// holds is public.
pub fn is_public(name: &str) -> bool {
    let words = words(name);
    PUBLIC_PREFIXES.iter().any(|prefix| words.len() > prefix.len() && words.starts_with_str(prefix))
}

trait StartsWithStr {
    fn starts_with_str(&self, prefix: &[&str]) -> bool;
    fn ends_with_str(&self, suffix: &[&str]) -> bool;
}

impl StartsWithStr for [String] {
    fn starts_with_str(&self, prefix: &[&str]) -> bool {
        self.len() >= prefix.len() && self.iter().zip(prefix).all(|(w, p)| w == p)
    }
    fn ends_with_str(&self, suffix: &[&str]) -> bool {
        self.len() >= suffix.len() && self[self.len() - suffix.len()..].iter().zip(suffix).all(|(w, s)| w == s)
    }
}

/// Credentials of release tooling spelled with ordinary words: Sentry's auth token uploads
/// releases and source maps (`SENTRY_DSN` is the app's).
const RELEASE_NAMES: &[&[&str]] = &[&["SENTRY", "AUTH", "TOKEN"]];

/// True when `name` is a credential of release automation (see [`RELEASE_WORDS`] and
/// [`RELEASE_NAMES`]).
pub fn is_release_credential(name: &str) -> bool {
    let words = words(name);
    words.iter().any(|word| RELEASE_WORDS.contains(&word.as_str()))
        || RELEASE_NAMES
            .iter()
            .any(|release| words.windows(release.len()).any(|w| w.iter().zip(release.iter()).all(|(a, b)| a == b)))
}

/// True when `name` looks like a secret by the rules in the module documentation.
pub fn looks_like_secret(name: &str) -> bool {
    if crate::names::validate_secret_name(name).is_err() || is_public(name) {
        return false;
    }
    let words = words(name);
    if words.iter().any(|w| STAND_IN_WORDS.contains(&w.as_str())) {
        return false;
    }
    // `E2E_TEST_USER_PASSWORD`, `PLAYWRIGHT_ADMIN_PASSWORD`: the fixtures of a browser-test
    // suite, not the app's credentials.
    if is_test_suite_name(name) {
        return false;
    }
    // .NET's `ConnectionStrings__Db`, also under an `AddEnvironmentVariables("APP_")` prefix.
    if words
        .windows(2)
        .position(|pair| pair[0] == "CONNECTION" && pair[1] == "STRINGS")
        .is_some_and(|at| at + 2 < words.len())
    {
        return true;
    }
    match words.split_last() {
        // `*_CREDENTIALS_JSON`, `*_PRIVATE_KEY_BASE64`, `*_KEY_FILE_CONTENTS`: what the rest names, encoded.
        Some((last, rest)) if ENCODING_WORDS.contains(&last.as_str()) && !rest.is_empty() => {
            // A PEM, or a file's contents given in place of its path (`SIGNING_FILE_CONTENTS`),
            // is key material unless it says it is a certificate or a public key.
            let key_file = last == "PEM" || last.starts_with("CONTENT") && rest.ends_with_str(&["FILE"]);
            let rest = if rest.ends_with_str(&["FILE"]) { &rest[..rest.len() - 1] } else { rest };
            let certificate = rest.iter().any(|w| CERTIFICATE_WORDS.contains(&w.as_str()));
            rest.ends_with_str(&["SERVICE", "ACCOUNT"])
                || names_a_credential(rest, false)
                || key_file && !certificate && !rest.iter().any(|w| STAND_IN_WORDS.contains(&w.as_str()))
        }
        _ => names_a_credential(&words, true),
    }
}

/// The rules on a name's words; `whole` when they are the whole name (then
/// `GOOGLE_APPLICATION_CREDENTIALS` is Google's path to a credentials file).
fn names_a_credential(words: &[String], whole: bool) -> bool {
    let Some((last, before)) = words.split_last() else { return false };
    let is = |list: &[&str], word: &String| list.contains(&word.as_str());
    if whole && words.ends_with_str(&["APPLICATION", "CREDENTIALS"]) {
        return false;
    }
    if words.ends_with_str(&["ACCESS", "KEY", "ID"]) || words.ends_with_str(&["CONNECTION", "STRING"]) {
        return true;
    }
    if before.iter().any(|w| is(SWITCH_WORDS, w)) {
        return false;
    }
    if matches!(last.as_str(), "URL" | "URI" | "URLS" | "URIS") {
        let service = before.iter().rev().find(|w| !is(URL_QUALIFIERS, w));
        return before.iter().any(|w| is(DATABASE_WORDS, w)) || service.is_some_and(|w| is(SERVICE_WORDS, w));
    }
    // `DATABASE_URL_UNPOOLED`, `POSTGRES_URL_NON_POOLING`: a database URL with a qualifier.
    if let Some(url) = before.iter().position(|w| matches!(w.as_str(), "URL" | "URI"))
        && before[..url].iter().any(|w| is(DATABASE_WORDS, w))
        && !is(SETTING_WORDS, last)
    {
        return true;
    }
    if is(SETTING_WORDS, last) {
        return false;
    }
    if is_glued_credential(last) {
        return true;
    }
    // The seed a private key is derived from is that key (`KEY_SEED`, `SERVER_KEY_SEED`,
    // `SIGNING_SEED`).
    if last == "SEED" && before.last().is_some_and(|w| matches!(w.as_str(), "KEY" | "SECRET") || is_cryptographic(w)) {
        return true;
    }
    if is(CREDENTIAL_NOUNS, last) || is(CREDENTIAL_MODES, last) {
        // CACHE_KEY, PUBLIC_KEY, CSRF_TOKEN name things; COOKIE_SECRET is still a secret.
        let keyish = matches!(last.as_str(), "KEY" | "KEYS" | "TOKEN" | "TOKENS");
        let qualifier = before.last();
        // ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY is the key a cipher uses first.
        let cryptographic = before.iter().any(|w| is_cryptographic(w));
        let names_a_thing = keyish
            && !cryptographic
            && (qualifier.is_some_and(|w| is(IDENTIFIER_QUALIFIERS, w))
                // PUSHER_APP_KEY is the public half of PUSHER_APP_SECRET; APP_KEY alone is Laravel's key.
                || qualifier.is_some_and(|w| w == "APP") && before.len() >= 2);
        return !names_a_thing;
    }
    // A credential named first and its provider after (`API_KEY_ALPHA_VANTAGE`,
    // `PRIVATE_KEY_GITHUB_APP`): the compound says what the value is.
    before.iter().any(|w| is(STRONG_WORDS, w))
        || before.windows(2).any(|pair| matches!(pair[0].as_str(), "PRIVATE" | "API") && pair[1] == "KEY")
}

/// A credential word glued to what it is for: `DBPASS` (`PAPERLESS_DBPASS`), `SMTPPASSWORD`,
/// `ADMINPWD`, `CLIENTSECRET` (`GOTIFY_OIDC_CLIENTSECRET`) — but not `BYPASS` or `COMPASS`.
fn is_glued_credential(word: &str) -> bool {
    const FOR: &[&str] =
        &["DB", "SQL", "SMTP", "MAIL", "LDAP", "REDIS", "ADMIN", "ROOT", "USER", "API", "CLIENT", "APP", "OAUTH"];
    FOR.iter().any(|owner| {
        word.strip_prefix(owner)
            .is_some_and(|rest| matches!(rest, "PASS" | "PASSWORD" | "PASSWD" | "PWD" | "SECRET" | "TOKEN"))
    })
}

/// Words that put a key to cryptographic use: the key signs or encrypts, it names nothing.
fn is_cryptographic(word: &str) -> bool {
    matches!(word, "ENCRYPTION" | "SIGNING" | "CIPHER" | "HMAC")
}

/// The `X_KEY` names that are the public half of an `X_KEY`/`X_SECRET` pair among `names`
/// (Stripe's publishable `STRIPE_KEY` beside `STRIPE_SECRET`, an access key id `SES_KEY`
/// beside `SES_SECRET`): the secret is the other half. A signing or encryption key is key
/// material whatever sits beside it (`SIGNING_KEY` and `SIGNING_SECRET`: two ways to give
/// one), and so is an API key (`X_API_KEY` beside `X_API_SECRET`: both go with each call).
pub fn public_halves<'n>(names: &'n [&'n str]) -> impl Iterator<Item = &'n str> + 'n {
    names.iter().copied().filter(move |name| {
        name.strip_suffix("_KEY").is_some_and(|stem| {
            let stem_words = words(stem);
            !stem.is_empty()
                && names.contains(&format!("{stem}_SECRET").as_str())
                && !stem_words.iter().any(|w| is_cryptographic(w))
                // An API key authenticates each call beside its secret (`TWITTER_API_KEY`
                // and `TWITTER_API_SECRET`, Last.fm's `LASTFM_API_KEY`): it is no public half.
                && stem_words.last().is_none_or(|w| w != "API")
        })
    })
}

/// Whether `name` is the URL of a cache, broker, mail or search server that every example
/// the repo gives (`values`, as written) shows without credentials: a setting, not a secret.
pub fn is_url_setting(name: &str, values: &[&str]) -> bool {
    let words = words(name);
    let Some((last, before)) = words.split_last() else { return false };
    matches!(last.as_str(), "URL" | "URI")
        && !before.iter().any(|w| DATABASE_WORDS.contains(&w.as_str()))
        && values.iter().any(|v| v.contains("://"))
        && !values.iter().any(|v| has_credentials(v))
}

static CREDENTIAL_URL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@]*:[^\s/@]+@").expect("the URL pattern is valid"));

/// Whether a value is a URL with credentials (`postgres://app:hunter2@db/app`,
/// `redis://:secret@cache:6379`).
pub fn has_credentials(value: &str) -> bool {
    CREDENTIAL_URL.is_match(value)
}

/// Whether a value is a stand-in for the real one rather than a value: empty, or
/// `changeme`, `changethis`, `CHANGE-THIS!`, `secret`, `xxx`, `your-api-key`, `<token>`,
/// `TODO`, `...`.
pub fn is_placeholder(value: &str) -> bool {
    let value = value.trim().trim_matches(['"', '\'']).trim();
    let lower = value.to_ascii_lowercase();
    let letters: String = lower.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    value.is_empty()
        || value.starts_with('<') && value.ends_with('>')
        || letters.starts_with("change") && (letters[6..].starts_with("me") || letters[6..].starts_with("this"))
        || letters.starts_with("replace") && (letters[7..].starts_with("me") || letters[7..].starts_with("this"))
        || ["secret", "todo", "tbd", "fixme", "placeholder", "yoursecret"].contains(&letters.as_str())
        || letters.starts_with("your") && value.len() > 4 && value[4..].starts_with(['-', '_', ' ', '.'])
        || value.len() >= 3 && lower.chars().all(|c| matches!(c, 'x' | '*' | '.'))
}

/// Whether a name is one a browser-test suite reads for its fixtures (`E2E_*`, `CYPRESS_*`).
pub fn is_test_suite_name(name: &str) -> bool {
    words(name).first().is_some_and(|w| TEST_SUITE_WORDS.contains(&w.as_str()))
}

/// Whether a name's words make it a setting about something rather than a value to keep
/// secret (`SSO_CLIENT_CACHE_EXPIRATION`, `DUO_HOST`, `ENABLE_PASSWORD_LOGIN`).
pub fn is_setting_name(name: &str) -> bool {
    let words = words(name);
    let Some((last, before)) = words.split_last() else { return false };
    SETTING_WORDS.contains(&last.as_str()) || before.iter().any(|w| SWITCH_WORDS.contains(&w.as_str()))
}

/// Whether an example's `value` for `name` is a setting's: a boolean (`true`, `off`), a
/// number (unless the name is a password's: `123456` is an example password), a duration
/// (`15m`, `6.hours`), a cron schedule (`0 3 * * *`) or a list (`a,b`, `["a"]`). Such a name
/// holds no credential whatever its words say (`LIVE_DELETE_TOKEN_AFTER=true`,
/// `RESET_PASSWORD_WITHIN=6.hours`, `AUTOSPAM_IGNORED_TOKENS=spam,ham`).
pub fn is_setting_value(name: &str, value: &str) -> bool {
    static NUMBER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^-?[0-9][0-9_]*(?:\.[0-9]+)?$").expect("the number pattern is valid"));
    static DURATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^[0-9]+(?:\.[0-9]+)?\s*(?:ms|s|m|h|d|w|y|secs?|seconds?|mins?|minutes?|hours?|days?|weeks?|months?|years?)$|^[0-9]+\.(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)$")
            .expect("the duration pattern is valid")
    });
    static CRON_FIELD: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^[0-9*/,?LW#-]+$").expect("the cron-field pattern is valid"));
    static LIST_ITEM: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^[A-Za-z0-9_.:/@*-]+$").expect("the list-item pattern is valid"));
    let value = value.trim().trim_matches(['"', '\'']).trim();
    if value.is_empty() {
        return false;
    }
    let lower = value.to_ascii_lowercase();
    let last = words(name).pop().unwrap_or_default();
    if ["true", "yes", "on"].contains(&lower.as_str()) || DURATION.is_match(value) {
        return true;
    }
    // `LDAP_PASS=false`, `AZURE_APP_SECRET=false` (Laravel's `env('X', false)`): a credential
    // left unset, not a flag — unless the name's last word is no credential noun
    // (`PROXY_AUTH=off` switches proxy authentication).
    if ["false", "no", "off"].contains(&lower.as_str()) {
        return !CREDENTIAL_NOUNS.contains(&last.as_str());
    }
    if NUMBER.is_match(value) {
        let password =
            matches!(last.as_str(), "PASSWORD" | "PASS" | "PASSWD" | "PWD" | "PASSPHRASE" | "PIN" | "SECRET");
        return !password;
    }
    let fields: Vec<&str> = value.split_whitespace().collect();
    if (5..=6).contains(&fields.len()) && fields.iter().all(|f| CRON_FIELD.is_match(f)) && value.contains('*') {
        return true;
    }
    if value.starts_with('[') && value.ends_with(']') {
        return true;
    }
    let items: Vec<&str> = value.split(',').map(str::trim).collect();
    items.len() >= 2 && items.iter().all(|i| LIST_ITEM.is_match(i))
}

/// Secrets CI uses for itself: the job token, coverage/quality services, package registries,
/// image registries, signing, remote caches and deploy targets.
pub fn is_sandbox_secret(name: &str) -> bool {
    const CI_ONLY: &[&str] = &[
        "GITHUB",
        "GH",
        "SONARCLOUD",
        "CODACY",
        "CODECLIMATE",
        "CC",
        "NPM",
        "GEM",
        "RUBYGEMS",
        "SIGNING",
        "CARGO",
        "CRATES",
        "MAVEN",
        "GRADLE",
        "DOCKER",
        "DOCKERHUB",
        "GHCR",
        "QUAY",
        "NETLIFY",
        "VERCEL",
        "CACHIX",
        "TURBO",
        "NX",
        "CHROMATIC",
        "PERCY",
        "SNYK",
        "APPLE",
        "HOMEBREW",
        "TAP",
        "CLOUDFLARE",
        "HEROKU",
        "FLY",
        "SURGE",
        "BOT",
        "PAT",
        "ACTIONS",
        "RUNNER",
        "SLACK",
        // Test infrastructure CI rents: the sandbox runs the tests itself.
        "PLAYWRIGHT",
        "CYPRESS",
        "BROWSERSTACK",
        "SAUCE",
        "LAMBDATEST",
        "ARGOS",
        "CURRENTS",
    ];
    crate::names::validate_secret_name(name).is_ok()
        && !words(name).iter().any(|word| CI_ONLY.contains(&word.as_str()) || STAND_IN_WORDS.contains(&word.as_str()))
        && !is_release_credential(name)
        && !name.to_ascii_uppercase().contains("WEBHOOK")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_that_make_a_name_a_setting() {
        for (name, value) in [
            ("LIVE_DELETE_TOKEN_AFTER", "true"),
            ("PROXY_AUTH", "off"),
            ("RESET_PASSWORD_WITHIN", "6.hours"),
            ("SESSION_TOKEN_TTL", "15m"),
            ("AUTOSPAM_IGNORED_TOKENS", "spam,ham"),
            ("TOKEN_SCOPES", "[\"read\"]"),
            ("PURGE_AUTH_SCHEDULE", "0 3 * * *"),
            ("EMAIL_TOKEN_SIZE", "6"),
            ("YUBICO_CLIENT_ID", "11111"),
        ] {
            assert!(is_setting_value(name, value), "{name}={value}");
        }
        for (name, value) in [
            ("DB_PASSWORD", "123456"),
            ("ADMIN_PIN", "0000"),
            ("API_KEY", ""),
            ("API_KEY", "changeme"),
            ("JWT_SECRET", "nRvyYC4soFxBdZ-F-5Nnzz5USXst"),
            ("DATABASE_URL", "postgres://app:pw@db/app"),
            ("DUO_SKEY", "<Client Secret>"),
            ("ADMIN_RECOVERY_KEY", "wang wang"),
            ("LDAP_PASS", "false"),
            ("AZURE_APP_SECRET", "false"),
        ] {
            assert!(!is_setting_value(name, value), "{name}={value}");
        }
    }

    #[test]
    fn secret_names() {
        for name in [
            "APP_KEY",
            "DB_PASSWORD",
            "REDIS_PASSWORD",
            "MEMCACHED_PASSWORD",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_ACCESS_KEY_ID",
            "MAIL_PASSWORD",
            "PUSHER_APP_SECRET",
            "POSTMARK_TOKEN",
            "RESEND_KEY",
            "SLACK_BOT_USER_OAUTH_TOKEN",
            "APP_PREVIOUS_KEYS",
            "SECRET_KEY_BASE",
            "ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY",
            "DATABASE_URL",
            "REDIS_URL",
            "LOG_SLACK_WEBHOOK_URL",
            "SENTRY_DSN",
            "STRIPE_API_KEY",
            "OPENAI_APIKEY",
            "AZURE_STORAGE_CONNECTION_STRING",
            "JWT_PRIVATE_KEY",
            "NPM_AUTH",
            "github_token",
            "COOKIE_SECRET",
            "AVO_LICENSE_KEY",
            "SUPABASE_SERVICE_ROLE_KEY",
            "DATABASE_PASS",
            "GOTRUE_SMTP_PASS",
            "SQL_PWD",
            "LDAP_PASSWD",
            "NEXT_PRIVATE_SIGNING_GCLOUD_APPLICATION_CREDENTIALS_CONTENTS",
            "AI_GOOGLE_CLOUD_CREDENTIALS_JSON",
            "JWT_PRIVATE_KEY_BASE64",
            "GOOGLE_SERVICE_ACCOUNT_JSON",
            "ConnectionStrings__DefaultConnection",
            "SHOP_ConnectionStrings__Orders",
            "Stripe__SecretKey",
            "NEXT_PRIVATE_DOCUMENSO_LICENSE_KEY",
            "PRIVATE_KEY_PEM_PASSPHRASE",
            "PAPERLESS_DBPASS",
            "DATABASE_URL_UNPOOLED",
            "POSTGRES_URL_NON_POOLING",
            "NEXT_PRIVATE_DATABASE_REPLICA_URLS",
            "SMTPPASSWORD",
            "GITHUB_APP_PEM",
            "PRIVATE_KEY_PEM",
            "NEXT_PRIVATE_SIGNING_LOCAL_FILE_CONTENTS",
            "REDIS_TLS_URL",
            "RMQ_URL",
            "LLDAP_KEY_SEED",
            "SERVER_KEY_SEED",
            "WEBAPP_SERVER_SIGNING_SEED",
            "GOTIFY_OIDC_CLIENTSECRET",
            "FB_APPSECRET",
            "API_KEY_ALPHA_VANTAGE",
            "API_KEY_COINGECKO_PRO",
            "PRIVATE_KEY_GITHUB_APP",
        ] {
            assert!(looks_like_secret(name), "{name}");
        }
    }

    #[test]
    fn not_secret_names() {
        for name in [
            "UPTIME_KUMA_SSL_KEY",
            "TOKEN_UPDATE_LAST_LOGIN_THRESHOLD",
            "MYSQL_SSL_KEY",
            "TLS_KEY",
            "KEY_SEED_LENGTH",
            "SECRET_PROVIDER",
            "DISPATCH_AUTHENTICATION_PROVIDER_USE_ID_TOKEN",
            "SKIP_AUTH_TOKEN",
            "PATH",
            "HOME",
            "PWD",
            "NODE_ENV",
            "CI",
            "PORT",
            "HOST",
            "DEBUG",
            "LOG_LEVEL",
            "DB_CONNECTION",
            "DB_PORT",
            "DB_HOST",
            "DB_USERNAME",
            "REDIS_CLIENT",
            "DYNAMODB_CACHE_TABLE",
            "QUEUE_CONNECTION",
            "AUTH_PASSWORD_BROKER",
            "AUTH_PASSWORD_RESET_TOKEN_TABLE",
            "AUTH_PASSWORD_TIMEOUT",
            "AUTH_GUARD",
            "SESSION_CACHE_KEY",
            "CAS_UID_KEY",
            "PB_ID_TOKEN_LEEWAY",
            "PASSWORD_ITERATIONS",
            "PASSWORD_HINTS_ALLOWED",
            "SHOW_PASSWORD_HINT",
            "STRIPE_PUBLISHABLE_KEY",
            "RECAPTCHA_SITE_KEY",
            "PRIVATE_KEY_PATH",
            "APP_URL",
            "AWS_URL",
            "PUPPETEER_SKIP_DOWNLOAD",
            "RIPGREP_CONFIG_PATH",
            "HANZO_API_KEY",
            "TOKEN_EXPIRES",
            "PAPERLESS_TOKEN_THROTTLE_RATE",
            "JWT_SECRET_EXPIRES_IN",
            "CSRF_TOKEN",
            "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY",
            "KEYBOARD",
            "MONKEY",
            // Public, browser-bundled values.
            "NEXT_PUBLIC_POSTHOG_KEY",
            "VITE_API_KEY",
            "PUBLIC_SUPABASE_ANON_KEY",
            "EXPO_PUBLIC_API_TOKEN",
            "REACT_APP_FIREBASE_API_KEY",
            "SUPABASE_ANON_KEY",
            "PUSHER_APP_KEY",
            "REVERB_APP_KEY",
            "NEXT_PRIVATE_GOOGLE_CLIENT_ID",
            "POSTHOG_KEY",
            "SEGMENT_WRITE_KEY",
            "SEGMENT_KEY",
            // Settings about a credential.
            "NEXT_PRIVATE_SMTP_TRANSPORT",
            "NEXT_PRIVATE_SMTP_SECURE",
            "NEXT_PRIVATE_SMTP_SERVICE",
            "NEXT_PRIVATE_MAILCHANNELS_DKIM_SELECTOR",
            "NEXT_PRIVATE_OIDC_PROMPT",
            "NEXT_PRIVATE_OIDC_PROVIDER_LABEL",
            "NEXT_PRIVATE_OIDC_WELL_KNOWN",
            "NEXT_PRIVATE_SIGNING_TIMESTAMP_AUTHORITY",
            "AZURE_STORAGE_CONTAINER",
            "NEXT_PRIVATE_UPLOAD_FORCE_PATH_STYLE",
            "NEXT_PRIVATE_SMTP_UNSAFE_IGNORE_TLS",
            "NEXT_PRIVATE_SMTP_FROM_ADDRESS",
            "NEXT_PRIVATE_BULLMQ_CONCURRENCY",
            "NEXT_PRIVATE_DOCUMENT_CONVERSION_TIMEOUT_MS",
            "GOTRUE_MAILER_SUBJECTS_PASSWORD_CHANGED_NOTIFICATION",
            "NEXT_PRIVATE_ALLOWED_SIGNUP_DOMAINS",
            "NEXT_PRIVATE_WEBHOOK_SSRF_BYPASS_HOSTS",
            "DEBUG_SHOW_RESET_LINK",
            "PASSWORD_RESET_TOKEN_LIFETIME_MINUTES",
            // Paths to a credential file.
            "GOOGLE_APPLICATION_CREDENTIALS",
            "AI_GOOGLE_CLOUD_APPLICATION_CREDENTIALS",
            "SSL_KEY_FILE",
            "NEXT_PRIVATE_SIGNING_GCLOUD_HSM_KEY_PATH",
            "MQTT_HOME_ASSISTANT_DISCOVERY_URL",
            "TOKEN_TIME",
            "SESSION_MAX_AGE",
            "DUMMY_ENCRYPTION_KEY",
            "FAKE_API_TOKEN",
            "DANGEROUS_BYPASS",
            "DATABASE_URL_TIMEOUT",
            "DANGEROUSLY_ALLOW_WEBHOOK_INTERNAL_URLS",
            "NORTH_COMPASS",
            // Contents of something that is not a credential.
            "NEXT_PRIVATE_SIGNING_GCLOUD_HSM_PUBLIC_CRT_FILE_CONTENTS",
            "NEXT_PRIVATE_SIGNING_GCLOUD_HSM_CERT_CHAIN_CONTENTS",
            "AI_OPENAI_COMPATIBLE_HEADERS_JSON",
            "TLS_CERT_PEM",
            "CA_PEM",
            "PAGE_CONTENT",
            "BANNER_CONTENTS",
            // Switches and seeds that are not key material.
            "LLDAP_FORCE_UPDATE_PRIVATE_KEY",
            "RANDOM_SEED",
            "FAKER_SEED",
            "REDIS_TLS_ENABLED",
            "API_KEY_HEADER",
            "SCREEGO_TURN_STRICT_AUTH",
            "API_KEY_PREFIX",
            "KEY_ALPHA_VANTAGE",
        ] {
            assert!(!looks_like_secret(name), "{name}");
        }
    }

    #[test]
    fn words_split_at_underscores_and_case() {
        assert_eq!(words("Stripe__SecretKey"), ["STRIPE", "SECRET", "KEY"]);
        assert_eq!(words("OpenAIKeyParameter"), ["OPEN", "AI", "KEY", "PARAMETER"]);
        assert_eq!(words("DATABASE_URL"), ["DATABASE", "URL"]);
        assert_eq!(words("s3Bucket2Name"), ["S3", "BUCKET2", "NAME"]);
        assert!(words("_").is_empty());
    }

    #[test]
    fn urls_without_credentials_in_any_example_are_settings() {
        assert!(is_url_setting("REDIS_URL", &["redis://localhost:6379"]));
        assert!(!is_url_setting("REDIS_URL", &["redis://localhost:6379", "redis://:secret@cache:6379"]));
        assert!(!is_url_setting("REDIS_URL", &[]));
        assert!(!is_url_setting("REDIS_URL", &[""]));
        assert!(!is_url_setting("DATABASE_URL", &["postgres://localhost/app"]));
        assert!(has_credentials("postgres://app:hunter2@localhost/app"));
        assert!(has_credentials("postgresql://postgres:${POSTGRES_PASSWORD}@localhost:5432/app"));
        assert!(!has_credentials("http://localhost:3000"));
    }

    #[test]
    fn placeholders() {
        for value in [
            "",
            "\"\"",
            "changethis",
            "changeme",
            "CHANGE-THIS! VERY IMPORTANT!",
            "change_me",
            "secret",
            "xxx",
            "XXXXXXXX",
            "your-api-key",
            "your_secret_here",
            "<your token>",
            "TODO",
            "...",
            "replace-me",
        ] {
            assert!(is_placeholder(value), "{value}");
        }
        for value in ["hunter2", "postgres", "sk_test_123", "yourself", "http://x", "secretive-value", "1"] {
            assert!(!is_placeholder(value), "{value}");
        }
    }

    #[test]
    fn release_and_ci_credentials() {
        for name in
            ["GPG_PRIVATE_KEY", "NUGET_KEY", "PYPI_API_TOKEN", "CODECOV_TOKEN", "OSSRH_PASSWORD", "SENTRY_AUTH_TOKEN"]
        {
            assert!(is_release_credential(name), "{name}");
        }
        for name in
            ["DATABASE_URL", "STRIPE_SECRET_KEY", "RELEASED_AT_TOKEN_X", "SLACK_SIGNING_SECRET", "JWT_SIGNING_KEY"]
        {
            assert!(!is_release_credential(name), "{name}");
        }
        assert!(!is_sandbox_secret("GITHUB_TOKEN"));
        assert!(!is_sandbox_secret("DOCKERHUB_PASSWORD"));
        assert!(!is_sandbox_secret("PLAYWRIGHT_SERVICE_ACCESS_TOKEN"));
        assert!(!is_sandbox_secret("DUMMY_ENCRYPTION_KEY"));
    }

    #[test]
    fn the_key_of_a_key_and_secret_pair_is_its_public_half() {
        let names =
            ["STRIPE_KEY", "STRIPE_SECRET", "SES_KEY", "SES_SECRET", "APP_KEY", "MEILISEARCH_KEY", "_KEY", "_SECRET"];
        assert_eq!(public_halves(&names).collect::<Vec<_>>(), ["STRIPE_KEY", "SES_KEY"]);
        assert!(is_sandbox_secret("DB_PASSWORD"));
        // Two ways to give one signing key: neither is public.
        let signing = ["WEBAPP_SERVER_SIGNING_KEY", "WEBAPP_SERVER_SIGNING_SECRET"];
        assert_eq!(public_halves(&signing).count(), 0);
        // An API key goes with every call beside its secret: both are credentials.
        let api = ["TWITTER_API_KEY", "TWITTER_API_SECRET", "LASTFM_API_KEY", "LASTFM_API_SECRET"];
        assert_eq!(public_halves(&api).count(), 0);
    }
}
