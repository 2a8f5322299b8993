//! Detector: dev containers (`.devcontainer/devcontainer.json`, `.devcontainer.json`,
//! `.devcontainer/<name>/devcontainer.json`).
//!
//! - `dockerComposeFile` + `service` + `runServices`: the backing services beside the dev
//!   container become services and one start
//!   (`docker compose -f .devcontainer/docker-compose.yml up -d db redis`); the dev container's
//!   own `service` and built services are left out.
//! - `features` (`ghcr.io/devcontainers/features/node:1` with `"version": "20"`) and the
//!   `image` (`mcr.microsoft.com/devcontainers/python:1-3.12-bookworm`, `node:20`) hint at
//!   toolchains. A devcontainer image tag is `<image version>-<language version>-<os>`, or just
//!   the language version, or just the image version (a single `0`/`1`/`2`, not a pin).
//!
//! The file is JSON with comments and trailing commas (JSONC); both are stripped before parsing.

use serde_json::Value;

use crate::detect::detectors::ci::toolchain_of_image;
use crate::detect::detectors::compose::{add_start, join_path, read_compose, up_command};
use crate::detect::repo::parent_dir;
use crate::detect::{Findings, Repo};

pub fn detect(repo: &Repo, out: &mut Findings) {
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
        match serde_json::from_str::<Value>(&strip_jsonc(&text)) {
            Ok(config) => read_config(repo, rel, &config, out),
            Err(e) => repo.warn(format!("{rel}: invalid JSON (comments allowed): {e}")),
        }
    }
}

fn read_config(repo: &Repo, rel: &str, config: &Value, out: &mut Findings) {
    if let Some(image) = config.get("image").and_then(Value::as_str)
        && let Some((toolchain, version)) = devcontainer_image_toolchain(image)
    {
        out.toolchain(toolchain, version, format!("{rel}#image"));
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
        out.toolchain(toolchain, version, format!("{rel}#features"));
    }
    compose(repo, rel, config, out);
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
        add_start(out, up_command(&files, &names), format!("{rel}#dockerComposeFile"));
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

/// JSON with `//` and `/* */` comments and trailing commas → JSON. Strings are left alone.
pub fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for next in chars.by_ref() {
                    if next == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut previous = ' ';
                for next in chars.by_ref() {
                    if previous == '*' && next == '/' {
                        break;
                    }
                    if next == '\n' {
                        out.push('\n');
                    }
                    previous = next;
                }
            }
            _ => out.push(c),
        }
    }
    remove_trailing_commas(&out)
}

/// Drop a `,` followed (after whitespace) by `}` or `]`, outside strings.
fn remove_trailing_commas(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(&next) = chars.get(i + 1) {
                    out.push(next);
                }
                i += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == ',' && chars[i + 1..].iter().find(|c| !c.is_whitespace()).is_some_and(|c| *c == '}' || *c == ']')
        {
            // a trailing comma: dropped
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::detectors::compose::tests::repo_with;

    #[test]
    fn strips_comments_and_trailing_commas() {
        let text = "{\n  // a comment\n  \"a\": \"http://x/*y*/\", /* block\n */ \"b\": [1, 2,],\n}\n";
        let value: Value = serde_json::from_str(&strip_jsonc(text)).unwrap();
        assert_eq!(value["a"], "http://x/*y*/");
        assert_eq!(value["b"], serde_json::json!([1, 2]));
    }

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
                "ghcr.io/devcontainers/features/docker-in-docker:2": {},
            },
        }"#;
        let (_dir, repo) = repo_with(&[
            (".devcontainer/devcontainer.json", config),
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
        detect(&repo, &mut out);
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
        assert_eq!(toolchains, [("node", Some("20"))]);
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
        detect(&repo, &mut out);
        assert!(repo.warnings().iter().any(|w| w.starts_with(".devcontainer.json: invalid JSON")));
    }
}
