//! Merge the findings of every detector into one deterministic [`Detection`].

use serde::Serialize;

use crate::detect::{Findings, PackageManager, Repo, Service, TestCommand, Toolchain};

/// The result of `detect`, as `--json` prints it (keys and meanings are a contract).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Detection {
    pub repo: String,
    pub install: String,
    pub start: String,
    pub secrets: Vec<String>,
    pub note: String,
    pub toolchains: Vec<Toolchain>,
    pub package_managers: Vec<PackageManager>,
    pub services: Vec<Service>,
    pub tests: Vec<TestCommand>,
    pub warnings: Vec<String>,
}

/// Not written yet: the detect-core work replaces this.
pub fn merge(repo: &Repo, findings: Findings) -> Detection {
    let mut warnings = repo.warnings();
    warnings.extend(findings.warnings);
    Detection {
        repo: crate::checkout::default_repo_name(repo.root()),
        toolchains: findings.toolchains,
        package_managers: findings.package_managers,
        services: findings.services,
        tests: findings.tests,
        warnings,
        ..Detection::default()
    }
}
