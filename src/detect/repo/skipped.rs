//! The folders a walk never descends into: every project's dependencies, caches and build
//! output, by name, and build output that only a project file beside it marks as such.

use std::path::Path;

/// Directories never descended into, wherever they are, whatever the ecosystem: version
/// control, vendored code and the build output, caches and editor folders of any project.
/// Each ecosystem's own (`node_modules`, `.tox`) are its declaration's `skipped_dirs`.
pub const SKIPPED_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "vendor",
    "dist",
    "build",
    "out",
    "coverage",
    ".cache",
    ".terraform",
    ".idea",
    ".vscode-test",
];

/// The folder names a walk never descends into: [`SKIPPED_DIRS`] and the ones given,
/// sorted once so that each of the walk's folders costs one binary search; and the names it
/// skips only beside a project file of some extensions (.NET's `bin/` and `obj/` next to a
/// `.csproj`: elsewhere `bin/` holds a Rust workspace's crates or a project's scripts).
#[derive(Debug, Clone)]
pub struct SkippedDirs {
    names: Box<[&'static str]>,
    beside: Box<[BuildOutput]>,
}

/// A folder name that is build output beside a project file with one of `extensions`.
pub type BuildOutput = (&'static str, &'static [&'static str]);

impl SkippedDirs {
    /// [`SKIPPED_DIRS`] and `more`, and the folders skipped `beside` their project files.
    pub fn with(
        more: impl IntoIterator<Item = &'static str>,
        beside: impl IntoIterator<Item = BuildOutput>,
    ) -> SkippedDirs {
        let mut names: Vec<&str> = SKIPPED_DIRS.iter().copied().chain(more).collect();
        names.sort_unstable();
        names.dedup();
        SkippedDirs { names: names.into_boxed_slice(), beside: beside.into_iter().collect() }
    }

    pub fn contains(&self, name: &str) -> bool {
        self.names.binary_search(&name).is_ok()
    }

    /// Whether the walk skips the folder at `path`, named `name`: one listing of its parent
    /// for a name that is build output only beside a project file.
    pub fn skips(&self, name: &str, path: &Path) -> bool {
        if self.contains(name) {
            return true;
        }
        let extensions: Vec<&str> =
            self.beside.iter().filter(|(dir, _)| *dir == name).flat_map(|(_, e)| e.iter().copied()).collect();
        if extensions.is_empty() {
            return false;
        }
        let Some(Ok(entries)) = path.parent().map(std::fs::read_dir) else { return false };
        entries.flatten().any(|entry| {
            let file_name = entry.file_name();
            let file_name = file_name.to_string_lossy();
            extensions.iter().any(|ext| file_name.rsplit_once('.').is_some_and(|(_, e)| e.eq_ignore_ascii_case(ext)))
        })
    }
}
