//! How a Python project's dependencies go in: pip, uv, poetry and hatch commands, the
//! extras and groups the tests need, and what CI's test jobs install besides.

use super::*;
use crate::rel_path::RelPath;
use crate::rel_path::rel;
use crate::warning::Warning;

/// Which of CI's test installs a step takes, by where CI runs them relative to its install of
/// the checkout itself: the ones before go before the project's install here (a test tool that
/// depends on the project, pytest on pluggy, would otherwise replace the editable checkout with
/// a release), the ones after go after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CiOrder {
    BeforeOwn,
    AfterOwn,
    All,
}

impl CiOrder {
    pub(super) fn takes(self, line: &ci::CiPackages) -> bool {
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
pub(super) fn install_ci_test_packages(
    repo: &Repo,
    found: &[ci::CiPackages],
    order: CiOrder,
    dir: &RelPath,
    installed: &[&RelPath],
    out: &mut Findings,
) -> bool {
    // The repo's own distributions by name (`psycopg<3.3`) test a release from the index
    // against the checkout's other parts: here they would replace the checkout's editable copy.
    // Read only when a line names packages: it reads every `pyproject.toml` of the tree, and
    // this runs for every project.
    let own = std::cell::OnceCell::new();
    let mut files: Vec<(&RelPath, &Evidence)> = Vec::new();
    // Per set of options (and CI's apart from a noxfile's), in order of appearance: the
    // packages and the first line's evidence.
    let mut groups: Vec<(&[String], Vec<&str>, &Evidence)> = Vec::new();
    let from_nox = |source: &Evidence| source.path.file_name() == "noxfile.py";
    let mut taken: Vec<String> = Vec::new();
    // Every line of `dir` is looked at, in order, so that a package a line before the taken
    // ones installed is not taken again from a later job.
    for line in found.iter().filter(|f| f.dir == dir) {
        let this = order.takes(line);
        for file in &line.files {
            if this && !installed.contains(&file.as_rel_path()) && !files.iter().any(|(f, _)| f == file) {
                files.push((file, &line.source));
            }
        }
        // One spec per distribution, the first job's: jobs testing variants each install
        // their own (`Django>=5.2,<5.3` in one, `Django>=6.1,<6.2` in the next), and pip
        // cannot install both; one by one, the last would win.
        for package in &line.packages {
            let name = requirement_name(package);
            if taken.contains(&name) || own.get_or_init(|| own_distributions(repo)).contains(&name) {
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
        let relative = file.strip_prefix(dir.as_str()).unwrap_or(file).trim_start_matches('/');
        out.step_in(dir, Phase::Install, format!("python3 -m pip install -r {}", quote(relative)), source.clone());
        names_pytest |= repo.read(file).is_some_and(|text| mentions_pytest(&text));
    }
    for (options, packages, source) in groups {
        // A constraints file is repo-relative in the finding; the step runs in `dir`.
        let options: Vec<String> = options
            .iter()
            .map(|o| match o.strip_prefix("--constraint=") {
                Some(file) => {
                    format!("--constraint={}", file.strip_prefix(dir.as_str()).unwrap_or(file).trim_start_matches('/'))
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
pub(super) fn own_distributions(repo: &Repo) -> Vec<String> {
    let manifests =
        repo.project_dirs("pyproject.toml").into_iter().filter_map(|d| repo.read_toml(d.join(rel!("pyproject.toml"))));
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
pub(super) fn best_effort_pip(options: &[String], packages: &[String], why: &str) -> Vec<String> {
    let mut args = vec![why.to_string()];
    args.extend(options.iter().cloned());
    args.push("--".to_string());
    args.extend(packages.iter().cloned());
    args
}

/// A deps line that is pip's option with its value (`-r test_requirements.txt`) as one
/// argument: `--requirement=test_requirements.txt`.
pub(super) fn pip_option(dep: &str) -> String {
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

/// Names of extras, dependency groups and requirements files that hold what the tests need
/// (the ones for tests first, then `dev`).
pub(super) const TEST_SETS: &[&str] = &["test", "tests", "testing", "dev"];

/// pip into the interpreter on PATH (see `hanzo_pip_setup`): the runtime
/// requirements files, then the ones for development and tests; its test and dev dependency
/// groups (PEP 735); last the project itself, editable, with its test extras. Returns whether
/// what it installs names pytest.
/// The requirements files pip's install takes, in order: runtime requirements first, then the
/// ones for development and tests; docs, linters and type checkers stay out.
pub(super) fn installed_requirements<'a>(files: &[&'a RelPath]) -> Vec<&'a RelPath> {
    let rank = |f: &RelPath| {
        let name = f.file_name().to_ascii_lowercase();
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
    let mut chosen: Vec<&RelPath> = files.iter().copied().filter(|f| rank(f).is_some()).collect();
    chosen.sort_by_key(|f| rank(f));
    chosen
}

/// Whether a requirements file names a package by URL rather than from an index (an
/// option line such as `--extra-index-url https://…` is not one).
pub(super) fn names_by_url(text: &str) -> bool {
    text.lines().any(|line| !line.starts_with(['-', '#']) && line.split('#').next().is_some_and(|r| r.contains("://")))
}

/// What CI's test jobs install of the repo's own code from a project's folder.
pub(super) struct CiInstalls<'a> {
    /// The extras they install the project with.
    pub(super) extras: &'a [&'a str],
    /// The projects in its subfolders they install by path, with where CI says so.
    pub(super) projects: &'a [(ci::LocalProject, &'a Evidence)],
    /// Everything they install (the packages CI installs before the checkout go in before
    /// the project).
    pub(super) test_packages: &'a [ci::CiPackages],
}

pub(super) fn pip_install(
    repo: &Repo,
    dir: &RelPath,
    files: &[&RelPath],
    ci: &CiInstalls,
    pyproject: Option<&toml::Table>,
    out: &mut Findings,
) -> bool {
    let chosen = installed_requirements(files);
    for file in &chosen {
        let relative = quote(file.relative_to(dir).unwrap_or(file));
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
            Evidence::key(dir.join(rel!("pyproject.toml")), "dependency-groups"),
        );
        names_pytest |= groups.iter().any(|r| mentions_pytest(r));
    }
    names_pytest |= install_ci_test_packages(repo, ci.test_packages, CiOrder::BeforeOwn, dir, &chosen, out);
    // The project last: a test dependency that depends on it (pytest on pluggy, virtualenv
    // on filelock) would otherwise replace the editable checkout with the release from PyPI.
    let manifest = pyproject_or_setup(repo, dir);
    if is_installable(repo, dir, pyproject) {
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
        let pyproject_path = dir.join(rel!("pyproject.toml"));
        if let Some(missing) = missing_force_include(repo, dir, pyproject) {
            // A wheel that bundles built output (`netbox/project-static/docs`) cannot be
            // built from a checkout: what the extras need goes in, the project stays a
            // folder its tests run from.
            out.warn(Warning::in_file(
                &pyproject_path,
                format!(
                    "hatch force-includes `{missing}`, which a checkout lacks until a build makes it: the project \
                     itself is not installed, its tests run from the checkout"
                ),
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
                    out.step_in(
                        dir,
                        Phase::Install,
                        &command,
                        Evidence::key(dir.join(rel!("pyproject.toml")), "project"),
                    );
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
                let relative = project.dir.relative_to(dir).unwrap_or(&project.dir);
                let extras =
                    if project.extras.is_empty() { String::new() } else { format!("[{}]", project.extras.join(",")) };
                format!("-e {}", quote(&format!("./{relative}{extras}")))
            })
            .collect();
        // A project folder named as its package (`psycopg/psycopg/`) is a namespace package
        // from the repo's root, where `python -m pytest` puts the working directory first on
        // `sys.path`: setuptools' default editable finder loses to it, its path-based mode not.
        let shadowed = ci.projects.iter().any(|(project, _)| {
            let package = project.dir.file_name().replace('-', "_");
            RelPath::new(&format!("{package}/__init__.py")).is_ok_and(|init| repo.exists(project.dir.join(init)))
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
                && repo.read(project.dir.join(rel!("pyproject.toml"))).is_some_and(|t| mentions_pytest(&t))
        });
    }
    names_pytest
}

/// The projects in `dir`'s subfolders that CI's test jobs install by path, each once with
/// every extra asked of it, and the first line that asks.
pub(super) fn local_projects<'a>(found: &'a [ci::CiPackages], dir: &RelPath) -> Vec<(ci::LocalProject, &'a Evidence)> {
    let mut projects: Vec<(ci::LocalProject, &Evidence)> = Vec::new();
    for line in found {
        for project in line.projects.iter().filter(|p| p.dir.is_within(dir) && p.dir != dir) {
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

/// Whether `dir`'s `setup.cfg` declares a package (setuptools' `[metadata]` or `[options]`),
/// not only the settings of flake8 or pytest, which a repository of any language may keep
/// there.
pub(super) fn setup_cfg_declares_a_package(repo: &Repo, dir: &RelPath) -> bool {
    let path = dir.join(rel!("setup.cfg"));
    let Some(text) = repo.exists(&path).then(|| repo.read(&path)).flatten() else { return false };
    text.lines().any(|line| {
        let line = line.trim();
        line == "[metadata]" || line == "[options]" || line.starts_with("[options.")
    })
}

/// Whether pip can build the project in `dir`: it has metadata (`[project]`, `setup.py`,
/// `setup.cfg`) or a build backend that keeps it elsewhere (poetry's `[tool.poetry]`,
/// maturin's `Cargo.toml`). A `pyproject.toml` of tool settings alone, with setuptools named
/// as its backend or none, is not a project: setuptools would guess its packages from the
/// folders and refuse a tree of several. `pyproject` is the project's `pyproject.toml`, parsed.
pub(super) fn is_installable(repo: &Repo, dir: &RelPath, pyproject: Option<&toml::Table>) -> bool {
    if repo.exists(dir.join(rel!("setup.py"))) || setup_cfg_declares_a_package(repo, dir) {
        return true;
    }
    let Some(pyproject) = pyproject else { return false };
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
pub(super) fn poetry_install(pyproject: Option<&toml::Table>, requested: &Requested) -> String {
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
pub(super) fn without_git_metadata(pyproject: Option<&toml::Table>, command: &str) -> String {
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
pub(super) fn static_requirements(pyproject: Option<&toml::Table>, extras: &[String]) -> Option<Vec<String>> {
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

pub(super) fn requirements_list(value: Option<&toml::Value>) -> Vec<String> {
    value.and_then(|v| v.as_array()).into_iter().flatten().filter_map(|r| r.as_str()).map(str::to_string).collect()
}

/// The requirements of the `extras` of `[project.optional-dependencies]`, an extra that names
/// the project itself (`pkg[tests]` inside `dev`) followed.
pub(super) fn extra_requirements(pyproject: Option<&toml::Table>, extras: &[String]) -> Vec<String> {
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
pub(super) fn missing_force_include(repo: &Repo, dir: &RelPath, pyproject: Option<&toml::Table>) -> Option<String> {
    let backend = pyproject?.get("build-system")?.get("build-backend")?.as_str()?;
    if !backend.starts_with("hatchling") {
        return None;
    }
    let included = toml_table(pyproject, &["tool", "hatch", "build", "targets", "wheel", "force-include"])?;
    // On disk, not in the walk: it leaves out build output (`dist/`) that a repo may commit.
    let on_disk = |source: &str| repo.root().join(dir.as_str()).join(source.trim_end_matches('/')).exists();
    included.keys().find(|source| !source.starts_with(['/', '~']) && !source.contains('*') && !on_disk(source)).cloned()
}

/// A requirement's distribution name, normalized (PEP 503): `Foo_Bar[x]>=1` → `foo-bar`.
pub(super) fn requirement_name(requirement: &str) -> String {
    let name = requirement.trim().split(|c: char| !(c.is_ascii_alphanumeric() || "-_.".contains(c))).next();
    name.unwrap_or_default().to_ascii_lowercase().replace(['_', '.'], "-")
}

/// `[tool.uv.sources]` entries whose `path` leaves the checkout (`../plugins`): a sibling
/// checkout the developer has and a sandbox does not.
pub(super) fn sources_outside_the_checkout(pyproject: Option<&toml::Table>, dir: &RelPath) -> Vec<(String, String)> {
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
pub(super) fn build_requires(pyproject: Option<&toml::Table>) -> Vec<&str> {
    pyproject
        .and_then(|p| p.get("build-system")?.get("requires")?.as_array())
        .map(|list| list.iter().filter_map(|r| r.as_str()).collect())
        .unwrap_or_default()
}

/// Build plugins that take the version from git metadata.
pub(super) fn is_scm_version_plugin(requirement: &str) -> bool {
    let name = requirement_name(requirement);
    ["setuptools-scm", "hatch-vcs", "setuptools-git-versioning", "versioningit", "dunamai"].contains(&name.as_str())
}

/// The names of the `[dependency-groups]` (PEP 735) named like test sets (not `dev`).
pub(super) fn test_groups(pyproject: Option<&toml::Table>) -> Vec<&str> {
    let groups = pyproject.and_then(|p| p.get("dependency-groups")).and_then(|g| g.as_table());
    groups.into_iter().flat_map(|g| g.keys()).map(String::as_str).filter(|k| TEST_SETS[..3].contains(k)).collect()
}

/// The requirements of the `[dependency-groups]` (PEP 735) named like test or dev sets,
/// `{include-group = "…"}` entries followed (once each).
pub(super) fn dependency_groups(pyproject: Option<&toml::Table>) -> Vec<String> {
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
