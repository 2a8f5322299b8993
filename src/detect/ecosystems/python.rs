//! Python (uv, poetry, pdm, pipenv, hatch, pip with requirements files).
//!
//! A directory is a Python project when it holds `pyproject.toml`, `setup.py`, `setup.cfg`,
//! `Pipfile` or `requirements*.txt` among the project's own files. A nested one inside
//! another project counts only when it has its own lockfile and is not a uv workspace member.

use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};
use crate::warning::Warning;
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{
    Alias, Declaration, Ecosystem, EnvHelper, EnvRead, Need, SetupStep, Toolchain,
};
use crate::detect::ecosystems::project::{Members, pm_path, toml_workspace};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, too_deep_for_a_project};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::{self, commands, in_dir, join_path, quote};
use crate::detect::sources::version;
use crate::detect::sources::workflows::JobKind;
use crate::evidence::{Evidence, Kind};

mod ci;
mod django_settings;
mod env;
mod install;
mod invenio;
mod native;
mod pin;
mod runners;
#[cfg(test)]
mod tests;
mod tox;

use self::{install::*, pin::*, runners::*};

pub struct Python;

/// What Python declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "python",
    // Every Python is 3: a version pins something only with its minor.
    toolchains: &[Toolchain::new("python", "Python").pinned_with(2)],
    package_managers: &["pip", "uv", "poetry", "pdm", "pipenv", "hatch"],
    programs: &["python3", "python", "pip", "pip3"],
    manifests: &["pyproject.toml", "requirements.txt", "setup.py", "setup.cfg", "Pipfile"],
    aliases: &[
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
    ],
    setup_steps: &[
        SetupStep::new("python", "actions/setup-python@v5", "python-version"),
        SetupStep::new("uv", "astral-sh/setup-uv@v6", "version"),
        SetupStep::new("pdm", "pdm-project/setup-pdm@v4", "version"),
    ],
    devcontainer_features: &[("python", "ghcr.io/devcontainers/features/python:1")],
    test_commands: &[
        // `python -mpytest` as well: Python takes the module name attached to `-m`.
        r"(?:python3?[[:space:]]+-m[[:space:]]*|uv[[:space:]]+run[[:space:]]+|poetry[[:space:]]+run[[:space:]]+|pdm[[:space:]]+run[[:space:]]+|pipenv[[:space:]]+run[[:space:]]+|hatch[[:space:]]+run[[:space:]]+)?(?:pytest|py\.test)(?-u:\b)",
        r"(?:[^[:space:]]*/)?manage\.py[[:space:]]+test(?-u:\b)",
        // Django's own runner for a library without a `manage.py` (also as `` `which
        // django-admin` `` in CI, to hand its path to coverage).
        r"(?:[^[:space:]]*/)?django-admin(?:\.py)?[`)]?[[:space:]]+test(?-u:\b)",
        r"python3?[[:space:]]+-m[[:space:]]*unittest(?-u:\b)",
        // The other runners Python projects use: nose, zope's and OpenStack's (not
        // `setup.py test`, which setuptools 72 removed).
        r"(?:nosetests|nose2|zope-testrunner)(?-u:\b)",
        r"stestr[[:space:]]+run(?-u:\b)",
        // A test-runner script (`runtests.py`, `tests/run_tests.py`: Django's convention
        // and many libraries'), run by the interpreter (after its options, `-W error::X`
        // included), by coverage, or as an executable.
        r"(?:python3?(?:\.[0-9]+)?[[:space:]]+(?:-[WX][[:space:]]+[^[:space:]]+[[:space:]]+|-[^[:space:]]+[[:space:]]+)*(?:-m[[:space:]]+coverage[[:space:]]+run[[:space:]]+(?:-[^[:space:]]+[[:space:]]+(?:[^-[:space:]][^[:space:]]*[[:space:]]+)?)*)?|coverage[[:space:]]+run[[:space:]]+(?:-[^[:space:]]+[[:space:]]+(?:[^-[:space:]][^[:space:]]*[[:space:]]+)?)*|\./)(?:[^[:space:]]*/)?run[-_]?tests?\.py(?:[[:space:]]|$)",
        r"(?:tox|nox)(?:[[:space:]]|$)",
        // A package's own test runner run as a module (`python -m simplejson.tests._cibw_runner`,
        // `python -m mypkg.tests`).
        r"(?:[^[:space:]]*/)?python3?(?:\.[0-9]+)?[[:space:]]+-m[[:space:]]*(?:[[:word:]]+\.)*tests?(?:\.[[:word:]]+)*(?:[[:space:]]|$)",
        // poethepoet's task named for tests (`poe test`, `uv run poe test-unit`).
        r"(?:uv[[:space:]]+run[[:space:]]+|poetry[[:space:]]+run[[:space:]]+|pdm[[:space:]]+run[[:space:]]+)?poe[[:space:]]+tests?(?:[-_:][[:word:]\-]*)?(?:[[:space:]]|$)",
        // `hatch test`, a `test` script, a test script of an environment (`test:cov`), or
        // the `default` or a coverage script of the environment named test (`test:with-coverage`);
        // matrix variants picked with `+py=3.12`. `hatch run test:python -m pip …` runs setup
        // in the test environment.
        r"hatch[[:space:]]+(?:run[[:space:]]+)?test(?:[[:space:]]|$)",
        r"hatch[[:space:]]+run[[:space:]]+(?:[+-][[:word:]]+=[^[:space:]]+[[:space:]]+)*(?:[[:word:].-]+:(?:test|tests|cov|pytest)|tests?:(?:default|[[:word:]-]*cov(?:erage)?))(?:[[:space:]]|$)",
    ],
    fan_out_test_runners: &["tox", "nox"],
    current_environment: &["py", "py3"],
    install_commands: &[
        r"(?:uv[[:space:]]+)?pip3?|python3?[[:space:]]+-m[[:space:]]+pip|uv(?:[[:space:]]+tool)?|poetry|pipx|pdm",
    ],
    source_extensions: &["py"],
    test_runners: &["pytest"],
    suite_words: &["pytest"],
    install_programs: &["hatch", "pdm", "pip", "pipenv", "poetry", "uv"],
    environment_runners: &["uv", "poetry", "pdm", "hatch"],
    activate_script: Some("bin/activate"),
    // Poetry, Pipenv and Hatch keep theirs outside the project unless configured to.
    project_environments: &[("uv", ".venv"), ("pdm", ".venv")],
    publish_commands: &[
        ("twine", "upload"),
        ("poetry", "publish"),
        ("uv", "publish"),
        ("hatch", "publish"),
        ("flit", "publish"),
    ],
    versioned_manifests: &["pyproject.toml"],
    test_file_words: &["conftest", "locustfile"],
    skipped_dirs: &[".venv", "venv", "__pycache__", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache"],
    ..Declaration::new(&Python)
};

impl Ecosystem for Python {
    fn lines_run_by(&self, sources: &Sources, dir: &RelPath, command: &str) -> Vec<String> {
        tox_env_commands(sources.repo(), dir, command)
    }
    fn in_installed_environment(&self, command: &str, package_managers: &[&str]) -> Option<String> {
        in_the_interpreter(command, package_managers)
    }
    fn is_settings_file(&self, _dir: &str, name: &str) -> bool {
        name == invenio::CONFIG_FILE
    }
    fn env_reads(&self, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        if rel.file_name() == invenio::CONFIG_FILE {
            return invenio::reads(text);
        }
        env::reads(text)
    }
    /// A Django settings module of another deployment requires nothing of development (see
    /// [`django_settings`]).
    fn env_reads_in(&self, sources: &Sources, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        let mut reads = self.env_reads(rel, text);
        // django-storages reads the AWS keys by default only when the settings give it none.
        if reads.iter().any(|read| read.via == env::STORAGES_DEFAULT)
            && django_settings::settings_texts(sources).iter().any(|t| env::gives_storages_keys(t))
        {
            reads.retain(|read| read.via != env::STORAGES_DEFAULT);
        }
        if !django_settings::is_another_deployments(sources, rel) {
            return reads;
        }
        let optional = |read: EnvRead| match read.need {
            Need::Required => EnvRead { need: Need::Optional, via: "another deployment's settings module", ..read },
            _ => read,
        };
        reads.into_iter().map(optional).collect()
    }
    fn env_helpers(&self, text: &str) -> Vec<EnvHelper> {
        let mut helpers = env::settings_bases(text);
        helpers.extend(env::function_helpers(text));
        helpers
    }
    fn name_constants(&self, text: &str) -> Vec<(String, String)> {
        env::name_constants(text)
    }
    /// Flask's `from_prefixed_env` and the like (see [`env::flask::prefix`]).
    fn env_prefix(&self, text: &str) -> Option<String> {
        env::flask::prefix(text)
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
            python: ci::tested_pythons(sources),
            unsynced_uv_run: unsynced_uv_run(sources),
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
    /// The Pythons CI tests on (see [`ci::tested_pythons`]).
    python: Option<ci::TestedPythons>,
    /// Where a task file runs `uv run --no-sync` (see [`unsynced_uv_run`]).
    unsynced_uv_run: Option<Evidence>,
}

/// The first line of a task file that runs `uv run --no-sync` (also through a variable:
/// `UV_RUN_CMD = uv run --no-sync`): such a run uses the project's `.venv` as it is and never
/// fills it, so the tests it runs need the installed set there.
fn unsynced_uv_run(sources: &Sources) -> Option<Evidence> {
    static UNSYNCED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[[:space:]=(])uv[[:space:]]+run[[:space:]](?:[^\n]*[[:space:]])?--no-sync(?:[[:space:]]|$)")
            .expect("the pattern is valid")
    });
    sources.tasks().iter().find_map(|file| {
        let text = sources.repo().read(&file.path)?;
        let line = text.lines().position(|line| UNSYNCED.is_match(line))?;
        Some(Evidence::line(file.path.clone(), line + 1))
    })
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
#[derive(Default, Clone)]
struct Requested {
    /// `--all-extras`.
    all_extras: bool,
    /// Each project exports the ones it declares (uv refuses an unknown extra).
    extras: Vec<String>,
    groups: Vec<String>,
}

impl Requested {
    fn by(sources: &Sources, options: &ExtrasOptions) -> Requested {
        // Only jobs that run tests: one that ships, builds the docs or renders screenshots asks
        // for its own groups (`uv sync --group docs`), which the tests never need.
        let ci = sources
            .workflows()
            .jobs
            .iter()
            .filter(|job| !matches!(job.kind, JobKind::Github { release: true }))
            .filter(|job| job.lines.iter().any(|line| crate::detect::ecosystems::is_test_command(&line.text)))
            .flat_map(|job| &job.lines)
            .map(|line| line.text.as_str());
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

const MARKERS: &[&RelPath] = &[rel!("pyproject.toml"), rel!("setup.py"), rel!("setup.cfg"), rel!("Pipfile")];
const LOCKFILES: &[&RelPath] = &[rel!("uv.lock"), rel!("poetry.lock"), rel!("pdm.lock"), rel!("Pipfile.lock")];

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
    let mut dirs: Vec<&RelPath> = MARKERS
        .iter()
        .flat_map(|m| repo.project_dirs(m).into_iter().map(move |dir| (*m, dir)))
        .filter(|(marker, dir)| *marker != rel!("setup.cfg") || install::setup_cfg_declares_a_package(repo, dir))
        .map(|(_, dir)| dir)
        .collect();
    let requirements = requirement_files(repo);
    dirs.extend(requirements.iter().map(|f| requirements_project_dir(f)));
    dirs.sort_by_key(|d| (d.components().count(), *d));
    dirs.dedup();

    let mut projects: Vec<(&RelPath, Option<Members>)> = Vec::new();
    for dir in dirs {
        if let Some((parent, members)) = projects.iter().rev().find(|(p, _)| dir.is_within(p)) {
            let relative = dir.relative_to(parent).unwrap_or(dir);
            let member = members.as_ref().is_some_and(|m| m.contains(relative));
            let own_lockfile = LOCKFILES.iter().any(|l| repo.exists(dir.join(l)));
            // A parent that is configuration only (pytest's, mypy's settings over `core/`
            // and `pool/`) installs its folders' projects the way CI does, or not at all:
            // then each is a project of its own.
            let parent_installs = members.is_some()
                || LOCKFILES.iter().any(|l| repo.exists(parent.join(l)))
                || is_installable(repo, parent, pyproject_of(repo, parent).as_deref())
                || !local_projects(&from_ci.test_packages, parent).is_empty();
            if (member || !own_lockfile) && parent_installs {
                continue;
            }
        }
        if too_deep_for_a_project(dir) {
            continue;
        }
        let own_requirements: Vec<&RelPath> =
            requirements.iter().copied().filter(|f| requirements_project_dir(f) == dir).collect();
        let members = project(repo, dir, &own_requirements, from_ci, out);
        projects.push((dir, members));
    }
}

/// `requirements.txt`, `requirements-dev.txt`, `requirements/test.txt`, `test_requirements.txt`,
/// … outside samples.
fn requirement_files(repo: &Repo) -> Vec<&RelPath> {
    let mut found: Vec<&RelPath> = repo
        .files()
        .filter(|f| f.name().ends_with(".txt"))
        .filter(|f| {
            f.name().starts_with("requirements")
                || f.dir().file_name() == "requirements"
                || is_test_requirements(f.name())
        })
        .filter(|f| f.is_project_path())
        .map(|f| f.path())
        .collect();
    found.sort_by_key(|f| (f.depth(), *f));
    found
}

/// `test_requirements.txt`, `dev-requirements.txt`: a test set's name before `requirements`.
fn is_test_requirements(name: &str) -> bool {
    let stem = name.strip_suffix("requirements.txt").unwrap_or_default();
    TEST_SETS.iter().any(|set| stem.strip_prefix(set).is_some_and(|sep| sep == "-" || sep == "_"))
}

/// The project a requirements file belongs to: its directory, or the parent of `requirements/`.
fn requirements_project_dir(file: &RelPath) -> &RelPath {
    let dir = file.parent();
    if dir.file_name() == "requirements" { dir.parent() } else { dir }
}

/// One project at `dir`; `requirements` are its own requirements files; `from_ci` what the
/// repo's CI and task files ask of its environment.
fn project(
    repo: &Repo,
    dir: &RelPath,
    requirements: &[&RelPath],
    from_ci: &FromCi,
    out: &mut Findings,
) -> Option<Members> {
    let pyproject_path = dir.join(rel!("pyproject.toml"));
    // Parsed once here for every reader below: a large tree does not keep it.
    let pyproject = pyproject_of(repo, dir);
    let tool_table = |name: &str| pyproject.as_deref().and_then(|p| p.get("tool")).and_then(|t| t.get(name));
    let has = |file: &RelPath| repo.exists(dir.join(file));

    let (tool, source) = if has(rel!("uv.lock")) {
        (Tool::Uv, Evidence::file(dir.join(rel!("uv.lock"))))
    } else if has(rel!("poetry.lock")) {
        (Tool::Poetry, Evidence::file(dir.join(rel!("poetry.lock"))))
    } else if has(rel!("pdm.lock")) {
        (Tool::Pdm, Evidence::file(dir.join(rel!("pdm.lock"))))
    } else if has(rel!("Pipfile")) {
        (Tool::Pipenv, Evidence::file(dir.join(rel!("Pipfile"))))
    } else if tool_table("poetry").is_some_and(|p| p.get("dependencies").is_some() || p.get("name").is_some()) {
        (Tool::Poetry, Evidence::key(&pyproject_path, "tool.poetry"))
    } else if tool_table("uv").is_some()
        && sources_outside_the_checkout(pyproject.as_deref(), dir).is_empty()
        && !ci_installs_with_extras(from_ci, dir)
    {
        (Tool::Uv, Evidence::key(&pyproject_path, "tool.uv"))
    } else if tool_table("pdm").is_some() {
        (Tool::Pdm, Evidence::key(&pyproject_path, "tool.pdm"))
    } else if tool_table("hatch").and_then(|h| h.get("envs")).is_some() {
        (Tool::Hatch, Evidence::key(&pyproject_path, "tool.hatch.envs"))
    } else {
        let first = requirements.first();
        (Tool::Pip, first.map(|f| Evidence::file(*f)).unwrap_or_else(|| pyproject_or_setup(repo, dir)))
    };

    native::native_build_packages(repo, dir, requirements, pyproject.as_deref(), out);
    let pin = python_version(repo, dir, pyproject.as_deref(), &pyproject_path, out);
    // A version file names the Python; else the newest installed one the project's range
    // accepts and CI tests on (or, without CI that says, its classifiers name), else one no
    // older than the oldest CI tests on.
    let tested_below = from_ci
        .python
        .as_ref()
        .and_then(|tested| tested.newest)
        .map(|(major, minor)| (major, minor + 1))
        .or_else(|| classified_below(pyproject.as_deref()));
    if let Some((version, evidence)) = pin.filter(|(_, evidence)| is_version_file(evidence)) {
        out.helper(Phase::Toolchain, "hanzo_python", vec![version], evidence);
    } else if let Some((range, evidence)) = python_range(pyproject.as_deref(), &pyproject_path) {
        out.helper(Phase::Toolchain, "hanzo_python_newest", range.tested_below(tested_below).arguments(), evidence);
    } else if let Some(tested) = &from_ci.python {
        let (floor, evidence) = &tested.oldest;
        let range = PythonRange { floor: *floor, below: None }.tested_below(tested_below);
        out.helper(Phase::Toolchain, "hanzo_python_newest", range.arguments(), evidence.clone());
    }
    // A project of requirements files alone has no manifest: the tool's evidence names the file.
    let manifest =
        MARKERS.iter().map(|m| dir.join(m)).find(|p| repo.exists(p)).map_or_else(|| source.clone(), Evidence::file);
    out.helper(Phase::Toolchain, "hanzo_pip_setup", Vec::new(), manifest.clone());
    out.helper(Phase::Expose, "hanzo_link_user_tools", Vec::new(), manifest);
    out.package_manager(tool.name(), None, pm_path(dir), source.clone());
    let lock = (tool == Tool::Poetry && has(rel!("poetry.lock"))).then(|| repo.read(&source.path)).flatten();
    if let Some(requirement) = tool.requirement(pyproject.as_deref(), lock.as_deref()) {
        let command = tool.name();
        // Run, not looked up: pyenv's shim of a tool another Python has is on PATH and fails
        // where the checkout's `.python-version` names a Python pyenv lacks; the shell then
        // forgets the shim's place it remembered (`hash -r`) for the one pip installs.
        out.step(
            Phase::Toolchain,
            format!(
                "{command} --version >/dev/null 2>&1 || {{ python3 -m pip install --quiet {} && hash -r; }}",
                quote(&requirement)
            ),
            source.clone(),
        );
    }

    let members = uv_workspace(repo, dir, pyproject.as_deref(), &pyproject_path, out);
    for (name, path) in sources_outside_the_checkout(pyproject.as_deref(), dir) {
        // Without a lock, uv resolves every extra and group at once and stops on the missing
        // path; pip installs what the draft asks and ignores uv's sources.
        let consequence = if tool == Tool::Uv {
            "install fails in a sandbox that lacks it (publish it to an index the sandbox reaches, or vendor it \
             into the repository)"
        } else {
            "uv cannot resolve the project without it, so the draft installs with pip, which leaves it out"
        };
        out.warn(Warning::in_file(
            &pyproject_path,
            format!("tool.uv.sources.{name} is the path `{path}`, outside the checkout: {consequence}"),
        ));
    }
    let mut pytest_installed = false;
    let tox = tox_config(repo, dir, pyproject.as_deref());
    let tox::TestDeps { deps: tox_deps, extras: tox_extras, variant: tox_variant, current: tox_env } =
        tox.as_ref().map(|config| config.test_deps(repo)).unwrap_or_default();
    // Only pip's projects take tox's deps and extras: the others' locks say what their
    // environment holds. Nor when CI runs the tests with nox and never tox: `tox.ini` is then
    // a leftover (alembic's pins a pytest older than the one its project needs).
    let ci_prefers_nox = from_ci.runners == ["nox"];
    // The requirements files the install below takes (pip's only; the locks hold the rest).
    let mut installed_files: Vec<&RelPath> = Vec::new();
    let run_prefix = match tool {
        Tool::Uv => {
            // `uv sync` fills a private `.venv` that only `uv run` sees; the locked set (the
            // project, editable, and its default groups) goes through pip into the
            // interpreter on PATH instead, so that a new shell's `python3 -m pytest` sees it.
            // The locked dependencies first, then the workspace's own packages (`-e` lines)
            // without theirs: built from a copy or a shallow clone they get a made-up version
            // that a locked dependency on them (pytest on pluggy) would refuse.
            let mut export = String::from(if has(rel!("uv.lock")) { "uv export --frozen" } else { "uv export" });
            if members.is_some() {
                export.push_str(" --all-packages");
            }
            // uv's default groups are `dev` only (or `tool.uv.default-groups`): a test group
            // beside it is what the tests need.
            let test_groups = test_groups(pyproject.as_deref());
            for group in &test_groups {
                export.push_str(&format!(" --group {}", quote(group)));
            }
            // tox installs its environment's extras (`extras = tests`) beside the project: the
            // suite needs them, and the lock holds them.
            // So are the extras CI's (or nox's) own install of the project names (`session.
            // install(".[cli,test]")`).
            let mut asked = from_ci.uv.clone();
            let ci_extras = from_ci.test_packages.iter().filter(|f| f.dir == dir).flat_map(|f| &f.extras);
            for extra in tox_extras.iter().filter(|_| !ci_prefers_nox).chain(ci_extras) {
                if !asked.extras.contains(extra) {
                    asked.extras.push(extra.clone());
                }
            }
            export.push_str(&asked.uv_flags(pyproject.as_deref(), &test_groups));
            // The interpreter the install feeds, not one uv picks (or downloads) for itself: a
            // lock it checks, or makes, needs one that satisfies `requires-python`.
            export.push_str(r#" --no-hashes --quiet --python "$(command -v python3)""#);
            out.step_in(
                dir,
                Phase::Install,
                format!("{export} --no-emit-workspace | python3 -m pip install -r /dev/stdin"),
                source.clone(),
            );
            let own = format!("{export} | sed -n '/^-e /p' | python3 -m pip install --no-deps -r /dev/stdin");
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), &own), source);
            // A task's `uv run --no-sync` runs in `.venv` as it is: one over the interpreter
            // serves it.
            if let Some(task) = &from_ci.unsynced_uv_run {
                out.helper_in(dir, Phase::Install, "hanzo_uv_venv", task.clone());
            }
            "python3 -m "
        }
        Tool::Poetry => {
            let cmd = poetry_install(pyproject.as_deref(), &from_ci.poetry);
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), &cmd), source);
            "python3 -m "
        }
        // These build the project too (editable, into their own environment).
        Tool::Pdm => {
            let cmd = if has(rel!("pdm.lock")) { "pdm install --frozen-lockfile" } else { "pdm install" };
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), cmd), source);
            "pdm run "
        }
        Tool::Pipenv => {
            let cmd = if has(rel!("Pipfile.lock")) { "pipenv install --dev --deploy" } else { "pipenv install --dev" };
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), cmd), source);
            "pipenv run "
        }
        Tool::Hatch => {
            out.step_in(dir, Phase::Install, without_git_metadata(pyproject.as_deref(), "hatch env create"), source);
            "hatch run "
        }
        Tool::Pip => {
            let theirs = tox_special_files(repo, tox.as_ref(), dir);
            let requirements: Vec<&RelPath> =
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
    let nox = Some(dir.join(rel!("noxfile.py"))).filter(|path| repo.exists(path)).map(Evidence::file);
    let invoke = invoke_test_task(repo, dir).map(|tasks| Evidence::file(tasks).of(Kind::Task));
    let runners =
        [(tox.as_ref().map(ToxConfig::evidence), "tox", "tox"), (nox, "nox", "nox"), (invoke, "inv", "invoke")];
    for (config, command, package) in runners {
        if let (true, Some(path)) = (tool.fills_interpreter(), config) {
            out.step(
                Phase::Toolchain,
                format!("{command} --version >/dev/null 2>&1 || {{ python3 -m pip install {package} && hash -r; }}"),
                path,
            );
        }
    }
    // A requirements file the project's install already took is not taken twice.
    let already_installed = |dep: &String| {
        let file = dep.strip_prefix("--requirement").or_else(|| dep.strip_prefix("-r"));
        let file = file.map(|f| f.trim_start_matches('=').trim());
        file.and_then(|f| join_path(dir, f)).is_some_and(|f| installed_files.contains(&f.as_rel_path()))
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
    tests(repo, dir, pytest, tox.as_ref().map(|config| (config, tox_env.as_deref())), tool, run_prefix, out);
    // Workspace members keep their own tests: run them from the member, in the shared env.
    if let Some(members) = &members {
        for member in repo.project_dirs("pyproject.toml").into_iter().filter(|d| d.is_within(dir) && *d != dir) {
            if !members.contains(member.relative_to(dir).unwrap_or(member)) {
                continue;
            }
            let member_path = member.join(rel!("pyproject.toml"));
            let member_pyproject = repo.read_toml(&member_path);
            let pytest = pytest_evidence(repo, member, &[], member_pyproject.as_deref(), &member_path);
            let tox = tox_config(repo, member, member_pyproject.as_deref());
            tests(repo, member, pytest, tox.as_ref().map(|config| (config, None)), tool, run_prefix, out);
        }
    }
    members
}

/// Whether a Python pin comes from a file that names the version to run (not a range).
/// Whether `word` of a command runs Python or installs Python packages (`python3.12`,
/// `.venv/bin/python`, `pip`, `uv`, `tox`; not `mypython`).
pub fn is_python_tool(word: &str) -> bool {
    let program = word.rsplit('/').next().unwrap_or(word);
    program.starts_with("python")
        || DECLARATION.package_managers.contains(&program)
        || DECLARATION.programs.contains(&program)
        || matches!(program, "pip3" | "pipx" | "tox" | "nox")
}

fn is_version_file(evidence: &Evidence) -> bool {
    [".python-version", "runtime.txt", "Pipfile"].iter().any(|f| evidence.path.ends_with(f))
}

/// The `pyproject.toml` of the project at `dir`, parsed, when it has one.
fn pyproject_of(repo: &Repo, dir: &RelPath) -> Option<std::sync::Arc<toml::Table>> {
    let path = dir.join(rel!("pyproject.toml"));
    repo.exists(&path).then(|| repo.read_toml(&path)).flatten()
}

fn pyproject_or_setup(repo: &Repo, dir: &RelPath) -> Evidence {
    let path = MARKERS.iter().map(|m| dir.join(m)).find(|p| repo.exists(p));
    Evidence::file(path.unwrap_or_else(|| dir.join(rel!("pyproject.toml"))))
}

/// Whether CI's test jobs install the project in `dir` with pip and its extras (`pip install
/// -e ".[dev]"`, also through a `make install-dev`): without a lockfile, uv settings in
/// `pyproject.toml` do not make uv the way the project is installed — CI's line is.
fn ci_installs_with_extras(from_ci: &FromCi, dir: &RelPath) -> bool {
    from_ci.test_packages.iter().any(|installs| installs.dir == dir && !installs.extras.is_empty())
}

/// `[tool.uv.workspace] members/exclude`: one `uv sync --all-packages` at the root.
fn uv_workspace(
    repo: &Repo,
    dir: &RelPath,
    pyproject: Option<&toml::Table>,
    pyproject_path: &RelPath,
    out: &mut Findings,
) -> Option<Members> {
    let workspace = pyproject?.get("tool")?.get("uv")?.get("workspace")?;
    Some(toml_workspace(repo, dir, workspace, pyproject_path, ("uv", "member"), out))
}
