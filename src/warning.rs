//! A problem detection went on past. Most are about one file of the repository: what a
//! warning is about is kept apart from the text, typed (so warnings sort and group by file,
//! and a reader can ask for it), and both read as `path: problem` wherever a person sees them.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

use crate::evidence::{Anchor, Evidence};
use crate::rel_path::{RelPath, RelPathBuf};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Warning {
    /// What the problem is about, if anything: where a person looks to mend it.
    subject: Option<Subject>,
    problem: String,
}

/// What a warning is about, as it reads before the problem.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    /// A file of the checkout and the place in it (`package.json#workspaces`, `Makefile:3`).
    File { path: RelPathBuf, anchor: Anchor },
    /// Files read as one (a compose project's): `compose.yml, compose.override.yml`.
    Files(Vec<RelPathBuf>),
    /// The first of several files with the same problem, and how many more: `a.py and 2 other
    /// files`.
    FirstOf { first: RelPathBuf, others: usize },
    /// A file outside the checkout that the walk read (a linked worktree's git folder), as the
    /// system names it.
    Outside(PathBuf),
}

impl Warning {
    /// A problem with the repo-relative file `path` as a whole.
    pub fn in_file(path: impl Into<RelPathBuf>, problem: impl Into<String>) -> Warning {
        Warning::about(Subject::File { path: path.into(), anchor: Anchor::File }, problem)
    }

    /// A problem at the place `evidence` points at (`path#key`, `path:line`).
    pub fn at(evidence: &Evidence, problem: impl Into<String>) -> Warning {
        Warning::about(Subject::File { path: evidence.path.clone(), anchor: evidence.anchor.clone() }, problem)
    }

    /// A problem with files read as one.
    pub fn in_files<P: Into<RelPathBuf>>(paths: impl IntoIterator<Item = P>, problem: impl Into<String>) -> Warning {
        Warning::about(Subject::Files(paths.into_iter().map(Into::into).collect()), problem)
    }

    /// A problem of `first` and `others` more files.
    pub fn in_first_of(first: impl Into<RelPathBuf>, others: usize, problem: impl Into<String>) -> Warning {
        Warning::about(Subject::FirstOf { first: first.into(), others }, problem)
    }

    /// A problem with the file `path` the walk of `root` came upon: named relative to the
    /// checkout, or as the system names it when it lies outside.
    pub fn in_file_under(root: &Path, path: &Path, problem: impl Into<String>) -> Warning {
        Warning::at_place_under(root, path, Anchor::File, problem)
    }

    /// A problem at `anchor` (a line) of the file `path` the walk of `root` came upon; a file
    /// outside the checkout is named as the system names it, without the place.
    pub fn at_place_under(root: &Path, path: &Path, anchor: Anchor, problem: impl Into<String>) -> Warning {
        let subject = match path.strip_prefix(root) {
            Ok(rel) => {
                let rel = rel.to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/");
                // Spelled as the walk lists it (a backslash in a Unix file name stays).
                Subject::File { path: RelPath::trusted(&rel).to_owned(), anchor }
            }
            Err(_) => Subject::Outside(path.to_path_buf()),
        };
        Warning::about(subject, problem)
    }

    /// A problem about no one file (two files that disagree, a limit of the whole run).
    pub fn general(problem: impl Into<String>) -> Warning {
        Warning { subject: None, problem: problem.into() }
    }

    fn about(subject: Subject, problem: impl Into<String>) -> Warning {
        Warning { subject: Some(subject), problem: problem.into() }
    }

    pub fn subject(&self) -> Option<&Subject> {
        self.subject.as_ref()
    }

    pub fn problem(&self) -> &str {
        &self.problem
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::File { path, anchor } => write!(f, "{path}{anchor}"),
            Subject::Files(paths) => {
                for (i, path) in paths.iter().enumerate() {
                    write!(f, "{}{path}", if i == 0 { "" } else { ", " })?;
                }
                Ok(())
            }
            Subject::FirstOf { first, others } => write!(f, "{first} and {others} other files"),
            Subject::Outside(path) => f.write_str(&path.to_string_lossy()),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.subject {
            Some(subject) => write!(f, "{subject}: {}", self.problem),
            None => f.write_str(&self.problem),
        }
    }
}

/// In `--json` a warning is the line a person reads.
impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Sorted as they read, so a file's warnings sit together and the order is the text's.
impl Ord for Warning {
    fn cmp(&self, other: &Warning) -> std::cmp::Ordering {
        self.to_string().cmp(&other.to_string())
    }
}

impl PartialOrd for Warning {
    fn partial_cmp(&self, other: &Warning) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rel_path::rel;

    #[test]
    fn a_warning_reads_as_its_file_and_problem_and_sorts_as_it_reads() {
        let mut warnings = [
            Warning::in_file(rel!("package.json"), "invalid JSON"),
            Warning::general("more than 200 files"),
            Warning::in_file(rel!("a/mise.toml"), "invalid TOML"),
        ];
        warnings.sort();
        let shown: Vec<String> = warnings.iter().map(Warning::to_string).collect();
        assert_eq!(shown, ["a/mise.toml: invalid TOML", "more than 200 files", "package.json: invalid JSON"]);
        let file = Subject::File { path: rel!("package.json").to_owned(), anchor: Anchor::File };
        assert_eq!(warnings[2].subject(), Some(&file));
        assert_eq!(warnings[1].subject(), None);
        assert_eq!(serde_json::to_string(&warnings[0]).unwrap(), "\"a/mise.toml: invalid TOML\"");
    }

    #[test]
    fn every_subject_reads_as_it_did_as_text() {
        let shown = |w: Warning| w.to_string();
        assert_eq!(
            shown(Warning::at(&Evidence::key(rel!("package.json"), "workspaces"), "x")),
            "package.json#workspaces: x"
        );
        assert_eq!(shown(Warning::at(&Evidence::line(rel!("Makefile"), 3), "x")), "Makefile:3: x");
        assert_eq!(shown(Warning::in_files([rel!("a.yml"), rel!("b.yml")], "x")), "a.yml, b.yml: x");
        assert_eq!(shown(Warning::in_first_of(rel!("a.py"), 2, "x")), "a.py and 2 other files: x");
        let root = Path::new("/repo");
        assert_eq!(shown(Warning::in_file_under(root, Path::new("/repo/web/.gitignore"), "x")), "web/.gitignore: x");
        assert_eq!(shown(Warning::in_file_under(root, root, "x")), ": x");
        assert_eq!(shown(Warning::in_file_under(root, Path::new("/git/info/exclude"), "x")), "/git/info/exclude: x");
    }
}
