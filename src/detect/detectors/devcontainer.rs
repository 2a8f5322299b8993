//! Detector: dev containers (`.devcontainer/devcontainer.json`, `.devcontainer.json`,
//! `.devcontainer/<name>/devcontainer.json`).
//!
//! - `dockerComposeFile` + `service` + `runServices`: the backing services beside the dev
//!   container become services and one start
//!   (`docker compose -f .devcontainer/docker-compose.yml up -d db redis`); the dev container's
//!   own `service` and built services are left out.
//! - `features` (`ghcr.io/devcontainers/features/node:1` with `"version": "20"`) and the
//!   `image` (`mcr.microsoft.com/devcontainers/python:1-3.12-bookworm`, `node:20`) hint at
//!   toolchains, reported unpinned with their version in a note (see [`hint`]). A devcontainer image tag is `<image version>-<language version>-<os>`, or just
//!   the language version, or just the image version (a single `0`/`1`/`2`, not a pin).
//!
//! The file is JSON with comments and trailing commas (JSONC); both are stripped before parsing.

use serde_json::Value;

use crate::detect::detectors::ci::toolchain_of_image;
use crate::detect::detectors::compose::{add_start, join_path, read_compose, starts_of, up_command, without_starts};
use crate::detect::detectors::nix::has_manifest_for;
use crate::detect::repo::{parent_dir, strip_json_comments};
use crate::detect::{Findings, Repo, Start};

/// Everything but the start candidates, which the compose detector puts in order with those
/// of the other sources (detectors run independently of each other).
pub fn detect(repo: &Repo, out: &mut Findings) {
    without_starts(repo, out, analyze);
}

/// The start candidates of this detector, for the compose detector.
pub fn starts(repo: &Repo) -> Vec<Start> {
    starts_of(repo, analyze)
}

fn analyze(repo: &Repo, out: &mut Findings) {
    let mut candidates: Vec<&str> = repo
        .named("devcontainer.json")
        .into_iter()
        .filter(|rel| parent_dir(rel) == ".devcontainer" || parent_dir(parent_dir(rel)) == ".devcontainer")
        .collect();
    if repo.exists(".devcontainer.json") {
        candidates.insert(0, ".devcontainer.json");
    }
    for rel in candidates {
        let Some(text) = repo.read(rel) else { continue };
        match serde_json::from_str::<Value>(&strip_json_comments(&text)) {
            Ok(config) => read_config(repo, rel, &config, out),
            Err(e) => repo.warn(format!("{rel}: invalid JSON (comments allowed): {e}")),
        }
    }
}

fn read_config(repo: &Repo, rel: &str, config: &Value, out: &mut Findings) {
    if let Some(image) = config.get("image").and_then(Value::as_str)
        && let Some((toolchain, version)) = devcontainer_image_toolchain(image)
    {
        hint(repo, out, toolchain, version, format!("{rel}#image"));
    }
    for (id, options) in config.get("features").and_then(Value::as_object).into_iter().flatten() {
        let Some(toolchain) = feature_toolchain(id) else { continue };
        let version = options
            .get("version")
            .and_then(|v| v.as_str().map(str::to_string).or_else(|| v.as_f64().map(|f| f.to_string())));
        if version.as_deref() == Some("none") {
            continue;
        }
        let version = version.filter(|v| v.starts_with(|c: char| c.is_ascii_digit()));
        hint(repo, out, toolchain, version, format!("{rel}#features"));
    }
    compose(repo, rel, config, out);
}

/// A dev container's toolchain is reported unpinned, its version only noted: template
/// defaults (`21-oracle`, `1-3.11-bullseye`) must not outvote the project's own manifests,
/// which the language detectors read after this one.
/// Only for languages the repo has a manifest of (see [`has_manifest_for`]).
fn hint(repo: &Repo, out: &mut Findings, toolchain: &str, version: Option<String>, source: String) {
    if !has_manifest_for(repo, toolchain) {
        return;
    }
    if let Some(version) = &version {
        out.note(format!("dev container: {toolchain} {version} ({source})"));
    }
    out.toolchain(toolchain, None, source);
}

fn compose(repo: &Repo, rel: &str, config: &Value, out: &mut Findings) {
    let files: Vec<&str> = match config.get("dockerComposeFile") {
        Some(Value::String(file)) => vec![file.as_str()],
        Some(Value::Array(files)) => files.iter().filter_map(Value::as_str).collect(),
        _ => return,
    };
    let Some(files) = files.iter().map(|f| join_path(parent_dir(rel), f)).collect::<Option<Vec<String>>>() else {
        repo.warn(format!("{rel}: dockerComposeFile points outside the repository"));
        return;
    };
    let own = config.get("service").and_then(Value::as_str);
    let run_services: Option<Vec<&str>> =
        config.get("runServices").and_then(Value::as_array).map(|list| list.iter().filter_map(Value::as_str).collect());
    let mut names: Vec<String> = Vec::new();
    for file in &files {
        let Some(services) = read_compose(repo, file) else { continue };
        for service in services {
            let wanted = run_services.as_ref().is_none_or(|list| list.contains(&service.name.as_str()));
            if wanted
                && Some(service.name.as_str()) != own
                && let Some(product) = service.backing()
            {
                out.service(&product, service.image.clone(), format!("{file}#services.{}", service.name));
                if !names.contains(&service.name) {
                    names.push(service.name.clone());
                }
            }
        }
    }
    if !names.is_empty() {
        add_start(repo, out, up_command(&files, &names), format!("{rel}#dockerComposeFile"));
    }
}

/// `ghcr.io/devcontainers/features/node:1` → `node`.
fn feature_toolchain(id: &str) -> Option<&'static str> {
    const FEATURES: &[(&str, &str)] = &[
        ("node", "node"),
        ("nodejs", "node"),
        ("python", "python"),
        ("go", "go"),
        ("golang", "go"),
        ("rust", "rust"),
        ("java", "java"),
        ("kotlin", "kotlin"),
        ("ruby", "ruby"),
        ("php", "php"),
        ("dotnet", "dotnet"),
        ("deno", "deno"),
        ("bun", "bun"),
        ("elixir", "elixir"),
        ("erlang", "erlang"),
        ("dart", "dart"),
        ("flutter", "flutter"),
        ("zig", "zig"),
        ("haskell", "haskell"),
        ("scala", "scala"),
        ("clojure", "clojure"),
    ];
    let name = id.rsplit('/').next().unwrap_or(id);
    let name = name.split([':', '@']).next().unwrap_or(name).to_ascii_lowercase();
    FEATURES.iter().find(|(feature, _)| *feature == name).map(|&(_, toolchain)| toolchain)
}

/// The toolchain of a dev container image: Microsoft's `devcontainers/<language>` images first
/// (their tags carry an image version), then plain language images (`python:3.12`).
fn devcontainer_image_toolchain(image: &str) -> Option<(&'static str, Option<String>)> {
    const DEVCONTAINER_IMAGES: &[(&str, &str)] = &[
        ("typescript-node", "node"),
        ("javascript-node", "node"),
        ("python", "python"),
        ("go", "go"),
        ("rust", "rust"),
        ("java", "java"),
        ("ruby", "ruby"),
        ("php", "php"),
        ("dotnet", "dotnet"),
        ("cpp", "cpp"),
    ];
    let lower = image.to_ascii_lowercase();
    let Some(path) = lower
        .strip_prefix("mcr.microsoft.com/devcontainers/")
        .or_else(|| lower.strip_prefix("mcr.microsoft.com/vscode/devcontainers/"))
    else {
        return toolchain_of_image(image);
    };
    let (name, tag) = path.split_once(':').unwrap_or((path, ""));
    let &(_, toolchain) = DEVCONTAINER_IMAGES.iter().find(|(n, _)| *n == name)?;
    let numeric: Vec<&str> = tag.split('-').filter(|p| p.starts_with(|c: char| c.is_ascii_digit())).collect();
    let version = match numeric.as_slice() {
        [_, language, ..] => Some(language.to_string()),
        [only] if !matches!(*only, "0" | "1" | "2") => Some(only.to_string()),
        _ => None,
    };
    Some((toolchain, version))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::detectors::compose::tests::repo_with;

    #[test]
    fn compose_based_devcontainer() {
        let config = r#"{
            // dev container beside its services
            "dockerComposeFile": ["../docker-compose.yml", "docker-compose.extend.yml"],
            "service": "app",
            "runServices": ["app", "db", "mail"],
            "features": {
                "ghcr.io/devcontainers/features/node:1": {"version": "20"},
                "ghcr.io/devcontainers/features/python:1": {"version": "none"},
                "ghcr.io/devcontainers/features/go:1": {"version": "1.22"},
                "ghcr.io/devcontainers/features/docker-in-docker:2": {},
            },
        }"#;
        let (_dir, repo) = repo_with(&[
            (".devcontainer/devcontainer.json", config),
            ("web/package.json", "{}"),
            (
                "docker-compose.yml",
                "services:\n  app:\n    image: mcr.microsoft.com/devcontainers/base\n  db:\n    image: postgres:16\n  cache:\n    image: redis\n",
            ),
            (
                ".devcontainer/docker-compose.extend.yml",
                "services:\n  mail:\n    image: axllent/mailpit\n  app:\n    build: .\n",
            ),
        ]);
        let mut out = Findings::default();
        analyze(&repo, &mut out);
        let services: Vec<_> = out.services.iter().map(|s| (s.name.as_str(), s.source.as_str())).collect();
        assert_eq!(
            services,
            [
                ("postgres", "docker-compose.yml#services.db"),
                ("mailpit", ".devcontainer/docker-compose.extend.yml#services.mail")
            ]
        );
        assert_eq!(
            out.starts[0].command,
            "docker compose -f docker-compose.yml -f .devcontainer/docker-compose.extend.yml up -d db mail"
        );
        let toolchains: Vec<_> = out.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
        assert_eq!(toolchains, [("node", None)]);
        assert!(out.notes.iter().any(|n| n == "dev container: node 20 (.devcontainer/devcontainer.json#features)"));
    }

    #[test]
    fn image_hints() {
        for (image, want) in [
            ("mcr.microsoft.com/devcontainers/python:1-3.12-bookworm", Some(("python", Some("3.12")))),
            ("mcr.microsoft.com/devcontainers/typescript-node:20", Some(("node", Some("20")))),
            ("mcr.microsoft.com/vscode/devcontainers/javascript-node:0-18", Some(("node", Some("18")))),
            ("mcr.microsoft.com/devcontainers/rust:1", Some(("rust", None))),
            ("mcr.microsoft.com/devcontainers/go:1-bookworm", Some(("go", None))),
            ("mcr.microsoft.com/devcontainers/universal:2", None),
            ("ruby:3.3", Some(("ruby", Some("3.3")))),
            ("ubuntu:24.04", None),
        ] {
            let got = devcontainer_image_toolchain(image);
            assert_eq!(got.as_ref().map(|(t, v)| (*t, v.as_deref())), want, "{image}");
        }
    }

    #[test]
    fn malformed_devcontainer_is_a_warning() {
        let (_dir, repo) = repo_with(&[(".devcontainer.json", "{ \"image\": ")]);
        let mut out = Findings::default();
        analyze(&repo, &mut out);
        assert!(repo.warnings().iter().any(|w| w.starts_with(".devcontainer.json: invalid JSON")));
    }
}
