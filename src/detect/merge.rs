//! Merge the findings of every ecosystem and signal into one deterministic [`Detection`].
//! The only place that ranks and folds.
//!
//! Rules (all stable: the same tree always gives the same bytes):
//! - install steps: deduplicated by command (first wins), ordered by [`Phase`], then by the
//!   order the units ran in (see [`crate::detect::detect_in`]), then by finding order;
//! - start: candidates ordered by their [`StartOrigin`], each product started once: a
//!   compose start drops the services whose product an earlier start of other files brings
//!   up, is left out when an earlier one of the same files covers it, replaces earlier ones
//!   of the same files it covers, and is left out when an earlier one names all its
//!   services; `docker run` service containers only when nothing else starts anything;
//!   joined with ` && `;
//! - toolchains: ordered by [`Origin`]; a version the toolchain's ecosystem says pins
//!   nothing is dropped; one entry per (name, version); for each name a pinned version
//!   comes before an unpinned one, otherwise the strongest origin wins;
//! - package managers: one per (name, path), the first one seen, with a version filled in
//!   from a later duplicate when the first had none;
//! - services: ordered by [`Origin`]; one per name, the first one seen, with an image filled
//!   in the same way;
//! - secrets: deduplicated, checked with [`crate::names::validate_secret_name`], sorted;
//! - tests: deduplicated by command and ordered by [`test_rank`] of their source.

use std::collections::HashSet;

use serde::Serialize;

use crate::detect::ecosystems;
use crate::detect::findings::{Findings, PackageManager, Secret, Service, Start, Step, TestCommand, Toolchain};
#[cfg(doc)]
use crate::detect::findings::{Origin, Phase};
use crate::detect::repo::Repo;
use crate::detect::sources::compose::ComposeStart;

/// The result of `detect`, as `--json` prints it (keys and meanings are a contract).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Detection {
    pub repo: String,
    pub install: String,
    pub start: String,
    pub secrets: Vec<String>,
    pub note: String,
    pub toolchains: Vec<Toolchain>,
    pub package_managers: Vec<PackageManager>,
    pub services: Vec<Service>,
    pub tests: Vec<TestCommand>,
    pub warnings: Vec<String>,
    /// The install steps behind `install`, with their evidence (for rendering and `--explain`).
    #[serde(skip)]
    pub steps: Vec<Step>,
    /// The start commands behind `start`, with their evidence.
    #[serde(skip)]
    pub starts: Vec<Start>,
    /// The secret names behind `secrets`, each with its first evidence.
    #[serde(skip)]
    pub secret_sources: Vec<Secret>,
    /// How long each detector took (`-vv`).
    #[serde(skip)]
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

pub fn merge(repo: &Repo, findings: Findings) -> Detection {
    let Findings { toolchains, package_managers, services, tests, secrets, steps, starts, notes, warnings: found } =
        findings;
    let mut warnings = repo.warnings();
    warnings.extend(found);

    let steps = merge_steps(steps);
    let starts = merge_starts(starts);
    let (secret_sources, rejected) = merge_secrets(secrets);
    warnings.extend(rejected);
    let mut seen_warnings = HashSet::new();
    warnings.retain(|w| seen_warnings.insert(w.clone()));

    let mut detection = Detection {
        repo: crate::checkout::default_repo_name(repo.root()),
        install: install_script(&steps),
        start: starts.iter().map(|s| s.command.as_str()).collect::<Vec<_>>().join(" && "),
        secrets: secret_sources.iter().map(|s| s.name.clone()).collect(),
        note: String::new(),
        toolchains: merge_toolchains(toolchains),
        package_managers: merge_package_managers(package_managers),
        services: merge_services(services),
        tests: merge_tests(tests),
        warnings,
        steps,
        starts,
        secret_sources,
        timings: Vec::new(),
    };
    detection.note = note(&detection, &notes);
    for (key, script) in [("install", &detection.install), ("start", &detection.start)] {
        if script.len() > crate::names::MAX_SCRIPT_BYTES {
            detection.warnings.push(format!(
                "{key} is {} bytes, over the {} bytes the server accepts: trim it before `hanzo-env save`",
                script.len(),
                crate::names::MAX_SCRIPT_BYTES
            ));
        }
    }
    detection
}

fn dedup_by_key<T, K: std::hash::Hash + Eq>(items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut seen = HashSet::new();
    items.into_iter().filter(|item| seen.insert(key(item))).collect()
}

fn merge_starts(mut starts: Vec<Start>) -> Vec<Start> {
    starts.sort_by_key(|s| s.origin);
    let mut kept: Vec<Start> = Vec::new();
    for start in starts {
        match &start.compose {
            None if kept.is_empty() => kept.push(start),
            None => {}
            Some(compose) => {
                let compose = compose.clone();
                add_compose_start(&mut kept, start, compose);
            }
        }
    }
    // A start whose services an earlier one names already (from other files) adds nothing.
    let mut merged: Vec<Start> = Vec::new();
    for start in kept {
        let names = start.compose.as_ref().map(ComposeStart::names);
        let covered = names.as_ref().is_some_and(|names| {
            merged.iter().filter_map(|k| k.compose.as_ref()).any(|k| {
                let earlier = k.names();
                names.iter().all(|n| earlier.contains(n))
            })
        });
        if !covered {
            merged.push(start);
        }
    }
    merged
}

/// Add a compose start, keeping every product started once: services whose product an
/// earlier start of other files brings up are dropped (two postgres containers would fight
/// over the port), a start an earlier one of the same files covers is left out, and earlier
/// ones of the same files it covers are replaced.
fn add_compose_start(kept: &mut Vec<Start>, start: Start, new: ComposeStart) {
    let started: Vec<&str> = kept
        .iter()
        .filter_map(|k| k.compose.as_ref())
        .filter(|old| old.files != new.files)
        .flat_map(|old| old.services.iter().map(|s| s.product.as_str()))
        .collect();
    let fresh: Vec<String> = new
        .services
        .iter()
        .filter(|s| !started.contains(&s.product.as_str()))
        .map(|s| s.service.name.clone())
        .collect();
    if fresh.is_empty() {
        return;
    }
    let start = if fresh.len() == new.services.len() {
        start
    } else {
        let reduced = new.only(&fresh);
        Start { command: reduced.command(), compose: Some(reduced), ..start }
    };
    let Some(new) = start.compose.as_ref() else { return };
    let covers = |wide: &ComposeStart, narrow: &ComposeStart| {
        let names = wide.names();
        wide.files == narrow.files && narrow.names().iter().all(|n| names.contains(n))
    };
    if kept.iter().filter_map(|k| k.compose.as_ref()).any(|old| covers(old, new)) {
        return;
    }
    kept.retain(|k| !k.compose.as_ref().is_some_and(|old| covers(new, old)));
    kept.push(start);
}

fn merge_steps(steps: Vec<Step>) -> Vec<Step> {
    let mut steps = dedup_by_key(steps, |s| s.command.trim().to_string());
    // Stable: within a phase, detector order (the order findings arrived in) is kept.
    steps.sort_by_key(|s| s.phase);
    steps
}

/// The install script: `set -euo pipefail`, then each step preceded by `# <source>`
/// (one comment for consecutive steps with the same evidence). Empty when there is nothing to do.
/// A single one-line step is the install as it is: its exit status is already the script's,
/// and the file shows its evidence beside it (DESIGN.md §3 does the same for `start`).
pub fn install_script(steps: &[Step]) -> String {
    match steps {
        [] => return String::new(),
        [only] if !only.command.trim().contains('\n') => return only.command.trim().to_string(),
        _ => {}
    }
    let mut script = String::from("set -euo pipefail\n");
    let mut last_source: Option<&str> = None;
    for step in steps {
        if last_source != Some(step.source.as_str()) {
            script.push_str(&format!("# {}\n", one_line(&step.source)));
            last_source = Some(&step.source);
        }
        script.push_str(step.command.trim_end());
        script.push('\n');
    }
    script
}

/// A comment must stay one line, whatever a file name holds.
pub fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// At most this many secret names in a proposal: far more than an app reads, and a bound on
/// what a checkout of generated code can put in the file.
pub const MAX_SECRET_NAMES: usize = 500;

fn merge_secrets(secrets: Vec<Secret>) -> (Vec<Secret>, Vec<String>) {
    let mut rejected = Vec::new();
    let mut kept: Vec<Secret> = dedup_by_key(secrets, |s| s.name.clone())
        .into_iter()
        .filter(|s| match crate::names::validate_secret_name(&s.name) {
            Ok(()) => true,
            // Reserved names are the sandbox's own variables: simply not secrets.
            Err(crate::names::NameError::Reserved(_)) => false,
            Err(e) => {
                rejected.push(format!("{}: {e}; left out of secrets", s.source));
                false
            }
        })
        .collect();
    if kept.len() > MAX_SECRET_NAMES {
        // The first found stay: dotenv files and CI come before the code scan.
        rejected.push(format!(
            "{} secret names found, more than a proposal holds: the first {MAX_SECRET_NAMES} kept, \
             the rest (from {} on) left out",
            kept.len(),
            kept[MAX_SECRET_NAMES].source
        ));
        kept.truncate(MAX_SECRET_NAMES);
    }
    kept.sort_by(|a, b| a.name.cmp(&b.name));
    (kept, rejected)
}

fn merge_toolchains(mut toolchains: Vec<Toolchain>) -> Vec<Toolchain> {
    toolchains.sort_by_key(|t| t.origin);
    for t in &mut toolchains {
        if t.version.as_deref().is_some_and(|v| !ecosystems::pins(&t.name, v)) {
            t.version = None;
        }
    }
    let toolchains = dedup_by_key(toolchains, |t| (t.name.clone(), t.version.clone()));
    // Group by name in order of first appearance; pinned versions first within a name.
    let mut names: Vec<&str> = Vec::new();
    for t in &toolchains {
        if !names.contains(&t.name.as_str()) {
            names.push(&t.name);
        }
    }
    let mut merged = Vec::with_capacity(toolchains.len());
    for name in names {
        let (pinned, unpinned): (Vec<&Toolchain>, Vec<&Toolchain>) =
            toolchains.iter().filter(|t| t.name == name).partition(|t| t.version.is_some());
        merged.extend(pinned.into_iter().chain(unpinned.into_iter().take(1)).cloned());
    }
    // An unpinned entry says nothing a pinned one of the same name does not.
    let pinned_names: HashSet<String> = merged.iter().filter(|t| t.version.is_some()).map(|t| t.name.clone()).collect();
    merged.retain(|t| t.version.is_some() || !pinned_names.contains(&t.name));
    merged
}

fn merge_package_managers(pms: Vec<PackageManager>) -> Vec<PackageManager> {
    let mut merged: Vec<PackageManager> = Vec::new();
    for pm in pms {
        match merged.iter_mut().find(|m| m.name == pm.name && m.path == pm.path) {
            Some(existing) => {
                if existing.version.is_none() {
                    existing.version = pm.version;
                }
            }
            None => merged.push(pm),
        }
    }
    merged
}

fn merge_services(mut services: Vec<Service>) -> Vec<Service> {
    services.sort_by_key(|s| s.origin);
    let mut merged: Vec<Service> = Vec::new();
    for service in services {
        match merged.iter_mut().find(|m| m.name == service.name) {
            Some(existing) => {
                if existing.image.is_none() {
                    existing.image = service.image;
                }
            }
            None => merged.push(service),
        }
    }
    merged
}

fn merge_tests(tests: Vec<TestCommand>) -> Vec<TestCommand> {
    let mut tests = dedup_by_key(tests, |t| t.command.trim().to_string());
    tests.sort_by_key(|t| test_rank(&t.source));
    tests
}

/// How much a test command's source says about what the project really runs:
/// 0 — CI configuration (the commands the project's own checks run);
/// 1 — the project's scripts and task files (package.json/composer.json/devbox `scripts`,
///     Makefile, justfile, Taskfile, tox.ini, noxfile.py);
/// 2 — everything else: an ecosystem's default (`cargo test` from Cargo.toml, …).
pub fn test_rank(source: &str) -> u8 {
    let path = source.split(['#', ':']).next().unwrap_or(source);
    let name = crate::detect::repo::file_name(path);
    if is_ci_path(path) {
        0
    } else if source.contains("#scripts")
        || source.contains("#shell.scripts")
        || matches!(
            name,
            "Makefile"
                | "makefile"
                | "GNUmakefile"
                | "justfile"
                | "Justfile"
                | ".justfile"
                | "Taskfile.yml"
                | "Taskfile.yaml"
                | "taskfile.yml"
                | "taskfile.yaml"
                | "tox.ini"
                | "noxfile.py"
        )
    {
        1
    } else {
        2
    }
}

/// CI configuration files, by their conventional paths.
pub fn is_ci_path(path: &str) -> bool {
    path.starts_with(".github/workflows/")
        || path.starts_with(".github/actions/")
        || path.starts_with(".circleci/")
        || path.starts_with(".buildkite/")
        || path.starts_with(".woodpecker")
        || path.starts_with(".gitlab/")
        || matches!(
            path,
            ".gitlab-ci.yml"
                | ".travis.yml"
                | "azure-pipelines.yml"
                | "bitbucket-pipelines.yml"
                | ".drone.yml"
                | "appveyor.yml"
                | ".appveyor.yml"
                | "Jenkinsfile"
                | "cloudbuild.yaml"
        )
}

/// The `note`: toolchains with versions and where from, package managers, the detectors'
/// own facts (workspaces, …), services and test commands.
fn note(d: &Detection, notes: &[String]) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !d.toolchains.is_empty() {
        let items: Vec<String> = d
            .toolchains
            .iter()
            .map(|t| match &t.version {
                Some(v) => format!("{} {v} ({})", ecosystems::display_name(&t.name), t.source),
                None => format!("{} ({})", ecosystems::display_name(&t.name), t.source),
            })
            .collect();
        parts.push(items.join(", "));
    }
    if !d.package_managers.is_empty() {
        let items: Vec<String> = d
            .package_managers
            .iter()
            .map(|p| {
                let mut s = p.name.clone();
                if let Some(v) = &p.version {
                    s.push_str(&format!(" {v}"));
                }
                if p.path != "." {
                    s.push_str(&format!(" in {}", p.path));
                }
                s
            })
            .collect();
        parts.push(items.join(", "));
    }
    let mut seen = HashSet::new();
    parts.extend(notes.iter().filter(|n| seen.insert(n.as_str())).cloned());
    if !d.services.is_empty() {
        let names: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
        parts.push(format!("services: {}", names.join(", ")));
    }
    if !d.tests.is_empty() {
        // The best few: the full list, with evidence, is in `tests`.
        const SHOWN: usize = 3;
        let commands: Vec<&str> = d.tests.iter().take(SHOWN).map(|t| t.command.as_str()).collect();
        let more = d.tests.len().saturating_sub(SHOWN);
        let more = if more > 0 { format!(" (and {more} more)") } else { String::new() };
        parts.push(format!("tests: {}{more}", commands.join(", ")));
    }
    one_line(&parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::findings::Phase;

    fn repo() -> Repo {
        Repo::from_files(std::path::Path::new("/nonexistent/site"), vec![], vec![], 1 << 20)
    }

    #[test]
    fn steps_are_deduplicated_and_ordered_by_phase_then_detector() {
        let mut f = Findings::default();
        f.step(Phase::Install, "pnpm install --frozen-lockfile", "pnpm-lock.yaml");
        f.step(Phase::Toolchain, "corepack enable", "package.json#packageManager");
        f.step(Phase::Install, "uv sync --frozen", "uv.lock");
        f.step(Phase::Install, "pnpm install --frozen-lockfile", "pnpm-workspace.yaml");
        let d = merge(&repo(), f);
        assert_eq!(
            d.install,
            "set -euo pipefail\n# package.json#packageManager\ncorepack enable\n# pnpm-lock.yaml\n\
             pnpm install --frozen-lockfile\n# uv.lock\nuv sync --frozen\n"
        );
    }

    #[test]
    fn secrets_are_checked_and_sorted() {
        let mut f = Findings::default();
        for name in ["STRIPE_KEY", "DATABASE_URL", "PATH", "HANZO_TOKEN", "bad-name", "DATABASE_URL"] {
            f.secret(name, ".env.example");
        }
        let d = merge(&repo(), f);
        assert_eq!(d.secrets, ["DATABASE_URL", "STRIPE_KEY"]);
        assert!(d.warnings.iter().any(|w| w.contains("bad-name")), "{:?}", d.warnings);
        assert!(!d.warnings.iter().any(|w| w.contains("PATH")));
    }

    fn starts(files: &[(&str, &str)]) -> Vec<(String, String)> {
        let d = crate::detect::testing::detection(files);
        d.starts.iter().map(|s| (s.command.clone(), s.source.clone())).collect()
    }

    const APP_AND_DB: &str = "services:\n  app:\n    build: .\n    depends_on: [db]\n  db:\n    image: postgres:${PG:-16}\n  cache:\n    image: bitnami/redis:7\n  proxy:\n    image: nginx\n";

    #[test]
    fn secret_names_are_capped_with_a_warning() {
        let mut f = Findings::default();
        for i in 0..MAX_SECRET_NAMES + 7 {
            f.secret(format!("K{i:04}_TOKEN"), format!("src/m{i}.js:1"));
        }
        let d = merge(&repo(), f);
        assert_eq!(d.secrets.len(), MAX_SECRET_NAMES);
        assert_eq!(d.secrets.last().map(String::as_str), Some("K0499_TOKEN"), "the first found are kept");
        assert!(
            d.warnings.iter().any(|w| w.starts_with("507 secret names found") && w.contains("from src/m500.js:1 on")),
            "{:?}",
            d.warnings
        );
    }

    #[test]
    fn starts_of_every_source_are_ordered_and_each_product_started_once() {
        let workflow = "jobs:\n  t:\n    services:\n      pg:\n        image: postgres\n    steps:\n      - run: docker compose -f ci/compose.yml up -d\n      - run: pytest\n";
        let found = starts(&[
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
        let found: Vec<(&str, &str)> = found.iter().map(|(c, s)| (c.as_str(), s.as_str())).collect();
        assert_eq!(
            found,
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
    fn each_product_is_started_once_and_wider_starts_replace_narrower_ones() {
        let found = starts(&[
            ("cypress/docker-compose.yml", "services:\n  db:\n    image: postgres:15\n"),
            ("docker-compose.yml", "services:\n  db:\n    image: postgres:16\n"),
            ("e2e/compose.yml", "services:\n  pg:\n    image: postgres\n  cache:\n    image: redis\n"),
            (
                "Makefile",
                "db:\n\tdocker compose -f e2e/compose.yml up -d cache\nall:\n\tdocker compose -f e2e/compose.yml up -d cache pg\n",
            ),
        ]);
        let commands: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(commands, ["docker compose up -d db", "docker compose -f e2e/compose.yml up -d cache"]);
    }

    #[test]
    fn root_file_with_override_nested_files_and_skipped_ones() {
        let found = starts(&[
            ("compose.yaml", "services:\n  db:\n    image: mysql:8\n"),
            ("compose.override.yaml", "services:\n  mail:\n    image: axllent/mailpit\n"),
        ]);
        assert_eq!(found, [("docker compose up -d db mail".to_string(), "compose.yaml".to_string())]);
        let d = crate::detect::testing::detection(&[
            ("backend/dev/docker-compose.yml", APP_AND_DB),
            ("examples/demo/compose.yaml", "services:\n  m:\n    image: mongo\n"),
            ("Demo/compose.yaml", "services:\n  m:\n    image: mongo\n"),
            ("deploy/docker-compose.prod.yml", "services:\n  m:\n    image: mysql\n"),
            ("compose.deploy.yml", "services:\n  m:\n    image: mysql\n"),
            ("docker/variants/docker-compose.mariadb.yml", "services:\n  m:\n    image: mariadb\n"),
            ("docker/variants/docker-compose.postgres.yml", "services:\n  p:\n    image: postgres\n"),
        ]);
        assert_eq!(d.start, "docker compose -f backend/dev/docker-compose.yml up -d db cache");
        let services: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(services, ["postgres", "redis"]);
        assert!(d.note.contains("docker/variants/docker-compose.mariadb.yml"), "{}", d.note);
        assert!(d.note.contains("deploy/docker-compose.prod.yml"), "{}", d.note);
    }

    #[test]
    fn ci_service_containers_only_without_any_compose_start() {
        let workflow =
            "jobs:\n  t:\n    services:\n      pg:\n        image: postgres\n    steps:\n      - run: go test ./...\n";
        let found = starts(&[
            (".github/workflows/test.yml", workflow),
            (".devcontainer/devcontainer.json", r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#),
            (".devcontainer/compose.yml", "services:\n  db:\n    image: postgres\n"),
        ]);
        let commands: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(commands, ["docker compose -f .devcontainer/compose.yml up -d db"]);
        let found = starts(&[(".github/workflows/test.yml", workflow)]);
        let commands: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(commands, ["docker run -d --name pg postgres"]);
    }

    #[test]
    fn tests_rank_ci_then_scripts_then_defaults() {
        let mut f = Findings::default();
        f.test("cargo test", "Cargo.toml");
        f.test("make test", "Makefile:4");
        f.test("cargo test --workspace", ".github/workflows/ci.yml#jobs.test");
        f.test("pnpm test", "package.json#scripts.test");
        let d = merge(&repo(), f);
        let commands: Vec<&str> = d.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(commands, ["cargo test --workspace", "make test", "pnpm test", "cargo test"]);
    }

    #[test]
    fn pinned_toolchains_win_and_duplicates_fold() {
        let mut f = Findings::default();
        f.toolchain("node", None, "package.json");
        f.toolchain("node", Some("20".into()), ".nvmrc");
        f.toolchain("node", Some("20".into()), ".tool-versions");
        f.toolchain("python", None, "pyproject.toml");
        f.package_manager("pnpm", None, ".", "pnpm-lock.yaml");
        f.package_manager("pnpm", Some("9.1.0".into()), ".", "package.json#packageManager");
        f.service("postgres", None, "ci.yml");
        f.service("postgres", Some("postgres:16".into()), "compose.yaml");
        let d = merge(&repo(), f);
        let tc: Vec<(&str, Option<&str>)> =
            d.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
        assert_eq!(tc, [("node", Some("20")), ("python", None)]);
        assert_eq!(d.package_managers.len(), 1);
        assert_eq!(d.package_managers[0].version.as_deref(), Some("9.1.0"));
        assert_eq!(d.services[0].image.as_deref(), Some("postgres:16"));
        assert!(d.note.starts_with("Node 20 (.nvmrc), Python (pyproject.toml); pnpm 9.1.0"), "{}", d.note);
    }

    #[test]
    fn an_install_over_the_server_limit_is_a_warning() {
        let mut f = Findings::default();
        for i in 0..2000 {
            f.step(Phase::Install, format!("(cd services/s{i} && go mod download)"), format!("services/s{i}/go.mod"));
        }
        let d = merge(&repo(), f);
        assert!(d.install.len() > crate::names::MAX_SCRIPT_BYTES);
        assert!(d.warnings.iter().any(|w| w.starts_with("install is ") && w.contains("16384")), "{:?}", d.warnings);
    }

    #[test]
    fn nothing_found_is_an_empty_install() {
        let d = merge(&repo(), Findings::default());
        assert_eq!(d.install, "");
        assert_eq!(d.start, "");
        assert_eq!(d.repo, "site");
    }
}
