//! Files a checkout commits although its ignore patterns match them (`uv.lock` committed
//! before `.gitignore` listed it; `*application.properties` ignored with the module's own
//! one committed). Git never ignores a tracked file, so neither does the walk: git itself
//! lists them, when the checkout's root is a git repository and git is on PATH.
//!
//! git runs with the checkout's own configuration made harmless for a read: no fsmonitor
//! command (a repository's config could name any program), no untracked cache written back,
//! and none of the caller's `GIT_*` variables pointing it at another repository. Anything
//! that goes wrong (no git, not a repository, an unsafe directory) means none: the walk then
//! follows the patterns alone, as before.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// At most this many tracked-but-ignored files are kept (a generated tree commits thousands).
const MAX_FILES: usize = 10_000;
/// git's answer is read up to this size.
const MAX_OUTPUT_BYTES: usize = 4 << 20;

/// The tracked files ignore patterns match, as the walk spells their paths (`root` joined
/// with the path git gives), and every directory above them up to `root`.
#[derive(Default)]
pub struct TrackedDespitePatterns {
    files: HashSet<PathBuf>,
    dirs: HashSet<PathBuf>,
}

impl TrackedDespitePatterns {
    /// What git says of `root`; none when `root` holds no `.git`.
    pub fn of(root: &Path) -> TrackedDespitePatterns {
        if !root.join(".git").exists() {
            return TrackedDespitePatterns::default();
        }
        let output = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false"])
            .args(["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"])
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .env_remove("GIT_CEILING_DIRECTORIES")
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output();
        match output {
            Ok(out) if out.status.success() => TrackedDespitePatterns::from_listing(root, &out.stdout),
            _ => TrackedDespitePatterns::default(),
        }
    }

    /// From `git ls-files -z` output: NUL-separated paths relative to `root`.
    fn from_listing(root: &Path, listing: &[u8]) -> TrackedDespitePatterns {
        let mut tracked = TrackedDespitePatterns::default();
        let listing = &listing[..listing.len().min(MAX_OUTPUT_BYTES)];
        for rel in listing.split(|b| *b == 0).filter(|p| !p.is_empty()).take(MAX_FILES) {
            let Ok(rel) = std::str::from_utf8(rel) else { continue };
            // A path that climbs out or is absolute is no file of this checkout.
            if rel.starts_with('/') || rel.split('/').any(|part| part == "..") {
                continue;
            }
            let file = root.join(rel);
            let mut dir = file.parent();
            while let Some(d) = dir.filter(|d| *d != root && d.starts_with(root)) {
                if !tracked.dirs.insert(d.to_path_buf()) {
                    break;
                }
                dir = d.parent();
            }
            tracked.files.insert(file);
        }
        tracked
    }

    pub fn has_file(&self, path: &Path) -> bool {
        !self.files.is_empty() && self.files.contains(path)
    }

    /// Whether a tracked-but-ignored file lies under `dir`.
    pub fn holds(&self, dir: &Path) -> bool {
        !self.dirs.is_empty() && self.dirs.contains(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_gives_files_and_the_folders_above_them() {
        let root = Path::new("./repo");
        let tracked = TrackedDespitePatterns::from_listing(
            root,
            b"uv.lock\0conf/app/application.properties\0../x\0/etc/passwd\0",
        );
        assert!(tracked.has_file(&root.join("uv.lock")));
        assert!(tracked.has_file(&root.join("conf/app/application.properties")));
        assert!(tracked.holds(&root.join("conf")) && tracked.holds(&root.join("conf/app")));
        assert!(
            !tracked.holds(root) && !tracked.has_file(Path::new("./x")) && !tracked.has_file(Path::new("/etc/passwd"))
        );
    }

    #[test]
    fn no_git_folder_asks_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".gitignore"), "*.lock\n").unwrap();
        let tracked = TrackedDespitePatterns::of(dir.path());
        assert!(tracked.files.is_empty() && tracked.dirs.is_empty());
    }
}
