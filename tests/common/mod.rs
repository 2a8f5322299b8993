//! Helpers shared by the integration tests that run the binary.

use assert_cmd::Command;

/// What one run of the binary left behind.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `cmd` to the end; whatever its exit code, it must not have panicked.
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
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .current_dir(cwd);
    cmd
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

/// A running `hanzo-env serve` with its own data, key, token and logs.
#[allow(dead_code)] // each test crate compiles this module; not all use every helper
pub struct Serve {
    child: std::process::Child,
    pub url: String,
    pub token: String,
    pub dir: tempfile::TempDir,
}

#[allow(dead_code)]
impl Serve {
    pub fn start() -> Serve {
        let dir = tempfile::tempdir().unwrap();
        let token = format!("tok-{}", std::process::id());
        std::fs::write(dir.path().join("token"), format!("{token}\n")).unwrap();
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hanzo-env"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", dir.path())
            .arg("serve")
            .args(["--listen", "127.0.0.1:0", "--data"])
            .arg(dir.path().join("data"))
            .arg("--token-file")
            .arg(dir.path().join("token"))
            .stdin(std::process::Stdio::null())
            .stdout(std::fs::File::create(dir.path().join("serve.out")).unwrap())
            .stderr(std::fs::File::create(dir.path().join("serve.err")).unwrap())
            .spawn()
            .unwrap();
        // Owned (and so killed and reaped on drop) before anything can fail.
        let mut serve = Serve { child, url: String::new(), token, dir };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let out = std::fs::read_to_string(serve.dir.path().join("serve.out")).unwrap_or_default();
            if let Some(at) = out.find("http://127.0.0.1:") {
                serve.url = out[at..].chars().take_while(|c| !c.is_whitespace()).collect();
                return serve;
            }
            assert!(std::time::Instant::now() < deadline, "serve printed no URL: {out}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
