//! Helpers shared by the integration tests that run the binary.

use assert_cmd::Command;

pub mod raw_server;

/// What one run of the binary left behind.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `cmd` to the end; whatever its exit code, it must not have panicked.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn run(cmd: &mut Command) -> Run {
    let out = cmd.output().unwrap();
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(!run.stderr.contains("panicked"), "panic: {}", run.stderr);
    run
}

/// The built binary with a cleared environment: PATH, a temporary HOME (kept alive by the
/// caller) and no colour, run from `cwd`.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn hanzo_env(home: &std::path::Path, cwd: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("hanzo-env").unwrap();
    // Temporary files (the logs a failed verify keeps) go with the test's home.
    let tmp = home.join(".tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("TMPDIR", tmp)
        .env("NO_COLOR", "1")
        .current_dir(cwd);
    cmd
}

/// [`hanzo_env`] run from `home` against the API at `api`, signed in with `token`.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn hanzo_api(home: &std::path::Path, api: &str, token: &str) -> Command {
    let mut cmd = hanzo_env(home, home);
    cmd.env("HANZO_BASE_URL", api).env("HANZO_API_KEY", token);
    cmd
}

/// Write `text` at `root/rel`, making the folders on the way.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn write(root: &std::path::Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// An `http://` address on loopback where nothing listens (a port just given back).
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn dead_url() -> String {
    let (listener, port) = free_port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// Copy the tree at `from` into `to` (created), files and folders only.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A fixture under tests/fixtures/.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn fixture(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel)
}

/// The built binary as a `std::process::Command` (to spawn it, or hand it to a
/// pseudo-terminal) with a cleared environment: PATH and `home` as HOME.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn process(home: &std::path::Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("hanzo-env"));
    cmd.env_clear().env("PATH", std::env::var_os("PATH").unwrap_or_default()).env("HOME", home);
    cmd
}

/// `hanzo-env serve` on a free loopback port (see [`process`]); the caller adds the rest of
/// the arguments.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn serve_command(home: &std::path::Path) -> std::process::Command {
    let mut cmd = process(home);
    cmd.args(["serve", "--listen", "127.0.0.1:0"]);
    cmd
}

/// A `serve` process, killed and reaped when dropped, and the URL it printed.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub struct ServeProcess {
    pub child: std::process::Child,
    pub url: String,
    pub err: std::path::PathBuf,
}

#[allow(dead_code)]
impl ServeProcess {
    /// Start `cmd` with stdout into `out` and stderr into `err`, and wait (20 s at most) for
    /// the URL it prints.
    pub fn spawn(cmd: &mut std::process::Command, out: std::path::PathBuf, err: std::path::PathBuf) -> ServeProcess {
        let child = cmd
            .stdin(std::process::Stdio::null())
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(&err).unwrap())
            .spawn()
            .unwrap();
        // Owned (and so killed and reaped on drop) before anything can fail.
        let mut serve = ServeProcess { child, url: String::new(), err };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let text = std::fs::read_to_string(&out).unwrap_or_default();
            if let Some(at) = text.find("http://127.0.0.1:") {
                serve.url = text[at..].chars().take_while(|c| !c.is_whitespace() && !matches!(c, '"' | ',')).collect();
                return serve;
            }
            assert!(std::time::Instant::now() < deadline, "serve printed no URL; stderr: {}", serve.stderr());
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.err).unwrap_or_default()
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running `hanzo-env serve` with its own data, key, token and logs.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub struct Serve {
    process: ServeProcess,
    pub url: String,
    pub token: String,
    pub dir: tempfile::TempDir,
}

#[allow(dead_code)]
impl Serve {
    pub fn start() -> Serve {
        let dir = tempfile::tempdir().unwrap();
        // Long enough for a server to accept without a warning (at least 16 characters).
        let token = format!("tok-{}-long-enough", std::process::id());
        std::fs::write(dir.path().join("token"), format!("{token}\n")).unwrap();
        let mut cmd = serve_command(dir.path());
        cmd.arg("--data").arg(dir.path().join("data")).arg("--token-file").arg(dir.path().join("token"));
        let process = ServeProcess::spawn(&mut cmd, dir.path().join("serve.out"), dir.path().join("serve.err"));
        Serve { url: process.url.clone(), process, token, dir }
    }
}

/// Say that a test could not run on this machine, and why. Under `CI` that fails the test
/// (CI runs everything: a skip there would read as a pass); elsewhere it is printed and the
/// caller returns. Tests that need what a developer's machine rarely has are `#[ignore]`d
/// with their reason instead, and `.ci/run` runs them.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn cannot_run_here(reason: &str) {
    assert!(std::env::var_os("CI").is_none_or(|v| v.is_empty()), "cannot run here, and CI must run it: {reason}");
    eprintln!("NOT RUN: {reason}");
}

/// A listener on a free loopback port, chosen by the system: tests never assume a port is free.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn free_port() -> (std::net::TcpListener, u16) {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    (listener, port)
}

/// `text` read as JSON with comments, the format of `devcontainer.json`: comments and trailing
/// commas allowed (the dev container spec allows them), nothing else a loose reader takes.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn jsonc(text: &str) -> serde_json::Value {
    let options = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    jsonc_parser::parse_to_serde_value(text, &options).unwrap_or_else(|e| panic!("not JSONC ({e}):\n{text}"))
}

/// `detect MODE DIR` with a temporary HOME, which must succeed.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub fn run_detect(dir: &std::path::Path, mode: &str) -> Run {
    let home = tempfile::tempdir().expect("temp HOME");
    let run = run(hanzo_env(home.path(), home.path()).args(["detect", mode]).arg(dir));
    assert_eq!(run.code, 0, "detect {mode} {} failed: {}", dir.display(), run.stderr);
    run
}
