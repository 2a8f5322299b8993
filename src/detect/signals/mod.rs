//! Signals: what the project needs that no one ecosystem's manifests say — toolchains named
//! by version managers, dev shells, dev containers and CI; the services the tests run
//! against; start candidates; test commands from CI and task files; secret names. Each
//! queries [`crate::detect::sources`] and asks [`crate::detect::ecosystems`]; no signal
//! imports another (the CI job scope they share is [`relevance`], which is no signal).

pub mod relevance;
pub mod secrets;
pub mod services;
pub mod starts;
pub mod system_packages;
pub mod test_commands;
pub mod toolchains;

use crate::detect::findings::Findings;
use crate::detect::sources::Sources;

/// A signal: reads the sources, reports findings.
pub type Signal = fn(&Sources, &mut Findings);

/// The signals whose findings come before the ecosystems' (their notes lead the note).
pub const BEFORE_ECOSYSTEMS: &[(&str, Signal)] = &[("toolchains", toolchains::detect)];

/// The signals whose findings come after the ecosystems'.
pub const AFTER_ECOSYSTEMS: &[(&str, Signal)] = &[
    ("services", services::detect),
    ("starts", starts::detect),
    ("system packages", system_packages::detect),
    ("tests", test_commands::detect),
    ("secrets", secrets::detect),
];
