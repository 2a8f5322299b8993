//! Snapshot every fixture under `tests/fixtures/detect/*/`: `detect --json` and `detect --stdout`,
//! run as a user would (the built binary, a temporary HOME, a cleared environment).
//! Adding a fixture is adding a directory; new snapshots are accepted with `cargo insta review`
//! (or `INSTA_UPDATE=always`).

mod common;

use std::path::{Path, PathBuf};

fn fixtures_dir() -> PathBuf {
    common::fixture("detect")
}

fn detect(dir: &Path, mode: &str) -> String {
    let home = tempfile::tempdir().expect("temp HOME");
    let run = common::run(common::hanzo_env(home.path(), home.path()).args(["detect", mode]).arg(dir));
    assert_eq!(run.code, 0, "detect {mode} {} failed: {}", dir.display(), run.stderr);
    run.stdout
}

#[test]
fn every_fixture_matches_its_snapshots() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("tests/fixtures/detect")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no fixtures under {}", fixtures_dir().display());
    // Every fixture is checked even when one differs, so a change shows all it affects.
    let mut failed: Vec<String> = Vec::new();
    for dir in dirs {
        let name = dir.file_name().and_then(|n| n.to_str()).expect("UTF-8 fixture name").to_string();
        if std::panic::catch_unwind(|| check_fixture(&dir, &name)).is_err() {
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "fixtures whose output changed: {failed:?}");
}

fn check_fixture(dir: &Path, name: &str) {
    let root = dir.display().to_string();
    // Snapshotted as printed: the key order is part of the contract.
    let json_text = detect(dir, "--json");
    serde_json::from_str::<serde_json::Value>(&json_text).expect("--json prints JSON");
    let toml_text = detect(dir, "--stdout");
    hanzo_env::proposal::Proposal::parse(&toml_text)
        .unwrap_or_else(|e| panic!("{name}: the TOML detect writes does not parse: {e}\n{toml_text}"));
    insta::with_settings!({
        snapshot_path => "snapshots/detect",
        prepend_module_to_snapshot => false,
        filters => vec![(regex::escape(&root).as_str(), "[FIXTURE]")],
    }, {
        insta::assert_snapshot!(format!("{name}.json"), json_text);
        insta::assert_snapshot!(format!("{name}.toml"), toml_text);
    });
}

/// The secret names and required ones of a fixture, from `detect --json`.
fn secrets_of(name: &str) -> (Vec<String>, Vec<String>) {
    let json: serde_json::Value =
        serde_json::from_str(&detect(&fixtures_dir().join(name), "--json")).expect("--json prints JSON");
    let names = json["secrets"].as_array().expect("secrets").iter().filter_map(|s| s.as_str().map(String::from));
    let required = json["secret_details"]
        .as_array()
        .expect("secret_details")
        .iter()
        .filter(|d| d["required"].as_bool() == Some(true))
        .filter_map(|d| d["name"].as_str().map(String::from));
    (names.collect(), required.collect())
}

/// Each class of secret evidence (issue 25): the names that must be proposed, the ones that
/// must be required, and the ones that must not appear at all.
#[test]
fn secret_classes_keep_credentials_and_leave_out_settings() {
    // (fixture, names that must be proposed, names that must be required, names that must not appear)
    type Case<'a> = (&'a str, &'a [&'a str], &'a [&'a str], &'a [&'a str]);
    let cases: &[Case] = &[
        // CI's secret store is no evidence by itself and never makes a name required.
        (
            "secrets-ci-not-required",
            &["DATABASE_URL", "STRIPE_SECRET_KEY"],
            &["DATABASE_URL"],
            &[
                "DEFAULT_LLM_MODELS",
                "BEDROCK_REGION",
                "GOOGLE_CLIENT_ID",
                "ENABLE_BETA_INBOX",
                "E2E_TEST_EMAIL",
                "SAUCE_ACCESS_KEY",
            ],
        ),
        // A value typed or exemplified as a flag, number, duration, list or schedule is a setting.
        (
            "secrets-typed-settings",
            &["API_TOKEN", "SESSION_SECRET", "JWT_SECRET", "WEBHOOK_SECRET"],
            &["JWT_SECRET"],
            &[
                "LIVE_DELETE_TOKEN_AFTER",
                "RESET_PASSWORD_WITHIN",
                "AUTOSPAM_IGNORED_TOKENS",
                "SESSION_TOKEN_ROTATION",
                "PROXY_AUTH",
                "EMAIL_TOKEN_DIGITS",
                "MAX_TOKENS",
                "REFRESH_TOKEN",
            ],
        ),
        // The env files of a test suite configure the suite.
        (
            "secrets-test-suite-env",
            &["SESSION_SECRET", "DATABASE_URL"],
            &[],
            &["TEST_USER_PASSWORD", "ADMIN_PASSWORD", "KEYCLOAK_ADMIN_PASSWORD"],
        ),
        // A field a validator builds from other fields is not read.
        (
            "secrets-computed-fields",
            &["POSTGRES_PASSWORD", "REDIS_PASSWORD"],
            &["POSTGRES_PASSWORD"],
            &["POSTGRES_URI", "REDIS_CACHE_URL", "CACHE_TOKEN_TTL"],
        ),
        // The prefix the settings library applies is part of the name.
        (
            "secrets-go-prefixes",
            &["SHOP_API_SECRET", "SHOP_SMTP_PASSWORD", "STORE_DATABASE_PASSWORD"],
            &["SHOP_API_SECRET", "STORE_DATABASE_PASSWORD"],
            &["API_SECRET", "APISECRET", "DATABASE_PASSWORD", "SHOP_TOKEN_TTL", "STORE_POOL_MAX_TOKEN_LIFETIME"],
        ),
        // Vapor's `Environment.get` and `.env.*.template` files are read.
        (
            "secrets-vapor-templates",
            &["DATABASE_PASSWORD", "SENDGRID_API_KEY", "GITHUB_WEBHOOK_SECRET"],
            &["DATABASE_PASSWORD"],
            &["DATABASE_HOST"],
        ),
        // A string constant names the variable; a typed number is a setting.
        (
            "secrets-rust-clap",
            &["MEILI_MASTER_KEY"],
            &["APP_STRIPE_SECRET_KEY", "DATABASE_URL", "HMAC_KEY", "JWT_SECRET", "LDAP_JWT_SECRET", "LDAP_KEY_SEED"],
            &["MASTER_KEY_ENV", "REFRESH_TOKEN_MAX_AGE_SECS"],
        ),
        // A template's comment or stand-in says the value is a credential.
        (
            "secrets-documented-credential",
            &["DUO_SKEY", "PROVIDER_SIGNATURE"],
            &[],
            &["DUO_IKEY", "DUO_HOST", "SHOW_PASSWORD_HINT", "API_KEY_HEADER"],
        ),
    ];
    for (fixture, must, required, must_not) in cases {
        let (names, required_names) = secrets_of(fixture);
        for name in *must {
            assert!(names.iter().any(|n| n == name), "{fixture}: {name} missing from {names:?}");
        }
        for name in *required {
            assert!(required_names.iter().any(|n| n == name), "{fixture}: {name} not required in {required_names:?}");
        }
        for name in *must_not {
            assert!(!names.iter().any(|n| n == name), "{fixture}: {name} must not be proposed: {names:?}");
        }
        let unexpected: Vec<&String> = required_names.iter().filter(|n| !required.contains(&n.as_str())).collect();
        assert!(unexpected.is_empty(), "{fixture}: required without the app requiring it: {unexpected:?}");
    }
}
