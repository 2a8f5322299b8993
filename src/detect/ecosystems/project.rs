//! What the ecosystems share about projects: which manifests are projects of their own,
//! workspace member patterns, version files, and how findings cite a line of a file.

use crate::detect::findings::Findings;
use crate::detect::repo::{Repo, is_project_path};
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};
use crate::warning::Warning;

/// The manifests called any of `names` that are projects of their own: the project's own
/// files ([`is_project_path`]), and not inside the directory of another one (a nested
/// manifest is a module of the outer build). Shallowest first; within one directory the
/// first of `names` wins.
pub fn projects<'r>(repo: &'r Repo, names: &[&str]) -> Vec<&'r RelPath> {
    let mut found: Vec<(usize, &RelPath, usize, &RelPath)> = Vec::new();
    for (rank, name) in names.iter().enumerate() {
        for path in repo.named(name) {
            if is_project_path(path) {
                found.push((path.depth(), path.parent(), rank, path));
            }
        }
    }
    found.sort();
    outermost(found.into_iter().map(|(_, _, _, path)| path))
}

/// Keep, from manifests sorted shallowest first, those not inside an earlier one's directory.
pub fn outermost<'r>(sorted: impl IntoIterator<Item = &'r RelPath>) -> Vec<&'r RelPath> {
    let mut kept: Vec<&RelPath> = Vec::new();
    for path in sorted {
        if !kept.iter().any(|k| path.parent().is_within(k.parent())) {
            kept.push(path);
        }
    }
    kept
}

/// Platform folders of cross-platform app frameworks.
const PLATFORM_DIRS: &[&str] = &["android", "ios", "macos", "linux", "windows", "web"];

/// The app folder when `rel` lies in a Flutter or React Native platform folder (`android/`,
/// `ios/`, `linux/`, … beside a pubspec.yaml or package.json): that app's toolchain builds
/// those, they are not projects of their own.
pub fn native_shell_of<'a>(repo: &Repo, rel: &'a RelPath) -> Option<&'a RelPath> {
    let mut dir = rel.parent();
    while !dir.is_root() {
        let app = dir.parent();
        if PLATFORM_DIRS.contains(&dir.file_name())
            && (repo.exists(app.join(rel!("pubspec.yaml"))) || repo.exists(app.join(rel!("package.json"))))
        {
            return Some(app);
        }
        dir = app;
    }
    None
}

/// `path:N` for the first line of `text` containing `needle`, else `path`.
pub fn source_at(path: impl Into<RelPathBuf>, text: &str, needle: &str) -> Evidence {
    match text.lines().position(|l| l.contains(needle)) {
        Some(i) => Evidence::line(path, i + 1),
        None => Evidence::file(path),
    }
}

/// The text of `rel` when the walk found it (no warning when it is simply absent).
pub fn read_existing(repo: &Repo, rel: &RelPath) -> Option<std::sync::Arc<str>> {
    repo.exists(rel).then(|| repo.read(rel)).flatten()
}

/// Whether `rel` is a file on disk, also in directories the walk skips (`bin/rails`).
pub fn file_on_disk(repo: &Repo, rel: &RelPath) -> bool {
    repo.exists(rel) || repo.root().join(rel.as_str()).is_file()
}

/// A version file's first version (`.java-version`, `.ruby-version`, …) looked for in the
/// project's directory, then at the root: `(version, source)`.
pub fn version_file(repo: &Repo, dir: &RelPath, name: &RelPath) -> Option<(String, Evidence)> {
    let mut candidates = vec![dir.join(name)];
    if !dir.is_root() {
        candidates.push(name.to_owned());
    }
    candidates.into_iter().find_map(|path| {
        let text = read_existing(repo, &path)?;
        Some((version::first(version::first_line(&text)?)?, Evidence::file(path)))
    })
}

/// `1 package`, `4 packages`.
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

    /// The member projects (folders holding `manifest`) of the workspace rooted at `dir`.
    pub fn count(&self, repo: &Repo, dir: &RelPath, manifest: &str) -> usize {
        repo.project_dirs(manifest)
            .into_iter()
            .filter(|d| d.is_within(dir) && *d != dir)
            .filter_map(|d| d.relative_to(dir))
            .filter(|member| self.contains(member))
            .count()
    }
}

/// The members of a workspace table with `members`/`exclude` glob lists (a cargo
/// `[workspace]`, a `[tool.uv.workspace]`), noted as "<kind> workspace of N <noun>s".
pub fn toml_workspace(
    repo: &Repo,
    dir: &RelPath,
    workspace: &toml::Value,
    manifest_path: &RelPath,
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
        Members::new(include.iter().map(String::as_str), &exclude, |w| repo.warn(Warning::in_file(manifest_path, w)));
    // Members that are no project of their own (a `benches` crate) leave nothing to say.
    let count = members.count(repo, dir, manifest_path.file_name());
    if count > 0 {
        out.note(workspace_note(kind, count, noun, dir));
    }
    members
}

/// "pnpm workspace of 4 packages", with " in DIR" below the root.
pub fn workspace_note(kind: &str, count: usize, noun: &str, dir: &str) -> String {
    let place = if dir.is_empty() { String::new() } else { format!(" in {dir}") };
    format!("{kind} workspace of {}{place}", counted(count, noun))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn samples_and_nesting() {
        let paths = |list: &[&'static str]| -> Vec<&'static RelPath> {
            list.iter().map(|p| RelPath::new(p).unwrap()).collect()
        };
        assert_eq!(outermost(paths(&["pom.xml", "gson/pom.xml"])), paths(&["pom.xml"]));
        assert_eq!(outermost(paths(&["a/pom.xml", "ab/pom.xml", "a/b/pom.xml"])), paths(&["a/pom.xml", "ab/pom.xml"]));
        assert_eq!(source_at(rel!("f"), "a\nb needle\n", "needle"), Evidence::line(rel!("f"), 2));
        assert_eq!(source_at(rel!("f"), "a\n", "needle"), Evidence::file(rel!("f")));
    }
}
