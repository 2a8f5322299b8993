//! Secret names: from CI (the `secrets.X` that test jobs read), from dotenv files
//! (`.env.example`-style ones, a committed `.env`) and from the code's environment reads,
//! which each ecosystem finds in its own source and settings files.
//!
//! The rule for "looks like a secret" ([`looks_like_secret`]) is on the name alone, by its
//! `_`-separated words:
//! - the last word is a credential word (PASSWORD, SECRET, TOKEN, KEY/KEYS, APIKEY, CREDENTIALS,
//!   DSN, SALT, AUTH, …) — unless it is KEY/TOKEN and the word before makes it an identifier
//!   (CACHE_KEY, PRIMARY_KEY, PUBLIC_KEY, SITE_KEY, CSRF_TOKEN, …); `*_ACCESS_KEY_ID` counts;
//! - or SECRET/PASSWORD/TOKEN/PRIVATE/CREDENTIALS appears earlier and the last word is not a
//!   setting about it (`SECRET_KEY_BASE` yes; `PASSWORD_TIMEOUT`, `RESET_TOKEN_TABLE` no);
//! - or it is a connection string: `*_CONNECTION_STRING`, or `*_URL`/`*_URI` of a database,
//!   cache, broker, mail server or webhook (DATABASE_URL, REDIS_URL, AMQP_URL, SLACK_WEBHOOK_URL).
//!
//! Settings never count (`*_PORT`, `*_HOST`, `*_CONNECTION`, `*_TABLE`, `*_DRIVER`, …), nor any
//! name [`crate::names::validate_secret_name`] refuses. In `.env.example` files a value with
//! credentials in a URL (`postgres://user:pass@…`) also makes its key a secret. Release,
//! signing and coverage credentials never count: a dev sandbox does not publish.
//!
//! Code scanning is bounded so that detection stays fast on huge trees: the project's own
//! source and settings files, outside tests, scripts and generated code, at most
//! [`MAX_SCANNED_FILES`] of them (configuration first, then shallowest), each read up to
//! [`MAX_SOURCE_BYTES`], on a few threads. Source files are read directly rather than
//! through the repo's cache: they are scanned once and need not stay in memory, and one that
//! cannot be read is not a problem worth a warning.

use std::io::Read;
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems;
use crate::detect::findings::Findings;
use crate::detect::repo::{file_name, is_own_path, parent_dir};
use crate::detect::signals::relevance;
use crate::detect::sources::Sources;

/// Words that, last in a name, make it a credential.
const CREDENTIAL_WORDS: &[&str] = &[
    "PASSWORD",
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
    "AUTH",
    "JWT",
    "PAT",
];
/// Words that, anywhere before the last, make a name a credential (`SECRET_KEY_BASE`).
const STRONG_WORDS: &[&str] = &["SECRET", "PASSWORD", "TOKEN", "PRIVATE", "CREDENTIALS", "APIKEY"];
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
    "IDEMPOTENCY",
    "LOOKUP",
    "CURSOR",
    "QUERY",
    "OBJECT",
    "HEADER",
    "COOKIE",
    "CSRF",
];
/// Last words that make a name a setting about something, never the secret itself.
const SETTING_WORDS: &[&str] = &[
    "PORT",
    "HOST",
    "HOSTNAME",
    "CONNECTION",
    "TABLE",
    "DRIVER",
    "TIMEOUT",
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
];
/// Words that make a name a switch about a credential, not the credential
/// (`AUTH_PROVIDER_USE_ID_TOKEN`, `VERIFY_TOKEN_SIGNATURE`, `SKIP_AUTH`).
const SWITCH_WORDS: &[&str] = &["USE", "ENABLE", "DISABLE", "ALLOW", "REQUIRE", "SKIP", "VERIFY", "VALIDATE"];
/// What a `*_URL`/`*_URI` must be about to be a connection string with credentials.
const CONNECTION_WORDS: &[&str] = &[
    "DATABASE",
    "DB",
    "REDIS",
    "MONGO",
    "MONGODB",
    "POSTGRES",
    "POSTGRESQL",
    "PG",
    "MYSQL",
    "MARIADB",
    "AMQP",
    "RABBITMQ",
    "RABBIT",
    "BROKER",
    "CELERY",
    "KAFKA",
    "ELASTICSEARCH",
    "OPENSEARCH",
    "MEMCACHED",
    "CACHE",
    "SMTP",
    "MAIL",
    "WEBHOOK",
    "CLICKHOUSE",
    "NEO4J",
    "SUPABASE",
    "FIREBASE",
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

/// True when `name` is a credential of release automation (see [`RELEASE_WORDS`]).
pub fn is_release_credential(name: &str) -> bool {
    name.to_ascii_uppercase().split('_').any(|word| RELEASE_WORDS.contains(&word))
}

/// True when `name` looks like a secret by the rule in the module documentation.
pub fn looks_like_secret(name: &str) -> bool {
    if crate::names::validate_secret_name(name).is_err() {
        return false;
    }
    let upper = name.to_ascii_uppercase();
    let words: Vec<&str> = upper.split('_').filter(|w| !w.is_empty()).collect();
    let Some((&last, before)) = words.split_last() else { return false };
    if words.ends_with(&["ACCESS", "KEY", "ID"]) || words.ends_with(&["CONNECTION", "STRING"]) {
        return true;
    }
    if matches!(last, "URL" | "URI") {
        return before.iter().any(|w| CONNECTION_WORDS.contains(w));
    }
    if SETTING_WORDS.contains(&last) || before.iter().any(|w| SWITCH_WORDS.contains(w)) {
        return false;
    }
    if CREDENTIAL_WORDS.contains(&last) {
        // CACHE_KEY, PUBLIC_KEY, CSRF_TOKEN name things; COOKIE_SECRET is still a secret.
        let names_a_thing = matches!(last, "KEY" | "KEYS" | "TOKEN" | "TOKENS")
            && before.last().is_some_and(|w| IDENTIFIER_QUALIFIERS.contains(w));
        return !names_a_thing;
    }
    before.iter().any(|w| STRONG_WORDS.contains(w))
}

/// Secrets CI uses for itself: the job token, coverage/quality services, package registries,
/// image registries, signing, remote caches and deploy targets.
fn is_sandbox_secret(name: &str) -> bool {
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
    ];
    let upper = name.to_ascii_uppercase();
    crate::names::validate_secret_name(name).is_ok()
        && !upper.split('_').any(|token| CI_ONLY.contains(&token))
        && !is_release_credential(name)
        && !upper.contains("WEBHOOK")
}

static CREDENTIAL_URL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@]+:[^\s/@]+@").expect("the URL pattern is valid"));

/// Directories (any path component) whose code is tests, release/CI automation, or generated.
const SKIPPED_CODE_DIRS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "spec",
    "specs",
    "e2e",
    "integration",
    "testing",
    "mocks",
    "__mocks__",
    "stubs",
    "benches",
    "benchmark",
    "benchmarks",
    "generated",
    "migrations",
    "revisions",
    "alembic",
    "scripts",
    ".github",
    ".circleci",
    "ci",
];
/// At most this many source files are scanned.
pub const MAX_SCANNED_FILES: usize = 2000;
/// At most this much of each source file is scanned.
pub const MAX_SOURCE_BYTES: u64 = 256 << 10;
/// At most this many names are taken from one file: more is generated code, not a list of
/// the project's secrets, and the bound keeps the scan small whatever the files hold.
pub const MAX_NAMES_PER_FILE: usize = 100;

pub fn detect(sources: &Sources, out: &mut Findings) {
    let mut ci: Vec<String> = Vec::new();
    for job in sources.workflows().jobs.iter().filter(|job| relevance::tests_the_project(sources, job)) {
        for name in &job.secrets {
            if !ci.contains(name) && is_sandbox_secret(name) {
                ci.push(name.clone());
                out.secret(name.clone(), job.source.clone());
            }
        }
    }
    let mut found: Vec<(String, String)> = Vec::new();
    for file in sources.env_files() {
        for entry in &file.entries {
            let supplied = !file.example && !entry.value.trim().trim_matches(['"', '\'']).is_empty();
            let credentials_in_value =
                CREDENTIAL_URL.is_match(&entry.value) && crate::names::validate_secret_name(&entry.key).is_ok();
            if !supplied && (looks_like_secret(&entry.key) || credentials_in_value) {
                found.push((entry.key.clone(), format!("{}:{}", file.path, entry.line)));
            }
        }
    }
    let repo = sources.repo();
    // Filtering every path of a large tree costs as much as reading the files: split it too.
    // Positions, not paths: a large tree has a hundred thousand source files.
    let mut positions: Vec<u32> = in_chunks(repo.file_count(), |range| {
        let start = range.start;
        repo.files_in(range)
            .enumerate()
            .filter(|(_, f)| is_scanned_source(f))
            .map(|(i, _)| (start + i) as u32)
            .collect()
    });
    if positions.len() > MAX_SCANNED_FILES {
        out.note(format!(
            "secret names read from the first {MAX_SCANNED_FILES} of {} source files (configuration first)",
            positions.len()
        ));
        let path = |i: u32| repo.file(i as usize);
        positions.select_nth_unstable_by_key(MAX_SCANNED_FILES, |&i| (scan_priority(path(i)), path(i)));
        positions.truncate(MAX_SCANNED_FILES);
        positions.sort_unstable();
    }
    let scanned: Vec<&str> = positions.iter().map(|&i| repo.file(i as usize)).collect();
    let root = repo.root();
    let scans =
        in_chunks(scanned.len(), |range| scanned[range].iter().map(|rel| (*rel, scan_file(root, rel))).collect());
    let crowded: Vec<&str> = scans.iter().filter(|(_, scan)| scan.capped).map(|(rel, _)| *rel).collect();
    if let Some(first) = crowded.first() {
        out.warn(format!(
            "{first}{}: more than {MAX_NAMES_PER_FILE} secret names read from the environment; \
             only the first {MAX_NAMES_PER_FILE} of each file kept",
            match crowded.len() {
                1 => String::new(),
                n => format!(" and {} other files", n - 1),
            }
        ));
    }
    for (rel, scan) in scans {
        found.extend(scan.names.into_iter().map(|(name, line)| (name, format!("{rel}:{line}"))));
    }
    // One entry per name, from its first source in a deterministic order.
    let mut seen = std::collections::HashSet::new();
    for (name, source) in found {
        if !is_release_credential(&name) && seen.insert(name.clone()) {
            out.secret(name, source);
        }
    }
}

/// Whether `rel` is scanned for environment reads: a source or settings file some ecosystem
/// reads, of the project's own, not tests, release automation or generated code.
fn is_scanned_source(rel: &str) -> bool {
    let name = file_name(rel);
    let Some((stem, ext)) = name.rsplit_once('.') else { return false };
    // The cheap test first: this runs for every file of the tree.
    if ecosystems::reading_env_in(rel).next().is_none() || !is_own_path(rel) {
        return false;
    }
    // `get`, not indexing: a name may have multi-byte characters where the suffix would start.
    let ends_with = |suffix: &str| {
        stem.len()
            .checked_sub(suffix.len())
            .and_then(|at| stem.get(at..))
            .is_some_and(|end| end.eq_ignore_ascii_case(suffix))
    };
    // Release automation (`support/release.py`, `scripts/publish.ts`) and Gradle build scripts
    // (artifact signing and publishing) read their own credentials.
    if name.starts_with("build.gradle") || name.starts_with("settings.gradle") {
        return false;
    }
    let first_word = stem.split(['-', '_', '.']).next().unwrap_or_default();
    if ["release", "publish", "deploy"].iter().any(|w| first_word.eq_ignore_ascii_case(w)) {
        return false;
    }
    let is_test_file = [".test", ".spec", "_test", "_spec"].iter().any(|s| ends_with(s))
        || stem.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("test_"))
        || (stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("Spec")) && ext != "go";
    !is_test_file && !parent_dir(rel).split('/').any(|d| SKIPPED_CODE_DIRS.iter().any(|s| d.eq_ignore_ascii_case(s)))
}

/// Configuration code first (`config/`, `settings.py`, `env.ts`), then shallowest, then by path.
fn scan_priority(rel: &str) -> (u8, usize) {
    const CONFIG_NAMES: &[&str] =
        &["config", "configs", "conf", "settings", "env", "environment", "environments", "secrets"];
    let is_config = |name: &str| CONFIG_NAMES.iter().any(|c| name.eq_ignore_ascii_case(c));
    let stem = file_name(rel).split('.').next().unwrap_or_default();
    let config = is_config(stem) || parent_dir(rel).split('/').any(is_config);
    (u8::from(!config), rel.matches('/').count())
}

/// `work` over consecutive ranges of `0..len` on a few threads; results in order.
fn in_chunks<R: Send>(len: usize, work: impl Fn(std::ops::Range<usize>) -> Vec<R> + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4);
    let chunk = len.div_ceil(threads).max(1);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> =
            (0..len).step_by(chunk).map(|start| scope.spawn(move || work(start..(start + chunk).min(len)))).collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

/// The secret names one file reads, each with the line of its first read.
#[derive(Default)]
struct Scan {
    names: Vec<(String, usize)>,
    /// More than [`MAX_NAMES_PER_FILE`] names: the rest were not taken.
    capped: bool,
}

/// The secret-looking names `rel` reads, each with its line.
fn scan_file(root: &Path, rel: &str) -> Scan {
    // Listed as a file, but it may have been swapped for a FIFO since: never block on one.
    let Ok(file) = crate::fsutil::open_regular(&root.join(rel)) else { return Scan::default() };
    let mut bytes = Vec::new();
    if file.take(MAX_SOURCE_BYTES).read_to_end(&mut bytes).is_err() || bytes.contains(&0) {
        return Scan::default();
    }
    let text = String::from_utf8_lossy(&bytes);
    let is_yaml = [".yml", ".yaml", ".yml.erb", ".yaml.erb"].iter().any(|e| rel.ends_with(e));
    let mut scan = Scan::default();
    let mut taken = std::collections::HashSet::new();
    let mut lines = Lines::new(&text);
    // A piece at a time, so that a file of generated reads stops costing once it has given
    // its MAX_NAMES_PER_FILE (each read found costs a regex capture, in every ecosystem).
    let mut piece_start = 0;
    while piece_start < text.len() {
        let piece_end = boundary_after(&text, piece_start + SCAN_PIECE_BYTES);
        let piece = &text[piece_start..piece_end];
        let mut reads: Vec<(String, usize)> = ecosystems::reading_env_in(rel)
            .flat_map(|eco| eco.env_reads(rel, piece))
            .map(|(name, at)| (name, piece_start + at))
            .collect();
        reads.sort_by_key(|&(_, at)| at);
        for (name, at) in reads {
            if name.len() > crate::names::MAX_NAME_LEN || taken.contains(&name) {
                continue;
            }
            lines.seek(at);
            if looks_like_secret(&name) && !lines.in_comment() && !(is_yaml && lines.in_production_section()) {
                if taken.len() == MAX_NAMES_PER_FILE {
                    scan.capped = true;
                    return scan;
                }
                taken.insert(name.clone());
                scan.names.push((name, lines.number));
            }
        }
        piece_start = piece_end;
    }
    scan
}

/// A file is scanned in pieces of about this size, each ending after a `\n` or a `;`: no
/// environment read spans one (minified code has long lines, but semicolons).
const SCAN_PIECE_BYTES: usize = 32 << 10;

/// The end of a piece of `text` reaching byte `at`: past the next `\n` or `;`, or the end.
fn boundary_after(text: &str, at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    text.as_bytes()[at..].iter().position(|&b| b == b'\n' || b == b';').map_or(text.len(), |i| at + i + 1)
}

/// Where in a file a read lies, found by moving on from the previous read (reads come in
/// order), so that a file costs one pass however many reads it holds — a count of the lines
/// before each read took minutes on a file of thousands of reads.
struct Lines<'a> {
    text: &'a str,
    at: usize,
    /// The line of `at`, from 1, and where it starts.
    number: usize,
    start: usize,
    /// The last complete top-level `key:` line before the line of `at` (YAML).
    top_level: Option<&'a str>,
    /// Where the first `:` of the line of `at` is, if it has one.
    colon: Option<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines { text, at: 0, number: 1, start: 0, top_level: None, colon: first_colon(text, 0) }
    }

    fn seek(&mut self, at: usize) {
        if at < self.at {
            // Reads come in order; one that does not starts over.
            *self = Lines::new(self.text);
        }
        for (i, _) in self.text[self.at..at].match_indices('\n') {
            let end = self.at + i;
            let line = &self.text[self.start..end];
            if is_top_level_key(line) {
                self.top_level = Some(line);
            }
            self.number += 1;
            self.start = end + 1;
            self.colon = first_colon(self.text, self.start);
        }
        self.at = at;
    }

    /// Whether the read is on a comment line (`//`, `#`, `*`, `--`): documentation that shows
    /// an environment read (a linter's rule docs) is no read of the project's.
    fn in_comment(&self) -> bool {
        let line = self.text[self.start..self.at].trim_start();
        ["//", "#", "*", "/*", "--", "<!--"].iter().any(|c| line.starts_with(c)) && !line.starts_with("#{")
    }

    /// Whether the read lies under a top-level `production:`/`staging:` key of a YAML file
    /// (Rails' `secrets.yml`, `database.yml`): values only a deployment provides.
    fn in_production_section(&self) -> bool {
        let current = &self.text[self.start..self.at];
        let key_line = current.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && self.colon.is_some_and(|colon| colon < self.at);
        let top_level = if key_line { Some(current) } else { self.top_level };
        top_level.is_some_and(|l| matches!(l.split(':').next().unwrap_or_default().trim(), "production" | "staging"))
    }
}

/// The first `:` of the line starting at `start`.
fn first_colon(text: &str, start: usize) -> Option<usize> {
    let line = text[start..].split('\n').next().unwrap_or_default();
    line.find(':').map(|i| start + i)
}

fn is_top_level_key(line: &str) -> bool {
    line.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') && line.contains(':')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::run_signal;

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
            "DATABASE_URL",
            "REDIS_URL",
            "LOG_SLACK_WEBHOOK_URL",
            "SENTRY_DSN",
            "STRIPE_API_KEY",
            "OPENAI_APIKEY",
            "AZURE_STORAGE_CONNECTION_STRING",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "JWT_PRIVATE_KEY",
            "NPM_AUTH",
            "github_token",
            "COOKIE_SECRET",
            "AVO_LICENSE_KEY",
            "SUPABASE_SERVICE_ROLE_KEY",
        ] {
            assert!(looks_like_secret(name), "{name}");
        }
    }

    #[test]
    fn not_secret_names() {
        for name in [
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
        ] {
            assert!(!looks_like_secret(name), "{name}");
        }
    }

    #[test]
    fn reads_shown_in_comments_do_not_count() {
        let text =
            "/// SECRET_KEY = os.environ[\"SECRET_KEY\"]\n  # os.getenv('DB_PASSWORD')\nkey = os.getenv('API_TOKEN')\n";
        let names: Vec<_> = ecosystems::reading_env_in("app.py")
            .flat_map(|eco| eco.env_reads("app.py", text))
            .filter(|(_, at)| {
                let mut lines = Lines::new(text);
                lines.seek(*at);
                !lines.in_comment()
            })
            .map(|(name, _)| name)
            .collect();
        assert_eq!(names, ["API_TOKEN"]);
    }

    #[test]
    fn release_credentials_and_scripts_are_left_out() {
        for name in ["GPG_PRIVATE_KEY", "NUGET_KEY", "PYPI_API_TOKEN", "CODECOV_TOKEN", "OSSRH_PASSWORD"] {
            assert!(is_release_credential(name), "{name}");
        }
        for name in
            ["DATABASE_URL", "STRIPE_SECRET_KEY", "RELEASED_AT_TOKEN_X", "SLACK_SIGNING_SECRET", "JWT_SIGNING_KEY"]
        {
            assert!(!is_release_credential(name), "{name}");
        }
        assert!(!is_scanned_source("support/release.py"));
        assert!(!is_scanned_source("tools/publish-docs.ts"));
        assert!(!is_scanned_source("build.gradle.kts"));
        assert!(is_scanned_source("app/models/releases.rb"));
    }

    #[test]
    fn production_sections_of_yaml_config() {
        let text = "development:\n  key: <%= ENV[\"DEV_TOKEN\"] %>\nproduction:\n  secret_key_base: <%= ENV[\"SECRET_KEY_BASE\"] %>\n";
        let at = |name: &str| {
            let mut lines = Lines::new(text);
            lines.seek(text.find(name).unwrap());
            lines
        };
        assert!(!at("DEV_TOKEN").in_production_section());
        assert!(at("SECRET_KEY_BASE").in_production_section());
        assert_eq!(at("SECRET_KEY_BASE").number, 4);
        assert!(!is_scanned_source("src/app/database/revisions/tenant/versions/2021_x.py"));
    }

    #[test]
    fn source_file_rules_survive_any_name() {
        for rel in ["src/é.py", "src/日本語_test.py", "src/x.tést.js", "é", "a/b/ñ.go", "t/ü.spec.ts"] {
            let _ = is_scanned_source(rel);
            let _ = scan_priority(rel);
        }
        assert!(!is_scanned_source("src/日本語_test.py"));
        assert!(is_scanned_source("src/é.py"));
    }

    #[test]
    fn env_example_keys() {
        let text = "# comment\nexport API_SECRET=\nPORT=3000\nPRIMARY_DB=postgres://app:hunter2@localhost/app\nNODE_ENV=development\nnot a line\n";
        let s = run_signal(detect, &[(".env.example", text), ("api/.env", text)]);
        let found: Vec<_> = s.findings.secrets.iter().map(|s| (s.name.as_str(), s.source.as_str())).collect();
        // A committed `.env` supplies what it gives a value: only its empty keys count.
        assert_eq!(found, [("API_SECRET", ".env.example:2"), ("PRIMARY_DB", ".env.example:4")]);
        let s = run_signal(detect, &[("api/.env", text)]);
        let found: Vec<_> = s.findings.secrets.iter().map(|s| (s.name.as_str(), s.source.as_str())).collect();
        assert_eq!(found, [("API_SECRET", "api/.env:2")]);
    }

    #[test]
    fn code_reads_in_many_languages() {
        let s = run_signal(
            detect,
            &[
                (
                    "config/database.php",
                    "<?php return ['password' => env('DB_PASSWORD', ''), 'port' => env('DB_PORT', '3306'), 'driver' => env(\"DB_CONNECTION\")];\n",
                ),
                (
                    "src/app.ts",
                    "const k = process.env.STRIPE_SECRET_KEY;\nconst e = process.env.NODE_ENV;\nconst t = process.env[\"GH_TOKEN\"]; import.meta.env.VITE_API_KEY\n",
                ),
                (
                    "app/settings.py",
                    "SECRET_KEY = os.environ['DJANGO_SECRET_KEY']\nDB = os.getenv(\"DATABASE_URL\")\nx = os.environ.get('HOME')\n",
                ),
                ("src/main.rs", "let t = std::env::var(\"GITHUB_TOKEN\"); let v = env!(\"CARGO_PKG_VERSION\");\n"),
                ("cmd/main.go", "key := os.Getenv(\"OPENAI_API_KEY\")\n"),
                ("config/initializers/x.rb", "ENV.fetch('SENDGRID_API_KEY') ENV[\"AWS_SECRET_ACCESS_KEY\"]\n"),
                ("src/main/java/App.java", "System.getenv(\"JDBC_PASSWORD\");\n"),
                ("Program.cs", "Environment.GetEnvironmentVariable(\"AZURE_CLIENT_SECRET\");\n"),
                ("config/runtime.exs", "System.get_env(\"SECRET_KEY_BASE\") System.fetch_env!(\"MIX_TOKEN\")\n"),
                (
                    "config/database.yml",
                    "test:\n  password: <%= ENV[\"APP_DATABASE_PASSWORD\"] %>\n  host: <%= ENV.fetch(\"DB_HOST\") %>\nproduction:\n  password: <%= ENV[\"PRODUCTION_DB_PASSWORD\"] %>\n",
                ),
                (
                    "src/main/resources/application.yml",
                    "spring:\n  datasource:\n    password: ${SPRING_DB_PASSWORD}\n    url: ${JDBC_HOST}\n    x: ${LOCAL_DB_PASSWORD:petclinic}\n",
                ),
                (
                    "proj/settings.py",
                    "SECRET = env.str('DJANGO_ENV_SECRET')\nKEY = config('DECOUPLE_API_KEY')\nX = config('app.key')\n",
                ),
                ("docker/compose.yml", "x: ${COMPOSE_ONLY_PASSWORD}\n"),
                ("tests/FooTest.php", "env('TEST_ONLY_PASSWORD')\n"),
                ("src/util.test.ts", "process.env.UNIT_TOKEN\n"),
                ("examples/demo.py", "os.getenv('DEMO_TOKEN')\n"),
                (".env.example", "APP_KEY=\nAPP_NAME=Laravel\n"),
            ],
        );
        let out = &s.findings;
        let mut names: Vec<_> = out.secrets.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "APP_DATABASE_PASSWORD",
                "APP_KEY",
                "AWS_SECRET_ACCESS_KEY",
                "AZURE_CLIENT_SECRET",
                "DATABASE_URL",
                "DB_PASSWORD",
                "DECOUPLE_API_KEY",
                "DJANGO_ENV_SECRET",
                "DJANGO_SECRET_KEY",
                "GH_TOKEN",
                "GITHUB_TOKEN",
                "JDBC_PASSWORD",
                "MIX_TOKEN",
                "OPENAI_API_KEY",
                "SECRET_KEY_BASE",
                "SENDGRID_API_KEY",
                "SPRING_DB_PASSWORD",
                "STRIPE_SECRET_KEY",
                "VITE_API_KEY",
            ]
        );
        let source = |n: &str| out.secrets.iter().find(|s| s.name == n).map(|s| s.source.clone());
        assert_eq!(source("APP_KEY").as_deref(), Some(".env.example:1"));
        assert_eq!(source("DATABASE_URL").as_deref(), Some("app/settings.py:2"));
    }

    #[test]
    fn scanning_is_bounded_and_configuration_comes_first() {
        let mut files: Vec<(String, String)> =
            (0..MAX_SCANNED_FILES + 10).map(|i| (format!("a/b/m{i:05}.js"), String::new())).collect();
        files.push(("config/secrets.js".into(), "process.env.LATE_TOKEN".into()));
        let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let s = run_signal(detect, &refs);
        let out = &s.findings;
        assert_eq!(out.secrets.len(), 1);
        assert!(out.notes.iter().any(|n| n.contains(&format!("first {MAX_SCANNED_FILES} of"))));
    }

    #[test]
    fn files_of_generated_reads_give_a_bounded_few_quickly() {
        // One line of unique reads, past the scanned size: a count of the lines before each
        // read made this quadratic.
        let reads: String = (0..20_000).map(|i| format!("process.env.K{i}_TOKEN;")).collect();
        let config = format!("production:\n  k: <%= ENV[\"K_TOKEN\"] %> {reads}\n");
        let started = std::time::Instant::now();
        let s = run_signal(detect, &[("src/a.js", &reads), ("src/b.js", &reads), ("config/secrets.yml", &config)]);
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
        let out = &s.findings;
        assert_eq!(out.secrets.len(), MAX_NAMES_PER_FILE, "the same first names from both files");
        assert_eq!(out.secrets[0].source, "src/a.js:1");
        assert_eq!(
            out.warnings,
            [format!(
                "src/a.js and 1 other files: more than {MAX_NAMES_PER_FILE} secret names read from the environment; \
                 only the first {MAX_NAMES_PER_FILE} of each file kept"
            )]
        );
    }

    #[test]
    fn ci_secrets_of_test_jobs_minus_what_ci_uses_itself() {
        let workflow = "jobs:\n  test:\n    env:\n      DB_PASSWORD: ${{ secrets.DB_PASSWORD }}\n      CODECOV_TOKEN: ${{ secrets.CODECOV_TOKEN }}\n      GH: ${{ secrets.GITHUB_TOKEN }}\n    steps:\n      - run: echo 'runs without secrets. Avo is off'\n      - run: cargo test\n  lint:\n    steps:\n      - run: npm run lint\n        env:\n          LINT_TOKEN: ${{ secrets.LINT_TOKEN }}\n";
        let release = "name: Release\njobs:\n  publish:\n    steps:\n      - run: cargo test\n        env:\n          API_KEY: ${{ secrets.API_KEY }}\n";
        let s =
            run_signal(detect, &[(".github/workflows/test.yml", workflow), (".github/workflows/release.yml", release)]);
        let found: Vec<_> = s.findings.secrets.iter().map(|s| (s.name.as_str(), s.source.as_str())).collect();
        assert_eq!(found, [("DB_PASSWORD", ".github/workflows/test.yml#jobs.test")]);
    }
}
