//! The packages a CI test job installs by name (`pip install pytest pytest-cov`) before it
//! runs the tests: often the only place a project names its test tools and plugins, and
//! CI's own test command (`pytest --cov`) fails without them.

use crate::evidence::Evidence;
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::sources::Sources;
use crate::detect::sources::shell::{commands, join_path, script_path};
use crate::detect::sources::workflows::{JobKind, RunLine, ships};

/// What one CI line installs, from the directory it runs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CiPackages {
    pub dir: String,
    pub packages: Vec<String>,
    /// Requirements files (`-r tests/requirements.txt`), repo-relative, that exist.
    pub files: Vec<String>,
    /// Extras of the project in that directory (`pip install -e '.[tests,redis]'`).
    pub extras: Vec<String>,
    /// The repo's projects in other folders it installs (`pip install ./core[test] ./pool`).
    pub projects: Vec<LocalProject>,
    pub source: Evidence,
}

/// A project of the repo installed by its path, with the extras asked of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalProject {
    /// Repo-relative.
    pub dir: String,
    pub extras: Vec<String>,
}

/// A Python test command (the ecosystem's own patterns), to tell a test job from the rest.
static PYTHON_TEST: LazyLock<Regex> = LazyLock::new(|| {
    use crate::detect::ecosystems::ecosystem::Ecosystem;
    let patterns = super::Python.test_commands().join("|");
    Regex::new(&format!(r"(?:^|[\s;&|(])(?:{patterns})")).expect("the Python test patterns are valid")
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
                && commands(&line.text).iter().any(|words| {
                    pip_install(words).is_none()
                        && (PYTHON_TEST.is_match(&words.join(" "))
                            || runs_python_tests_script(sources, &line.dir, words))
                })
        };
        let Some(first_test) = job.lines.iter().position(tests).filter(|_| job.kind != JobKind::UnusedAction) else {
            continue;
        };
        // Up to the first line that runs the tests, its own installs included.
        for line in job.lines[..=first_test].iter().filter(|line| !line.in_foreign_checkout) {
            let mut installs = CiPackages {
                dir: line.dir.clone(),
                packages: Vec::new(),
                files: Vec::new(),
                extras: Vec::new(),
                projects: Vec::new(),
                source: line.source.clone(),
            };
            let repo = sources.repo();
            for words in commands(&line.text) {
                let Some(Installed { packages, files, extras, paths }) = pip_install(&words) else {
                    continue;
                };
                installs.packages.extend(packages);
                installs.extras.extend(extras);
                let files = files.iter().filter_map(|f| join_path(&line.dir, f)).filter(|f| repo.exists(f));
                installs.files.extend(files);
                let projects = paths.into_iter().filter_map(|(path, extras)| {
                    let dir = join_path(&line.dir, &path).filter(|d| !d.is_empty() && *d != line.dir)?;
                    let is_project = ["pyproject.toml", "setup.py"].iter().any(|m| repo.exists(&format!("{dir}/{m}")));
                    is_project.then_some(LocalProject { dir, extras })
                });
                installs.projects.extend(projects);
            }
            if !installs.packages.is_empty()
                || !installs.files.is_empty()
                || !installs.extras.is_empty()
                || !installs.projects.is_empty()
            {
                found.push(installs);
            }
        }
    }
    found
}

/// Whether `words` run a repo script (`./scripts/test-postgres.sh`, `bash ci/test.sh`)
/// whose lines run Python tests.
fn runs_python_tests_script(sources: &Sources, dir: &str, words: &[String]) -> bool {
    let Some(path) = script_path(dir, words) else { return false };
    let repo = sources.repo();
    repo.exists(&path) && repo.read(&path).is_some_and(|text| text.lines().any(|l| PYTHON_TEST.is_match(l.trim())))
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
                        installed.extras.extend(project_extras(target));
                        installed.paths.extend(local_path(target));
                    }
                }
                None if OPTIONS_WITH_A_VALUE.contains(&arg.as_str()) => {
                    args.next();
                }
                None => {}
            }
            continue;
        }
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
    fn the_requirements_files_a_pip_line_names() {
        assert_eq!(files("pip install -r tests/requirements.txt --editable ."), ["tests/requirements.txt"]);
        assert_eq!(
            files("pip install -rdev.txt --requirement=ci.txt --requirement docs.txt -c c.txt"),
            ["dev.txt", "ci.txt", "docs.txt"]
        );
        assert!(files("pip install -r requirements/$DEPS.txt").is_empty());
    }
}
