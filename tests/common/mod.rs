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
