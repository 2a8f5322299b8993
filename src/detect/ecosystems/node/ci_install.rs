//! What CI's own `npm install` line says about how the dependencies install: npm's flags for a
//! tree whose peer dependencies conflict (`npm install --legacy-peer-deps`), without which the
//! same install stops with ERESOLVE, and `--ignore-scripts`, without which lifecycle scripts CI
//! never runs do (mobx's `prepare` installs its website, whose image tools build from source).
//! They go with the draft's install.

use crate::detect::sources::Sources;
use crate::detect::sources::shell::commands;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;

/// npm's install flags that change how a conflicting tree resolves, or what the install runs.
const RESOLUTION_FLAGS: &[&str] = &["--legacy-peer-deps", "--force", "--ignore-scripts"];

/// `install` (the project's install in `dir`) with CI's resolution flags when it is npm's,
/// and CI's line as its evidence then; else as it is, with `evidence`.
pub fn with_ci_flags(
    sources: &Sources,
    dir: &RelPath,
    npm: bool,
    install: &str,
    evidence: Evidence,
) -> (String, Evidence) {
    match npm.then(|| npm_resolution_flags(sources, dir)).flatten() {
        Some((flags, source)) => (format!("{install} {}", flags.join(" ")), source),
        None => (install.to_string(), evidence),
    }
}

/// The resolution flags CI's `npm install`/`npm ci` in `dir` passes, with the line's evidence.
fn npm_resolution_flags(sources: &Sources, dir: &RelPath) -> Option<(Vec<&'static str>, Evidence)> {
    let lines = sources.workflows().jobs.iter().flat_map(|job| &job.lines);
    lines.filter(|line| !line.in_foreign_checkout && line.dir.as_str() == dir.as_str()).find_map(|line| {
        let flags: Vec<&'static str> = commands(&line.text)
            .iter()
            .filter(|words| {
                words.first().is_some_and(|w| w == "npm")
                    && words.get(1).is_some_and(|w| matches!(w.as_str(), "install" | "i" | "ci"))
                    && words.len() == 2 + words[2..].iter().filter(|w| w.starts_with('-')).count()
            })
            .flat_map(|words| RESOLUTION_FLAGS.iter().copied().filter(|flag| words.iter().any(|w| w == flag)))
            .collect();
        (!flags.is_empty()).then(|| (flags, line.source.clone()))
    })
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
    }
}
