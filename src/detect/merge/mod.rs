//! Merge the findings of every ecosystem and signal into one deterministic [`Detection`].
//! The only place that ranks and folds.
//!
//! Rules (all stable: the same tree always gives the same bytes):
//! - install steps: deduplicated by command (first wins), ordered by [`Phase`], then by the
//!   order the units ran in (see [`crate::detect::detect_in`]), then by finding order;
//! - start: candidates ordered by their [`StartOrigin`], each product started once: a
//!   compose start drops the services whose product an earlier start of other files brings
//!   up, is left out when an earlier one of the same files covers it, replaces earlier ones
//!   of the same files it covers, and is left out when an earlier one names all its
//!   services; `docker run` service containers only when nothing else starts anything;
//!   joined with ` && `;
//! - toolchains: ordered by [`Kind`]; a version the toolchain's ecosystem says pins
//!   nothing is dropped; one entry per (name, version); for each name a pinned version
//!   comes before an unpinned one, otherwise the strongest origin wins;
//! - package managers: one per (name, path), the first one seen, with a version filled in
//!   from a later duplicate when the first had none;
//! - services: ordered by [`Kind`]; one per name, the first one seen, with an image filled
//!   in the same way;
//! - secrets: checked with [`crate::names::validate_secret_name`], one per name, required when
//!   any evidence says so (that evidence is the one shown), else optional (explicit evidence
//!   for that shown before a plain read); the required ones first, each group sorted;
//! - tests: deduplicated by command and ordered by [`test_rank`] of their source.

use crate::warning::Warning;
use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::detect::ecosystems;
use crate::detect::findings::{
    Evidence, Findings, Kind, Need, PackageManager, Phase, Secret, Service, Start, StartOrigin, Step, TestCommand,
    Toolchain,
};
use crate::detect::repo::Repo;
use crate::detect::sources::compose::ComposeStart;
use crate::detect::sources::packaged_services::{self, Definition, DockerUp, NativeStart};
use crate::detect::sources::shell;
use crate::plan::{Action, Guard};

mod note;
mod secrets;
mod service_use;
mod starts;
mod test_ranking;
#[cfg(test)]
mod tests;
mod toolchains;

pub use self::secrets::{MAX_SECRET_NAMES, SecretDetail};
pub use self::test_ranking::test_rank;
use self::{note::*, secrets::*, service_use::*, starts::*, test_ranking::*, toolchains::*};

/// The result of `detect`, as `--json` prints it (keys and meanings are a contract).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Detection {
    pub repo: String,
    pub install: String,
    pub start: String,
    /// Every secret name: the required ones, then the optional ones, each sorted.
    pub secrets: Vec<String>,
    /// The same names, in the same order, with whether the project needs each and why.
    pub secret_details: Vec<SecretDetail>,
    pub note: String,
    pub toolchains: Vec<Toolchain>,
    pub package_managers: Vec<PackageManager>,
    pub services: Vec<Service>,
    /// Services the primary test does not use (another CI job's, an e2e suite's): not
    /// started by `start`; `verify --all-tests` starts them with [`Detection::optional_start`].
    pub optional_services: Vec<Service>,
    pub tests: Vec<TestCommand>,
    pub warnings: Vec<Warning>,
    /// The install steps behind `install`, with their evidence (for rendering and `--explain`).
    #[serde(skip)]
    pub steps: Vec<Step>,
    /// The start commands behind `start`, with their evidence.
    #[serde(skip)]
    pub starts: Vec<Start>,
    /// The services `start` runs from their distribution packages where Docker cannot.
    #[serde(skip)]
    pub native_starts: Vec<NativeStart>,
    /// The script that brings up [`Detection::optional_services`] (their packages first,
    /// where Docker cannot), for `verify --all-tests`; empty when there are none to start.
    #[serde(skip)]
    pub optional_start: String,
    /// How long each detector took (`-vv`).
    #[serde(skip)]
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

pub fn merge(repo: &Repo, findings: Findings) -> Detection {
    let Findings {
        toolchains,
        package_managers,
        services,
        tests,
        secrets,
        steps,
        starts,
        seeds,
        notes,
        warnings: found,
    } = findings;
    let mut warnings = repo.warnings();
    warnings.extend(found);

    warnings.extend(agent_setup_disagreements(&toolchains, &package_managers));
    let package_managers = merge_package_managers(package_managers);
    let mut tests = merge_tests(tests, &package_managers, &ecosystems::main_ecosystems(repo));
    // `start` brings up what the primary test uses; the rest is optional.
    let used = primary_products(tests.first(), &starts, &services);
    let candidates = primary_job_first(starts, tests.first());
    let folded = merge_starts(candidates.clone());
    let more = if used.is_some() { other_jobs_containers(&candidates, &folded) } else { Vec::new() };
    let (starts, mut optional_starts) = split_starts(folded, used.as_deref());
    optional_starts.extend(more);
    let (services, optional_services) = split_services(services, used.as_deref());
    let (seeds, optional_seeds): (Vec<_>, Vec<_>) = match (used.as_ref(), tests.first()) {
        (Some(_), Some(primary)) => {
            seeds.into_iter().partition(|(_, source)| source.job_id().is_none() || in_job(source, &primary.source))
        }
        _ => (seeds, Vec::new()),
    };
    let services_start = ServicesStart::of(&starts, &services);
    warnings.extend(services_start.warnings.iter().cloned());
    let optional_start = ServicesStart::of(&optional_starts, &optional_services);
    let mut steps = steps;
    steps.extend(services_start.step.clone());
    // The files the primary's CI job makes before its tests are made once, by install.
    if let Some(primary) = tests.first_mut() {
        steps.append(&mut primary.placed_first);
    }
    let mut steps = merge_steps(steps);
    if let Some(primary) = tests.first() {
        skip_other_toolchains_when_missing(&mut steps, &primary.command);
    }
    let (secret_details, rejected) = merge_secrets(secrets);
    warnings.extend(rejected);
    let mut seen_warnings = HashSet::new();
    warnings.retain(|w| seen_warnings.insert(w.clone()));

    let mut detection = Detection {
        repo: crate::checkout::default_repo_name(repo.root()),
        install: install_script(&steps),
        start: with_seeds(&services_start.script, &seeds),
        secrets: secret_details.iter().map(|s| s.name.clone()).collect(),
        secret_details,
        note: String::new(),
        toolchains: merge_toolchains(toolchains),
        package_managers,
        services: services_start.mark(merge_services(services)),
        optional_services: optional_start.mark(merge_services(optional_services)),
        tests,
        warnings,
        steps,
        starts,
        native_starts: services_start.native.clone(),
        optional_start: optional_start.script_with_packages(&optional_seeds),
        timings: Vec::new(),
    };
    detection.note = note(&detection, &notes, &services_start);
    for (key, script) in [("install", &detection.install), ("start", &detection.start)] {
        // What `save` sends: the plan with its helpers' text.
        let sent = crate::plan::block::expand(script).map_or(script.len(), |s| s.len());
        if sent > crate::names::MAX_SCRIPT_BYTES {
            detection.warnings.push(Warning::general(format!(
                "{key} is {sent} bytes with its helpers, over the {} bytes the server accepts: trim it before `hanzo-env save`",
                crate::names::MAX_SCRIPT_BYTES
            )));
        }
    }
    detection
}

impl Detection {
    /// The services the drafted `start` brings up (its compose services and containers), by
    /// product: a service CI defines in another job (a variant's database) is not among them.
    pub fn started_services(&self) -> Vec<&str> {
        let compose =
            self.starts.iter().flat_map(|s| s.compose.iter().flat_map(|c| &c.services)).map(|s| s.product.as_str());
        let containers = self.starts.iter().flat_map(|s| &s.containers).map(|s| s.name.as_str());
        dedup_by_key(compose.chain(containers).collect(), |name| *name)
    }
}

fn dedup_by_key<T, K: std::hash::Hash + Eq>(items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut seen = HashSet::new();
    items.into_iter().filter(|item| seen.insert(key(item))).collect()
}

fn merge_steps(steps: Vec<Step>) -> Vec<Step> {
    let mut steps = dedup_by_key(steps, Step::command);
    // Stable: within a phase, detector order (the order findings arrived in) is kept.
    steps.sort_by_key(|s| s.phase);
    steps
}

/// In a polyglot repo, the steps of ecosystems other than the primary test's run only where
/// their toolchain is: a sandbox without PHP still gets the Node project whose tests the
/// agent runs (bullmq's PHP, Elixir and .NET ports beside it), and says what it skipped. The
/// primary's own ecosystem, and steps of no known toolchain, fail as they would.
fn skip_other_toolchains_when_missing(steps: &mut [Step], primary_test: &str) {
    let Some(primary) = ecosystems::owner_of_test(primary_test) else { return };
    for step in steps.iter_mut() {
        let Action::Shell(command) = &step.action else { continue };
        if command.trim().contains('\n') {
            continue;
        }
        let Some(program) = shell::program_of(command) else { continue };
        let Some(owner) = ecosystems::owner_of_program(program).filter(|eco| eco.id != primary.id) else {
            continue;
        };
        let toolchain = owner.toolchains.first().map_or(owner.id, |t| t.display);
        step.guard = Some(Guard { program: program.to_string(), toolchain: toolchain.to_string() });
    }
}

/// The install script a person reviews (see [`crate::plan::render::install`]).
pub fn install_script(steps: &[Step]) -> String {
    crate::plan::render::install(steps)
}

/// A comment must stay one line of plain text, whatever a file name holds: line breaks
/// become spaces, other control characters (ESC, BEL: a TOML comment may not hold them, a
/// terminal obeys them) are shown escaped (`\u{1b}`).
pub fn one_line(text: &str) -> String {
    crate::plan::render::comment_text(text)
}
