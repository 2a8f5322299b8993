//! Where a verify run's installs go: inside the scratch directory, so that a developer's own
//! Python and npm are never touched. A virtualenv (when the install script runs Python tools)
//! whose `bin` comes first on PATH — the draft's pip lines and bootstraps honour
//! `VIRTUAL_ENV` and install there — and an npm prefix (`npm install -g`) and corepack home
//! whose `bin` follows. Every step gets the same variables, so `start` and the tests find what
//! `install` put there.

use std::ffi::OsString;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::process::run_quietly;
use super::python;
use crate::detect::ecosystems::python::is_python_tool;
use crate::envfile::ChildEnv;
use crate::plan::block;

/// The variables every step gets on top of the run environment.
#[derive(Debug, Default)]
pub struct Sandbox {
    pub vars: Vec<(String, OsString)>,
    /// The scratch virtualenv, when one was made.
    pub virtual_env: Option<PathBuf>,
    pub warnings: Vec<String>,
}

/// Whether the install sets up Python: its helpers line names one of the plan's Python
/// helpers, or one of its own lines (copied from CI or written by a person; not a call of a
/// helper, nor the helpers' text) runs a Python tool.
pub fn runs_python(install: &str) -> bool {
    if block::named_helpers(install).iter().any(|name| PYTHON_HELPERS.contains(&name.as_str())) {
        return true;
    }
    let plan = block::collapse(install);
    plan.lines()
        .filter(|line| !line.trim_start().starts_with("hanzo_") && !block::is_marker(line))
        .flat_map(|line| line.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))))
        .any(is_python_tool)
}

/// The helpers that set up Python (see `src/plan/helpers/`).
const PYTHON_HELPERS: &[&str] =
    &["hanzo_python", "hanzo_python_in", "hanzo_python_newest", "hanzo_pip_setup", "hanzo_pip_each"];

/// Make the scratch environment under `dir` for a run whose install script is `install`.
/// `checkout` is the developer's own, which the scratch copy came from.
/// `has_history`: the copy has the checkout's git history (see `copy::clone_git_history`).
pub fn prepare(
    dir: &Path,
    install: &str,
    env: &ChildEnv,
    checkout: &Path,
    has_history: bool,
) -> std::io::Result<Sandbox> {
    std::fs::DirBuilder::new().mode(0o700).recursive(true).create(dir)?;
    let mut sandbox = Sandbox::default();
    let mut path_first: Vec<PathBuf> = Vec::new();
    if runs_python(install) {
        let venv = dir.join("venv");
        let python = python::wanted(install).and_then(|wanted| match python::interpreter(&wanted, env) {
            python::Choice::Python3 => None,
            python::Choice::At(path) => Some(path),
            python::Choice::Missing => {
                sandbox.warnings.push(format!(
                    "the plan asks for {wanted}, which this machine lacks (no such python3.X on PATH, no pyenv \
                     version of it): the scratch virtualenv runs python3"
                ));
                None
            }
        });
        match make_venv(&venv, python.as_deref(), env) {
            Ok(()) => {
                path_first.push(venv.join("bin"));
                sandbox.vars.push(("VIRTUAL_ENV".into(), venv.clone().into()));
                sandbox.virtual_env = Some(venv);
            }
            Err(why) => sandbox.warnings.push(format!(
                "could not make a scratch virtualenv ({why}), so pip installs where the install script \
                 puts it; install python3's venv module (Debian: apt-get install python3-venv)"
            )),
        }
        if !has_history {
            sandbox.vars.extend(scm_version_stand_in(env, checkout));
        }
    }
    let npm_prefix = dir.join("npm");
    std::fs::DirBuilder::new().mode(0o700).recursive(true).create(npm_prefix.join("bin"))?;
    path_first.push(npm_prefix.join("bin"));
    sandbox.vars.push(("NPM_CONFIG_PREFIX".into(), npm_prefix.into()));
    sandbox.vars.push(("COREPACK_HOME".into(), dir.join("corepack").into()));
    let inherited = env.plain("PATH").map(std::env::split_paths).into_iter().flatten();
    let path = std::env::join_paths(path_first.into_iter().chain(inherited))
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    sandbox.vars.push(("PATH".into(), path));
    Ok(sandbox)
}

/// The variable setuptools-scm (and hatch-vcs, which uses it) reads for a version it cannot
/// work out.
const SCM_PRETEND_VERSION: &str = "SETUPTOOLS_SCM_PRETEND_VERSION";

/// A stand-in version for projects versioned from git metadata, unless the run sets one,
/// when verify's copy has no git history while a sandbox's checkout has: without it, every step that builds the project fails, and `hatch test` or `tox`
/// build it again after install did. The checkout's latest tag when it has one, because a
/// test dependency may depend on the project itself (pytest needs iniconfig >= 2), else 0.0.0.
fn scm_version_stand_in(env: &ChildEnv, checkout: &Path) -> Option<(String, OsString)> {
    if env.has(SCM_PRETEND_VERSION) {
        return None;
    }
    Some((SCM_PRETEND_VERSION.to_string(), latest_tag_version(env, checkout).unwrap_or("0.0.0".into()).into()))
}

/// The version the checkout's latest tag names (`v2.3.0` → `2.3.0`), if it looks like one.
fn latest_tag_version(env: &ChildEnv, checkout: &Path) -> Option<String> {
    let mut cmd = git(env);
    cmd.arg("-C").arg(checkout).args(["describe", "--tags", "--abbrev=0"]);
    let output = cmd.stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    let tag = String::from_utf8(output.stdout).ok()?;
    let version = tag.trim().trim_start_matches(['v', 'V']);
    let looks_like_one = version.starts_with(|c: char| c.is_ascii_digit())
        && version.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'));
    (output.status.success() && looks_like_one).then(|| version.to_string())
}

/// git with only what finds it: the run's [env] values (secrets among them) have no
/// business in a read of the repository, and neither the checkout's config nor the user's
/// may run a program (see [`crate::checkout::git`]).
pub fn git(env: &ChildEnv) -> Command {
    let vars: Vec<(&str, &std::ffi::OsStr)> =
        ["PATH", "HOME"].into_iter().filter_map(|name| env.plain(name).map(|value| (name, value))).collect();
    crate::checkout::git(false, Some(&vars))
}

/// `PYTHON -m venv <dir>` (`python3` unless the plan pins one) with the run's PATH; the
/// reason in a few words when it fails.
fn make_venv(dir: &Path, python: Option<&Path>, env: &ChildEnv) -> Result<(), String> {
    let python = python.unwrap_or(Path::new("python3"));
    let mut cmd = Command::new(python);
    env.apply(&mut cmd);
    cmd.args(["-m", "venv"]).arg(dir);
    run_quietly(cmd, &format!("{} -m venv", python.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python3_in_the_plans_range_is_no_lack() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        // A python3 that says it is 3.11 (and makes no virtualenv: a warning of its own).
        std::fs::write(bin.join("python3"), "#!/bin/sh\necho 3.11\n").unwrap();
        std::fs::set_permissions(bin.join("python3"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = bin.as_os_str().to_owned();
        let host = move |name: &str| (name == "PATH").then(|| path.clone());
        let (env, _) = ChildEnv::build(Vec::new(), &[], &host).unwrap();
        let lacks = |plan: &str| {
            let sandbox = prepare(&dir.path().join("scratch"), plan, &env, dir.path(), true).unwrap();
            sandbox.warnings.iter().any(|w| w.contains("which this machine lacks"))
        };
        assert!(!lacks("# hanzo-env helpers v1: hanzo_python_in\nhanzo_python_in 3.9  # pyproject.toml\n"));
        assert!(lacks("# hanzo-env helpers v1: hanzo_python_in\nhanzo_python_in 3.12  # pyproject.toml\n"));
    }

    #[test]
    fn python_tooling_is_recognised_by_word() {
        assert!(runs_python("set -euo pipefail\npython3 -m pip install -e ."));
        assert!(runs_python("command -v uv >/dev/null 2>&1 || python3.12 -m pip install uv\nuv sync"));
        assert!(runs_python(".venv/bin/python -m pytest"));
        assert!(runs_python("poetry install --no-interaction"));
        assert!(!runs_python("npm ci\ncargo build --locked"));
        assert!(!runs_python("echo mypython-is-not && ./uvicorn-ish"));
        assert!(runs_python("# hanzo-env helpers v1: hanzo_pip_setup\nset -euo pipefail\nhanzo_pip_setup"));
        let node = crate::plan::block::expand("# hanzo-env helpers v1: hanzo_node hanzo_pm\nhanzo_node 22\nnpm ci\n");
        assert!(!runs_python(&node.unwrap()), "the helpers' own text is not read");
    }

    #[test]
    fn a_git_versioned_project_gets_its_latest_tag_as_a_stand_in_version_unless_the_run_sets_one() {
        let (bare, _) = ChildEnv::build(Vec::new(), &[], &|name| std::env::var_os(name)).unwrap();
        let checkout = tempfile::tempdir().unwrap();
        let stand_in = |env: &ChildEnv| scm_version_stand_in(env, checkout.path()).map(|(_, v)| v);
        assert_eq!(stand_in(&bare), Some("0.0.0".into()), "no git history");
        let git = |args: &[&str]| {
            let status = Command::new("git")
                .arg("-C")
                .arg(checkout.path())
                .args([
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@example.com",
                    "-c",
                    "commit.gpgsign=false",
                    "-c",
                    "tag.gpgsign=false",
                ])
                .args(args)
                .stdout(Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "git {args:?}");
        };
        git(&["init", "-q"]);
        git(&["commit", "-q", "--allow-empty", "-m", "first"]);
        git(&["tag", "v2.3.0"]);
        git(&["commit", "-q", "--allow-empty", "-m", "second"]);
        assert_eq!(stand_in(&bare), Some("2.3.0".into()));
        git(&["tag", "release-candidate"]);
        assert_eq!(stand_in(&bare), Some("0.0.0".into()), "a tag that names no version");

        let host = |name: &str| (name == SCM_PRETEND_VERSION).then(|| OsString::from("4.2"));
        let (passed, _) = ChildEnv::build(Vec::new(), &[SCM_PRETEND_VERSION.to_string()], &host).unwrap();
        assert_eq!(stand_in(&passed), None, "the run's own value stands");
    }
}
