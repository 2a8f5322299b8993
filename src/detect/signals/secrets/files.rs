//! What the project's env files and compose files say: the secret keys of its env files
//! (an example's, a committed `.env`'s stand-ins), the credentials of the compose services
//! it builds, and what a deployment's or CI's env files add to the names the app reads.

use crate::rel_path::{RelPath, RelPathBuf};
use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::context::is_test_run_env_file;
use super::rules::{is_placeholder, is_public, is_setting_name, is_setting_value, is_test_suite_name};
use super::{Gathered, ProjectNames, is_skipped_code_dir};
use crate::detect::findings::{Evidence, Kind, Need};
use crate::detect::sources::Sources;
use crate::detect::sources::compose;
use crate::detect::sources::env_files::{EnvEntry, EnvFile};
use crate::detect::sources::images::{canonical_service, is_backing_service};

/// Whether an env file is a deployment's (`.env.prod.example`, `.env.production`): what a
/// production set-up adds (uptime monitors, a managed database's shadow URL), not what the
/// app needs to run here.
pub(super) fn is_production_env_file(file: &EnvFile) -> bool {
    compose::is_production_file(file.path.file_name())
}

/// What an env file that only backs the app's reads is: a deployment's, one CI runs with
/// (`.env.ci`, `.github/…/test.env`, whose names set up the CI run), or a test run's
/// (`.env.test`: a suite's fixtures, kept as long as the suite, read or not). `None` for the
/// app's own.
pub(super) fn evidence_only(file: &EnvFile) -> Option<&'static str> {
    if is_production_env_file(file) {
        Some("a deployment's")
    } else if file.ci {
        Some("CI's")
    } else if is_test_run_env_file(file.path.file_name()) {
        Some("a test run's")
    } else {
        None
    }
}

/// What a deployment's env files and CI's say, for the names found by now only: evidence for
/// a credential the app reads, never a name of its own, never required.
pub(super) fn evidence_only_env_secrets(sources: &Sources, project: &ProjectNames, evidence: &mut Gathered) {
    let read: HashSet<String> = evidence.found.iter().map(|s| s.name.clone()).collect();
    for file in sources.env_files() {
        let Some(whose) = evidence_only(file) else { continue };
        let mut backing = Gathered::default();
        env_file_secrets(file, project, &mut backing);
        for secret in backing.found.into_iter().filter(|s| read.contains(&s.name)) {
            let need = if secret.need == Need::Required { Need::Optional } else { secret.need };
            evidence.add(&secret.name, &secret.source, need, format!("{}, {whose}", secret.why));
        }
    }
}

/// A compose service of the project's development setup: its file, the service, and whether
/// it is the app the tests run against.
pub(super) type ComposeApp = (RelPathBuf, compose::ComposeService, bool);

/// The services of the compose files that run for development (not deployments, not the
/// fixtures of end-to-end tests), and of the dev container's compose files, whose own
/// service is where the code runs.
pub(super) fn compose_services(sources: &Sources) -> Vec<ComposeApp> {
    let in_tests = |rel: &RelPath| rel.parent().components().any(is_skipped_code_dir);
    let repo_name = crate::checkout::default_repo_name(sources.repo().root());
    let mut found = Vec::new();
    for rel in &sources.compose().files {
        if rel.split('/').any(compose::is_production_file) || in_tests(rel) {
            continue;
        }
        for service in compose::services(sources.repo(), rel).unwrap_or_default() {
            let app = is_app(&service) || runs_own_image(&service, &repo_name);
            found.push((rel.clone(), service, app));
        }
    }
    for devcontainer in sources.devcontainers() {
        for rel in &devcontainer.compose_files {
            for service in compose::services(sources.repo(), rel).unwrap_or_default() {
                let app = devcontainer.service.as_deref() == Some(service.name.as_str()) || is_app(&service);
                found.push((rel.clone(), service, app));
            }
        }
    }
    // Compose merges a folder's files service by service: `backend` built in
    // `docker-compose.yml` is the same app where `docker-compose.override.yml` only gives it
    // its environment. A same-named service that runs a database's or cache's image (`db:
    // image: postgres` beside another stack's `db` built from a Dockerfile) is that database.
    let built: HashSet<(RelPathBuf, String)> = found
        .iter()
        .filter(|(_, _, app)| *app)
        .map(|(rel, service, _)| (rel.parent().to_owned(), service.name.clone()))
        .collect();
    for (rel, service, app) in &mut found {
        *app = *app
            || built.contains(&(rel.parent().to_owned(), service.name.clone()))
                && !is_backing_service(&canonical_service(&service.name))
                && service.backing().is_none();
    }
    found
}

/// A service the project builds that is not itself a database or cache (a `postgres`
/// service built from a custom Dockerfile is still the database): the app.
fn is_app(service: &compose::ComposeService) -> bool {
    service.build && !is_backing_service(&canonical_service(&service.name))
}

/// Whether a service runs the project's own published image (`ghcr.io/bitmagnet-io/bitmagnet:latest`
/// in bitmagnet's compose file): a self-hosted app's compose file configures the app there,
/// as a service built from the checkout does.
fn runs_own_image(service: &compose::ComposeService, repo_name: &str) -> bool {
    let Some(image) = service.image.as_deref() else { return false };
    let image = image.split('@').next().unwrap_or_default();
    let name = image.rsplit('/').next().unwrap_or_default();
    let name = name.split(':').next().unwrap_or_default();
    image.contains('/') && !name.is_empty() && name.eq_ignore_ascii_case(repo_name) && !is_backing_service(name)
}

/// What an example's comment says: `# OPTIONAL: …`, `# Required`, `(optional)`, `…, required`;
/// `not required` and a condition (`Required if you use S3`, `required for Stripe`) are
/// options. A bare `required` inside a sentence is about something else (`A username is also
/// required, this is …`): only one that marks the entry — first or last, or set off by a
/// colon, comma, dash, bracket or full stop — says the entry is required.
fn documented(entry: &EnvEntry) -> Option<Need> {
    static WORD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i-u)(?-u:\b)(not[[:space:]]+required|optional|required(?:[[:space:]]+(?:if|when|for|only|by|with|unless)(?-u:\b))?)")
            .expect("the doc pattern is valid")
    });
    let doc = entry.doc.as_str();
    WORD.captures_iter(doc).find_map(|c| {
        let found = c.get(1)?;
        let word = found.as_str().to_ascii_lowercase();
        if word != "required" {
            return Some(Need::Optional);
        }
        let before = doc[..found.start()].trim_end();
        let after = doc[found.end()..].trim_start();
        let marks = before.is_empty()
            || before.ends_with([',', '(', '[', '-', ':', '*'])
            || after.is_empty()
            || after.starts_with([':', ')', ']', '!', '.']);
        marks.then_some(Need::Required)
    })
}

/// Whether an example's comment calls the key a connection string or DSN (`# Database
/// connection string` above gotify's `GOTIFY_DATABASE_CONNECTION`): it carries the
/// database's user and password, whatever the name says. Laravel's undocumented
/// `DB_CONNECTION=mysql` names a driver.
fn documents_a_connection_string(entry: &EnvEntry) -> bool {
    static CONNECTION_STRING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i-u)(?-u:\b)(?:connection[[:space:]]+(?:string|url|uri)|dsn|database[[:space:]]+url)(?-u:\b)")
            .expect("the connection-string pattern is valid")
    });
    CONNECTION_STRING.is_match(&entry.doc)
}

/// Whether an example documents the key as a credential without its name saying so: its
/// comment (`# the secret key from your provider`, `# API password`, `# openssl rand -hex 32`)
/// or its stand-in value (`DUO_SKEY=<Client Secret>`) names one, and the value is still to be
/// given.
fn documents_a_credential(entry: &EnvEntry) -> bool {
    static CREDENTIAL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i-u)(?-u:\b)(?:secret|password|passphrase|api[ _-]?key|private[ _-]key|access[ _-]token|auth(?:entication)?[ _-]token|credentials?|openssl[[:space:]]+rand|random[[:space:]]+(?:string|value|bytes))(?-u:\b)")
            .expect("the credential-doc pattern is valid")
    });
    // `# Path to the TLS private key`: the value says where a credential is, not what.
    static LOCATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i-u)(?-u:\b)(?:path|location|directory|folder|file[[:space:]]+name)[[:space:]]+(?:to|of|for|where)(?-u:\b)")
            .expect("the location-doc pattern is valid")
    });
    // `# Uses AWS credentials.`: the setting relies on credentials given elsewhere.
    static USES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i-u)(?-u:\b)(?:uses|needs|requires)[[:space:]]+(?:the[[:space:]]+)?(?:[[:word:]]+[[:space:]]+){0,2}credentials(?-u:\b)")
            .expect("the uses-credentials pattern is valid")
    });
    let value = entry.value.trim().trim_matches(['"', '\'']);
    let stand_in = value.starts_with('<') && value.ends_with('>');
    is_placeholder(&entry.value)
        && (CREDENTIAL.is_match(&entry.doc) && !LOCATION.is_match(&entry.doc) && !USES.is_match(&entry.doc)
            || stand_in && CREDENTIAL.is_match(value))
        && crate::names::validate_secret_name(&entry.key).is_ok()
        && !is_public(&entry.key)
        && !is_setting_name(&entry.key)
        && !is_test_suite_name(&entry.key)
}

/// Whether a comment of the file shows the key's own value, and it is a setting's (`# Set
/// CAPTCHA_DEV=true to run the real captcha with test keys`): the prose around it may be
/// about keys and secrets, the key is a switch.
fn shown_as_setting(file: &EnvFile, key: &str) -> bool {
    file.entries.iter().any(|entry| {
        entry.doc.match_indices(key).any(|(at, _)| {
            let starts_a_word = !entry.doc[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            let value = entry.doc[at + key.len()..].strip_prefix('=').and_then(|rest| rest.split_whitespace().next());
            starts_a_word && value.is_some_and(|v| is_setting_value(key, v))
        })
    })
}

/// The names a value interpolates (`${POSTGRES_PASSWORD}`, `$HOME`).
fn interpolated(value: &str) -> impl Iterator<Item = &str> {
    static REFERENCE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)").expect("the reference pattern is valid"));
    REFERENCE.captures_iter(value).filter_map(|c| c.get(1)).map(|m| m.as_str())
}

/// The secret keys of one env file. In an example every key is one to set; in a committed
/// `.env` only those it leaves empty or gives a stand-in (`changethis`), or whose value
/// interpolates such a one (`postgres://app:${POSTGRES_PASSWORD}@…`).
pub(super) fn env_file_secrets(file: &EnvFile, project: &ProjectNames, evidence: &mut Gathered) {
    let stand_in: HashSet<&str> =
        file.entries.iter().filter(|e| !e.commented && is_placeholder(&e.value)).map(|e| e.key.as_str()).collect();
    for entry in &file.entries {
        if entry.commented && !file.example {
            continue;
        }
        let supplied = !file.example
            && !stand_in.contains(entry.key.as_str())
            && !interpolated(&entry.value).any(|name| stand_in.contains(name));
        let documented_credential = documents_a_credential(entry)
            && !project.exemplified_as_setting(&entry.key)
            && !shown_as_setting(file, &entry.key);
        if supplied
            || !(project.is_secret(&entry.key, false) || documents_a_connection_string(entry) || documented_credential)
        {
            continue;
        }
        let (need, why) = if entry.commented {
            (Need::Optional, format!("commented out in {}", file.path))
        } else {
            match documented(entry) {
                Some(Need::Required) => (Need::Required, format!("documented as required in {}", file.path)),
                Some(_) => (Need::Optional, format!("documented as optional in {}", file.path)),
                None if file.example => (Need::Unstated, format!("listed in {}", file.path)),
                None => (Need::Unstated, format!("no real value in {}", file.path)),
            }
        };
        evidence.add(&entry.key, &Evidence::line(&file.path, entry.line), need, why);
    }
}

/// Secrets a compose file gives any service under a prefix the app's settings library loads
/// every variable from (`namespaces`, see
/// [`crate::detect::ecosystems::ecosystem::Ecosystem::env_namespace`]): koanf reads
/// `LISTMONK_db__password` whichever image runs it. Services built from the repo are
/// [`compose_secrets`]'s.
pub(super) fn namespaced_secrets(
    services: &[ComposeApp],
    namespaces: &HashSet<String>,
    project: &ProjectNames,
    evidence: &mut Gathered,
) {
    let namespace_of = |key: &str| {
        namespaces.iter().find(|prefix| {
            key.len() > prefix.len() && key.get(..prefix.len()).is_some_and(|head| head.eq_ignore_ascii_case(prefix))
        })
    };
    for (rel, service, _) in services.iter().filter(|(_, _, app)| !app) {
        for key in service.env_as_written.keys() {
            let Some(prefix) = namespace_of(key) else { continue };
            if project.is_secret(key, false) {
                let source =
                    Evidence::key(rel, format!("services.{}.environment.{key}", service.name)).of(Kind::ComposeFile);
                let why = format!("{prefix}… configures the app, given to the {} service in {rel}", service.name);
                evidence.add(key, &source, Need::Unstated, why);
            }
        }
    }
}

/// Secrets of the compose services built from the repo (the app the tests run against):
/// the credentials in their `environment:`, and the variables any service interpolates that
/// compose refuses to run without (`${SECRET_KEY:?not set}`).
pub(super) fn compose_secrets(services: &[ComposeApp], project: &ProjectNames, evidence: &mut Gathered) {
    static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[?\-+])?[^}]*\}|\$([A-Za-z_][A-Za-z0-9_]*)")
            .expect("the compose interpolation pattern is valid")
    });
    for (rel, service, app) in services {
        for (key, value) in &service.env_as_written {
            let source =
                Evidence::key(rel, format!("services.{}.environment.{key}", service.name)).of(Kind::ComposeFile);
            let mut references: Vec<(&str, Need)> = Vec::new();
            for c in REFERENCE.captures_iter(value) {
                let Some(name) = c.get(1).or(c.get(3)) else { continue };
                let need = match c.get(2).map(|m| m.as_str().trim_start_matches(':')) {
                    Some("?") => Need::Required,
                    Some("-") => Need::Optional,
                    _ => Need::Unstated,
                };
                references.push((name.as_str(), need));
            }
            // A backing service's credential passed on bare (`${LOCALSTACK_AUTH_TOKEN}`, no
            // default) is the developer's to give: compose hands the service an empty one.
            for &(name, need) in &references {
                if project.is_secret(name, false) && (need != Need::Optional || *app) {
                    let why = match need {
                        Need::Required => format!("{rel} refuses to start without it"),
                        _ => format!("passed to the {} service by {rel}", service.name),
                    };
                    evidence.add(name, &source, need, why);
                }
            }
            // A key whose whole value is another variable (`SOKETI_APP_SECRET:
            // ${PUSHER_APP_SECRET:-x}`) is compose's renaming: the variable is what a developer
            // sets (the code's own reads of the key are found apart).
            let renamed = matches!(references.as_slice(), [(name, _)] if name != key)
                && REFERENCE.find(value.trim()).is_some_and(|m| m.as_str() == value.trim());
            if *app && !renamed && project.is_secret(key, false) {
                let need = references.iter().map(|(_, need)| *need).min().unwrap_or(Need::Optional);
                let why = if references.is_empty() {
                    format!("given a value for the {} service in {rel}", service.name)
                } else {
                    format!("environment of the {} service in {rel}", service.name)
                };
                evidence.add(key, &source, need, why);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_service_running_the_projects_own_image_is_the_app() {
        let compose = "services:\n  tracker:\n    image: ghcr.io/acme/tracker:latest\n    environment:\n      - POSTGRES_HOST=postgres\n      - POSTGRES_PASSWORD=postgres\n  postgres:\n    image: postgres:16-alpine\n    environment:\n      - POSTGRES_PASSWORD=postgres\n  cache:\n    image: ghcr.io/acme/cache-proxy:1\n    environment:\n      - PROXY_TOKEN=x\n";
        let git = "[remote \"origin\"]\n\turl = https://github.com/acme/tracker.git\n";
        let files = [("go.mod", "module github.com/acme/tracker\n\ngo 1.22\n"), ("docker-compose.yml", compose)];
        let secrets = |files: &[(&str, &str)]| crate::detect::testing::detection(files).secrets;
        assert!(secrets(&files).is_empty(), "another project's image: {:?}", secrets(&files));
        let named = [files[0], files[1], (".git/config", git)];
        assert_eq!(secrets(&named), ["POSTGRES_PASSWORD"], "the app's, not the database's or another image's");
    }
}
