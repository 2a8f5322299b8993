//! Every install and start `detect` drafts for the fixtures, as the sandbox runs them (the
//! plan with its helpers' text), passes `bash -n` and `shellcheck -S warning`; the stock
//! helpers themselves pass shellcheck at every level; and the plan a person reviews stays short.
//! The shellcheck tests need Debian's `shellcheck`: they are `#[ignore]`d for a plain `cargo
//! test`, and `.ci/run` installs it and runs them; without it they fail, saying so.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fixture, hanzo_env, run};

fn shellcheck() -> Command {
    let found = Command::new("shellcheck").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(found, "shellcheck is not installed: apt-get install shellcheck (.ci/install-services does it)");
    Command::new("shellcheck")
}

/// Every fixture folder a draft is made of.
fn fixtures() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for group in ["detect", "check"] {
        for entry in std::fs::read_dir(fixture(group)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            }
        }
    }
    dirs.sort();
    dirs
}

/// install and start of `detect --json` for `dir`, as the file a person reviews holds them.
fn draft(dir: &Path) -> (String, String) {
    let home = tempfile::tempdir().unwrap();
    let out = run(hanzo_env(home.path(), home.path()).args(["detect", "--json"]).arg(dir));
    assert_eq!(out.code, 0, "{}: {}", dir.display(), out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    (json["install"].as_str().unwrap().to_string(), json["start"].as_str().unwrap().to_string())
}

/// Lines that are neither blank nor a comment: what a reviewer reads.
fn reviewed_lines(script: &str) -> usize {
    script.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).count()
}

#[test]
#[ignore = "needs Debian's shellcheck, which .ci/install-services installs; .ci/run runs it"]
fn every_drafted_script_passes_bash_n_and_shellcheck() {
    let scratch = tempfile::tempdir().unwrap();
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for dir in fixtures() {
        let name = format!(
            "{}-{}",
            dir.parent().unwrap().file_name().unwrap().to_str().unwrap(),
            dir.file_name().unwrap().to_str().unwrap()
        );
        let (install, start) = draft(&dir);
        for (key, plan) in [("install", install), ("start", start)] {
            if plan.is_empty() {
                continue;
            }
            let script = hanzo_env::plan::block::expand(&plan).unwrap();
            assert!(script.len() <= 16 << 10, "{name} {key} is {} bytes with its helpers", script.len());
            let path = scratch.path().join(format!("{name}.{key}.sh"));
            std::fs::write(&path, &script).unwrap();
            let syntax = Command::new("bash").arg("-n").arg(&path).output().unwrap();
            assert!(syntax.status.success(), "{name} {key}: {}\n{script}", String::from_utf8_lossy(&syntax.stderr));
            files.push((path, script));
        }
    }
    assert!(files.len() > 80, "every fixture drafted something: {}", files.len());
    let out = shellcheck()
        .args(["--shell=bash", "--severity=warning", "--format=gcc"])
        .args(files.iter().map(|(p, _)| p))
        .output()
        .unwrap();
    let findings = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && findings.is_empty(), "shellcheck -S warning:\n{findings}");
}

#[test]
#[ignore = "needs Debian's shellcheck, which .ci/install-services installs; .ci/run runs it"]
fn the_stock_helpers_pass_shellcheck_at_every_level() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/plan/helpers");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sh"))
        .collect();
    files.sort();
    assert_eq!(files.len(), hanzo_env::plan::HELPERS.len(), "one file per helper: {files:?}");
    let out = shellcheck().args(["--shell=bash", "--severity=style", "--format=gcc"]).args(&files).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn the_plan_a_person_reviews_is_short_and_runs_through_bash_n() {
    let mut longest = (0, String::new());
    for dir in fixtures() {
        let (install, start) = draft(&dir);
        for plan in [&install, &start] {
            let script = hanzo_env::plan::block::expand(plan).unwrap();
            let syntax = Command::new("bash").args(["-n", "-c", &script]).output().unwrap();
            assert!(
                syntax.status.success(),
                "{}: {}\n{script}",
                dir.display(),
                String::from_utf8_lossy(&syntax.stderr)
            );
        }
        let lines = reviewed_lines(&install) + reviewed_lines(&start);
        if lines > longest.0 {
            longest = (lines, dir.display().to_string());
        }
    }
    assert!(longest.0 <= 40, "{} reads {} lines of install and start", longest.1, longest.0);
}
