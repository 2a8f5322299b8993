//! The cross-ecosystem rules of what a secret is, on the name alone (split into words at
//! `_` and at camel-case boundaries: `STRIPE_SECRET_KEY`, `Stripe__SecretKey`), and what a
//! value says: a stand-in to replace (`changethis`, `<your-key>`) or credentials in a URL.
//!
//! A name is a secret when
//! - its last word is a credential word (PASSWORD, PASS, PWD, SECRET, TOKEN, KEY, APIKEY,
//!   CREDENTIALS, DSN, SALT, MACAROON, …), also before a word of its rotation (`*_KEY_PREVIOUS`,
//!   `*_SECRET_OLD`) — unless it is KEY/TOKEN and the word before makes it an
//!   identifier or a public value (CACHE_KEY, PUBLIC_KEY, SITE_KEY, ANON_KEY, CSRF_TOKEN, and
//!   `<SERVICE>_APP_KEY`, the public half of a Pusher/Reverb app's key and secret);
//!   `*_ACCESS_KEY_ID` counts, and so does a key named for its cipher (`DB_ENC_KEY_GCM`);
//! - or SECRET/PASSWORD/TOKEN/CREDENTIALS/APIKEY (or PRIVATE right before KEY) comes earlier
//!   and the last word is not a setting about it (`SECRET_KEY_BASE` yes, `PASSWORD_TIMEOUT` no);
//! - or it is a connection string: `*_CONNECTION_STRING`, .NET's `ConnectionStrings__*`, a
//!   database `*_URL`/`*_URI`, a chat service's webhook URL (SLACK_WEBHOOK_URL), or the URL
//!   of a cache, broker or mail server (REDIS_URL) — the latter only while no example the
//!   repo gives shows it without credentials (see [`is_url_setting`]);
//! - or it is the encoded contents of one of the above (`*_CREDENTIALS_JSON`,
//!   `*_PRIVATE_KEY_BASE64`, `*_KEY_FILE_CONTENTS`, `*_MACAROON_ENCRYPTED`), a PEM or a file's contents given in
//!   place of its path (`GITHUB_APP_PEM`, `SIGNING_FILE_CONTENTS`) that is no certificate or
//!   public key, or the seed a key is derived from (`KEY_SEED`).
//!
//! Never a secret: a name [`crate::names::validate_secret_name`] refuses; a value bundled for
//! the browser (`NEXT_PUBLIC_*`, `VITE_*`, `PUBLIC_*`, `EXPO_PUBLIC_*`, `REACT_APP_*`, …); a
//! setting about a credential (`*_PORT`, `*_HOST`, `*_TRANSPORT`, `*_TIMEOUT_MS`,
//! `*_FROM_ADDRESS`, `*_ALLOWED_*`, `*_DEBUG_*`, …); the path to a credential file
//! (`*_KEY_FILE`, `*_KEY_PATH`, `GOOGLE_APPLICATION_CREDENTIALS`: the file is the secret).
//! Release, signing and coverage credentials never count, nor those CI uses for itself.

mod ci;
mod values;

pub use self::ci::is_sandbox_secret;
pub use self::values::{
    has_credentials, is_committed_credential, is_credential_placeholder, is_placeholder, is_setting_value,
    is_url_setting,
};

/// Words that, last in a name, make it a credential and name the value itself.
const CREDENTIAL_NOUNS: &[&str] = &[
    "PASSWORD",
    "PASSWORDS",
    "PASSWD",
    "PASS",
    "PASSPHRASE",
    // A shared secret two services prove themselves with (`PERIPHERY_PASSKEYS`).
    "PASSKEY",
    "PASSKEYS",
    "PWD",
    // `LDAP_BIND_PW`, `SMTP_PW`.
    "PW",
    "SECRET",
    "SECRETS",
    "TOKEN",
    "TOKENS",
    "KEY",
    "KEYS",
    "APIKEY",
    // S3-style storage's secret key glued as one word (`MINIO_SECRETKEY`, `S3_SECRETKEY`).
    "SECRETKEY",
    "CREDENTIALS",
    "CREDENTIAL",
    "CREDS",
    "DSN",
    "SALT",
    "PEPPER",
    // Bearer credentials by their own names: a macaroon (LND's, Google's), Core Lightning's
    // rune, a wallet's mnemonic phrase.
    "MACAROON",
    "MACAROONS",
    "RUNE",
    "MNEMONIC",
];
/// Last words that name one of a credential's values while it is rotated
/// (`KEY_ENCRYPTION_KEY_PREVIOUS`, Django's `SECRET_KEY_FALLBACKS`, `JWT_SECRET_OLD`): the
/// name is a credential when the words before it name one.
const ROTATION_WORDS: &[&str] = &["PREVIOUS", "PREV", "OLD", "FALLBACK", "FALLBACKS"];
/// Last words that name the deployment a value is for (`MAIL_PASS_DEV`, `STRIPE_SECRET_KEY_PROD`):
/// the name is a credential when the words before it name one.
const STAGE_WORDS: &[&str] = &["DEV", "DEVELOPMENT", "PROD", "PRODUCTION", "STAGING", "LOCAL"];
/// Words that, last in a name, make it a credential but also name a mode (`PROXY_AUTH=off`).
const CREDENTIAL_MODES: &[&str] = &["AUTH", "JWT", "PAT"];
/// Words that, anywhere before the last, make a name a credential (`SECRET_KEY_BASE`).
const STRONG_WORDS: &[&str] = &["SECRET", "PASSWORD", "TOKEN", "CREDENTIALS", "APIKEY", "MACAROON"];
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
    "PUB",
    "PUBLISHABLE",
    "SITE",
    // reCAPTCHA's site key as some apps spell it (`RECAPTCHA_WEBSITE_KEY`): shown in every page.
    "WEBSITE",
    // The names of keys to mask or skip in logs (`BUGSNAG_REDACTED_KEYS=password,token`).
    "REDACTED",
    "IGNORED",
    "ANON",
    "IDEMPOTENCY",
    "LOOKUP",
    "CURSOR",
    "OBJECT",
    "HEADER",
    "COOKIE",
    "CSRF",
    // Azure Application Insights' key: it ships in every page's telemetry snippet.
    "INSTRUMENTATION",
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
    // The key file of a TLS pair, beside its `*_SSL_CERT` (`MYSQL_SSL_KEY`), or named for the
    // certificate it goes with (`SSL_CERT_KEY`): a path the server loads.
    "SSL",
    "TLS",
    "CERT",
    "CERTIFICATE",
    // A Redis stream's key (`CASE_TRIGGERS_STREAM_KEY`): the name data is kept under.
    "STREAM",
    // Keys published in browser code: the front end's (`SENTRY_FRONTEND_KEY`), a PostHog
    // project key, a Segment write key.
    "FRONTEND",
    "POSTHOG",
    "SEGMENT",
    "WRITE",
];
/// Last words that make a name a setting about something, never the secret itself.
const SETTING_WORDS: &[&str] = &[
    "PORT",
    "HOST",
    "HOSTS",
    // What happens around a credential, not the credential (`PASSWORD_CACHING`,
    // `TOKEN_VALIDATION`, `PASSWORD_AUTHENTICATION`, `LOGIN_DELAY_PASSWORD_FAILED`).
    "CACHING",
    "VALIDATION",
    "AUTHENTICATION",
    "FAILED",
    // Which role a credential is given (`SECRET_API_KEY_ROLE`, `DB_ROLE`): a name.
    "ROLE",
    // Where a cloud keeps the credential (`TEMPORAL__API_KEY__ARN`): an AWS resource name.
    "ARN",
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
    // OpenID's `id_token_signed_response_alg`: which algorithm signs the token.
    "ALG",
    "TYPE",
    "MODE",
    "LEVEL",
    "STORE",
    "QUEUE",
    "CHANNEL",
    "REGION",
    // A cloud project's id (`GOOGLE_CLOUD_PROJECT`, `SENTRY_PROJECT`): it names, it grants nothing.
    "PROJECT",
    // What a client says it is (`HIBP_USER_AGENT`), which characters a password needs.
    "AGENT",
    "CHARACTERS",
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
    // How many tokens a language model may spend (`HISTORY_TOKEN_BUDGET`), like `MAX_TOKENS`.
    "BUDGET",
    "SKEW",
    "ITERATIONS",
    "HINT",
    "HINTS",
    "ALLOWED",
    "SUBJECT",
    // Who a mail is sent as (`MAILER_INVITATION_FROM`, `CREDENTIALS_RECOVERY_SENDER`): an address.
    "FROM",
    "SENDER",
    "TEMPLATE",
    "ENCODING",
    "MANAGER",
    "ROOT",
    // Where a value comes from (`TOKEN_EXCHANGE_RATES_SOURCE=coin_gecko`).
    "SOURCE",
    // A deployed smart contract, by its address (`NATIVE_TOKEN_CONTRACT=0x…`).
    "CONTRACT",
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
/// What a `*_URL`/`*_URI` is about when it always carries credentials: a database.
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
];
/// Chat services whose incoming-webhook URL carries its token in the path
/// (`hooks.slack.com/services/T…/B…/<token>`, `discord.com/api/webhooks/<id>/<token>`): such a
/// `*_WEBHOOK_URL` (Slack's own `hooks.slack.com` gives `*_HOOK_URL`) is a credential. Any other webhook URL is an address the app posts to or is
/// called at (`NOTIFY_WEBHOOK_URL`, `TELEGRAM_BOT_WEBHOOK_URL`): a setting unless an example
/// shows credentials in it.
const TOKEN_IN_URL_WEBHOOKS: &[&str] = &["SLACK", "DISCORD", "MATTERMOST", "TEAMS", "MSTEAMS", "ROCKETCHAT"];
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
/// (`ENCRYPTED`: the same, encrypted for the app to decrypt — `LND_REST_MACAROON_ENCRYPTED`.)
const ENCODING_WORDS: &[&str] = &["CONTENTS", "CONTENT", "BASE64", "B64", "JSON", "PEM", "ENCRYPTED"];
/// Words that make a key file's contents public: a certificate, its chain, a public key.
const CERTIFICATE_WORDS: &[&str] = &["PUBLIC", "CRT", "CERT", "CERTS", "CERTIFICATE", "CERTIFICATES", "CHAIN", "CA"];
/// Leading words of values bundled into browser code by a front-end toolchain.
const PUBLIC_PREFIXES: &[&[&str]] = &[
    &["NEXT", "PUBLIC"],
    &["NUXT", "PUBLIC"],
    &["EXPO", "PUBLIC"],
    &["PLASMO", "PUBLIC"],
    &["SNOWPACK", "PUBLIC"],
    &["SANITY", "STUDIO"],
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
/// Cargo's registry token (`CARGO_REGISTRY_TOKEN`) is what `cargo publish` reads.
const RELEASE_NAMES: &[&[&str]] = &[&["SENTRY", "AUTH", "TOKEN"], &["CARGO", "REGISTRY", "TOKEN"]];

/// Words that may stand between a release word and the end of its credential's name
/// (`GPG_PRIVATE_KEY`, `PYPI_API_TOKEN`, `DEPLOY_SSH_KEY`).
const CREDENTIAL_PARTS: &[&str] = &["PRIVATE", "API", "SSH", "ACCESS", "AUTH", "SIGNING", "USER", "USERNAME"];

/// True when `name` is a credential of release automation (see [`RELEASE_WORDS`] and
/// [`RELEASE_NAMES`]): the release word qualifies the credential itself. An app's own setting
/// that merely holds the word (`CHANNEL_PROXY_PUBLISH_GRPC_TLS_KEY_PEM`, a pub/sub proxy's key)
/// is the app's.
pub fn is_release_credential(name: &str) -> bool {
    let words = words(name);
    let qualifies = |rest: &[String]| {
        rest.iter().all(|w| CREDENTIAL_NOUNS.contains(&w.as_str()) || CREDENTIAL_PARTS.contains(&w.as_str()))
    };
    words.iter().enumerate().any(|(i, word)| RELEASE_WORDS.contains(&word.as_str()) && qualifies(&words[i + 1..]))
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
    // `__` joins configuration sections (.NET's binder, a viper or pydantic nested delimiter):
    // a credential word in an outer section says what the section is about, not what its leaf
    // holds (`DATA_PROVIDER__PASSWORD_HASHING__ARGON2_OPTIONS__MEMORY`). The leaf is judged,
    // with its section's name when it is one word that needs one (`POSTGRES__URL`).
    if let Some((parent, leaf)) = name.rsplit_once("__")
        && !leaf.is_empty()
        && !parent.trim_end_matches('_').is_empty()
    {
        let section = parent.rsplit("__").next().unwrap_or(parent).trim_matches('_');
        let judged = if words.len() > 1 && self::words(leaf).len() == 1 && !section.is_empty() {
            format!("{section}_{leaf}")
        } else {
            leaf.to_string()
        };
        return looks_like_secret(&judged);
    }
    match words.split_last() {
        // `*_CREDENTIALS_JSON`, `*_PRIVATE_KEY_BASE64`, `*_KEY_FILE_CONTENTS`: what the rest names, encoded.
        Some((last, rest)) if ENCODING_WORDS.contains(&last.as_str()) && !rest.is_empty() => {
            // A PEM, or a file's contents given in place of its path (`SIGNING_FILE_CONTENTS`),
            // is key material unless it says it is a certificate or a public key.
            // A PKCS#12 bundle (`SIGNING_PFX_BASE64`, `*_P12_B64`) holds a private key.
            let key_file = last == "PEM"
                || last.starts_with("CONTENT") && rest.ends_with_str(&["FILE"])
                || rest.last().is_some_and(|w| matches!(w.as_str(), "PFX" | "P12" | "PKCS12"));
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
    if (is(ROTATION_WORDS, last) || is(STAGE_WORDS, last)) && before.len() > 1 {
        return names_a_credential(before, whole);
    }
    if whole && words.ends_with_str(&["APPLICATION", "CREDENTIALS"]) {
        return false;
    }
    // `PASS_PHRASE`: a passphrase spelled as two words.
    if words.ends_with_str(&["ACCESS", "KEY", "ID"])
        || words.ends_with_str(&["CONNECTION", "STRING"])
        || words.ends_with_str(&["PASS", "PHRASE"])
    {
        return true;
    }
    // A webhook's verify token (Meta's, WhatsApp's): the secret the app answers its provider's
    // handshake with — a noun, where `VERIFY` elsewhere is a switch (`SMTP_VERIFY_PEER`).
    if words.ends_with_str(&["VERIFY", "TOKEN"]) {
        return true;
    }
    if before.iter().any(|w| is(SWITCH_WORDS, w)) {
        return false;
    }
    if matches!(last.as_str(), "URL" | "URI" | "URLS" | "URIS") {
        let service = before.iter().rev().find(|w| !is(URL_QUALIFIERS, w));
        let chat_webhook =
            before.iter().any(|w| w == "WEBHOOK" || w == "HOOK") && before.iter().any(|w| is(TOKEN_IN_URL_WEBHOOKS, w));
        return before.iter().any(|w| is(DATABASE_WORDS, w))
            || service.is_some_and(|w| is(SERVICE_WORDS, w))
            || chat_webhook;
    }
    // `DATABASE_URL_UNPOOLED`, `POSTGRES_URL_NON_POOLING`: a database URL with a qualifier.
    if let Some(url) = before.iter().position(|w| matches!(w.as_str(), "URL" | "URI"))
        && before[..url].iter().any(|w| is(DATABASE_WORDS, w))
        && !is(SETTING_WORDS, last)
    {
        return true;
    }
    // `DB_ENC_KEY_GCM`, `SECRET_KEY_AES`: a key named for the cipher it feeds.
    if before.last().is_some_and(|w| w == "KEY") && matches!(last.as_str(), "AES" | "GCM" | "CBC") {
        return true;
    }
    // A name glued to its noun (`HOOKNAME`, `DBNAME`) names a thing, like `_NAME`.
    if is(SETTING_WORDS, last) || last.len() > 4 && last.ends_with("NAME") {
        return false;
    }
    // A phrase a key is made from, glued to what it keys (`CIPHER_KEYPHRASE`, `IVPHRASE`,
    // a wallet's `SEEDPHRASE`), like `PASSPHRASE`.
    if is_glued_credential(last) || last.len() > "PHRASE".len() && last.ends_with("PHRASE") {
        return true;
    }
    // The Erlang distribution cookie (a release's `RELEASE_COOKIE`): any node that has it may
    // join the cluster and run code on it.
    if last == "COOKIE" && before.last().is_some_and(|w| matches!(w.as_str(), "RELEASE" | "ERLANG" | "ERL")) {
        return true;
    }
    // The seed a private key is derived from is that key (`KEY_SEED`, `SERVER_KEY_SEED`,
    // `SIGNING_SEED`).
    if last == "SEED" && before.last().is_some_and(|w| matches!(w.as_str(), "KEY" | "SECRET") || is_cryptographic(w)) {
        return true;
    }
    // A mail protocol's `AUTH` is its mechanism (`SMTP_AUTH=plain`), not a credential.
    if last == "AUTH"
        && before.last().is_some_and(|w| matches!(w.as_str(), "SMTP" | "MAIL" | "EMAIL" | "IMAP" | "POP3"))
    {
        return false;
    }
    if is(CREDENTIAL_NOUNS, last) || is(CREDENTIAL_MODES, last) {
        // CACHE_KEY, PUBLIC_KEY, CSRF_TOKEN name things; COOKIE_SECRET is still a secret.
        let keyish = matches!(last.as_str(), "KEY" | "KEYS" | "TOKEN" | "TOKENS");
        let qualifier = before.last();
        // ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY is the key a cipher uses first.
        let cryptographic = before.iter().any(|w| is_cryptographic(w));
        // A query's key names a parameter or a cached result (`SEARCH_QUERY_KEY`); a query
        // token is a bearer credential for queries (`BOT_QUERY_TOKEN`).
        let query_key = qualifier.is_some_and(|w| w == "QUERY") && last.starts_with("KEY");
        let names_a_thing = keyish
            && !cryptographic
            // A `READ_WRITE_TOKEN` is scoped to read and write: an access token, no write key.
            && (query_key
                || qualifier.is_some_and(|w| is(IDENTIFIER_QUALIFIERS, w) && !(w == "WRITE" && before.ends_with_str(&["READ", "WRITE"])))
                // PUSHER_APP_KEY is the public half of PUSHER_APP_SECRET; APP_KEY alone is Laravel's key.
                // An app's token is a bearer credential (Slack's `xapp-` SLACK_APP_TOKEN), and
                // an admin's app key too (ALGOLIA_ADMIN_APP_KEY writes the index).
                || qualifier.is_some_and(|w| w == "APP")
                    && before.len() >= 2
                    && last.starts_with("KEY")
                    && !before.iter().any(|w| w == "ADMIN"));
        return !names_a_thing;
    }
    // A credential named first and its provider after (`API_KEY_ALPHA_VANTAGE`,
    // `PRIVATE_KEY_GITHUB_APP`): the compound says what the value is — unless a word after it
    // names a thing that holds or describes the credential (`API_KEY_TABLE_NAME_DYNAMO`).
    let credential_end = before.iter().position(|w| is(STRONG_WORDS, w)).map(|at| at + 1).or_else(|| {
        before
            .windows(2)
            .position(|pair| matches!(pair[0].as_str(), "PRIVATE" | "API") && pair[1] == "KEY")
            .map(|at| at + 2)
    });
    credential_end.is_some_and(|end| !before[end..].iter().any(|w| is(SETTING_WORDS, w)))
}

/// A credential word glued to what it is for: `DBPASS` (`PAPERLESS_DBPASS`), `SMTPPASSWORD`,
/// `ADMINPWD`, libpq's `PGPASSWORD`, a Java key store's `KEYSTOREPASSWORD`, `CLIENTSECRET` (`GOTIFY_OIDC_CLIENTSECRET`), `ACCESSTOKEN`
/// (`DOCSRS_GITHUB_ACCESSTOKEN`), `AUTHTOKEN`, an LDAP bind's `BINDPASSWORD`, an HTTP proxy's
/// `PROXYPASSWORD` — but not `BYPASS` or `COMPASS`.
fn is_glued_credential(word: &str) -> bool {
    const FOR: &[&str] = &[
        "DB",
        "SQL",
        "SMTP",
        "MAIL",
        "LDAP",
        "REDIS",
        "ADMIN",
        "ROOT",
        "USER",
        "API",
        "CLIENT",
        "APP",
        "OAUTH",
        "ACCESS",
        "AUTH",
        "BIND",
        "PROXY",
        "PG",
        "POSTGRES",
        "MYSQL",
        "MONGO",
        "KEYSTORE",
        "TRUSTSTORE",
        // What a signing secret protects (`SESSIONSECRET`, `COOKIESECRET`, `JWTSECRET`).
        "SESSION",
        "COOKIE",
        "JWT",
        "WEBHOOK",
    ];
    FOR.iter().any(|owner| {
        word.strip_prefix(owner)
            .is_some_and(|rest| matches!(rest, "PASS" | "PASSWORD" | "PASSWD" | "PWD" | "SECRET" | "TOKEN"))
    })
}

/// Whether a name's word is one of a credential's (`KEY`, `TOKEN`, `PASSWORD`, `AUTH`, …).
pub fn is_credential_word(word: &str) -> bool {
    CREDENTIAL_NOUNS.contains(&word) || CREDENTIAL_MODES.contains(&word) || STRONG_WORDS.contains(&word)
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

#[cfg(test)]
mod tests;
