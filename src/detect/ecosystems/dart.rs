//! Dart and Flutter packages (`pubspec.yaml`): `flutter pub get` or `dart pub get`
//! per package, one at the root of a pub workspace, `melos bootstrap` for a melos monorepo.

use std::sync::LazyLock;

use regex::Regex;
use yaml_rust2::Yaml;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, EnvRead, Need, SetupStep, Toolchain};
use crate::detect::ecosystems::project::{pm_path, read_existing};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, is_project_path};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;
use crate::rel_path::rel;

pub struct Dart;

/// What Dart declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "dart",
    toolchains: &[Toolchain::new("dart", "Dart"), Toolchain::new("flutter", "Flutter")],
    package_managers: &["pub"],
    programs: &["dart", "flutter"],
    manifests: &["pubspec.yaml"],
    aliases: &[
        Alias::action("subosito/flutter-action", "flutter", &["flutter-version"]),
        Alias::action("dart-lang/setup-dart", "dart", &["sdk"]),
        Alias::image("dart", "dart"),
        Alias::feature("dart", "dart"),
        Alias::feature("flutter", "flutter"),
        Alias::nix("dart", "dart"),
        Alias::nix("flutter", "flutter"),
        Alias::tool("dart", "dart"),
        Alias::tool("flutter", "flutter"),
    ],
    setup_steps: &[
        SetupStep::new("dart", "dart-lang/setup-dart@v1", "sdk").when_unpinned(),
        SetupStep::new("flutter", "subosito/flutter-action@v2", "flutter-version").when_unpinned(),
    ],
    test_commands: &[r"(?:dart|flutter)[[:space:]]+test(?-u:\b)"],
    source_extensions: &["dart"],
    install_programs: &["dart", "flutter"],
    skipped_dirs: &[".dart_tool", ".pub-cache"],
    ..Declaration::new(&Dart)
};

impl Ecosystem for Dart {
    fn env_reads(&self, _rel: &RelPath, text: &str) -> Vec<EnvRead> {
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"(?-u:\b)Platform\.environment\[[[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"][[:space:]]*\]"#)
                .expect("the Dart environment-read pattern is valid")
        });
        code::reads_of(&READ, text, "Platform.environment", |after| {
            if code::followed_by(after, &["??"]) { Need::Optional } else { Need::Unstated }
        })
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

struct Package<'r> {
    manifest: &'r RelPath,
    dir: &'r RelPath,
    doc: Yaml,
    flutter: bool,
}

fn detect(repo: &Repo, out: &mut Findings) {
    let packages: Vec<Package> = repo
        .named("pubspec.yaml")
        .into_iter()
        .filter(|p| is_project_path(p))
        .map(|manifest| {
            let doc = repo.read_yaml(manifest).and_then(|docs| docs.first().cloned()).unwrap_or(Yaml::BadValue);
            let flutter = doc["dependencies"]["flutter"]["sdk"].as_str() == Some("flutter")
                || !doc["environment"]["flutter"].is_badvalue();
            Package { manifest, dir: manifest.parent(), doc, flutter }
        })
        .collect();
    let Some(root) = packages.first() else { return };

    toolchains(repo, out, &packages);

    let melos = repo.exists(rel!("melos.yaml")) || (root.dir.is_root() && !root.doc["melos"].is_badvalue());
    // Pub workspaces (Dart 3.6): one `pub get` at the workspace root resolves every member.
    let workspaces: Vec<&RelPath> =
        packages.iter().filter(|p| p.doc["workspace"].as_vec().is_some()).map(|p| p.dir).collect();
    let installed: Vec<&Package> = if melos {
        out.step(
            Phase::Toolchain,
            "dart pub global activate melos",
            Evidence::file(if repo.exists(rel!("melos.yaml")) { rel!("melos.yaml") } else { root.manifest }),
        );
        out.step(
            Phase::Install,
            "dart pub global run melos bootstrap",
            Evidence::file(if repo.exists(rel!("melos.yaml")) { rel!("melos.yaml") } else { root.manifest }),
        );
        Vec::new()
    } else {
        packages.iter().filter(|p| !workspaces.iter().any(|w| *w != p.dir && p.dir.is_within(w))).collect()
    };
    for package in &installed {
        let tool = if package.flutter { "flutter" } else { "dart" };
        out.step_in(package.dir, Phase::Install, format!("{tool} pub get"), Evidence::file(package.manifest));
    }
    for package in &packages {
        let tool = if package.flutter { "flutter" } else { "dart" };
        out.package_manager("pub", None, pm_path(package.dir), Evidence::file(package.manifest));
        if repo.under(&package.dir.join(rel!("test"))).next().is_some() {
            out.test(in_dir(package.dir, &format!("{tool} test")), Evidence::file(package.dir.join(rel!("test"))));
        }
    }
    if packages.len() > 1 {
        let how = if melos {
            "melos"
        } else if workspaces.is_empty() {
            "separate"
        } else {
            "pub workspace"
        };
        out.note(format!("{} Dart packages ({how})", packages.len()));
    }
}

/// Flutter's version from FVM (`.fvmrc`, `.fvm/fvm_config.json`) or `environment.flutter`,
/// Dart's from `environment.sdk`: the highest floor, the one every package accepts.
fn toolchains(repo: &Repo, out: &mut Findings, packages: &[Package]) {
    if let Some(first) = packages.iter().find(|p| p.flutter) {
        let fvm = [(rel!(".fvmrc"), "/flutter"), (rel!(".fvm/fvm_config.json"), "/flutterSdkVersion")]
            .into_iter()
            .find_map(|(path, key)| {
                read_existing(repo, path)?;
                let version = repo.read_json(path)?.pointer(key)?.as_str()?.to_string();
                Some((version, Evidence::key(path, key.trim_start_matches('/'))))
            });
        let declared = newest(packages.iter().filter(|p| p.flutter).filter_map(|p| {
            let floor = version::floor(p.doc["environment"]["flutter"].as_str()?)?;
            Some((floor, Evidence::key(p.manifest, "environment.flutter")))
        }));
        match fvm.or(declared) {
            Some((v, source)) => out.toolchain("flutter", Some(v), source),
            None => out.toolchain("flutter", None, Evidence::file(first.manifest)),
        }
    }
    let sdk = newest(packages.iter().filter_map(|p| {
        let floor = version::floor(p.doc["environment"]["sdk"].as_str()?)?;
        Some((floor, Evidence::key(p.manifest, "environment.sdk")))
    }));
    match sdk {
        Some((v, source)) => out.toolchain_floor("dart", v, source),
        None => out.toolchain("dart", None, Evidence::file(packages[0].manifest)),
    }
}

/// The `(version, source)` with the highest version; the first of equals.
fn newest(found: impl Iterator<Item = (String, Evidence)>) -> Option<(String, Evidence)> {
    found.fold(None, |best, (v, source)| match best {
        Some(kept) if !version::cmp(&v, &kept.0).is_gt() => Some(kept),
        _ => Some((v, source)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    #[test]
    fn flutter_app_with_fvm() {
        let s = scan(
            &Dart,
            &[
                (
                    "pubspec.yaml",
                    "name: app\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\ndependencies:\n  flutter:\n    sdk: flutter\n",
                ),
                (".fvmrc", r#"{"flutter": "3.19.6"}"#),
                ("test/widget_test.dart", ""),
                ("example/pubspec.yaml", "name: example"),
            ],
        );
        assert_eq!(s.toolchain("flutter"), Some((Some("3.19.6"), ".fvmrc#flutter")));
        assert_eq!(s.toolchain("dart"), Some((Some("3.3.0"), "pubspec.yaml#environment.sdk")));
        assert_eq!(s.steps(), vec!["flutter pub get"]);
        assert_eq!(s.tests(), vec!["flutter test"]);
    }

    #[test]
    fn pub_workspace_is_one_get_and_separate_packages_are_several() {
        let s = scan(
            &Dart,
            &[
                ("pubspec.yaml", "name: ws\nenvironment:\n  sdk: ^3.6.0\nworkspace:\n  - pkgs/a\n"),
                ("pkgs/a/pubspec.yaml", "name: a\nresolution: workspace\n"),
                ("pkgs/a/test/a_test.dart", ""),
            ],
        );
        assert_eq!(s.steps(), vec!["dart pub get"]);
        assert_eq!(s.tests(), vec!["(cd pkgs/a && dart test)"]);
        assert!(s.toolchain("flutter").is_none());

        let s =
            scan(&Dart, &[("a/pubspec.yaml", "name: a"), ("b/pubspec.yaml", "name: b\nenvironment: {sdk: ^3.0.0}")]);
        assert_eq!(s.steps(), vec!["(cd a && dart pub get)", "(cd b && dart pub get)"]);
        assert_eq!(s.toolchain("dart"), Some((Some("3.0.0"), "b/pubspec.yaml#environment.sdk")));
    }

    #[test]
    fn malformed_pubspec_warns() {
        let s = scan(&Dart, &[("pubspec.yaml", "name: [unclosed")]);
        assert!(s.warnings.iter().any(|w| w.starts_with("pubspec.yaml: invalid YAML")), "{:?}", s.warnings);
        assert_eq!(s.steps(), vec!["dart pub get"]);
    }
}
