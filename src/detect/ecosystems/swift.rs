//! Swift packages (`Package.swift`, `// swift-tools-version:`, `.swift-version`);
//! Xcode projects are noted: they build on macOS only.

use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, EnvHelper, EnvRead, SetupStep, Toolchain};
use crate::detect::ecosystems::project::{native_shell_of, pm_path, projects, version_file};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::Repo;
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;
use crate::rel_path::rel;

mod env;

pub struct Swift;

/// What Swift declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "swift",
    toolchains: &[Toolchain::new("swift", "Swift")],
    package_managers: &["swiftpm"],
    programs: &["swift"],
    manifests: &["Package.swift"],
    aliases: &[
        Alias::action("swift-actions/setup-swift", "swift", &["swift-version"]),
        Alias::image("swift", "swift"),
        Alias::nix("swift", "swift"),
        Alias::tool("swift", "swift"),
    ],
    setup_steps: &[SetupStep::new("swift", "swift-actions/setup-swift@v2", "swift-version")],
    test_commands: &[r"swift[[:space:]]+test(?-u:\b)"],
    source_extensions: &["swift"],
    install_programs: &["swift"],
    skipped_dirs: &[".build", "Pods", "DerivedData"],
    ..Declaration::new(&Swift)
};

impl Ecosystem for Swift {
    fn env_reads(&self, _rel: &RelPath, text: &str) -> Vec<EnvRead> {
        env::reads(text)
    }
    fn env_helpers(&self, text: &str) -> Vec<EnvHelper> {
        env::helpers(text)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

fn detect(repo: &Repo, out: &mut Findings) {
    let manifests = projects(repo, &["Package.swift"]);
    for manifest in &manifests {
        package(repo, out, manifest);
    }
    // An app's Xcode project builds on macOS only, even when its modules are Swift packages.
    let xcode = repo.files().find(|f| {
        f.dir().split('/').any(|d| d.ends_with(".xcodeproj"))
            && f.is_project_path()
            && native_shell_of(repo, f.path()).is_none()
    });
    let swift_sources = || repo.files().any(|f| f.name().ends_with(".swift") && f.is_project_path());
    if let Some(project) = xcode
        && swift_sources()
    {
        let project = project.dir();
        if manifests.is_empty() {
            out.toolchain("swift", None, Evidence::file(project));
        }
        out.note(format!("Xcode project {project}: builds with Xcode on macOS only"));
    }
}

fn package(repo: &Repo, out: &mut Findings, manifest: &RelPath) {
    let dir = manifest.parent();
    let text = repo.read(manifest).unwrap_or_default();
    // The first line: `// swift-tools-version:5.9` (or `// swift-tools-version: 6.0`).
    let tools = text
        .lines()
        .next()
        .and_then(|l| l.split_once("swift-tools-version"))
        .and_then(|(_, v)| version::first(v))
        .map(|v| (v, Evidence::line(manifest, 1)));
    match version_file(repo, dir, rel!(".swift-version")).or(tools) {
        Some((v, source)) => out.toolchain("swift", Some(v), source),
        None => out.toolchain("swift", None, Evidence::file(manifest)),
    }
    let resolved = dir.join(rel!("Package.resolved"));
    let evidence = if repo.exists(&resolved) { &resolved } else { manifest };
    out.package_manager("swiftpm", None, pm_path(dir), Evidence::file(evidence));
    out.step_in(dir, Phase::Install, "swift package resolve", Evidence::file(evidence));
    out.test(in_dir(dir, "swift test"), Evidence::file(manifest));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    #[test]
    fn package_with_tools_version() {
        let s = scan(
            &Swift,
            &[
                ("Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\n"),
                ("Package.resolved", "{}"),
                ("Examples/Demo/Package.swift", "// swift-tools-version:5.5\n"),
            ],
        );
        assert_eq!(s.toolchain("swift"), Some((Some("5.9"), "Package.swift:1")));
        assert_eq!(s.managers(), vec![("swiftpm", ".")]);
        assert_eq!(s.steps(), vec!["swift package resolve"]);
        assert_eq!(s.tests(), vec!["swift test"]);
    }

    #[test]
    fn xcode_only_is_a_note() {
        let s = scan(&Swift, &[("App.xcodeproj/project.pbxproj", "x"), ("App/ContentView.swift", "")]);
        assert_eq!(s.toolchain("swift"), Some((None, "App.xcodeproj")));
        assert!(s.steps().is_empty());

        let flutter = scan(
            &Swift,
            &[("pubspec.yaml", ""), ("ios/Runner.xcodeproj/project.pbxproj", ""), ("ios/Runner/AppDelegate.swift", "")],
        );
        assert!(flutter.findings.toolchains.is_empty());
    }
}
