//! Detector: Nix — `flake.nix`, `shell.nix`, `devenv.nix` and `devbox.json`.
//!
//! Each gives a note naming the dev shell it defines, and the toolchains its package lists
//! name (`pkgs.nodejs_20` → node 20, `python312` → python 3.12, `go_1_22` → go 1.22; devbox
//! `"nodejs@20"` → node 20) as toolchain hints — for languages the repo has a manifest of
//! ([`has_manifest_for`]). Decision: `nix develop` / `devbox shell` never
//! go into `install`: a sandbox is rarely a Nix machine, entering a shell is interactive, and
//! the ecosystem detectors give the same toolchains as plain install steps; the note says how
//! to use the shell instead. A devbox `test` script becomes the test command
//! `devbox run test`.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::detectors::compose::is_incidental_path;
use crate::detect::repo::{file_name, parent_dir};
use crate::detect::{Findings, Repo};

/// Nix attribute name (without version suffix) → toolchain.
const PACKAGES: &[(&str, &str)] = &[
    ("nodejs", "node"),
    ("nodejs-slim", "node"),
    ("python", "python"),
    ("go", "go"),
    ("rustc", "rust"),
    ("cargo", "rust"),
    ("rustup", "rust"),
    ("rust-bin", "rust"),
    ("jdk", "java"),
    ("openjdk", "java"),
    ("temurin-bin", "java"),
    ("zulu", "java"),
    ("kotlin", "kotlin"),
    ("ruby", "ruby"),
    ("php", "php"),
    ("elixir", "elixir"),
    ("erlang", "erlang"),
    ("dotnet-sdk", "dotnet"),
    ("deno", "deno"),
    ("bun", "bun"),
    ("swift", "swift"),
    ("dart", "dart"),
    ("flutter", "flutter"),
    ("zig", "zig"),
    ("ghc", "haskell"),
    ("scala", "scala"),
    ("clojure", "clojure"),
];

/// Toolchains whose Nix attributes write `major minor` run together (`python312`, `php83`).
const COMPACT_VERSIONS: &[&str] = &["python", "php"];

/// Package lists: `packages = [ … ]`, `buildInputs = with pkgs; [ … ]`, `nativeBuildInputs`.
static PACKAGE_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:packages|buildInputs|nativeBuildInputs|propagatedBuildInputs)\s*=\s*(?:with\s+[\w.]+\s*;\s*)?\[([^\]]*)\]")
        .expect("the package-list pattern is valid")
});
/// `pkgs.name` anywhere, and bare names inside a list.
static ATTRIBUTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:\bpkgs\.)?\b([A-Za-z][A-Za-z0-9_\-]*)").expect("the attribute pattern is valid"));
static PKGS_ATTRIBUTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bpkgs\.([A-Za-z][A-Za-z0-9_\-]*)").expect("the pkgs-attribute pattern is valid"));
/// devenv: `languages.python.enable = true;` and `languages.python.version = "3.11";`.
static DEVENV_LANGUAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\blanguages\.([a-z]+)\.(?:enable\s*=\s*true|version\s*=\s*"([^"]+)")"#)
        .expect("the devenv pattern is valid")
});

/// A Nix attribute (`nodejs_20`, `python312`, `go_1_22`, `jdk17`) as toolchain and version.
pub fn nix_toolchain(attribute: &str) -> Option<(&'static str, Option<String>)> {
    let attribute = attribute.to_ascii_lowercase();
    let split = attribute.find(|c: char| c.is_ascii_digit()).unwrap_or(attribute.len());
    let (name, digits) = attribute.split_at(split);
    let name = name.trim_end_matches(['_', '-']);
    let &(_, toolchain) = PACKAGES.iter().find(|(n, _)| *n == name)?;
    if digits.is_empty() {
        return Some((toolchain, None));
    }
    // `python312Packages`, `nodejs_20.pkgs`: package sets, not the toolchain.
    if !digits.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return None;
    }
    let version = if digits.contains('_') {
        digits.split('_').filter(|p| !p.is_empty()).collect::<Vec<_>>().join(".")
    } else if COMPACT_VERSIONS.contains(&toolchain) && digits.len() > 1 {
        format!("{}.{}", &digits[..1], &digits[1..])
    } else {
        digits.to_string()
    };
    Some((toolchain, Some(version)))
}

pub fn detect(repo: &Repo, out: &mut Findings) {
    let mut files: Vec<&str> =
        ["flake.nix", "shell.nix", "devenv.nix", "devbox.json"].into_iter().flat_map(|name| repo.named(name)).collect();
    files.sort_unstable();
    for rel in files {
        if rel.matches('/').count() > 1 || is_incidental_path(rel) {
            continue;
        }
        match file_name(rel) {
            name @ ("flake.nix" | "shell.nix" | "devenv.nix") => {
                let Some(text) = repo.read(rel) else { continue };
                let shell = match name {
                    "flake.nix" => "`nix develop`",
                    "shell.nix" => "`nix-shell`",
                    _ => "`devenv shell`",
                };
                out.note(format!("{rel}: Nix dev shell via {shell}, not entered by install"));
                nix_expression(repo, &text, rel, out);
            }
            "devbox.json" => devbox(repo, rel, out),
            _ => {}
        }
    }
}

/// Manifests that show a toolchain is the project's own, not a tool of its dev shell.
const MANIFESTS: &[(&str, &[&str])] = &[
    ("node", &["package.json"]),
    ("bun", &["package.json", "bun.lock", "bun.lockb"]),
    ("deno", &["deno.json", "deno.jsonc"]),
    ("python", &["pyproject.toml", "requirements.txt", "setup.py", "setup.cfg", "Pipfile"]),
    ("go", &["go.mod"]),
    ("rust", &["Cargo.toml"]),
    ("java", &["pom.xml", "build.gradle", "build.gradle.kts"]),
    ("kotlin", &["build.gradle.kts", "build.gradle", "pom.xml"]),
    ("scala", &["build.sbt", "build.sc"]),
    ("ruby", &["Gemfile"]),
    ("php", &["composer.json"]),
    ("elixir", &["mix.exs"]),
    ("erlang", &["mix.exs", "rebar.config"]),
    ("swift", &["Package.swift"]),
    ("dart", &["pubspec.yaml"]),
    ("flutter", &["pubspec.yaml"]),
    ("zig", &["build.zig"]),
    ("haskell", &["stack.yaml", "cabal.project", "package.yaml"]),
    ("clojure", &["deps.edn", "project.clj"]),
    ("cpp", &["CMakeLists.txt", "meson.build"]),
];

/// True when the repo has a manifest of `toolchain` (a .NET project file for `dotnet`): dev
/// shells and dev containers often carry tools (a Node for editor extensions, a Python for
/// scripts) that are not the project's toolchains.
pub fn has_manifest_for(repo: &Repo, toolchain: &str) -> bool {
    if toolchain == "dotnet" {
        return repo.exists("global.json")
            || repo.files().iter().any(|f| [".csproj", ".fsproj", ".sln"].iter().any(|e| f.ends_with(e)));
    }
    MANIFESTS
        .iter()
        .filter(|(t, _)| *t == toolchain)
        .flat_map(|(_, names)| names.iter())
        .any(|name| !repo.named(name).is_empty())
}

fn nix_expression(repo: &Repo, text: &str, rel: &str, out: &mut Findings) {
    let mut found: Vec<(&'static str, Option<String>)> = Vec::new();
    let mut add = |hint: Option<(&'static str, Option<String>)>| {
        if let Some(hint) = hint
            && !found.contains(&hint)
        {
            found.push(hint);
        }
    };
    for list in PACKAGE_LIST.captures_iter(text) {
        for attribute in ATTRIBUTE.captures_iter(&list[1]) {
            add(nix_toolchain(&attribute[1]));
        }
    }
    for attribute in PKGS_ATTRIBUTE.captures_iter(text) {
        add(nix_toolchain(&attribute[1]));
    }
    for language in DEVENV_LANGUAGE.captures_iter(text) {
        let toolchain = match &language[1] {
            "javascript" | "typescript" => Some("node"),
            other => PACKAGES.iter().find(|(n, _)| *n == other).map(|&(_, t)| t),
        };
        add(toolchain.map(|t| (t, language.get(2).map(|v| v.as_str().to_string()))));
    }
    // An unversioned hint adds nothing beside a versioned one for the same toolchain.
    let versioned: Vec<&str> = found.iter().filter(|(_, v)| v.is_some()).map(|(t, _)| *t).collect();
    for (toolchain, version) in found {
        if (version.is_some() || !versioned.contains(&toolchain)) && has_manifest_for(repo, toolchain) {
            out.toolchain(toolchain, version, rel.to_string());
        }
    }
}

fn devbox(repo: &Repo, rel: &str, out: &mut Findings) {
    let Some(config) = repo.read_json(rel) else { return };
    out.note(format!("{rel}: devbox shell via `devbox shell`, not entered by install"));
    // `"packages": ["nodejs@20", "python@3.12"]` or `{"nodejs": "20"}` / `{"nodejs": {"version": "20"}}`.
    let packages: Vec<(String, Option<String>)> = match config.get("packages") {
        Some(serde_json::Value::Array(list)) => list
            .iter()
            .filter_map(|p| p.as_str())
            .map(|p| match p.split_once('@') {
                Some((name, version)) => (name.to_string(), Some(version.to_string())),
                None => (p.to_string(), None),
            })
            .collect(),
        Some(serde_json::Value::Object(map)) => map
            .iter()
            .map(|(name, spec)| {
                let version = spec.as_str().or_else(|| spec.get("version").and_then(|v| v.as_str()));
                (name.clone(), version.map(str::to_string))
            })
            .collect(),
        _ => Vec::new(),
    };
    for (name, version) in packages {
        if let Some((toolchain, attribute_version)) = nix_toolchain(&name) {
            let version = version.filter(|v| v.starts_with(|c: char| c.is_ascii_digit())).or(attribute_version);
            if has_manifest_for(repo, toolchain) {
                out.toolchain(toolchain, version, format!("{rel}#packages"));
            }
        }
    }
    if config.pointer("/shell/scripts/test").is_some() {
        let command = match parent_dir(rel) {
            "" => "devbox run test".to_string(),
            dir => format!("cd {dir} && devbox run test"),
        };
        out.test(command, format!("{rel}#shell.scripts.test"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::detectors::eco::testing::scan;

    #[test]
    fn nix_attributes() {
        for (attribute, want) in [
            ("nodejs_20", Some(("node", Some("20")))),
            ("nodejs", Some(("node", None))),
            ("python312", Some(("python", Some("3.12")))),
            ("python3", Some(("python", Some("3")))),
            ("go_1_22", Some(("go", Some("1.22")))),
            ("jdk17", Some(("java", Some("17")))),
            ("php83", Some(("php", Some("8.3")))),
            ("ruby_3_2", Some(("ruby", Some("3.2")))),
            ("elixir_1_15", Some(("elixir", Some("1.15")))),
            ("python312Packages", None),
            ("gopls", None),
            ("git", None),
        ] {
            let got = nix_toolchain(attribute);
            assert_eq!(got.as_ref().map(|(t, v)| (*t, v.as_deref())), want, "{attribute}");
        }
    }

    #[test]
    fn flake_and_devbox() {
        let flake = r#"{
  description = "let go of the old ways";
  outputs = { self, nixpkgs }: {
    devShells.default = pkgs.mkShell {
      packages = with pkgs; [ nodejs_20 pnpm python312 git ];
      buildInputs = [ pkgs.go_1_22 ];
    };
  };
}"#;
        let devbox = r#"{"packages": ["ruby@3.3.0", "postgresql@16", "nodejs@latest"], "shell": {"scripts": {"test": "bundle exec rspec"}}}"#;
        let found = scan(
            detect,
            &[
                ("flake.nix", flake),
                ("web/devbox.json", devbox),
                ("package.json", "{}"),
                ("go.mod", "module x\n"),
                ("web/Gemfile", ""),
            ],
        );
        let out = &found.findings;
        assert_eq!(
            out.toolchain_rows(),
            [
                // python312 is a tool of the shell here: the repo has no Python manifest.
                ("node", Some("20"), "flake.nix"),
                ("go", Some("1.22"), "flake.nix"),
                ("ruby", Some("3.3.0"), "web/devbox.json#packages"),
                ("node", None, "web/devbox.json#packages"),
            ]
        );
        assert_eq!(out.tests[0].command, "cd web && devbox run test");
        assert!(out.notes.iter().any(|n| n.contains("`nix develop`")));
        assert!(out.steps.is_empty());
    }
}
