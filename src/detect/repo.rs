//! The [`Repo`] view: one gitignore-aware walk of the checkout, and capped, cached reads
//! of the files detectors ask for. Problems with single files become warnings.

use crate::rel_path::RelPath;
use crate::warning::Warning;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

mod env_names;
mod folders;
mod kept;
mod paths;
mod skipped;
pub use env_names::{is_env_file, is_env_template, is_example};
pub use folders::{is_ci_dir, is_load_test_dir, is_test_suite_dir};
pub use kept::MAX_KEPT_BYTES;
use paths::{Paths, Walked};
pub use skipped::{BuildOutput, SKIPPED_DIRS, SkippedDirs};

/// How to walk a checkout. Its `Default` (in [`crate::detect`], which sees every ecosystem)
/// skips the folders of all of them.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Files larger than this are never read (a warning names them).
    pub max_file_bytes: u64,
    /// Threads for the walk; 0 picks the number of CPUs.
    pub threads: usize,
    /// Folders never descended into.
    pub skipped_dirs: &'static SkippedDirs,
}

impl WalkOptions {
    /// The usual limits, skipping `skipped_dirs`.
    pub fn skipping(skipped_dirs: &'static SkippedDirs) -> WalkOptions {
        WalkOptions { max_file_bytes: 2 << 20, threads: 0, skipped_dirs }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    #[error("cannot read {}: {source}", path.display())]
    Root { path: PathBuf, source: std::io::Error },
    #[error("{} is not a directory", path.display())]
    NotADirectory { path: PathBuf },
}

impl crate::diagnostic::Diagnostic for WalkError {
    fn hint(&self) -> Option<String> {
        Some("pass the path of a checkout: `hanzo-env detect path/to/repo`".into())
    }
}

/// The checkout as the detectors see it.
pub struct Repo {
    root: PathBuf,
    /// Repo-relative paths with `/` separators, sorted.
    files: Paths,
    /// The paths built for callers that keep them (`named`, `RepoFile::path`), by position:
    /// built once each, and only for the few files asked for by path.
    built: elsa::sync::FrozenMap<u32, Box<str>>,
    max_file_bytes: u64,
    /// Texts and parsed documents kept for later askers.
    kept: kept::Kept,
    warnings: Mutex<Vec<Warning>>,
}

impl Repo {
    /// Walk `root` once, in parallel, honouring `.gitignore`/`.ignore` and never descending
    /// into the options' skipped folders.
    pub fn walk(root: &Path, options: &WalkOptions) -> Result<Repo, WalkError> {
        let meta = std::fs::metadata(root).map_err(|source| WalkError::Root { path: root.to_path_buf(), source })?;
        if !meta.is_dir() {
            return Err(WalkError::NotADirectory { path: root.to_path_buf() });
        }
        std::fs::read_dir(root).map_err(|source| WalkError::Root { path: root.to_path_buf(), source })?;

        let collected = Collected::default();
        // Ignore files come from the checkout: read only as regular files of bounded size.
        let (mut builder, ignores) = crate::ignore_files::IgnoreFiles::walk_builder(root, is_env_template);
        let keep = std::sync::Arc::clone(&ignores);
        let skipped = options.skipped_dirs;
        let walker = builder
            .hidden(false)
            .require_git(false)
            .follow_links(false)
            .threads(options.threads)
            .filter_entry(move |entry| {
                !(entry.file_type().is_some_and(|t| t.is_dir())
                    && entry.depth() > 0
                    && entry.file_name().to_str().is_some_and(|n| skipped.skips(n, entry.path())))
                    && keep.keep(entry)
            })
            .build_parallel();
        // Links are judged by where they resolve: against the checkout's own resolved path.
        let resolved_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        walker.visit(&mut VisitorBuilder { root, resolved_root: &resolved_root, collected: &collected });
        let Collected { files, warnings } = collected;
        let mut warnings = warnings.into_inner().unwrap_or_else(|e| e.into_inner());
        warnings.extend(ignores.warnings());
        // Every ignore file's matchers are held until here (megabytes in a large tree): let
        // them go before the paths are sorted, which is when a run needs the most memory.
        drop((builder, ignores));
        crate::memory::release_freed();
        let files = Paths::from_walk(files.into_inner().unwrap_or_else(|e| e.into_inner()));
        // The walkers' full paths, freed by the line above, were the largest part of memory.
        crate::memory::release_freed();
        Ok(Repo::from_paths(root, files, warnings, options.max_file_bytes))
    }

    /// A view over an explicit list of files (tests, and callers that walked already).
    pub fn from_files(root: &Path, files: Vec<String>, warnings: Vec<Warning>, max_file_bytes: u64) -> Repo {
        let mut list = Walked::default();
        for file in &files {
            list.push(file);
        }
        Repo::from_paths(root, Paths::from_walk(vec![list]), warnings, max_file_bytes)
    }

    fn from_paths(root: &Path, files: Paths, warnings: Vec<Warning>, max_file_bytes: u64) -> Repo {
        Repo {
            root: root.to_path_buf(),
            files,
            built: elsa::sync::FrozenMap::new(),
            max_file_bytes,
            kept: kept::Kept::default(),
            warnings: Mutex::new(warnings),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every file, in the order of their paths.
    pub fn files(&self) -> impl ExactSizeIterator<Item = RepoFile<'_>> + DoubleEndedIterator + Clone + '_ {
        self.files_in(0..self.files.len())
    }

    /// The files with sorted positions in `range` (to split a scan of every file).
    pub fn files_in(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl ExactSizeIterator<Item = RepoFile<'_>> + DoubleEndedIterator + Clone + '_ {
        range.map(|i| RepoFile { repo: self, at: i as u32 })
    }

    /// The path of the file at sorted position `i` (`i < file_count()`).
    pub fn file(&self, i: usize) -> &RelPath {
        if let Some(path) = self.built.get(&(i as u32)) {
            return RelPath::trusted(path);
        }
        RelPath::trusted(self.built.insert_with(i as u32, || self.files.path(i).into_boxed_str()))
    }

    /// How many files the walk found.
    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// Directories holding a file called `manifest` that are projects rather than samples
    /// (see [`is_project_path`]): "" for the root, shallowest first.
    pub fn project_dirs(&self, manifest: &str) -> Vec<&RelPath> {
        let mut dirs: Vec<&RelPath> = self
            .files
            .named(manifest)
            .iter()
            .map(|&i| RelPath::trusted(self.files.dir(i as usize)))
            .filter(|dir| is_project_dir(dir))
            .collect();
        dirs.sort_by_cached_key(|dir| {
            let path = dir.join(RelPath::trusted(manifest));
            (path.depth(), path)
        });
        dirs
    }

    /// Whether any file lies under `dir` ("" for the whole tree).
    pub fn has_dir(&self, dir: impl AsRef<RelPath>) -> bool {
        self.under(dir).next().is_some()
    }

    pub fn exists(&self, rel: impl AsRef<RelPath>) -> bool {
        let rel = rel.as_ref();
        self.files.is_at(self.files.first_not_before(rel), rel)
    }

    /// Files called `name` anywhere in the tree, shallowest first, then by path.
    pub fn named(&self, name: &str) -> Vec<&RelPath> {
        let mut found: Vec<&RelPath> = self.files.named(name).iter().map(|&i| self.file(i as usize)).collect();
        // Keys worked out once: a name like `package.json` is thousands of files in a large tree.
        found.sort_by_cached_key(|p| (p.depth(), *p));
        found
    }

    /// Files under `dir` (repo-relative, no trailing slash; "" for all).
    pub fn under<'a>(&'a self, dir: impl AsRef<RelPath>) -> impl Iterator<Item = RepoFile<'a>> + 'a {
        let dir = dir.as_ref().to_owned();
        let start = if dir.is_root() { 0 } else { self.files.first_not_before(&format!("{dir}/")) };
        self.files_in(start..self.files.len()).take_while(move |f| f.dir().is_within(&dir))
    }

    /// The text of `rel`, or `None` with a warning when it is missing, too large, binary or
    /// not UTF-8. Reads are kept (see [`MAX_KEPT_BYTES`]): several detectors may ask for the
    /// same file.
    pub fn read(&self, rel: impl AsRef<RelPath>) -> Option<Arc<str>> {
        let rel = rel.as_ref();
        self.kept.get_or_read(&self.kept.texts, rel.as_str(), || {
            self.read_or_warn(rel).map(|text| {
                let weight = text.len() as u64;
                (text, weight)
            })
        })
    }

    /// The text of `rel` like [`Repo::read`], without keeping it: for the many files one
    /// ecosystem scans once (every build script of a Gradle build, every `.csproj`).
    pub fn read_once(&self, rel: impl AsRef<RelPath>) -> Option<Arc<str>> {
        self.text_to_parse(rel.as_ref())
    }

    /// The text of `rel`, read now, or `None` with a warning.
    fn read_or_warn(&self, rel: &RelPath) -> Option<Arc<str>> {
        self.read_uncached(rel).map_err(|problem| self.warn(Warning::in_file(rel, problem))).ok()
    }

    fn read_uncached(&self, rel: &RelPath) -> Result<Arc<str>, String> {
        let path = self.root.join(rel);
        // Listed as a file, but it may have been swapped for a FIFO or a device since.
        let file = crate::fsutil::open_regular_within(&path, &self.root).map_err(|refusal| match refusal {
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
    pub fn read_json(&self, rel: impl AsRef<RelPath>) -> Option<Arc<serde_json::Value>> {
        let rel = rel.as_ref();
        self.parsed(&self.kept.json, rel, |text| serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}")))
    }

    /// `rel` parsed as JSON with comments and trailing commas allowed (`deno.jsonc`,
    /// `tsconfig.json`, `devcontainer.json`).
    pub fn read_jsonc(&self, rel: impl AsRef<RelPath>) -> Option<Arc<serde_json::Value>> {
        let rel = rel.as_ref();
        self.parsed(&self.kept.jsonc, rel, |text| {
            jsonc_parser::parse_to_serde_value(text, &Default::default()).map_err(|e| format!("invalid JSON: {e}"))
        })
    }

    /// `rel` parsed as a TOML table.
    pub fn read_toml(&self, rel: impl AsRef<RelPath>) -> Option<Arc<toml::Table>> {
        let rel = rel.as_ref();
        self.parsed(&self.kept.toml, rel, |text| {
            text.parse::<toml::Table>()
                .map_err(|e| format!("invalid TOML: {}", e.to_string().lines().next().unwrap_or_default()))
        })
    }

    /// `rel` parsed as YAML (every document in the file), its size and its aliases'
    /// expansion bounded.
    pub fn read_yaml(&self, rel: impl AsRef<RelPath>) -> Option<Arc<Vec<yaml_rust2::Yaml>>> {
        let rel = rel.as_ref();
        self.kept.get_or_read(&self.kept.yaml, rel.as_str(), || {
            let text = self.text_to_parse(rel)?;
            let (docs, nodes) = super::yaml::load_counted(&text)
                .map_err(|problem| self.warn(Warning::in_file(rel, problem.to_string())))
                .ok()?;
            Some((Arc::new(docs), (text.len() as u64).max(nodes * kept::YAML_NODE_WEIGHT)))
        })
    }

    /// The text of `rel` for a parse (the text itself is not kept for a parsed file: the
    /// parsed value is), or `None` with a warning.
    fn text_to_parse(&self, rel: &RelPath) -> Option<Arc<str>> {
        match self.kept.get(&self.kept.texts, rel.as_str()) {
            Some(text) => text,
            None => self.read_or_warn(rel),
        }
    }

    /// `rel` parsed once per run while what is kept fits (see [`MAX_KEPT_BYTES`]), however
    /// many ecosystems and signals ask; a file that does not parse is one warning.
    fn parsed<T>(
        &self,
        cache: &kept::Cache<T>,
        rel: &RelPath,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Option<Arc<T>> {
        self.kept.get_or_read(cache, rel.as_str(), || {
            let text = self.text_to_parse(rel)?;
            let value = parse(&text).map_err(|problem| self.warn(Warning::in_file(rel, problem))).ok()?;
            Some((Arc::new(value), text.len() as u64))
        })
    }

    /// Let go of the texts and parsed documents kept for later askers (megabytes in a large
    /// tree), and hand their pages back: for when the askers that share them are done. A
    /// later read reads and parses again, with the same answer (and warnings, deduplicated).
    pub fn forget_kept(&self) {
        self.kept.forget();
        crate::memory::release_freed();
    }

    /// Record a problem that did not stop detection.
    pub fn warn(&self, warning: Warning) {
        self.warnings.lock().unwrap_or_else(|e| e.into_inner()).push(warning);
    }

    /// The warnings so far, sorted and deduplicated.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut w = self.warnings.lock().unwrap_or_else(|e| e.into_inner()).clone();
        w.sort();
        w.dedup();
        w
    }
}

/// One file of the walk: its folder and name, and its path built only when asked for.
#[derive(Clone, Copy)]
pub struct RepoFile<'r> {
    repo: &'r Repo,
    at: u32,
}

impl<'r> RepoFile<'r> {
    /// The folder holding the file, "" at the root.
    pub fn dir(&self) -> &'r RelPath {
        RelPath::trusted(self.repo.files.dir(self.at as usize))
    }

    pub fn name(&self) -> &'r str {
        self.repo.files.name(self.at as usize)
    }

    /// The repo-relative path, built once.
    pub fn path(&self) -> &'r RelPath {
        self.repo.file(self.at as usize)
    }

    /// See [`is_project_path`].
    pub fn is_project_path(&self) -> bool {
        is_project_dir(self.dir())
    }

    /// See [`is_own_path`].
    pub fn is_own(&self) -> bool {
        is_own_dir(self.dir())
    }
}

#[derive(Default)]
struct Collected {
    files: Mutex<Vec<Walked>>,
    warnings: Mutex<Vec<Warning>>,
}

struct VisitorBuilder<'a> {
    root: &'a Path,
    resolved_root: &'a Path,
    collected: &'a Collected,
}

impl<'s> ignore::ParallelVisitorBuilder<'s> for VisitorBuilder<'s> {
    fn build(&mut self) -> Box<dyn ignore::ParallelVisitor + 's> {
        Box::new(Visitor {
            root: self.root,
            resolved_root: self.resolved_root,
            collected: self.collected,
            files: Walked::default(),
            warnings: Vec::new(),
        })
    }
}

/// One walker thread's share; handed to [`Collected`] when the thread is done.
struct Visitor<'a> {
    root: &'a Path,
    resolved_root: &'a Path,
    collected: &'a Collected,
    files: Walked,
    warnings: Vec<Warning>,
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
    /// A problem with `path`, named relative to the root.
    fn in_file(&self, path: &Path, problem: impl Into<String>) -> Warning {
        Warning::in_file_under(self.root, path, problem)
    }

    fn relative(&self, path: &Path) -> String {
        let rel = path.strip_prefix(self.root).unwrap_or(path);
        rel.to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/")
    }

    fn add(&mut self, path: &Path) {
        if std::path::MAIN_SEPARATOR == '/' {
            // The walk spells each path as the root's, then the rest: cut by bytes (taking
            // it apart into components costs 4 % of a large walk).
            let (path_bytes, root) = (path.as_os_str().as_encoded_bytes(), self.root.as_os_str().as_encoded_bytes());
            if let Some(rest) = path_bytes.strip_prefix(root) {
                match std::str::from_utf8(rest.strip_prefix(b"/").unwrap_or(rest)) {
                    Ok(rel) => self.files.push(rel),
                    Err(_) => self.warnings.push(self.in_file(path, "skipped, the file name is not valid UTF-8")),
                }
                return;
            }
        }
        match path.strip_prefix(self.root).ok().and_then(Path::to_str) {
            Some(rel) if std::path::MAIN_SEPARATOR == '/' => self.files.push(rel),
            Some(rel) => self.files.push(&rel.replace(std::path::MAIN_SEPARATOR, "/")),
            None => self.warnings.push(self.in_file(path, "skipped, the file name is not valid UTF-8")),
        }
    }

    /// A FIFO, socket or device: never read (a FIFO would block, a device never ends), but
    /// named, so that a `package.json` that is one does not vanish silently.
    fn special(&mut self, path: &Path, file_type: std::fs::FileType) {
        let kind = crate::fsutil::describe_kind(file_type);
        self.warnings.push(self.in_file(path, format!("skipped, it is not a regular file but {kind}")));
    }

    /// Links are not followed (they may leave the checkout or loop): a link to a file in the
    /// checkout is listed like the file; one that resolves outside it is not read (a warning
    /// names it: what it points to is not the repository's); a link back to one of its own
    /// ancestors is reported as a loop; other links to directories are left out.
    fn symlink(&mut self, path: &Path) {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_file() => match std::fs::canonicalize(path) {
                Ok(target) if !target.starts_with(self.resolved_root) => self
                    .warnings
                    .push(self.in_file(path, format!("skipped, {}", crate::fsutil::Refusal::Outside(target)))),
                _ => self.add(path),
            },
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
                    self.warnings.push(self.in_file(
                        path,
                        format!("symlink loop (points back to its own ancestor {ancestor}), not followed"),
                    ));
                }
            }
            Ok(meta) => self.special(path, meta.file_type()),
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                self.warnings.push(self.in_file(path, "symlink loop, not followed"));
            }
            Err(_) => {} // a dangling link names nothing to detect
        }
    }

    /// `path: problem`, with the path relative to the root.
    fn describe(&self, err: &ignore::Error) -> Warning {
        match err {
            ignore::Error::WithPath { path, err } => self.in_file(path, problem(err)),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => self.describe(err),
            ignore::Error::Loop { ancestor, child } => {
                self.in_file(child, format!("symlink loop back to {}, not followed", self.relative(ancestor)))
            }
            ignore::Error::Partial(errs) => {
                Warning::general(errs.iter().map(|e| self.describe(e).to_string()).collect::<Vec<_>>().join("; "))
            }
            other => Warning::general(format!("skipped: {other}")),
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
        self.collected.files.lock().unwrap_or_else(|e| e.into_inner()).push(std::mem::take(&mut self.files));
        self.collected.warnings.lock().unwrap_or_else(|e| e.into_inner()).append(&mut self.warnings);
    }
}

/// Folder names whose contents are not the project's own, in any letter case: samples,
/// fixtures, templates, snapshots, documentation and doc sites, demos and snippets, and
/// vendored third-party code. Real repos are full of them, and none holds a project to
/// install, services to start or secrets to set.
const NOT_OWN_DIRS: &[&str] = &[
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
    "templates",
    "template",
    "archetype-resources",
    "snapshots",
    "__snapshots__",
    "mocks",
    "__mocks__",
    "docs",
    "doc",
    "documentation",
    "website",
    "demo",
    "demos",
    "snippets",
    "third_party",
    "third-party",
    "thirdparty",
    "3rdparty",
    "external",
    "extern",
];

/// How many of a file's `count` entries (`what`: services, jobs) detection reads: at most
/// `max`, the first ones, with a warning naming the file when there are more. A file of
/// generated entries must bound neither memory nor time nor the proposal.
pub fn first_entries(repo: &Repo, rel: &RelPath, what: &str, count: usize, max: usize) -> usize {
    if count > max {
        repo.warn(Warning::in_file(
            rel,
            format!("{count} {what}, more than detection reads from one file: the first {max} read"),
        ));
    }
    count.min(max)
}

/// The mark `hanzo-env export` puts at the top of every file it writes.
pub const GENERATED_BY: &str = "Generated by `hanzo-env export";

/// The lines around the setup section `hanzo-env export --to agents-md` keeps in `AGENTS.md`:
/// what is between them was generated, the rest of the file is the owners'.
pub const AGENTS_MD_START: &str = "<!-- hanzo-env:setup:start -->";
pub const AGENTS_MD_END: &str = "<!-- hanzo-env:setup:end -->";

/// Whether `text` is a file `hanzo-env export` wrote: an echo of an earlier detection, not
/// evidence of what the owners run.
pub fn is_generated(text: &str) -> bool {
    text.lines().take(3).any(|line| line.contains(GENERATED_BY))
}

/// Whether `rel` is the project's own file: no folder of its path (the file name aside) is
/// one of [`NOT_OWN_DIRS`], in any letter case. The one rule every ecosystem and signal uses.
pub fn is_own_path(rel: &RelPath) -> bool {
    is_own_dir(rel.parent())
}

/// Whether the files of folder `dir` are the project's own (see [`is_own_path`]).
pub fn is_own_dir(dir: &str) -> bool {
    !dir.split('/').any(|part| NOT_OWN_DIRS.iter().any(|d| part.eq_ignore_ascii_case(d)))
}

/// How deep a project that is not a workspace member may sit: `web/`, `apps/web/`,
/// `services/api/v2/` count; deeper manifests are asset pipelines and vendored tools inside
/// other code (`src/Framework/resources/renderer/package.json`), not part of the environment.
pub const MAX_PROJECT_DEPTH: usize = 3;

/// True when the project directory `dir` is deeper than [`MAX_PROJECT_DEPTH`].
pub fn too_deep_for_a_project(dir: &str) -> bool {
    !dir.is_empty() && dir.split('/').count() > MAX_PROJECT_DEPTH
}

/// True when the manifest `rel` may belong to a project: one of the project's own files
/// ([`is_own_path`]), not under a hidden folder (`.github/requirements.txt` serves CI
/// tooling, `.devcontainer/…` the container) or a benchmarks folder, and not in a JVM source
/// set's tests or resources (`src/it/simple/pom.xml` is a Maven plugin's test project, `src/main/resources`
/// holds files the build copies).
pub fn is_project_path(rel: &RelPath) -> bool {
    is_project_dir(rel.parent())
}

/// Whether a manifest in folder `dir` may belong to a project (see [`is_project_path`]).
pub fn is_project_dir(dir: &str) -> bool {
    let dirs: Vec<&str> = dir.split('/').collect();
    is_own_dir(dir)
        && !dirs.iter().any(|part| part.starts_with('.'))
        && !dirs.windows(2).any(|w| w[0] == "src" && (w[1] == "test" || w[1] == "it"))
        && !dirs.windows(3).any(|w| w[0] == "src" && w[2] == "resources")
        && !dirs.iter().any(|part| BENCHMARK_DIRS.iter().any(|b| part.eq_ignore_ascii_case(b)))
        && !dirs.iter().any(|part| holds_test_projects(part))
}

/// A folder of projects the tests run the tool on (mutmut's `e2e_projects/`, `test-apps/`,
/// `testing_repos/`): each has its own manifest and lockfile, which only the tests read —
/// one may even need another interpreter.
fn holds_test_projects(part: &str) -> bool {
    let lower = part.to_ascii_lowercase();
    let words: Vec<&str> = lower.split(['-', '_']).collect();
    words.len() == 2
        && matches!(words[0], "test" | "tests" | "testing" | "e2e")
        && matches!(words[1], "projects" | "apps" | "repos" | "packages" | "cases")
}

/// Folders of benchmarks: a harness beside the project with its own manifest (node-redis's
/// `benchmark/package.json` compares it with other clients, protobuf.js's `bench/` pins a
/// code generator only its benchmark job installs), which neither the tests nor an agent's
/// work need installed.
const BENCHMARK_DIRS: &[&str] = &["bench", "benches", "benchmark", "benchmarks"];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rel_path::rel;

    #[test]
    fn parsed_once_with_jsonc_comments_and_trailing_commas() {
        let dir = tempfile::tempdir().unwrap();
        let text = "{\n  // a comment\n  \"a\": \"x // not a comment\", /* block */ \"b\": [1, 2,],\n}";
        std::fs::write(dir.path().join("devcontainer.json"), text).unwrap();
        std::fs::write(dir.path().join("package.json"), "{ broken").unwrap();
        let repo = Repo::walk(dir.path(), &WalkOptions::default()).unwrap();
        let value = repo.read_jsonc(rel!("devcontainer.json")).unwrap();
        assert_eq!(value["a"], "x // not a comment");
        assert_eq!(value["b"], serde_json::json!([1, 2]));
        assert!(Arc::ptr_eq(&value, &repo.read_jsonc(rel!("devcontainer.json")).unwrap()), "parsed once");
        assert!(repo.read_json(rel!("package.json")).is_none() && repo.read_json(rel!("package.json")).is_none());
        let warnings = repo.warnings();
        assert_eq!(warnings.len(), 1, "one warning for a file asked for twice: {warnings:?}");
        assert!(warnings[0].to_string().starts_with("package.json: invalid JSON"), "{warnings:?}");
        repo.forget_kept();
        let again = repo.read_jsonc(rel!("devcontainer.json")).unwrap();
        assert!(!Arc::ptr_eq(&value, &again) && again == value, "parsed again, with the same answer");
        assert!(repo.read_json(rel!("package.json")).is_none());
        assert_eq!(repo.warnings(), warnings, "the same warning, once");
    }

    #[test]
    fn past_the_budget_a_file_is_parsed_for_each_asker_with_the_same_answer() {
        let dir = tempfile::tempdir().unwrap();
        let large = format!("{{\"a\": \"{}\"}}", "x".repeat(MAX_KEPT_BYTES as usize));
        std::fs::write(dir.path().join("large.json"), &large).unwrap();
        std::fs::write(dir.path().join("small.json"), "{\"b\": 1}").unwrap();
        let repo = Repo::walk(dir.path(), &WalkOptions::default()).unwrap();
        let (first, again) = (repo.read_json(rel!("large.json")).unwrap(), repo.read_json(rel!("large.json")).unwrap());
        assert!(!Arc::ptr_eq(&first, &again) && first == again, "not kept, the same answer");
        let small = repo.read_json(rel!("small.json")).unwrap();
        assert!(Arc::ptr_eq(&small, &repo.read_json(rel!("small.json")).unwrap()), "kept");
    }

    #[test]
    fn the_default_walk_skips_shared_and_every_ecosystems_folders() {
        let dir = tempfile::tempdir().unwrap();
        for rel in ["src/main.rs", ".git/config", "web/node_modules/x/package.json", "py/.tox/py312/pyvenv.cfg"] {
            std::fs::create_dir_all(dir.path().join(rel).parent().unwrap()).unwrap();
            std::fs::write(dir.path().join(rel), "").unwrap();
        }
        let repo = Repo::walk(dir.path(), &WalkOptions::default()).unwrap();
        assert_eq!(repo.files().map(|f| f.path().to_string()).collect::<Vec<_>>(), ["src/main.rs"]);
    }

    #[test]
    fn build_output_is_skipped_only_beside_its_project_file() {
        // .NET's `bin/` beside a `.csproj` is its build; a Rust workspace's `bin/` holds crates.
        let dir = tempfile::tempdir().unwrap();
        let files = [
            "Api/Api.csproj",
            "Api/bin/Debug/Api.dll",
            "Api/obj/project.assets.json",
            "bin/core/src/main.rs",
            "obj/x.rs",
        ];
        for rel in files {
            std::fs::create_dir_all(dir.path().join(rel).parent().unwrap()).unwrap();
            std::fs::write(dir.path().join(rel), "").unwrap();
        }
        let repo = Repo::walk(dir.path(), &WalkOptions::default()).unwrap();
        let walked: Vec<String> = repo.files().map(|f| f.path().to_string()).collect();
        assert_eq!(walked, ["Api/Api.csproj", "bin/core/src/main.rs", "obj/x.rs"]);
    }

    #[test]
    fn paths_in_many_chunks_sort_and_answer_lookups() {
        // 8,000 paths of ~40 bytes: several 64 KiB chunks, pushed out of order, one twice.
        let mut files: Vec<String> =
            (0..8000).rev().map(|i| format!("pkg{:04}/src/module_{i:05}/file.rs", i % 97)).collect();
        files.push("pkg0000/src/module_00000/file.rs".into());
        files.push("package.json".into());
        files.push("web/package.json".into());
        let repo = Repo::from_files(Path::new("/x"), files, vec![], 1 << 20);
        assert_eq!(repo.file_count(), 8002);
        let all: Vec<&RelPath> = repo.files().map(|f| f.path()).collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]), "sorted and without duplicates");
        assert!(repo.exists(rel!("pkg0012/src/module_00012/file.rs")) && repo.exists(rel!("web/package.json")));
        assert!(!repo.exists(rel!("pkg0012/src/module_00012")) && !repo.exists(rel!("zzz")));
        assert_eq!(repo.named("package.json"), ["package.json", "web/package.json"]);
        assert_eq!(repo.named("file.rs").len(), 8000);
        assert_eq!(repo.under(rel!("pkg0001")).count(), 8000 / 97 + 1);
        assert!(repo.has_dir(rel!("web")) && !repo.has_dir(rel!("we")));
    }

    #[test]
    fn own_paths_in_any_letter_case() {
        for rel in [
            "tests/fixtures/detect/node/package.json",
            "examples/basic/go.mod",
            "Examples/demo/pom.xml",
            "third_party/lib/mix.exs",
            "demo/compose.yml",
            "website/package.json",
            "Docs/x/.env.example",
        ] {
            assert!(!is_own_path(RelPath::new(rel).unwrap()), "{rel}");
        }
        for rel in ["web/package.json", "package.json", "exampleapp/go.mod", "src/demo.rs", "docs.md"] {
            assert!(is_own_path(RelPath::new(rel).unwrap()), "{rel}");
        }
        assert!(!is_project_path(rel!("module/src/it/simple/pom.xml")));
        assert!(!is_project_path(rel!("src/main/resources/static/package.json")));
        assert!(!is_project_path(rel!(".github/requirements.txt")));
        assert!(
            !is_project_path(rel!("benchmark/package.json"))
                && !is_project_path(rel!("Benchmarks/pyproject.toml"))
                && !is_project_path(rel!("bench/package.json"))
        );
        assert!(
            !is_project_path(rel!("e2e_projects/py3_14/pyproject.toml"))
                && !is_project_path(rel!("test-apps/next/package.json"))
        );
        assert!(is_project_path(rel!("tests/requirements.txt")) && is_project_path(rel!("e2e/package.json")));
        assert!(is_project_path(rel!("web/package.json")) && is_project_path(rel!("package.json")));
    }
}
