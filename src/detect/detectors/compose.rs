//! Detector: Docker Compose files anywhere in the tree. Each file's backing services
//! (databases, brokers, caches… — not the app's own `build:` services, proxies or admin UIs)
//! become services, and each file with any becomes a `start` candidate:
//! `docker compose [-f FILE] up -d SERVICE…`.
//!
//! Also the shared reading of a `docker compose … up …` command line, used for CI steps,
//! Makefile recipes and package.json scripts ([`start_from_command`]).

use std::collections::HashMap;

use yaml_rust2::Yaml;

use crate::detect::detectors::services::{canonical_service, is_backing_service};
use crate::detect::detectors::{ci, devcontainer, tasks};
use crate::detect::repo::{SAMPLE_DIRS, file_name, parent_dir};
use crate::detect::{Findings, Repo, Start};

/// The files `docker compose` reads by default, in its order of preference.
const DEFAULT_FILES: &[&str] = &["compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"];
const OVERRIDE_FILES: &[&str] =
    &["compose.override.yaml", "compose.override.yml", "docker-compose.override.yaml", "docker-compose.override.yml"];

/// Directories, beside the sample ones ([`SAMPLE_DIRS`]), whose contents are demos, sites or
/// vendored code rather than the project's own set-up.
const INCIDENTAL_DIRS: &[&str] = &["demo", "demos", "website", "third_party", "third-party", "thirdparty", "external"];

/// True when a path lies under an example, fixture, documentation or third-party directory
/// (in any letter case): files there are not evidence for how to run the project.
pub fn is_incidental_path(rel: &str) -> bool {
    parent_dir(rel).split('/').any(|c| SAMPLE_DIRS.iter().chain(INCIDENTAL_DIRS).any(|d| c.eq_ignore_ascii_case(d)))
}

/// `compose.yaml`, `docker-compose.yml`, `docker-compose.test.yml`, `ci.compose.yaml`,
/// `compose.dev.yml`, …
pub fn is_compose_file(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let Some(stem) = name.strip_suffix(".yml").or_else(|| name.strip_suffix(".yaml")) else {
        return false;
    };
    stem == "compose"
        || stem == "docker-compose"
        || stem.starts_with("docker-compose.")
        || stem.starts_with("docker-compose-")
        || stem.starts_with("compose.")
        || stem.ends_with(".compose")
}

/// Compose files meant for deployments: their services are managed elsewhere.
fn is_production_file(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.split(['.', '-', '_'])
        .any(|part| matches!(part, "prod" | "production" | "deploy" | "deployment" | "staging" | "release"))
}

/// One service of a compose file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComposeService {
    pub name: String,
    pub image: Option<String>,
    /// Built from the repo (`build:`): the app itself, not a service to start for it.
    pub build: bool,
}

impl ComposeService {
    /// The canonical product when this is a backing service the tests need.
    pub fn backing(&self) -> Option<String> {
        if self.build {
            return None;
        }
        let product = canonical_service(self.image.as_deref()?);
        is_backing_service(&product).then_some(product)
    }
}

/// The services of a compose file, or `None` (with a warning) when it cannot be read.
pub fn read_compose(repo: &Repo, rel: &str) -> Option<Vec<ComposeService>> {
    let docs = repo.read_yaml(rel)?;
    let services = docs.first().map(|d| &d["services"]).and_then(Yaml::as_hash)?;
    let mut out = Vec::new();
    for (name, def) in services {
        let Some(name) = scalar(name) else { continue };
        // `<<: *anchor` merge keys are not expanded by the YAML reader: look through them.
        let field = |key: &str| {
            let own = &def[key];
            if own.is_badvalue() { &def["<<"][key] } else { own }
        };
        let image = scalar(field("image")).map(|i| interpolate_defaults(&i)).filter(|i| !i.is_empty());
        let build = !field("build").is_badvalue() && !field("build").is_null();
        out.push(ComposeService { name, image, build });
    }
    Some(out)
}

/// `${TAG:-16}` → `16`, `${TAG-16}` → `16`, `${TAG}` → `` (what compose substitutes when unset).
pub fn interpolate_defaults(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let inner = &after[..end];
        if let Some((_, default)) = inner.split_once(":-").or_else(|| inner.split_once('-')) {
            out.push_str(default);
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A YAML scalar as text (`3.10` stays `3.10`; `true` becomes `true`).
pub fn scalar(value: &Yaml) -> Option<String> {
    match value {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The start command for `files` (repo-relative) and the services to bring up. `-f` is
/// omitted for the root's default file, which compose picks (with its override) by itself.
pub fn up_command(files: &[String], services: &[String]) -> String {
    let mut command = String::from("docker compose");
    let default_only = files.len() == 1 && DEFAULT_FILES.contains(&files[0].as_str());
    if !default_only {
        for file in files {
            command.push_str(" -f ");
            command.push_str(&shell_word(file));
        }
    }
    command.push_str(" up -d");
    for service in services {
        command.push(' ');
        command.push_str(&shell_word(service));
    }
    command
}

/// `word` quoted for a shell when it needs to be.
pub fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=@+".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The compose files of the project itself: not under examples or fixtures, not the dev
/// container's (see the devcontainer detector).
pub fn project_compose_files(repo: &Repo) -> Vec<&String> {
    repo.files()
        .iter()
        .filter(|rel| {
            let name = file_name(rel);
            // `contains` first: this runs for every file of the tree.
            name.contains("ompose")
                && is_compose_file(name)
                && !is_incidental_path(rel)
                && !rel.starts_with(".devcontainer/")
        })
        .collect()
}

pub fn detect(repo: &Repo, out: &mut Findings) {
    let root_default = DEFAULT_FILES.iter().find(|f| repo.exists(f)).map(|f| f.to_string());
    let root_override = OVERRIDE_FILES.iter().find(|f| repo.exists(f)).map(|f| f.to_string());
    let mut skipped_production = Vec::new();
    let mut variants = Vec::new();
    let mut file_starts: Vec<Start> = Vec::new();
    let mut files = project_compose_files(repo);
    // A folder of several compose files holds alternatives (`docker-compose.postgres.yml`,
    // `docker-compose.mariadb.yml`, …): only its default file is started, the others when a CI
    // step, a Makefile or a script names them.
    let mut per_dir: HashMap<&str, usize> = HashMap::new();
    for rel in
        files.iter().filter(|rel| !OVERRIDE_FILES.contains(&file_name(rel)) && !is_production_file(file_name(rel)))
    {
        *per_dir.entry(parent_dir(rel)).or_default() += 1;
    }
    let variant_dirs: Vec<&str> = per_dir.into_iter().filter(|(_, n)| *n > 1).map(|(dir, _)| dir).collect();
    let is_variant = |rel: &str, dirs: &[&str]| {
        dirs.contains(&parent_dir(rel))
            && !DEFAULT_FILES.contains(&file_name(rel))
            && !OVERRIDE_FILES.contains(&file_name(rel))
    };
    // The root's default file is the one people run; then the shallowest.
    files.sort_by_key(|rel| (root_default.as_ref() != Some(*rel), rel.matches('/').count(), rel.as_str()));
    for rel in files {
        let name = file_name(rel);
        if root_override.as_deref() == Some(rel.as_str()) && root_default.is_some() {
            continue; // read together with the default file below
        }
        if is_production_file(name) {
            skipped_production.push(rel.clone());
            continue;
        }
        if is_variant(rel, &variant_dirs) {
            variants.push(rel.clone());
            continue;
        }
        let Some(services) = read_compose(repo, rel) else { continue };
        let mut names = Vec::new();
        let mut report = |file: &str, services: &[ComposeService], out: &mut Findings| {
            for service in services {
                if let Some(product) = service.backing() {
                    out.service(&product, service.image.clone(), format!("{file}#services.{}", service.name));
                    if !names.contains(&service.name) {
                        names.push(service.name.clone());
                    }
                }
            }
        };
        report(rel, &services, out);
        if root_default.as_deref() == Some(rel.as_str())
            && let Some(over) = root_override.as_deref()
            && let Some(extra) = read_compose(repo, over)
        {
            report(over, &extra, out);
        }
        if !names.is_empty() {
            file_starts.push(Start { command: up_command(std::slice::from_ref(rel), &names), source: rel.clone() });
        }
    }
    order_starts(repo, out, file_starts);
    if !skipped_production.is_empty() {
        out.note(format!("not started (deployment compose files): {}", few(&skipped_production)));
    }
    if !variants.is_empty() {
        out.note(format!("not started unless a script names them (alternative compose files): {}", few(&variants)));
    }
}

/// Every start candidate, in order of evidence: the root's default compose file (what people
/// run), the dev container's services, `docker compose up` in CI test jobs (or, without any
/// compose file, the CI job's service containers), Makefile targets and package scripts, then
/// the project's other compose files. [`add_start`] keeps each product started once.
fn order_starts(repo: &Repo, out: &mut Findings, file_starts: Vec<Start>) {
    let root_default = DEFAULT_FILES.iter().find(|f| repo.exists(f));
    let (root, others): (Vec<Start>, Vec<Start>) =
        file_starts.into_iter().partition(|s| root_default.is_some_and(|f| s.source == *f));
    let candidates = root
        .into_iter()
        .chain(devcontainer::starts(repo))
        .chain(ci::starts(repo))
        .chain(tasks::starts(repo))
        .chain(others);
    for start in candidates {
        // Anything but a compose start (CI service containers) only when nothing else starts services.
        if parse_compose_up(&start.command).is_none() && !out.starts.is_empty() {
            continue;
        }
        add_start(repo, out, start.command, start.source);
    }
}

/// Run `analyze` and keep all it found but the start candidates.
pub fn without_starts(repo: &Repo, out: &mut Findings, analyze: fn(&Repo, &mut Findings)) {
    let mut found = Findings::default();
    analyze(repo, &mut found);
    found.starts.clear();
    out.append(found);
}

/// The start candidates `analyze` finds.
pub fn starts_of(repo: &Repo, analyze: fn(&Repo, &mut Findings)) -> Vec<Start> {
    let mut found = Findings::default();
    analyze(repo, &mut found);
    found.starts
}

/// The first three of `items`, and how many more.
fn few(items: &[String]) -> String {
    match items {
        [a, b, c, rest @ ..] if !rest.is_empty() => format!("{a}, {b}, {c} (and {} more)", rest.len()),
        _ => items.join(", "),
    }
}

/// Add a compose start, keeping every product started once: a start whose files and services
/// an earlier one covers is left out, one that covers an earlier one (same files) replaces it,
/// and services whose product an earlier start brings up from another file are dropped (two
/// postgres containers would fight over the port). A Makefile target, a package script, a CI
/// step and the compose file itself often name the same services.
pub fn add_start(repo: &Repo, out: &mut Findings, command: String, source: String) {
    let Some(new) = parse_compose_up(&command) else {
        out.start(command, source);
        return;
    };
    let existing: Vec<Option<ComposeUp>> = out.starts.iter().map(|s| parse_compose_up(&s.command)).collect();
    // Products that starts of other files bring up already (same-file starts fold below).
    let started: Vec<String> = existing
        .iter()
        .flatten()
        .filter(|old| old.files != new.files)
        .flat_map(|old| started_services(repo, old))
        .map(|(_, product)| product)
        .collect();
    let services = started_services(repo, &new);
    let fresh: Vec<String> =
        services.iter().filter(|(_, product)| !started.contains(product)).map(|(name, _)| name.clone()).collect();
    if fresh.is_empty() {
        return;
    }
    let (command, new) = if fresh.len() == services.len() {
        (command, new)
    } else {
        (up_command(&new.files, &fresh), ComposeUp { services: fresh, ..new })
    };
    let covers = |wide: &ComposeUp, narrow: &ComposeUp| {
        wide.files == narrow.files && narrow.services.iter().all(|s| wide.services.contains(s))
    };
    if existing.iter().flatten().any(|old| covers(old, &new)) {
        return;
    }
    let mut keep = existing.iter().map(|old| !old.as_ref().is_some_and(|old| covers(&new, old)));
    out.starts.retain(|_| keep.next().unwrap_or(true));
    out.start(command, source);
}

/// The backing services (compose name, product) an `up` brings up: those it names, or all of
/// its files' (the root default file and its override when it names none).
fn started_services(repo: &Repo, up: &ComposeUp) -> Vec<(String, String)> {
    let files: Vec<&str> = if up.files.is_empty() {
        let default = DEFAULT_FILES.iter().find(|f| repo.exists(f));
        let over = OVERRIDE_FILES.iter().find(|f| repo.exists(f));
        default.into_iter().chain(over).copied().collect()
    } else {
        up.files.iter().map(String::as_str).collect()
    };
    let mut found: Vec<(String, String)> = Vec::new();
    for file in files {
        for service in read_compose(repo, file).unwrap_or_default() {
            let wanted = up.services.is_empty() || up.services.contains(&service.name);
            if wanted
                && let Some(product) = service.backing()
                && !found.iter().any(|(name, _)| *name == service.name)
            {
                found.push((service.name, product));
            }
        }
    }
    found
}

/// A `docker compose … up …` (or `docker-compose`) invocation found in a shell line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ComposeUp {
    /// `-f` arguments as written.
    pub files: Vec<String>,
    /// `--project-directory` as written.
    pub project_dir: Option<String>,
    /// Services named after `up`.
    pub services: Vec<String>,
}

/// Options of `docker compose` (before the subcommand) that take a value.
const GLOBAL_VALUE_OPTIONS: &[&str] =
    &["-p", "--project-name", "--profile", "--env-file", "--ansi", "--parallel", "--progress"];
/// Options of `up` that take a value.
const UP_VALUE_OPTIONS: &[&str] = &[
    "-t",
    "--timeout",
    "--scale",
    "--exit-code-from",
    "--attach",
    "--no-attach",
    "--pull",
    "--wait-timeout",
    "--attach-dependencies-of",
];

/// Parse the first `docker compose … up …` in `line` (a shell command line).
pub fn parse_compose_up(line: &str) -> Option<ComposeUp> {
    let words = shell_words(line);
    let mut i = 0;
    while i < words.len() {
        let starts = if words[i] == "docker-compose" {
            Some(i + 1)
        } else if words[i] == "docker" && words.get(i + 1).is_some_and(|w| w == "compose") {
            Some(i + 2)
        } else {
            None
        };
        if let Some(start) = starts
            && let Some(up) = parse_after_compose(&words[start..])
        {
            return Some(up);
        }
        i += 1;
    }
    None
}

fn parse_after_compose(words: &[String]) -> Option<ComposeUp> {
    let mut up = ComposeUp::default();
    let mut i = 0;
    // Global options up to the subcommand.
    loop {
        let word = words.get(i)?.as_str();
        if is_command_end(word) {
            return None;
        }
        if let Some(file) = word.strip_prefix("--file=") {
            up.files.push(file.to_string());
        } else if word == "-f" || word == "--file" {
            up.files.push(words.get(i + 1)?.clone());
            i += 1;
        } else if let Some(dir) = word.strip_prefix("--project-directory=") {
            up.project_dir = Some(dir.to_string());
        } else if word == "--project-directory" {
            up.project_dir = Some(words.get(i + 1)?.clone());
            i += 1;
        } else if GLOBAL_VALUE_OPTIONS.contains(&word) {
            i += 1;
        } else if !word.starts_with('-') {
            break;
        }
        i += 1;
    }
    if words[i] != "up" {
        return None;
    }
    i += 1;
    while let Some(word) = words.get(i) {
        if is_command_end(word) {
            break;
        }
        if UP_VALUE_OPTIONS.contains(&word.as_str()) {
            i += 1;
        } else if !word.starts_with('-') {
            up.services.push(word.clone());
        }
        i += 1;
    }
    Some(up)
}

fn is_command_end(word: &str) -> bool {
    matches!(word, "&&" | "||" | ";" | "|" | "&" | ">" | ">>" | "2>" | "2>&1" | ")" | "\\")
        || word.starts_with('>')
        || word.starts_with("2>")
}

/// Split a shell line into words: whitespace separated, quotes removed, `;`/`&&`/`|` kept as
/// their own words. Good enough for reading commands, not for running them.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    let flush = |current: &mut String, words: &mut Vec<String>| {
        if !current.is_empty() {
            words.push(std::mem::take(current));
        }
    };
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, c) if c.is_whitespace() => flush(&mut current, &mut words),
            (None, ';' | '|' | '&' | '(' | ')') => {
                flush(&mut current, &mut words);
                let mut op = c.to_string();
                if let Some(&next) = chars.peek()
                    && next == c
                    && c != ';'
                {
                    op.push(next);
                    chars.next();
                }
                words.push(op);
            }
            (None, c) => current.push(c),
        }
    }
    flush(&mut current, &mut words);
    words
}

/// Join `rel` (as written in a command run from `cwd`, both repo-relative) into a normalised
/// repo-relative path; `None` when it leaves the repo or is absolute.
pub fn join_path(cwd: &str, rel: &str) -> Option<String> {
    if rel.starts_with('/') || rel.starts_with('~') || rel.contains('$') {
        return None;
    }
    let mut parts: Vec<&str> = cwd.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The start for a `docker compose … up …` line run from `cwd` (see [`start_from_command`]),
/// added with [`add_start`], its backing services reported. True when the line starts some.
pub fn add_command_start(repo: &Repo, out: &mut Findings, cwd: &str, line: &str, source: String) -> bool {
    let Some(command) = start_from_command(repo, cwd, line) else { return false };
    if let Some(up) = parse_compose_up(&command) {
        for file in &up.files {
            for service in read_compose(repo, file).unwrap_or_default() {
                if up.services.contains(&service.name)
                    && let Some(product) = service.backing()
                {
                    out.service(&product, service.image.clone(), format!("{file}#services.{}", service.name));
                }
            }
        }
    }
    add_start(repo, out, command, source);
    true
}

/// The start command for a `docker compose … up …` line run from `cwd` (repo-relative),
/// restricted to the backing services of the files it names (or the default file of `cwd`).
pub fn start_from_command(repo: &Repo, cwd: &str, line: &str) -> Option<String> {
    let up = parse_compose_up(line)?;
    let base = match &up.project_dir {
        Some(dir) => join_path(cwd, dir)?,
        None => cwd.to_string(),
    };
    let files: Vec<String> = if up.files.is_empty() {
        let default =
            DEFAULT_FILES.iter().map(|f| join_path(&base, f)).find(|f| f.as_deref().is_some_and(|f| repo.exists(f)));
        vec![default??]
    } else {
        up.files.iter().map(|f| join_path(cwd, f)).collect::<Option<Vec<_>>>()?
    };
    let mut known: Vec<ComposeService> = Vec::new();
    for file in &files {
        if !repo.exists(file) {
            return None;
        }
        known.extend(read_compose(repo, file)?);
    }
    let mut names: Vec<String> = Vec::new();
    for service in &known {
        let wanted = up.services.is_empty() || up.services.contains(&service.name);
        if wanted && service.backing().is_some() && !names.contains(&service.name) {
            names.push(service.name.clone());
        }
    }
    (!names.is_empty()).then(|| up_command(&files, &names))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::detect::WalkOptions;

    pub(crate) fn repo_with(files: &[(&str, &str)]) -> (tempfile::TempDir, Repo) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        let repo = Repo::walk(dir.path(), &WalkOptions::default()).unwrap();
        (dir, repo)
    }

    const APP_AND_DB: &str = "services:\n  app:\n    build: .\n    depends_on: [db]\n  db:\n    image: postgres:${PG:-16}\n  cache:\n    image: bitnami/redis:7\n  proxy:\n    image: nginx\n";

    #[test]
    fn recognises_compose_file_names() {
        for name in
            ["compose.yaml", "docker-compose.yml", "docker-compose.test.yml", "ci.compose.yaml", "compose.dev.yml"]
        {
            assert!(is_compose_file(name), "{name}");
        }
        for name in ["compose.json", "docker.yml", "composer.yml", "composer.json", "decompose.txt"] {
            assert!(!is_compose_file(name), "{name}");
        }
    }

    #[test]
    fn root_file_starts_backing_services_without_f() {
        let (_dir, repo) = repo_with(&[("docker-compose.yml", APP_AND_DB)]);
        let mut out = Findings::default();
        detect(&repo, &mut out);
        let names: Vec<_> = out.services.iter().map(|s| (s.name.as_str(), s.source.as_str())).collect();
        assert_eq!(
            names,
            [("postgres", "docker-compose.yml#services.db"), ("redis", "docker-compose.yml#services.cache")]
        );
        assert_eq!(out.services[0].image.as_deref(), Some("postgres:16"));
        assert_eq!(out.starts.len(), 1);
        assert_eq!(out.starts[0].command, "docker compose up -d db cache");
    }

    #[test]
    fn nested_file_gets_f_and_incidental_dirs_are_skipped() {
        let (_dir, repo) = repo_with(&[
            ("backend/dev/docker-compose.yml", APP_AND_DB),
            ("examples/demo/compose.yaml", "services:\n  m:\n    image: mongo\n"),
            ("deploy/docker-compose.prod.yml", "services:\n  m:\n    image: mysql\n"),
            ("compose.deploy.yml", "services:\n  m:\n    image: mysql\n"),
            ("docker/variants/docker-compose.mariadb.yml", "services:\n  m:\n    image: mariadb\n"),
            ("docker/variants/docker-compose.postgres.yml", "services:\n  p:\n    image: postgres\n"),
        ]);
        let mut out = Findings::default();
        detect(&repo, &mut out);
        assert_eq!(out.starts.len(), 1);
        assert_eq!(out.starts[0].command, "docker compose -f backend/dev/docker-compose.yml up -d db cache");
        assert!(out.services.iter().all(|s| !["mongodb", "mysql", "mariadb"].contains(&s.name.as_str())));
        assert!(out.notes.iter().any(|n| n.contains("docker/variants/docker-compose.mariadb.yml")));
        assert!(out.notes.iter().any(|n| n.contains("deploy/docker-compose.prod.yml")));
    }

    #[test]
    fn override_file_joins_the_default_start() {
        let (_dir, repo) = repo_with(&[
            ("compose.yaml", "services:\n  db:\n    image: mysql:8\n"),
            ("compose.override.yaml", "services:\n  mail:\n    image: axllent/mailpit\n"),
        ]);
        let mut out = Findings::default();
        detect(&repo, &mut out);
        assert_eq!(out.starts.len(), 1);
        assert_eq!(out.starts[0].command, "docker compose up -d db mail");
    }

    #[test]
    fn odd_compose_shapes_are_ignored() {
        for text in ["services: [db]\n", "services:\n  db: 3\n", "services:\n  db:\n    image: [x]\n", "- a\n", ""] {
            let (_dir, repo) = repo_with(&[("compose.yaml", text)]);
            let mut out = Findings::default();
            detect(&repo, &mut out);
            assert!(out.starts.is_empty(), "{text}");
        }
    }

    #[test]
    fn broken_compose_file_is_a_warning() {
        let (_dir, repo) = repo_with(&[("compose.yaml", "services: [unclosed\n")]);
        let mut out = Findings::default();
        detect(&repo, &mut out);
        assert!(out.starts.is_empty());
        assert!(repo.warnings().iter().any(|w| w.starts_with("compose.yaml: invalid YAML")));
    }

    #[test]
    fn parses_compose_up_lines() {
        let up = parse_compose_up(
            "cd x && docker compose -f ci/compose.yml --profile db up -d --wait postgres redis && make",
        )
        .unwrap();
        assert_eq!(up.files, ["ci/compose.yml"]);
        assert_eq!(up.services, ["postgres", "redis"]);
        let up = parse_compose_up("docker-compose --file=a.yml up -t 30 --build").unwrap();
        assert_eq!(up.files, ["a.yml"]);
        assert!(up.services.is_empty());
        assert!(parse_compose_up("docker compose down").is_none());
        assert!(parse_compose_up("docker compose -f a.yml logs up").is_none());
        assert!(parse_compose_up("echo docker").is_none());
    }

    #[test]
    fn start_from_command_resolves_files_from_the_working_directory() {
        let (_dir, repo) = repo_with(&[("tests/docker/compose.yml", APP_AND_DB), ("compose.yaml", APP_AND_DB)]);
        let command = start_from_command(&repo, "tests", "docker compose -f ./docker/compose.yml up app db").unwrap();
        assert_eq!(command, "docker compose -f tests/docker/compose.yml up -d db");
        let command = start_from_command(&repo, "", "docker-compose up -d").unwrap();
        assert_eq!(command, "docker compose up -d db cache");
        assert!(start_from_command(&repo, "", "docker compose -f missing.yml up").is_none());
        assert!(start_from_command(&repo, "", "docker compose -f ../x.yml up").is_none());
    }

    #[test]
    fn each_product_is_started_once() {
        let (_dir, repo) = repo_with(&[
            ("cypress/docker-compose.yml", "services:\n  db:\n    image: postgres:15\n"),
            ("docker-compose.yml", "services:\n  db:\n    image: postgres:16\n"),
            ("e2e/compose.yml", "services:\n  pg:\n    image: postgres\n  cache:\n    image: redis\n"),
        ]);
        let mut out = Findings::default();
        detect(&repo, &mut out);
        let starts: Vec<_> = out.starts.iter().map(|s| s.command.as_str()).collect();
        assert_eq!(starts, ["docker compose up -d db", "docker compose -f e2e/compose.yml up -d cache"]);
    }

    #[test]
    fn starts_of_every_source_are_ordered_and_each_product_started_once() {
        let workflow = "jobs:\n  t:\n    services:\n      pg:\n        image: postgres\n    steps:\n      - run: docker compose -f ci/compose.yml up -d\n      - run: pytest\n";
        let (_dir, repo) = repo_with(&[
            (
                "ci/compose.yml",
                "services:\n  db:\n    image: postgres\n  search:\n    image: opensearchproject/opensearch\n",
            ),
            (".github/workflows/test.yml", workflow),
            ("Makefile", "up:\n\tdocker compose -f docker/dev.yml up -d\n"),
            ("docker/dev.yml", "services:\n  cache:\n    image: redis\n  db:\n    image: postgres\n"),
            (".devcontainer/devcontainer.json", r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#),
            (".devcontainer/compose.yml", "services:\n  app:\n    build: .\n  db:\n    image: postgres:16\n"),
        ]);
        // Each detector runs on its own, as the pipeline runs them.
        let mut out = Findings::default();
        detect(&repo, &mut out);
        for other in [ci::detect, tasks::detect, devcontainer::detect] {
            let mut found = Findings::default();
            other(&repo, &mut found);
            assert!(found.starts.is_empty(), "only the compose detector reports starts");
        }
        let starts: Vec<_> = out.starts.iter().map(|s| (s.command.as_str(), s.source.as_str())).collect();
        assert_eq!(
            starts,
            [
                (
                    "docker compose -f .devcontainer/compose.yml up -d db",
                    ".devcontainer/devcontainer.json#dockerComposeFile"
                ),
                ("docker compose -f ci/compose.yml up -d search", ".github/workflows/test.yml#jobs.t.steps[0]"),
                ("docker compose -f docker/dev.yml up -d cache", "Makefile:2"),
            ]
        );
    }

    #[test]
    fn ci_service_containers_only_without_any_compose_start() {
        let workflow =
            "jobs:\n  t:\n    services:\n      pg:\n        image: postgres\n    steps:\n      - run: go test ./...\n";
        let devcontainer = r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#;
        let (_dir, repo) = repo_with(&[
            (".github/workflows/test.yml", workflow),
            (".devcontainer/devcontainer.json", devcontainer),
            (".devcontainer/compose.yml", "services:\n  db:\n    image: postgres\n"),
        ]);
        let mut out = Findings::default();
        detect(&repo, &mut out);
        let starts: Vec<_> = out.starts.iter().map(|s| s.command.as_str()).collect();
        assert_eq!(starts, ["docker compose -f .devcontainer/compose.yml up -d db"]);

        let (_dir, repo) = repo_with(&[(".github/workflows/test.yml", workflow)]);
        let mut out = Findings::default();
        detect(&repo, &mut out);
        let starts: Vec<_> = out.starts.iter().map(|s| s.command.as_str()).collect();
        assert_eq!(starts, ["docker run -d --name pg postgres"]);
    }

    #[test]
    fn starts_covered_by_wider_ones_fold() {
        let (_dir, repo) = repo_with(&[
            ("a.yml", "services:\n  db:\n    image: postgres\n  cache:\n    image: redis\n"),
            ("b.yml", "services:\n  db:\n    image: mysql\n"),
        ]);
        let mut out = Findings::default();
        add_start(&repo, &mut out, "docker compose -f a.yml up -d db".into(), "x".into());
        add_start(&repo, &mut out, "docker compose -f a.yml up -d db cache".into(), "y".into());
        add_start(&repo, &mut out, "docker compose -f a.yml up -d cache".into(), "z".into());
        add_start(&repo, &mut out, "docker compose -f b.yml up -d db".into(), "w".into());
        add_start(&repo, &mut out, "pnpm dev".into(), "v".into());
        let starts: Vec<_> = out.starts.iter().map(|s| (s.command.as_str(), s.source.as_str())).collect();
        assert_eq!(
            starts,
            [
                ("docker compose -f a.yml up -d db cache", "y"),
                ("docker compose -f b.yml up -d db", "w"),
                ("pnpm dev", "v")
            ]
        );
    }

    #[test]
    fn interpolates_defaults() {
        assert_eq!(interpolate_defaults("postgres:${PG_VERSION:-16}-alpine"), "postgres:16-alpine");
        assert_eq!(interpolate_defaults("${REGISTRY}redis"), "redis");
        assert_eq!(interpolate_defaults("x:${A-1}"), "x:1");
        assert_eq!(interpolate_defaults("broken ${"), "broken ${");
    }
}
