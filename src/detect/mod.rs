//! Offline detection (DESIGN.md §6): one walk of the checkout into a [`Repo`] view, every
//! detector in [`detectors::ALL`] run over it, their [`Findings`] merged into a [`Detection`].

pub mod detectors;
pub mod findings;
pub mod merge;
pub mod render;
pub mod repo;
pub mod yaml;

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
///
/// Detectors run in parallel (they are pure over the shared, read-only `Repo`), each into its
/// own [`Findings`]; the results are then concatenated in the order of [`detectors::ALL`], so
/// the output is the same as a sequential run.
pub fn detect_in(repo: &Repo) -> Detection {
    let slots: Vec<std::sync::Mutex<Option<(Findings, std::time::Duration)>>> =
        detectors::ALL.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(detectors::ALL.len());
    // Longest first, so the slowest detector is not the last one started.
    let mut order: Vec<usize> = (0..detectors::ALL.len()).collect();
    order.sort_by_key(|&i| !detectors::SCANS_MANY_FILES.contains(&detectors::ALL[i].0));
    let work = || {
        loop {
            let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&i) = order.get(n) else { break };
            let (_name, detector) = detectors::ALL[i];
            let mut found = Findings::default();
            let started = std::time::Instant::now();
            detector(repo, &mut found);
            *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some((found, started.elapsed()));
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(work);
        }
        work();
    });
    let mut findings = Findings::default();
    let mut timings = Vec::with_capacity(slots.len());
    for ((name, _), slot) in detectors::ALL.iter().zip(slots) {
        if let Some((found, took)) = slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            findings.append(found);
            timings.push((*name, took));
        }
    }
    let mut detection = merge::merge(repo, findings);
    detection.timings = timings;
    detection
}
