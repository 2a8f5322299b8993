//! Which Python the scratch virtualenv runs: the one the plan asks for — a pinned minor
//! (`hanzo_python 3.12`) or a range (`hanzo_python_in 3.9 3.13`, from requires-python) —
//! found on this machine, as the install's own helper would make it the python3 of later
//! shells. Nothing is downloaded here; a Python the machine lacks is a warning, and python3
//! in the range asked for is no lack.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::envfile::ChildEnv;

/// The Python a plan asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wanted {
    /// `hanzo_python 3.12`: that minor (or that exact version's minor).
    Pinned(String),
    /// `hanzo_python_in 3.9 [3.13]`: a minor from `floor`, older than `below`.
    InRange { floor: (u32, u32), below: Option<(u32, u32)> },
    /// `hanzo_python_newest 3.9 [3.13]`: the same range, the newest pyenv has installed first.
    Newest { floor: (u32, u32), below: Option<(u32, u32)> },
}

impl fmt::Display for Wanted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Wanted::Pinned(version) => write!(f, "Python {version}"),
            Wanted::InRange { floor, below } | Wanted::Newest { floor, below } => {
                write!(f, "Python {}.{} or newer", floor.0, floor.1)?;
                match below {
                    Some((major, minor)) => write!(f, " (older than {major}.{minor})"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// The Python the plan asks for: the arguments of its `hanzo_python`, `hanzo_python_in` or
/// `hanzo_python_newest` step. Arguments that are not plain versions ask for nothing.
pub fn wanted(install: &str) -> Option<Wanted> {
    install.lines().map(crate::plan::render::without_evidence).find_map(|line| {
        if let Some(version) = line.strip_prefix("hanzo_python ").map(str::trim) {
            let plain = !version.is_empty() && version.chars().all(|c| c.is_ascii_digit() || c == '.');
            return plain.then(|| Wanted::Pinned(version.to_string()));
        }
        let (newest, arguments) = match line.strip_prefix("hanzo_python_newest ") {
            Some(arguments) => (true, arguments),
            None => (false, line.strip_prefix("hanzo_python_in ")?),
        };
        let mut arguments = arguments.split_whitespace();
        let floor = minor(arguments.next()?)?;
        let below = match arguments.next().map(minor) {
            Some(None) => return None,
            below => below.flatten(),
        };
        Some(if newest { Wanted::Newest { floor, below } } else { Wanted::InRange { floor, below } })
    })
}

/// `3.12` as (3, 12); `None` for anything else.
fn minor(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// What the scratch virtualenv is made with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// python3: it is what the plan asks for.
    Python3,
    /// Another interpreter here that is.
    At(PathBuf),
    /// Nothing here is: python3, with a warning.
    Missing,
}

/// The interpreter of the wanted Python here.
pub fn interpreter(wanted: &Wanted, env: &ChildEnv) -> Choice {
    let found = match wanted {
        Wanted::Pinned(version) => pinned(version, env),
        Wanted::InRange { floor, below } => return in_range_or_python3(*floor, *below, env),
        Wanted::Newest { floor, below } => match pyenv_newest(*floor, *below, env) {
            Some(found) => Some(found),
            None => return in_range_or_python3(*floor, *below, env),
        },
    };
    found.map_or(Choice::Missing, Choice::At)
}

/// `python3.12` on the run's PATH, else pyenv's newest installed 3.12.
fn pinned(version: &str, env: &ChildEnv) -> Option<PathBuf> {
    let minor: Vec<&str> = version.split('.').take(2).collect();
    on_path(&format!("python{}", minor.join(".")), env).or_else(|| {
        let latest = ask_pyenv(&["latest", version], env)?;
        pyenv_python(&latest, env)
    })
}

/// python3 when it is in the range; else the newest `python3.X` on PATH in it, else pyenv's
/// newest installed version in it.
fn in_range_or_python3(floor: (u32, u32), below: Option<(u32, u32)>, env: &ChildEnv) -> Choice {
    if python3_version(env).is_some_and(|version| accepts(floor, below, version)) {
        return Choice::Python3;
    }
    // Minors of the floor's major, newest first; 30 past the floor is far beyond any release.
    let newest = below.filter(|b| b.0 == floor.0).map_or(floor.1 + 30, |b| b.1.saturating_sub(1));
    let versioned = (floor.1..=newest).rev().map(|minor| format!("python{}.{minor}", floor.0));
    let found = versioned.into_iter().find_map(|name| on_path(&name, env));
    found.or_else(|| pyenv_newest(floor, below, env)).map_or(Choice::Missing, Choice::At)
}

/// pyenv's newest installed version in the range.
fn pyenv_newest(floor: (u32, u32), below: Option<(u32, u32)>, env: &ChildEnv) -> Option<PathBuf> {
    let installed = ask_pyenv(&["versions", "--bare"], env)?;
    let newest = installed
        .lines()
        .map(str::trim)
        .filter_map(|v| {
            let parts: Vec<u32> = v.split('.').map(|p| p.parse().ok()).collect::<Option<_>>()?;
            matches!(parts.as_slice(), [_, _, _]).then_some((parts, v))
        })
        .filter(|(parts, _)| accepts(floor, below, (parts[0], parts[1])))
        .max_by(|a, b| a.0.cmp(&b.0))?;
    pyenv_python(newest.1, env)
}

/// Whether `version` is `floor` or newer and older than `below`.
fn accepts(floor: (u32, u32), below: Option<(u32, u32)>, version: (u32, u32)) -> bool {
    version >= floor && below.is_none_or(|b| version < b)
}

/// `name` in a folder of the run's PATH, pyenv's shims left out: they answer for every
/// version pyenv knows, installed for this directory or not.
fn on_path(name: &str, env: &ChildEnv) -> Option<PathBuf> {
    let path = env.plain("PATH").map(std::env::split_paths).into_iter().flatten();
    path.filter(|dir| !dir.ends_with("shims")).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// What python3 on the run's PATH is, as (major, minor).
fn python3_version(env: &ChildEnv) -> Option<(u32, u32)> {
    let mut cmd = Command::new("python3");
    env.apply(&mut cmd);
    cmd.args(["-c", "import sys; print('%d.%d' % sys.version_info[:2])"]);
    let out = cmd.stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    minor(String::from_utf8(out.stdout).ok()?.trim()).filter(|_| out.status.success())
}

/// pyenv's answer to `args`, when it gives one.
fn ask_pyenv(args: &[&str], env: &ChildEnv) -> Option<String> {
    let mut cmd = Command::new("pyenv");
    env.apply(&mut cmd);
    let out = cmd.args(args).stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

/// The python3 of pyenv's installed `version`.
fn pyenv_python(version: &str, env: &ChildEnv) -> Option<PathBuf> {
    let prefix = ask_pyenv(&["prefix", version], env)?;
    Some(Path::new(&prefix).join("bin/python3")).filter(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn env_with_path(path: &Path) -> ChildEnv {
        let path = path.as_os_str().to_owned();
        let host = move |name: &str| (name == "PATH").then(|| path.clone());
        ChildEnv::build(Vec::new(), &[], &host).unwrap().0
    }

    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn the_plan_asks_through_its_python_helpers_arguments() {
        let plan = "# hanzo-env helpers v1: hanzo_python\nset -euo pipefail\nhanzo_python 3.12  # .python-version\n";
        assert_eq!(wanted(plan), Some(Wanted::Pinned("3.12".into())));
        assert_eq!(
            wanted("hanzo_python() {\n  python3 -c x\n}\nhanzo_python 3.9\n"),
            Some(Wanted::Pinned("3.9".into()))
        );
        assert_eq!(wanted("hanzo_python $(evil)\npip install x"), None);
        assert_eq!(wanted("python3 -m pip install ."), None);
        let range = "hanzo_python_in 3.9 3.13  # pyproject.toml#project.requires-python\n";
        assert_eq!(wanted(range), Some(Wanted::InRange { floor: (3, 9), below: Some((3, 13)) }));
        assert_eq!(wanted("hanzo_python_in 3.10\n"), Some(Wanted::InRange { floor: (3, 10), below: None }));
        assert_eq!(wanted("hanzo_python_in 3.10 $(x)\n"), None);
        assert_eq!(wanted("hanzo_python_in() {\n  local low\n}\n"), None);
        assert_eq!(
            Wanted::InRange { floor: (3, 9), below: Some((3, 13)) }.to_string(),
            "Python 3.9 or newer (older than 3.13)"
        );
    }

    #[test]
    fn the_pinned_interpreter_is_found_on_path_before_pyenv() {
        let dir = tempfile::tempdir().unwrap();
        let python = script(dir.path(), "python3.12", "");
        let env = env_with_path(dir.path());
        assert_eq!(interpreter(&Wanted::Pinned("3.12".into()), &env), Choice::At(python));
        assert_eq!(interpreter(&Wanted::Pinned("3.99".into()), &env), Choice::Missing, "no pyenv on this PATH either");
    }

    #[test]
    fn a_range_keeps_python3_in_it_else_takes_the_newest_in_it() {
        let dir = tempfile::tempdir().unwrap();
        script(dir.path(), "python3", "echo 3.11");
        let old = script(dir.path(), "python3.10", "");
        let new = script(dir.path(), "python3.13", "");
        let env = env_with_path(dir.path());
        let range = |floor, below| Wanted::InRange { floor, below };
        assert_eq!(interpreter(&range((3, 9), None), &env), Choice::Python3, "python3 (3.11) is in it");
        assert_eq!(interpreter(&range((3, 12), None), &env), Choice::At(new.clone()));
        assert_eq!(interpreter(&range((3, 12), Some((3, 14))), &env), Choice::At(new));
        assert_eq!(interpreter(&range((3, 8), Some((3, 11))), &env), Choice::At(old));
        assert_eq!(interpreter(&range((3, 14), None), &env), Choice::Missing, "none here, and no pyenv");
        // pyenv's newest installed version in the range, when PATH has none.
        let prefix = dir.path().join("versions/3.12.1");
        std::fs::create_dir_all(prefix.join("bin")).unwrap();
        let pyenv_python = script(&prefix.join("bin"), "python3", "");
        let listing = "system\n3.12.1\n3.9.18\n3.14.0t\npypy3.10-7.3\n3.15.0";
        let pyenv = format!(
            "case \"$1\" in versions) printf '%s\\n' '{listing}' ;; prefix) echo '{}' ;; *) exit 1 ;; esac",
            prefix.display()
        );
        std::fs::remove_file(dir.path().join("python3.13")).unwrap();
        script(dir.path(), "pyenv", &pyenv);
        assert_eq!(interpreter(&range((3, 12), Some((3, 15))), &env), Choice::At(pyenv_python));
    }

    #[test]
    fn newest_takes_pyenvs_newest_in_the_range_before_python3() {
        let dir = tempfile::tempdir().unwrap();
        script(dir.path(), "python3", "echo 3.11");
        let env = env_with_path(dir.path());
        let newest = |floor, below| Wanted::Newest { floor, below };
        assert_eq!(wanted("hanzo_python_newest 3.10 3.14  # pyproject.toml\n"), Some(newest((3, 10), Some((3, 14)))));
        assert_eq!(interpreter(&newest((3, 10), None), &env), Choice::Python3, "no pyenv: python3, in the range");
        let listing = "system\n3.11.7\n3.13.0\n3.12.1";
        let prefix = dir.path().join("versions/VERSION");
        let pyenv = format!(
            "case \"$1\" in versions) printf '%s\\n' '{listing}' ;; prefix) p='{}'; echo \"${{p%VERSION}}$2\" ;; *) exit 1 ;; esac",
            prefix.display()
        );
        script(dir.path(), "pyenv", &pyenv);
        let mut made = Vec::new();
        for version in ["3.12.1", "3.13.0"] {
            let bin = dir.path().join(format!("versions/{version}/bin"));
            std::fs::create_dir_all(&bin).unwrap();
            made.push(script(&bin, "python3", ""));
        }
        assert_eq!(interpreter(&newest((3, 10), None), &env), Choice::At(made[1].clone()));
        assert_eq!(interpreter(&newest((3, 10), Some((3, 13))), &env), Choice::At(made[0].clone()));
        // Nothing pyenv has in the range: as hanzo_python_in, python3 when it is in it.
        assert_eq!(interpreter(&newest((3, 10), Some((3, 12))), &env), Choice::Python3);
    }
}
