//! Detector: Swift packages (`Package.swift`, `// swift-tools-version:`, `.swift-version`);
//! Xcode-only projects are noted, they build on macOS only.

use super::eco::{first_version, in_dir, is_sample, native_shell_of, pm_path, projects, version_file};
use crate::detect::repo::parent_dir;
use crate::detect::{Findings, Phase, Repo};

pub fn detect(repo: &Repo, out: &mut Findings) {
    let manifests = projects(repo, &["Package.swift"]);
    for manifest in &manifests {
        package(repo, out, manifest);
    }
    if manifests.is_empty() {
        let xcode = repo
            .files()
            .iter()
            .find(|f| f.contains(".xcodeproj/") && !is_sample(f) && native_shell_of(repo, f).is_none());
        let swift_sources = repo.files().iter().any(|f| f.ends_with(".swift") && !is_sample(f));
        if let (Some(project), true) = (xcode, swift_sources) {
            let project = parent_dir(project);
            out.toolchain("swift", None, project);
            out.note(format!("Xcode project {project}: builds with Xcode on macOS only"));
        }
    }
}

fn package(repo: &Repo, out: &mut Findings, manifest: &str) {
    let dir = parent_dir(manifest);
    let text = repo.read(manifest).unwrap_or_default();
    // The first line: `// swift-tools-version:5.9` (or `// swift-tools-version: 6.0`).
    let tools = text
        .lines()
        .next()
        .and_then(|l| l.split_once("swift-tools-version"))
        .and_then(|(_, v)| first_version(v))
        .map(|v| (v, format!("{manifest}:1")));
    match version_file(repo, dir, ".swift-version").or(tools) {
        Some((v, source)) => out.toolchain("swift", Some(v), source),
        None => out.toolchain("swift", None, manifest),
    }
    let resolved = super::eco::join(dir, "Package.resolved");
    let evidence = if repo.exists(&resolved) { resolved.as_str() } else { manifest };
    out.package_manager("swiftpm", None, pm_path(dir), evidence);
    out.step(Phase::Install, in_dir(dir, "swift package resolve"), evidence);
    out.test(in_dir(dir, "swift test"), manifest);
}

#[cfg(test)]
mod tests {
    use super::super::eco::testing::scan;
    use super::*;

    #[test]
    fn package_with_tools_version() {
        let s = scan(
            detect,
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
        let s = scan(detect, &[("App.xcodeproj/project.pbxproj", "x"), ("App/ContentView.swift", "")]);
        assert_eq!(s.toolchain("swift"), Some((None, "App.xcodeproj")));
        assert!(s.steps().is_empty());

        let flutter = scan(
            detect,
            &[("pubspec.yaml", ""), ("ios/Runner.xcodeproj/project.pbxproj", ""), ("ios/Runner/AppDelegate.swift", "")],
        );
        assert!(flutter.findings.toolchains.is_empty());
    }
}
