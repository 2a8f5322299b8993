//! The packages a CI test job installs by name (`pip install pytest pytest-cov`) before it
//! runs the tests: often the only place a project names its test tools and plugins, and
//! CI's own test command (`pytest --cov`) fails without them.

use crate::evidence::Evidence;
use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ships;
use crate::detect::sources::shell::{commands, join_path, script_path};
use crate::detect::sources::workflows::{JobKind, RunLine};
use crate::detect::sources::{Sources, tasks, version};

/// What one CI line installs, from the directory it runs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CiPackages {
    pub dir: String,
    pub packages: Vec<String>,
    /// Requirements files (`-r tests/requirements.txt`) that exist.
    pub files: Vec<RelPathBuf>,
    /// Extras of the project in that directory (`pip install -e '.[tests,redis]'`).
    pub extras: Vec<String>,
    /// The repo's projects in other folders it installs (`pip install ./core[test] ./pool`).
    pub projects: Vec<LocalProject>,
    /// pip's options that change what it installs (`--no-deps`, `--pre`,
    /// `--constraint=constraints.txt`), kept with the packages they were given with: without
    /// `--no-deps`, `pip install s3fs` replaces the checkout's editable fsspec with a release.
    pub options: Vec<String>,
    /// CI runs it after its install of the checkout itself (`pip install -e .`): then it goes
    /// after the project's install here too.
    pub after_own: bool,
    pub source: Evidence,
}

impl CiPackages {
    /// What the pip command `words` installs when run in `dir` (`None` for another command),
    /// with whether it installs the project there itself; `None` in the first when it
    /// installs nothing this module keeps.
    fn of_pip(
        repo: &crate::detect::repo::Repo,
        dir: &RelPath,
        words: &[String],
        after_own: bool,
        source: &Evidence,
    ) -> Option<(Option<CiPackages>, bool)> {
        let Installed { packages, files, extras, paths, options, own } = pip_install(words)?;
        let options = options.into_iter().filter_map(|o| kept_option(repo, dir, o)).collect();
        let files = files.iter().filter_map(|f| join_path(dir, f)).filter(|f| repo.exists(f)).collect();
        let projects = paths
            .into_iter()
            .filter_map(|(path, extras)| {
                let project = join_path(dir, &path).filter(|d| !d.is_empty() && d != dir)?;
                let is_project =
                    [rel!("pyproject.toml"), rel!("setup.py")].iter().any(|m| repo.exists(project.join(m)));
                is_project.then_some(LocalProject { dir: project, extras })
            })
            .collect();
        let installs = CiPackages {
            dir: dir.to_string(),
            packages,
            files,
            extras,
            projects,
            options,
            after_own,
            source: source.clone(),
        };
        let keeps = !installs.packages.is_empty()
            || !installs.files.is_empty()
            || !installs.extras.is_empty()
            || !installs.projects.is_empty();
        Some((keeps.then_some(installs), own))
    }
}

/// A project of the repo installed by its path, with the extras asked of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalProject {
    pub dir: RelPathBuf,
    pub extras: Vec<String>,
}

/// A Python test command (the ecosystem's own patterns), to tell a test job from the rest.
static PYTHON_TEST: LazyLock<Regex> = LazyLock::new(|| {
    let patterns = super::DECLARATION.test_commands.join("|");
    Regex::new(&format!(r"(?:^|[[:space:];&|(])(?:{patterns})")).expect("the Python test patterns are valid")
});

/// pip's options that take a value (the value is not a package).
const OPTIONS_WITH_A_VALUE: &[&str] = &[
    "-c",
    "--constraint",
    "-e",
    "--editable",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "-t",
    "--target",
    "--prefix",
    "--root",
    "--python",
    "--python-version",
    "--platform",
    "--only-binary",
    "--no-binary",
    "--cache-dir",
    "--log",
    "--group",
    "--upgrade-strategy",
    "--src",
    "--trusted-host",
    "--config-settings",
    "--report",
    // uv pip's own
    "--resolution",
    "--prerelease",
    "--index-strategy",
    "--keyring-provider",
    "--exclude-newer",
    "--upgrade-package",
    "-P",
    "--reinstall-package",
    "--no-build-isolation-package",
    "--config-setting",
    "-C",
    "--python-platform",
    "--index",
    "--default-index",
    "--extra",
    "--overrides",
    "--build-constraints",
    "-b",
    "--link-mode",
    "--torch-backend",
];

/// What CI installs to build or ship rather than to test (install already sees to these),
/// or to talk to the CI service itself: tox's GitHub Actions plugins pick environments from
/// the runner's Python and do nothing elsewhere, and the coverage uploaders.
const NOT_TEST_PACKAGES: &[&str] = &[
    "pip",
    "setuptools",
    "wheel",
    "build",
    "twine",
    "virtualenv",
    "uv",
    "poetry",
    "tox-gh-actions",
    "tox-gh",
    "coveralls",
    "codecov",
];

/// The packages named on `pip install` lines of CI jobs that run Python tests, in job order:
/// the lines before the job's first test, the environment its tests ran in (a later line adds
/// plugins for a later step, and would change what the first one sees).
pub fn test_packages(sources: &Sources) -> Vec<CiPackages> {
    let mut found = Vec::new();
    for job in &sources.workflows().jobs {
        // A workflow named for releases often runs the tests too (marshmallow's `build-release`).
        // A command that runs Python tests, not one that installs a test tool (`pip install
        // pytest-cov`).
        let tests = |line: &RunLine| {
            !ships(&line.text)
                && run_commands(sources, line).iter().any(|words| {
                    pip_install(words).is_none()
                        && (PYTHON_TEST.is_match(&words.join(" "))
                            || runs_python_tests_script(sources, &line.dir, words))
                })
        };
        let Some(first_test) = job.lines.iter().position(tests).filter(|_| job.kind != JobKind::UnusedAction) else {
            continue;
        };
        // Up to the first line that runs the tests, its own installs included; one entry per
        // pip command, in CI's order, each knowing whether CI installed the checkout before it.
        let mut after_own = false;
        for line in job.lines[..=first_test].iter().filter(|line| !line.in_foreign_checkout) {
            for words in run_commands(sources, line) {
                let Some((installs, own)) =
                    CiPackages::of_pip(sources.repo(), &line.dir, &words, after_own, &line.source)
                else {
                    continue;
                };
                after_own |= own;
                found.extend(installs);
            }
        }
    }
    found
}

/// The commands a CI line runs: its own, then those of the Makefile targets it runs (`make
/// install-dev` whose recipe is `pip install -e ".[dev]"`, `make check` whose prerequisite
/// `test` runs the tests), in make's order.
fn run_commands(sources: &Sources, line: &RunLine) -> Vec<Vec<String>> {
    let mut found = commands(&line.text);
    let recipes = tasks::make_runs(sources.tasks(), &line.dir, &line.text);
    found.extend(recipes.iter().flat_map(|recipe| commands(recipe)));
    found
}

/// What the test session (`tests`, `test`, or one named for its runner, `pytest`) of each
/// `noxfile.py` installs (`session.install("-r",
/// "tests/requirements.txt")`, `session.install("pytest", "-e", ".[test]")`), read as CI's
/// pip lines are: often the only place the test runner itself is named. A call with an
/// argument that is not a string literal (`*REQUIREMENTS`) is left out; keyword arguments
/// (`silent=True`) are nox's, not pip's.
pub fn nox_test_packages(sources: &Sources) -> Vec<CiPackages> {
    static SESSION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^@[^\n]*session[^\n]*\n(?:@[^\n]*\n)*def (tests?|pytest)\(([[:word:]]+)[^\n]*\n")
            .expect("valid")
    });
    let repo = sources.repo();
    let mut found = Vec::new();
    for dir in repo.project_dirs("noxfile.py") {
        let path = dir.join(crate::rel_path::rel!("noxfile.py"));
        let Some(text) = repo.read(&path) else { continue };
        let Some(session) = SESSION.captures(&text) else { continue };
        let (Some(whole), Some(function), Some(name)) = (session.get(0), session.get(1), session.get(2)) else {
            continue;
        };
        // The function's body: up to the next line that is not indented.
        let rest = &text[whole.end()..];
        let end = rest
            .match_indices('\n')
            .map(|(at, _)| at + 1)
            .find(|&at| rest[at..].starts_with(|c: char| !c.is_whitespace()))
            .unwrap_or(rest.len());
        let body = &rest[..end];
        let source = Evidence::key(&path, function.as_str());
        let mut after_own = false;
        for call in calls(body, &format!("{}.install(", name.as_str())) {
            // `session.install(*deps)` with `deps = ["pytest", …]` in the session or the file.
            let list = |name: &str| list_constant(body, name).or_else(|| list_constant(&text, name));
            let Some(args) = literal_arguments(call, &list) else { continue };
            let words: Vec<String> = ["pip".to_string(), "install".to_string()].into_iter().chain(args).collect();
            if let Some((installs, own)) = CiPackages::of_pip(repo, dir, &words, after_own, &source) {
                after_own |= own;
                found.extend(installs);
            }
        }
    }
    found
}

/// The argument text of each call `opening` (`session.install(`) in `text`, to its closing
/// parenthesis.
fn calls<'t>(text: &'t str, opening: &str) -> Vec<&'t str> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(opening) {
        let args = &rest[at + opening.len()..];
        let (mut depth, mut quote, mut end) = (0usize, None::<char>, None);
        for (i, c) in args.char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '(' | '[') => depth += 1,
                (None, ')') if depth == 0 => {
                    end = Some(i);
                    break;
                }
                (None, ')' | ']') => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        let Some(end) = end else { break };
        found.push(&args[..end]);
        rest = &args[end..];
    }
    found
}

/// The positional arguments of a call, each a plain string literal; `None` when one is not.
fn literal_arguments(call: &str, list: &dyn Fn(&str) -> Option<Vec<String>>) -> Option<Vec<String>> {
    let mut args = Vec::new();
    for arg in split_arguments(call) {
        let arg = arg.trim();
        if arg.is_empty() {
            continue;
        }
        if let Some(name) = arg.strip_prefix('*').filter(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_')) {
            args.extend(list(name)?);
            continue;
        }
        let quoted = |q: char| arg.len() >= 2 && arg.starts_with(q) && arg.ends_with(q);
        if quoted('"') || quoted('\'') {
            let inner = &arg[1..arg.len() - 1];
            if inner.contains(['"', '\'', '\\', '{']) {
                return None;
            }
            args.push(inner.to_string());
        } else if arg
            .split_once('=')
            .is_some_and(|(key, _)| key.trim().chars().all(|c| c.is_alphanumeric() || c == '_'))
        {
            // A keyword argument.
        } else {
            return None;
        }
    }
    Some(args)
}

/// A call's arguments split at the commas outside quotes and brackets.
/// The strings of a list of string literals assigned to `name` in `text` (`deps = ["pytest",
/// "trio"]`), `None` when there is none or an item is something else.
fn list_constant(text: &str, name: &str) -> Option<Vec<String>> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let value = line.trim_start().strip_prefix(name).and_then(|rest| rest.trim_start().strip_prefix('='));
        if value.is_some_and(|v| v.trim_start().starts_with('[')) {
            // The line's first `[` opens the list: the name and `=` before it hold none.
            let open = offset + line.find('[')?;
            let close = open + text[open..].find(']')?;
            return literal_arguments(&text[open + 1..close], &|_| None);
        }
        offset += line.len();
    }
    None
}

fn split_arguments(call: &str) -> Vec<&str> {
    let (mut parts, mut start, mut depth, mut quote) = (Vec::new(), 0, 0usize, None::<char>);
    for (i, c) in call.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                parts.push(&call[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&call[start..]);
    parts
}

/// Whether `words` run a repo script (`./scripts/test-postgres.sh`, `bash ci/test.sh`)
/// whose lines run Python tests.
fn runs_python_tests_script(sources: &Sources, dir: &RelPath, words: &[String]) -> bool {
    let Some(path) = script_path(dir, words) else { return false };
    let repo = sources.repo();
    repo.exists(&path) && repo.read(&path).is_some_and(|text| text.lines().any(|l| PYTHON_TEST.is_match(l.trim())))
}

/// The Pythons CI sets up with `actions/setup-python`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestedPythons {
    /// The oldest (a matrix's lowest value), as (major, minor) with the action's step: the floor
    /// of what the project is tested on, where no version file or `requires-python` says.
    pub oldest: ((u32, u32), Evidence),
    /// The newest, when every setup names its minor: a `3.x`, a PyPy or an expression may be
    /// any newer one, and then CI sets no ceiling.
    pub newest: Option<(u32, u32)>,
}

/// The Pythons CI tests on; `None` where CI names no CPython 3 version.
pub fn tested_pythons(sources: &Sources) -> Option<TestedPythons> {
    let minor = |pin: &version::Pin| Some((pin.major(), pin.minor()?));
    // PyPy, GraalPy (`pypy-3.10`, `pypy3.9`, `graalpy-24.1`) are other Pythons: a matrix that
    // adds them still bounds the CPythons it tests.
    let other = |value: &str| {
        let value = value.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
        ["pypy", "graalpy", "pyston"].iter().any(|name| value.starts_with(name))
    };
    let tested =
        crate::detect::ecosystems::ci_setup::tested_versions(sources, "python", |pin| minor(pin).is_some(), other)?;
    let oldest = minor(&tested.oldest.0)?;
    (oldest.0 == 3).then(|| TestedPythons {
        oldest: (oldest, tested.oldest.1),
        newest: tested.newest.as_ref().and_then(minor).filter(|(major, _)| *major == 3),
    })
}

/// The fan-out runners (`tox`, `nox`) that CI's lines run, by name: where CI runs nox and
/// never tox, a `tox.ini` beside the noxfile is a leftover whose deps may be stale.
pub fn runners_used(sources: &Sources) -> Vec<&'static str> {
    let mut used = Vec::new();
    let lines = sources.workflows().jobs.iter().flat_map(|job| &job.lines);
    for words in lines.flat_map(|line| commands(&line.text)) {
        let program = match words.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            [python, "-m", module, ..] if python.starts_with("python") => module.to_string(),
            [program, ..] => program.rsplit('/').next().unwrap_or(program).to_string(),
            [] => continue,
        };
        for runner in ["tox", "nox"] {
            if program == runner && !used.contains(&runner) {
                used.push(runner);
            }
        }
    }
    used
}

/// What a `pip install` command names.
#[derive(Debug, Default, PartialEq, Eq)]
struct Installed {
    /// Packages by name: not files, paths, URLs, the project itself, values CI fills in at
    /// run time or build tooling.
    packages: Vec<String>,
    /// Requirements files, as written.
    files: Vec<String>,
    /// Extras of the project where the command runs (`.[tests]`, `-e .[a,b]`).
    extras: Vec<String>,
    /// Folders given by path (`./core[test]`, `-e ../pool`), as written, with their extras.
    paths: Vec<(String, Vec<String>)>,
    /// Options with their value as one word (`--constraint=c.txt`), as written.
    options: Vec<String>,
    /// It installs the project where it runs (`.`, `-e .`, `.[test]`).
    own: bool,
}

fn pip_install(words: &[String]) -> Option<Installed> {
    let args = match words.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["pip" | "pip3", "install", ..] => &words[2..],
        ["uv", "pip", "install", ..] => &words[3..],
        ["python" | "python3", "-m", "pip", "install", ..] => &words[4..],
        _ => return None,
    };
    let mut installed = Installed::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if let Some(option) = arg.strip_prefix('-') {
            let file = match option {
                "r" | "-requirement" => args.next().cloned(),
                _ => option.strip_prefix("-requirement=").or_else(|| option.strip_prefix('r')).map(str::to_string),
            };
            match file {
                Some(file) if !file.contains('$') => installed.files.push(file),
                Some(_) => {}
                None if ["-e", "--editable"].contains(&arg.as_str()) => {
                    if let Some(target) = args.next() {
                        installed.own |= is_own(target);
                        installed.extras.extend(project_extras(target));
                        installed.paths.extend(local_path(target));
                    }
                }
                None if OPTIONS_WITH_A_VALUE.contains(&arg.as_str()) => {
                    if let Some(value) = args.next() {
                        installed.options.push(format!("{arg}={value}"));
                    }
                }
                None => installed.options.push(arg.clone()),
            }
            continue;
        }
        installed.own |= is_own(arg);
        installed.extras.extend(project_extras(arg));
        installed.paths.extend(local_path(arg));
        let is_a_name = arg.starts_with(|c: char| c.is_ascii_alphanumeric())
            && !arg.contains(['/', '$', '@', '*'])
            && !arg.ends_with(".whl")
            && !arg.ends_with(".tar.gz");
        if is_a_name && !NOT_TEST_PACKAGES.contains(&super::requirement_name(arg).as_str()) {
            installed.packages.push(arg.clone());
        }
    }
    Some(installed)
}

/// Whether a pip argument is the project in the current directory (`.`, `./`, `.[test]`).
fn is_own(arg: &str) -> bool {
    let rest = arg.strip_prefix("./").or_else(|| arg.strip_prefix('.'));
    rest.is_some_and(|rest| rest.is_empty() || rest.starts_with('['))
}

/// pip's options that change what a CI line installs, in their long form: the others say how
/// pip talks (`-q`), where it installs (`--user`, uv's `--system`: here the interpreter on
/// PATH) or which index it asks (the sandbox's pip configuration says that).
fn kept_option(repo: &crate::detect::repo::Repo, dir: &RelPath, option: String) -> Option<String> {
    let (name, value) = match option.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (option.as_str(), None),
    };
    let long = match name {
        "--no-deps" | "--pre" | "--force-reinstall" | "--no-build-isolation" => name,
        "-U" | "--upgrade" => "--upgrade",
        "--only-binary" | "--no-binary" | "--upgrade-strategy" => name,
        // A constraints file that exists, relative to where the line runs.
        "-c" | "--constraint" => {
            let file = join_path(dir, value?).filter(|f| repo.exists(f))?;
            return Some(format!("--constraint={file}"));
        }
        _ => return None,
    };
    match value {
        Some(value) if !value.contains('$') => Some(format!("{long}={value}")),
        Some(_) => None,
        None => Some(long.to_string()),
    }
}

/// The extras a pip argument asks of the project in the current directory: `.[a,b]` (or
/// `./[a]`) gives `a` and `b`; `.` and anything else give none.
fn project_extras(arg: &str) -> Vec<String> {
    let Some(extras) = arg.strip_prefix("./").or_else(|| arg.strip_prefix('.')).and_then(|rest| rest.strip_prefix('['))
    else {
        return Vec::new();
    };
    let Some((extras, _)) = extras.split_once(']') else {
        return Vec::new();
    };
    extras.split(',').map(str::trim).filter(|e| !e.is_empty() && !e.contains('$')).map(str::to_string).collect()
}

/// A folder other than the current one given by its path (`./core[test]`, `../pool`), with
/// the extras asked of it; not `.`, an archive or a wheel.
fn local_path(arg: &str) -> Option<(String, Vec<String>)> {
    if !(arg.starts_with("./") || arg.starts_with("../")) || arg.contains('$') {
        return None;
    }
    let (path, extras) = match arg.split_once('[') {
        Some((path, rest)) => {
            let extras = rest.split_once(']')?.0;
            (path, extras.split(',').map(str::trim).filter(|e| !e.is_empty()).map(str::to_string).collect())
        }
        None => (arg, Vec::new()),
    };
    let path = path.trim_end_matches('/');
    let is_a_folder = path != "." && !path.contains(['*', '`']) && !path.ends_with(".whl") && !path.ends_with(".gz");
    is_a_folder.then(|| (path.to_string(), extras))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(line: &str) -> Vec<String> {
        commands(line).iter().filter_map(|w| pip_install(w)).flat_map(|i| i.packages).collect()
    }

    fn extras(line: &str) -> Vec<String> {
        commands(line).iter().filter_map(|w| pip_install(w)).flat_map(|i| i.extras).collect()
    }

    #[test]
    fn the_extras_a_pip_line_asks_of_the_project() {
        assert_eq!(extras("pip install -e '.[tests,redis]' pytest-cov"), ["tests", "redis"]);
        assert_eq!(extras("python -m pip install .[dev] && pip install ./[all]"), ["dev", "all"]);
        assert!(extras("pip install -e . ../other[x] 'pkg[extra]' .[${EXTRA}]").is_empty());
    }

    #[test]
    fn an_options_value_is_no_package() {
        assert_eq!(named("uv pip install --system --resolution lowest-direct --group test pytest"), ["pytest"]);
        assert_eq!(named("pip install --upgrade-strategy eager -c constraints.txt pytest-cov"), ["pytest-cov"]);
        assert_eq!(
            named("uv pip install --prerelease allow --index-strategy unsafe-best-match hypothesis"),
            ["hypothesis"]
        );
    }

    fn paths(line: &str) -> Vec<(String, Vec<String>)> {
        commands(line).iter().filter_map(|w| pip_install(w)).flat_map(|i| i.paths).collect()
    }

    #[test]
    fn the_folders_a_pip_line_installs_by_path() {
        assert_eq!(
            paths("pip install ./core[test,dns] ./pool/ -e ../plugin"),
            [
                ("./core".to_string(), vec!["test".to_string(), "dns".to_string()]),
                ("./pool".to_string(), vec![]),
                ("../plugin".to_string(), vec![])
            ]
        );
        assert!(paths("pip install . .[test] ./dist/x.whl ./dist/*.tar.gz ./$PKG pkg").is_empty());
    }

    fn files(line: &str) -> Vec<String> {
        commands(line).iter().filter_map(|w| pip_install(w)).flat_map(|i| i.files).collect()
    }

    #[test]
    fn the_packages_a_pip_line_names() {
        assert_eq!(
            named("pip install pytest pytest-cov 'coverage[toml]>=7'"),
            ["pytest", "pytest-cov", "coverage[toml]>=7"]
        );
        // Build tools and the CI service's own plugins and uploaders are not the tests'.
        assert_eq!(
            named("python -m pip install -U pip setuptools wheel && pip install tox tox-gh-actions coveralls"),
            ["tox"]
        );
        assert_eq!(named("uv pip install --system -r requirements.txt mock==5.1"), ["mock==5.1"]);
        // The project, files, URLs and values CI fills in are not packages.
        assert!(named("pip install -e .[test] ./vendor/x.whl git+https://h/x.git dist/*.tar.gz").is_empty());
        assert!(named("pip install \"django~=${DJANGO}\" -c constraints.txt").is_empty());
        assert!(named("npm install pytest").is_empty());
        assert!(named("pip download pytest").is_empty());
    }

    #[test]
    fn the_literal_arguments_of_a_nox_install() {
        let body = "    session.install(\"-r\", 'tests/requirements.txt')\n    session.install(\n        \"pytest\",\n        \"-e\", \".[test]\", silent=True,\n    )\n    session.install(*DEPS)\n    session.install(f\"x{v}\")\n";
        let found: Vec<Option<Vec<String>>> =
            calls(body, "session.install(").into_iter().map(|call| literal_arguments(call, &|_| None)).collect();
        let strings = |words: &[&str]| Some(words.iter().map(|w| w.to_string()).collect::<Vec<_>>());
        assert_eq!(
            found,
            [strings(&["-r", "tests/requirements.txt"]), strings(&["pytest", "-e", ".[test]"]), None, None]
        );
        // A list the session or the file assigns (respx's `deps = [...]`) is its strings.
        let text = "DEPS = [\"pytest\", 'trio']\nOTHER=[x]\n";
        let list = |name: &str| list_constant(text, name);
        assert_eq!(literal_arguments("\"--upgrade\", *DEPS", &list), strings(&["--upgrade", "pytest", "trio"]));
        assert_eq!(literal_arguments("*OTHER", &list), None);
        assert_eq!(literal_arguments("*MISSING", &list), None);
    }

    #[test]
    fn options_that_change_what_pip_installs_are_kept() {
        let options: Vec<String> =
            commands("pip install -q --no-deps -U --root-user-action=ignore --only-binary :all: s3fs")
                .iter()
                .filter_map(|w| pip_install(w))
                .flat_map(|i| i.options)
                .collect();
        assert_eq!(options, ["-q", "--no-deps", "-U", "--root-user-action=ignore", "--only-binary=:all:"]);
        let dir = tempfile::tempdir().unwrap();
        let repo = crate::detect::repo::Repo::walk(dir.path(), &Default::default()).unwrap();
        let kept: Vec<String> = options.into_iter().filter_map(|o| kept_option(&repo, RelPath::root(), o)).collect();
        assert_eq!(kept, ["--no-deps", "--upgrade", "--only-binary=:all:"]);
        assert!(commands("pip install -e . && pip install .[x] ./").iter().all(|w| pip_install(w).unwrap().own));
        assert!(!pip_install(&commands("pip install ./core")[0]).unwrap().own);
    }

    #[test]
    fn the_requirements_files_a_pip_line_names() {
        assert_eq!(files("pip install -r tests/requirements.txt --editable ."), ["tests/requirements.txt"]);
        assert_eq!(
            files("pip install -rdev.txt --requirement=ci.txt --requirement docs.txt -c c.txt"),
            ["dev.txt", "ci.txt", "docs.txt"]
        );
        assert!(files("pip install -r requirements/$DEPS.txt").is_empty());
    }
}
