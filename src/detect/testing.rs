//! The one unit-test harness for detection: a real [`Repo`] over a temporary directory, and
//! one ecosystem or signal run over it.

use crate::detect::ecosystems::ecosystem::Ecosystem;
use crate::detect::findings::Findings;
use crate::detect::repo::{Repo, WalkOptions};
use crate::detect::signals::Signal;
use crate::detect::sources::Sources;

/// A checkout with `files` (path, text) in a temporary directory, walked.
pub fn repo_with(files: &[(&str, &str)]) -> (tempfile::TempDir, Repo) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        std::fs::write(&full, text).expect("write");
    }
    let repo = Repo::walk(dir.path(), &WalkOptions::default()).expect("walk");
    (dir, repo)
}

/// What one ecosystem or signal found in a checkout.
pub struct Scan {
    pub findings: Findings,
    /// Each step's command as the plan renders it.
    commands: Vec<String>,
    pub warnings: Vec<String>,
    _dir: tempfile::TempDir,
}

impl Scan {
    pub fn steps(&self) -> Vec<&str> {
        self.commands.iter().map(String::as_str).collect()
    }
    pub fn tests(&self) -> Vec<&str> {
        self.findings.tests.iter().map(|t| t.command.as_str()).collect()
    }
    pub fn toolchain(&self, name: &str) -> Option<(Option<&str>, &str)> {
        self.findings.toolchains.iter().find(|t| t.name == name).map(|t| (t.version.as_deref(), t.source.as_test_str()))
    }
    /// (name, version, source) of every toolchain.
    pub fn toolchain_rows(&self) -> Vec<(&str, Option<&str>, &str)> {
        self.findings
            .toolchains
            .iter()
            .map(|t| (t.name.as_str(), t.version.as_deref(), t.source.as_test_str()))
            .collect()
    }
    pub fn managers(&self) -> Vec<(&str, &str)> {
        self.findings.package_managers.iter().map(|p| (p.name.as_str(), p.path.as_str())).collect()
    }
    pub fn toolchain_names(&self) -> Vec<&str> {
        self.findings.toolchains.iter().map(|t| t.name.as_str()).collect()
    }
}

/// Run one ecosystem over a checkout of `files`.
pub fn scan(ecosystem: &dyn Ecosystem, files: &[(&str, &str)]) -> Scan {
    let (dir, repo) = repo_with(files);
    let mut findings = Findings::default();
    ecosystem.detect(&Sources::new(&repo, crate::detect::ecosystems::command_action), &mut findings);
    let commands = findings.steps.iter().map(|s| s.command()).collect();
    Scan { findings, commands, warnings: repo.warnings().iter().map(ToString::to_string).collect(), _dir: dir }
}

/// Run one signal over a checkout of `files`.
pub fn run_signal(signal: Signal, files: &[(&str, &str)]) -> Scan {
    let (dir, repo) = repo_with(files);
    let mut findings = Findings::default();
    signal(&Sources::new(&repo, crate::detect::ecosystems::command_action), &mut findings);
    let commands = findings.steps.iter().map(|s| s.command()).collect();
    Scan { findings, commands, warnings: repo.warnings().iter().map(ToString::to_string).collect(), _dir: dir }
}

/// The whole pipeline over a checkout of `files`.
pub fn detection(files: &[(&str, &str)]) -> crate::detect::Detection {
    let (_dir, repo) = repo_with(files);
    crate::detect::detect_in(&repo)
}
