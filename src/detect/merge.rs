//! Merge the findings of every detector into one deterministic [`Detection`].
//!
//! Rules (all stable: the same tree always gives the same bytes):
//! - install steps: deduplicated by command (first wins), ordered by [`Phase`], then by the
//!   order the detectors ran in (the order of `detectors::ALL`), then by finding order;
//! - start: the deduplicated `starts`, joined with ` && `; a `docker compose … up` whose
//!   services an earlier one already starts is dropped, and one that starts a superset of
//!   an earlier one's services (same compose files) takes its place;
//! - toolchains: one entry per (name, version); for each name a pinned version comes before
//!   an unpinned one, otherwise the first detector wins;
//! - package managers: one per (name, path), the first one seen, with a version filled in
//!   from a later duplicate when the first had none;
//! - services: one per name, the first one seen, with an image filled in the same way;
//! - secrets: deduplicated, checked with [`crate::names::validate_secret_name`], sorted;
//! - tests: deduplicated by command and ordered by [`test_rank`] of their source.

use std::collections::HashSet;

use serde::Serialize;

use crate::detect::{Findings, PackageManager, Repo, Secret, Service, Start, Step, TestCommand, Toolchain};

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
    let starts = merge_starts(dedup_by_key(starts, |s| s.command.trim().to_string()));
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

/// A `docker compose [-f FILE]… up [flags] [SERVICE…]` start, parsed.
struct ComposeUp {
    files: Vec<String>,
    /// Empty: every service of the files.
    services: Vec<String>,
}

fn compose_up(command: &str) -> Option<ComposeUp> {
    if command.contains("&&") || command.contains(';') || command.contains('|') {
        return None;
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    let rest = match words.as_slice() {
        ["docker", "compose", rest @ ..] => rest,
        ["docker-compose", rest @ ..] => rest,
        _ => return None,
    };
    let mut files = Vec::new();
    let mut words = rest.iter();
    loop {
        match *words.next()? {
            "-f" | "--file" => files.push(words.next()?.to_string()),
            "-p" | "--project-name" | "--env-file" | "--profile" => {
                words.next()?;
            }
            "up" => break,
            flag if flag.starts_with('-') => {}
            _ => return None,
        }
    }
    // After `up`: flags (none of `up`'s used here take a separate value) and service names.
    let services = words.filter(|w| !w.starts_with('-')).map(|w| w.to_string()).collect();
    Some(ComposeUp { files, services })
}

fn merge_starts(starts: Vec<Start>) -> Vec<Start> {
    let mut kept: Vec<(Start, Option<ComposeUp>)> = Vec::new();
    for start in starts {
        let Some(up) = compose_up(&start.command) else {
            kept.push((start, None));
            continue;
        };
        let covered = kept.iter().any(|(_, k)| {
            k.as_ref().is_some_and(|k| {
                if k.services.is_empty() {
                    k.files == up.files
                } else {
                    !up.services.is_empty() && up.services.iter().all(|s| k.services.contains(s))
                }
            })
        });
        if covered {
            continue;
        }
        // A wider start on the same files replaces the narrower ones, in the first one's place.
        let narrower = |k: &ComposeUp| {
            k.files == up.files
                && (up.services.is_empty()
                    || (!k.services.is_empty() && k.services.iter().all(|s| up.services.contains(s))))
        };
        match kept.iter().position(|(_, k)| k.as_ref().is_some_and(narrower)) {
            Some(first) => {
                kept.retain(|(_, k)| !k.as_ref().is_some_and(narrower));
                let at = first.min(kept.len());
                kept.insert(at, (start, Some(up)));
            }
            None => kept.push((start, Some(up))),
        }
    }
    kept.into_iter().map(|(start, _)| start).collect()
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

fn merge_toolchains(toolchains: Vec<Toolchain>) -> Vec<Toolchain> {
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

fn merge_services(services: Vec<Service>) -> Vec<Service> {
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
/// 1 — the project's scripts and task files (package.json/composer.json `scripts`, Makefile,
///     justfile, Taskfile, tox.ini, noxfile.py);
/// 2 — everything else: an ecosystem's default (`cargo test` from Cargo.toml, …).
pub fn test_rank(source: &str) -> u8 {
    let path = source.split(['#', ':']).next().unwrap_or(source);
    let name = crate::detect::repo::file_name(path);
    if is_ci_path(path) {
        0
    } else if source.contains("#scripts")
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
                Some(v) => format!("{} {v} ({})", display_name(&t.name), t.source),
                None => format!("{} ({})", display_name(&t.name), t.source),
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

fn display_name(toolchain: &str) -> String {
    match toolchain {
        "node" => "Node".into(),
        "python" => "Python".into(),
        "rust" => "Rust".into(),
        "go" => "Go".into(),
        "java" => "Java".into(),
        "kotlin" => "Kotlin".into(),
        "ruby" => "Ruby".into(),
        "php" => "PHP".into(),
        "elixir" => "Elixir".into(),
        "erlang" => "Erlang".into(),
        "dotnet" => ".NET".into(),
        "deno" => "Deno".into(),
        "bun" => "Bun".into(),
        "swift" => "Swift".into(),
        "dart" => "Dart".into(),
        "flutter" => "Flutter".into(),
        "zig" => "Zig".into(),
        "cpp" => "C/C++".into(),
        "haskell" => "Haskell".into(),
        "scala" => "Scala".into(),
        "clojure" => "Clojure".into(),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::Phase;

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
    fn starts_join_and_secrets_are_checked_and_sorted() {
        let mut f = Findings::default();
        f.start("docker compose up -d postgres", "compose.yaml");
        f.start("docker compose up -d postgres", "compose.yaml");
        f.start("redis-server --daemonize yes", "Makefile:3");
        for name in ["STRIPE_KEY", "DATABASE_URL", "PATH", "HANZO_TOKEN", "bad-name", "DATABASE_URL"] {
            f.secret(name, ".env.example");
        }
        let d = merge(&repo(), f);
        assert_eq!(d.start, "docker compose up -d postgres && redis-server --daemonize yes");
        assert_eq!(d.secrets, ["DATABASE_URL", "STRIPE_KEY"]);
        assert!(d.warnings.iter().any(|w| w.contains("bad-name")), "{:?}", d.warnings);
        assert!(!d.warnings.iter().any(|w| w.contains("PATH")));
    }

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
    fn compose_starts_that_add_nothing_are_dropped() {
        let mut f = Findings::default();
        f.start("docker compose up -d db", ".github/workflows/test.yml");
        f.start("docker compose up -d db mailpit", "compose.yml");
        f.start("docker compose -f compose.yml -f compose.deploy.yml up -d db", "deploy.yml");
        f.start("docker compose -f tests/compose.yml up -d redis", "tests/compose.yml");
        f.start("make services", "Makefile:3");
        let d = merge(&repo(), f);
        assert_eq!(
            d.start,
            "docker compose up -d db mailpit && docker compose -f tests/compose.yml up -d redis && make services"
        );
        assert_eq!(d.starts[0].source, "compose.yml");
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
