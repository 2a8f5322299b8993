//! The Python a project pins: `.python-version`, `runtime.txt`, Pipfile, `requires-python`.

use super::*;

/// `.python-version` (here or in a parent), `runtime.txt`, Pipfile `python_version`, then a
/// `requires-python` that pins (`==3.12.*`, `~=3.12.1`); floors pin nothing. Returns the pin
/// and its evidence.
pub(super) fn python_version(
    repo: &Repo,
    dir: &RelPath,
    pyproject: Option<&toml::Table>,
    pyproject_path: &RelPath,
    out: &mut Findings,
) -> Option<(String, Evidence)> {
    let found = python_pin(repo, dir, pyproject, pyproject_path);
    let (version, source) = found.clone().unwrap_or_else(|| (String::new(), pyproject_or_setup(repo, dir)));
    out.toolchain("python", (!version.is_empty()).then_some(version), source);
    // Every Python is 3: a bare major names nothing to install.
    found.filter(|(v, _)| v.contains('.'))
}

pub(super) fn python_pin(
    repo: &Repo,
    dir: &RelPath,
    pyproject: Option<&toml::Table>,
    pyproject_path: &RelPath,
) -> Option<(String, Evidence)> {
    let mut current = Some(dir);
    while let Some(d) = current {
        let path = d.join(rel!(".python-version"));
        if repo.exists(&path) {
            let text = repo.read(&path).unwrap_or_default();
            let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
            let version = version::numeric_pin(first.trim_start_matches("python").trim_start_matches('-'));
            if let Some(version) = version {
                return Some((version, Evidence::file(path)));
            }
        }
        current = (!d.is_empty()).then(|| d.parent());
    }
    let runtime = dir.join(rel!("runtime.txt"));
    if repo.exists(&runtime)
        && let Some(v) = repo.read(&runtime).and_then(|t| version::numeric_pin(t.trim().trim_start_matches("python-")))
    {
        return Some((v, Evidence::file(runtime)));
    }
    let pipfile = dir.join(rel!("Pipfile"));
    if repo.exists(&pipfile)
        && let Some(v) = repo
            .read_toml(&pipfile)
            .and_then(|t| t.get("requires")?.get("python_version")?.as_str().and_then(version::numeric_pin))
    {
        return Some((v, Evidence::key(&pipfile, "requires.python_version")));
    }
    requires_python(pyproject, pyproject_path).map(|(range, source)| (pinned_python(range).unwrap_or_default(), source))
}

/// The Python versions the project accepts as written: `project.requires-python`, else
/// poetry's `tool.poetry.dependencies.python`.
fn requires_python<'a>(pyproject: Option<&'a toml::Table>, pyproject_path: &RelPath) -> Option<(&'a str, Evidence)> {
    let pyproject = pyproject?;
    if let Some(range) = pyproject.get("project").and_then(|p| p.get("requires-python")).and_then(|r| r.as_str()) {
        return Some((range, Evidence::key(pyproject_path, "project.requires-python")));
    }
    let poetry = pyproject.get("tool").and_then(|t| t.get("poetry"))?;
    let range = poetry.get("dependencies").and_then(|d| d.get("python")).and_then(|r| r.as_str())?;
    Some((range, Evidence::key(pyproject_path, "tool.poetry.dependencies.python")))
}

/// A Python version as (major, minor).
type Minor = (u32, u32);

/// The Pythons a range accepts, by minor version: from `floor`, older than `below`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PythonRange {
    pub floor: Minor,
    pub below: Option<Minor>,
}

impl PythonRange {
    /// `>=3.9`, `>=3.9,<3.13`, `>3.8`, `<=3.12`, `==3.12.*`, `~=3.9`, poetry's `^3.9` and
    /// `~3.10`: the lowest minor a clause lets in and the first it keeps out (`!=` says
    /// nothing of either). `None` without a floor, for an empty range, or for alternatives.
    pub fn parse(range: &str) -> Option<PythonRange> {
        if range.contains('|') {
            return None;
        }
        // (major, minor, whether a patch is written, whether it is above 0)
        let parts = |v: &str| {
            let pin = version::Pin::parse(v.trim().trim_end_matches(".*"))?;
            let patch = pin.split('.').nth(2);
            Some((pin.major(), pin.minor().unwrap_or(0), patch.is_some(), patch.is_some_and(|p| p != "0")))
        };
        let mut floor: Option<Minor> = None;
        let mut below: Option<Minor> = None;
        for clause in range.split(',').map(str::trim) {
            let (from, until) = if let Some(v) = clause.strip_prefix(">=").or_else(|| clause.strip_prefix('>')) {
                let (major, minor, ..) = parts(v)?;
                (Some((major, minor)), None)
            } else if let Some(v) = clause.strip_prefix("<=") {
                let (major, minor, ..) = parts(v)?;
                (None, Some((major, minor.checked_add(1)?)))
            } else if let Some(v) = clause.strip_prefix('<') {
                let (major, minor, _, above_zero) = parts(v)?;
                (None, Some((major, if above_zero { minor.checked_add(1)? } else { minor })))
            } else if let Some(v) = clause.strip_prefix("~=") {
                // `~=3.11.4` keeps to 3.11; `~=3.11` to 3.
                let (major, minor, has_patch, _) = parts(v)?;
                let until = if has_patch { (major, minor.checked_add(1)?) } else { (major.checked_add(1)?, 0) };
                (Some((major, minor)), Some(until))
            } else if let Some(v) = clause.strip_prefix("==").or_else(|| clause.strip_prefix('~')) {
                let (major, minor, ..) = parts(v)?;
                (Some((major, minor)), Some((major, minor.checked_add(1)?)))
            } else if let Some(v) = clause.strip_prefix('^') {
                let (major, minor, ..) = parts(v)?;
                (Some((major, minor)), Some((major.checked_add(1)?, 0)))
            } else {
                (None, None)
            };
            floor = floor.max(from);
            below = match (below, until) {
                (Some(b), Some(u)) => Some(b.min(u)),
                (b, u) => b.or(u),
            };
        }
        let floor = floor?;
        below.is_none_or(|b| floor < b).then_some(PythonRange { floor, below })
    }

    /// The helper's arguments: `3.9`, and `3.13` when there is a ceiling.
    /// The range kept to the Pythons older than `below` too (CI's newest tested minor, plus
    /// one), when that leaves some in it.
    pub fn tested_below(self, below: Option<Minor>) -> PythonRange {
        match below {
            Some(below) if below > self.floor && self.below.is_none_or(|kept| below < kept) => {
                PythonRange { below: Some(below), ..self }
            }
            _ => self,
        }
    }

    pub fn arguments(&self) -> Vec<String> {
        let minor = |(major, minor): Minor| format!("{major}.{minor}");
        std::iter::once(minor(self.floor)).chain(self.below.map(minor)).collect()
    }
}

/// The minor after the newest Python 3 the project's trove classifiers name
/// (`Programming Language :: Python :: 3.11` gives 3.12): the Pythons its authors say it runs
/// on, where no CI of GitHub's says which it tests.
pub(super) fn classified_below(pyproject: Option<&toml::Table>) -> Option<Minor> {
    let classifiers = pyproject?.get("project")?.get("classifiers")?.as_array()?;
    let newest: Option<Minor> = classifiers
        .iter()
        .filter_map(|c| c.as_str()?.strip_prefix("Programming Language :: Python :: "))
        .filter_map(|version| {
            let (major, minor) = version.trim().split_once('.')?;
            Some((major.parse().ok()?, minor.parse().ok()?))
        })
        .max();
    newest.and_then(|(major, minor)| Some((major, minor.checked_add(1)?)))
}

/// The range of Pythons the project accepts, with where it says so.
pub(super) fn python_range(
    pyproject: Option<&toml::Table>,
    pyproject_path: &RelPath,
) -> Option<(PythonRange, Evidence)> {
    let (range, source) = requires_python(pyproject, pyproject_path)?;
    Some((PythonRange::parse(range)?, source))
}

/// A Python version range that pins a minor version: `==3.12.*`, `==3.12.4`, `~=3.12.1`,
/// poetry's `~3.12`, or `>=3.12,<3.13`. Floors (`>=3.11`, `^3.11`) pin nothing.
pub(super) fn pinned_python(range: &str) -> Option<String> {
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
    let floor = clauses.iter().find_map(|c| c.strip_prefix(">=")).and_then(|v| version::Pin::parse(v.trim()))?;
    let ceiling = clauses.iter().find_map(|c| c.strip_prefix('<').filter(|v| !v.starts_with('='))).map(str::trim)?;
    let (major, minor) = (floor.major(), floor.minor()?);
    let next = format!("{major}.{}", minor.checked_add(1)?);
    (ceiling == next || ceiling == format!("{next}.0")).then(|| format!("{major}.{minor}"))
}
