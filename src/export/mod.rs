//! `hanzo-env export`: the one environment, written as the files other coding agents read —
//! Copilot's `copilot-setup-steps.yml`, Cursor's `.cursor/environment.json`, a dev container
//! and the setup section of `AGENTS.md` — and the check that they still match.
//!
//! Every target renders from one [`Setup`], built from a [`Detection`] and, when the checkout
//! has one, the reviewed `.hanzo/environment.toml`. How the two combine:
//! - `install`, `start` and `secrets` come from the reviewed file when it exists (a reviewed
//!   file is what gets exported; the file is the record `save` sends), else from detection;
//! - toolchains with their pins, package managers, services (image, env, ports) and test
//!   commands always come from detection: the file does not record them;
//! - evidence (the `source` of a start or a secret) is taken from detection for the lines
//!   the two share, so a reviewed line detection also found still names its file.
//!
//! Rendering is pure: text in, text out. Writing, refusing to overwrite and the terminal
//! belong to `commands/export.rs`.

pub mod agents_md;
pub mod copilot;
pub mod cursor;
pub mod devcontainer;
pub mod yaml;

use crate::detect::{Detection, PackageManager, Service, Start, TestCommand, Toolchain};
use crate::proposal::Proposal;

/// The agent files `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Cursor,
    Copilot,
    Devcontainer,
    AgentsMd,
}

impl Target {
    pub const ALL: [Target; 4] = [Target::Copilot, Target::Cursor, Target::Devcontainer, Target::AgentsMd];

    /// The name `--to` takes.
    pub fn name(self) -> &'static str {
        match self {
            Target::Cursor => "cursor",
            Target::Copilot => "copilot",
            Target::Devcontainer => "devcontainer",
            Target::AgentsMd => "agents-md",
        }
    }

    /// The file the agent reads, repo-relative.
    pub fn primary_path(self) -> &'static str {
        match self {
            Target::Cursor => cursor::PATH,
            Target::Copilot => copilot::PATH,
            Target::Devcontainer => devcontainer::PATH,
            Target::AgentsMd => agents_md::PATH,
        }
    }
}

/// Where install, start and secrets came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The reviewed `.hanzo/environment.toml`.
    Reviewed,
    /// Detection alone (the checkout has no `.hanzo/environment.toml`).
    Detected,
}

/// One start command, with the file that justifies it when detection found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartCommand {
    pub command: String,
    pub source: Option<String>,
}

/// Everything an export is rendered from.
#[derive(Debug, Clone)]
pub struct Setup {
    pub repo: String,
    pub origin: Origin,
    /// The install script as it runs alone: the plan with its helpers' text.
    pub install: String,
    /// install and start as a person reviews them (helpers named on one line): what a
    /// person would type, for AGENTS.md.
    pub plan_install: String,
    pub plan_start: String,
    /// The whole start command, as the file or detection has it.
    pub start: String,
    /// `start` split at its top-level `&&`: each is a service start or a process.
    pub starts: Vec<StartCommand>,
    /// Secret names, each with the file that reads it when detection found it.
    pub secrets: Vec<(String, Option<String>)>,
    pub toolchains: Vec<Toolchain>,
    pub package_managers: Vec<PackageManager>,
    pub services: Vec<Service>,
    /// Test commands, the one CI runs first: the first is the primary one.
    pub tests: Vec<TestCommand>,
}

/// One toolchain per name, the strongest: detection lists a name's pins strongest first (CI's
/// exact `1.20.3` before a manifest's floor `1.18`), and a setup action takes one version.
fn strongest_per_name(toolchains: &[Toolchain]) -> Vec<Toolchain> {
    let mut kept: Vec<Toolchain> = Vec::new();
    for toolchain in toolchains {
        if !kept.iter().any(|k| k.name == toolchain.name) {
            kept.push(toolchain.clone());
        }
    }
    kept
}

impl Setup {
    pub fn new(detection: &Detection, reviewed: Option<&Proposal>) -> Result<Setup, BlockError> {
        let (origin, plan_install, plan_start, secret_names) = match reviewed {
            Some(p) => (Origin::Reviewed, p.install.clone(), p.start.clone(), p.secrets.clone()),
            None => (Origin::Detected, detection.install.clone(), detection.start.clone(), detection.secrets.clone()),
        };
        let install = block::expand(&plan_install)?;
        let start = block::expand(&plan_start)?;
        let detected = plan_start == detection.start;
        let starts = if crate::plan::render::is_services_script(&plan_start) {
            // One script that tries Docker, then the distribution's packages: kept whole.
            let sources: Vec<String> = detection.starts.iter().map(|s| s.source.to_string()).collect();
            let source = (detected && !sources.is_empty()).then(|| sources.join(", "));
            vec![StartCommand { command: start.trim().to_string(), source }]
        } else if detected && !detection.starts.is_empty() && !start.contains('\n') {
            // The detection's own start: its commands as merge chose them.
            let each = |s: &Start| -> Vec<StartCommand> {
                let source = Some(s.source.to_string());
                s.commands()
                    .iter()
                    .map(|c| StartCommand { command: c.trim().to_string(), source: source.clone() })
                    .collect()
            };
            detection.starts.iter().flat_map(each).collect()
        } else {
            // A start a person wrote (or one with CI's seeds after it): its top-level commands,
            // with the evidence of a detected command it kept.
            let source_of = |command: &str| {
                detection.starts.iter().find(|s| s.command.trim() == command).map(|s| s.source.to_string())
            };
            split_commands(&start)
                .into_iter()
                .map(|command| StartCommand { source: source_of(&command), command })
                .collect()
        };
        let secrets = secret_names
            .into_iter()
            .map(|name| {
                let source = detection.secret_details.iter().find(|s| s.name == name).map(|s| s.source.to_string());
                (name, source)
            })
            .collect();
        Ok(Setup {
            repo: reviewed.and_then(|p| p.repo.clone()).unwrap_or_else(|| detection.repo.clone()),
            origin,
            install,
            plan_install: block::collapse(&plan_install),
            plan_start: block::collapse(&plan_start),
            start,
            starts,
            secrets,
            toolchains: strongest_per_name(&detection.toolchains),
            package_managers: detection.package_managers.clone(),
            services: detection.services.clone(),
            tests: detection.tests.clone(),
        })
    }

    /// Where install/start/secrets came from and how to change them, for the generated
    /// files' header.
    pub fn origin_label(&self) -> &'static str {
        match self.origin {
            Origin::Reviewed => ".hanzo/environment.toml: edit that file, then export again",
            Origin::Detected => {
                "what `hanzo-env detect` found: write .hanzo/environment.toml with it, review it, then export again"
            }
        }
    }

    /// Services that can run from an image (a service without one cannot be started).
    /// The setup with the install's calls of the stock helper `helper` left out (read from
    /// the plan's lines, where each call is a line of its own).
    pub fn without_helper(&self, helper: &str) -> Setup {
        let called = |line: &str| line.split_whitespace().next() == Some(helper);
        let plan: Vec<&str> = self.plan_install.lines().filter(|l| !called(l)).collect();
        let mut plan = plan.join("\n");
        if self.plan_install.ends_with('\n') {
            plan.push('\n');
        }
        // The plan expanded once already; without a line it expands the same way.
        let install = block::expand(&plan).unwrap_or_else(|_| self.install.clone());
        Setup { install, plan_install: plan, ..self.clone() }
    }

    pub fn runnable_services(&self) -> impl Iterator<Item = &Service> {
        self.services.iter().filter(|s| s.image.is_some())
    }
}

/// One generated file: a repo-relative path (`/`-separated) and its full contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportFile {
    pub path: String,
    pub contents: String,
}

/// What one target renders to: its files, the primary one first, and what it could not say.
#[derive(Debug, Clone, Default)]
pub struct Exported {
    pub files: Vec<ExportFile>,
    /// What the export leaves out or assumes, one line each (shown on stderr).
    pub notes: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{path}: {detail}")]
    Markers { path: String, detail: String },
}

impl crate::diagnostic::Diagnostic for ExportError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            ExportError::Markers { .. } => format!(
                "keep exactly one `{}` line and one `{}` line after it (or remove both to append a new section)",
                agents_md::START_MARKER,
                agents_md::END_MARKER
            ),
        })
    }
}

/// Render `target`. `existing_agents_md` is the current `AGENTS.md` (only that target edits
/// a file in place).
pub fn render(target: Target, setup: &Setup, existing_agents_md: Option<&str>) -> Result<Exported, ExportError> {
    Ok(match target {
        Target::Copilot => copilot::render(setup),
        Target::Cursor => cursor::render(setup),
        Target::Devcontainer => devcontainer::render(setup),
        Target::AgentsMd => agents_md::render(setup, existing_agents_md)?,
    })
}

/// The first line of every generated file's header (comment syntax aside): `--check` looks
/// for it to tell a file `export` wrote from one written by hand.
pub use crate::detect::repo::GENERATED_BY;

fn header(target: Target, setup: &Setup) -> String {
    format!("{GENERATED_BY} --to {}` from {}.", target.name(), setup.origin_label())
}

/// `a && (cd web && b) && c` → `a`, `(cd web && b)`, `c`: split at `&&` outside quotes,
/// parentheses and braces.
pub fn split_commands(script: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut chars = script.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                current.push(c);
                if let Some(next) = chars.next() {
                    current.push(next);
                }
                continue;
            }
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '{') => depth += 1,
            (None, ')' | '}') => depth = depth.saturating_sub(1),
            (None, '&') if depth == 0 && chars.peek() == Some(&'&') => {
                chars.next();
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts.into_iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()
}

/// The service starts of `start`: the Docker commands of a services script (see
/// [`crate::plan::render::services`]), else its top-level `&&` parts.
pub fn start_commands(start: &str) -> Vec<String> {
    match crate::plan::render::docker_commands(start) {
        Some(lines) => lines.iter().flat_map(|line| split_commands(line)).collect(),
        None => split_commands(start),
    }
}

/// How a start command behaves: it brings up containers and returns, or it keeps running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartKind {
    /// `docker compose … up -d …`, `docker run -d …`: containers in the background.
    Services,
    /// Anything else: a process left running (a dev server, a worker).
    Process,
}

pub fn start_kind(command: &str) -> StartKind {
    if crate::plan::render::is_services_script(command) {
        return StartKind::Services;
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    let detached = words.iter().any(|w| matches!(*w, "-d" | "--detach" | "--wait") || is_short_flags_with_d(w));
    let is_compose_up = match words.as_slice() {
        ["docker", "compose", rest @ ..] | ["docker-compose", rest @ ..] => rest.contains(&"up"),
        _ => false,
    };
    let is_docker_run = matches!(words.as_slice(), ["docker", "run", ..] | ["docker", "container", "run", ..]);
    if (is_compose_up || is_docker_run) && detached { StartKind::Services } else { StartKind::Process }
}

/// `-dit`, `-td`: short flags run together, one of them `d`.
fn is_short_flags_with_d(word: &str) -> bool {
    word.strip_prefix('-').is_some_and(|flags| {
        !flags.starts_with('-')
            && flags.len() > 1
            && flags.chars().all(|c| c.is_ascii_alphabetic())
            && flags.contains('d')
    })
}

/// The container port of a `HOST:CONTAINER[/proto]` (or bare `PORT`) mapping.
pub fn container_port(mapping: &str) -> Option<u16> {
    let port = mapping.rsplit(':').next()?.split('/').next()?;
    port.trim().parse().ok()
}

/// Text that stays on one line in a comment or a heading.
fn one_line(text: &str) -> String {
    crate::detect::merge::one_line(text)
}

use crate::plan::block::{self, BlockError};
use crate::plan::quote as shell_quote;

/// An install script as a file for `bash`: a shebang, the header, strict mode unless the
/// script already sets it, then the script.
fn install_script_file(target: Target, setup: &Setup) -> String {
    let mut out = script_header(target, setup);
    let first_command = setup.install.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
    if first_command != Some("set -euo pipefail") {
        out.push_str("set -euo pipefail\n");
    }
    out.push_str(setup.install.trim_end_matches('\n'));
    out.push('\n');
    out
}

/// A script file the exported configuration runs (`bash .cursor/start.sh`), as the script is.
fn script_file(target: Target, setup: &Setup, script: &str) -> String {
    format!("{}{}\n", script_header(target, setup), script.trim_end_matches('\n'))
}

fn script_header(target: Target, setup: &Setup) -> String {
    format!("#!/usr/bin/env bash\n# {}\n", header(target, setup))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::detect::merge::SecretDetail;
    use crate::detect::{Start, Step};
    use crate::evidence::ev;

    /// A detection as a Node + Python repo with postgres and redis would give, built by hand
    /// (ports and env filled in, as compose files supply them).
    pub fn detection() -> Detection {
        let mut postgres = Service {
            name: "postgres".into(),
            image: Some("postgres:16-alpine".into()),
            source: ev("compose.yaml#services.db"),
            ports: vec!["5432:5432".into()],
            env: Default::default(),
            package: None,
        };
        postgres.env.insert("POSTGRES_PASSWORD".into(), "shop".into());
        postgres.env.insert("POSTGRES_USER".into(), "shop".into());
        let redis = Service {
            name: "redis".into(),
            image: Some("redis:7".into()),
            source: ev("compose.yaml#services.cache"),
            ports: vec!["6379:6379".into()],
            env: Default::default(),
            package: None,
        };
        Detection {
            repo: "shop".into(),
            install: "set -euo pipefail\n# pnpm-lock.yaml\npnpm install --frozen-lockfile\n# api/uv.lock\n(cd api && uv sync --frozen)\n".into(),
            start: "docker compose up -d db cache && pnpm dev".into(),
            secrets: vec!["DATABASE_URL".into(), "STRIPE_SECRET_KEY".into()],
            toolchains: vec![
                Toolchain { name: "node".into(), version: crate::detect::sources::version::Pin::parse("20"), source: ev(".nvmrc") },
                Toolchain { name: "python".into(), version: crate::detect::sources::version::Pin::parse("3.12"), source: ev("api/.python-version") },
            ],
            package_managers: vec![
                PackageManager {
                    name: "pnpm".into(),
                    version: Some("9.12.0".into()),
                    path: ".".into(),
                    source: ev("package.json#packageManager"),
                },
                PackageManager {
                    name: "uv".into(),
                    version: None,
                    path: "api".into(),
                    source: ev("api/uv.lock"),
                },
            ],
            services: vec![postgres, redis],
            tests: vec![
                TestCommand { command: "pnpm test".into(), source: ev("package.json#scripts.test"), primary: true, ..Default::default() },
                TestCommand { command: "(cd api && uv run pytest)".into(), source: ev("api/pyproject.toml"), ..Default::default() },
            ],
            steps: vec![
                Step::shell(crate::detect::Phase::Install, "pnpm install --frozen-lockfile", ev("pnpm-lock.yaml")),
                Step::shell(crate::detect::Phase::Install, "(cd api && uv sync --frozen)", ev("api/uv.lock")),
            ],
            starts: vec![
                Start { command: "docker compose up -d db cache".into(), source: ev("compose.yaml"), origin: crate::detect::findings::StartOrigin::RootCompose, compose: None, containers: Vec::new(), runs: Vec::new() },
                Start { command: "pnpm dev".into(), source: ev("package.json#scripts.dev"), origin: crate::detect::findings::StartOrigin::RootCompose, compose: None, containers: Vec::new(), runs: Vec::new() },
            ],
            secret_details: vec![
                SecretDetail { name: "DATABASE_URL".into(), required: true, source: ev(".env.example:1"), why: "listed in .env.example".into() },
                SecretDetail { name: "STRIPE_SECRET_KEY".into(), required: true, source: ev("web/src/pay.ts:1"), why: "process.env".into() },
            ],
            ..Detection::default()
        }
    }

    pub fn setup() -> Setup {
        Setup::new(&detection(), None).unwrap()
    }

    #[test]
    fn a_reviewed_file_supplies_install_start_and_secrets() {
        let reviewed = Proposal {
            repo: Some("shop-web".into()),
            install: "pnpm install --frozen-lockfile\n".into(),
            start: "docker compose up -d db".into(),
            secrets: vec!["DATABASE_URL".into(), "SENTRY_DSN".into()],
            ..Proposal::default()
        };
        let setup = Setup::new(&detection(), Some(&reviewed)).unwrap();
        assert_eq!(setup.origin, Origin::Reviewed);
        assert_eq!(setup.repo, "shop-web");
        assert_eq!(setup.install, "pnpm install --frozen-lockfile\n");
        assert_eq!(setup.starts, [StartCommand { command: "docker compose up -d db".into(), source: None }]);
        assert_eq!(
            setup.secrets,
            [("DATABASE_URL".into(), Some(".env.example:1".into())), ("SENTRY_DSN".into(), None)]
        );
        // What the file does not record still comes from detection.
        assert_eq!(setup.toolchains.len(), 2);
        assert_eq!(setup.services.len(), 2);
        let detected = super::tests::setup();
        assert_eq!(detected.origin, Origin::Detected);
        assert_eq!(
            detected.starts[1],
            StartCommand { command: "pnpm dev".into(), source: Some("package.json#scripts.dev".into()) }
        );
    }

    #[test]
    fn one_pin_per_toolchain_the_strongest() {
        let pin = |name: &str, version: &str, source: &str| Toolchain {
            name: name.into(),
            version: crate::detect::sources::version::Pin::parse(version),
            source: ev(source),
        };
        let detection = Detection {
            toolchains: vec![
                pin("elixir", "1.20.3", ".github/workflows/main.yml#jobs.test.steps[1]"),
                pin("elixir", "1.18", "mix.exs:8"),
                pin("erlang", "28.1", ".github/workflows/main.yml#jobs.test.steps[1]"),
            ],
            ..Detection::default()
        };
        let setup = Setup::new(&detection, None).unwrap();
        let kept: Vec<(&str, Option<&str>)> =
            setup.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
        assert_eq!(kept, [("elixir", Some("1.20.3")), ("erlang", Some("28.1"))]);
    }

    #[test]
    fn commands_split_at_top_level_ands_only() {
        assert_eq!(
            split_commands("docker compose up -d db && (cd web && pnpm dev) && echo 'a && b' && { x && y; }"),
            ["docker compose up -d db", "(cd web && pnpm dev)", "echo 'a && b'", "{ x && y; }"]
        );
        assert_eq!(split_commands(""), Vec::<String>::new());
        assert_eq!(split_commands("echo \"q \\\" && still\" && b"), ["echo \"q \\\" && still\"", "b"]);
    }

    #[test]
    fn starts_are_services_or_processes() {
        for c in [
            "docker compose up -d db",
            "docker compose -f x.yml up --detach",
            "docker-compose up -d",
            "docker run -dit --name r redis",
            "docker compose up --wait",
        ] {
            assert_eq!(start_kind(c), StartKind::Services, "{c}");
        }
        for c in ["pnpm dev", "docker compose up", "docker run redis", "redis-server --daemonize yes", "make -d up"] {
            assert_eq!(start_kind(c), StartKind::Process, "{c}");
        }
    }

    #[test]
    fn container_ports() {
        assert_eq!(container_port("5432:5432"), Some(5432));
        assert_eq!(container_port("127.0.0.1:15432:5432/tcp"), Some(5432));
        assert_eq!(container_port("6379"), Some(6379));
        assert_eq!(container_port("x"), None);
    }

    #[test]
    fn install_files_get_strict_mode_once() {
        let mut setup = setup();
        let file = install_script_file(Target::Cursor, &setup);
        assert_eq!(file.matches("set -euo pipefail").count(), 1, "{file}");
        assert!(file.starts_with("#!/usr/bin/env bash\n# Generated by `hanzo-env export --to cursor`"));
        setup.install = "npm ci\nnpm run build".into();
        let file = install_script_file(Target::Cursor, &setup);
        assert!(file.ends_with("set -euo pipefail\nnpm ci\nnpm run build\n"), "{file}");
    }

    #[test]
    fn shell_words() {
        assert_eq!(shell_quote("pnpm"), "pnpm");
        assert_eq!(shell_quote("it's $HOME"), "'it'\\''s $HOME'");
    }
}
