//! The one-line `note` of a detection.

use super::*;

/// The `note`: toolchains with versions and where from, package managers, the detectors'
/// own facts (workspaces, …), services and test commands.
pub(super) fn note(d: &Detection, notes: &[String], services_start: &ServicesStart) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !d.toolchains.is_empty() {
        let items: Vec<String> = d
            .toolchains
            .iter()
            .map(|t| match &t.version {
                Some(v) => format!("{} {v} ({})", ecosystems::display_name(&t.name), t.source),
                None => format!("{} ({})", ecosystems::display_name(&t.name), t.source),
            })
            .collect();
        parts.push(items.join(", "));
    }
    if !d.package_managers.is_empty() {
        let items: Vec<String> = d
            .package_managers
            .iter()
            .map(|p| {
                let mut s = p.name.clone();
                if let Some(v) = &p.version {
                    s.push_str(&format!(" {v}"));
                }
                if p.path != "." {
                    s.push_str(&format!(" in {}", p.path));
                }
                s
            })
            .collect();
        parts.push(items.join(", "));
    }
    let mut seen = HashSet::new();
    parts.extend(notes.iter().filter(|n| seen.insert(n.as_str())).cloned());
    if !d.services.is_empty() {
        parts.push(services_start.note(&d.services));
    }
    if !d.optional_services.is_empty() {
        let names: Vec<&str> = d.optional_services.iter().map(|s| s.name.as_str()).collect();
        parts.push(format!("optional services (verify --all-tests starts them): {}", names.join(", ")));
    }
    if !d.tests.is_empty() {
        // The best few: the full list, with evidence, is in `tests`.
        const SHOWN: usize = 3;
        let commands: Vec<&str> = d.tests.iter().take(SHOWN).map(|t| t.command.as_str()).collect();
        let more = d.tests.len().saturating_sub(SHOWN);
        let more = if more > 0 { format!(" (and {more} more)") } else { String::new() };
        parts.push(format!("tests: {}{more}", commands.join(", ")));
    }
    one_line(&parts.join("; "))
}
