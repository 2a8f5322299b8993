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
