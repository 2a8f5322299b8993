//! `hanzo-env detect --check`: every fixture under tests/fixtures/check/ (a clean checkout
//! with fresh exports, and one per kind of drift) snapshotted as exit code, stdout and
//! stderr; GitHub annotations; `--json`; and `--against saved` with a real `hanzo-env serve`.

mod common;

use std::path::{Path, PathBuf};

use common::{Serve, copy_tree, fixture, hanzo_env, run};

fn check(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> common::Run {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = hanzo_env(home.path(), home.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(cmd.args(extra).args(["detect", "--check"]).arg(dir))
}

#[test]
fn every_check_fixture_matches_its_snapshot() {
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(fixture("check")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "a clean fixture and one per kind of drift: {dirs:?}");
    for dir in dirs {
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        let out = check(&dir, &[], &[]);
        let expected_exit = if matches!(name.as_str(), "clean" | "secret-unused") { 0 } else { 1 };
        assert_eq!(out.code, expected_exit, "{name}: {}{}", out.stdout, out.stderr);
        insta::with_settings!({
            snapshot_path => "snapshots/check",
            prepend_module_to_snapshot => false,
            filters => vec![(regex::escape(&dir.display().to_string()).as_str(), "[FIXTURE]")],
        }, {
            insta::assert_snapshot!(name, format!("exit: {}\n--- stdout\n{}--- stderr\n{}", out.code, out.stdout, out.stderr));
        });
    }
}

#[test]
fn github_actions_get_annotations() {
    let out = check(&fixture("check/secret-missing"), &[], &[("GITHUB_ACTIONS", "true")]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout,
        "::error file=web/src/pay.ts,line=1,title=hanzo-env detect --check::the code reads secret `STRIPE_SECRET_KEY`, \
         which the environment does not list (web/src/pay.ts:1)\n"
    );
    let out = check(&fixture("check/secret-unused"), &[], &[("GITHUB_ACTIONS", "true")]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.starts_with("::warning file=.hanzo/environment.toml,line=22,"), "{}", out.stdout);
}

#[test]
fn json_reports_every_drift_with_its_evidence() {
    let out = check(&fixture("check/pin-moved"), &["--json"], &[]);
    assert_eq!(out.code, 1);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["drifted"], true);
    assert_eq!(json["against"], "file");
    assert_eq!(json["drifts"][0]["kind"], "pin-moved");
    assert_eq!(json["drifts"][0]["severity"], "drift");
    assert_eq!(json["drifts"][0]["evidence"], serde_json::json!(["web/package.json#packageManager"]));
    assert_eq!(json["drifts"].as_array().unwrap().len(), 1);
}

#[test]
fn without_a_file_the_check_says_how_to_make_one() {
    let repo = tempfile::tempdir().unwrap();
    std::fs::write(repo.path().join("package.json"), "{}").unwrap();
    let out = check(repo.path(), &[], &[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("environment.toml does not exist"), "{}", out.stderr);
    assert!(out.stderr.contains("hint: run `hanzo-env detect` to draft one"), "{}", out.stderr);
}

#[test]
fn against_the_saved_copy_on_the_server() {
    let serve = Serve::start();
    let home = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    copy_tree(&fixture("check/service-added"), repo.path());
    let client = |args: &[&str]| {
        let mut cmd = hanzo_env(home.path(), repo.path());
        cmd.env("HANZO_BASE_URL", &serve.url).env("HANZO_API_KEY", &serve.token);
        run(cmd.args(args))
    };
    // Save the stale file (start brings up db only), then fix the local file: the local
    // check passes, the check against the server still reports the service.
    let saved = client(&["save", "--yes"]);
    assert_eq!(saved.code, 0, "{}", saved.stderr);
    let value = "postgres://u:never-printed@db/shop";
    let mut set = hanzo_env(home.path(), repo.path());
    set.env("HANZO_BASE_URL", &serve.url).env("HANZO_API_KEY", &serve.token);
    assert_eq!(run(set.args(["secret", "set", "DATABASE_URL"]).write_stdin(value)).code, 0);
    std::fs::copy(fixture("check/clean/.hanzo/environment.toml"), repo.path().join(".hanzo/environment.toml")).unwrap();
    assert_eq!(client(&["detect", "--check", "."]).code, 0);
    let out = client(&["detect", "--check", "--against", "saved", "."]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert_eq!(out.stdout, "drift: service `cache` added: start does not bring it up (compose.yaml)\n");
    assert!(out.stderr.contains("from the saved environment of shop"), "{}", out.stderr);
    for secret in [serve.token.as_str(), value] {
        assert!(!out.stdout.contains(secret) && !out.stderr.contains(secret));
    }
}
