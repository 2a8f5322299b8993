//! Offline detection (DESIGN.md §6): one walk of the checkout into a [`Repo`] view, every
//! detector in [`detectors::ALL`] run over it, their [`Findings`] merged into a [`Detection`].

pub mod detectors;
pub mod findings;
pub mod merge;
pub mod render;
pub mod repo;

use std::path::Path;

pub use findings::{Findings, PackageManager, Phase, Secret, Service, Start, Step, TestCommand, Toolchain};
pub use merge::Detection;
pub use repo::{Repo, WalkOptions};

/// Walk `root` and draft its environment. Never fails on the repo's contents: problems with
/// single files become `warnings`; only an unreadable `root` is an error.
pub fn detect(root: &Path, options: &WalkOptions) -> Result<Detection, repo::WalkError> {
    let repo = Repo::walk(root, options)?;
    Ok(detect_in(&repo))
}

/// Run every detector over an already walked [`Repo`] and merge their findings.
pub fn detect_in(repo: &Repo) -> Detection {
    let mut findings = Findings::default();
    for (_name, detector) in detectors::ALL {
        detector(repo, &mut findings);
    }
    merge::merge(repo, findings)
}
