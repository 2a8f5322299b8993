//! What a folder is for, by its name in any letter case: a test suite's (unit, end-to-end and
//! load tests alike) or CI's. What such a folder holds configures the tests or the CI run —
//! the users a browser test signs in as, the load a k6 script sends — never the app.

/// Folders of test suites and of the browser-test tools' projects; `qa` holds a QA team's
/// scenarios and the data they load.
const TEST_SUITE_DIRS: &[&str] =
    &["test", "tests", "__tests__", "spec", "specs", "e2e", "integration", "testing", "qa", "playwright", "cypress"];

/// Folders of load- and stress-test harnesses named for their tool: k6 scripts, a locustfile
/// and its `locustfiles/`, Artillery scenarios, Gatling simulations, JMeter plans, Vegeta
/// targets.
const LOAD_TEST_TOOLS: &[&str] = &["k6", "locust", "locustfiles", "artillery", "gatling", "jmeter", "vegeta"];

/// The first word of a load-test folder named for what it does (`load-tests`, `stress_test`,
/// `perf-tests`, `soak-testing`; glued: `loadtest`, `stresstests`); `stress` alone too.
const LOAD_TEST_KINDS: &[&str] = &["load", "stress", "perf", "performance", "soak", "spike"];

/// Folders of CI's own files: what CI runs with (an env file there sets up the CI run).
const CI_DIRS: &[&str] = &[".github", ".circleci", ".gitlab", ".buildkite", ".ci", "ci"];

/// Whether the folder `part` (one component of a path) holds a test suite, load tests
/// included.
pub fn is_test_suite_dir(part: &str) -> bool {
    TEST_SUITE_DIRS.iter().chain(LOAD_TEST_TOOLS).any(|d| part.eq_ignore_ascii_case(d))
        || is_load_test_dir(part)
        || is_named_suite_dir(part)
        || is_test_source_set(part)
}

/// The first word of a folder named for the kind of suite it holds (`acceptance_tests`,
/// `integration-tests`, `functional_test`, `smoke-tests`).
const SUITE_KINDS: &[&str] =
    &["acceptance", "integration", "functional", "e2e", "smoke", "system", "regression", "contract", "api", "ui"];

/// Whether `part` is a folder named `<kind>_tests`/`<kind>-tests` for a kind of suite.
fn is_named_suite_dir(part: &str) -> bool {
    let lower = part.to_ascii_lowercase();
    let Some((kind, test)) = lower.split_once(['-', '_']) else { return false };
    SUITE_KINDS.contains(&kind) && matches!(test, "test" | "tests")
}

/// A Gradle or Maven test source set named for its suite in camel case (`src/integrationTest`,
/// `src/contractTest`, `src/functionalTests`): its resources configure that suite.
fn is_test_source_set(part: &str) -> bool {
    let Some(stem) = part.strip_suffix("Tests").or_else(|| part.strip_suffix("Test")) else { return false };
    stem.len() > 1
        && stem.starts_with(|c: char| c.is_ascii_lowercase())
        && stem.ends_with(|c: char| c.is_ascii_lowercase())
}

/// Whether `part` (a folder, or a file's name without its extension: `load-test.js`,
/// `stresstest.py`) names a load- or stress-test harness by what it does.
pub fn is_load_test_dir(part: &str) -> bool {
    let lower = part.to_ascii_lowercase();
    if lower == "stress" {
        return true;
    }
    let words: Vec<&str> = lower.split(['-', '_', '.']).filter(|w| !w.is_empty()).collect();
    let is_kind = |w: &str| LOAD_TEST_KINDS.contains(&w);
    let is_test = |w: &str| matches!(w, "test" | "tests" | "testing");
    match words.as_slice() {
        [kind, test] => is_kind(kind) && is_test(test),
        [glued] => LOAD_TEST_KINDS.iter().any(|kind| glued.strip_prefix(kind).is_some_and(is_test)),
        _ => false,
    }
}

/// Whether the folder `part` holds CI's files.
pub fn is_ci_dir(part: &str) -> bool {
    CI_DIRS.iter().any(|d| part.eq_ignore_ascii_case(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_test_harnesses_are_test_suites() {
        for part in [
            "tests",
            "E2E",
            "qa",
            "k6",
            "locust",
            "locustfiles",
            "Gatling",
            "load-test",
            "load-tests",
            "load_tests",
            "loadtest",
            "loadtests",
            "LoadTesting",
            "stress",
            "stress-test",
            "stresstests",
            "perf-tests",
            "soak_test",
            "integrationTest",
            "contractTest",
            "functionalTests",
            "acceptance_tests",
            "integration-tests",
            "Smoke_Test",
        ] {
            assert!(is_test_suite_dir(part), "{part}");
        }
        for part in [
            "ContractTest",
            "aTest",
            "latest",
            "src",
            "loader",
            "load",
            "perf",
            "payload",
            "stresser",
            "performance",
            "download-tests-data",
            "acceptance",
            "unit-tests-data",
            "tests_api",
        ] {
            assert!(!is_test_suite_dir(part), "{part}");
        }
    }

    #[test]
    fn ci_folders() {
        for part in [".github", ".circleci", ".gitlab", ".buildkite", ".ci", "ci", "CI"] {
            assert!(is_ci_dir(part), "{part}");
        }
        for part in ["github", "circle", ".gitlab-ci.yml", "cicd-app"] {
            assert!(!is_ci_dir(part), "{part}");
        }
    }
}
