//! The ignore files a walk of a checkout honours — `.gitignore` and `.ignore` in every
//! directory, `.git/info/exclude` of every repository in it — read by us instead of by the
//! `ignore` crate, which opens them without looking: a `.gitignore` symlinked to `/dev/zero`
//! (`git clone` recreates the link) grows the walk without end, and a FIFO hangs it.
//!
//! Here an ignore file is read only when it is a regular file of at most
//! [`MAX_IGNORE_FILE_BYTES`]; any other is skipped with a warning naming it. The rules are
//! the crate's with `require_git(false)`: a path is decided by the deepest `.ignore` that
//! matches it, else the deepest `.gitignore`, else `info/exclude`; the user's global
//! excludes file stays with the crate (it is not the checkout's).
//!
//! Use: build the walk with [`IgnoreFiles::walk_builder`] and pass every entry through
//! [`IgnoreFiles::keep`] in `filter_entry`.

use crate::evidence::Anchor;
use crate::warning::Warning;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// The largest ignore file read. Real ones are a few KiB; this leaves room for generated ones.
pub const MAX_IGNORE_FILE_BYTES: u64 = 256 << 10;
/// `.git` files (worktrees, submodules) and `commondir` hold one short line.
const MAX_POINTER_BYTES: u64 = 4 << 10;

/// The rules in force in one directory: its own ignore files' matchers first, then those of
/// its ancestors, deepest first. A directory without ignore files shares its parent's.
#[derive(Default)]
struct Rules {
    ignore: Vec<Placed>,
    gitignore: Vec<Placed>,
    exclude: Vec<Placed>,
}

/// A matcher and the directory its ignore file is in (the length of its path as the walk
/// spells it). Matchers match paths relative to that directory, so ignore files with the
/// same text share one: a tree's packages often repeat one `.gitignore`, and each matcher
/// costs about as much memory as the walk's paths do per thousand files.
#[derive(Clone)]
struct Placed {
    dir_len: usize,
    matcher: Arc<Gitignore>,
}

pub struct IgnoreFiles {
    /// Tells this walk's entry in [`LAST_PARENT`] from another walk's on the same thread.
    id: u64,
    root: PathBuf,
    /// The root's rules.
    top: Arc<Rules>,
    /// Every directory below the root with ignore files of its own, by the bytes of its path
    /// as the walk spells it: a lookup hashes bytes, not path components (the walk asks for
    /// every entry of a tree of hundreds of thousands).
    rules: RwLock<HashMap<Vec<u8>, Arc<Rules>>>,
    /// The matcher built from each ignore-file text read so far without a problem.
    by_text: Mutex<HashMap<Vec<u8>, Arc<Gitignore>>>,
    warnings: Mutex<Vec<Warning>>,
    /// File names the walk keeps although a pattern ignores them (the caller's knowledge).
    kept_anyway: fn(&str) -> bool,
    /// Files the checkout commits although a pattern ignores them: git keeps them, so do we.
    tracked: crate::git_tracked::TrackedDespitePatterns,
}

impl IgnoreFiles {
    /// A walk of `root` in which the crate reads no ignore file of the checkout, and the
    /// rules that stand in for them (their root level read now). A file whose name
    /// `kept_anyway` accepts stays in the walk whatever a pattern says: a pattern cannot untrack
    /// a committed file, and some files are committed although a pattern matches them.
    pub fn walk_builder(root: &Path, kept_anyway: fn(&str) -> bool) -> (ignore::WalkBuilder, Arc<IgnoreFiles>) {
        let mut builder = ignore::WalkBuilder::new(root);
        builder.ignore(false).git_ignore(false).git_exclude(false).parents(false);
        static WALKS: AtomicU64 = AtomicU64::new(0);
        let mut files = IgnoreFiles {
            id: WALKS.fetch_add(1, Ordering::Relaxed),
            root: root.to_path_buf(),
            top: Arc::default(),
            rules: RwLock::default(),
            by_text: Mutex::default(),
            warnings: Mutex::default(),
            kept_anyway,
            tracked: crate::git_tracked::TrackedDespitePatterns::of(root),
        };
        files.top = files.read_dir_rules(root, &Arc::default());
        (builder, Arc::new(files))
    }

    /// Whether the walk keeps `entry`: false when an ignore file excludes it. A kept
    /// directory's own ignore files are read here, before the walk lists it.
    pub fn keep(&self, entry: &ignore::DirEntry) -> bool {
        if entry.depth() == 0 {
            return true;
        }
        let path = entry.path();
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        let rules = self.rules_of_parent(path);
        if ignored(&rules, path, is_dir)
            && !(if is_dir {
                self.tracked.holds(path)
            } else {
                self.is_kept_anyway(path) || self.tracked.has_file(path)
            })
        {
            return false;
        }
        if is_dir {
            let own = self.read_dir_rules(path, &rules);
            // Only directories with ignore files of their own are kept: the others have
            // their nearest ancestor's rules (a tree has tens of thousands of directories).
            if !Arc::ptr_eq(&own, &rules) {
                let key = path.as_os_str().as_encoded_bytes().to_vec();
                self.rules.write().unwrap_or_else(|e| e.into_inner()).insert(key, own);
            }
        }
        true
    }

    /// The ignore files skipped, one warning each (`path: why`).
    pub fn warnings(&self) -> Vec<Warning> {
        self.warnings.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The rules of the directory holding `path`, which the walk has passed through
    /// [`IgnoreFiles::keep`] (a directory comes before its entries): those of the nearest
    /// directory, that one or an ancestor up to the root, with ignore files of its own.
    fn rules_of_parent(&self, path: &Path) -> Arc<Rules> {
        // Ancestors by bytes: the walk spells an entry's path as its parent's, a separator and
        // its name, so cutting at the last separator gives the parent as the walk spelled it;
        // at the root's length or shorter, that is the root (however it is spelled).
        let path = path.as_os_str().as_encoded_bytes();
        let parent = &path[..last_separator(path).unwrap_or(0)];
        // A walker thread passes a directory's entries one after another: the rules of the
        // parent it asked for last answer most entries without hashing their ancestors. (The
        // answer for a directory never changes: its own rules are in before its entries.)
        LAST_PARENT.with_borrow_mut(|last| {
            if last.walk == self.id
                && last.dir == parent
                && let Some(rules) = last.rules.upgrade()
            {
                return rules;
            }
            let rules = self.nearest_rules(parent);
            last.walk = self.id;
            // The buffer kept: a walk asks for thousands of directories.
            last.dir.clear();
            last.dir.extend_from_slice(parent);
            last.rules = Arc::downgrade(&rules);
            rules
        })
    }

    /// The rules of `dir` (as the walk spells it), or of its nearest ancestor with any.
    fn nearest_rules(&self, mut dir: &[u8]) -> Arc<Rules> {
        let root_len = self.root.as_os_str().len();
        let rules = self.rules.read().unwrap_or_else(|e| e.into_inner());
        while dir.len() > root_len {
            if let Some(found) = rules.get(dir) {
                return Arc::clone(found);
            }
            let Some(cut) = last_separator(dir) else { break };
            dir = &dir[..cut];
        }
        Arc::clone(&self.top)
    }

    /// `dir`'s rules: `parent`'s, with the matchers of `dir`'s own ignore files in front.
    fn read_dir_rules(&self, dir: &Path, parent: &Arc<Rules>) -> Arc<Rules> {
        let ignore = self.matcher(&dir.join(".ignore"));
        let gitignore = self.matcher(&dir.join(".gitignore"));
        let exclude = self.git_dir(dir).and_then(|git| self.matcher(&git.join("info").join("exclude")));
        if ignore.is_none() && gitignore.is_none() && exclude.is_none() {
            return Arc::clone(parent);
        }
        let dir_len = dir.as_os_str().len();
        let stack = |own: Option<Arc<Gitignore>>, inherited: &[Placed]| {
            let own = own.map(|matcher| Placed { dir_len, matcher });
            own.into_iter().chain(inherited.iter().cloned()).collect::<Vec<_>>()
        };
        Arc::new(Rules {
            ignore: stack(ignore, &parent.ignore),
            gitignore: stack(gitignore, &parent.gitignore),
            exclude: stack(exclude, &parent.exclude),
        })
    }

    /// The matcher of the ignore file `file` for paths relative to its directory; `None` when
    /// there is no such file, or it was skipped (with a warning).
    fn matcher(&self, file: &Path) -> Option<Arc<Gitignore>> {
        // Most directories have no ignore file: one lstat says so.
        std::fs::symlink_metadata(file).ok()?;
        let text = match crate::fsutil::read_regular(file, MAX_IGNORE_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(crate::fsutil::Refusal::Missing) => return None, // a dangling link names nothing
            Err(refusal) => {
                self.warn(file, &format!("ignore file not read ({refusal}); its patterns are not applied"));
                return None;
            }
        };
        let shared = self.by_text.lock().unwrap_or_else(|e| e.into_inner()).get(&text).cloned();
        if shared.is_some() {
            return shared;
        }
        let bytes = text;
        let text = String::from_utf8_lossy(&bytes);
        // Rooted nowhere: [`ignored`] passes paths relative to the ignore file's directory.
        let mut builder = GitignoreBuilder::new("");
        let mut first_error = None;
        for (index, line) in text.trim_start_matches('\u{feff}').lines().enumerate() {
            if let Err(err) = builder.add_line(Some(file.to_path_buf()), line) {
                first_error.get_or_insert((index + 1, err));
            }
        }
        let clean = first_error.is_none();
        if let Some((line, err)) = first_error {
            self.warn_at(file, Anchor::Line(line), &format!("{err}; that pattern is not applied"));
        }
        match builder.build() {
            Ok(matcher) => {
                let matcher = Arc::new(matcher);
                // Shared only when another file with this text would warn of nothing either.
                if clean {
                    self.by_text.lock().unwrap_or_else(|e| e.into_inner()).insert(bytes, Arc::clone(&matcher));
                }
                Some(matcher)
            }
            Err(err) => {
                self.warn(file, &format!("{err}; its patterns are not applied"));
                None
            }
        }
    }

    /// The git directory of a repository whose work tree is `dir`: `.git` itself, or where a
    /// `.git` file (worktree, submodule) points (its `commondir` for a worktree).
    fn git_dir(&self, dir: &Path) -> Option<PathBuf> {
        let dot_git = dir.join(".git");
        let meta = std::fs::symlink_metadata(&dot_git).ok()?;
        if meta.is_dir() {
            return Some(dot_git);
        }
        let gitdir = dir.join(self.first_line(&dot_git)?.strip_prefix("gitdir:")?.trim());
        match self.first_line(&gitdir.join("commondir")) {
            Some(common) => Some(gitdir.join(common.trim())),
            None => Some(gitdir),
        }
    }

    /// The first line of a short pointer file, when it is a regular file.
    fn first_line(&self, file: &Path) -> Option<String> {
        match crate::fsutil::read_regular(file, MAX_POINTER_BYTES) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).lines().next().map(str::to_string),
            Err(crate::fsutil::Refusal::Missing) => None,
            Err(refusal) => {
                self.warn(file, &format!("not read ({refusal})"));
                None
            }
        }
    }

    fn is_kept_anyway(&self, path: &Path) -> bool {
        path.file_name().and_then(|name| name.to_str()).is_some_and(self.kept_anyway)
    }

    fn warn(&self, file: &Path, problem: &str) {
        self.warn_at(file, Anchor::File, problem);
    }

    fn warn_at(&self, file: &Path, anchor: Anchor, problem: &str) {
        let warning = Warning::at_place_under(&self.root, file, anchor, problem);
        self.warnings.lock().unwrap_or_else(|e| e.into_inner()).push(warning);
    }
}

/// A thread's last [`IgnoreFiles::rules_of_parent`]: the walk (its [`IgnoreFiles::id`]), the
/// directory, and its rules, held weakly so that the matchers go with the walk.
struct LastParent {
    walk: u64,
    dir: Vec<u8>,
    rules: Weak<Rules>,
}

thread_local! {
    static LAST_PARENT: RefCell<LastParent> =
        const { RefCell::new(LastParent { walk: u64::MAX, dir: Vec::new(), rules: Weak::new() }) };
}

/// Where the last path separator in `path` is.
fn last_separator(path: &[u8]) -> Option<usize> {
    path.iter().rposition(|&b| b.is_ascii() && std::path::is_separator(b.into()))
}

/// A path's bytes (a cut of [`OsStr::as_encoded_bytes`]) as a path again.
///
/// [`OsStr::as_encoded_bytes`]: std::ffi::OsStr::as_encoded_bytes
#[cfg(unix)]
fn path_of(bytes: &[u8]) -> &Path {
    Path::new(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_of(bytes: &[u8]) -> &Path {
    Path::new(std::str::from_utf8(bytes).unwrap_or_default())
}

/// The crate's precedence: `.ignore` files, then `.gitignore` files, then `info/exclude`; in
/// each, the deepest file with a matching pattern decides (a `!` pattern keeps the path).
fn ignored(rules: &Rules, path: &Path, is_dir: bool) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    for kind in [&rules.ignore, &rules.gitignore, &rules.exclude] {
        for placed in kind {
            // The path below the ignore file's directory: the walk spells it as that
            // directory's path, a separator (unless the root's path ends in one) and the rest.
            let Some(below) = bytes.get(placed.dir_len..) else { continue };
            let below = below.strip_prefix(b"/").unwrap_or(below);
            let decision = placed.matcher.matched(path_of(below), is_dir);
            if decision.is_ignore() {
                return true;
            }
            if decision.is_whitelist() {
                return false;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files a walk with [`IgnoreFiles`] lists, and its warnings.
    fn walk(root: &Path) -> (Vec<String>, Vec<String>) {
        walk_keeping(root, |_| false)
    }

    fn walk_keeping(root: &Path, kept_anyway: fn(&str) -> bool) -> (Vec<String>, Vec<String>) {
        let (mut builder, ignores) = IgnoreFiles::walk_builder(root, kept_anyway);
        let keep = Arc::clone(&ignores);
        builder.hidden(false).filter_entry(move |e| keep.keep(e) && e.file_name() != ".git");
        let mut files: Vec<String> = builder
            .build()
            .flatten()
            .filter(|e| e.file_type().is_some_and(|t| !t.is_dir()))
            .map(|e| e.path().strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let mut warnings: Vec<String> = ignores.warnings().iter().map(ToString::to_string).collect();
        warnings.sort();
        (files, warnings)
    }

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_file_the_caller_keeps_stays_whatever_a_pattern_says() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, ".gitignore", ".env\n.env.*\n!.env.test\n");
        for name in [".env", ".env.local", ".env.sample", ".env.test", "app/.env.example"] {
            write(root, name, "");
        }
        let (files, _) = walk_keeping(root, crate::detect::repo::is_env_template);
        assert_eq!(files, [".env.sample", ".env.test", ".gitignore", "app/.env.example"]);
        let (files, _) = walk(root);
        assert_eq!(files, [".env.test", ".gitignore"]);
    }

    #[test]
    fn the_crates_rules_hold() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, ".gitignore", "*.log\nbuild/\n");
        write(root, ".git/info/exclude", "secret.txt\n");
        write(root, "a.log", "");
        write(root, "keep.txt", "");
        write(root, "secret.txt", "");
        write(root, "build/out.js", "");
        write(root, "sub/.gitignore", "!important.log\n");
        write(root, "sub/important.log", "");
        write(root, "sub/other.log", "");
        write(root, "sub/.ignore", "*.txt\n!keep.txt\n");
        write(root, "sub/x.txt", "");
        write(root, "sub/keep.txt", "");
        let (files, warnings) = walk(root);
        assert_eq!(
            files,
            [".gitignore", "keep.txt", "sub/.gitignore", "sub/.ignore", "sub/important.log", "sub/keep.txt"]
        );
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn ignore_files_with_one_text_share_a_matcher_and_each_keeps_its_place() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for package in ["packages/a", "packages/b"] {
            write(root, &format!("{package}/.gitignore"), "/dist\n*.tmp\n");
            write(root, &format!("{package}/dist/x.js"), "");
            write(root, &format!("{package}/src/dist/y.js"), "");
            write(root, &format!("{package}/src/z.tmp"), "");
        }
        // The same text at the root: `/dist` is the root's own folder there, not a package's.
        write(root, ".gitignore", "/dist\n*.tmp\n");
        write(root, "dist/top.js", "");
        let (files, warnings) = walk(root);
        assert_eq!(
            files,
            [
                ".gitignore",
                "packages/a/.gitignore",
                "packages/a/src/dist/y.js",
                "packages/b/.gitignore",
                "packages/b/src/dist/y.js"
            ]
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        // One matcher for the three files.
        let (mut builder, ignores) = IgnoreFiles::walk_builder(root, |_| false);
        let keep = Arc::clone(&ignores);
        builder.filter_entry(move |e| keep.keep(e)).build().for_each(drop);
        assert_eq!(ignores.by_text.lock().unwrap().len(), 1);
        let rules = ignores.rules.read().unwrap();
        let matcher =
            |package: &str| Arc::clone(&rules[root.join(package).as_os_str().as_encoded_bytes()].gitignore[0].matcher);
        assert!(Arc::ptr_eq(&matcher("packages/a"), &matcher("packages/b")));
    }

    #[test]
    fn rules_reach_deep_entries_however_the_root_is_spelled() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, ".gitignore", "*.log\n");
        write(root, "a/b/c/x.log", "");
        write(root, "a/b/c/x.rs", "");
        write(root, "a/.gitignore", "*.tmp\n");
        write(root, "a/b/c/y.tmp", "");
        write(root, "a/b/.ignore", "!y.tmp\n");
        write(root, "a/b/c/d/z.tmp", ""); // not whitelisted by a/b/.ignore: a/.gitignore rules
        write(root, "ab/w.tmp", "");
        let expected = [".gitignore", "a/.gitignore", "a/b/.ignore", "a/b/c/x.rs", "a/b/c/y.tmp", "ab/w.tmp"];
        assert_eq!(walk(root).0, expected);
        let slashed = PathBuf::from(format!("{}/", root.display()));
        assert_eq!(walk(&slashed).0, expected);
    }

    #[cfg(unix)]
    #[test]
    fn ignore_files_that_are_not_regular_files_are_skipped_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "a.txt", "");
        write(root, "sub/b.txt", "");
        write(root, "deep/er/c.txt", "");
        std::fs::create_dir_all(root.join(".git/info")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join(".gitignore")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join(".git/info/exclude")).unwrap();
        std::os::unix::fs::symlink("/dev/urandom", root.join("sub/.ignore")).unwrap();
        let fifo = std::ffi::CString::new(root.join("deep/er/.gitignore").as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo(3) with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        write(root, "big/.gitignore", &"x\n".repeat(MAX_IGNORE_FILE_BYTES as usize));
        write(root, "big/x", "");
        let started = std::time::Instant::now();
        let (files, warnings) = walk(root);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert!(files.contains(&"a.txt".to_string()) && files.contains(&"big/x".to_string()), "{files:?}");
        assert_eq!(warnings.len(), 5, "{warnings:?}");
        for (warning, start) in warnings.iter().zip([
            ".git/info/exclude: ignore file not read (it is not a regular file but a character device)",
            ".gitignore: ignore file not read (it is not a regular file but a character device)",
            "big/.gitignore: ignore file not read (it is over the 262144 byte limit)",
            "deep/er/.gitignore: ignore file not read (it is not a regular file but a FIFO)",
            "sub/.ignore: ignore file not read (it is not a regular file but a character device)",
        ]) {
            assert!(warning.starts_with(start), "{warning}");
        }
    }

    #[test]
    fn a_bad_pattern_is_named_by_its_line_and_the_others_still_apply() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "sub/.gitignore", "*.log\n\n{unclosed\n*.tmp\n");
        write(root, "sub/a.log", "");
        write(root, "sub/b.tmp", "");
        write(root, "sub/c.txt", "");
        let (files, warnings) = walk(root);
        assert_eq!(files, ["sub/.gitignore", "sub/c.txt"]);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].starts_with("sub/.gitignore:3: "), "{warnings:?}");
        assert!(warnings[0].ends_with("; that pattern is not applied"), "{warnings:?}");
    }

    #[test]
    fn a_worktree_finds_its_exclude_file_through_commondir() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main");
        write(&main, ".git/info/exclude", "*.tmp\n");
        write(&main, ".git/worktrees/wt/commondir", "../..\n");
        let wt = dir.path().join("wt");
        write(&wt, ".git", &format!("gitdir: {}\n", main.join(".git/worktrees/wt").display()));
        write(&wt, "a.tmp", "");
        write(&wt, "a.rs", "");
        assert_eq!(walk(&wt).0, ["a.rs"]);
    }
}
