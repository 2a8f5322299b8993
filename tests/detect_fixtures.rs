//! Snapshot every fixture under `tests/fixtures/detect/*/`: `detect --json` and `detect --stdout`,
//! run as a user would (the built binary, a temporary HOME, a cleared environment).
//! Adding a fixture is adding a directory; new snapshots are accepted with `cargo insta review`
//! (or `INSTA_UPDATE=always`).

mod common;

use std::path::{Path, PathBuf};

fn fixtures_dir() -> PathBuf {
    common::fixture("detect")
}

fn detect(dir: &Path, mode: &str) -> String {
    let home = tempfile::tempdir().expect("temp HOME");
    let run = common::run(common::hanzo_env(home.path(), home.path()).args(["detect", mode]).arg(dir));
    assert_eq!(run.code, 0, "detect {mode} {} failed: {}", dir.display(), run.stderr);
    run.stdout
}

#[test]
fn every_fixture_matches_its_snapshots() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("tests/fixtures/detect")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no fixtures under {}", fixtures_dir().display());
    // Every fixture is checked even when one differs, so a change shows all it affects.
    let mut failed: Vec<String> = Vec::new();
    for dir in dirs {
        let name = dir.file_name().and_then(|n| n.to_str()).expect("UTF-8 fixture name").to_string();
        if std::panic::catch_unwind(|| check_fixture(&dir, &name)).is_err() {
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "fixtures whose output changed: {failed:?}");
}

fn check_fixture(dir: &Path, name: &str) {
    let root = dir.display().to_string();
    // Snapshotted as printed: the key order is part of the contract.
    let json_text = detect(dir, "--json");
    serde_json::from_str::<serde_json::Value>(&json_text).expect("--json prints JSON");
    let toml_text = detect(dir, "--stdout");
    hanzo_env::proposal::Proposal::parse(&toml_text)
        .unwrap_or_else(|e| panic!("{name}: the TOML detect writes does not parse: {e}\n{toml_text}"));
    insta::with_settings!({
        snapshot_path => "snapshots/detect",
        prepend_module_to_snapshot => false,
        filters => vec![(regex::escape(&root).as_str(), "[FIXTURE]")],
    }, {
        insta::assert_snapshot!(format!("{name}.json"), json_text);
        insta::assert_snapshot!(format!("{name}.toml"), toml_text);
    });
}
