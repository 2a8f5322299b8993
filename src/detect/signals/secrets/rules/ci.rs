//! The secrets CI uses for itself, never the app's.

use super::{STAND_IN_WORDS, is_release_credential, words};

/// Secrets CI uses for itself: the job token, coverage/quality services, package registries,
/// image registries, signing, remote caches and deploy targets.
pub fn is_sandbox_secret(name: &str) -> bool {
    const CI_ONLY: &[&str] = &[
        "GITHUB",
        "GH",
        "SONARCLOUD",
        "CODACY",
        "CODECLIMATE",
        "CC",
        "NPM",
        "GEM",
        "RUBYGEMS",
        "SIGNING",
        "CARGO",
        "CRATES",
        "MAVEN",
        "GRADLE",
        "DOCKER",
        "DOCKERHUB",
        "GHCR",
        "QUAY",
        "NETLIFY",
        "VERCEL",
        "CACHIX",
        "TURBO",
        "NX",
        "CHROMATIC",
        "PERCY",
        "SNYK",
        "APPLE",
        "HOMEBREW",
        "TAP",
        "CLOUDFLARE",
        "HEROKU",
        "FLY",
        "SURGE",
        "BOT",
        "PAT",
        "ACTIONS",
        "RUNNER",
        "SLACK",
        // Test infrastructure CI rents: the sandbox runs the tests itself.
        "PLAYWRIGHT",
        "CYPRESS",
        "BROWSERSTACK",
        "SAUCE",
        "LAMBDATEST",
        "ARGOS",
        "CURRENTS",
    ];
    crate::names::validate_secret_name(name).is_ok()
        && !words(name).iter().any(|word| CI_ONLY.contains(&word.as_str()) || STAND_IN_WORDS.contains(&word.as_str()))
        && !is_release_credential(name)
        && !name.to_ascii_uppercase().contains("WEBHOOK")
}
