//! `hanzo-env detect` as a command: writing the file, refusing to clobber, the output modes,
//! and bad input that must become warnings (each case builds its tree in a tempdir).

use std::path::Path;

use assert_cmd::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn hanzo(home: &Path, args: &[&str], dir: &Path) -> Run {
    let output = Command::cargo_bin("hanzo-env")
        .expect("the hanzo-env binary")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .current_dir(home)
        .args(args)
        .arg(dir)
        .output()
        .expect("run hanzo-env");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn node_repo() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "package.json", r#"{"name":"site","scripts":{"test":"vitest"}}"#);
    write(repo.path(), "package-lock.json", r#"{"lockfileVersion":3}"#);
    repo
}

#[test]
fn writes_the_file_then_finds_it_up_to_date() {
    let home = tempfile::tempdir().unwrap();
    let repo = node_repo();
    let run = hanzo(home.path(), &["detect"], repo.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "the default mode prints nothing on stdout: {}", run.stdout);
    assert!(run.stderr.contains("Wrote"), "{}", run.stderr);
    let file = repo.path().join(".hanzo/environment.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let proposal = hanzo_env::proposal::Proposal::parse(&text).unwrap();
    assert_eq!(text, hanzo(home.path(), &["detect", "--stdout"], repo.path()).stdout);
    assert!(proposal.install.starts_with("set -euo pipefail\n"), "{}", proposal.install);
    let leftovers: Vec<_> = std::fs::read_dir(repo.path().join(".hanzo")).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind");

    let again = hanzo(home.path(), &["detect"], repo.path());
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stderr.contains("up to date"), "{}", again.stderr);
}

#[test]
fn an_edited_file_is_not_clobbered_without_force() {
    let home = tempfile::tempdir().unwrap();
    let repo = node_repo();
    let edited = "repo = \"site\"\ninstall = \"npm ci && npm run build\"\n";
    write(repo.path(), ".hanzo/environment.toml", edited);

    let run = hanzo(home.path(), &["detect"], repo.path());
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--stdout") && run.stderr.contains("--force"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(repo.path().join(".hanzo/environment.toml")).unwrap(), edited);

    let forced = hanzo(home.path(), &["detect", "--force"], repo.path());
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let text = std::fs::read_to_string(repo.path().join(".hanzo/environment.toml")).unwrap();
    assert_ne!(text, edited);
    hanzo_env::proposal::Proposal::parse(&text).unwrap();
}

#[test]
fn json_stdout_and_explain_write_nothing() {
    let home = tempfile::tempdir().unwrap();
    let repo = node_repo();
    for mode in ["--json", "--stdout", "--explain"] {
        let run = hanzo(home.path(), &["detect", mode], repo.path());
        assert_eq!(run.code, 0, "{mode}: {}", run.stderr);
        assert!(!run.stdout.is_empty(), "{mode} prints on stdout");
        assert!(!repo.path().join(".hanzo").exists(), "{mode} must not write the file");
    }
    let text = hanzo(home.path(), &["detect", "--json"], repo.path()).stdout;
    serde_json::from_str::<serde_json::Value>(&text).unwrap();
    let keys = [
        "repo",
        "install",
        "start",
        "secrets",
        "note",
        "toolchains",
        "package_managers",
        "services",
        "tests",
        "warnings",
    ];
    let positions: Vec<usize> = keys
        .iter()
        .map(|k| text.find(&format!("\n  \"{k}\": ")).unwrap_or_else(|| panic!("no top-level {k} in {text}")))
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "keys out of order: {text}");
    assert_eq!(text.matches("\n  \"").count(), keys.len(), "no other top-level keys: {text}");
}

#[test]
fn a_missing_path_is_an_error_with_a_hint() {
    let home = tempfile::tempdir().unwrap();
    let run = hanzo(home.path(), &["detect", "--json"], &home.path().join("nope"));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("nope") && run.stderr.contains("hint:"), "{}", run.stderr);
}
