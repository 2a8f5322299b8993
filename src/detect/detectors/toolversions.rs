//! Detector: version-manager pins — asdf's `.tool-versions` and mise's `mise.toml`
//! (`.mise.toml`, `mise/config.toml`, `.config/mise.toml`, `.rtx.toml`). Tool names are
//! mapped to the schema's toolchains (`nodejs` → `node`, `golang` → `go`); package-manager
//! tools (`pnpm`, `poetry`, `maven`, …) are reported as package managers of that directory.
//! Plugins of other backends (`npm:prettier`, `cargo:…`) and unknown tools are ignored.

use crate::detect::detectors::compose::is_incidental_path;
use crate::detect::repo::{file_name, parent_dir};
use crate::detect::{Findings, Repo};

/// asdf/mise tool name → toolchain.
const TOOLCHAINS: &[(&str, &str)] = &[
    ("node", "node"),
    ("nodejs", "node"),
    ("python", "python"),
    ("rust", "rust"),
    ("go", "go"),
    ("golang", "go"),
    ("java", "java"),
    ("kotlin", "kotlin"),
    ("ruby", "ruby"),
    ("php", "php"),
    ("elixir", "elixir"),
    ("erlang", "erlang"),
    ("dotnet", "dotnet"),
    ("dotnet-core", "dotnet"),
    ("deno", "deno"),
    ("bun", "bun"),
    ("swift", "swift"),
    ("dart", "dart"),
    ("flutter", "flutter"),
    ("zig", "zig"),
    ("haskell", "haskell"),
    ("ghc", "haskell"),
    ("scala", "scala"),
    ("clojure", "clojure"),
];

/// asdf/mise tool name → package manager.
const PACKAGE_MANAGERS: &[(&str, &str)] = &[
    ("pnpm", "pnpm"),
    ("yarn", "yarn"),
    ("npm", "npm"),
    ("poetry", "poetry"),
    ("uv", "uv"),
    ("pdm", "pdm"),
    ("pipenv", "pipenv"),
    ("hatch", "hatch"),
    ("maven", "maven"),
    ("gradle", "gradle"),
    ("sbt", "sbt"),
    ("lein", "lein"),
    ("leiningen", "lein"),
    ("stack", "stack"),
    ("cabal", "cabal"),
    ("cmake", "cmake"),
    ("meson", "meson"),
];

const MISE_FILES: &[&str] = &["mise.toml", ".mise.toml", "mise.local.toml", ".rtx.toml"];

pub fn detect(repo: &Repo, out: &mut Findings) {
    let mut files: Vec<&str> =
        [".tool-versions", "mise.toml", ".mise.toml", "mise.local.toml", ".rtx.toml", "config.toml"]
            .into_iter()
            .flat_map(|name| repo.named(name))
            .collect();
    files.sort_unstable();
    for rel in files {
        if is_incidental_path(rel) {
            continue;
        }
        let name = file_name(rel);
        if name == ".tool-versions" {
            if let Some(text) = repo.read(rel) {
                for (line, tool, version) in tool_versions(&text) {
                    report(out, &tool, version, parent_dir(rel), format!("{rel}:{line}"));
                }
            }
        } else if MISE_FILES.contains(&name) || is_mise_config_dir_file(rel) {
            mise(repo, rel, out);
        }
    }
}

/// `mise/config.toml`, `.mise/config.toml`, `.config/mise.toml`, `.config/mise/config.toml`.
fn is_mise_config_dir_file(rel: &str) -> bool {
    let dir = parent_dir(rel);
    let last_dir = file_name(dir);
    match file_name(rel) {
        "config.toml" => last_dir == "mise" || last_dir == ".mise",
        "mise.toml" => last_dir == ".config",
        _ => false,
    }
}

/// The directory a version-manager file applies to (its config directory's parent).
fn project_dir(rel: &str) -> &str {
    let dir = parent_dir(rel);
    match file_name(dir) {
        "mise" | ".mise" | ".config" => {
            let up = parent_dir(dir);
            if file_name(up) == ".config" { parent_dir(up) } else { up }
        }
        _ => dir,
    }
}

/// `(line, tool, first version)` for each line of a `.tool-versions` file.
fn tool_versions(text: &str) -> Vec<(usize, String, Option<String>)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.split('#').next().unwrap_or_default();
            let mut words = line.split_whitespace();
            let tool = words.next()?;
            Some((i + 1, tool.to_string(), words.next().and_then(clean_version)))
        })
        .collect()
}

/// A version as the pin states it, minus a vendor prefix (`temurin-17.0.2+8` → `17.0.2+8`);
/// `None` for `latest`, `system`, `ref:…`, `path:…`.
fn clean_version(raw: &str) -> Option<String> {
    let raw = raw.trim().trim_matches('"');
    if raw.is_empty() || raw.contains(':') || matches!(raw, "latest" | "system" | "lts" | "stable") {
        return None;
    }
    let start = raw.find(|c: char| c.is_ascii_digit())?;
    let prefix = &raw[..start];
    // `v20`, `temurin-17`, `openjdk-21`, `zulu-11`: a vendor or `v` before the number.
    if prefix.is_empty() || prefix == "v" || prefix.ends_with('-') { Some(raw[start..].to_string()) } else { None }
}

fn report(out: &mut Findings, tool: &str, version: Option<String>, dir: &str, source: String) {
    let tool = tool.strip_prefix("core:").unwrap_or(tool).to_ascii_lowercase();
    if let Some(&(_, toolchain)) = TOOLCHAINS.iter().find(|(t, _)| *t == tool) {
        out.toolchain(toolchain, version, source);
    } else if let Some(&(_, manager)) = PACKAGE_MANAGERS.iter().find(|(t, _)| *t == tool) {
        out.package_manager(manager, version, if dir.is_empty() { "." } else { dir }, source);
    }
}

fn mise(repo: &Repo, rel: &str, out: &mut Findings) {
    let Some(table) = repo.read_toml(rel) else { return };
    let Some(tools) = table.get("tools").and_then(|t| t.as_table()) else { return };
    for (tool, spec) in tools {
        // A string, a list (first wins) or a table with `version`.
        let version = match spec {
            toml::Value::String(v) => Some(v.as_str()),
            toml::Value::Array(vs) => vs.first().and_then(|v| v.as_str().or_else(|| v.get("version")?.as_str())),
            toml::Value::Table(t) => t.get("version").and_then(|v| v.as_str()),
            _ => None,
        };
        report(out, tool, version.and_then(clean_version), project_dir(rel), format!("{rel}#tools.{tool}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::detectors::compose::tests::repo_with;
    use crate::detect::detectors::eco::testing::scan;

    #[test]
    fn tool_versions_file() {
        let found = scan(
            detect,
            &[(
                ".tool-versions",
                "nodejs 20.11.0\npython 3.12.1 3.11.7 # two\ngolang 1.22.0\njava temurin-17.0.2+8\nerlang ref:master\npnpm 8.15.0\nterraform 1.6.0\n\nelixir 1.16.0-otp-26\n",
            )],
        );
        let out = &found.findings;
        assert_eq!(
            out.toolchain_rows(),
            [
                ("node", Some("20.11.0"), ".tool-versions:1"),
                ("python", Some("3.12.1"), ".tool-versions:2"),
                ("go", Some("1.22.0"), ".tool-versions:3"),
                ("java", Some("17.0.2+8"), ".tool-versions:4"),
                ("erlang", None, ".tool-versions:5"),
                ("elixir", Some("1.16.0-otp-26"), ".tool-versions:9"),
            ]
        );
        assert_eq!(out.package_managers.len(), 1);
        assert_eq!(out.package_managers[0].name, "pnpm");
        assert_eq!(out.package_managers[0].path, ".");
    }

    #[test]
    fn mise_files() {
        let (_dir, repo) = repo_with(&[
            (
                "mise.toml",
                "[tools]\nnode = \"22\"\npython = [\"3.12\", \"3.11\"]\n\"npm:prettier\" = \"3\"\nruby = { version = \"3.3.0\" }\ngo = \"latest\"\n",
            ),
            ("api/.config/mise.toml", "[tools]\n\"core:rust\" = \"1.80\"\nuv = \"0.4\"\n"),
            ("bad/mise.toml", "[tools\n"),
        ]);
        let mut out = Findings::default();
        detect(&repo, &mut out);
        let toolchains: Vec<_> = out.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
        assert_eq!(
            toolchains,
            [
                ("rust", Some("1.80")),
                ("node", Some("22")),
                ("python", Some("3.12")),
                ("ruby", Some("3.3.0")),
                ("go", None)
            ]
        );
        assert_eq!(out.package_managers[0].name, "uv");
        assert_eq!(out.package_managers[0].path, "api");
        assert!(repo.warnings().iter().any(|w| w.starts_with("bad/mise.toml: invalid TOML")));
    }
}
