//! Repo-relative paths: `/`-separated, "" for the checkout's root, never leaving it. The walk
//! lists files this way on every platform, and evidence, findings and the `Repo` API speak
//! them; the joins and splits live here, once, instead of as `format!("{dir}/{name}")`.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use serde::{Serialize, Serializer};

/// Why a text is not a repo-relative path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RelPathError {
    #[error("{path:?} is absolute, not relative to the checkout")]
    Absolute { path: String },
    #[error("{path:?} climbs out of its folder with `..`")]
    ParentComponent { path: String },
    #[error("{path:?} has a `.` component")]
    CurrentComponent { path: String },
    #[error("{path:?} has an empty component (`//` or a trailing `/`)")]
    EmptyComponent { path: String },
    #[error("{path:?} holds a backslash; repo-relative paths are `/`-separated")]
    Backslash { path: String },
}

/// A borrowed repo-relative path (like `str` to [`RelPathBuf`]'s `String`).
///
/// It derefs to its text: callers test suffixes and prefixes (`.yml`, `.github/`) as text.
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct RelPath(str);

/// An owned repo-relative path.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RelPathBuf(String);

/// A repo-relative path written in the source: checked when the program is compiled.
macro_rules! rel {
    ($path:literal) => {
        const { $crate::rel_path::RelPath::literal($path) }
    };
}
pub(crate) use rel;

/// The first rule `path` breaks, if any (const: literals are checked at compile time).
const fn problem(path: &str) -> Option<Problem> {
    let bytes = path.as_bytes();
    if bytes.is_empty() {
        return None;
    }
    if bytes[0] == b'/' {
        return Some(Problem::Absolute);
    }
    let mut start = 0;
    let mut i = 0;
    while i <= bytes.len() {
        if i == bytes.len() || bytes[i] == b'/' {
            match i - start {
                0 => return Some(Problem::EmptyComponent),
                1 if bytes[start] == b'.' => return Some(Problem::CurrentComponent),
                2 if bytes[start] == b'.' && bytes[start + 1] == b'.' => return Some(Problem::ParentComponent),
                _ => {}
            }
            start = i + 1;
        } else if bytes[i] == b'\\' {
            return Some(Problem::Backslash);
        }
        i += 1;
    }
    None
}

#[derive(Clone, Copy)]
enum Problem {
    Absolute,
    ParentComponent,
    CurrentComponent,
    EmptyComponent,
    Backslash,
}

impl Problem {
    fn error(self, path: &str) -> RelPathError {
        let path = path.to_string();
        match self {
            Problem::Absolute => RelPathError::Absolute { path },
            Problem::ParentComponent => RelPathError::ParentComponent { path },
            Problem::CurrentComponent => RelPathError::CurrentComponent { path },
            Problem::EmptyComponent => RelPathError::EmptyComponent { path },
            Problem::Backslash => RelPathError::Backslash { path },
        }
    }
}

impl RelPath {
    /// `path` checked: relative, `/`-separated, without `.`, `..` or empty components.
    pub fn new(path: &str) -> Result<&RelPath, RelPathError> {
        match problem(path) {
            None => Ok(RelPath::trusted(path)),
            Some(problem) => Err(problem.error(path)),
        }
    }

    /// The root of the checkout, "".
    pub const fn root() -> &'static RelPath {
        RelPath::trusted("")
    }

    /// A path written in the source; use [`rel!`](crate::rel), which checks it at compile time.
    #[doc(hidden)]
    pub const fn literal(path: &'static str) -> &'static RelPath {
        assert!(problem(path).is_none(), "not a repo-relative path");
        RelPath::trusted(path)
    }

    /// A path the walk listed (relative, `/`-separated, no `.`, `..` or empty components by
    /// construction). Kept as it is even with a backslash in a file name, which Unix allows:
    /// the file exists.
    pub(crate) const fn trusted(path: &str) -> &RelPath {
        // SAFETY: `RelPath` is `#[repr(transparent)]` over `str`, so the layouts agree.
        unsafe { &*(path as *const str as *const RelPath) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// `self/tail`, or `tail` at the root.
    pub fn join(&self, tail: impl AsRef<RelPath>) -> RelPathBuf {
        let tail = tail.as_ref();
        if self.is_root() {
            tail.to_owned()
        } else if tail.is_root() {
            self.to_owned()
        } else {
            RelPathBuf(format!("{}/{}", &self.0, &tail.0))
        }
    }

    /// The folder holding it: "" for a file at the root, and for the root itself.
    pub fn parent(&self) -> &RelPath {
        RelPath::trusted(self.0.rsplit_once('/').map_or("", |(dir, _)| dir))
    }

    /// The last component ("" for the root).
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// Whether it is `dir` or inside it (the root holds everything).
    pub fn is_within(&self, dir: impl AsRef<RelPath>) -> bool {
        let dir = &dir.as_ref().0;
        dir.is_empty() || &self.0 == dir || self.0.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
    }

    /// The rest of the path below `dir` ("" for `dir` itself), when it is within it.
    pub fn relative_to(&self, dir: impl AsRef<RelPath>) -> Option<&RelPath> {
        let dir = &dir.as_ref().0;
        if dir.is_empty() {
            return Some(self);
        }
        let rest = self.0.strip_prefix(dir)?;
        if rest.is_empty() { Some(RelPath::root()) } else { rest.strip_prefix('/').map(RelPath::trusted) }
    }

    /// `text`, a path written relative to this folder (in a command, a compose file), as a
    /// repo-relative path: `.` and empty components dropped, `..` taking one folder back.
    /// `None` when it is absolute or climbs out of the checkout.
    pub fn join_normalized(&self, text: &str) -> Option<RelPathBuf> {
        if text.starts_with('/') {
            return None;
        }
        let mut parts: Vec<&str> = self.components().collect();
        for part in text.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                part => parts.push(part),
            }
        }
        RelPathBuf::new(parts.join("/")).ok()
    }

    /// How many folders deep it is: 0 for `Cargo.toml`, 1 for `web/package.json`.
    pub fn depth(&self) -> usize {
        self.0.matches('/').count()
    }

    /// Its folder and file names, outermost first (none for the root).
    pub fn components(&self) -> impl DoubleEndedIterator<Item = &str> + '_ {
        self.0.split('/').filter(|part| !part.is_empty())
    }
}

impl RelPathBuf {
    /// `path` checked like [`RelPath::new`].
    pub fn new(path: impl Into<String>) -> Result<RelPathBuf, RelPathError> {
        let path = path.into();
        match problem(&path) {
            None => Ok(RelPathBuf(path)),
            Some(problem) => Err(problem.error(&path)),
        }
    }

    /// The root of the checkout, "".
    pub fn root() -> RelPathBuf {
        RelPathBuf::default()
    }

    pub fn as_rel_path(&self) -> &RelPath {
        RelPath::trusted(&self.0)
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for RelPath {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl Deref for RelPathBuf {
    type Target = RelPath;

    fn deref(&self) -> &RelPath {
        self.as_rel_path()
    }
}

impl AsRef<RelPath> for RelPath {
    fn as_ref(&self) -> &RelPath {
        self
    }
}

impl AsRef<RelPath> for RelPathBuf {
    fn as_ref(&self) -> &RelPath {
        self
    }
}

impl AsRef<str> for RelPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for RelPathBuf {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl AsRef<std::path::Path> for RelPath {
    fn as_ref(&self) -> &std::path::Path {
        std::path::Path::new(&self.0)
    }
}

impl AsRef<std::path::Path> for RelPathBuf {
    fn as_ref(&self) -> &std::path::Path {
        std::path::Path::new(&self.0)
    }
}

impl Borrow<RelPath> for RelPathBuf {
    fn borrow(&self) -> &RelPath {
        self
    }
}

impl ToOwned for RelPath {
    type Owned = RelPathBuf;

    fn to_owned(&self) -> RelPathBuf {
        RelPathBuf(self.0.to_string())
    }
}

impl From<&RelPath> for RelPathBuf {
    fn from(path: &RelPath) -> RelPathBuf {
        path.to_owned()
    }
}

impl From<&RelPathBuf> for RelPathBuf {
    fn from(path: &RelPathBuf) -> RelPathBuf {
        path.clone()
    }
}

impl From<RelPathBuf> for String {
    fn from(path: RelPathBuf) -> String {
        path.0
    }
}

impl TryFrom<String> for RelPathBuf {
    type Error = RelPathError;

    fn try_from(path: String) -> Result<RelPathBuf, RelPathError> {
        RelPathBuf::new(path)
    }
}

impl TryFrom<&str> for RelPathBuf {
    type Error = RelPathError;

    fn try_from(path: &str) -> Result<RelPathBuf, RelPathError> {
        RelPathBuf::new(path)
    }
}

impl<'a> TryFrom<&'a str> for &'a RelPath {
    type Error = RelPathError;

    fn try_from(path: &'a str) -> Result<&'a RelPath, RelPathError> {
        RelPath::new(path)
    }
}

impl PartialEq<str> for RelPath {
    fn eq(&self, other: &str) -> bool {
        &self.0 == other
    }
}

impl PartialEq<&str> for RelPath {
    fn eq(&self, other: &&str) -> bool {
        &self.0 == *other
    }
}

impl PartialEq<str> for RelPathBuf {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for RelPathBuf {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<RelPath> for RelPathBuf {
    fn eq(&self, other: &RelPath) -> bool {
        self.0 == other.0
    }
}

impl PartialEq<&RelPath> for RelPathBuf {
    fn eq(&self, other: &&RelPath) -> bool {
        self.0 == other.0
    }
}

impl PartialEq<RelPathBuf> for RelPath {
    fn eq(&self, other: &RelPathBuf) -> bool {
        self.0 == other.0
    }
}

impl PartialEq<RelPathBuf> for &RelPath {
    fn eq(&self, other: &RelPathBuf) -> bool {
        self.0 == other.0
    }
}

impl PartialEq<RelPath> for str {
    fn eq(&self, other: &RelPath) -> bool {
        self == &other.0
    }
}

impl PartialEq<RelPath> for &str {
    fn eq(&self, other: &RelPath) -> bool {
        *self == &other.0
    }
}

impl PartialEq<RelPath> for String {
    fn eq(&self, other: &RelPath) -> bool {
        self.as_str() == &other.0
    }
}

impl PartialEq<&RelPath> for String {
    fn eq(&self, other: &&RelPath) -> bool {
        self.as_str() == &other.0
    }
}

impl PartialEq<RelPathBuf> for str {
    fn eq(&self, other: &RelPathBuf) -> bool {
        self == other.0
    }
}

impl PartialEq<RelPathBuf> for &str {
    fn eq(&self, other: &RelPathBuf) -> bool {
        *self == other.0
    }
}

impl PartialEq<RelPathBuf> for String {
    fn eq(&self, other: &RelPathBuf) -> bool {
        *self == other.0
    }
}

impl PartialEq<String> for RelPath {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other.as_str()
    }
}

impl PartialEq<String> for &RelPath {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other.as_str()
    }
}

impl PartialEq<String> for RelPathBuf {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for RelPathBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Like the text's: tests' and snapshots' debug output reads the same as a `String`'s.
impl fmt::Debug for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Debug for RelPathBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// `--json` writes the path as plain text.
impl Serialize for RelPath {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl Serialize for RelPathBuf {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(path: &str) -> &RelPath {
        RelPath::new(path).unwrap()
    }

    #[test]
    fn joins_at_the_root_and_below() {
        assert_eq!(RelPath::root().join(p("Cargo.toml")), "Cargo.toml");
        assert_eq!(p("web").join(p("package.json")), "web/package.json");
        assert_eq!(p("apps/web").join(p("src/main.ts")), "apps/web/src/main.ts");
        assert_eq!(p("web").join(RelPath::root()), "web");
        assert_eq!(p("web").join(rel!("package.json")).as_str(), "web/package.json");
    }

    #[test]
    fn the_parent_of_a_top_level_file_is_the_root() {
        assert_eq!(p("web/src/main.ts").parent(), "web/src");
        assert_eq!(p("Cargo.toml").parent(), "");
        assert!(p("Cargo.toml").parent().is_root());
        assert!(RelPath::root().parent().is_root());
    }

    #[test]
    fn the_file_name_is_the_last_component() {
        assert_eq!(p("web/package.json").file_name(), "package.json");
        assert_eq!(p("Makefile").file_name(), "Makefile");
        assert_eq!(RelPath::root().file_name(), "");
    }

    #[test]
    fn within_means_by_whole_components() {
        assert!(p("web/src").is_within(p("web")) && p("web").is_within(p("web")));
        assert!(!p("website").is_within(p("web")) && !p("web").is_within(p("web/src")));
        assert!(p("anything/at/all").is_within(RelPath::root()));
        assert!(!RelPath::root().is_within(p("web")));
        assert_eq!(p("web/src/a.ts").relative_to(p("web")), Some(p("src/a.ts")));
        assert_eq!(p("web").relative_to(p("web")), Some(RelPath::root()));
        assert_eq!(p("website/a").relative_to(p("web")), None);
        assert_eq!(p("a/b").relative_to(RelPath::root()), Some(p("a/b")));
    }

    #[test]
    fn text_joins_normalized_within_the_checkout() {
        assert_eq!(p("tests").join_normalized("./docker/compose.yml").unwrap(), "tests/docker/compose.yml");
        assert_eq!(p("a/b").join_normalized("../c").unwrap(), "a/c");
        assert_eq!(p("a").join_normalized("..").unwrap(), "");
        assert_eq!(p("a").join_normalized("b//c/").unwrap(), "a/b/c");
        assert_eq!(RelPath::root().join_normalized("../x"), None);
        assert_eq!(p("a").join_normalized("/etc/x"), None);
        assert_eq!(p("a").join_normalized("b\\c"), None);
    }

    #[test]
    fn depth_counts_folders() {
        assert_eq!(RelPath::root().depth(), 0);
        assert_eq!(p("Cargo.toml").depth(), 0);
        assert_eq!(p("web/package.json").depth(), 1);
        assert_eq!(p("apps/web/package.json").depth(), 2);
    }

    #[test]
    fn components_outermost_first_and_none_at_the_root() {
        assert_eq!(p("apps/web/package.json").components().collect::<Vec<_>>(), ["apps", "web", "package.json"]);
        assert_eq!(p("apps/web").components().next_back(), Some("web"));
        assert_eq!(RelPath::root().components().count(), 0);
    }

    #[test]
    fn reads_writes_and_compares_as_its_text() {
        let path = RelPathBuf::new("web/package.json").unwrap();
        assert_eq!(path.as_str(), "web/package.json");
        assert_eq!(path.to_string(), "web/package.json");
        assert_eq!(format!("{path:?}"), "\"web/package.json\"");
        assert_eq!(serde_json::to_string(&path).unwrap(), "\"web/package.json\"");
        assert_eq!(serde_json::to_string(p("a b")).unwrap(), "\"a b\"");
        assert!(path.ends_with(".json") && path == "web/package.json");
        let owned: RelPathBuf = p("x/y").to_owned();
        assert_eq!(owned, p("x/y"));
        assert_eq!(RelPathBuf::root(), "");
        assert!(RelPathBuf::new("b").unwrap() > RelPathBuf::new("a/z").unwrap(), "ordered as text");
        let set: std::collections::HashSet<RelPathBuf> = [path.clone()].into();
        assert!(set.contains(p("web/package.json")), "looked up by the borrowed path");
    }

    #[test]
    fn rejects_what_the_walk_never_lists() {
        type Expected = fn(String) -> RelPathError;
        let cases: &[(&str, Expected)] = &[
            ("/etc/passwd", |path| RelPathError::Absolute { path }),
            ("../secrets", |path| RelPathError::ParentComponent { path }),
            ("web/../../x", |path| RelPathError::ParentComponent { path }),
            ("web/..", |path| RelPathError::ParentComponent { path }),
            ("./web", |path| RelPathError::CurrentComponent { path }),
            ("web/./x", |path| RelPathError::CurrentComponent { path }),
            ("web//x", |path| RelPathError::EmptyComponent { path }),
            ("web/", |path| RelPathError::EmptyComponent { path }),
            ("web\\x", |path| RelPathError::Backslash { path }),
            ("C:\\x", |path| RelPathError::Backslash { path }),
        ];
        for (text, expected) in cases {
            assert_eq!(RelPath::new(text), Err(expected(text.to_string())), "{text}");
            assert_eq!(RelPathBuf::new(*text), Err(expected(text.to_string())), "{text}");
        }
        for text in ["", "a", "a/b", ".github/workflows/ci.yml", "..a/b..", "a/.b", "...", "a b/c"] {
            assert_eq!(RelPath::new(text).map(RelPath::as_str), Ok(text), "{text}");
        }
        assert!(RelPath::new("../x").unwrap_err().to_string().contains("`..`"));
    }
}
