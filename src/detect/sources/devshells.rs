//! Nix-style dev shells: `flake.nix`, `shell.nix`, `devenv.nix` and `devbox.json` at the
//! root or one folder down, as the package names they list (`nodejs_20`, `python312`,
//! `go_1_22`; devbox `nodejs@20`) and devenv's `languages.X`. Which package is which
//! toolchain is the ecosystems' to say.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use crate::detect::repo::{Repo, is_own_path};
use crate::rel_path::{RelPath, RelPathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShellKind {
    Flake,
    NixShell,
    Devenv,
    Devbox,
}

impl ShellKind {
    /// How a developer enters it.
    pub fn command(self) -> &'static str {
        match self {
            ShellKind::Flake => "nix develop",
            ShellKind::NixShell => "nix-shell",
            ShellKind::Devenv => "devenv shell",
            ShellKind::Devbox => "devbox shell",
        }
    }
}

#[derive(Debug, Clone)]
pub struct DevShell {
    pub path: RelPathBuf,
    pub kind: ShellKind,
    /// Nix attribute names (`nodejs_20`, `pkgs.go` as `go`) in order of appearance, each once.
    pub attributes: Vec<String>,
    /// devenv `languages.<name>` that are enabled, with the version it sets.
    pub languages: Vec<(String, Option<String>)>,
    /// devbox packages: name and the version after `@`.
    pub packages: Vec<(String, Option<String>)>,
    /// devbox has a `test` script.
    pub test_script: bool,
}

/// Package lists: `packages = [ … ]`, `buildInputs = with pkgs; [ … ]`, `nativeBuildInputs`.
static PACKAGE_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:packages|buildInputs|nativeBuildInputs|propagatedBuildInputs)[[:space:]]*=[[:space:]]*(?:with[[:space:]]+[[:word:].]+[[:space:]]*;[[:space:]]*)?\[([^\]]*)\]")
        .expect("the package-list pattern is valid")
});
/// `pkgs.name` anywhere, and bare names inside a list.
static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:(?-u:\b)pkgs\.)?(?-u:\b)([A-Za-z][A-Za-z0-9_\-]*)").expect("the attribute pattern is valid")
});
static PKGS_ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)pkgs\.([A-Za-z][A-Za-z0-9_\-]*)").expect("the pkgs-attribute pattern is valid")
});
/// devenv: `languages.python.enable = true;` and `languages.python.version = "3.11";`.
static DEVENV_LANGUAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u:\b)languages\.([a-z]+)\.(?:enable[[:space:]]*=[[:space:]]*true|version[[:space:]]*=[[:space:]]*"([^"]+)")"#)
        .expect("the devenv pattern is valid")
});

pub fn read_all(repo: &Repo) -> Vec<DevShell> {
    let mut files: Vec<&RelPath> =
        ["flake.nix", "shell.nix", "devenv.nix", "devbox.json"].into_iter().flat_map(|name| repo.named(name)).collect();
    files.sort_unstable();
    let mut shells = Vec::new();
    for rel in files {
        if rel.depth() > 1 || !is_own_path(rel) {
            continue;
        }
        let kind = match rel.file_name() {
            "flake.nix" => ShellKind::Flake,
            "shell.nix" => ShellKind::NixShell,
            "devenv.nix" => ShellKind::Devenv,
            _ => ShellKind::Devbox,
        };
        let mut shell = DevShell {
            path: rel.to_owned(),
            kind,
            attributes: Vec::new(),
            languages: Vec::new(),
            packages: Vec::new(),
            test_script: false,
        };
        if kind == ShellKind::Devbox {
            let Some(config) = repo.read_json(rel) else { continue };
            shell.packages = devbox_packages(&config);
            shell.test_script = config.pointer("/shell/scripts/test").is_some();
        } else {
            let Some(text) = repo.read(rel) else { continue };
            let listed = PACKAGE_LIST.captures_iter(&text).flat_map(|list| {
                ATTRIBUTE
                    .captures_iter(list.get(1).map_or("", |m| m.as_str()))
                    .map(|a| a[1].to_string())
                    .collect::<Vec<_>>()
            });
            for attribute in listed.chain(PKGS_ATTRIBUTE.captures_iter(&text).map(|a| a[1].to_string())) {
                if !shell.attributes.contains(&attribute) {
                    shell.attributes.push(attribute);
                }
            }
            shell.languages = DEVENV_LANGUAGE
                .captures_iter(&text)
                .map(|c| (c[1].to_string(), c.get(2).map(|v| v.as_str().to_string())))
                .collect();
        }
        shells.push(shell);
    }
    shells
}

/// `"packages": ["nodejs@20", "python@3.12"]` or `{"nodejs": "20"}` / `{"nodejs": {"version": "20"}}`.
fn devbox_packages(config: &Value) -> Vec<(String, Option<String>)> {
    match config.get("packages") {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(|p| p.as_str())
            .map(|p| match p.split_once('@') {
                Some((name, version)) => (name.to_string(), Some(version.to_string())),
                None => (p.to_string(), None),
            })
            .collect(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(name, spec)| {
                let version = spec.as_str().or_else(|| spec.get("version").and_then(|v| v.as_str()));
                (name.clone(), version.map(str::to_string))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A Nix attribute split into its name and the digits of its version (`nodejs_20` →
/// (`nodejs`, `20`), `go_1_22` → (`go`, `1_22`), `python312` → (`python`, `312`)); `None`
/// for package sets (`python312Packages`).
pub fn split_attribute(attribute: &str) -> Option<(String, String)> {
    let attribute = attribute.to_ascii_lowercase();
    let split = attribute.find(|c: char| c.is_ascii_digit()).unwrap_or(attribute.len());
    let (name, digits) = attribute.split_at(split);
    if !digits.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return None;
    }
    Some((name.trim_end_matches(['_', '-']).to_string(), digits.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::repo_with;

    #[test]
    fn flake_and_devbox() {
        let flake = "{\n  outputs = { self, nixpkgs }: {\n    devShells.default = pkgs.mkShell {\n      packages = with pkgs; [ nodejs_20 pnpm python312 git ];\n      buildInputs = [ pkgs.go_1_22 ];\n    };\n  };\n}";
        let devbox =
            r#"{"packages": ["ruby@3.3.0", "nodejs@latest"], "shell": {"scripts": {"test": "bundle exec rspec"}}}"#;
        let (_dir, repo) = repo_with(&[("flake.nix", flake), ("web/devbox.json", devbox), ("a/b/flake.nix", flake)]);
        let shells = read_all(&repo);
        assert_eq!(shells.len(), 2);
        assert_eq!(shells[0].attributes, ["nodejs_20", "pnpm", "python312", "git", "go_1_22", "mkShell"]);
        assert_eq!(shells[1].packages[0], ("ruby".into(), Some("3.3.0".into())));
        assert!(shells[1].test_script);
        assert_eq!(split_attribute("go_1_22"), Some(("go".into(), "1_22".into())));
        assert_eq!(split_attribute("python312Packages"), None);
    }
}
