//! Version-manager pins: asdf's `.tool-versions` and mise's `mise.toml` (`.mise.toml`,
//! `mise.local.toml`, `.rtx.toml`, `mise/config.toml`, `.config/mise.toml`), as tool names
//! with the version they pin and the directory they apply to. Which tool is which toolchain
//! or package manager is the ecosystems' to say.

use crate::detect::repo::{Repo, is_own_path};
use crate::evidence::{Evidence, Kind};
use crate::rel_path::{RelPath, RelPathBuf};

/// One tool a version manager pins (not [`crate::detect::sources::version::Pin`], a checked
/// version string).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolPin {
    /// The tool name, lower-cased, without mise's `core:` backend (`nodejs`, `python`, `pnpm`).
    pub tool: String,
    /// The version as pinned, minus a vendor prefix (`temurin-17.0.2+8` → `17.0.2+8`); `None`
    /// for `latest`, `system`, `ref:…`, `path:…`.
    pub version: Option<String>,
    /// The directory it applies to ("" for the root).
    pub dir: RelPathBuf,
    pub source: Evidence,
}

const MISE_FILES: &[&str] = &["mise.toml", ".mise.toml", "mise.local.toml", ".rtx.toml"];

/// Every pin of the project's own version-manager files, by file path, in file order.
pub fn read_all(repo: &Repo) -> Vec<ToolPin> {
    let mut files: Vec<&RelPath> =
        [".tool-versions", "mise.toml", ".mise.toml", "mise.local.toml", ".rtx.toml", "config.toml"]
            .into_iter()
            .flat_map(|name| repo.named(name))
            .collect();
    files.sort_unstable();
    let mut pins = Vec::new();
    for rel in files {
        if !is_own_path(rel) {
            continue;
        }
        let name = rel.file_name();
        if name == ".tool-versions" {
            if let Some(text) = repo.read(rel) {
                pins.extend(tool_versions(&text).into_iter().map(|(line, tool, version)| ToolPin {
                    tool: normalise(&tool),
                    version,
                    dir: rel.parent().to_owned(),
                    source: Evidence::line(rel, line).of(Kind::VersionManager),
                }));
            }
        } else if MISE_FILES.contains(&name) || is_mise_config_dir_file(rel) {
            pins.extend(mise(repo, rel));
        }
    }
    pins
}

fn normalise(tool: &str) -> String {
    tool.strip_prefix("core:").unwrap_or(tool).to_ascii_lowercase()
}

/// `mise/config.toml`, `.mise/config.toml`, `.config/mise.toml`, `.config/mise/config.toml`.
fn is_mise_config_dir_file(rel: &RelPath) -> bool {
    let last_dir = rel.parent().file_name();
    match rel.file_name() {
        "config.toml" => last_dir == "mise" || last_dir == ".mise",
        "mise.toml" => last_dir == ".config",
        _ => false,
    }
}

/// The directory a version-manager file applies to (its config directory's parent).
fn project_dir(rel: &RelPath) -> &RelPath {
    let dir = rel.parent();
    match dir.file_name() {
        "mise" | ".mise" | ".config" => {
            let up = dir.parent();
            if up.file_name() == ".config" { up.parent() } else { up }
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

fn mise(repo: &Repo, rel: &RelPath) -> Vec<ToolPin> {
    let Some(table) = repo.read_toml(rel) else { return Vec::new() };
    let Some(tools) = table.get("tools").and_then(|t| t.as_table()) else { return Vec::new() };
    tools
        .iter()
        .map(|(tool, spec)| {
            // A string, a list (first wins) or a table with `version`.
            let version = match spec {
                toml::Value::String(v) => Some(v.as_str()),
                toml::Value::Array(vs) => vs.first().and_then(|v| v.as_str().or_else(|| v.get("version")?.as_str())),
                toml::Value::Table(t) => t.get("version").and_then(|v| v.as_str()),
                _ => None,
            };
            ToolPin {
                tool: normalise(tool),
                version: version.and_then(clean_version),
                dir: project_dir(rel).to_owned(),
                source: Evidence::key(rel, format!("tools.{tool}")).of(Kind::VersionManager),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::repo_with;

    #[test]
    fn tool_versions_file() {
        let (_dir, repo) = repo_with(&[(
            ".tool-versions",
            "nodejs 20.11.0\npython 3.12.1 3.11.7 # two\njava temurin-17.0.2+8\nerlang ref:master\npnpm 8.15.0\n\nelixir 1.16.0-otp-26\n",
        )]);
        let pins: Vec<_> =
            read_all(&repo).into_iter().map(|p| (p.tool, p.version, p.dir, p.source)).collect::<Vec<_>>();
        let rows: Vec<(&str, Option<&str>, &str)> =
            pins.iter().map(|(t, v, _, s)| (t.as_str(), v.as_deref(), s.as_test_str())).collect();
        assert_eq!(
            rows,
            [
                ("nodejs", Some("20.11.0"), ".tool-versions:1"),
                ("python", Some("3.12.1"), ".tool-versions:2"),
                ("java", Some("17.0.2+8"), ".tool-versions:3"),
                ("erlang", None, ".tool-versions:4"),
                ("pnpm", Some("8.15.0"), ".tool-versions:5"),
                ("elixir", Some("1.16.0-otp-26"), ".tool-versions:7"),
            ]
        );
    }

    #[test]
    fn mise_files() {
        let (_dir, repo) = repo_with(&[
            (
                "mise.toml",
                "[tools]\nnode = \"22\"\npython = [\"3.12\", \"3.11\"]\nruby = { version = \"3.3.0\" }\ngo = \"latest\"\n",
            ),
            ("api/.config/mise.toml", "[tools]\n\"core:rust\" = \"1.80\"\n"),
            ("bad/mise.toml", "[tools\n"),
        ]);
        let pins = read_all(&repo);
        let rows: Vec<_> = pins.iter().map(|p| (p.tool.as_str(), p.version.as_deref(), p.dir.as_str())).collect();
        assert_eq!(
            rows,
            [
                ("rust", Some("1.80"), "api"),
                ("node", Some("22"), ""),
                ("python", Some("3.12"), ""),
                ("ruby", Some("3.3.0"), ""),
                ("go", None, "")
            ]
        );
        assert!(repo.warnings().iter().any(|w| w.to_string().starts_with("bad/mise.toml: invalid TOML")));
    }
}
