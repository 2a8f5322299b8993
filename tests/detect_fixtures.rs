//! Every fixture under `tests/fixtures/detect/*/`, run as a user would (the built binary, a
//! temporary HOME, a cleared environment): one snapshot each of what `detect --stdout` shows
//! (the proposal file, then any warnings), and one test that `detect --json` keeps its
//! contract on all of them and says what the file says. Adding a fixture is adding a
//! directory; new snapshots are accepted with `cargo insta review` (or `INSTA_UPDATE=always`).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hanzo_env::proposal::Proposal;
use serde::Deserialize;

fn fixtures_dir() -> PathBuf {
    common::fixture("detect")
}

/// Every fixture directory, sorted.
fn fixtures() -> Vec<(String, PathBuf)> {
    let mut dirs: Vec<(String, PathBuf)> = std::fs::read_dir(fixtures_dir())
        .expect("tests/fixtures/detect")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .map(|p| (p.file_name().and_then(|n| n.to_str()).expect("UTF-8 fixture name").to_string(), p))
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no fixtures under {}", fixtures_dir().display());
    dirs
}

use common::run_detect;

fn detect(dir: &Path, mode: &str) -> String {
    run_detect(dir, mode).stdout
}

/// Run `check` on every fixture, even when one fails, so a change shows all it affects.
fn on_every_fixture(what: &str, check: impl Fn(&Path, &str) + std::panic::RefUnwindSafe) {
    let failed: Vec<String> = fixtures()
        .into_iter()
        .filter(|(name, dir)| std::panic::catch_unwind(|| check(dir, name)).is_err())
        .map(|(name, _)| name)
        .collect();
    assert!(failed.is_empty(), "fixtures whose {what}: {failed:?}");
}

#[test]
fn every_fixture_matches_its_snapshot() {
    on_every_fixture("output changed", |dir, name| {
        let run = run_detect(dir, "--stdout");
        Proposal::parse(&run.stdout)
            .unwrap_or_else(|e| panic!("{name}: the TOML detect writes does not parse: {e}\n{}", run.stdout));
        // The file, then the warnings (stderr) when there are any: both are what detect says.
        let toml_text = match run.stderr.is_empty() {
            true => run.stdout,
            false => format!("{}\n--- stderr ---\n{}", run.stdout, run.stderr),
        };
        let root = dir.display().to_string();
        insta::with_settings!({
            snapshot_path => "snapshots/detect",
            prepend_module_to_snapshot => false,
            filters => vec![(regex::escape(&root).as_str(), "[FIXTURE]")],
        }, {
            insta::assert_snapshot!(format!("{name}.toml"), toml_text);
        });
    });
}

// The `detect --json` contract: every key, its type, whether it may be absent or null.
// Unknown keys are refused, so a new field is a deliberate change here.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read by serde: a field's presence and type are the check
struct DetectJson {
    repo: String,
    install: String,
    start: String,
    secrets: Vec<String>,
    secret_details: Vec<SecretDetailJson>,
    note: String,
    toolchains: Vec<ToolchainJson>,
    package_managers: Vec<PackageManagerJson>,
    services: Vec<ServiceJson>,
    optional_services: Vec<ServiceJson>,
    tests: Vec<TestJson>,
    warnings: Vec<String>,
}

/// The top-level keys in the order printed: part of the contract.
const DETECT_JSON_KEYS: [&str; 12] = [
    "repo",
    "install",
    "start",
    "secrets",
    "secret_details",
    "note",
    "toolchains",
    "package_managers",
    "services",
    "optional_services",
    "tests",
    "warnings",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SecretDetailJson {
    name: String,
    required: bool,
    source: String,
    why: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ToolchainJson {
    name: String,
    version: Option<String>,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct PackageManagerJson {
    name: String,
    version: Option<String>,
    /// The project's folder, relative to the checkout (`.` at its root).
    path: String,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ServiceJson {
    name: String,
    image: Option<String>,
    source: String,
    /// Absent when empty.
    #[serde(default)]
    ports: Vec<String>,
    /// Absent when empty.
    #[serde(default)]
    env: BTreeMap<String, String>,
    /// The distribution package that runs it without Docker; absent when there is none.
    package: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct TestJson {
    command: String,
    source: String,
    /// Absent unless true.
    #[serde(default)]
    primary: bool,
}

#[test]
fn detect_json_keeps_its_contract_and_says_what_the_file_says() {
    on_every_fixture("JSON breaks its contract", |dir, name| {
        let text = detect(dir, "--json");
        let value: serde_json::Value = serde_json::from_str(&text).expect("--json prints JSON");
        // Printed with two spaces of indent a level: the top-level keys in the order printed.
        let keys: Vec<&str> =
            text.lines().filter_map(|line| line.strip_prefix("  \"")?.split_once("\":").map(|(key, _)| key)).collect();
        assert_eq!(keys, DETECT_JSON_KEYS, "{name}: the keys or their order");
        // What may be absent is written only when there is something to say.
        let optional = ["ports", "env", "package"].map(|key| ("optional_services", key));
        let lists = [("services", "ports"), ("services", "env"), ("services", "package"), ("tests", "primary")];
        for (list, key) in lists.into_iter().chain(optional) {
            for item in value[list].as_array().into_iter().flatten() {
                let written = &item[key];
                let empty = written.is_null()
                    || written == false
                    || written.as_array().is_some_and(Vec::is_empty)
                    || written.as_object().is_some_and(serde_json::Map::is_empty);
                assert!(item.get(key).is_none() || !empty, "{name}: {list}[].{key} is written empty: {item}");
            }
        }
        let json: DetectJson = serde_json::from_value(value).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(json.secrets, json.secret_details.iter().map(|d| d.name.clone()).collect::<Vec<_>>(), "{name}");
        // The file (`--stdout`) and `--json` are one detection.
        let file = Proposal::parse(&detect(dir, "--stdout")).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.repo.as_deref(), Some(json.repo.as_str()), "{name}: repo");
        assert_eq!(file.install, json.install, "{name}: install");
        assert_eq!(file.start, json.start, "{name}: start");
        assert_eq!(file.note, json.note, "{name}: note");
        assert_eq!(file.secrets, json.secrets, "{name}: secrets");
        let optional: Vec<String> =
            json.secret_details.iter().filter(|d| !d.required).map(|d| d.name.clone()).collect();
        assert_eq!(file.optional_secrets, optional, "{name}: optional secrets");
    });
}

/// The services `detect` names, three ways: `--json`'s `services`, the summary it prints
/// when it writes the file, and what `start` brings up. Each says the same, on every
/// fixture (a JSON `services: []` beside a start running `docker compose … up -d db` was
/// a report of issue 26).
#[test]
fn services_in_json_the_summary_and_start_agree() {
    on_every_fixture("services disagree", |dir, name| {
        let json: serde_json::Value = serde_json::from_str(&detect(dir, "--json")).expect("detect --json is JSON");
        let rows = |key: &str| {
            let mut rows: Vec<(String, String)> = json[key]
                .as_array()
                .unwrap_or_else(|| panic!("{key} is a list"))
                .iter()
                .map(|s| (s["name"].as_str().unwrap().to_string(), s["source"].as_str().unwrap().to_string()))
                .collect();
            rows.sort();
            rows
        };
        let (listed, optional) = (rows("services"), rows("optional_services"));
        assert!(
            optional.iter().all(|(o, _)| !listed.iter().any(|(n, _)| n == o)),
            "{name}: a service is both the primary test's and optional: {listed:?} {optional:?}"
        );
        // The summary of a written file: a copy of the fixture, as detect writes into it.
        let copy = tempfile::tempdir().expect("temp dir");
        common::copy_tree(dir, copy.path());
        let written = run_detect(copy.path(), "--force");
        let mut summary: Vec<(String, String)> = Vec::new();
        let mut summary_optional: Vec<(String, String)> = Vec::new();
        for row in written.stderr.lines().filter_map(|line| line.trim_start().strip_prefix("service ")) {
            let (name, source) = row.trim().split_once("  (").expect("service  NAME  (SOURCE)");
            let source = source.trim_end_matches(')').to_string();
            match name.trim().strip_suffix(" (optional)") {
                Some(name) => summary_optional.push((name.to_string(), source)),
                None => summary.push((name.trim().to_string(), source)),
            }
        }
        summary.sort();
        summary_optional.sort();
        assert_eq!(summary, listed, "{name}: the summary's services are not --json's");
        assert_eq!(summary_optional, optional, "{name}: the summary's optional services are not --json's");
        // What start brings up is listed: a start of services only beside listed services,
        // and every service a start line cites (or, Docker-only, names) is one of them, never
        // an optional one. Services only a configuration names (`config/database.yml`) are
        // listed without a start: nothing in the repository says how to start them.
        let start = json["start"].as_str().unwrap_or_default();
        let starts_services =
            ["docker compose", "hanzo_compose", "docker run", "hanzo_service "].iter().any(|word| start.contains(word));
        assert!(!starts_services || !listed.is_empty(), "{name}: start is {start:?} but --json lists no services");
        // And the converse for CI's service containers: a listed one is started.
        let from_ci = listed.iter().find(|(_, source)| source.starts_with(".github/workflows/"));
        assert!(
            from_ci.is_none() || starts_services,
            "{name}: --json lists CI's service {from_ci:?} but start brings up nothing: {start:?}"
        );
        for line in start.lines().filter(|l| l.trim_start().starts_with("hanzo_service ")) {
            let listed_here = match line.rsplit_once("  # ") {
                Some((_, cited)) => cited.split(", ").all(|source| listed.iter().any(|(_, s)| s == source)),
                None => line.split_whitespace().nth(1).is_some_and(|product| listed.iter().any(|(n, _)| n == product)),
            };
            assert!(listed_here, "{name}: start line {line:?} brings up a service --json does not list: {listed:?}");
        }
        // The note names the optional ones as such.
        let note = json["note"].as_str().unwrap_or_default();
        for (service, _) in &optional {
            let said = note.split("optional services (verify --all-tests starts them): ").nth(1);
            assert!(
                said.is_some_and(|list| list.contains(service.as_str())),
                "{name}: the note misses optional {service}"
            );
        }
    });
}

/// The names of a `--json` list of services.
fn service_names(json: &serde_json::Value, key: &str) -> Vec<String> {
    json[key].as_array().into_iter().flatten().filter_map(|s| s["name"].as_str().map(String::from)).collect()
}

#[test]
fn start_brings_up_only_what_the_primary_tests_job_uses() {
    let of = |name: &str| -> serde_json::Value {
        serde_json::from_str(&detect(&fixtures_dir().join(name), "--json")).expect("--json prints JSON")
    };
    // The unit job's own service containers: the root compose file's mysql and redis; its
    // memcached and the per-database jobs' servers are optional.
    let json = of("services-of-the-primary-job");
    assert_eq!(service_names(&json, "services"), ["mysql", "redis"]);
    assert_eq!(service_names(&json, "optional_services"), ["memcached", "postgres", "mssql"]);
    assert!(json["start"].as_str().unwrap().contains("up -d mysql redis\n"), "{}", json["start"]);
    // `cargo test`'s job brings up nothing: the e2e suite's servers are the e2e job's.
    let json = of("e2e-services-apart");
    assert_eq!(json["start"], "");
    assert!(service_names(&json, "services").is_empty());
    assert_eq!(service_names(&json, "optional_services"), ["postgres", "mailpit", "keycloak"]);
}

#[test]
fn the_primary_test_is_the_main_ecosystems() {
    // More Python than TypeScript: the backend job's pytest, not the front end's pnpm test.
    let json: serde_json::Value =
        serde_json::from_str(&detect(&fixtures_dir().join("python-backend-js-frontend"), "--json")).expect("JSON");
    let primary = &json["tests"][0];
    assert_eq!(primary["primary"], true);
    assert_eq!(primary["source"], ".github/workflows/backend.yml#jobs.test.steps[3]", "{json:#}");
}
