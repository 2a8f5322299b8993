//! The [`Repo`] view: one gitignore-aware walk of the checkout, and capped, cached reads
//! of the files detectors ask for. Problems with single files become warnings.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Directories never descended into, wherever they are: dependencies, build output, VCS.
pub const SKIPPED_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "target",
    ".venv",
    "venv",
    "vendor",
    "__pycache__",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".gradle",
    ".next",
    ".nuxt",
    ".svelte-kit",
    ".turbo",
    ".parcel-cache",
    ".cache",
    "dist",
    "build",
    "out",
    "_build",
    "deps",
    ".dart_tool",
    ".pub-cache",
    "bower_components",
    "jspm_packages",
    ".stack-work",
    "dist-newstyle",
    ".bundle",
    "zig-cache",
    ".zig-cache",
    "zig-out",
    ".terraform",
    ".idea",
    ".vscode-test",
    "coverage",
    "Pods",
    "DerivedData",
    ".build",
    "bin",
    "obj",
];

#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Files larger than this are never read (a warning names them).
    pub max_file_bytes: u64,
    /// Threads for the walk; 0 picks the number of CPUs.
    pub threads: usize,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions { max_file_bytes: 2 << 20, threads: 0 }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    #[error("cannot read {}: {source}", path.display())]
    Root { path: PathBuf, source: std::io::Error },
    #[error("{} is not a directory", path.display())]
    NotADirectory { path: PathBuf },
}

impl crate::error::Diagnostic for WalkError {
    fn hint(&self) -> Option<String> {
        Some("pass the path of a checkout: `hanzo-env detect path/to/repo`".into())
    }
}

/// The checkout as the detectors see it.
pub struct Repo {
    root: PathBuf,
    /// Repo-relative paths with `/` separators, sorted.
    files: Vec<String>,
    /// Indices into `files`, ordered by file name (then path): a lookup by name is a binary
    /// search, and the index costs no allocation per file.
    by_name: Vec<u32>,
    max_file_bytes: u64,
    cache: Mutex<HashMap<String, Option<Arc<str>>>>,
    warnings: Mutex<Vec<String>>,
}

impl Repo {
    /// Walk `root` once, in parallel, honouring `.gitignore`/`.ignore` and [`SKIPPED_DIRS`].
    pub fn walk(root: &Path, options: &WalkOptions) -> Result<Repo, WalkError> {
        let meta = std::fs::metadata(root).map_err(|source| WalkError::Root { path: root.to_path_buf(), source })?;
        if !meta.is_dir() {
            return Err(WalkError::NotADirectory { path: root.to_path_buf() });
        }
        std::fs::read_dir(root).map_err(|source| WalkError::Root { path: root.to_path_buf(), source })?;

        let collected = Collected::default();
        // Ignore files come from the checkout: read only as regular files of bounded size.
        let (mut builder, ignores) = crate::ignore_files::IgnoreFiles::walk_builder(root);
        let keep = std::sync::Arc::clone(&ignores);
        let walker = builder
            .hidden(false)
            .require_git(false)
            .follow_links(false)
            .threads(options.threads)
            .filter_entry(move |entry| {
                !(entry.file_type().is_some_and(|t| t.is_dir())
                    && entry.depth() > 0
                    && entry.file_name().to_str().is_some_and(|n| SKIPPED_DIRS.contains(&n)))
                    && keep.keep(entry)
            })
            .build_parallel();
        walker.visit(&mut VisitorBuilder { root, collected: &collected });
        let Collected { files, warnings } = collected;
        let files = files.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut warnings = warnings.into_inner().unwrap_or_else(|e| e.into_inner());
        warnings.extend(ignores.warnings());
        Ok(Repo::from_files(root, files, warnings, options.max_file_bytes))
    }

    /// A view over an explicit list of files (tests, and callers that walked already).
    pub fn from_files(root: &Path, mut files: Vec<String>, warnings: Vec<String>, max_file_bytes: u64) -> Repo {
        files.sort_unstable();
        files.dedup();
        let mut by_name: Vec<u32> = (0..files.len().min(u32::MAX as usize) as u32).collect();
        by_name.sort_by(|&a, &b| file_name(&files[a as usize]).cmp(file_name(&files[b as usize])));
        Repo {
            root: root.to_path_buf(),
            files,
            by_name,
            max_file_bytes,
            cache: Mutex::new(HashMap::new()),
            warnings: Mutex::new(warnings),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every file, repo-relative, sorted.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// Directories holding a file called `manifest` that are projects rather than samples
    /// (see [`is_project_path`]): "" for the root, shallowest first.
    pub fn project_dirs(&self, manifest: &str) -> Vec<&str> {
        self.named(manifest).into_iter().filter(|p| is_project_path(p)).map(parent_dir).collect()
    }

    /// Whether any file lies under `dir` ("" for the whole tree).
    pub fn has_dir(&self, dir: &str) -> bool {
        self.under(dir).next().is_some()
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.files.binary_search_by(|f| f.as_str().cmp(rel)).is_ok()
    }

    /// Files called `name` anywhere in the tree, shallowest first, then by path.
    pub fn named(&self, name: &str) -> Vec<&str> {
        let mut found: Vec<&str> = self.by_name
            [self.by_name.partition_point(|&i| file_name(&self.files[i as usize]) < name)..]
            .iter()
            .map(|&i| self.files[i as usize].as_str())
            .take_while(|f| file_name(f) == name)
            .collect();
        found.sort_by_key(|p| (p.matches('/').count(), *p));
        found
    }

    /// Files under `dir` (repo-relative, no trailing slash; "" for all).
    pub fn under<'a>(&'a self, dir: &str) -> impl Iterator<Item = &'a str> + 'a {
        let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
        let start = self.files.partition_point(|f| f.as_str() < prefix.as_str());
        self.files[start..].iter().take_while(move |f| f.starts_with(&prefix)).map(String::as_str)
    }

    /// The text of `rel`, or `None` with a warning when it is missing, too large, binary or
    /// not UTF-8. Reads are cached: several detectors may ask for the same file.
    pub fn read(&self, rel: &str) -> Option<Arc<str>> {
        if let Some(hit) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(rel) {
            return hit.clone();
        }
        let text = self.read_uncached(rel).map_err(|problem| self.warn(format!("{rel}: {problem}"))).ok();
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(rel.to_string(), text.clone());
        text
    }

    fn read_uncached(&self, rel: &str) -> Result<Arc<str>, String> {
        let path = self.root.join(rel);
        // Listed as a file, but it may have been swapped for a FIFO or a device since.
        let file = crate::fsutil::open_regular(&path).map_err(|refusal| match refusal {
            crate::fsutil::Refusal::Io(e) => format!("cannot read: {e}"),
            other => format!("skipped, {other}"),
        })?;
        let len = file.metadata().map_err(|e| format!("cannot read: {e}"))?.len();
        if len > self.max_file_bytes {
            return Err(format!("skipped, {} bytes is over the {} byte limit for manifests", len, self.max_file_bytes));
        }
        let mut bytes = Vec::with_capacity(len as usize);
        file.take(self.max_file_bytes + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read: {e}"))?;
        if bytes.len() as u64 > self.max_file_bytes {
            return Err(format!("skipped, over the {} byte limit for manifests", self.max_file_bytes));
        }
        if bytes[..bytes.len().min(8192)].contains(&0) {
            return Err("skipped, looks binary".into());
        }
        String::from_utf8(bytes).map(Arc::from).map_err(|_| "skipped, not valid UTF-8".into())
    }

    /// `rel` parsed as JSON (comments and trailing commas are not JSON: a warning says so).
    pub fn read_json(&self, rel: &str) -> Option<serde_json::Value> {
        let text = self.read(rel)?;
        serde_json::from_str(&text).map_err(|e| self.warn(format!("{rel}: invalid JSON: {e}"))).ok()
    }

    /// `rel` parsed as JSON with comments and trailing commas allowed (`deno.jsonc`,
    /// `tsconfig.json`, `devcontainer.json`).
    pub fn read_jsonc(&self, rel: &str) -> Option<serde_json::Value> {
        let text = self.read(rel)?;
        serde_json::from_str(&strip_json_comments(&text))
            .map_err(|e| self.warn(format!("{rel}: invalid JSON: {e}")))
            .ok()
    }

    /// `rel` parsed as a TOML table.
    pub fn read_toml(&self, rel: &str) -> Option<toml::Table> {
        let text = self.read(rel)?;
        text.parse::<toml::Table>()
            .map_err(|e| {
                self.warn(format!("{rel}: invalid TOML: {}", e.to_string().lines().next().unwrap_or_default()))
            })
            .ok()
    }

    /// `rel` parsed as YAML (every document in the file), its aliases' expansion bounded.
    pub fn read_yaml(&self, rel: &str) -> Option<Vec<yaml_rust2::Yaml>> {
        let text = self.read(rel)?;
        super::yaml::load(&text).map_err(|e| self.warn(format!("{rel}: {e}"))).ok()
    }

    /// Record a problem that did not stop detection.
    pub fn warn(&self, warning: String) {
        self.warnings.lock().unwrap_or_else(|e| e.into_inner()).push(warning);
    }

    /// The warnings so far, sorted and deduplicated.
    pub fn warnings(&self) -> Vec<String> {
        let mut w = self.warnings.lock().unwrap_or_else(|e| e.into_inner()).clone();
        w.sort();
        w.dedup();
        w
    }
}

#[derive(Default)]
struct Collected {
    files: Mutex<Vec<String>>,
    warnings: Mutex<Vec<String>>,
}

struct VisitorBuilder<'a> {
    root: &'a Path,
    collected: &'a Collected,
}

impl<'s> ignore::ParallelVisitorBuilder<'s> for VisitorBuilder<'s> {
    fn build(&mut self) -> Box<dyn ignore::ParallelVisitor + 's> {
        Box::new(Visitor { root: self.root, collected: self.collected, files: Vec::new(), warnings: Vec::new() })
    }
}

/// One walker thread's share; handed to [`Collected`] when the thread is done.
struct Visitor<'a> {
    root: &'a Path,
    collected: &'a Collected,
    files: Vec<String>,
    warnings: Vec<String>,
}

impl ignore::ParallelVisitor for Visitor<'_> {
    fn visit(&mut self, entry: Result<ignore::DirEntry, ignore::Error>) -> ignore::WalkState {
        match entry {
            Ok(entry) => {
                let Some(file_type) = entry.file_type() else { return ignore::WalkState::Continue };
                if file_type.is_file() {
                    self.add(entry.path());
                } else if file_type.is_symlink() {
                    self.symlink(entry.path());
                } else if !file_type.is_dir() {
                    self.special(entry.path(), file_type);
                }
            }
            Err(err) => self.warnings.push(self.describe(&err)),
        }
        ignore::WalkState::Continue
    }
}

impl Visitor<'_> {
    fn relative(&self, path: &Path) -> String {
        let rel = path.strip_prefix(self.root).unwrap_or(path);
        rel.to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/")
    }

    fn add(&mut self, path: &Path) {
        match path.strip_prefix(self.root).ok().and_then(Path::to_str) {
            Some(rel) if std::path::MAIN_SEPARATOR == '/' => self.files.push(rel.to_owned()),
            Some(rel) => self.files.push(rel.replace(std::path::MAIN_SEPARATOR, "/")),
            None => self.warnings.push(format!("{}: skipped, the file name is not valid UTF-8", self.relative(path))),
        }
    }

    /// A FIFO, socket or device: never read (a FIFO would block, a device never ends), but
    /// named, so that a `package.json` that is one does not vanish silently.
    fn special(&mut self, path: &Path, file_type: std::fs::FileType) {
        let kind = crate::fsutil::describe_kind(file_type);
        self.warnings.push(format!("{}: skipped, it is not a regular file but {kind}", self.relative(path)));
    }

    /// Links are not followed (they may leave the checkout or loop): a link to a file is
    /// listed like the file; a link back to one of its own ancestors is reported as a loop;
    /// other links to directories are left out.
    fn symlink(&mut self, path: &Path) {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_file() => self.add(path),
            Ok(meta) if meta.is_dir() => {
                let target = std::fs::canonicalize(path).ok();
                let parent = path.parent().and_then(|p| std::fs::canonicalize(p).ok());
                if let (Some(target), Some(parent)) = (target, parent)
                    && parent.starts_with(&target)
                {
                    let root = std::fs::canonicalize(self.root).unwrap_or_else(|_| self.root.to_path_buf());
                    let ancestor = match target.strip_prefix(&root) {
                        Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
                        Ok(rel) => rel.to_string_lossy().into_owned(),
                        Err(_) => target.display().to_string(),
                    };
                    self.warnings.push(format!(
                        "{}: symlink loop (points back to its own ancestor {ancestor}), not followed",
                        self.relative(path)
                    ));
                }
            }
            Ok(meta) => self.special(path, meta.file_type()),
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                self.warnings.push(format!("{}: symlink loop, not followed", self.relative(path)));
            }
            Err(_) => {} // a dangling link names nothing to detect
        }
    }

    /// `path: problem`, with the path relative to the root.
    fn describe(&self, err: &ignore::Error) -> String {
        match err {
            ignore::Error::WithPath { path, err } => format!("{}: {}", self.relative(path), problem(err)),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => self.describe(err),
            ignore::Error::Loop { ancestor, child } => {
                format!("{}: symlink loop back to {}, not followed", self.relative(child), self.relative(ancestor))
            }
            ignore::Error::Partial(errs) => errs.iter().map(|e| self.describe(e)).collect::<Vec<_>>().join("; "),
            other => format!("skipped: {other}"),
        }
    }
}

/// The innermost message of a walk error, said plainly.
fn problem(err: &ignore::Error) -> String {
    match err {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => problem(err),
        ignore::Error::Io(io) if io.kind() == std::io::ErrorKind::PermissionDenied => {
            "cannot read (permission denied), skipped".into()
        }
        ignore::Error::Io(io) => format!("cannot read ({io}), skipped"),
        other => other.to_string(),
    }
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        self.collected.files.lock().unwrap_or_else(|e| e.into_inner()).append(&mut self.files);
        self.collected.warnings.lock().unwrap_or_else(|e| e.into_inner()).append(&mut self.warnings);
    }
}

/// Directory names whose manifests are samples, fixtures, templates or documentation: real
/// repos are full of them, and none is a project to install.
pub const SAMPLE_DIRS: &[&str] = &[
    "fixtures",
    "fixture",
    "__fixtures__",
    "testdata",
    "test-data",
    "test_data",
    "examples",
    "example",
    "samples",
    "sample",
    "docs",
    "doc",
    "documentation",
    "__mocks__",
    "mocks",
    "templates",
    "template",
    "snapshots",
    "__snapshots__",
];

/// True when a directory component of `rel` (not the file name) is one of [`SAMPLE_DIRS`].
pub fn is_sample_path(rel: &str) -> bool {
    parent_dir(rel).split('/').any(|part| SAMPLE_DIRS.contains(&part))
}

/// How deep a project that is not a workspace member may sit: `web/`, `apps/web/`,
/// `services/api/v2/` count; deeper manifests are asset pipelines and vendored tools inside
/// other code (`src/Framework/resources/renderer/package.json`), not part of the environment.
pub const MAX_PROJECT_DEPTH: usize = 3;

/// True when the project directory `dir` is deeper than [`MAX_PROJECT_DEPTH`].
pub fn too_deep_for_a_project(dir: &str) -> bool {
    !dir.is_empty() && dir.split('/').count() > MAX_PROJECT_DEPTH
}

/// True when the manifest `rel` may belong to a project: not under a sample directory, nor
/// under a hidden one (`.github/requirements.txt` serves CI tooling, `.devcontainer/…` the
/// container, not the project).
pub fn is_project_path(rel: &str) -> bool {
    !is_sample_path(rel) && !parent_dir(rel).split('/').any(|part| part.starts_with('.'))
}

/// True when `path` is `dir` or inside it (`dir` "" is the root, which holds everything).
pub fn is_within(path: &str, dir: &str) -> bool {
    dir.is_empty() || path == dir || path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
}

/// `dir/name`, or `name` at the root.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") }
}

/// The last `/`-separated component.
pub fn file_name(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

/// The directory part of `rel`, "" at the root.
pub fn parent_dir(rel: &str) -> &str {
    rel.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// JSONC to JSON: drop `//` and `/* */` comments outside strings, and trailing commas.
/// Line and column numbers are kept (comments become spaces) so errors still point right.
pub fn strip_json_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut prev = ' ';
                for c in chars.by_ref() {
                    out.push(if c == '\n' { '\n' } else { ' ' });
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
            }
            (',', _) => {
                // A trailing comma: the next significant character closes the container.
                let rest: String = chars.clone().take_while(|c| c.is_whitespace()).collect();
                let after = chars.clone().nth(rest.chars().count());
                if !matches!(after, Some('}') | Some(']')) {
                    out.push(',');
                } else {
                    out.push(' ');
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_comments_and_trailing_commas() {
        let text = "{\n  // a comment\n  \"a\": \"x // not a comment\", /* block */ \"b\": [1, 2,],\n}";
        let value: serde_json::Value = serde_json::from_str(&strip_json_comments(text)).unwrap();
        assert_eq!(value["a"], "x // not a comment");
        assert_eq!(value["b"], serde_json::json!([1, 2]));
        let text = "{\"a\": \"http://x/*y*/\", /* block\n */ \"b\": \"q\\\"//\",}";
        let value: serde_json::Value = serde_json::from_str(&strip_json_comments(text)).unwrap();
        assert_eq!(value["a"], "http://x/*y*/");
        assert_eq!(value["b"], "q\"//");
    }

    #[test]
    fn sample_paths() {
        assert!(is_sample_path("tests/fixtures/detect/node/package.json"));
        assert!(is_sample_path("examples/basic/go.mod"));
        assert!(!is_sample_path("web/package.json"));
        assert!(!is_sample_path("package.json"));
        assert!(!is_project_path(".github/requirements.txt"));
        assert!(is_project_path("web/package.json") && is_project_path("package.json"));
        assert!(is_within("web/src", "web") && is_within("web", "web") && !is_within("website", "web"));
        assert!(is_within("anything", ""));
    }
}
