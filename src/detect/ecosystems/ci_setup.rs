//! The versions CI's official setup steps ask for (`actions/setup-python`'s
//! `python-version`, `actions/setup-node`'s `node-version`) across every job: the oldest is
//! the floor a project is still tested on where nothing pins a version, and the newest bounds
//! what it is tested on.

use crate::detect::findings::Evidence;
use crate::detect::sources::Sources;
use crate::detect::sources::version::{self, Pin};

/// The versions CI sets up a toolchain at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestedVersions {
    /// The oldest, with the step that sets it up.
    pub oldest: (Pin, Evidence),
    /// The newest, when every setup names a version `keeps` takes: a channel (`lts/*`, `3.x`)
    /// or an expression may be any newer one, and then CI sets no ceiling.
    pub newest: Option<Pin>,
}

/// What CI sets `target` (a setup step's target: `python`, `node`) up at, of the versions
/// `keeps` takes (Python's need a minor); `None` where no setup names one. A value
/// `elsewhere` matches names another implementation (setup-python's `pypy-3.10`): it says
/// nothing of this one's versions, neither floor nor ceiling.
pub fn tested_versions(
    sources: &Sources,
    target: &str,
    keeps: impl Fn(&Pin) -> bool,
    elsewhere: impl Fn(&str) -> bool,
) -> Option<TestedVersions> {
    let step = super::setup_step(target)?;
    let action = step.uses.split('@').next()?;
    let mut oldest: Option<(Pin, Evidence)> = None;
    let mut newest: Option<Option<Pin>> = None;
    let actions = sources.workflows().jobs.iter().flat_map(|job| &job.actions);
    for used in actions.filter(|used| used.action == action) {
        let Some(input) = used.inputs.get(step.version_input) else { continue };
        let values = match &input.matrix {
            Some(values) => values.iter().map(String::as_str).filter(|v| !elsewhere(v)).collect(),
            None if elsewhere(&input.text) => continue,
            None => vec![input.text.as_str()],
        };
        if values.is_empty() {
            continue;
        }
        let pins: Vec<Option<Pin>> = values.iter().map(|v| Pin::parse(v).filter(|pin| keeps(pin))).collect();
        let highest = pins.iter().cloned().collect::<Option<Vec<Pin>>>().and_then(|pins| max(pins.into_iter()));
        newest = Some(match (newest, highest) {
            (None, highest) => highest,
            (Some(Some(kept)), Some(highest)) => max([kept, highest].into_iter()),
            _ => None,
        });
        let lowest = pins.into_iter().flatten().min_by(|a, b| version::cmp(a.numeric(), b.numeric()));
        if let Some(lowest) = lowest
            && oldest.as_ref().is_none_or(|(kept, _)| version::cmp(lowest.numeric(), kept.numeric()).is_lt())
        {
            oldest = Some((lowest, used.source.clone()));
        }
    }
    Some(TestedVersions { oldest: oldest?, newest: newest.flatten() })
}

fn max(pins: impl Iterator<Item = Pin>) -> Option<Pin> {
    pins.max_by(|a, b| version::cmp(a.numeric(), b.numeric()))
}
