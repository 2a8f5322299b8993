//! Which files the secret scan reads: by folder (the project's own code, not tests, fixtures,
//! CI or generated code) and by name (sources and settings files some ecosystem reads, not
//! release automation), configuration first.

use super::*;

/// Directories (any path component) whose code is tests' helpers, fixtures, generated or
/// packaging, beside test suites and CI's folders ([`is_test_suite_dir`], [`is_ci_dir`]). (`scripts/`
/// is scanned: builds run them, a translation script reads the key its template asks for; the
/// credentials CI and publishing use there, and those no env file asks for, stay out, see
/// [`scan_file`].)
const SKIPPED_CODE_DIRS: &[&str] = &[
    "testdata",
    "testutil",
    "testutils",
    "test-utils",
    "test_utils",
    "fixtures",
    "__fixtures__",
    "snapshots",
    "__snapshots__",
    "mocks",
    "__mocks__",
    "stubs",
    "benches",
    "benchmark",
    "benchmarks",
    "generated",
    "migrations",
    "revisions",
    "alembic",
    // A Chef Omnibus project builds the installers: its credentials sign and upload them.
    "omnibus",
];

/// Whether the folder `part` holds no code of the app's: tests, CI, fixtures, generated code.
pub(super) fn is_skipped_code_dir(part: &str) -> bool {
    is_test_suite_dir(part) || is_ci_dir(part) || SKIPPED_CODE_DIRS.iter().any(|s| part.eq_ignore_ascii_case(s))
}
/// Whether `rel` is scanned for environment reads: a source or settings file some ecosystem
/// reads, of the project's own, not tests, release automation or generated code.
#[cfg(test)]
pub(super) fn is_scanned_source(rel: &RelPath) -> bool {
    is_scanned_file(rel.parent(), rel.file_name()) && is_scanned_dir(rel.parent())
}

/// The half of [`is_scanned_source`] that looks at the file's name (this runs for every file
/// of the tree).
pub(super) fn is_scanned_file(dir: &str, name: &str) -> bool {
    let Some((stem, ext)) = name.rsplit_once('.') else { return false };
    if ecosystems::reading_env_in(dir, name).next().is_none() {
        return false;
    }
    // `get`, not indexing: a name may have multi-byte characters where the suffix would start.
    let ends_with = |suffix: &str| {
        stem.len()
            .checked_sub(suffix.len())
            .and_then(|at| stem.get(at..))
            .is_some_and(|end| end.eq_ignore_ascii_case(suffix))
    };
    // Release automation (`support/release.py`, `scripts/publish.ts`) and Gradle build scripts
    // (artifact signing and publishing) read their own credentials.
    if ecosystems::java::is_gradle_build_script(name) {
        return false;
    }
    let first_word = stem.split(['-', '_', '.']).next().unwrap_or_default();
    if ["release", "publish", "deploy"].iter().any(|w| first_word.eq_ignore_ascii_case(w)) {
        return false;
    }
    let is_test_file = [".test", ".spec", "_test", "_spec", ".test-d", ".e2e", ".stories"].iter().any(|s| ends_with(s))
        || stem.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("test_"))
        || TEST_FILE_WORDS.iter().any(|w| first_word.eq_ignore_ascii_case(w))
        || ecosystems::is_test_file_word(first_word)
        || is_load_test_dir(stem)
        || (stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("Spec")) && ext != "go";
    !is_test_file
}

/// The half of [`is_scanned_source`] that looks at the folder `dir`: the project's own, not
/// tests, fixtures, CI or generated code.
pub(super) fn is_scanned_dir(dir: &str) -> bool {
    // Distillery keeps a release's boot files (`vm.args.eex`) in `rel/templates/`: the app's
    // own, no scaffold.
    let dir = if dir == "rel/templates" || dir.ends_with("/rel/templates") {
        &dir[..dir.len() - "/templates".len()]
    } else {
        dir
    };
    is_own_dir(dir)
        && !is_examples_dir(dir)
        && !dir.split('/').any(|d| is_skipped_code_dir(d) || is_dotnet_test_project(d))
}

/// Whether `dir` is left out only for a documentation site's name (`website/`, Docusaurus's
/// folder in JavaScript projects) that is the app's code here: each such folder on its path is
/// a Python package (with `__init__.py`, as `dir` is: the app imports it) or a JavaScript
/// package of no site generator (`apps/website`, a deployed server of its own).
pub(super) fn is_a_package_named_like_docs(repo: &Repo, dir: &str) -> bool {
    const DOC_SITE_NAMES: &[&str] = &["website", "docs", "doc", "documentation"];
    let is_python_package = |dir: &str| RelPath::new(&format!("{dir}/__init__.py")).is_ok_and(|init| repo.exists(init));
    let mut named_like_docs = false;
    let mut all_python = true;
    let mut end = 0;
    for part in dir.split('/') {
        end += part.len();
        if !is_own_dir(part) {
            if !DOC_SITE_NAMES.iter().any(|name| part.eq_ignore_ascii_case(name)) {
                return false;
            }
            if !is_python_package(&dir[..end]) {
                if !ecosystems::node::is_app_package(repo, &dir[..end]) {
                    return false;
                }
                all_python = false;
            }
            named_like_docs = true;
        }
        end += 1;
    }
    named_like_docs
        && (!all_python || is_python_package(dir))
        && !is_examples_dir(dir)
        && !dir.split('/').any(|d| is_skipped_code_dir(d) || is_dotnet_test_project(d))
}

/// Configuration code first (`config/`, `settings.py`, `env.ts`, an ecosystem's settings file
/// such as `appsettings.json`; `in_config_dir` from [`is_config_dir`] of its folder), then
/// shallowest, then by path.
pub(super) fn scan_priority(dir: &str, name: &str, in_config_dir: bool) -> (u8, u16) {
    let stem = name.split('.').next().unwrap_or_default();
    let config = in_config_dir
        || is_config_name(stem)
        || names_a_settings_class(stem)
        || ecosystems::is_settings_file(dir, name);
    let depth = if dir.is_empty() { 0 } else { dir.matches('/').count() + 1 };
    // A path has at most 4096 bytes: its depth fits.
    (u8::from(!config), u16::try_from(depth).unwrap_or(u16::MAX))
}

/// Whether a file's stem names a class of settings, as typed configuration is named in every
/// language: .NET's options classes (`AuthOptions.cs`), `SmtpSettings`, `appConfig`,
/// `DatabaseConfiguration`. A tree with more sources than the scan reads keeps these first.
fn names_a_settings_class(stem: &str) -> bool {
    const SUFFIXES: &[&str] = &["options", "settings", "config", "configuration"];
    SUFFIXES.iter().any(|suffix| {
        stem.len() > suffix.len()
            && stem.get(stem.len() - suffix.len()..).is_some_and(|end| end.eq_ignore_ascii_case(suffix))
    })
}

/// Whether a folder of `dir` is named for configuration (`config/`, `settings/`).
pub(super) fn is_config_dir(dir: &str) -> bool {
    dir.split('/').any(is_config_name)
}

fn is_config_name(name: &str) -> bool {
    const CONFIG_NAMES: &[&str] =
        &["config", "configs", "conf", "settings", "env", "environment", "environments", "secrets"];
    CONFIG_NAMES.iter().any(|c| name.eq_ignore_ascii_case(c))
}
