//! Where a finding or a step comes from: a repo-relative file, the place in it (a key, a
//! line, a CI job) and what kind of file it is. A person reads it as `path#key` or
//! `path:line` beside a line of the draft and in `--json`; the program never parses that
//! text back; it asks the fields.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::rel_path::RelPathBuf;

/// What kind of file the evidence is, strongest first: merge orders toolchains and services
/// by it before folding duplicates, so a version manager's pin is named before a manifest's
/// and a CI image's, and a dev container's database before a compose file's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A hand-written agent environment: Copilot's setup steps, Cursor's environment.json,
    /// AGENTS.md — what the owners run for agents, the strongest evidence there is.
    AgentSetup,
    /// `.tool-versions`, `mise.toml`.
    VersionManager,
    /// A Nix flake, shell or devbox.
    DevShell,
    /// A dev container configuration.
    DevContainer,
    /// The ecosystem's own manifests and version files.
    #[default]
    Manifest,
    /// A compose file of the project.
    ComposeFile,
    /// CI configuration.
    Ci,
    /// The lowest version a manifest's constraint accepts (`elixir: "~> 1.18"`, `"php":
    /// "^8.2"`): what a version file or CI pins exactly says more.
    ManifestFloor,
    /// Task files (Makefile, justfile, Taskfile) and package scripts.
    Task,
    /// No file: what detect assumes when nothing says otherwise.
    Default,
}

/// The place in the file.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Anchor {
    /// The file as a whole (`Cargo.lock`).
    #[default]
    File,
    /// A key or dotted key path (`package.json#scripts.test`).
    Key(String),
    /// A 1-based line (`Makefile:12`).
    Line(usize),
    /// A CI job by its key (`jobs.test`; GitLab's `test`), and the place in it (`.steps[2]`,
    /// empty for the job as a whole): `.github/workflows/ci.yml#jobs.test.steps[2]`.
    Job { id: String, within: String },
}

#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Evidence {
    /// Empty (the root) only for [`Kind::Default`].
    pub path: RelPathBuf,
    pub anchor: Anchor,
    pub kind: Kind,
}

impl Evidence {
    /// The whole file, as a manifest.
    pub fn file(path: impl Into<RelPathBuf>) -> Evidence {
        Evidence { path: path.into(), anchor: Anchor::File, kind: Kind::Manifest }
    }

    /// A key of the file, as a manifest.
    pub fn key(path: impl Into<RelPathBuf>, key: impl Into<String>) -> Evidence {
        Evidence { path: path.into(), anchor: Anchor::Key(key.into()), kind: Kind::Manifest }
    }

    /// A line of the file, as a manifest.
    pub fn line(path: impl Into<RelPathBuf>, line: usize) -> Evidence {
        Evidence { path: path.into(), anchor: Anchor::Line(line), kind: Kind::Manifest }
    }

    /// A CI job of a workflow file.
    pub fn job(path: impl Into<RelPathBuf>, job: impl Into<String>) -> Evidence {
        Evidence { path: path.into(), anchor: Anchor::Job { id: job.into(), within: String::new() }, kind: Kind::Ci }
    }

    /// The same place, said to be of another kind.
    pub fn of(self, kind: Kind) -> Evidence {
        Evidence { kind, ..self }
    }

    /// A key under this one: `package.json#scripts` → `package.json#scripts.test`, a job's
    /// `jobs.t` → `jobs.t.steps[0]`; a key of the file when it has none. `key` may carry
    /// its own index (`steps[0]`).
    pub fn sub_key(&self, key: &str) -> Evidence {
        let anchor = match &self.anchor {
            Anchor::Key(parent) => Anchor::Key(format!("{parent}.{key}")),
            Anchor::Job { id, within } => Anchor::Job { id: id.clone(), within: format!("{within}.{key}") },
            Anchor::File | Anchor::Line(_) => Anchor::Key(key.to_string()),
        };
        Evidence { anchor, ..self.clone() }
    }

    /// Whether it points at the key `key` of its file.
    pub fn is_key(&self, key: &str) -> bool {
        matches!(&self.anchor, Anchor::Key(k) if k == key)
    }

    /// The CI job it is in, by its key (`jobs.test`).
    pub fn job_id(&self) -> Option<&str> {
        match &self.anchor {
            Anchor::Job { id, .. } => Some(id),
            _ => None,
        }
    }

    /// The same evidence for the job as a whole (what two lines of one job share).
    pub fn whole_job(&self) -> Evidence {
        match &self.anchor {
            Anchor::Job { id, .. } => {
                Evidence { anchor: Anchor::Job { id: id.clone(), within: String::new() }, ..self.clone() }
            }
            _ => self.clone(),
        }
    }

    pub fn line_number(&self) -> Option<usize> {
        match self.anchor {
            Anchor::Line(line) => Some(line),
            _ => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.path.is_empty()
    }
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.path, self.anchor)
    }
}

/// As it reads after the path: nothing, `#key`, `#jobs.test.steps[2]`, `:12`.
impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Anchor::File => Ok(()),
            Anchor::Key(key) => write!(f, "#{key}"),
            Anchor::Job { id, within } => write!(f, "#{id}{within}"),
            Anchor::Line(line) => write!(f, ":{line}"),
        }
    }
}

/// `--json` keeps the text a person reads (`"source": "package.json#packageManager"`).
impl Serialize for Evidence {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Evidence written the way a person reads it, for tests: `path#key`, `path:line`, a
/// workflow's `path#jobs.x…` as a job; the kind by the conventions of the readers that make it
/// (agent files, CI, task files and package scripts).
#[cfg(test)]
pub fn ev(text: &str) -> Evidence {
    let (path, anchor) = match text.split_once('#') {
        Some((path, key)) if path.starts_with(".github/workflows/") || path.starts_with(".gitlab-ci") => {
            let (id, within) = match key.strip_prefix("jobs.") {
                Some(rest) => rest.split_once('.').map_or((key.to_string(), String::new()), |(job, within)| {
                    (format!("jobs.{job}"), format!(".{within}"))
                }),
                None => key
                    .split_once('.')
                    .map_or((key.to_string(), String::new()), |(job, within)| (job.to_string(), format!(".{within}"))),
            };
            (path, Anchor::Job { id, within })
        }
        Some((path, key)) => (path, Anchor::Key(key.to_string())),
        None => match text.rsplit_once(':') {
            Some((path, line)) if line.parse::<usize>().is_ok() => (path, Anchor::Line(line.parse().unwrap())),
            _ => (text, Anchor::File),
        },
    };
    let name = path.rsplit('/').next().unwrap_or(path);
    let kind = if matches!(path, "AGENTS.md" | ".cursor/environment.json") {
        Kind::AgentSetup
    } else if path.starts_with(".github/") || path.starts_with(".gitlab-ci") || path == ".travis.yml" {
        Kind::Ci
    } else if matches!(name, "Makefile" | "justfile" | "Taskfile.yml")
        || matches!(&anchor, Anchor::Key(k) if k.starts_with("scripts.") || k.starts_with("shell.scripts."))
    {
        Kind::Task
    } else {
        Kind::Manifest
    };
    let path = RelPathBuf::new(path).unwrap_or_else(|e| panic!("test evidence: {e}"));
    Evidence { path, anchor, kind }
}

#[cfg(test)]
impl Evidence {
    /// Its text, for assertions that compare rows of `&str` (leaked: tests only).
    pub fn as_test_str(&self) -> &'static str {
        self.to_string().leak()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rel_path::rel;

    #[test]
    fn reads_as_the_person_sees_it() {
        assert_eq!(Evidence::file(rel!("Cargo.lock")).to_string(), "Cargo.lock");
        assert_eq!(Evidence::key(rel!("package.json"), "scripts.test").to_string(), "package.json#scripts.test");
        assert_eq!(Evidence::line(rel!("Makefile"), 12).to_string(), "Makefile:12");
        assert_eq!(
            Evidence::job(rel!(".github/workflows/ci.yml"), "jobs.test").to_string(),
            ".github/workflows/ci.yml#jobs.test"
        );
        assert_eq!(serde_json::to_string(&Evidence::line(rel!("a b"), 3)).unwrap(), "\"a b:3\"");
    }

    #[test]
    fn a_sub_key_extends_the_key() {
        let scripts = Evidence::key(rel!("package.json"), "scripts");
        assert_eq!(scripts.sub_key("test").to_string(), "package.json#scripts.test");
        assert_eq!(Evidence::file(rel!("tox.ini")).sub_key("testenv").to_string(), "tox.ini#testenv");
        let step = Evidence::job(rel!("ci.yml"), "jobs.t").sub_key("steps[2]");
        assert_eq!((step.to_string(), step.job_id()), ("ci.yml#jobs.t.steps[2]".to_string(), Some("jobs.t")));
        assert_eq!(step.whole_job().to_string(), "ci.yml#jobs.t");
    }

    #[test]
    fn tests_write_evidence_as_it_reads() {
        for text in
            ["Cargo.lock", "package.json#scripts.test", "Makefile:4", ".github/workflows/ci.yml#jobs.t.steps[3]"]
        {
            assert_eq!(ev(text).to_string(), text);
        }
        assert_eq!(ev(".github/workflows/ci.yml#jobs.t.steps[3]").job_id(), Some("jobs.t"));
        assert_eq!(ev(".gitlab-ci.yml#unit.script").job_id(), Some("unit"));
        assert_eq!(ev("package.json#scripts.test").kind, Kind::Task);
    }

    #[test]
    fn kinds_rank_agent_files_first_and_defaults_last() {
        assert!(Kind::AgentSetup < Kind::Manifest && Kind::Manifest < Kind::Ci && Kind::Task < Kind::Default);
    }
}
