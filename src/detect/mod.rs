//! Offline detection (DESIGN.md §6, §10): one walk of the checkout into a [`Repo`] view,
//! [`Sources`] parsed from it once, every ecosystem and every signal run over them, and
//! their [`Findings`] merged into a [`Detection`]:
//!
//! ```text
//! walk → Sources → ecosystems::ALL + signals → merge (the only place that ranks and folds)
//! ```

pub mod ecosystems;
pub mod findings;
pub mod merge;
pub mod render;
pub mod repo;
pub mod signals;
pub mod sources;
#[cfg(test)]
pub mod testing;
pub mod yaml;

use std::path::Path;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

pub use findings::{Findings, PackageManager, Phase, Secret, Service, Start, Step, TestCommand, Toolchain};
pub use merge::Detection;
pub use repo::{Repo, WalkOptions};
pub use sources::Sources;

/// The walk skips every ecosystem's dependency, cache and build folders, gathered once.
static SKIPPED_DIRS: LazyLock<repo::SkippedDirs> = LazyLock::new(|| {
    repo::SkippedDirs::with(
        ecosystems::ALL.iter().flat_map(|eco| eco.skipped_dirs).copied(),
        ecosystems::ALL.iter().flat_map(|eco| eco.build_output).copied(),
    )
});

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions::skipping(&SKIPPED_DIRS)
    }
}

/// Walk `root` and draft its environment. Never fails on the repo's contents: problems with
/// single files become `warnings`; only an unreadable `root` is an error.
pub fn detect(root: &Path, options: &WalkOptions) -> Result<Detection, repo::WalkError> {
    let repo = Repo::walk(root, options)?;
    Ok(detect_in(&repo))
}

/// One unit of detection work: an ecosystem or a signal.
enum Unit {
    Signal(&'static str, signals::Signal),
    Ecosystem(&'static ecosystems::ecosystem::Declaration),
}

impl Unit {
    fn name(&self) -> &'static str {
        match self {
            Unit::Signal(name, _) => name,
            Unit::Ecosystem(eco) => eco.id,
        }
    }
    fn run(&self, sources: &Sources, out: &mut Findings) {
        match self {
            Unit::Signal(_, signal) => signal(sources, out),
            Unit::Ecosystem(eco) => eco.behaviour.detect(sources, out),
        }
    }
}

/// Run every ecosystem and signal over an already walked [`Repo`] and merge their findings.
///
/// Units run in parallel (they are pure over the shared, read-only sources), each into its
/// own [`Findings`]; the results are then concatenated in a fixed order — the signals that
/// lead, the ecosystems of [`ecosystems::ALL`], the other signals — so the output is the same
/// as a sequential run.
pub fn detect_in(repo: &Repo) -> Detection {
    let sources = Sources::new(repo, crate::detect::ecosystems::command_action);
    let units: Vec<Unit> = signals::BEFORE_ECOSYSTEMS
        .iter()
        .map(|&(name, signal)| Unit::Signal(name, signal))
        .chain(ecosystems::ALL.iter().map(|&eco| Unit::Ecosystem(eco)))
        .chain(signals::AFTER_ECOSYSTEMS.iter().map(|&(name, signal)| Unit::Signal(name, signal)))
        .collect();
    let slots: Vec<Mutex<Option<(Findings, Duration)>>> = units.iter().map(|_| Mutex::new(None)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(units.len());
    // The code scan reads the most files: started first, so it is not the last one started.
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by_key(|&i| units[i].name() != "secrets");
    let work = || {
        loop {
            let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&i) = order.get(n) else { break };
            let mut found = Findings::default();
            let started = Instant::now();
            units[i].run(&sources, &mut found);
            *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some((found, started.elapsed()));
            // The kept files serve units that share them; the last one running (the code
            // scan, which reads its files itself) would carry them to the run's peak.
            if finished.fetch_add(1, std::sync::atomic::Ordering::AcqRel) + 2 == units.len() {
                repo.forget_kept();
            } else {
                // What the unit read and parsed for itself lies freed between what is kept.
                crate::memory::release_freed();
            }
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
    for (unit, slot) in units.iter().zip(slots) {
        if let Some((found, took)) = slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            findings.append(found);
            timings.push((unit.name(), took));
        }
    }
    let mut detection = merge::merge(repo, findings);
    detection.timings = timings;
    detection
}
