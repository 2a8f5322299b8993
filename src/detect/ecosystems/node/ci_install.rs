//! What CI's own `npm install` line says about how the dependencies install: npm's flags for a
//! tree whose peer dependencies conflict (`npm install --legacy-peer-deps`), without which the
//! same install stops with ERESOLVE, and `--ignore-scripts`, without which lifecycle scripts CI
//! never runs do (mobx's `prepare` installs its website, whose image tools build from source).
//! They go with the draft's install.

use crate::detect::ecosystems;
use crate::detect::sources::Sources;
use crate::detect::sources::shell::commands;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;

/// npm's install flags that change how a conflicting tree resolves: whichever job passes them.
const RESOLUTION_FLAGS: &[&str] = &["--legacy-peer-deps", "--force"];
/// npm's install flags that change what the install runs: they say how the tests are
/// installed only when every test job's install passes them (a lint, audit or release job
/// skips scripts to be quick or safe).
const TEST_JOB_FLAGS: &[&str] = &["--ignore-scripts"];

/// `install` (the project's install in `dir`) with CI's flags when it is npm's, and CI's
/// line as its evidence then; else as it is, with `evidence`.
pub fn with_ci_flags(
    sources: &Sources,
    dir: &RelPath,
    npm: bool,
    install: &str,
    evidence: Evidence,
) -> (String, Evidence) {
    match npm.then(|| npm_flags(sources, dir)).flatten() {
        Some((flags, source)) => (format!("{install} {}", flags.join(" ")), source),
        None => (install.to_string(), evidence),
    }
}

/// The flags CI's `npm install`/`npm ci` in `dir` passes, with the line's evidence: a
/// resolution flag of any job's line, a test-job flag where every test job's line has it.
fn npm_flags(sources: &Sources, dir: &RelPath) -> Option<(Vec<&'static str>, Evidence)> {
    // Each job's npm install line in `dir`: whether the job runs tests, its words, its evidence.
    let installs: Vec<(bool, Vec<String>, &Evidence)> = sources
        .workflows()
        .jobs
        .iter()
        .filter_map(|job| {
            let tests = job.lines.iter().any(|line| ecosystems::is_test_command(&line.text));
            let mut lines =
                job.lines.iter().filter(|line| !line.in_foreign_checkout && line.dir.as_str() == dir.as_str());
            lines.find_map(|line| {
                let words = commands(&line.text).into_iter().find(|words| is_npm_install(words))?;
                Some((tests, words, &line.source))
            })
        })
        .collect();
    let has = |words: &[String], flag: &str| words.iter().any(|w| w == flag);
    let test_jobs: Vec<&(bool, Vec<String>, &Evidence)> = installs.iter().filter(|(tests, _, _)| *tests).collect();
    let every_test_job = |flag: &str| !test_jobs.is_empty() && test_jobs.iter().all(|(_, words, _)| has(words, flag));
    installs.iter().find_map(|(_, words, source)| {
        let flags: Vec<&'static str> = RESOLUTION_FLAGS
            .iter()
            .filter(|flag| has(words, flag))
            .chain(TEST_JOB_FLAGS.iter().filter(|flag| has(words, flag) && every_test_job(flag)))
            .copied()
            .collect();
        (!flags.is_empty()).then(|| (flags, (*source).clone()))
    })
}

/// `npm install`/`npm i`/`npm ci` with options only (no package named).
fn is_npm_install(words: &[String]) -> bool {
    words.first().is_some_and(|w| w == "npm")
        && words.get(1).is_some_and(|w| matches!(w.as_str(), "install" | "i" | "ci"))
        && words.len() == 2 + words[2..].iter().filter(|w| w.starts_with('-')).count()
}

#[cfg(test)]
mod tests {
    #[test]
    fn cis_npm_flags_go_with_the_install() {
        let workflow = "jobs:\n  build:\n    steps:\n      - run: npm ci --ignore-scripts\n      - run: npm test\n";
        let files = [
            ("package.json", r#"{"scripts": {"test": "jest", "prepare": "npm install --prefix website"}}"#),
            ("package-lock.json", "{\"lockfileVersion\": 3}"),
            (".github/workflows/ci.yml", workflow),
        ];
        let s = crate::detect::testing::detection(&files);
        assert!(s.install.contains("npm ci --ignore-scripts"), "{}", s.install);
        let plain =
            [files[0], files[1], (".github/workflows/ci.yml", "jobs:\n  build:\n    steps:\n      - run: npm ci\n")];
        let s = crate::detect::testing::detection(&plain);
        assert!(!s.install.contains("--ignore-scripts"), "{}", s.install);
        // A lint job's skipped scripts say nothing of how the tests install; nor one test job's
        // beside another that runs them.
        let lint = "jobs:\n  lint:\n    steps:\n      - run: npm ci --ignore-scripts\n      - run: npm run lint\n  test:\n    steps:\n      - run: npm ci\n      - run: npm test\n";
        let s = crate::detect::testing::detection(&[files[0], files[1], (".github/workflows/ci.yml", lint)]);
        assert!(!s.install.contains("--ignore-scripts"), "{}", s.install);
        let release = "jobs:\n  release:\n    steps:\n      - run: npm ci --ignore-scripts\n      - run: npm test\n  test:\n    steps:\n      - run: npm ci\n      - run: npm test\n";
        let s = crate::detect::testing::detection(&[files[0], files[1], (".github/workflows/ci.yml", release)]);
        assert!(!s.install.contains("--ignore-scripts"), "{}", s.install);
    }
}
