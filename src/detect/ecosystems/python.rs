//! Python (uv, poetry, pdm, pipenv, hatch, pip with requirements files).
//!
//! A directory is a Python project when it holds `pyproject.toml`, `setup.py`, `setup.cfg`,
//! `Pipfile` or `requirements*.txt` among the project's own files. A nested one inside
//! another project counts only when it has its own lockfile and is not a uv workspace member.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{Alias, Ecosystem, EnvRead, SetupStep, Toolchain};
use crate::detect::ecosystems::project::{Members, pm_path, toml_workspace};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, file_name, is_within, join, parent_dir, too_deep_for_a_project};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::{self, commands, in_dir, join_path, quote};
use crate::detect::sources::version;
use crate::evidence::Evidence;

mod ci;
mod env;
mod tox;

pub struct Python;

impl Ecosystem for Python {
    fn id(&self) -> &'static str {
        "python"
    }
    fn toolchains(&self) -> &'static [Toolchain] {
        // Every Python is 3: a version pins something only with its minor.
        const TOOLCHAINS: &[Toolchain] = &[Toolchain::new("python", "Python").pinned_with(2)];
        TOOLCHAINS
    }
    fn package_managers(&self) -> &'static [&'static str] {
        &["pip", "uv", "poetry", "pdm", "pipenv", "hatch"]
    }
    fn programs(&self) -> &'static [&'static str] {
        &["python3", "python", "pip", "pip3"]
    }
    fn manifests(&self) -> &'static [&'static str] {
        &["pyproject.toml", "requirements.txt", "setup.py", "setup.cfg", "Pipfile"]
    }
    fn aliases(&self) -> &'static [Alias] {
        const ALIASES: &[Alias] = &[
            Alias::action_with_files("actions/setup-python", "python", &["python-version"], &["python-version-file"]),
            Alias::action("astral-sh/setup-uv", "python", &["python-version"]),
            Alias::action_with_files("pdm-project/setup-pdm", "python", &["python-version"], &["python-version-file"]),
            Alias::image("python", "python"),
            Alias::devcontainer_image("python", "python"),
            Alias::feature("python", "python"),
            Alias::nix_compact("python", "python"),
            Alias::tool("python", "python"),
            Alias::package_manager_tool("poetry", "poetry"),
            Alias::package_manager_tool("uv", "uv"),
            Alias::package_manager_tool("pdm", "pdm"),
            Alias::package_manager_tool("pipenv", "pipenv"),
            Alias::package_manager_tool("hatch", "hatch"),
        ];
        ALIASES
    }
    fn setup_steps(&self) -> &'static [SetupStep] {
        const STEPS: &[SetupStep] = &[
            SetupStep::new("python", "actions/setup-python@v5", "python-version"),
            SetupStep::new("uv", "astral-sh/setup-uv@v6", "version"),
            SetupStep::new("pdm", "pdm-project/setup-pdm@v4", "version"),
        ];
        STEPS
    }
    fn devcontainer_features(&self) -> &'static [(&'static str, &'static str)] {
        &[("python", "ghcr.io/devcontainers/features/python:1")]
    }
    fn test_commands(&self) -> &'static [&'static str] {
        &[
            // `python -mpytest` as well: Python takes the module name attached to `-m`.
            r"(?:python3?\s+-m\s*|uv\s+run\s+|poetry\s+run\s+|pdm\s+run\s+|pipenv\s+run\s+|hatch\s+run\s+)?(?:pytest|py\.test)(?-u:\b)",
            r"(?:\S*/)?manage\.py\s+test(?-u:\b)",
            // Django's own runner for a library without a `manage.py` (also as `` `which
            // django-admin` `` in CI, to hand its path to coverage).
            r"(?:\S*/)?django-admin(?:\.py)?[`)]?\s+test(?-u:\b)",
            r"python3?\s+-m\s*unittest(?-u:\b)",
            // The other runners Python projects use: nose, zope's and OpenStack's (not
            // `setup.py test`, which setuptools 72 removed).
            r"(?:nosetests|nose2|zope-testrunner)(?-u:\b)",
            r"stestr\s+run(?-u:\b)",
            // A test-runner script (`runtests.py`, `tests/run_tests.py`: Django's convention
            // and many libraries'), run by the interpreter (after its options, `-W error::X`
            // included), by coverage, or as an executable.
            r"(?:python3?(?:\.[0-9]+)?\s+(?:-[WX]\s+\S+\s+|-\S+\s+)*(?:-m\s+coverage\s+run\s+(?:-\S+\s+(?:[^-\s]\S*\s+)?)*)?|coverage\s+run\s+(?:-\S+\s+(?:[^-\s]\S*\s+)?)*|\./)(?:\S*/)?run[-_]?tests?\.py(?:\s|$)",
            r"(?:tox|nox)(?:\s|$)",
            // `hatch test`, a `test` script, a test script of an environment (`test:cov`), or
            // the `default` script of the environment named test; matrix variants picked with
            // `+py=3.12`. `hatch run test:python -m pip …` runs setup in the test environment.
            r"hatch\s+(?:run\s+)?test(?:\s|$)",
            r"hatch\s+run\s+(?:[+-][[:word:]]+=\S+\s+)*(?:[[:word:].-]+:(?:test|tests|cov|pytest)|tests?:default)(?:\s|$)",
        ]
    }
    fn install_commands(&self) -> &'static [&'static str] {
        &[r"(?:uv\s+)?pip3?|python3?\s+-m\s+pip|uv(?:\s+tool)?|poetry|pipx|pdm"]
    }
    fn fan_out_test_runners(&self) -> &'static [&'static str] {
        &["tox", "nox"]
    }
    fn current_environment(&self) -> &'static [&'static str] {
        &["py", "py3"]
    }
    fn lines_run_by(&self, sources: &Sources, dir: &str, command: &str) -> Vec<String> {
        tox_env_commands(sources.repo(), dir, command)
    }
    fn in_installed_environment(&self, command: &str, package_managers: &[&str]) -> Option<String> {
        in_the_interpreter(command, package_managers)
    }
    fn source_extensions(&self) -> &'static [&'static str] {
        &["py"]
    }
    fn env_reads(&self, _rel: &str, text: &str) -> Vec<EnvRead> {
        env::reads(text)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        let runners = ci::runners_used(sources);
        let mut test_packages = ci::test_packages(sources);
        // Where CI runs tox and never nox, a noxfile is the leftover.
        if runners != ["tox"] {
            test_packages.extend(ci::nox_test_packages(sources));
        }
        let from_ci = FromCi {
            uv: Requested::by(sources, &UV_OPTIONS),
            poetry: Requested::by(sources, &POETRY_OPTIONS),
            test_packages,
            runners,
        };
        detect(sources.repo(), &from_ci, out);
    }
}

/// What the repo's CI and task files ask of its Python projects' environments.
struct FromCi {
    uv: Requested,
    poetry: Requested,
    test_packages: Vec<ci::CiPackages>,
    /// The fan-out runners CI runs (see [`ci::runners_used`]).
    runners: Vec<&'static str>,
}

/// How a tool's commands ask for extras and groups.
struct ExtrasOptions {
    tool: &'static str,
    /// The subcommands that take them (`uv run`, `uv sync`, `poetry install`).
    subcommands: &'static [&'static str],
    extra: &'static [&'static str],
    group: &'static [&'static str],
}

const UV_OPTIONS: ExtrasOptions =
    ExtrasOptions { tool: "uv", subcommands: &["run", "sync"], extra: &["--extra"], group: &["--group"] };
const POETRY_OPTIONS: ExtrasOptions =
    ExtrasOptions { tool: "poetry", subcommands: &["install"], extra: &["--extras", "-E"], group: &["--with"] };

/// The extras and groups the repo's own uv or poetry lines (CI steps, task recipes) ask for.
/// A library's tests often import its optional backends.
#[derive(Default)]
struct Requested {
    /// `--all-extras`.
    all_extras: bool,
    /// Each project exports the ones it declares (uv refuses an unknown extra).
    extras: Vec<String>,
    groups: Vec<String>,
}

impl Requested {
    fn by(sources: &Sources, options: &ExtrasOptions) -> Requested {
        let ci = sources.workflows().jobs.iter().flat_map(|job| &job.lines).map(|line| line.text.as_str());
        let recipes =
            sources.tasks().iter().flat_map(|file| &file.targets).flat_map(|t| &t.recipe).map(|(_, l)| l.as_str());
        let mut found = Requested::default();
        for words in ci.chain(recipes).flat_map(commands) {
            let runs = words.first().is_some_and(|w| w == options.tool)
                && words.get(1).is_some_and(|w| options.subcommands.contains(&w.as_str()));
            if !runs {
                continue;
            }
            let mut args = words[2..].iter();
            while let Some(arg) = args.next() {
                if arg == "--all-extras" {
                    found.all_extras = true;
                    continue;
                }
                let (option, inline) = match arg.split_once('=') {
                    Some((option, value)) => (option, Some(value.to_string())),
                    None => (arg.as_str(), None),
                };
                let list = if options.extra.contains(&option) {
                    &mut found.extras
                } else if options.group.contains(&option) {
                    &mut found.groups
                } else {
                    continue;
                };
                // poetry takes `--extras "a b"` and `--with a,b`.
                let value = inline.or_else(|| args.next().cloned()).unwrap_or_default();
                for name in value.split([',', ' ']).filter(|n| !n.is_empty()) {
                    if !list.iter().any(|known| known == name) {
                        list.push(name.to_string());
                    }
                }
            }
        }
        found
    }

    /// The extras (of `extras`) and groups (of `groups`) asked for that the project declares.
    fn declared<'a>(
        &'a self,
        extras: Option<&'a toml::Table>,
        groups: Option<&'a toml::Table>,
    ) -> (Vec<&'a str>, Vec<&'a str>) {
        let declared = |table: Option<&toml::Table>, name: &str| table.is_some_and(|t| t.contains_key(name));
        (
            self.extras.iter().map(String::as_str).filter(|e| declared(extras, e)).collect(),
            self.groups.iter().map(String::as_str).filter(|g| declared(groups, g)).collect(),
        )
    }

    /// The `uv export` flags for the project whose `pyproject.toml` is `pyproject`.
    /// `exported` are the groups the export already names.
    fn uv_flags(&self, pyproject: Option<&toml::Table>, exported: &[&str]) -> String {
        let (extras, groups) = self.declared(
            toml_table(pyproject, &["project", "optional-dependencies"]),
            toml_table(pyproject, &["dependency-groups"]),
        );
        let groups: Vec<&str> = groups.into_iter().filter(|g| !exported.contains(g)).collect();
        let conflicts = uv_conflicts(pyproject);
        if conflicts.is_empty() {
            let mut flags: String = groups.iter().map(|group| format!(" --group {}", quote(group))).collect();
            if self.all_extras {
                flags.push_str(" --all-extras");
            } else {
                flags.extend(extras.iter().map(|name| format!(" --extra {}", quote(name))));
            }
            return flags;
        }
        // `[tool.uv] conflicts` names extras and groups uv refuses together (`cpu` and `cu124`):
        // of each such set, the first asked for (or the groups the export already names) is
        // kept, and `--all-extras` is every declared extra that way.
        let declared_extras: Vec<&str> = if self.all_extras {
            toml_table(pyproject, &["project", "optional-dependencies"])
                .map(|t| t.keys().map(String::as_str).collect())
                .unwrap_or_default()
        } else {
            extras
        };
        let mut chosen: Vec<(&str, &str)> = exported.iter().map(|g| ("group", *g)).collect();
        let asked = groups.iter().map(|g| ("group", *g)).chain(declared_extras.iter().map(|e| ("extra", *e)));
        for (kind, name) in asked {
            let clashes = conflicts.iter().any(|set| {
                set.iter().any(|item| item == &(kind, name))
                    && chosen.iter().any(|taken| set.iter().any(|item| item == taken) && *taken != (kind, name))
            });
            if !clashes && !chosen.contains(&(kind, name)) {
                chosen.push((kind, name));
            }
        }
        let chosen = chosen.into_iter().filter(|(kind, name)| !(*kind == "group" && exported.contains(name)));
        chosen.map(|(kind, name)| format!(" --{kind} {}", quote(name))).collect()
    }
}

/// The sets of `[tool.uv] conflicts`, each as (`extra` or `group`, name) pairs.
fn uv_conflicts(pyproject: Option<&toml::Table>) -> Vec<Vec<(&'static str, &str)>> {
    let sets = toml_table(pyproject, &["tool", "uv"]).and_then(|uv| uv.get("conflicts")).and_then(|c| c.as_array());
    fn item(entry: &toml::Value) -> Option<(&'static str, &str)> {
        let entry = entry.as_table()?;
        if let Some(extra) = entry.get("extra").and_then(|e| e.as_str()) {
            return Some(("extra", extra));
        }
        entry.get("group").and_then(|g| g.as_str()).map(|g| ("group", g))
    }
    let sets = sets.into_iter().flatten().filter_map(|set| set.as_array());
    sets.map(|set| set.iter().filter_map(item).collect()).filter(|set: &Vec<_>| set.len() > 1).collect()
}

/// The table at `path` of `pyproject`.
fn toml_table<'a>(pyproject: Option<&'a toml::Table>, path: &[&str]) -> Option<&'a toml::Table> {
    path.iter().try_fold(pyproject?, |table, key| table.get(*key)?.as_table())
}

const MARKERS: &[&str] = &["pyproject.toml", "setup.py", "setup.cfg", "Pipfile"];
const LOCKFILES: &[&str] = &["uv.lock", "poetry.lock", "pdm.lock", "Pipfile.lock"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Uv,
    Poetry,
    Pdm,
    Pipenv,
    Hatch,
    Pip,
}

impl Tool {
    /// The pip requirement that installs this tool when it is missing, with the version
    /// constraint the project states (`[tool.uv] required-version`, `[tool.poetry]
    /// requires-poetry`), else the major version that wrote its lock (`lock`, the lock file's
    /// text: Poetry 2 refuses a Poetry 1 lock of a project with a `[project]` table as
    /// "changed significantly"); `None` for pip itself.
    fn requirement(self, pyproject: Option<&toml::Table>, lock: Option<&str>) -> Option<String> {
        let tool = pyproject.and_then(|p| p.get("tool"));
        let constraint = match self {
            Tool::Pip => return None,
            Tool::Uv => tool.and_then(|t| t.get("uv")?.get("required-version")?.as_str()).map(str::to_string),
            Tool::Poetry => tool
                .and_then(|t| t.get("poetry")?.get("requires-poetry")?.as_str())
                .map(str::to_string)
                .or_else(|| written_by_major(lock?, "Poetry").map(|major| format!("<{}", major + 1))),
            Tool::Pdm | Tool::Pipenv | Tool::Hatch => None,
        };
        let constraint = constraint.map(|c| c.trim().to_string()).filter(|c| c.starts_with(['=', '>', '<', '~', '!']));
        // pdm's `locked` extra pins its own dependencies at the versions it was released with:
        // a later release of one (hishel 2) breaks a pdm that only states a floor.
        let name = if self == Tool::Pdm { "pdm[locked]" } else { self.name() };
        Some(format!("{name}{}", constraint.unwrap_or_default()))
    }

    /// Whether its install goes into the interpreter on PATH (see `hanzo_pip_setup`)
    /// rather than an environment of its own that only its `run` sees.
    fn fills_interpreter(self) -> bool {
        matches!(self, Tool::Pip | Tool::Uv | Tool::Poetry)
    }

    fn name(self) -> &'static str {
        match self {
            Tool::Uv => "uv",
            Tool::Poetry => "poetry",
            Tool::Pdm => "pdm",
            Tool::Pipenv => "pipenv",
            Tool::Hatch => "hatch",
            Tool::Pip => "pip",
        }
    }
}

fn detect(repo: &Repo, from_ci: &FromCi, out: &mut Findings) {
    let mut dirs: Vec<&str> = MARKERS.iter().flat_map(|m| repo.project_dirs(m)).collect();
    let requirements = requirement_files(repo);
    dirs.extend(requirements.iter().map(|f| requirements_project_dir(f)));
    dirs.sort_by_key(|d| (if d.is_empty() { 0 } else { d.matches('/').count() + 1 }, *d));
    dirs.dedup();

    let mut projects: Vec<(String, Option<Members>)> = Vec::new();
    for dir in dirs {
        if let Some((parent, members)) = projects.iter().rev().find(|(p, _)| is_within(dir, p)) {
            let relative = dir.strip_prefix(parent.as_str()).unwrap_or(dir).trim_start_matches('/');
            let member = members.as_ref().is_some_and(|m| m.contains(relative));
            let own_lockfile = LOCKFILES.iter().any(|l| repo.exists(&join(dir, l)));
            // A parent that is configuration only (pytest's, mypy's settings over `core/`
            // and `pool/`) installs its folders' projects the way CI does, or not at all:
            // then each is a project of its own.
            let parent_installs = members.is_some()
                || LOCKFILES.iter().any(|l| repo.exists(&join(parent, l)))
                || is_installable(repo, parent)
                || !local_projects(&from_ci.test_packages, parent).is_empty();
            if (member || !own_lockfile) && parent_installs {
                continue;
            }
        }
        if too_deep_for_a_project(dir) {
            continue;
        }
        let own_requirements: Vec<&str> =
            requirements.iter().copied().filter(|f| requirements_project_dir(f) == dir).collect();
        let members = project(repo, dir, &own_requirements, from_ci, out);
        projects.push((dir.to_string(), members));
    }
}

/// `requirements.txt`, `requirements-dev.txt`, `requirements/test.txt`, `test_requirements.txt`,
/// … outside samples.
fn requirement_files(repo: &Repo) -> Vec<&str> {
    let mut found: Vec<&str> = repo
        .files()
        .filter(|f| f.name().ends_with(".txt"))
        .filter(|f| {
            f.name().starts_with("requirements")
                || file_name(f.dir()) == "requirements"
                || is_test_requirements(f.name())
        })
        .filter(|f| f.is_project_path())
        .map(|f| f.path())
        .collect();
    found.sort_by_key(|f| (f.matches('/').count(), *f));
    found
}

/// `test_requirements.txt`, `dev-requirements.txt`: a test set's name before `requirements`.
fn is_test_requirements(name: &str) -> bool {
    let stem = name.strip_suffix("requirements.txt").unwrap_or_default();
    TEST_SETS.iter().any(|set| stem.strip_prefix(set).is_some_and(|sep| sep == "-" || sep == "_"))
}

/// The project a requirements file belongs to: its directory, or the parent of `requirements/`.
fn requirements_project_dir(file: &str) -> &str {
    let dir = parent_dir(file);
    if file_name(dir) == "requirements" { parent_dir(dir) } else { dir }
}

/// One project at `dir`; `requirements` are its own requirements files; `from_ci` what the
/// repo's CI and task files ask of its environment.
fn project(repo: &Repo, dir: &str, requirements: &[&str], from_ci: &FromCi, out: &mut Findings) -> Option<Members> {
    let pyproject_path = join(dir, "pyproject.toml");
    let pyproject = if repo.exists(&pyproject_path) { repo.read_toml(&pyproject_path) } else { None };
    let tool_table = |name: &str| pyproject.as_deref().and_then(|p| p.get("tool")).and_then(|t| t.get(name));
    let has = |file: &str| repo.exists(&join(dir, file));

    let (tool, source) = if has("uv.lock") {
        (Tool::Uv, Evidence::file(join(dir, "uv.lock")))
    } else if has("poetry.lock") {
        (Tool::Poetry, Evidence::file(join(dir, "poetry.lock")))
    } else if has("pdm.lock") {
        (Tool::Pdm, Evidence::file(join(dir, "pdm.lock")))
    } else if has("Pipfile") {
        (Tool::Pipenv, Evidence::file(join(dir, "Pipfile")))
    } else if tool_table("poetry").is_some_and(|p| p.get("dependencies").is_some() || p.get("name").is_some()) {
        (Tool::Poetry, Evidence::key(&pyproject_path, "tool.poetry"))
    } else if tool_table("uv").is_some() {
        (Tool::Uv, Evidence::key(&pyproject_path, "tool.uv"))
    } else if tool_table("pdm").is_some() {
        (Tool::Pdm, Evidence::key(&pyproject_path, "tool.pdm"))
    } else if tool_table("hatch").and_then(|h| h.get("envs")).is_some() {
        (Tool::Hatch, Evidence::key(&pyproject_path, "tool.hatch.envs"))
    } else {
        let first = requirements.first();
        (Tool::Pip, first.map(|f| Evidence::file(*f)).unwrap_or_else(|| pyproject_or_setup(repo, dir)))
    };

    let pin = python_version(repo, dir, pyproject.as_deref(), &pyproject_path, out);
    if let Some((version, evidence)) = pin.filter(|(_, evidence)| is_version_file(evidence)) {
        out.helper(Phase::Toolchain, "hanzo_python", vec![version], evidence);
    }
    // A project of requirements files alone has no manifest: the tool's evidence names the file.
    let manifest =
        MARKERS.iter().map(|m| join(dir, m)).find(|p| repo.exists(p)).map_or_else(|| source.clone(), Evidence::file);
    out.helper(Phase::Toolchain, "hanzo_pip_setup", Vec::new(), manifest.clone());
    out.helper(Phase::Expose, "hanzo_link_user_tools", Vec::new(), manifest);
    out.package_manager(tool.name(), None, pm_path(dir), source.clone());
    let lock = (tool == Tool::Poetry && has("poetry.lock")).then(|| repo.read(&source.path)).flatten();
    if let Some(requirement) = tool.requirement(pyproject.as_deref(), lock.as_deref()) {
        let command = tool.name();
        out.step(
            Phase::Toolchain,
            format!("command -v {command} >/dev/null 2>&1 || python3 -m pip install --quiet {}", quote(&requirement)),
            source.clone(),
        );
    }

    let members = uv_workspace(repo, dir, pyproject.as_deref(), &pyproject_path, out);
    for (name, path) in sources_outside_the_checkout(pyproject.as_deref(), dir) {
        out.warn(format!(
            "{pyproject_path}: tool.uv.sources.{name} is the path `{path}`, outside the checkout: install fails in a \
             sandbox that lacks it (publish it to an index the sandbox reaches, or vendor it into the repository)"
        ));
    }
    let mut pytest_installed = false;
    let tox = tox_config(repo, dir);
    let tox::TestDeps { deps: tox_deps, extras: tox_extras, variant: tox_variant, current: tox_env } =
        tox.as_ref().map(|config| config.test_deps(repo)).unwrap_or_default();
    // Only pip's projects take tox's deps and extras: the others' locks say what their
    // environment holds. Nor when CI runs the tests with nox and never tox: `tox.ini` is then
    // a leftover (alembic's pins a pytest older than the one its project needs).
    let ci_prefers_nox = from_ci.runners == ["nox"];
    // The requirements files the install below takes (pip's only; the locks hold the rest).
    let mut installed_files: Vec<&str> = Vec::new();
    let run_prefix = match tool {
        Tool::Uv => {
            // `uv sync` fills a private `.venv` that only `uv run` sees; the locked set (the
            // project, editable, and its default groups) goes through pip into the
            // interpreter on PATH instead, so that a new shell's `python3 -m pytest` sees it.
            // The locked dependencies first, then the workspace's own packages (`-e` lines)
            // without theirs: built from a copy or a shallow clone they get a made-up version
            // that a locked dependency on them (pytest on pluggy) would refuse.
            let mut export = String::from(if has("uv.lock") { "uv export --frozen" } else { "uv export" });
            if members.is_some() {
                export.push_str(" --all-packages");
            }
            // uv's default groups are `dev` only (or `tool.uv.default-groups`): a test group
            // beside it is what the tests need.
            let test_groups = test_groups(pyproject.as_deref());
            for group in &test_groups {
                export.push_str(&format!(" --group {}", quote(group)));
            }
            export.push_str(&from_ci.uv.uv_flags(pyproject.as_deref(), &test_groups));
            export.push_str(" --no-hashes --quiet");
            out.step_in(
                dir,
                Phase::Install,
                format!("{export} --no-emit-workspace | python3 -m pip install -r /dev/stdin"),
                source.clone(),
            );
            let own = format!("{export} | sed -n '/^-e /p' | python3 -m pip install --no-deps -r /dev/stdin");
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), &own), source);
            "python3 -m "
        }
        Tool::Poetry => {
            let cmd = poetry_install(pyproject.as_deref(), &from_ci.poetry);
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), &cmd), source);
            "python3 -m "
        }
        // These build the project too (editable, into their own environment).
        Tool::Pdm => {
            let cmd = if has("pdm.lock") { "pdm install --frozen-lockfile" } else { "pdm install" };
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), cmd), source);
            "pdm run "
        }
        Tool::Pipenv => {
            let cmd = if has("Pipfile.lock") { "pipenv install --dev --deploy" } else { "pipenv install --dev" };
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), cmd), source);
            "pipenv run "
        }
        Tool::Hatch => {
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), "hatch env create"), source);
            "hatch run "
        }
        Tool::Pip => {
            let theirs = tox_special_files(repo, dir);
            let requirements: Vec<&str> =
                requirements.iter().copied().filter(|f| !theirs.iter().any(|t| t == f)).collect();
            let ci_extras: Vec<&str> = from_ci
                .test_packages
                .iter()
                .filter(|f| f.dir == dir)
                .flat_map(|f| f.extras.iter().map(String::as_str))
                .chain(tox_extras.iter().map(String::as_str).filter(|_| !ci_prefers_nox))
                .collect();
            let ci = CiInstalls {
                extras: &ci_extras,
                projects: &local_projects(&from_ci.test_packages, dir),
                test_packages: &from_ci.test_packages,
            };
            pytest_installed = pip_install(repo, dir, &requirements, &ci, pyproject.as_deref(), out);
            installed_files = installed_requirements(&requirements);
            "python3 -m "
        }
    };
    // What CI's test jobs add with pip goes where the project went (not into hatch's, pdm's
    // or pipenv's own environments, which their runs would not see).
    if tool.fills_interpreter() {
        // pip's install took the ones CI runs before its install of the checkout.
        let order = if tool == Tool::Pip { CiOrder::AfterOwn } else { CiOrder::All };
        pytest_installed |= install_ci_test_packages(repo, &from_ci.test_packages, order, dir, &installed_files, out);
    }
    let pytest = pytest_evidence(repo, dir, requirements, pyproject.as_deref(), &pyproject_path);
    let tox_deps = if tool == Tool::Pip && !ci_prefers_nox { tox_deps } else { Vec::new() };
    let tox_variant = tox_variant.filter(|_| !tox_deps.is_empty());
    if tool == Tool::Pip
        && !pytest_installed
        && !tox_deps.iter().any(|dep| requirement_name(dep) == "pytest")
        && let Some(source) = &pytest
    {
        // Configured for pytest, but nothing installed names it.
        out.step_in(dir, Phase::Install, "python3 -m pip install pytest", source.clone());
    }
    // The runners the tests go through, when the project's own environment does not bring
    // them (into the interpreter, where pip, uv and poetry put it), and what tox's test
    // environment adds, so that the tests also run without tox. Before the project's
    // install: tox depends on filelock and virtualenv, and installed after their checkout
    // it would replace the editable project with a release.
    let nox = Some(join(dir, "noxfile.py")).filter(|path| repo.exists(path)).map(Evidence::file);
    for (config, runner) in [(tox.as_ref().map(ToxConfig::evidence), "tox"), (nox, "nox")] {
        if let (true, Some(path)) = (tool.fills_interpreter(), config) {
            out.step(
                Phase::Toolchain,
                format!("command -v {runner} >/dev/null 2>&1 || python3 -m pip install {runner}"),
                path,
            );
        }
    }
    // A requirements file the project's install already took is not taken twice.
    let already_installed = |dep: &String| {
        let file = dep.strip_prefix("--requirement").or_else(|| dep.strip_prefix("-r"));
        let file = file.map(|f| f.trim_start_matches('=').trim());
        file.and_then(|f| join_path(dir, f)).is_some_and(|f| installed_files.contains(&f.as_str()))
    };
    let tox_deps: Vec<String> = tox_deps.into_iter().filter(|dep| !already_installed(dep)).collect();
    if let (false, Some(path)) = (tox_deps.is_empty(), &tox) {
        let (options, packages): (Vec<&String>, Vec<&String>) = tox_deps.iter().partition(|dep| dep.starts_with('-'));
        let options: Vec<String> = options.into_iter().map(|o| pip_option(o)).collect();
        let packages: Vec<String> = packages.into_iter().cloned().collect();
        // Requirements files alone: each on its own, as the packages are.
        let args = if packages.is_empty() {
            best_effort_pip(&[], &options, "a requirements file of the tox test environment")
        } else {
            best_effort_pip(&options, &packages, "a dep of the tox test environment")
        };
        let source = path.key(if path.is_toml() { "env_run_base.deps" } else { "testenv.deps" });
        out.steps.push(crate::plan::Step::helper(Phase::Install, "hanzo_pip_each", args, source.clone()).in_dir(dir));
        if let Some((env, section)) = &tox_variant {
            let envlist = path.key(&format!("{section}.envlist"));
            out.note(format!("tox deps of `{env}`, the first variant of the envlist ({envlist})"));
        }
    }
    tests(repo, dir, pytest, tool, run_prefix, tox_env.as_deref(), out);
    // Workspace members keep their own tests: run them from the member, in the shared env.
    if let Some(members) = &members {
        for member in repo.project_dirs("pyproject.toml").into_iter().filter(|d| is_within(d, dir) && *d != dir) {
            if !members.contains(member.strip_prefix(dir).unwrap_or(member).trim_start_matches('/')) {
                continue;
            }
            let member_path = join(member, "pyproject.toml");
            let member_pyproject = repo.read_toml(&member_path);
            let pytest = pytest_evidence(repo, member, &[], member_pyproject.as_deref(), &member_path);
            tests(repo, member, pytest, tool, run_prefix, None, out);
        }
    }
    members
}

/// Which of CI's test installs a step takes, by where CI runs them relative to its install of
/// the checkout itself: the ones before go before the project's install here (a test tool that
/// depends on the project, pytest on pluggy, would otherwise replace the editable checkout with
/// a release), the ones after go after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CiOrder {
    BeforeOwn,
    AfterOwn,
    All,
}

impl CiOrder {
    fn takes(self, line: &ci::CiPackages) -> bool {
        match self {
            CiOrder::BeforeOwn => !line.after_own,
            CiOrder::AfterOwn => line.after_own,
            CiOrder::All => true,
        }
    }
}

/// What CI's test jobs install from `dir` besides the project's own requirements files
/// (`installed`): their requirements files, then the packages they name, best effort: a
/// package that needs what the sandbox lacks (a C library, a private index) is reported and
/// the rest go in. Packages given with pip's options (`--no-deps`) go in with them, one step
/// per set of options, in CI's order. Whether pytest is among the packages.
fn install_ci_test_packages(
    repo: &Repo,
    found: &[ci::CiPackages],
    order: CiOrder,
    dir: &str,
    installed: &[&str],
    out: &mut Findings,
) -> bool {
    // The repo's own distributions by name (`psycopg<3.3`) test a release from the index
    // against the checkout's other parts: here they would replace the checkout's editable copy.
    let own = own_distributions(repo);
    let mut files: Vec<(&str, &Evidence)> = Vec::new();
    // Per set of options (and CI's apart from a noxfile's), in order of appearance: the
    // packages and the first line's evidence.
    let mut groups: Vec<(&[String], Vec<&str>, &Evidence)> = Vec::new();
    let from_nox = |source: &Evidence| file_name(&source.path) == "noxfile.py";
    let mut taken: Vec<String> = Vec::new();
    // Every line of `dir` is looked at, in order, so that a package a line before the taken
    // ones installed is not taken again from a later job.
    for line in found.iter().filter(|f| f.dir == dir) {
        let this = order.takes(line);
        for file in &line.files {
            if this && !installed.contains(&file.as_str()) && !files.iter().any(|(f, _)| f == file) {
                files.push((file, &line.source));
            }
        }
        // One spec per distribution, the first job's: jobs testing variants each install
        // their own (`Django>=5.2,<5.3` in one, `Django>=6.1,<6.2` in the next), and pip
        // cannot install both; one by one, the last would win.
        for package in &line.packages {
            let name = requirement_name(package);
            if taken.contains(&name) || own.contains(&name) {
                continue;
            }
            taken.push(name);
            if !this {
                continue;
            }
            let same = |(options, _, source): &&mut (&[String], Vec<&str>, &Evidence)| {
                *options == line.options.as_slice() && from_nox(source) == from_nox(&line.source)
            };
            match groups.iter_mut().find(same) {
                Some((_, packages, _)) => packages.push(package),
                None => groups.push((&line.options, vec![package.as_str()], &line.source)),
            }
        }
    }
    let mut names_pytest = false;
    for (file, source) in files {
        let relative = file.strip_prefix(dir).unwrap_or(file).trim_start_matches('/');
        out.step_in(dir, Phase::Install, format!("python3 -m pip install -r {}", quote(relative)), source.clone());
        names_pytest |= repo.read(file).is_some_and(|text| mentions_pytest(&text));
    }
    for (options, packages, source) in groups {
        // A constraints file is repo-relative in the finding; the step runs in `dir`.
        let options: Vec<String> = options
            .iter()
            .map(|o| match o.strip_prefix("--constraint=") {
                Some(file) => {
                    format!("--constraint={}", file.strip_prefix(dir).unwrap_or(file).trim_start_matches('/'))
                }
                None => o.clone(),
            })
            .collect();
        let packages: Vec<String> = packages.iter().map(|p| p.to_string()).collect();
        let why = if from_nox(source) { "installed by the nox test session" } else { "installed by the CI test job" };
        let args = best_effort_pip(&options, &packages, why);
        out.steps.push(crate::plan::Step::helper(Phase::Install, "hanzo_pip_each", args, source.clone()).in_dir(dir));
        names_pytest |= packages.iter().any(|p| requirement_name(p) == "pytest");
    }
    names_pytest
}

/// The names (normalized) of the distributions the repo's `pyproject.toml` files define.
fn own_distributions(repo: &Repo) -> Vec<String> {
    let manifests =
        repo.project_dirs("pyproject.toml").into_iter().filter_map(|d| repo.read_toml(&join(d, "pyproject.toml")));
    manifests
        .filter_map(|p| {
            let name = p.get("project").and_then(|p| p.get("name"));
            let name = name.or_else(|| p.get("tool")?.get("poetry")?.get("name"));
            name.and_then(|n| n.as_str()).map(requirement_name)
        })
        .collect()
}

/// The arguments of `hanzo_pip_each`: pip's `options` (`--constraint=constraints.txt`) and
/// the `packages`, installed all at once so that pip resolves them together, else one by one
/// with a warning for each that does not install (see `src/plan/helpers/hanzo_pip_each.sh`).
fn best_effort_pip(options: &[String], packages: &[String], why: &str) -> Vec<String> {
    let mut args = vec![why.to_string()];
    args.extend(options.iter().cloned());
    args.push("--".to_string());
    args.extend(packages.iter().cloned());
    args
}

/// A deps line that is pip's option with its value (`-r test_requirements.txt`) as one
/// argument: `--requirement=test_requirements.txt`.
fn pip_option(dep: &str) -> String {
    let Some((option, value)) = dep.split_once(char::is_whitespace) else { return dep.to_string() };
    let long = match option {
        "-r" => "--requirement",
        "-c" => "--constraint",
        "-e" => "--editable",
        "-i" => "--index-url",
        other => other,
    };
    format!("{long}={}", value.trim())
}

/// Whether a Python pin comes from a file that names the version to run (not a range).
/// Whether `word` of a command runs Python or installs Python packages (`python3.12`,
/// `.venv/bin/python`, `pip`, `uv`, `tox`; not `mypython`).
pub fn is_python_tool(word: &str) -> bool {
    let program = word.rsplit('/').next().unwrap_or(word);
    program.starts_with("python")
        || Python.package_managers().contains(&program)
        || Python.programs().contains(&program)
        || matches!(program, "pip3" | "pipx" | "tox" | "nox")
}

fn is_version_file(evidence: &Evidence) -> bool {
    [".python-version", "runtime.txt", "Pipfile"].iter().any(|f| evidence.path.ends_with(f))
}

fn pyproject_or_setup(repo: &Repo, dir: &str) -> Evidence {
    let path = MARKERS.iter().map(|m| join(dir, m)).find(|p| repo.exists(p));
    Evidence::file(path.unwrap_or_else(|| join(dir, "pyproject.toml")))
}

/// Names of extras, dependency groups and requirements files that hold what the tests need
/// (the ones for tests first, then `dev`).
const TEST_SETS: &[&str] = &["test", "tests", "testing", "dev"];

/// pip into the interpreter on PATH (see `hanzo_pip_setup`): the runtime
/// requirements files, then the ones for development and tests; its test and dev dependency
/// groups (PEP 735); last the project itself, editable, with its test extras. Returns whether
/// what it installs names pytest.
/// The requirements files pip's install takes, in order: runtime requirements first, then the
/// ones for development and tests; docs, linters and type checkers stay out.
fn installed_requirements<'a>(files: &[&'a str]) -> Vec<&'a str> {
    let rank = |f: &str| {
        let name = file_name(f).to_ascii_lowercase();
        let stem = name.trim_end_matches(".txt");
        let words: Vec<&str> = stem.split(['-', '_', '.']).filter(|w| *w != "requirements").collect();
        if words.is_empty() || words.iter().all(|w| ["base", "main", "prod", "common", "install"].contains(w)) {
            Some(0)
        } else if words.iter().any(|w| TEST_SETS.contains(w) || ["ci", "development", "develop"].contains(w)) {
            Some(1)
        } else {
            None
        }
    };
    let mut chosen: Vec<&str> = files.iter().copied().filter(|f| rank(f).is_some()).collect();
    chosen.sort_by_key(|f| rank(f));
    chosen
}

/// Whether a requirements file names a package by URL rather than from an index (an
/// option line such as `--extra-index-url https://…` is not one).
fn names_by_url(text: &str) -> bool {
    text.lines().any(|line| !line.starts_with(['-', '#']) && line.split('#').next().is_some_and(|r| r.contains("://")))
}

/// What CI's test jobs install of the repo's own code from a project's folder.
struct CiInstalls<'a> {
    /// The extras they install the project with.
    extras: &'a [&'a str],
    /// The projects in its subfolders they install by path, with where CI says so.
    projects: &'a [(ci::LocalProject, &'a Evidence)],
    /// Everything they install (the packages CI installs before the checkout go in before
    /// the project).
    test_packages: &'a [ci::CiPackages],
}

fn pip_install(
    repo: &Repo,
    dir: &str,
    files: &[&str],
    ci: &CiInstalls,
    pyproject: Option<&toml::Table>,
    out: &mut Findings,
) -> bool {
    let chosen = installed_requirements(files);
    for file in &chosen {
        let relative = quote(file.strip_prefix(dir).unwrap_or(file).trim_start_matches('/'));
        let mut command = format!("python3 -m pip install -r {relative}");
        if repo.read(file).is_some_and(|text| names_by_url(&text)) {
            // A package by URL (`https://github.com/…/zipball/main`, `git+https://…`) is
            // the one a registry-only network cannot fetch: then the file's others still go in.
            command.push_str(&format!(
                " || {{ echo \"hanzo-env: warning: {relative} names packages by URL that did not install; installing its others\" >&2; sed '/^[^#-][^#]*:\\/\\//d' {relative} | python3 -m pip install -r /dev/stdin; }}"
            ));
        }
        out.step_in(dir, Phase::Install, &command, Evidence::file(*file));
    }
    let mut names_pytest = chosen.iter().any(|f| repo.read(f).is_some_and(|t| mentions_pytest(&t)));
    let groups = dependency_groups(pyproject);
    if !groups.is_empty() {
        let requirements: Vec<String> = groups.iter().map(|r| quote(r)).collect();
        out.step_in(
            dir,
            Phase::Install,
            format!("python3 -m pip install {}", requirements.join(" ")),
            Evidence::key(join(dir, "pyproject.toml"), "dependency-groups"),
        );
        names_pytest |= groups.iter().any(|r| mentions_pytest(r));
    }
    names_pytest |= install_ci_test_packages(repo, ci.test_packages, CiOrder::BeforeOwn, dir, &chosen, out);
    // The project last: a test dependency that depends on it (pytest on pluggy, virtualenv
    // on filelock) would otherwise replace the editable checkout with the release from PyPI.
    let manifest = pyproject_or_setup(repo, dir);
    if is_installable(repo, dir) {
        let mut extras: Vec<String> = pyproject
            .and_then(|p| p.get("project"))
            .and_then(|p| p.get("optional-dependencies"))
            .and_then(|o| o.as_table())
            .map(|t| t.keys().filter(|k| TEST_SETS.contains(&k.as_str())).cloned().collect())
            .unwrap_or_default();
        let more = setuptools_test_extras(repo, dir).into_iter().chain(ci.extras.iter().map(|e| e.to_string()));
        for extra in more {
            if !extras.contains(&extra) {
                extras.push(extra);
            }
        }
        let pyproject_path = join(dir, "pyproject.toml");
        if let Some(missing) = missing_force_include(repo, dir, pyproject) {
            // A wheel that bundles built output (`netbox/project-static/docs`) cannot be
            // built from a checkout: what the extras need goes in, the project stays a
            // folder its tests run from.
            out.warn(format!(
                "{pyproject_path}: hatch force-includes `{missing}`, which a checkout lacks until a build makes it: \
                 the project itself is not installed, its tests run from the checkout"
            ));
            let requirements: Vec<String> = extra_requirements(pyproject, &extras).iter().map(|r| quote(r)).collect();
            if !requirements.is_empty() {
                let command = format!("python3 -m pip install {}", requirements.join(" "));
                out.step_in(
                    dir,
                    Phase::Install,
                    &command,
                    Evidence::key(pyproject_path, "project.optional-dependencies"),
                );
                names_pytest |= requirements.iter().any(|r| mentions_pytest(r));
            }
            return names_pytest;
        }
        let made_up_version = build_requires(pyproject).iter().any(|r| is_scm_version_plugin(r));
        let command = match static_requirements(pyproject, &extras).filter(|_| made_up_version) {
            // Built from a copy or a shallow clone, the version is made up (0.0.0, 0.1.dev1):
            // a test dependency that depends on the project would refuse it in the same
            // resolve, so the requirements go first and the project without them.
            Some(requirements) => {
                if !requirements.is_empty() {
                    let quoted: Vec<String> = requirements.iter().map(|r| quote(r)).collect();
                    let command = format!("python3 -m pip install {}", quoted.join(" "));
                    out.step_in(dir, Phase::Install, &command, Evidence::key(join(dir, "pyproject.toml"), "project"));
                }
                without_git_metadata(pyproject, "python3 -m pip install --no-deps -e .")
            }
            None => {
                let target =
                    if extras.is_empty() { "-e .".to_string() } else { format!("-e '.[{}]'", extras.join(",")) };
                without_git_metadata(pyproject, &format!("python3 -m pip install {target}"))
            }
        };
        out.step_in(dir, Phase::Install, &command, manifest.clone());
        names_pytest |= !extras.is_empty() && repo.read(&pyproject_path).is_some_and(|t| mentions_pytest(&t));
    }
    // The repo's other projects that CI installs by path (`pip install ./core[test] ./pool`),
    // editable, so that the tests run against the checkout.
    if let Some((_, source)) = ci.projects.first() {
        let targets: Vec<String> = ci
            .projects
            .iter()
            .map(|(project, _)| {
                let relative = project.dir.strip_prefix(dir).unwrap_or(&project.dir).trim_start_matches('/');
                let extras =
                    if project.extras.is_empty() { String::new() } else { format!("[{}]", project.extras.join(",")) };
                format!("-e {}", quote(&format!("./{relative}{extras}")))
            })
            .collect();
        // A project folder named as its package (`psycopg/psycopg/`) is a namespace package
        // from the repo's root, where `python -m pytest` puts the working directory first on
        // `sys.path`: setuptools' default editable finder loses to it, its path-based mode not.
        let shadowed = ci.projects.iter().any(|(project, _)| {
            let package = file_name(&project.dir).replace('-', "_");
            repo.exists(&join(&project.dir, &format!("{package}/__init__.py")))
        });
        let mode = if shadowed { "--config-settings editable_mode=compat " } else { "" };
        out.step_in(
            dir,
            Phase::Install,
            format!("python3 -m pip install {mode}{}", targets.join(" ")),
            (*source).clone(),
        );
        names_pytest |= ci.projects.iter().any(|(project, _)| {
            !project.extras.is_empty()
                && repo.read(&join(&project.dir, "pyproject.toml")).is_some_and(|t| mentions_pytest(&t))
        });
    }
    names_pytest
}

/// The projects in `dir`'s subfolders that CI's test jobs install by path, each once with
/// every extra asked of it, and the first line that asks.
fn local_projects<'a>(found: &'a [ci::CiPackages], dir: &str) -> Vec<(ci::LocalProject, &'a Evidence)> {
    let mut projects: Vec<(ci::LocalProject, &Evidence)> = Vec::new();
    for line in found {
        for project in line.projects.iter().filter(|p| is_within(&p.dir, dir) && p.dir != dir) {
            match projects.iter_mut().find(|(p, _)| p.dir == project.dir) {
                Some((known, _)) => {
                    for extra in &project.extras {
                        if !known.extras.contains(extra) {
                            known.extras.push(extra.clone());
                        }
                    }
                }
                None => projects.push((project.clone(), &line.source)),
            }
        }
    }
    projects
}

/// Whether pip can build the project in `dir`: it has metadata (`[project]`, `setup.py`,
/// `setup.cfg`) or a build backend that keeps it elsewhere (poetry's `[tool.poetry]`,
/// maturin's `Cargo.toml`). A `pyproject.toml` of tool settings alone, with setuptools named
/// as its backend or none, is not a project: setuptools would guess its packages from the
/// folders and refuse a tree of several.
fn is_installable(repo: &Repo, dir: &str) -> bool {
    if ["setup.py", "setup.cfg"].iter().any(|f| repo.exists(&join(dir, f))) {
        return true;
    }
    let path = join(dir, "pyproject.toml");
    let Some(pyproject) = repo.exists(&path).then(|| repo.read_toml(&path)).flatten() else { return false };
    let backend = pyproject.get("build-system").and_then(|b| b.get("build-backend")).and_then(|b| b.as_str());
    pyproject.get("project").is_some() || backend.is_some_and(|backend| !backend.starts_with("setuptools"))
}

/// Poetry's locked set, installed by pip into the interpreter on PATH (or the active
/// virtualenv), not a private one: `poetry export` of the groups `poetry install` takes by
/// default (the non-optional ones), then the project itself without its dependencies.
/// Not `POETRY_VIRTUALENVS_CREATE=false poetry install`: in the environment poetry itself
/// runs in, it replaces poetry's own dependencies while it installs (tomlkit's lock
/// downgrades certifi, and poetry's next download fails), and as a user without write access
/// to the system's site-packages it cannot install at all (pip falls back to `~/.local`).
fn poetry_install(pyproject: Option<&toml::Table>, requested: &Requested) -> String {
    let poetry = pyproject.and_then(|p| p.get("tool")).and_then(|t| t.get("poetry"));
    // Extras: `[tool.poetry.extras]`, or poetry 2's `[project.optional-dependencies]`.
    let extras_table = toml_table(pyproject, &["tool", "poetry", "extras"])
        .or(toml_table(pyproject, &["project", "optional-dependencies"]));
    let (extras, asked_groups) = requested.declared(extras_table, toml_table(pyproject, &["tool", "poetry", "group"]));
    let mut groups: Vec<&str> = poetry
        .and_then(|p| p.get("group"))
        .and_then(|g| g.as_table())
        .map(|groups| {
            groups
                .iter()
                .filter(|(_, group)| group.get("optional").and_then(|o| o.as_bool()) != Some(true))
                .map(|(name, _)| name.as_str())
                .collect()
        })
        .unwrap_or_default();
    if poetry.and_then(|p| p.get("dev-dependencies")).is_some() && !groups.contains(&"dev") {
        groups.push("dev");
    }
    for group in asked_groups {
        if !groups.contains(&group) {
            groups.push(group);
        }
    }
    let mut with = if groups.is_empty() { String::new() } else { format!(" --with {}", quote(&groups.join(","))) };
    if requested.all_extras {
        with.push_str(" --all-extras");
    } else {
        with.extend(extras.iter().map(|extra| format!(" --extras {}", quote(extra))));
    }
    // Poetry 2 has no `export` without its plugin: into poetry's environment when that is
    // the interpreter on PATH, else through poetry (a pipx or installer-script poetry).
    let mut script = String::from(
        "poetry export --help >/dev/null 2>&1 || python3 -m pip install --quiet poetry-plugin-export\n\
         poetry export --help >/dev/null 2>&1 || poetry self add poetry-plugin-export\n",
    );
    script.push_str(&format!("poetry export --without-hashes{with} | python3 -m pip install -r /dev/stdin"));
    // pip builds the project through its `[build-system]`; without one it would guess
    // setuptools (`python3 -m pytest` still imports a flat layout from the checkout).
    let package = poetry.and_then(|p| p.get("package-mode")).and_then(|m| m.as_bool()) != Some(false)
        && !build_requires(pyproject).is_empty();
    if package {
        script.push_str("\npython3 -m pip install --no-deps -e .");
    }
    script
}

/// `command`, which builds the project, made to work in a copy without `.git` when the
/// version comes from git metadata (setuptools-scm, hatch-vcs): it builds as version 0.0.0.
fn without_git_metadata(pyproject: Option<&toml::Table>, command: &str) -> String {
    if build_requires(pyproject).iter().any(|r| is_scm_version_plugin(r)) {
        format!("{{ [ -e .git ] || export SETUPTOOLS_SCM_PRETEND_VERSION=0.0.0; {command}; }}")
    } else {
        command.to_string()
    }
}

/// The requirements `pip install '.[extras]'` would resolve besides the project: its
/// `[project] dependencies` and those of the `extras`, an extra that names the project itself
/// (`pkg[tests]` inside `dev`) followed; `None` when pip would have to build the project to
/// know them (`dynamic`).
fn static_requirements(pyproject: Option<&toml::Table>, extras: &[String]) -> Option<Vec<String>> {
    let project = pyproject?.get("project")?.as_table()?;
    let dynamic = |key: &str| {
        project.get("dynamic").and_then(|d| d.as_array()).is_some_and(|d| d.iter().any(|v| v.as_str() == Some(key)))
    };
    if dynamic("dependencies") || (!extras.is_empty() && dynamic("optional-dependencies")) {
        return None;
    }
    project.get("name")?.as_str()?;
    let mut found = requirements_list(project.get("dependencies"));
    for requirement in extra_requirements(pyproject, extras) {
        if !found.contains(&requirement) {
            found.push(requirement);
        }
    }
    Some(found)
}

fn requirements_list(value: Option<&toml::Value>) -> Vec<String> {
    value.and_then(|v| v.as_array()).into_iter().flatten().filter_map(|r| r.as_str()).map(str::to_string).collect()
}

/// The requirements of the `extras` of `[project.optional-dependencies]`, an extra that names
/// the project itself (`pkg[tests]` inside `dev`) followed.
fn extra_requirements(pyproject: Option<&toml::Table>, extras: &[String]) -> Vec<String> {
    let project = pyproject.and_then(|p| p.get("project")).and_then(|p| p.as_table());
    let own_name = project.and_then(|p| p.get("name")).and_then(|n| n.as_str()).map(requirement_name);
    let optional = project.and_then(|p| p.get("optional-dependencies")).and_then(|o| o.as_table());
    let list = requirements_list;
    let mut found: Vec<String> = Vec::new();
    let mut pending: Vec<String> = extras.to_vec();
    let mut visited: Vec<String> = Vec::new();
    while let Some(extra) = pending.pop() {
        if visited.contains(&extra) {
            continue;
        }
        for requirement in list(optional.and_then(|o| o.get(&extra))) {
            if Some(requirement_name(&requirement)) == own_name {
                let named = requirement.split_once('[').and_then(|(_, rest)| rest.split_once(']')).map(|(e, _)| e);
                pending.extend(named.into_iter().flat_map(|e| e.split(',')).map(|e| e.trim().to_string()));
            } else if !found.contains(&requirement) {
                found.push(requirement);
            }
        }
        visited.push(extra);
    }
    found
}

/// The first path `[tool.hatch.build.targets.wheel.force-include]` bundles that the checkout
/// lacks (built assets, rendered docs): hatch refuses to build the wheel without it.
fn missing_force_include(repo: &Repo, dir: &str, pyproject: Option<&toml::Table>) -> Option<String> {
    let backend = pyproject?.get("build-system")?.get("build-backend")?.as_str()?;
    if !backend.starts_with("hatchling") {
        return None;
    }
    let included = toml_table(pyproject, &["tool", "hatch", "build", "targets", "wheel", "force-include"])?;
    // On disk, not in the walk: it leaves out build output (`dist/`) that a repo may commit.
    let on_disk = |source: &str| repo.root().join(join(dir, source.trim_end_matches('/'))).exists();
    included.keys().find(|source| !source.starts_with(['/', '~']) && !source.contains('*') && !on_disk(source)).cloned()
}

/// A requirement's distribution name, normalized (PEP 503): `Foo_Bar[x]>=1` → `foo-bar`.
fn requirement_name(requirement: &str) -> String {
    let name = requirement.trim().split(|c: char| !(c.is_ascii_alphanumeric() || "-_.".contains(c))).next();
    name.unwrap_or_default().to_ascii_lowercase().replace(['_', '.'], "-")
}

/// `[tool.uv.sources]` entries whose `path` leaves the checkout (`../plugins`): a sibling
/// checkout the developer has and a sandbox does not.
fn sources_outside_the_checkout(pyproject: Option<&toml::Table>, dir: &str) -> Vec<(String, String)> {
    let sources = pyproject.and_then(|p| p.get("tool")?.get("uv")?.get("sources")?.as_table());
    let mut found = Vec::new();
    for (name, source) in sources.into_iter().flatten() {
        if let Some(path) = source.get("path").and_then(|p| p.as_str())
            && join_path(dir, path).is_none()
        {
            found.push((name.clone(), path.to_string()));
        }
    }
    found
}

/// `[build-system] requires` of a pyproject.
fn build_requires(pyproject: Option<&toml::Table>) -> Vec<&str> {
    pyproject
        .and_then(|p| p.get("build-system")?.get("requires")?.as_array())
        .map(|list| list.iter().filter_map(|r| r.as_str()).collect())
        .unwrap_or_default()
}

/// Build plugins that take the version from git metadata.
fn is_scm_version_plugin(requirement: &str) -> bool {
    let name = requirement_name(requirement);
    ["setuptools-scm", "hatch-vcs", "setuptools-git-versioning", "versioningit", "dunamai"].contains(&name.as_str())
}

/// The names of the `[dependency-groups]` (PEP 735) named like test sets (not `dev`).
fn test_groups(pyproject: Option<&toml::Table>) -> Vec<&str> {
    let groups = pyproject.and_then(|p| p.get("dependency-groups")).and_then(|g| g.as_table());
    groups.into_iter().flat_map(|g| g.keys()).map(String::as_str).filter(|k| TEST_SETS[..3].contains(k)).collect()
}

/// The requirements of the `[dependency-groups]` (PEP 735) named like test or dev sets,
/// `{include-group = "…"}` entries followed (once each).
fn dependency_groups(pyproject: Option<&toml::Table>) -> Vec<String> {
    let Some(groups) = pyproject.and_then(|p| p.get("dependency-groups")).and_then(|g| g.as_table()) else {
        return Vec::new();
    };
    let mut found: Vec<String> = Vec::new();
    let mut visited: Vec<&str> = Vec::new();
    // A test group says what the tests need; a dev group then mostly adds docs, linters and
    // release tools, which may not even install on the Python here. Dev only without one.
    let mut pending = test_groups(pyproject);
    if pending.is_empty() {
        pending = groups.keys().map(String::as_str).filter(|k| TEST_SETS.contains(k)).collect();
    }
    while let Some(group) = pending.pop() {
        if visited.contains(&group) {
            continue;
        }
        visited.push(group);
        for entry in groups.get(group).and_then(|g| g.as_array()).into_iter().flatten() {
            match entry {
                toml::Value::String(requirement) if !found.contains(requirement) => found.push(requirement.clone()),
                toml::Value::Table(t) => pending.extend(t.get("include-group").and_then(|g| g.as_str())),
                _ => {}
            }
        }
    }
    found
}

/// `.python-version` (here or in a parent), `runtime.txt`, Pipfile `python_version`, then a
/// `requires-python` that pins (`==3.12.*`, `~=3.12.1`); floors pin nothing. Returns the pin
/// and its evidence.
fn python_version(
    repo: &Repo,
    dir: &str,
    pyproject: Option<&toml::Table>,
    pyproject_path: &str,
    out: &mut Findings,
) -> Option<(String, Evidence)> {
    let found = python_pin(repo, dir, pyproject, pyproject_path);
    let (version, source) = found.clone().unwrap_or_else(|| (String::new(), pyproject_or_setup(repo, dir)));
    out.toolchain("python", (!version.is_empty()).then_some(version), source);
    // Every Python is 3: a bare major names nothing to install.
    found.filter(|(v, _)| v.contains('.'))
}

fn python_pin(
    repo: &Repo,
    dir: &str,
    pyproject: Option<&toml::Table>,
    pyproject_path: &str,
) -> Option<(String, Evidence)> {
    let mut current = Some(dir);
    while let Some(d) = current {
        let path = join(d, ".python-version");
        if repo.exists(&path) {
            let text = repo.read(&path).unwrap_or_default();
            let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
            let version = version::numeric_pin(first.trim_start_matches("python").trim_start_matches('-'));
            if let Some(version) = version {
                return Some((version, Evidence::file(path)));
            }
        }
        current = (!d.is_empty()).then(|| parent_dir(d));
    }
    let runtime = join(dir, "runtime.txt");
    if repo.exists(&runtime)
        && let Some(v) = repo.read(&runtime).and_then(|t| version::numeric_pin(t.trim().trim_start_matches("python-")))
    {
        return Some((v, Evidence::file(runtime)));
    }
    let pipfile = join(dir, "Pipfile");
    if repo.exists(&pipfile)
        && let Some(v) = repo
            .read_toml(&pipfile)
            .and_then(|t| t.get("requires")?.get("python_version")?.as_str().and_then(version::numeric_pin))
    {
        return Some((v, Evidence::key(&pipfile, "requires.python_version")));
    }
    if let Some(range) =
        pyproject.and_then(|p| p.get("project")).and_then(|p| p.get("requires-python")).and_then(|r| r.as_str())
    {
        return Some((
            pinned_python(range).unwrap_or_default(),
            Evidence::key(pyproject_path, "project.requires-python"),
        ));
    }
    if let Some(range) = pyproject
        .and_then(|p| p.get("tool"))
        .and_then(|t| t.get("poetry"))
        .and_then(|p| p.get("dependencies"))
        .and_then(|d| d.get("python"))
        .and_then(|r| r.as_str())
    {
        let source = Evidence::key(pyproject_path, "tool.poetry.dependencies.python");
        return Some((pinned_python(range).unwrap_or_default(), source));
    }
    None
}

/// A Python version range that pins a minor version: `==3.12.*`, `==3.12.4`, `~=3.12.1`,
/// poetry's `~3.12`, or `>=3.12,<3.13`. Floors (`>=3.11`, `^3.11`) pin nothing.
fn pinned_python(range: &str) -> Option<String> {
    let clauses: Vec<&str> = range.split(',').map(str::trim).filter(|c| !c.is_empty()).collect();
    if let [single] = clauses.as_slice() {
        if let Some(v) = single.strip_prefix("~=") {
            // `~=3.11.4` is `>=3.11.4, ==3.11.*`; `~=3.11` only pins the major.
            let parts: Vec<&str> = v.trim().split('.').collect();
            return (parts.len() >= 3).then(|| version::numeric_pin(&parts[..parts.len() - 1].join("."))).flatten();
        }
        if let Some(v) = single.strip_prefix("==").or_else(|| single.strip_prefix('~')) {
            return version::numeric_pin(v.trim());
        }
        return None;
    }
    // `>=3.12,<3.13`: a floor and a ceiling one minor apart.
    let floor = clauses.iter().find_map(|c| c.strip_prefix(">=")).and_then(|v| version::numeric_pin(v.trim()))?;
    let ceiling = clauses.iter().find_map(|c| c.strip_prefix('<').filter(|v| !v.starts_with('='))).map(str::trim)?;
    let mut parts = floor.split('.');
    let (major, minor) = (parts.next()?, parts.next()?.parse::<u32>().ok()?);
    let next = format!("{major}.{}", minor + 1);
    (ceiling == next || ceiling == format!("{next}.0")).then(|| format!("{major}.{minor}"))
}

/// `[tool.uv.workspace] members/exclude`: one `uv sync --all-packages` at the root.
fn uv_workspace(
    repo: &Repo,
    dir: &str,
    pyproject: Option<&toml::Table>,
    pyproject_path: &str,
    out: &mut Findings,
) -> Option<Members> {
    let workspace = pyproject?.get("tool")?.get("uv")?.get("workspace")?;
    Some(toml_workspace(repo, dir, workspace, pyproject_path, ("uv", "member"), out))
}

/// pytest when the project shows it (config, conftest, a dependency), else tox/nox, else
/// Django's runner for a `manage.py` project.
/// `uv run …` and `poetry run …` (CI's way to run in the environment they sync) as the same
/// command in the interpreter on PATH, where install put that environment (a `run` in a new
/// shell would build a private one again, from nothing). Options that ask for another
/// environment (`--only-group tox`, `--with x`, `--isolated`) keep the command as it is.
/// A bare Python runner (`pytest`, `tox`) runs as the interpreter's module: for a user other
/// than root pip puts its script in `~/.local/bin`, which a new non-login `bash -c` does not
/// have on PATH, while `python3` is on every PATH.
fn in_the_interpreter(command: &str, package_managers: &[&str]) -> Option<String> {
    // `` `which django-admin` test `` (CI's way to give coverage a console script's path)
    // runs the script.
    static BY_PATH: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(?:`|\$\()which\s+([[:word:].-]+)(?:`|\))").expect("the pattern is valid"));
    let unwrapped = BY_PATH.replace_all(command, "$1");
    let command = unwrapped.as_ref();
    if let Some(hatch) = on_the_python_on_path(command) {
        return Some(hatch);
    }
    let fills_interpreter = |tool: Tool| package_managers.contains(&tool.name());
    let mut words = command.split_whitespace();
    let first = words.next()?;
    let mut rest: Vec<&str> = match first {
        "uv" | "poetry" => {
            let tool = if first == "uv" { Tool::Uv } else { Tool::Poetry };
            if words.next() != Some("run") || !fills_interpreter(tool) {
                return None;
            }
            // What the export installed: the lock as it is, its test groups and the extras
            // and groups the repo's uv commands ask for (see `Requested`).
            let same_environment = ["--frozen", "--locked", "--no-sync", "--offline", "-q", "--quiet", "--all-extras"];
            let with_a_value = ["--group", "--extra"];
            let mut rest: Vec<&str> = words.collect();
            let mut options = 0;
            while let Some(word) = rest.get(options).filter(|w| w.starts_with('-')) {
                let named = with_a_value.iter().any(|o| word.strip_prefix(o).is_some_and(|v| v.starts_with('=')));
                options += match () {
                    _ if same_environment.contains(word) || named => 1,
                    _ if with_a_value.contains(word) => 2,
                    _ => return None,
                };
            }
            rest.drain(..options.min(rest.len()));
            rest
        }
        // `python` too: for a user other than root its link is in `~/.local/bin` as well.
        _ if (first == "python" || as_module(first).is_some())
            && [Tool::Pip, Tool::Uv, Tool::Poetry].into_iter().any(fills_interpreter) =>
        {
            command.split_whitespace().collect()
        }
        _ => return None,
    };
    let program = rest.first()?;
    let program = match *program {
        "python" | "python3" => "python3".to_string(),
        other => as_module(other).map_or(other.to_string(), |module| format!("python3 -m {module}")),
    };
    rest.remove(0);
    Some(std::iter::once(program.as_str()).chain(rest).collect::<Vec<_>>().join(" "))
}

/// The major version of `tool` that wrote a lock file, from its first line (`# This file is
/// automatically @generated by Poetry 1.8.4 …`).
fn written_by_major(lock: &str, tool: &str) -> Option<u32> {
    let header = lock.lines().next()?;
    let version = header.split(&format!("@generated by {tool} ")).nth(1)?;
    version.split('.').next()?.parse().ok()
}

/// The name of a noxfile's session that runs the tests: a function `tests` or `test` under a
/// `session` decorator.
fn nox_test_session(noxfile: &str) -> Option<&str> {
    static SESSION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^@[^\n]*session[^\n]*\n(?:@[^\n]*\n)*def (tests?)\(").expect("the pattern is valid")
    });
    SESSION.captures(noxfile).and_then(|c| c.get(1)).map(|m| m.as_str())
}

/// The module a Python runner's console script starts (`python3 -m <module>` runs the same).
fn as_module(program: &str) -> Option<&'static str> {
    Some(match program {
        "pytest" | "py.test" => "pytest",
        "coverage" => "coverage",
        "tox" => "tox",
        "nox" => "nox",
        "django-admin" | "django-admin.py" => "django",
        _ => return None,
    })
}

/// `hatch run +py=3.8 test:default`, CI's pick of one matrix variant, as the variant of the
/// Python on PATH: a sandbox has that one, and hatch would download any other (from
/// github.com, which a sandbox may not reach).
fn on_the_python_on_path(command: &str) -> Option<String> {
    const PYTHON_ON_PATH: &str = r#""$(python3 -c 'import sys; print(*sys.version_info[:2], sep=".")')""#;
    let rest = command.strip_prefix("hatch run ")?;
    let mut changed = false;
    let words: Vec<String> = rest
        .split_whitespace()
        .scan(true, |options, word| {
            *options = *options && word.starts_with(['+', '-']) && word.contains('=');
            Some(match word.split_once('=') {
                Some((key @ ("+py" | "+python"), _)) if *options => {
                    changed = true;
                    format!("{key}={PYTHON_ON_PATH}")
                }
                _ => word.to_string(),
            })
        })
        .collect();
    changed.then(|| format!("hatch run {}", words.join(" ")))
}

/// Where projects keep a script that runs their suite (Django's `tests/runtests.py`, a
/// library's `runtests.py`), relative to the project; the first found is run from there.
const TEST_SCRIPTS: &[&str] = &[
    "runtests.py",
    "run_tests.py",
    "tests/runtests.py",
    "tests/run_tests.py",
    "test/runtests.py",
    "test/run_tests.py",
];

/// `tox_env`: tox's matrix environment for the interpreter on PATH (`py-unit`), if any.
fn tests(
    repo: &Repo,
    dir: &str,
    pytest: Option<Evidence>,
    tool: Tool,
    run_prefix: &str,
    tox_env: Option<&str>,
    out: &mut Findings,
) {
    let python = if tool.fills_interpreter() { "python3".to_string() } else { format!("{run_prefix}python") };
    // The project's own runner comes before a runner inferred from its configuration: it
    // sets up what the suite needs (settings, paths, the database to test against).
    if let Some(script) = TEST_SCRIPTS.iter().map(|s| join(dir, s)).find(|path| repo.exists(path)) {
        let relative = script.strip_prefix(dir).unwrap_or(&script).trim_start_matches('/');
        out.test(in_dir(dir, &format!("{python} {relative}")), Evidence::file(script.clone()));
    }
    let runs_pytest = pytest.is_some();
    if let Some(source) = pytest {
        let command = if tool == Tool::Hatch { "hatch test".to_string() } else { format!("{run_prefix}pytest") };
        out.test(in_dir(dir, &command), source);
    }
    if let Some(path) = tox_config(repo, dir) {
        // pytest in the installed interpreter is the quicker check; without it, tox's matrix
        // once, for the Python here (a bare `tox` runs every interpreter it lists).
        let tox = match tox_env.filter(|_| !runs_pytest) {
            Some(env) => format!("tox -e {}", quote(env)),
            None => "tox".to_string(),
        };
        out.test(in_dir(dir, &tox), path.evidence());
    }
    let noxfile = join(dir, "noxfile.py");
    if repo.exists(&noxfile) {
        // The session of the tests, on the interpreters this machine has (nox fails on a
        // missing one when `CI` is set, as in a sandbox); a bare `nox` runs every default
        // session, docs and lint included.
        let command = match repo.read(&noxfile).as_deref().and_then(nox_test_session) {
            Some(session) => format!("nox -s {session} --no-error-on-missing-interpreters"),
            None => "nox".to_string(),
        };
        out.test(in_dir(dir, &command), Evidence::file(noxfile));
    }
    let manage = join(dir, "manage.py");
    if repo.exists(&manage) {
        out.test(in_dir(dir, &format!("{python} manage.py test")), Evidence::file(manage));
    }
}

/// Where tox is configured, in tox's own order: `tox.ini`, `setup.cfg` with a `[tox:tox]`
/// section, `[tool.tox]` of `pyproject.toml` (`pyproject.toml#tool.tox`), `tox.toml`.
fn tox_config(repo: &Repo, dir: &str) -> Option<ToxConfig> {
    let tox_ini = join(dir, "tox.ini");
    if repo.exists(&tox_ini) {
        return Some(ToxConfig::Ini(tox_ini));
    }
    let setup_cfg = join(dir, "setup.cfg");
    let has_tox = |text: &str| text.lines().any(|l| l.trim() == "[tox:tox]");
    if repo.exists(&setup_cfg) && repo.read(&setup_cfg).is_some_and(|t| has_tox(&t)) {
        return Some(ToxConfig::Ini(setup_cfg));
    }
    let pyproject = join(dir, "pyproject.toml");
    if repo.exists(&pyproject) && repo.read_toml(&pyproject).is_some_and(|p| tool_tox(&p).is_some()) {
        return Some(ToxConfig::Pyproject(pyproject));
    }
    Some(join(dir, "tox.toml")).filter(|path| repo.exists(path)).map(ToxConfig::Toml)
}

/// Where a project's tox configuration is, by its format.
#[derive(Debug, Clone)]
enum ToxConfig {
    /// `tox.ini`, or `setup.cfg` with a `[tox:tox]` section.
    Ini(String),
    /// `tox.toml`.
    Toml(String),
    /// `pyproject.toml` with a `[tool.tox]` table.
    Pyproject(String),
}

impl ToxConfig {
    fn evidence(&self) -> Evidence {
        match self {
            ToxConfig::Ini(path) | ToxConfig::Toml(path) => Evidence::file(path),
            ToxConfig::Pyproject(path) => Evidence::key(path, "tool.tox"),
        }
    }

    fn is_toml(&self) -> bool {
        !matches!(self, ToxConfig::Ini(_))
    }

    /// Evidence for `key` of the configuration (a dotted key of its TOML table, or
    /// `section.key` of its ini file).
    fn key(&self, key: &str) -> Evidence {
        self.evidence().sub_key(key)
    }

    /// The deps of its test environment.
    fn test_deps(&self, repo: &Repo) -> tox::TestDeps {
        let deps = match self {
            ToxConfig::Pyproject(path) => repo.read_toml(path).and_then(|p| tool_tox(&p).map(tox::toml_test_deps)),
            ToxConfig::Toml(path) => repo.read_toml(path).map(|t| tox::toml_test_deps(&t)),
            ToxConfig::Ini(path) => repo.read(path).map(|text| tox::test_deps(&text)),
        };
        deps.unwrap_or_default()
    }

    /// Its text in ini form: the ini file's, or a `[tool.tox]` table's `legacy_tox_ini`.
    fn ini_text(&self, repo: &Repo) -> Option<String> {
        match self {
            ToxConfig::Ini(path) => repo.read(path).map(|text| text.to_string()),
            ToxConfig::Pyproject(path) => {
                let table = repo.read_toml(path);
                table.and_then(|p| tool_tox(&p)?.get("legacy_tox_ini")?.as_str().map(str::to_string))
            }
            ToxConfig::Toml(_) => None,
        }
    }
}

/// The requirements files (repo-relative) that tox gives only to its docs or lint
/// environments: theirs, not the tests' (see [`tox::files_of_special_envs`]).
fn tox_special_files(repo: &Repo, dir: &str) -> Vec<String> {
    let ini = tox_config(repo, dir).filter(|config| !config.is_toml());
    let files = ini.and_then(|ini| ini.ini_text(repo)).map(|text| tox::files_of_special_envs(&text));
    files.unwrap_or_default().iter().filter_map(|file| join_path(dir, file)).collect()
}

/// The test extras setuptools declares outside `pyproject.toml`: `[options.extras_require]`
/// of `setup.cfg`, and the keys of `setup.py`'s `extras_require` (`{"tests": [...]}` or
/// `dict(tests=[...])`), read as text: the names in `TEST_SETS` only.
fn setuptools_test_extras(repo: &Repo, dir: &str) -> Vec<String> {
    static KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"["']([[:word:].-]+)["']\s*:|(?-u:\b)([[:word:]]+)\s*=\s*[\[(]"#)
            .expect("the extras key pattern is valid")
    });
    let read = |name: &str| Some(join(dir, name)).filter(|path| repo.exists(path)).and_then(|path| repo.read(&path));
    let mut found: Vec<String> = Vec::new();
    if let Some(text) = read("setup.py")
        && let Some((_, declared)) = text.split_once("extras_require")
    {
        let keys = KEY.captures_iter(declared).filter_map(|c| c.get(1).or_else(|| c.get(2)));
        found.extend(keys.map(|k| k.as_str().to_string()));
    }
    if let Some(text) = read("setup.cfg") {
        let section = text.lines().skip_while(|l| l.trim() != "[options.extras_require]").skip(1);
        let keys =
            section.take_while(|l| !l.trim_start().starts_with('[')).filter(|l| !l.starts_with(char::is_whitespace));
        found.extend(keys.filter_map(|l| l.split_once('=')).map(|(key, _)| key.trim().to_string()));
    }
    let mut extras: Vec<String> = Vec::new();
    for extra in found.into_iter().filter(|e| TEST_SETS.contains(&e.as_str())) {
        if !extras.contains(&extra) {
            extras.push(extra);
        }
    }
    extras
}

fn tool_tox(pyproject: &toml::Table) -> Option<&toml::Table> {
    pyproject.get("tool")?.get("tox")?.as_table()
}

/// The commands of the tox environments `command` runs (`tox -e lint`, `python3 -m tox run
/// -e py,docs`) from `dir`, as its ini configuration declares them; empty for another
/// command, a TOML configuration or no configuration.
fn tox_env_commands(repo: &Repo, dir: &str, command: &str) -> Vec<String> {
    let words: Vec<&str> = shell::split_prefix(command).1.split_whitespace().collect();
    let runs_tox = match words.as_slice() {
        ["tox", ..] => true,
        [python, "-m", "tox", ..] => python.starts_with("python"),
        _ => false,
    };
    let envs = words.windows(2).find(|w| ["-e", "--env"].contains(&w[0])).map(|w| w[1]);
    let (Some(envs), true) = (envs, runs_tox) else { return Vec::new() };
    let Some(ini) = tox_config(repo, dir).and_then(|config| config.ini_text(repo)) else { return Vec::new() };
    envs.split(',').flat_map(|env| tox::env_commands(&ini, env)).collect()
}

fn pytest_evidence(
    repo: &Repo,
    dir: &str,
    requirements: &[&str],
    pyproject: Option<&toml::Table>,
    pyproject_path: &str,
) -> Option<Evidence> {
    if pyproject.and_then(|p| p.get("tool")).and_then(|t| t.get("pytest")).is_some() {
        return Some(Evidence::key(pyproject_path, "tool.pytest"));
    }
    for file in ["pytest.ini", "conftest.py", "tests/conftest.py", "test/conftest.py"] {
        let path = join(dir, file);
        if repo.exists(&path) {
            return Some(Evidence::file(path));
        }
    }
    for file in ["setup.cfg", "tox.ini"] {
        let path = join(dir, file);
        if repo.exists(&path) && repo.read(&path).is_some_and(|t| t.contains("[tool:pytest]") || t.contains("[pytest]"))
        {
            return Some(Evidence::file(path));
        }
    }
    // pytest named as a dependency: in pyproject (any table) or a requirements file.
    if repo.exists(pyproject_path) && repo.read(pyproject_path).is_some_and(|t| mentions_pytest(&t)) {
        return Some(Evidence::file(pyproject_path));
    }
    requirements.iter().find(|f| repo.read(f).is_some_and(|t| mentions_pytest(&t))).map(|f| Evidence::file(*f))
}

fn mentions_pytest(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim().trim_start_matches(['"', '\'']);
        l.starts_with("pytest") && !l.starts_with("pytest-") || l.contains("\"pytest") && !l.contains("\"pytest-")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    #[test]
    fn ci_jobs_testing_through_a_script_install_what_it_needs() {
        let workflow = "jobs:\n  postgres:\n    steps:\n      - run: pip install -r requirements/extras/postgres.txt\n      - run: ./scripts/test-postgres.sh\n  docs:\n    steps:\n      - run: pip install -r requirements/docs.txt\n      - run: ./scripts/build-docs.sh\n";
        let s = scan(
            &Python,
            &[
                ("setup.py", ""),
                ("requirements/extras/postgres.txt", "asyncpg\n"),
                ("requirements/docs.txt", "sphinx\n"),
                ("scripts/test-postgres.sh", "#!/bin/bash\npython -m pytest -s $@\n"),
                ("scripts/build-docs.sh", "#!/bin/bash\nsphinx-build docs out\n"),
                (".github/workflows/ci.yml", workflow),
            ],
        );
        let steps = s.steps();
        assert!(steps.contains(&"python3 -m pip install -r requirements/extras/postgres.txt"), "{steps:?}");
        assert!(!steps.iter().any(|c| c.contains("docs.txt")), "a job that runs no tests: {steps:?}");
    }

    #[test]
    fn what_ci_test_jobs_and_tox_install_goes_in_once_as_pip_arguments() {
        let workflow = "jobs:\n  test:\n    steps:\n      - run: pip install -r requirements.txt -r tests/requirements.txt\n      - run: pip install pytest-cov -e .[redis]\n      - run: pytest --cov\n  lint:\n    steps:\n      - run: pip install ruff && ruff check .\n";
        let tox = "[testenv]\ndeps =\n    --requirement=test_requirements.txt\n    mock\ncommands = pytest\n";
        let s = scan(
            &Python,
            &[
                ("requirements.txt", "attrs\n"),
                ("tests/requirements.txt", "pytest\n"),
                ("test_requirements.txt", "whatever\n"),
                ("setup.py", ""),
                ("tox.ini", tox),
                (".github/workflows/ci.yml", workflow),
            ],
        );
        let installs: Vec<&str> =
            s.steps().into_iter().filter(|c| c.contains("pip install") || c.starts_with("hanzo_pip_each")).collect();
        assert_eq!(
            installs[..4],
            [
                "python3 -m pip install -r requirements.txt",
                "python3 -m pip install -r test_requirements.txt",
                "python3 -m pip install -r tests/requirements.txt",
                "hanzo_pip_each 'installed by the CI test job' -- pytest-cov",
            ],
            "what CI installs before (or with) the checkout goes in before the project: {installs:?}"
        );
        assert_eq!(installs[4], "python3 -m pip install -e '.[redis]'", "{installs:?}");
        // tox's deps at once, else one by one (a VCS dep without network); the requirements
        // file the project's install took is not taken again.
        assert!(installs.contains(&"hanzo_pip_each 'a dep of the tox test environment' -- mock"), "{installs:?}");
        assert!(!installs.iter().any(|c| c.contains("ruff")), "a lint job's tools: {installs:?}");
        assert!(!installs.contains(&"python3 -m pip install pytest"), "tests/requirements.txt names it: {installs:?}");
        // What a job installs after its tests ran is for a later step (plugins that would
        // change what the tests see).
        let later = "jobs:\n  test:\n    steps:\n      - run: pip install pytest-xdist && pytest -n auto\n      - run: pip install datasette-init\n      - run: tests/load-plugins.sh\n";
        let s = scan(&Python, &[("setup.py", ""), (".github/workflows/ci.yml", later)]);
        let steps = s.steps();
        assert!(steps.contains(&"hanzo_pip_each 'installed by the CI test job' -- pytest-xdist"), "{steps:?}");
        assert!(!steps.iter().any(|c| c.contains("datasette-init")), "{steps:?}");

        // Jobs testing variants each pin their own Django: the first job's goes in, once.
        let variants = "jobs:\n  sqlite:\n    steps:\n      - run: pip install 'Django>=5.2,<5.3' pytest\n      - run: pytest\n  postgres:\n    steps:\n      - run: pip install \"django>=6.1,<6.2\" psycopg2\n      - run: pytest\n";
        let s = scan(&Python, &[("setup.py", ""), (".github/workflows/ci.yml", variants)]);
        let steps = s.steps();
        let ci_step = steps.iter().find(|c| c.contains("installed by the CI test job")).expect("CI's packages");
        assert_eq!(*ci_step, "hanzo_pip_each 'installed by the CI test job' -- 'Django>=5.2,<5.3' pytest psycopg2");

        // uv's and poetry's projects go to the interpreter too, and CI's additions with them;
        // hatch keeps its own environment, which pip's would not reach.
        let ci = ".github/workflows/ci.yml";
        let workflow = "jobs:\n  test:\n    steps:\n      - run: pip install pytest-timeout -r requirements/tests.txt\n      - run: pytest\n";
        let files = [
            ("pyproject.toml", "[project]\nname = 'x'\n"),
            ("uv.lock", ""),
            ("requirements/tests.txt", "x\n"),
            (ci, workflow),
        ];
        let uv = scan(&Python, &files);
        assert!(
            uv.steps().contains(&"hanzo_pip_each 'installed by the CI test job' -- pytest-timeout"),
            "{:?}",
            uv.steps()
        );
        // uv's install takes no requirements file, so the one CI names is not taken for done.
        assert!(uv.steps().contains(&"python3 -m pip install -r requirements/tests.txt"), "{:?}", uv.steps());
        let hatch =
            scan(&Python, &[("pyproject.toml", "[project]\nname = 'x'\n[tool.hatch.envs.test]\n"), (ci, workflow)]);
        assert!(!hatch.steps().iter().any(|c| c.contains("pytest-timeout")), "{:?}", hatch.steps());
    }

    #[test]
    fn a_missing_tool_is_installed_at_the_version_the_project_states_or_its_lock_was_written_by() {
        let pyproject = |text: &str| text.parse::<toml::Table>().unwrap();
        let lock_1 = "# This file is automatically @generated by Poetry 1.8.4 and should not be changed by hand.\n";
        let stated = pyproject("[tool.poetry]\nrequires-poetry = '>=2.1'\n");
        assert_eq!(Tool::Poetry.requirement(Some(&stated), Some(lock_1)).as_deref(), Some("poetry>=2.1"));
        let unstated = pyproject("[project]\nname = 'x'\n");
        assert_eq!(Tool::Poetry.requirement(Some(&unstated), Some(lock_1)).as_deref(), Some("poetry<2"));
        assert_eq!(Tool::Poetry.requirement(Some(&unstated), Some("[[package]]\n")).as_deref(), Some("poetry"));
        let uv = pyproject("[tool.uv]\nrequired-version = '>=0.5'\n");
        assert_eq!(Tool::Uv.requirement(Some(&uv), None).as_deref(), Some("uv>=0.5"));
        assert_eq!(Tool::Pip.requirement(Some(&uv), None), None);
        assert_eq!(Tool::Pdm.requirement(None, None).as_deref(), Some("pdm[locked]"));
        // A poetry project without a lock is read without looking for one.
        let s = scan(&Python, &[("pyproject.toml", "[tool.poetry]\nname = 'x'\n")]);
        assert!(s.steps().contains(&"command -v poetry >/dev/null 2>&1 || python3 -m pip install --quiet poetry"));
        assert_eq!(s.warnings, Vec::<String>::new());
    }

    #[test]
    fn nox_runs_the_session_of_the_tests() {
        let noxfile = "import nox\n\n@nox.session(python=['3.10', '3.14'])\n@nox.parametrize('x', [1, 2])\ndef tests(session, x):\n    session.run('pytest')\n\n@nox.session\ndef docs(session):\n    pass\n";
        assert_eq!(nox_test_session(noxfile), Some("tests"));
        assert_eq!(nox_test_session("@nox.session\ndef lint(session):\n    pass\ndef test(x):\n    pass\n"), None);
        let s = scan(&Python, &[("setup.py", ""), ("noxfile.py", noxfile)]);
        assert!(s.tests().contains(&"nox -s tests --no-error-on-missing-interpreters"), "{:?}", s.tests());
    }

    #[test]
    fn runners_are_bootstrapped_into_the_interpreter_the_tests_use() {
        let bootstrap =
            |runner: &str| format!("command -v {runner} >/dev/null 2>&1 || python3 -m pip install {runner}");
        let project = "[project]\nname = 'x'\n";
        let uv = scan(&Python, &[("pyproject.toml", project), ("uv.lock", ""), ("noxfile.py", "import nox\n")]);
        assert!(uv.steps().contains(&bootstrap("nox").as_str()), "{:?}", uv.steps());
        let poetry = scan(&Python, &[("pyproject.toml", project), ("poetry.lock", ""), ("tox.ini", "[tox]\n")]);
        assert!(poetry.steps().contains(&bootstrap("tox").as_str()), "{:?}", poetry.steps());
        // pdm keeps its own environment: a runner installed into the interpreter is not its.
        let pdm = scan(&Python, &[("pyproject.toml", project), ("pdm.lock", ""), ("noxfile.py", "")]);
        assert!(!pdm.steps().contains(&bootstrap("nox").as_str()), "{:?}", pdm.steps());
    }

    #[test]
    fn setuptools_test_extras_outside_pyproject() {
        let extras = |files: &[(&str, &str)]| {
            let (_dir, repo) = crate::detect::testing::repo_with(files);
            setuptools_test_extras(&repo, "")
        };
        let setup_py = "tests_require = ['pytest']\nextras_require = {\"tests\": tests_require, 'docs': ['sphinx']}\nsetup(name='x', extras_require=extras_require)\n";
        assert_eq!(extras(&[("setup.py", setup_py)]), ["tests"]);
        assert_eq!(extras(&[("setup.py", "setup(extras_require=dict(testing=['pytest'], docs=['x']))")]), ["testing"]);
        let setup_cfg =
            "[options.extras_require]\ndocs = sphinx\ntest =\n    pytest\n    dev = not-a-key\n[flake8]\ndev = x\n";
        assert_eq!(extras(&[("setup.py", "setup()"), ("setup.cfg", setup_cfg)]), ["test"]);
        assert!(extras(&[("setup.py", "setup(name='tests')")]).is_empty());
    }

    #[test]
    fn a_release_workflow_that_runs_the_tests_is_read_unless_its_line_ships() {
        let build_release = "name: build\njobs:\n  tests:\n    steps:\n      - run: pip install tox\n      - run: tox -e py\n  release:\n    steps:\n      - run: pip install keyring\n      - run: pytest && twine upload dist/*\n";
        let s = scan(&Python, &[("setup.py", ""), (".github/workflows/build-release.yml", build_release)]);
        let steps = s.steps();
        assert!(
            steps.iter().any(|c| c.starts_with("hanzo_pip_each 'installed by the CI test job' -- tox")),
            "{steps:?}"
        );
        assert!(!steps.iter().any(|c| c.contains("keyring")), "{steps:?}");
    }

    #[test]
    fn test_requirements_named_before_the_word() {
        for name in
            ["test_requirements.txt", "dev-requirements.txt", "tests-requirements.txt", "testing_requirements.txt"]
        {
            assert!(is_test_requirements(name), "{name}");
        }
        for name in ["docs-requirements.txt", "requirements.txt", "latest_requirements.txt", "test.txt"] {
            assert!(!is_test_requirements(name), "{name}");
        }
        let s = scan(
            &Python,
            &[("setup.py", ""), ("test_requirements.txt", "pytest\n"), ("docs-requirements.txt", "sphinx\n")],
        );
        let installs: Vec<&str> = s.steps().into_iter().filter(|c| c.contains("pip install -")).collect();
        assert_eq!(installs, ["python3 -m pip install -r test_requirements.txt", "python3 -m pip install -e ."]);
    }

    #[test]
    fn tox_runs_its_matrix_once_for_the_python_here_when_pytest_is_not_the_runner() {
        let tox = "[tox]\nenvlist = py{39,310}-{unit,nose}\n[testenv]\ndeps =\n    nose: nose\ncommands =\n    unit: python -m unittest\n";
        let s = scan(&Python, &[("setup.py", ""), ("tox.ini", tox)]);
        // The first matrix variant whose factor the deps name, as for its deps.
        assert_eq!(s.tests(), ["tox -e py-nose"]);
        let with_pytest = scan(&Python, &[("setup.py", ""), ("tox.ini", tox), ("conftest.py", "")]);
        assert_eq!(with_pytest.tests(), ["python3 -m pytest", "tox"], "pytest in the interpreter is the quicker check");
    }

    #[test]
    fn scm_versioned_projects_install_their_requirements_first() {
        let pyproject = "[build-system]\nrequires = ['setuptools>=64', 'setuptools_scm>=8']\n[project]\nname = 'Plug_Gy'\ndependencies = ['attrs>=23']\n[project.optional-dependencies]\ntesting = ['pytest>=8', 'plug-gy[extra]']\nextra = ['rich']\ndocs = ['sphinx']\n";
        let s = scan(&Python, &[("pyproject.toml", pyproject)]);
        let installs: Vec<&str> =
            s.steps().into_iter().filter(|c| c.contains("pip install") || c.starts_with("hanzo_pip_each")).collect();
        // The project would be 0.0.0 (no .git) and pytest needs a real pluggy: its
        // requirements (the self-reference followed) first, then the project on its own.
        assert_eq!(
            installs,
            [
                "python3 -m pip install 'attrs>=23' 'pytest>=8' rich",
                "{ [ -e .git ] || export SETUPTOOLS_SCM_PRETEND_VERSION=0.0.0; python3 -m pip install --no-deps -e .; }",
            ]
        );
        // Dynamic dependencies are known only to the build: pip resolves them as usual.
        let dynamic = pyproject.replace("[project]\n", "[project]\ndynamic = ['dependencies']\n");
        let s = scan(&Python, &[("pyproject.toml", &dynamic)]);
        assert!(s.steps().iter().any(|c| c.contains("python3 -m pip install -e '.[testing]'")), "{:?}", s.steps());
    }

    #[test]
    fn uv_path_sources_outside_the_checkout_are_warned_about() {
        let pyproject = "[project]\nname = 'app'\n[tool.uv.sources]\nplugins = { path = '../plugins', editable = true }\nlocal = { path = 'libs/local' }\nweb = { git = 'https://example.com/web' }\n";
        let s = scan(&Python, &[("pyproject.toml", pyproject), ("uv.lock", "version = 1\n")]);
        let warnings: Vec<&str> = s.findings.warnings.iter().map(String::as_str).collect();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0]
                .starts_with("pyproject.toml: tool.uv.sources.plugins is the path `../plugins`, outside the checkout")
        );
        assert!(warnings[0].ends_with("or vendor it into the repository)"));
    }

    #[test]
    fn uv_and_poetry_runs_go_to_the_interpreter() {
        let with = |command: &str, managers: &[&str]| in_the_interpreter(command, managers);
        assert_eq!(with("uv run pytest -x", &["uv"]).as_deref(), Some("python3 -m pytest -x"));
        assert_eq!(
            with("uv run --frozen coverage run -m pytest", &["uv"]).as_deref(),
            Some("python3 -m coverage run -m pytest")
        );
        assert_eq!(with("poetry run python -m unittest", &["poetry"]).as_deref(), Some("python3 -m unittest"));
        assert_eq!(with("uv run bash scripts/test.sh", &["uv"]).as_deref(), Some("bash scripts/test.sh"));
        // Another environment than the one installed, or a project that does not use uv.
        assert_eq!(with("uv run --only-group tox tox run -e py", &["uv"]), None);
        // The groups and extras the export installed (see `Requested`).
        assert_eq!(
            with("uv run --locked --group test --extra=yaml --all-extras pytest --cov", &["uv"]).as_deref(),
            Some("python3 -m pytest --cov")
        );
        assert_eq!(with("uv run --group", &["uv"]), None);
        assert_eq!(with("uv run --with x pytest", &["uv"]), None);
        assert_eq!(with("uv run pytest", &["pip"]), None);
        assert_eq!(with("pdm run pytest", &["pdm"]), None);
        // A bare runner goes through the interpreter that install filled, found on any PATH.
        assert_eq!(with("pytest tests --cov", &["pip"]).as_deref(), Some("python3 -m pytest tests --cov"));
        assert_eq!(with("py.test -x", &["poetry"]).as_deref(), Some("python3 -m pytest -x"));
        assert_eq!(with("tox -e py", &["uv", "npm"]).as_deref(), Some("python3 -m tox -e py"));
        assert_eq!(with("coverage run -m pytest", &["pip"]).as_deref(), Some("python3 -m coverage run -m pytest"));
        assert_eq!(with("pytest", &["pipenv"]), None, "pipenv's environment is its own");
        assert_eq!(with("pytest", &["npm"]), None);
        assert_eq!(with("pytest-watch", &["pip"]), None);
        assert_eq!(with("python -m pytest", &["pip"]).as_deref(), Some("python3 -m pytest"));
        assert_eq!(with("python2 -m pytest", &["pip"]), None);
        // Django's runner, also by the path CI's `which` gives.
        assert_eq!(
            with("`which django-admin` test tests --settings=tests.settings", &["pip"]).as_deref(),
            Some("python3 -m django test tests --settings=tests.settings")
        );
        assert_eq!(with("$(which django-admin.py) test", &["pip"]).as_deref(), Some("python3 -m django test"));
        assert_eq!(
            with("coverage run `which django-admin` test", &["pip"]).as_deref(),
            Some("python3 -m coverage run `which django-admin` test"),
            "coverage runs a file: its path stays"
        );
        assert!(crate::detect::ecosystems::is_test_command("coverage run `which django-admin.py` test tests"));
        assert!(crate::detect::ecosystems::is_test_command("django-admin test --settings=tests.settings"));
        assert!(!crate::detect::ecosystems::is_test_command("django-admin testserver"));
        assert_eq!(
            crate::detect::ecosystems::in_installed_environment("cd api && X='a b' uv run pytest", &["uv"]),
            "cd api && X='a b' python3 -m pytest"
        );
    }

    #[test]
    fn uv_exports_the_extras_the_repos_uv_commands_ask_for_that_each_project_declares() {
        let workflow = "jobs:\n  t:\n    steps:\n      - run: uv run --extra yaml --extra=msgpack --group test --group lint pytest\n";
        let app = "[project]\nname = 'app'\n[project.optional-dependencies]\nyaml = ['pyyaml']\n[dependency-groups]\ntest = ['pytest']\nlint = ['ruff']\n";
        let tool = "[project]\nname = 'tool'\n";
        let s = scan(
            &Python,
            &[
                (".github/workflows/ci.yml", workflow),
                ("pyproject.toml", app),
                ("uv.lock", ""),
                ("tool/pyproject.toml", tool),
                ("tool/uv.lock", ""),
            ],
        );
        let exports: Vec<&str> = s.steps().into_iter().filter(|c| c.contains("--no-emit-workspace")).collect();
        assert_eq!(exports.len(), 2, "{exports:?}");
        // The test group once (it is exported anyway), then the group and extra it declares.
        assert!(
            exports[0].starts_with("uv export --frozen --group test --group lint --extra yaml --no-hashes"),
            "{}",
            exports[0]
        );
        assert!(
            exports[1].contains("uv export --frozen --no-hashes"),
            "an extra it lacks is not asked: {}",
            exports[1]
        );
        let all = "jobs:\n  t:\n    steps:\n      - run: uv sync --all-extras --extra yaml\n";
        let s = scan(&Python, &[(".github/workflows/ci.yml", all), ("pyproject.toml", app), ("uv.lock", "")]);
        assert!(
            s.steps().iter().any(|c| c.starts_with("uv export --frozen --group test --all-extras --no-hashes")),
            "{:?}",
            s.steps()
        );
    }

    #[test]
    fn poetry_exports_the_extras_and_groups_the_repos_poetry_install_asks_for() {
        let workflow = "jobs:\n  t:\n    steps:\n      - run: poetry install -E redis --extras 'msgpack yaml' --with docs,typing\n      - run: poetry run pytest\n";
        let pyproject = "[tool.poetry]\nname = 'x'\n[tool.poetry.dependencies]\npython = '^3.9'\n[tool.poetry.extras]\nredis = ['redis']\nyaml = ['pyyaml']\n[tool.poetry.group.docs]\noptional = true\n[tool.poetry.group.test.dependencies]\npytest = '*'\n";
        let s = scan(
            &Python,
            &[(".github/workflows/ci.yml", workflow), ("pyproject.toml", pyproject), ("poetry.lock", "")],
        );
        let export = s.steps().into_iter().find(|c| c.contains("poetry export --without-hashes")).unwrap_or_default();
        // The default group, the optional group asked for, and the declared extras asked for:
        // `typing` and `msgpack` are not the project's.
        assert!(
            export.contains("poetry export --without-hashes --with test,docs --extras redis --extras yaml |"),
            "{export}"
        );
        let all = "jobs:\n  t:\n    steps:\n      - run: poetry install --all-extras\n";
        let s = scan(&Python, &[(".github/workflows/ci.yml", all), ("pyproject.toml", pyproject), ("poetry.lock", "")]);
        assert!(s.steps().iter().any(|c| c.contains("--with test --all-extras |")), "{:?}", s.steps());
    }

    #[test]
    fn test_runner_scripts_run_the_suite() {
        use crate::detect::ecosystems::is_test_command;
        for line in [
            "python runtests.py --mysql-user=root -s -v2",
            "python3 ./runtests.py",
            "python -Wall tests/runtests.py --settings=test_sqlite",
            "python -W error::DeprecationWarning -X dev runtests.py --fast",
            "python3.12 -u run_tests.py",
            "./tests/runtests.py --verbosity 2",
            "coverage run --source=app runtests.py",
            "coverage run --parallel-mode --source wagtail runtests.py",
            "python -m coverage run runtests.py",
            "cd tests && python runtests.py",
            "PYTHONPATH=. python run-tests.py",
        ] {
            assert!(is_test_command(line), "{line}");
        }
        for line in
            ["python setup.py build_ext -i", "flake8 runtests.py", "python runtests_helper.py", "cat runtests.py"]
        {
            assert!(!is_test_command(line), "{line}");
        }
        // Without CI, the script is offered before what the configuration implies.
        let setup = "from setuptools import setup\nsetup(name='lib')\n";
        let s = scan(&Python, &[("setup.py", setup), ("runtests.py", "import unittest\n"), ("tests/conftest.py", "")]);
        assert_eq!(s.tests(), ["python3 runtests.py", "python3 -m pytest"]);
        let s = scan(&Python, &[("setup.py", setup), ("tests/runtests.py", ""), ("tests/test_a.py", "")]);
        assert_eq!(s.tests(), ["python3 tests/runtests.py"]);
        let pdm = "[project]\nname = 'lib'\n[tool.pdm]\n";
        let s = scan(&Python, &[("api/pyproject.toml", pdm), ("api/run_tests.py", "")]);
        assert_eq!(s.tests(), ["(cd api && pdm run python run_tests.py)"]);
        let s = scan(&Python, &[("setup.py", setup), ("scripts/runtests.py", "")]);
        assert_eq!(s.tests(), Vec::<&str>::new());
    }

    #[test]
    fn a_hatch_matrix_variant_is_the_python_on_path() {
        let on_path = r#"+py="$(python3 -c 'import sys; print(*sys.version_info[:2], sep=".")')""#;
        assert_eq!(
            in_the_interpreter("hatch run +py=3.8 test:default --color=yes", &["hatch"]),
            Some(format!("hatch run {on_path} test:default --color=yes"))
        );
        // Options after the script are the script's own; no variant picked, nothing to change.
        assert_eq!(on_the_python_on_path("hatch run test:default +py=3.8"), None);
        assert_eq!(on_the_python_on_path("hatch run test:cov"), None);
        use crate::detect::ecosystems::is_test_command;
        assert!(is_test_command("hatch run +py=3.12 test:default --color=yes"));
        assert!(is_test_command("hatch run +py=3.12 -version=2 all:test"));
        assert!(!is_test_command("hatch run test:python -m pip list"));
    }

    #[test]
    fn dependency_groups_with_includes() {
        let pyproject: toml::Table = "[dependency-groups]\ntest = ['pytest>=8', {include-group = 'coverage'}]\ncoverage = ['coverage[toml]']\ndocs = ['sphinx']\ndev = [{include-group = 'test'}, 'ruff']\n".parse().unwrap();
        let mut found = dependency_groups(Some(&pyproject));
        found.sort();
        // The test group says what the tests need; dev (docs, linters) stays out beside it.
        assert_eq!(found, ["coverage[toml]", "pytest>=8"]);
        let only_dev: toml::Table = "[dependency-groups]\ndev = ['pytest>=8', 'ruff']\n".parse().unwrap();
        assert_eq!(dependency_groups(Some(&only_dev)), ["pytest>=8", "ruff"]);
        assert!(is_scm_version_plugin("setuptools_scm[toml]>=8"));
        assert!(is_scm_version_plugin("hatch-vcs"));
        assert!(!is_scm_version_plugin("setuptools>=61"));
    }

    #[test]
    fn python_pins() {
        assert_eq!(pinned_python("==3.12.*").as_deref(), Some("3.12"));
        assert_eq!(pinned_python("~=3.11.4").as_deref(), Some("3.11"));
        assert_eq!(pinned_python("~3.10").as_deref(), Some("3.10"));
        assert_eq!(pinned_python(">=3.12, <3.13").as_deref(), Some("3.12"));
        for floor in [">=3.11", "^3.11", ">=3.9,<4", "~=3.11"] {
            assert_eq!(pinned_python(floor), None, "{floor}");
        }
    }
}
