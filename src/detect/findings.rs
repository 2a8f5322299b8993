//! What a detector reports. Every item carries its evidence in `source`: the file, the
//! place in it and its kind ([`Evidence`]); the kind ranks duplicates in merge.

use crate::warning::Warning;
use serde::Serialize;

pub use crate::evidence::{Anchor, Evidence, Kind};

use crate::detect::sources::compose::{ComposeStart, StartedService};
use crate::detect::sources::version::Pin;
use crate::detect::sources::workflows::{EnvValue, JobService};

/// A language toolchain. `name` is one of: node python rust go java kotlin ruby php elixir
/// erlang dotnet deno bun swift dart flutter zig cpp haskell scala clojure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Toolchain {
    pub name: String,
    /// A pinned version as the repo states it (`20`, `3.12`, `1.96`), `None` when not pinned.
    /// A [`Pin`], so what renders it into shell or YAML holds a checked version.
    pub version: Option<Pin>,
    pub source: Evidence,
}

/// A package manager. `name` is one of: npm yarn pnpm bun pip uv poetry pdm pipenv hatch
/// cargo go maven gradle bundler composer mix nuget swiftpm pub stack cabal sbt lein
/// clojure-cli cmake meson make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackageManager {
    pub name: String,
    pub version: Option<String>,
    /// The directory it manages, repo-relative; `.` for the root.
    pub path: String,
    pub source: Evidence,
}

/// A background service the tests need. `name` is the canonical product
/// (see [`crate::detect::sources::images::canonical_service`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Service {
    pub name: String,
    pub image: Option<String>,
    pub source: Evidence,
    /// Published ports as `HOST:CONTAINER` (what the tests connect to), as the compose file
    /// or CI job states them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<String>,
    /// The container's environment as the compose file or CI job states it (user, password,
    /// database name), sorted by key.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub env: std::collections::BTreeMap<String, String>,
    /// The distribution package `start` runs it from where Docker cannot (set by merge);
    /// absent when only Docker brings it up, or nothing does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TestCommand {
    pub command: String,
    pub source: Evidence,
    /// The one a developer runs before pushing (the first of the list; see merge).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub primary: bool,
    /// The lines it runs when it names a task-file target (the target's recipe).
    #[serde(skip)]
    pub runs: Vec<String>,
    /// From a CI workflow that tests a variant of the suite (see `Job::partial`).
    #[serde(skip)]
    pub partial: bool,
    /// What CI builds for this test, in its job (`yarn build`) or another whose artifact it
    /// uses (`pnpm run compile`): run before the command, every time, as a developer would
    /// after an edit.
    #[serde(skip)]
    pub built_first: Vec<String>,
    /// Files its CI job makes from committed ones before the tests (`cp .env.example
    /// .env`), and the toolchain channel it runs on (`rustup toolchain install nightly`):
    /// install steps when this is the primary.
    #[serde(skip)]
    pub placed_first: Vec<Step>,
}

/// What a piece of evidence (a read in code, an env file, CI) says about whether the
/// project needs a variable set, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Need {
    /// The code fails without it: `os.environ["X"]`, `System.fetch_env!`, `ENV.fetch("X")`,
    /// a settings field without a default, `${X}` in a Spring file.
    Required,
    /// Read plainly (`os.getenv("X")`, `process.env.X`): what happens without it is the
    /// code's business, so other evidence decides.
    Unstated,
    /// The code does without it: a read with a default, an optional schema field, a read in
    /// production-only configuration.
    Optional,
}

/// A secret name the code or its config reads, with one piece of evidence for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    pub name: String,
    pub source: Evidence,
    /// What this evidence says about whether the tests need it.
    pub need: Need,
    /// The evidence in words (`BaseSettings field, no default`, `set for the CI test job`).
    pub why: String,
}

pub use crate::plan::{Phase, Step};

impl Service {
    /// A backing service a compose start brings up, cited at its definition.
    pub fn started(started: &StartedService, kind: Kind) -> Service {
        let service = &started.service;
        Service {
            name: started.product.clone(),
            image: service.image.clone(),
            source: Evidence::key(&started.file, format!("services.{}", service.name)).of(kind),
            ports: service.ports.clone(),
            env: service.env.clone(),
            package: None,
        }
    }

    /// A CI job's service container running `image` (one of its images), cited at its
    /// definition: its published ports, and its literal `env` (a secret's value is not known).
    pub fn ci_container(service: &JobService, image: &str, product: String, kind: Kind) -> Service {
        Service {
            name: product,
            image: Some(image.to_string()),
            source: service.source.clone().of(kind),
            ports: service.published_ports(),
            env: service
                .env
                .iter()
                .filter_map(|(k, v)| match v {
                    EnvValue::Literal(value) => Some((k.clone(), value.clone())),
                    EnvValue::Secret(_) | EnvValue::Unknown => None,
                })
                .collect(),
            package: None,
        }
    }
}

/// A candidate for the background `start` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Start {
    pub command: String,
    pub source: Evidence,
    pub origin: StartOrigin,
    /// What the command brings up, when it is a `docker compose … up`.
    pub compose: Option<ComposeStart>,
    /// The CI service containers it brings up, when it is `docker run`s of them.
    pub containers: Vec<Service>,
    /// The `docker run` of each of those containers, which `command` joins with `&&`.
    pub runs: Vec<String>,
}

impl Start {
    /// The commands it is made of: each container's `docker run`, else the command itself.
    pub fn commands(&self) -> Vec<&str> {
        if self.runs.is_empty() { vec![self.command.as_str()] } else { self.runs.iter().map(String::as_str).collect() }
    }
}

/// Where a start candidate comes from, in the order merge considers them: the agent setup
/// the owners wrote, the root's default compose file (what people run), what CI's jobs bring
/// up for their tests (exactly what the tests need), the dev container's services, task
/// files, package scripts, then the project's other compose files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum StartOrigin {
    /// What the owners start for agents (Cursor's `start`).
    AgentSetup,
    RootCompose,
    Ci,
    DevContainer,
    Task,
    Script,
    ComposeFile,
}

/// Everything the detectors found, in the order they found it.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    pub toolchains: Vec<Toolchain>,
    pub package_managers: Vec<PackageManager>,
    pub services: Vec<Service>,
    pub tests: Vec<TestCommand>,
    pub secrets: Vec<Secret>,
    pub steps: Vec<Step>,
    pub starts: Vec<Start>,
    /// Commands that prepare the started services (CI's `psql -c "CREATE ROLE …"` before
    /// its tests), with their evidence; start runs them once the services answer.
    pub seeds: Vec<(String, Evidence)>,
    /// Short facts for the `note` ("pnpm workspace of 4 packages").
    pub notes: Vec<String>,
    pub warnings: Vec<Warning>,
}

impl Findings {
    /// A toolchain an ecosystem's manifests name.
    /// A `version` that pins nothing (a rule's mistake: readers hand over pins and floors) is
    /// left out with a warning rather than carried as text.
    pub fn toolchain(&mut self, name: &str, version: Option<String>, source: Evidence) {
        let pin = version.as_deref().and_then(Pin::parse);
        if let (Some(text), None) = (&version, &pin) {
            self.warn(Warning::at(
                &source,
                format!("{name} version {text:?} pins nothing; {name} is drafted unpinned"),
            ));
        }
        self.toolchains.push(Toolchain { name: name.into(), version: pin, source });
    }
    /// A toolchain whose version is the floor of a manifest's constraint ([`Kind::ManifestFloor`]).
    pub fn toolchain_floor(&mut self, name: &str, version: String, source: Evidence) {
        self.toolchain(name, Some(version), source.of(Kind::ManifestFloor));
    }
    /// A toolchain `source` names, said to be of the kind `kind` (a pin CI's setup step
    /// takes, a package a dev shell lists).
    pub fn toolchain_from(&mut self, kind: Kind, name: &str, version: Option<String>, source: &Evidence) {
        self.toolchain(name, version, source.clone().of(kind));
    }
    pub fn package_manager(&mut self, name: &str, version: Option<String>, path: &str, source: Evidence) {
        self.package_managers.push(PackageManager { name: name.into(), version, path: path.into(), source });
    }
    pub fn package_manager_from(
        &mut self,
        kind: Kind,
        name: &str,
        version: Option<String>,
        path: &str,
        source: &Evidence,
    ) {
        self.package_manager(name, version, path, source.clone().of(kind));
    }
    /// A service an ecosystem's manifests name (a Rails `database.yml` adapter).
    pub fn service(&mut self, name: &str, image: Option<String>, source: Evidence) {
        self.services.push(Service {
            name: name.into(),
            image,
            source,
            ports: Vec::new(),
            env: Default::default(),
            package: None,
        });
    }
    pub fn add_service(&mut self, service: Service) {
        self.services.push(service);
    }
    pub fn test(&mut self, command: impl Into<String>, source: Evidence) {
        self.test_running(command, source, Vec::new());
    }
    /// A test command that runs the lines `runs` (a task-file target and its recipe).
    pub fn test_running(&mut self, command: impl Into<String>, source: Evidence, runs: Vec<String>) {
        self.tests.push(TestCommand { command: command.into(), source, runs, ..TestCommand::default() });
    }
    /// A test command of a CI job, with what the job does for it first.
    pub fn ci_test(&mut self, test: TestCommand) {
        self.tests.push(test);
    }
    pub fn secret(&mut self, name: impl Into<String>, source: Evidence, need: Need, why: impl Into<String>) {
        self.secrets.push(Secret { name: name.into(), source, need, why: why.into() });
    }
    pub fn step(&mut self, phase: Phase, command: impl Into<String>, source: Evidence) {
        self.steps.push(Step::shell(phase, command, source));
    }
    /// A step run in the folder `dir` (repo-relative; `.` or empty is the root).
    pub fn step_in(&mut self, dir: &str, phase: Phase, command: impl Into<String>, source: Evidence) {
        self.steps.push(Step::shell(phase, command, source).in_dir(dir));
    }
    /// A call of a stock helper's function (`hanzo_node 22`), every argument quoted when rendered.
    pub fn helper(&mut self, phase: Phase, function: &'static str, args: Vec<String>, source: Evidence) {
        self.steps.push(Step::helper(phase, function, args, source));
    }
    /// [`Findings::helper`] run in `dir` (a project below the root).
    pub fn helper_in(&mut self, dir: &str, phase: Phase, function: &'static str, source: Evidence) {
        self.steps.push(Step::helper(phase, function, Vec::new(), source).in_dir(dir));
    }
    pub fn start(&mut self, start: Start) {
        self.starts.push(start);
    }
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }
    pub fn warn(&mut self, warning: Warning) {
        self.warnings.push(warning);
    }
    /// (name, version, source) of every toolchain, for assertions.
    #[cfg(test)]
    pub fn toolchain_rows(&self) -> Vec<(&str, Option<&str>, String)> {
        self.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref(), t.source.to_string())).collect()
    }
    /// Append everything `other` found after what this one found.
    pub fn append(&mut self, mut other: Findings) {
        self.toolchains.append(&mut other.toolchains);
        self.package_managers.append(&mut other.package_managers);
        self.services.append(&mut other.services);
        self.tests.append(&mut other.tests);
        self.secrets.append(&mut other.secrets);
        self.steps.append(&mut other.steps);
        self.starts.append(&mut other.starts);
        self.seeds.append(&mut other.seeds);
        self.notes.append(&mut other.notes);
        self.warnings.append(&mut other.warnings);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rel_path::rel;

    #[test]
    fn a_toolchain_carries_a_checked_pin_and_text_that_pins_nothing_is_said_and_dropped() {
        let mut out = Findings::default();
        out.toolchain("node", Some("v20.11.1".into()), Evidence::file(rel!(".nvmrc")));
        out.toolchain("python", Some("3.12; rm -rf /".into()), Evidence::key(rel!("pyproject.toml"), "project"));
        out.toolchain("go", None, Evidence::file(rel!("go.mod")));
        let versions: Vec<_> = out.toolchains.iter().map(|t| t.version.as_deref()).collect();
        assert_eq!(versions, [Some("20.11.1"), None, None]);
        assert_eq!(
            out.warnings.iter().map(Warning::to_string).collect::<Vec<_>>(),
            ["pyproject.toml#project: python version \"3.12; rm -rf /\" pins nothing; python is drafted unpinned"]
        );
    }
}
