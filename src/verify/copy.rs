//! The scratch copy of a checkout: what `git status` would show (tracked files, and untracked
//! ones but what `.gitignore`/`.ignore` exclude), never `node_modules` or `target`; its git
//! history comes from a clone, never from the checkout's own `.git`.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::process::run_quietly;

/// Directory names never copied, wherever they are, ignored or not: VCS data, installed
/// dependencies and build output that `install` recreates.
pub const NEVER_COPIED: &[&str] = &[".git", ".hg", ".svn", "node_modules", "target", ".venv", "__pycache__"];
/// Version control's own folders.
const VERSION_CONTROL: &[&str] = &[".git", ".hg", ".svn"];

#[derive(Debug, thiserror::Error)]
#[error("could not copy {} to {}: {source}", from.display(), to.display())]
pub struct CopyError {
    pub from: PathBuf,
    pub to: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// What a copy did.
#[derive(Debug, Default)]
pub struct Copied {
    pub files: u64,
    /// Ignore files of the checkout that were not read (see [`crate::ignore_files`]).
    pub warnings: Vec<String>,
}

/// Copy `from` into `to` (created), keeping permissions and symlinks.
pub fn copy_checkout(from: &Path, to: &Path) -> Result<Copied, CopyError> {
    let fail = |from: &Path, to: &Path, source: std::io::Error| CopyError {
        from: from.to_path_buf(),
        to: to.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(to).map_err(|e| fail(from, to, e))?;
    // The scratch directory (the copy's parent) may sit inside the checkout, e.g. with
    // TMPDIR=./tmp: never copy it into itself.
    let scratch = to.parent().unwrap_or(to);
    let scratch = std::fs::canonicalize(scratch).unwrap_or_else(|_| scratch.to_path_buf());
    // Ignore files come from the checkout: read only as regular files of bounded size.
    let (mut builder, ignores) =
        crate::ignore_files::IgnoreFiles::walk_builder(from, crate::detect::repo::is_env_template);
    let keep = std::sync::Arc::clone(&ignores);
    let walk = builder
        .hidden(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let never = is_dir && entry.depth() > 0 && NEVER_COPIED.iter().any(|n| entry.file_name() == *n);
            let is_scratch = is_dir && entry.path() == scratch;
            !(never || is_scratch) && keep.keep(entry)
        })
        .build();
    let mut files = 0;
    for entry in walk {
        let entry = entry.map_err(|e| fail(from, to, std::io::Error::other(e.to_string())))?;
        let Ok(relative) = entry.path().strip_prefix(from) else {
            continue;
        };
        if relative.as_os_str().is_empty() {
            continue;
        }
        let source = entry.path();
        let target = to.join(relative);
        let Some(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            std::fs::create_dir_all(&target).map_err(|e| fail(source, &target, e))?;
        } else if kind.is_symlink() {
            let link = std::fs::read_link(source).map_err(|e| fail(source, &target, e))?;
            std::os::unix::fs::symlink(&link, &target).map_err(|e| fail(source, &target, e))?;
        } else if kind.is_file() {
            std::fs::copy(source, &target).map_err(|e| fail(source, &target, e))?;
            files += 1;
        }
        // Sockets, fifos and devices are not part of a checkout.
    }
    Ok(Copied { files, warnings: ignores.warnings().iter().map(ToString::to_string).collect() })
}

/// Give the copy at `to` the git history of the checkout at `from`, as a sandbox's checkout
/// has its own: setuptools-scm and hatch-vcs read the version from it, check-manifest and
/// tests call git. A bare clone that borrows the checkout's objects (`--shared`: nothing is
/// copied, and nothing is written to the checkout's repository) becomes the copy's `.git`,
/// its index read from HEAD, so that the copy's uncommitted changes show as the checkout's.
/// Tracked files that the walk left out, which an ignore pattern also matches (a committed
/// `tests/fixture.db` beside `*.db`) or that lie in a dependency folder (pino's
/// `test/fixtures/eval/node_modules/*.js`), are copied then: git tracks them, so a checkout
/// has them.
/// `git` makes the command to run (the run's PATH and HOME). `None` when the checkout has no
/// history, else how many tracked files were added.
pub fn clone_git_history(from: &Path, to: &Path, git: impl Fn() -> Command) -> Result<Option<u64>, String> {
    if !from.join(".git").exists() {
        return Ok(None);
    }
    let target = to.join(".git");
    let mut clone = git();
    clone.args(["clone", "--bare", "--shared", "--quiet", "--"]).arg(from).arg(&target);
    let mut unbare = git();
    unbare.arg("-C").arg(to).args(["config", "core.bare", "false"]);
    let mut index = git();
    index.arg("-C").arg(to).args(["reset", "--quiet"]);
    let cloned = run_quietly(clone, "git clone")
        .and_then(|()| run_quietly(unbare, "git config"))
        .and_then(|()| run_quietly(index, "git reset"));
    if cloned.is_err() {
        let _ = std::fs::remove_dir_all(&target);
    }
    cloned?;
    let mut tracked = git();
    tracked.arg("-C").arg(to).args(["ls-files", "-z"]);
    let listed = tracked.output().map_err(|e| format!("git ls-files: {e}"))?;
    if !listed.status.success() {
        return Err(format!("git ls-files: {}", String::from_utf8_lossy(&listed.stderr).trim()));
    }
    let mut added = 0;
    for path in listed.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let relative = Path::new(std::ffi::OsStr::from_bytes(path));
        // A dependency folder is left out of the walk for its installed packages; what git
        // tracks under one (`test/fixtures/node_modules/x.js`) is the repo's own.
        let never = relative.components().any(|c| VERSION_CONTROL.iter().any(|n| c.as_os_str() == *n));
        let (source, target) = (from.join(relative), to.join(relative));
        // Only what the checkout still has as a plain file (a deletion stays a deletion), and
        // only through real folders on both sides: a folder replaced by a symlink would lead
        // the copy, or its writes, out of the checkout and the scratch directory.
        let is_file = std::fs::symlink_metadata(&source).is_ok_and(|m| m.is_file());
        let through_folders = relative.ancestors().skip(1).filter(|a| !a.as_os_str().is_empty()).all(|a| {
            let real_dir = |root: &Path| std::fs::symlink_metadata(root.join(a)).map(|m| m.is_dir());
            real_dir(from).unwrap_or(false) && real_dir(to).unwrap_or(true)
        });
        if never || !is_file || !through_folders || target.symlink_metadata().is_ok() {
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(&source, &target).map_err(|e| format!("{}: {e}", source.display()))?;
        added += 1;
    }
    Ok(Some(added))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn git_in(dir: &Path, args: &[&str]) {
        let status = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }

    #[test]
    fn tracked_files_the_walk_left_out_are_copied_but_never_through_a_symlink() {
        let base = tempfile::tempdir().unwrap();
        let root = base.path().join("checkout");
        for dir in ["tests", "data"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
            std::fs::write(root.join(dir).join("fixture.db"), dir).unwrap();
        }
        std::fs::create_dir_all(root.join("tests/fixtures/node_modules")).unwrap();
        std::fs::write(root.join("tests/fixtures/node_modules/stack.js"), "module.exports = 1\n").unwrap();
        std::fs::write(root.join(".gitignore"), "*.db\nnode_modules\n").unwrap();
        git_in(&root, &["init", "-q"]);
        let tracked = [".gitignore", "tests/fixture.db", "data/fixture.db", "tests/fixtures/node_modules/stack.js"];
        git_in(&root, &[&["add", "-f"][..], &tracked[..]].concat());
        git_in(&root, &["commit", "-q", "-m", "first"]);
        // The checkout's `data` folder is now a relative symlink out of it; in the copy the
        // same link leads out of the scratch directory.
        std::fs::create_dir_all(base.path().join("outside")).unwrap();
        std::fs::write(base.path().join("outside/fixture.db"), "not the checkout's").unwrap();
        std::fs::remove_dir_all(root.join("data")).unwrap();
        std::os::unix::fs::symlink("../outside", root.join("data")).unwrap();
        let scratch = base.path().join("scratch");
        std::fs::create_dir_all(scratch.join("outside")).unwrap();

        let copy = scratch.join("checkout");
        copy_checkout(&root, &copy).unwrap();
        let git = || {
            let mut git = Command::new("git");
            git.env("GIT_CONFIG_NOSYSTEM", "1").env("HOME", base.path());
            git
        };
        // The walk has `tests/fixture.db` already (tracked although `*.db` matches it); git's
        // list adds the file in a dependency folder, which the walk never enters.
        assert_eq!(clone_git_history(&root, &copy, git), Ok(Some(1)));
        assert_eq!(std::fs::read_to_string(copy.join("tests/fixture.db")).unwrap(), "tests");
        assert!(copy.join("tests/fixtures/node_modules/stack.js").is_file());
        // The symlink is copied as a symlink; nothing is read or written through it.
        assert!(std::fs::symlink_metadata(copy.join("data")).unwrap().is_symlink());
        assert_eq!(std::fs::read_dir(scratch.join("outside")).unwrap().count(), 0);
    }

    #[test]
    fn a_scratch_directory_inside_the_checkout_is_not_copied() {
        let src = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(src.path()).unwrap();
        std::fs::write(root.join("a.txt"), "a").unwrap();
        let copy = root.join("tmp/hanzo-verify-x/checkout");
        assert_eq!(copy_checkout(&root, &copy).unwrap().files, 1);
        assert!(copy.join("a.txt").exists());
        assert!(!copy.join("tmp/hanzo-verify-x").exists());
    }

    #[test]
    fn copies_what_git_would_see() {
        let src = tempfile::tempdir().unwrap();
        let root = src.path();
        for dir in ["src", "node_modules/pkg", "target/debug", ".git", "logs", ".hanzo", "app/node_modules"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        for file in [
            "src/main.rs",
            "node_modules/pkg/index.js",
            "target/debug/bin",
            ".git/HEAD",
            "logs/a.log",
            ".hanzo/environment.toml",
            ".env.example",
            "app/node_modules/x.js",
            "keep.log",
        ] {
            std::fs::write(root.join(file), file).unwrap();
        }
        std::fs::write(root.join(".gitignore"), "logs/\n*.log\n!keep.log\n").unwrap();
        std::fs::write(root.join("run.sh"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(root.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::fs::symlink("src/main.rs", root.join("link.rs")).unwrap();

        let dst = tempfile::tempdir().unwrap();
        let copy = dst.path().join("checkout");
        copy_checkout(root, &copy).unwrap();
        let mut found: Vec<String> = ignore::WalkBuilder::new(&copy)
            .standard_filters(false)
            .build()
            .flatten()
            .filter(|e| !e.file_type().unwrap().is_dir())
            .map(|e| e.path().strip_prefix(&copy).unwrap().display().to_string())
            .collect();
        found.sort();
        assert_eq!(
            found,
            [".env.example", ".gitignore", ".hanzo/environment.toml", "keep.log", "link.rs", "run.sh", "src/main.rs"]
        );
        let mode = std::fs::metadata(copy.join("run.sh")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755);
        assert_eq!(std::fs::read_link(copy.join("link.rs")).unwrap(), Path::new("src/main.rs"));
    }
}
