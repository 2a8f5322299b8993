//! The package scripts the draft runs: the test script, and before it the build when the test
//! script runs what the build writes (`"test": "node index.test.js"` with `index.test.js`
//! compiled from `src/index.test.ts` by `"build": "tsc"`). CI runs the build first, often in a
//! shared workflow the checkout does not hold; without it the suite cannot start.

use serde_json::Value;

use super::Pm;
use crate::detect::findings::{Findings, Kind, Phase};
use crate::detect::repo::Repo;
use crate::detect::sources::shell::{commands, in_dir, join_path};
use crate::evidence::Evidence;
use crate::rel_path::RelPath;

/// The command that runs package script `script` with `pm`.
fn run_script(pm: Pm, script: &str) -> String {
    match (pm, script) {
        (Pm::Npm, "test") => "npm test".to_string(),
        (Pm::Npm, _) => format!("npm run {script}"),
        // `bun test` is Bun's own runner, not the script.
        (Pm::Bun, _) => format!("bun run {script}"),
        (_, "test") => format!("{} test", pm.name()),
        (_, _) => format!("{} run {script}", pm.name()),
    }
}

/// After the install, the `build` script when the `test` script runs a file with Node that
/// is not in the checkout (the build writes it) and does not build first itself.
pub(super) fn build_first(
    repo: &Repo,
    manifest: &Value,
    manifest_path: &RelPath,
    dir: &RelPath,
    pm: Pm,
    out: &mut Findings,
) {
    let Some(scripts) = manifest.get("scripts").and_then(Value::as_object) else { return };
    let (Some(test), Some(_)) = (scripts.get("test").and_then(Value::as_str), scripts.get("build")) else { return };
    // The test script that builds first itself (`npm run build && node x.test.js`, `tsc && …`).
    let builds_itself = commands(test).iter().any(|words| {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        matches!(words.as_slice(), [_, "run", "build", ..] | [_, "build", ..] | ["tsc", ..])
    });
    if builds_itself {
        return;
    }
    let runs_missing_file = commands(test).iter().any(|words| {
        let Some(("node", args)) = words.split_first().map(|(program, args)| (program.as_str(), args)) else {
            return false;
        };
        let script = args.iter().find(|arg| !arg.starts_with('-'));
        script.is_some_and(|script| {
            [".js", ".mjs", ".cjs"].iter().any(|ext| script.ends_with(ext))
                && join_path(dir, script).is_some_and(|path| !repo.exists(&path))
        })
    });
    if runs_missing_file {
        let evidence = Evidence::key(manifest_path, "scripts.build").of(Kind::Task);
        out.step_in(dir, Phase::Install, run_script(pm, "build"), evidence);
    }
}

/// The test command: the `test` script (unless it is npm's placeholder), else the first
/// `test:*`/`test-*` script.
pub(super) fn tests(manifest: &Value, manifest_path: &RelPath, dir: &RelPath, pm: Pm, out: &mut Findings) {
    let Some(scripts) = manifest.get("scripts").and_then(Value::as_object) else { return };
    let placeholder = |body: &str| body.contains("no test specified");
    let chosen = match scripts.get("test").and_then(Value::as_str) {
        Some(body) if !placeholder(body) => Some("test"),
        _ => scripts
            .iter()
            .find(|(name, body)| {
                (name.starts_with("test:") || name.starts_with("test-"))
                    && body.as_str().is_some_and(|b| !placeholder(b))
            })
            .map(|(name, _)| name.as_str()),
    };
    let Some(script) = chosen else { return };
    let command = run_script(pm, script);
    let body = scripts.get(script).and_then(Value::as_str).unwrap_or_default();
    let command = if watches_unless_ci(body) { format!("CI=true {command}") } else { command };
    out.test(in_dir(dir, &command), Evidence::key(manifest_path, format!("scripts.{script}")).of(Kind::Task));
}

/// Whether a package script starts a runner that watches for changes unless `CI` is set:
/// Create React App's `react-scripts test` (and craco's), or a bare `vitest` in a terminal.
/// An agent's shell may be one; the run would never end.
pub(super) fn watches_unless_ci(script: &str) -> bool {
    script.split("&&").any(|part| {
        let words: Vec<&str> = part.split_whitespace().collect();
        let once =
            words.iter().any(|w| matches!(*w, "run" | "--run" | "--watch=false" | "--watchAll=false" | "--no-watch"));
        let watcher =
            words.windows(2).any(|w| matches!(w[0], "react-scripts" | "craco" | "rescripts") && w[1] == "test")
                || words.first() == Some(&"vitest");
        watcher && !once
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::ecosystems::node::Node;
    use crate::detect::testing::scan;

    #[test]
    fn a_test_script_that_runs_the_build_s_output_builds_first() {
        let manifest = r#"{"name": "w", "scripts": {"build": "tsc", "test": "node index.test.js"}}"#;
        let s = scan(&Node, &[("package.json", manifest), ("package-lock.json", "{}"), ("src/index.test.ts", "")]);
        let steps = s.steps();
        let (install, build) =
            (steps.iter().position(|c| *c == "npm ci"), steps.iter().position(|c| *c == "npm run build"));
        assert!(install.is_some() && build > install, "{steps:?}");
        assert_eq!(s.tests(), ["npm test"]);
        // The file is in the checkout, or the test script builds itself: no build step.
        let here = scan(&Node, &[("package.json", manifest), ("package-lock.json", "{}"), ("index.test.js", "")]);
        assert!(!here.steps().contains(&"npm run build"), "{:?}", here.steps());
        // A test of the build's output folder still needs the build.
        let out = manifest.replace("node index.test.js", "node build/index.test.js");
        let out = scan(&Node, &[("package.json", &out), ("package-lock.json", "{}")]);
        assert!(out.steps().contains(&"npm run build"), "{:?}", out.steps());
        let own = manifest.replace("node index.test.js", "npm run build && node index.test.js");
        let own = scan(&Node, &[("package.json", &own), ("package-lock.json", "{}")]);
        assert!(!own.steps().contains(&"npm run build"), "{:?}", own.steps());
    }

    #[test]
    fn runners_that_watch_outside_ci() {
        assert!(watches_unless_ci("react-scripts test"));
        assert!(watches_unless_ci("npm run build && vitest"));
        assert!(!watches_unless_ci("react-scripts test --watchAll=false"));
        assert!(!watches_unless_ci("vitest run"));
        assert!(!watches_unless_ci("vitest --run"));
        assert!(!watches_unless_ci("jest"));
    }
}
