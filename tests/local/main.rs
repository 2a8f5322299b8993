//! Local runs under the env contract (DESIGN.md §7): `run`, `env-file` and `verify`, through
//! the built binary with a temporary HOME, TMPDIR and a cleared environment.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use expectrl::{Eof, Expect, Session};

#[path = "../common/mod.rs"]
mod common;

mod env_file;
mod run;
mod verify;

const BIN: &str = env!("CARGO_BIN_EXE_hanzo-env");

/// A temporary checkout (with `.hanzo/environment.toml`), HOME and TMPDIR.
struct Sandbox {
    _dir: tempfile::TempDir,
    repo: PathBuf,
    home: PathBuf,
    tmp: PathBuf,
}

impl Sandbox {
    fn new(toml: &str) -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let home = dir.path().join("home");
        let tmp = dir.path().join("tmp");
        for d in [&repo, &home, &tmp] {
            std::fs::create_dir_all(d).unwrap();
        }
        let sandbox = Sandbox { _dir: dir, repo, home, tmp };
        sandbox.write_proposal(toml);
        sandbox
    }

    /// A copy of `tests/fixtures/verify/<name>`.
    fn fixture(name: &str) -> Sandbox {
        let sandbox = Sandbox::new("");
        common::copy_tree(&common::fixture(&format!("verify/{name}")), &sandbox.repo);
        sandbox
    }

    fn write_proposal(&self, toml: &str) {
        std::fs::create_dir_all(self.repo.join(".hanzo")).unwrap();
        std::fs::write(self.repo.join(".hanzo/environment.toml"), toml).unwrap();
    }

    fn cmd(&self) -> Command {
        let mut cmd = common::process(&self.home);
        cmd.env("TMPDIR", &self.tmp).current_dir(&self.repo);
        cmd
    }

    fn output(&self, args: &[&str], vars: &[(&str, &str)]) -> Output {
        let mut cmd = self.cmd();
        cmd.args(args);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::null()).output().unwrap()
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every process whose argv holds `needle`, read from /proc.
fn processes_with_argv_containing(needle: &[u8]) -> Vec<String> {
    let mut hits = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        if cmdline.windows(needle.len()).any(|w| w == needle) {
            hits.push(format!("{}: {}", entry.file_name().to_string_lossy(), text(&cmdline).replace('\0', " ")));
        }
    }
    hits
}

/// Every process whose working directory is inside `dir` (a step's processes start in the
/// scratch copy; this finds them whatever their argv, and only this run's).
fn processes_inside(dir: &Path) -> Vec<String> {
    let mut hits = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cwd) = std::fs::read_link(entry.path().join("cwd")) else { continue };
        if cwd.starts_with(dir) {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            hits.push(format!("{}: {}", entry.file_name().to_string_lossy(), text(&cmdline).replace('\0', " ")));
        }
    }
    hits
}

fn scratch_of(json: &serde_json::Value) -> PathBuf {
    PathBuf::from(json["scratch"].as_str().expect("the report names its scratch directory"))
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let until = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A value no process would hold by chance, built at run time so it appears in no source.
fn distinctive(tag: &str) -> String {
    format!("{tag}-{}-{}-value", std::process::id(), Instant::now().elapsed().as_nanos() ^ 0x5eed)
}

/// Sends `signal` to a child of this test.
fn unsafe_kill(pid: u32, signal: libc::c_int) {
    // SAFETY: plain kill(2) on a child of this test.
    unsafe {
        libc::kill(pid as libc::pid_t, signal);
    }
}
