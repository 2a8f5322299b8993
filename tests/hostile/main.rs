//! Hostile checkouts and hostile servers (issue 12): every attack runs the built binary under
//! an address-space cap (`ulimit -v`) and a timeout, so unbounded memory fails the test as an
//! abort and a hang as a kill; leaks are looked for by a marker in every output, file and
//! process. One test (or more) per item of the issue, named after it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::raw_server::{RawServer, Seen, http};
use common::{Run, Serve, dead_url, run, write};
use serde_json::Value;

#[path = "../common/mod.rs"]
mod common;

mod checkouts;
mod servers;
mod values;
mod verify;

/// The address space every run gets: far above what the tool needs, far below what any of
/// the attacks took (gigabytes).
const CAP_KIB: u64 = 1 << 20;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_hanzo-env")
}

/// The binary under the address-space cap and a timeout, with a cleared environment, a
/// temporary HOME and `dir` as the working directory.
fn capped(home: &Path, dir: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new("sh");
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .current_dir(dir)
        .arg("-c")
        .arg(format!("ulimit -v {CAP_KIB} && exec \"$0\" \"$@\""))
        .arg(bin())
        .args(args)
        .timeout(Duration::from_secs(90));
    cmd
}

/// [`run`], also timed.
fn timed(cmd: &mut assert_cmd::Command) -> (Run, Duration) {
    let started = Instant::now();
    let r = run(cmd);
    (r, started.elapsed())
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

fn symlink(target: &str, path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(target, path).unwrap();
}

fn warnings(r: &Run) -> Vec<String> {
    let json: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", r.stdout, r.stderr));
    json["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect()
}

/// The issue's reproducer: nine anchors, each nine aliases of the one before.
fn alias_bomb() -> String {
    let mut text = String::from("a0: &a0 [x,x,x,x,x,x,x,x,x]\n");
    for i in 1..=7 {
        text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![format!("*a{}", i - 1); 9].join(",")));
    }
    text + "services:\n  db:\n    image: postgres\n"
}

/// Raw terminal control bytes in `text`: ESC, BEL, CSI and the other C0/C1 controls but
/// line breaks and tabs.
fn control_bytes(text: &str) -> usize {
    text.chars().filter(|c| c.is_control() && !matches!(c, '\n' | '\t')).count()
}

/// One answer, then the connection closes, as a streaming server's do: said in the head so
/// that the client does not send its next request down a socket about to close (a reset).
fn answer_json(stream: &mut dyn Write, status: &str, body: &str) {
    let _ = stream.write_all(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
}

const SITE: &str =
    r#"{"repo":"site","install":"","start":"","secrets":["API_KEY"],"state":"ready","session":"","proposal":null}"#;
