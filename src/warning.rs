//! A problem detection went on past. Most are about one file of the repository: that file is
//! kept apart from the text (so warnings sort and group by file, and a reader can ask for
//! it), and both read as `path: problem` wherever a person sees them.

use std::fmt;

use serde::{Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Warning {
    /// The repo-relative file (and the place in it) the problem is about, if any.
    file: Option<String>,
    problem: String,
}

impl Warning {
    /// A problem with the repo-relative `file` (`path`, `path#key` or `path:line`).
    pub fn in_file(file: impl fmt::Display, problem: impl Into<String>) -> Warning {
        Warning { file: Some(file.to_string()), problem: problem.into() }
    }

    /// A problem about no one file (two files that disagree, a limit of the whole run).
    pub fn general(problem: impl Into<String>) -> Warning {
        Warning { file: None, problem: problem.into() }
    }

    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    pub fn problem(&self) -> &str {
        &self.problem
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => write!(f, "{file}: {}", self.problem),
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

    #[test]
    fn a_warning_reads_as_its_file_and_problem_and_sorts_as_it_reads() {
        let mut warnings = [
            Warning::in_file("package.json", "invalid JSON"),
            Warning::general("more than 200 files"),
            Warning::in_file("a/mise.toml", "invalid TOML"),
        ];
        warnings.sort();
        let shown: Vec<String> = warnings.iter().map(Warning::to_string).collect();
        assert_eq!(shown, ["a/mise.toml: invalid TOML", "more than 200 files", "package.json: invalid JSON"]);
        assert_eq!(warnings[2].file(), Some("package.json"));
        assert_eq!(warnings[1].file(), None);
        assert_eq!(serde_json::to_string(&warnings[0]).unwrap(), "\"a/mise.toml: invalid TOML\"");
    }
}
