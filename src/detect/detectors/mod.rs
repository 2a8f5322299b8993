//! Detectors, one file per ecosystem or signal, run in the order of [`ALL`].
//! Each is a small pure function over the [`Repo`] view that appends to [`Findings`].

pub mod ci;
pub mod clojure;
pub mod compose;
pub mod cpp;
pub mod dart;
pub mod deno;
pub mod devcontainer;
pub mod dotnet;
pub mod eco;
pub mod elixir;
pub mod go;
pub mod haskell;
pub mod java;
pub mod nix;
pub mod node;
pub mod php;
pub mod python;
pub mod ruby;
pub mod rust;
pub mod scala;
pub mod secrets;
pub mod services;
pub mod swift;
pub mod tasks;
pub mod toolversions;
pub mod zig;

use crate::detect::repo::{file_name, is_within};
use crate::detect::{Findings, Repo};

/// A detector: reads what it needs from the repo, reports what it found.
pub type Detector = fn(&Repo, &mut Findings);

/// Every detector, in the order their findings are merged (toolchains before tools that
/// use them, languages before the signals that refer to them).
pub const ALL: &[(&str, Detector)] = &[
    ("toolversions", toolversions::detect),
    ("nix", nix::detect),
    ("devcontainer", devcontainer::detect),
    ("node", node::detect),
    ("deno", deno::detect),
    ("python", python::detect),
    ("rust", rust::detect),
    ("go", go::detect),
    ("java", java::detect),
    ("ruby", ruby::detect),
    ("php", php::detect),
    ("elixir", elixir::detect),
    ("dotnet", dotnet::detect),
    ("swift", swift::detect),
    ("dart", dart::detect),
    ("zig", zig::detect),
    ("cpp", cpp::detect),
    ("haskell", haskell::detect),
    ("scala", scala::detect),
    ("clojure", clojure::detect),
    ("compose", compose::detect),
    ("ci", ci::detect),
    ("tasks", tasks::detect),
    ("secrets", secrets::detect),
];

/// Detectors that read many files (source code for secret names, every file name for
/// compose and task files): started first when detectors run in parallel.
pub const SCANS_MANY_FILES: &[&str] = &["secrets", "compose", "tasks"];

/// `command` run in the repo-relative `dir`: as is at the root, else `(cd dir && command)`,
/// so the script's own working directory never changes.
pub fn in_dir(dir: &str, command: &str) -> String {
    if dir.is_empty() || dir == "." { command.to_string() } else { format!("(cd {} && {command})", shell_quote(dir)) }
}

/// A word for `sh`: bare when it is plainly safe, else single-quoted.
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./@+=:,".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// `1 package`, `4 packages`.
/// The members of a workspace table with `members`/`exclude` glob lists (a cargo
/// `[workspace]`, a `[tool.uv.workspace]`), noted as "<kind> workspace of N <noun>s".
pub fn toml_workspace(
    repo: &Repo,
    dir: &str,
    workspace: &toml::Value,
    manifest_path: &str,
    (kind, noun): (&str, &str),
    out: &mut Findings,
) -> Members {
    let strings = |key: &str| -> Vec<String> {
        workspace
            .get(key)
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    };
    let include = strings("members");
    let exclude = strings("exclude");
    let exclude: Vec<&str> = exclude.iter().map(String::as_str).collect();
    let members =
        Members::new(include.iter().map(String::as_str), &exclude, |w| repo.warn(format!("{manifest_path}: {w}")));
    let count = repo
        .project_dirs(file_name(manifest_path))
        .into_iter()
        .filter(|d| is_within(d, dir) && *d != dir)
        .filter(|d| members.contains(d.strip_prefix(dir).unwrap_or(d).trim_start_matches('/')))
        .count();
    let place = if dir.is_empty() { String::new() } else { format!(" in {dir}") };
    out.note(format!("{kind} workspace of {}{place}", counted(count, noun)));
    members
}

pub fn counted(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// The `path` field of a package manager: `.` for the root, else the repo-relative dir.
pub fn pm_path(dir: &str) -> &str {
    if dir.is_empty() { "." } else { dir }
}

/// Workspace member patterns (`packages/*`, `crates/**`, `!packages/legacy`), relative to the
/// workspace root, matched against member directories.
pub struct Members {
    include: globset::GlobSet,
    exclude: globset::GlobSet,
}

impl Members {
    /// Patterns that do not parse are reported through `warn` and ignored.
    pub fn new<'a>(patterns: impl IntoIterator<Item = &'a str>, excludes: &[&str], warn: impl Fn(String)) -> Members {
        let mut include = globset::GlobSetBuilder::new();
        let mut exclude = globset::GlobSetBuilder::new();
        let add = |builder: &mut globset::GlobSetBuilder, pattern: &str| {
            let pattern = pattern.trim().trim_start_matches("./").trim_end_matches('/');
            match globset::GlobBuilder::new(pattern).literal_separator(true).build() {
                Ok(glob) => {
                    builder.add(glob);
                }
                Err(e) => warn(format!("workspace pattern `{pattern}`: {e}")),
            }
        };
        for pattern in patterns {
            match pattern.strip_prefix('!') {
                Some(negated) => add(&mut exclude, negated),
                None => add(&mut include, pattern),
            }
        }
        for pattern in excludes {
            add(&mut exclude, pattern);
        }
        let empty = || globset::GlobSet::empty();
        Members {
            include: include.build().unwrap_or_else(|_| empty()),
            exclude: exclude.build().unwrap_or_else(|_| empty()),
        }
    }

    /// Whether `dir` (relative to the workspace root) is a member.
    pub fn contains(&self, dir: &str) -> bool {
        !dir.is_empty() && self.include.is_match(dir) && !self.exclude.is_match(dir)
    }
}

/// A version that pins something: `20`, `v20.11.1`, `3.12`, `1.96.0` (digits and dots,
/// an optional leading `v`, optional `.x`/`.*` wildcards dropped). Anything else is `None`.
pub fn exact_version(text: &str) -> Option<String> {
    let v = text.trim().trim_start_matches('v').trim_start_matches('=').trim();
    let v = v.trim_end_matches(".*").trim_end_matches(".x").trim_end_matches(".X");
    let ok = !v.is_empty()
        && v.split('.').all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
        && v.split('.').count() <= 4;
    ok.then(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_in_subdirectories() {
        assert_eq!(in_dir("", "npm ci"), "npm ci");
        assert_eq!(in_dir("web", "npm ci"), "(cd web && npm ci)");
        assert_eq!(in_dir("my app", "npm ci"), "(cd 'my app' && npm ci)");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn workspace_members() {
        let members = Members::new(["packages/*", "!packages/legacy", "tools/**"], &[], |_| {});
        assert!(members.contains("packages/core"));
        assert!(!members.contains("packages/core/nested"));
        assert!(!members.contains("packages/legacy"));
        assert!(members.contains("tools/a/b"));
        assert!(!members.contains(""));
    }

    #[test]
    fn exact_versions() {
        assert_eq!(exact_version("v20.11.1").as_deref(), Some("20.11.1"));
        assert_eq!(exact_version("20.x").as_deref(), Some("20"));
        assert_eq!(exact_version("==3.12.*").as_deref(), Some("3.12"));
        for floor in [">=20", "lts/*", "^3.11", "stable", "", "20 || 22"] {
            assert_eq!(exact_version(floor), None, "{floor}");
        }
    }
}
