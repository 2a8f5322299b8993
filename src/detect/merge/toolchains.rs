//! Toolchains, package managers and services: ranked by the kind of their evidence and
//! folded to one each.

use super::*;
use crate::warning::Warning;

pub(super) fn merge_toolchains(mut toolchains: Vec<Toolchain>) -> Vec<Toolchain> {
    // A manifest's floor orders the names like any manifest (the project's language first);
    // within a name it comes after every exact pin.
    let name_rank = |t: &Toolchain| if t.source.kind == Kind::ManifestFloor { Kind::Manifest } else { t.source.kind };
    toolchains.sort_by_key(name_rank);
    for t in &mut toolchains {
        if t.version.as_deref().is_some_and(|v| !ecosystems::pins(&t.name, v)) {
            t.version = None;
        }
    }
    let mut names: Vec<String> = Vec::new();
    for t in &toolchains {
        if !names.contains(&t.name) {
            names.push(t.name.clone());
        }
    }
    toolchains.sort_by_key(|t| t.source.kind);
    let toolchains = dedup_by_key(toolchains, |t| (t.name.clone(), t.version.clone()));
    let mut merged = Vec::with_capacity(toolchains.len());
    for name in &names {
        let (pinned, unpinned): (Vec<&Toolchain>, Vec<&Toolchain>) =
            toolchains.iter().filter(|t| t.name == *name).partition(|t| t.version.is_some());
        merged.extend(pinned.into_iter().chain(unpinned.into_iter().take(1)).cloned());
    }
    // An unpinned entry says nothing a pinned one of the same name does not.
    let pinned_names: HashSet<String> = merged.iter().filter(|t| t.version.is_some()).map(|t| t.name.clone()).collect();
    merged.retain(|t| t.version.is_some() || !pinned_names.contains(&t.name));
    merged
}

/// Where the agent setup the owners wrote disagrees with the manifests: a toolchain pinned
/// to another version, a package manager other than the lockfile's. Both stay listed (the
/// agent setup first): which is right is for the reviewer to say.
pub(super) fn agent_setup_disagreements(toolchains: &[Toolchain], managers: &[PackageManager]) -> Vec<Warning> {
    let mut found = Vec::new();
    for agent in toolchains.iter().filter(|t| t.source.kind == Kind::AgentSetup) {
        let Some(pin) = &agent.version else { continue };
        let other = toolchains.iter().find(|t| {
            t.name == agent.name
                && matches!(t.source.kind, Kind::VersionManager | Kind::Manifest)
                && t.version.as_ref().is_some_and(|v| !v.starts_with(pin.as_str()) && !pin.starts_with(v.as_str()))
        });
        if let Some(other) = other {
            found.push(Warning::general(format!(
                "{} sets up {} {pin}, but {} pins {}",
                agent.source,
                ecosystems::display_name(&agent.name),
                other.source,
                other.version.as_deref().unwrap_or_default()
            )));
        }
    }
    for agent in managers.iter().filter(|m| m.source.kind == Kind::AgentSetup) {
        let Some(owner) = ecosystems::owner_of_package_manager(&agent.name) else { continue };
        let same_place = |m: &&PackageManager| m.path == agent.path && m.source.kind == Kind::Manifest;
        let ours: Vec<&PackageManager> = managers.iter().filter(same_place).collect();
        let rival = ours.iter().find(|m| owner.package_managers.contains(&m.name.as_str()) && m.name != agent.name);
        if let Some(rival) = rival
            && !ours.iter().any(|m| m.name == agent.name)
        {
            found.push(Warning::general(format!(
                "{} runs {}, but {} says {}",
                agent.source, agent.name, rival.source, rival.name
            )));
        }
    }
    found
}

pub(super) fn merge_package_managers(mut pms: Vec<PackageManager>) -> Vec<PackageManager> {
    pms.sort_by_key(|p| p.source.kind);
    let mut merged: Vec<PackageManager> = Vec::new();
    for pm in pms {
        match merged.iter_mut().find(|m| m.name == pm.name && m.path == pm.path) {
            Some(existing) => {
                if existing.version.is_none() {
                    existing.version = pm.version;
                }
            }
            None => merged.push(pm),
        }
    }
    merged
}

pub(super) fn merge_services(mut services: Vec<Service>) -> Vec<Service> {
    services.sort_by_key(|s| s.source.kind);
    let mut merged: Vec<Service> = Vec::new();
    for service in services {
        match merged.iter_mut().find(|m| m.name == service.name) {
            Some(existing) => {
                if existing.image.is_none() {
                    existing.image = service.image;
                }
            }
            None => merged.push(service),
        }
    }
    merged
}
