//! Cargo subcommands that are crates of their own (`cargo make`, `cargo nextest`): CI gets them
//! from an action (`davidB/rust-cargo-make`, `taiki-e/install-action`) or a `cargo install`, so
//! a test line of CI's that runs one needs it installed first; crates.io has each.

use crate::detect::findings::{Findings, Phase};
use crate::detect::sources::Sources;
use crate::detect::sources::shell;
use crate::detect::sources::workflows::JobKind;
use crate::evidence::Evidence;

/// The subcommands CI runs the suite with, each the crate `cargo-<name>`: cargo-make's tasks
/// when the task names tests (`cargo make test-default`), nextest always. Coverage and
/// feature-matrix tools (`cargo llvm-cov`, `cargo tarpaulin`, `cargo hack`) run other jobs
/// than the one a draft's test picks, and take minutes to build: not installed for them.
const TEST_SUBCOMMANDS: &[&str] = &["make", "nextest"];

/// The test subcommands CI's test jobs run, each once, with the first line that runs it.
pub fn used(sources: &Sources) -> Vec<(&'static str, Evidence)> {
    let mut found: Vec<(&'static str, Evidence)> = Vec::new();
    let test_jobs =
        sources.workflows().jobs.iter().filter(|job| !matches!(job.kind, JobKind::Github { release: true }));
    for line in test_jobs.flat_map(|job| &job.lines) {
        for words in shell::commands(&line.text) {
            let mut rest = words
                .iter()
                .map(String::as_str)
                .skip_while(|w| w.split_once('=').is_some_and(|(name, _)| shell::is_variable_name(name)));
            if rest.next() != Some("cargo") {
                continue;
            }
            // Past a toolchain (`+nightly`) and cargo's own flags (`cargo --locked nextest run`).
            let Some(sub) = rest.find(|w| !w.starts_with(['+', '-'])) else { continue };
            let runs_tests = sub != "make" || rest.next().is_some_and(|task| task.contains("test"));
            if let Some(tool) = TEST_SUBCOMMANDS.iter().find(|t| **t == sub)
                && runs_tests
                && !found.iter().any(|(t, _)| t == tool)
            {
                found.push((tool, line.source.clone()));
            }
        }
    }
    found
}

/// Install steps for the subcommands of [`used`], each skipped where it is on PATH already.
pub fn install(sources: &Sources, out: &mut Findings) {
    for (tool, source) in used(sources) {
        let command = format!("command -v cargo-{tool} >/dev/null 2>&1 || cargo install --locked cargo-{tool}");
        out.step_in("", Phase::Install, command, source);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn ci_test_lines_name_the_tools_to_install() {
        let workflow = "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: davidB/rust-cargo-make@v1\n      - run: cargo make test-default\n      - run: RUST_LOG=debug cargo +nightly --locked nextest run\n      - run: cargo make test-maths\n      - run: cargo build\n  coverage:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo tarpaulin --out xml\n";
        let release = "name: release\non: push\njobs:\n  publish:\n    steps:\n      - run: cargo make publish\n";
        let files = [
            (".github/workflows/ci.yml", workflow),
            (".github/workflows/release.yml", release),
            ("Cargo.toml", "[package]\nname = \"x\"\n"),
        ];
        let d = crate::detect::testing::detection(&files);
        let installs: Vec<&str> = d
            .install
            .lines()
            .filter(|line| line.contains("cargo install"))
            .filter_map(|line| line.split("  #").next())
            .collect();
        assert_eq!(
            installs,
            [
                "command -v cargo-make >/dev/null 2>&1 || cargo install --locked cargo-make",
                "command -v cargo-nextest >/dev/null 2>&1 || cargo install --locked cargo-nextest",
            ]
        );
    }
}
