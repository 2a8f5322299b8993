//! Distributions that pip builds from source on Linux, against a C library whose headers a
//! bare sandbox lacks: CI's runner images ship them (GitHub's has MySQL's and PostgreSQL's),
//! so CI never says so, and the install fails at `mysql_config not found`. Each is named with
//! the Debian packages its own install documentation asks for.

use crate::detect::findings::{Evidence, Findings, Phase};
use crate::detect::repo::Repo;
use crate::rel_path::RelPath;

use super::install::requirement_name;

/// (distribution, the Debian packages its build needs). Only distributions without Linux
/// wheels: `psycopg2` (not `psycopg2-binary`), `mysqlclient`, `python-ldap`.
const NATIVE_BUILDS: &[(&str, &[&str])] = &[
    ("mysqlclient", &["default-libmysqlclient-dev", "pkg-config", "build-essential"]),
    ("psycopg2", &["libpq-dev", "build-essential"]),
    ("python-ldap", &["libldap2-dev", "libsasl2-dev", "build-essential"]),
];

/// One `hanzo_apt_install` for the native builds the project's requirements name (its
/// requirements files, `pyproject.toml`'s dependencies, extras and groups, and its lockfiles),
/// with the first file that names each.
pub(super) fn native_build_packages(
    repo: &Repo,
    dir: &RelPath,
    requirements: &[&RelPath],
    pyproject: Option<&toml::Table>,
    out: &mut Findings,
) {
    let mut wanted: Vec<(&str, Evidence)> = Vec::new();
    let mut note = |names: Vec<String>, evidence: Evidence| {
        for (distribution, _) in NATIVE_BUILDS {
            if names.iter().any(|n| n == distribution) && !wanted.iter().any(|(d, _)| d == distribution) {
                wanted.push((distribution, evidence.clone()));
            }
        }
    };
    for file in requirements {
        let text = repo.read(file).unwrap_or_default();
        note(requirements_names(&text), Evidence::file(*file));
    }
    if let Some(table) = pyproject {
        note(pyproject_names(table), Evidence::file(dir.join(crate::rel_path::rel!("pyproject.toml"))));
    }
    for lock in [crate::rel_path::rel!("uv.lock"), crate::rel_path::rel!("poetry.lock")] {
        let path = dir.join(lock);
        // Read, not parsed or kept: a lock is megabytes, and its parsed table ten times that.
        if let Some(text) = repo.exists(&path).then(|| repo.read_once(&path)).flatten() {
            note(locked_names(&text), Evidence::file(&path));
        }
    }
    let Some((_, source)) = wanted.first() else { return };
    let source = source.clone();
    let mut args = vec![format!("to build {}", wanted.iter().map(|(d, _)| *d).collect::<Vec<_>>().join(", "))];
    for (distribution, _) in &wanted {
        let packages = NATIVE_BUILDS.iter().find(|(d, _)| d == distribution).map(|(_, p)| *p).unwrap_or_default();
        for package in packages {
            if !args.iter().any(|a| a == package) {
                args.push(package.to_string());
            }
        }
    }
    out.helper(Phase::System, "hanzo_apt_install", args, source);
}

/// The distributions a requirements file names (options, includes and comments left out).
fn requirements_names(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| line.split(" #").next().unwrap_or_default().trim())
        .filter(|line| !line.is_empty() && !line.starts_with(['#', '-']))
        .map(requirement_name)
        .collect()
}

/// The distributions `pyproject.toml` depends on: `project.dependencies`, its extras,
/// `dependency-groups`, and poetry's dependency tables.
fn pyproject_names(pyproject: &toml::Table) -> Vec<String> {
    let strings = |value: Option<&toml::Value>| -> Vec<String> {
        let items = value.and_then(|v| v.as_array()).into_iter().flatten();
        items.filter_map(|v| v.as_str()).map(requirement_name).collect()
    };
    let project = pyproject.get("project");
    let mut names = strings(project.and_then(|p| p.get("dependencies")));
    let tables = [project.and_then(|p| p.get("optional-dependencies")), pyproject.get("dependency-groups")];
    for table in tables.into_iter().flatten().filter_map(|t| t.as_table()) {
        names.extend(table.values().flat_map(|v| strings(Some(v))));
    }
    let poetry = pyproject.get("tool").and_then(|t| t.get("poetry"));
    let keys = |table: Option<&toml::Value>| -> Vec<String> {
        table.and_then(|t| t.as_table()).into_iter().flat_map(|t| t.keys()).map(|k| requirement_name(k)).collect()
    };
    names.extend(keys(poetry.and_then(|p| p.get("dependencies"))));
    let groups = poetry.and_then(|p| p.get("group")).and_then(|g| g.as_table());
    names.extend(groups.into_iter().flat_map(|g| g.values()).flat_map(|g| keys(g.get("dependencies"))));
    names
}

/// The distributions a `uv.lock` or `poetry.lock` holds. Both tools write each package as a
/// `[[package]]` table whose own `name = "…"` line comes before any other table header, so
/// the lines say it without a TOML parse (200 ms and 20 MiB for a 1 MiB `uv.lock`).
fn locked_names(lock: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_package = false;
    for line in lock.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package =
                line.strip_prefix("[[").and_then(|l| l.strip_suffix("]]")).is_some_and(|h| h.trim() == "package");
        } else if in_package && let Some(name) = key_string(line, "name") {
            names.push(requirement_name(name));
            in_package = false;
        }
    }
    names
}

/// The string of a `key = "value"` (or `'value'`) line.
fn key_string<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let value = line.strip_prefix(key)?.trim_start().strip_prefix('=')?.trim_start();
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    value[1..].split(quote).next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_builds_are_named_in_requirements_manifests_and_locks() {
        let requirements = "-r base.txt\n# mysqlclient for MySQL\nmysqlclient==2.2.7  # the driver\npsycopg2-binary\n--no-binary :all:\n";
        assert_eq!(requirements_names(requirements), ["mysqlclient", "psycopg2-binary"]);
        let pyproject: toml::Table = toml::from_str(
            "[project]\ndependencies = ['Django>=5']\n[project.optional-dependencies]\npg = ['psycopg2>=2.9']\n[dependency-groups]\ndev = ['pytest']\n[tool.poetry.dependencies]\npython-ldap = '^3'\n[tool.poetry.group.test.dependencies]\nmysqlclient = '*'\n",
        )
        .unwrap();
        assert_eq!(pyproject_names(&pyproject), ["django", "psycopg2", "pytest", "python-ldap", "mysqlclient"]);
        let lock = "version = 1\n[[package]]\nname = \"MySQLClient\"\nversion = \"2.2\"\n\n[package.metadata]\n\
                    requires-dist = [{ name = \"psycopg2\" }]\n\n[[package.wheels]]\nname = \"x\"\n\
                    [[package]]\nname = 'six'\n[[ package ]]\n  name=\"Python_LDAP\"\n";
        assert_eq!(locked_names(lock), ["mysqlclient", "six", "python-ldap"]);
    }

    #[test]
    fn one_apt_line_names_each_build_with_the_first_file_that_asks() {
        let d = crate::detect::testing::detection(&[
            ("requirements.txt", "Django==6.1\npsycopg2-binary==2.9\n"),
            ("requirements-dev.txt", "mysqlclient==2.2.7\npython-ldap\n"),
        ]);
        assert!(
            d.install.contains(
                "hanzo_apt_install 'to build mysqlclient, python-ldap' default-libmysqlclient-dev pkg-config \
                 build-essential libldap2-dev libsasl2-dev  # requirements-dev.txt"
            ),
            "{}",
            d.install
        );
        let binary_only = crate::detect::testing::detection(&[("requirements.txt", "psycopg2-binary\n")]);
        assert!(!binary_only.install.contains("hanzo_apt_install"), "{}", binary_only.install);
    }
}
