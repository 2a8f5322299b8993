//! What a value says: credentials in a URL, a stand-in to replace, or a setting's value
//! (a boolean, number, duration, schedule or list).

use std::sync::LazyLock;

use regex::Regex;

use super::{CREDENTIAL_NOUNS, DATABASE_WORDS, StartsWithStr, words};

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

static CREDENTIAL_URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z][A-Za-z0-9+.\-]*://[^[:space:]/:@]*:[^[:space:]/@]+@").expect("the URL pattern is valid")
});
/// A keyword connection string's password (ADO.NET, Npgsql, ODBC: `…;Password=x;`, `Pwd=x`;
/// libpq: `host=db password=x`).
static CONNECTION_STRING_PASSWORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[;[:space:]])(?i-u:password|pwd)[[:space:]]*=[[:space:]]*[^;[:space:]]")
        .expect("the connection-string pattern is valid")
});

/// Whether a value carries credentials: a URL with them (`postgres://app:hunter2@db/app`,
/// `redis://:secret@cache:6379`) or a connection string with a password
/// (`Server=db;User Id=sa;Password=hunter2`).
pub fn has_credentials(value: &str) -> bool {
    CREDENTIAL_URL.is_match(value) || CONNECTION_STRING_PASSWORD.is_match(value)
}

/// Whether a settings file's committed value for a credential's key is the credential itself,
/// shipped for development (`root`, `adminnet++123456`, a 64-digit hex signing key): a
/// deployment replaces it, so the key's variable is one to set. Not a reference to where the
/// credential lives (`/etc/app/key.pem`, `classpath:jwt.jks`, `C:\\certs\\app.pfx`), a URL, a
/// sentence, or a setting's value (`true`, `15m`).
pub fn is_committed_credential(name: &str, value: &str) -> bool {
    const FILE_EXTENSIONS: &[&str] =
        &[".pem", ".key", ".crt", ".cer", ".der", ".p12", ".pfx", ".jks", ".keystore", ".json", ".txt", ".xml"];
    let value = value.trim().trim_matches(['"', '\'']).trim();
    let lower = value.to_ascii_lowercase();
    let scheme = lower
        .split_once(':')
        .is_some_and(|(before, _)| before.len() > 1 && before.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
    let last = words(name).pop().unwrap_or_default();
    // The key names the credential itself (`…_PASSWORD`, `…__SecretKey`), not a setting about
    // one (`…_KEYSTORE_TYPE`, a connection string's provider).
    CREDENTIAL_NOUNS.contains(&last.as_str())
        // A word of the key as its value is a form's label (`password=Password`).
        && !value.eq_ignore_ascii_case(&last)
        && value.chars().all(|c| c.is_ascii_graphic())
        && !value.contains('\\')
        && !value.starts_with(['/', '.', '~', '$', '%', '{', '@', '#'])
        && !scheme
        && !FILE_EXTENSIONS.iter().any(|extension| lower.ends_with(extension))
        && !is_setting_value(name, value)
}

/// Whether a value is a stand-in for the real one rather than a value: empty, or
/// `changeme`, `changethis`, `CHANGE-THIS!`, `secret`, `xxx`, `your-api-key`, `<token>`,
/// `[client-secret]`, `TODO`, `...`.
pub fn is_placeholder(value: &str) -> bool {
    let value = value.trim().trim_matches(['"', '\'']).trim();
    let lower = value.to_ascii_lowercase();
    let letters: String = lower.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    value.is_empty()
        || value.starts_with('<') && value.ends_with('>')
        || is_bracketed_words(value)
        || letters.starts_with("change") && (letters[6..].starts_with("me") || letters[6..].starts_with("this"))
        || letters.starts_with("replace") && (letters[7..].starts_with("me") || letters[7..].starts_with("this"))
        || ["secret", "todo", "tbd", "fixme", "placeholder", "yoursecret"].contains(&letters.as_str())
        || addresses_the_reader(value)
        || value.len() >= 3 && lower.chars().all(|c| matches!(c, 'x' | '*' | '.'))
}

/// Whether a stand-in says a credential goes in its place: its last word is one
/// (`[storagekey]`, `<your-api-key>`, `your_password_here` — not `<key-vault-url>`).
pub fn is_credential_placeholder(value: &str) -> bool {
    const NOUNS: &[&str] = &["key", "password", "secret", "token", "pwd", "passphrase", "credentials"];
    if !is_placeholder(value) {
        return false;
    }
    let words = words_of(value);
    let last = words.iter().rev().find(|w| !matches!(w.as_str(), "here" | "goes" | "value"));
    last.is_some_and(|w| NOUNS.iter().any(|noun| w.ends_with(noun)))
}

/// `[gitlab-client-secret]`, `[your token]`: words in square brackets, as docs write a blank
/// to fill — not a list (`["a","b"]`, `[1, 2]`), whose items are quoted or separated.
fn is_bracketed_words(value: &str) -> bool {
    let Some(inner) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) else { return false };
    inner.chars().any(|c| c.is_ascii_alphabetic())
        && inner.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ' ' | '.'))
}

/// A value that tells its reader to put theirs: `your-api-key`, `YOUR_TOKEN`,
/// `YourConnectionString`, `yourPassword`, or an instruction to (`SetYourDataHere`,
/// `enter-your-key`, `paste_your_token_here`) — not `yourself` or `YOURS`.
fn addresses_the_reader(value: &str) -> bool {
    const INSTRUCTIONS: &[&str] = &["set", "enter", "put", "insert", "add", "paste", "fill", "use"];
    let words = words_of(value);
    match words.as_slice() {
        [first, second, ..] if first == "your" => !second.is_empty(),
        [verb, your, _, ..] => INSTRUCTIONS.contains(&verb.as_str()) && your == "your",
        _ => false,
    }
}

/// The words of a value written in any case style: `SetYourDataHere`, `set-your-data`,
/// `SET_YOUR_DATA` and `set your data` are all `set`, `your`, `data`; `yourself` one word.
fn words_of(value: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut previous_lower = false;
    for c in value.chars() {
        if !c.is_ascii_alphanumeric() {
            previous_lower = false;
            words.push(String::new());
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower || words.is_empty() {
            words.push(String::new());
        }
        previous_lower = c.is_ascii_lowercase();
        if let Some(last) = words.last_mut() {
            last.push(c.to_ascii_lowercase());
        }
    }
    words.retain(|w| !w.is_empty());
    words
}

/// Whether an example's `value` for `name` is a setting's: a boolean (`true`, `off`), a
/// number (unless the name is a password's: `123456` is an example password; or a key's of
/// 16 digits or more), an authentication method's word (`SMTP_AUTH=login`), a duration
/// (`15m`, `6.hours`), a cron schedule (`0 3 * * *`) or a list (`a,b`, `["a"]`). Such a name
/// holds no credential whatever its words say (`LIVE_DELETE_TOKEN_AFTER=true`,
/// `RESET_PASSWORD_WITHIN=6.hours`, `AUTOSPAM_IGNORED_TOKENS=spam,ham`).
/// `Remote-User`, `X-Forwarded-Access-Token`: two or more words joined by hyphens, each
/// capitalised, the first lower case after its capital. (By hand: it runs for every value, and
/// each regex keeps a cache per thread.)
fn is_header_name(value: &str) -> bool {
    let mut words = value.split('-');
    let first = words.next().unwrap_or_default();
    let capitalised = |word: &str, rest_lower: bool| {
        let mut chars = word.chars();
        chars.next().is_some_and(|c| c.is_ascii_uppercase())
            && chars.all(|c| c.is_ascii_digit() || c.is_ascii_lowercase() || !rest_lower && c.is_ascii_uppercase())
    };
    let mut more = 0;
    capitalised(first, true)
        && words.all(|word| {
            more += 1;
            capitalised(word, false)
        })
        && more > 0
}

pub fn is_setting_value(name: &str, value: &str) -> bool {
    static NUMBER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^-?[0-9][0-9_]*(?:\.[0-9]+)?$").expect("the number pattern is valid"));
    static DURATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i-u)^[0-9]+(?:\.[0-9]+)?[[:space:]]*(?:ms|s|m|h|d|w|y|secs?|seconds?|mins?|minutes?|hours?|days?|weeks?|months?|years?)$|^[0-9]+\.(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)$")
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
        // A number stands in for a password or an API key (`PADDLE_API_KEY=999`); no count or
        // limit is named so (`MAX_TOKENS=4096` is one).
        let all = words(name);
        let password = last == "APIKEY"
            || all.ends_with_str(&["API", "KEY"])
            || all.ends_with_str(&["SECRET", "KEY"])
            || matches!(last.as_str(), "PASSWORD" | "PASS" | "PASSWD" | "PWD" | "PASSPHRASE" | "PIN" | "SECRET");
        // `DB_ENC_KEY=1234567890123456`: a key's length in digits (16, 32 bytes), not a count.
        let key = value.len() >= 16 && all.iter().any(|w| CREDENTIAL_NOUNS.contains(&w.as_str()));
        return !password && !key;
    }
    // `SMTP_AUTH=login`, `DASHBOARD_AUTH=basic_auth`: a word names an authentication method;
    // credentials have a colon, digits or capitals (`user:pass`, a token).
    if last == "AUTH" && value.chars().all(|c| c.is_ascii_lowercase() || c == '_' || c == '-') {
        return true;
    }
    let fields: Vec<&str> = value.split_whitespace().collect();
    if (5..=6).contains(&fields.len()) && fields.iter().all(|f| CRON_FIELD.is_match(f)) && value.contains('*') {
        return true;
    }
    if value.starts_with('[') && value.ends_with(']') {
        return true;
    }
    // `TRUSTED_HEADER_AUTH_KEY=Remote-User`: the name of an HTTP header the value comes in
    // (capitalised words joined by hyphens), not the credential itself.
    let password = matches!(last.as_str(), "PASSWORD" | "PASS" | "PASSWD" | "PWD" | "PASSPHRASE");
    if is_header_name(value) && !password {
        return true;
    }
    if is_endpoint(value) && CREDENTIAL_NOUNS.contains(&last.as_str()) {
        return true;
    }
    // `robotoff:product_updates:latest_id`: the name of a key in a store (Redis, a cache),
    // lower-case words joined by colons — `REDIS_LATEST_ID_KEY` names where a value is kept.
    let segments: Vec<&str> = value.split(':').collect();
    if segments.len() >= 3
        && segments.iter().all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c == '_' || c == '-'))
    {
        return true;
    }
    // `_app_session`, `_sanbase_sid`: a cookie's name (Rails', Plug's session `key:`), an
    // identifier with a leading underscore — no credential is spelled so.
    let snake = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if matches!(last.as_str(), "KEY" | "NAME" | "COOKIE")
        && value.strip_prefix('_').is_some_and(|rest| rest.split('_').count() >= 2 && rest.split('_').all(snake))
    {
        return true;
    }
    // `KAFKA_URL=kafka:9092`: a service's address as a bare host (and port) has no room for
    // credentials.
    if matches!(last.as_str(), "URL" | "URI") && is_bare_host(value) {
        return true;
    }
    let items: Vec<&str> = value.split(',').map(str::trim).collect();
    items.len() >= 2 && items.iter().all(|i| LIST_ITEM.is_match(i))
}

/// `localhost`, `kafka:9092`, `blockchain-kafka-kafka`: a host name with an optional port.
fn is_bare_host(value: &str) -> bool {
    let (host, port) = value.split_once(':').unwrap_or((value, "0"));
    host.starts_with(|c: char| c.is_ascii_alphanumeric())
        && host.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.'))
        && !port.is_empty()
        && port.chars().all(|c| c.is_ascii_digit())
}

/// An address with no credential in it: `https://id.example/token`, or one built on another
/// variable (`${OIDC_ISSUER}/protocol/token`). A name ending in a credential's noun so given
/// (`OIDC_URL_ACCESS_TOKEN`) names where the credential comes from, not the credential; a
/// webhook's URL is another matter (its name ends in `URL`). With a user's part
/// (`https://key@sentry.io/1`), a query string or a fragment it may carry one.
fn is_endpoint(value: &str) -> bool {
    static BUILT_ON_A_VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/").expect("the address-on-a-variable pattern is valid")
    });
    let lower = value.to_ascii_lowercase();
    let address = lower.starts_with("http://") || lower.starts_with("https://") || BUILT_ON_A_VARIABLE.is_match(value);
    address && !value.contains(['@', '?', '#', ' '])
}
