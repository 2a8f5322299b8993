//! Go (`go.mod` `go`/`toolchain` lines, `go.work`).
//!
//! A `go.work` makes its `use` modules one project, downloaded from the workspace root.
//! Every other `go.mod` of the project's own is a module of its own (Go excludes nested
//! modules from their parent), so each gets its own `go mod download`.

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{
    Alias, Declaration, Ecosystem, EnvHelper, EnvRead, SettingsTypes, SetupStep, Toolchain,
};
use crate::detect::ecosystems::project::{counted, pm_path};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, too_deep_for_a_project};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};

mod cli_flags;
mod env;
mod envconfig;
mod helpers;
mod settings_overrides;
mod types;
mod viper;

pub struct Go;

/// What Go declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "go",
    toolchains: &[Toolchain::new("go", "Go")],
    package_managers: &["go"],
    programs: &["go"],
    manifests: &["go.mod"],
    aliases: &[
        Alias::action_with_files("actions/setup-go", "go", &["go-version"], &["go-version-file"]),
        Alias::image("golang", "go"),
        Alias::image("go", "go"),
        Alias::devcontainer_image("go", "go"),
        Alias::feature("go", "go"),
        Alias::feature("golang", "go"),
        Alias::nix("go", "go"),
        Alias::tool("go", "go"),
        Alias::tool("golang", "go"),
    ],
    setup_steps: &[SetupStep::new("go", "actions/setup-go@v5", "go-version")],
    devcontainer_features: &[("go", "ghcr.io/devcontainers/features/go:1")],
    test_commands: &[r"go[[:space:]]+test(?-u:\b)", r"gotestsum(?-u:\b)"],
    install_commands: &["go"],
    source_extensions: &["go"],
    install_programs: &["go"],
    versioned_manifests: &["go.mod"],
    ..Declaration::new(&Go)
};

impl Ecosystem for Go {
    /// Go templates that render configuration (`config.yaml.tmpl`, dockerize's and
    /// gomplate's `{{ .Env.X }}`), and configuration files expanded shell-style
    /// (`${X:-default}`, which `os.ExpandEnv` and entrypoints' `envsubst` fill in), and INI or
    /// TOML settings whose items the environment overrides (see [`settings_overrides`]).
    fn is_settings_file(&self, dir: &str, name: &str) -> bool {
        name.split('.').skip(1).any(|part| matches!(part, "tmpl" | "gotmpl" | "tpl"))
            || code::is_interpolated_config(dir, name)
            || settings_overrides::is_settings_file(name)
    }
    fn env_reads(&self, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        if rel.ends_with(".ini") || rel.ends_with(".toml") {
            return settings_overrides::reads(rel, text);
        }
        let mut reads = env::reads(rel, text);
        if rel.ends_with(".go") {
            reads.extend(cli_flags::reads(text));
            reads.extend(helpers::helper_calls(text));
        }
        reads
    }
    fn env_helpers(&self, text: &str) -> Vec<EnvHelper> {
        helpers::helpers(text)
    }
    fn env_prefix(&self, text: &str) -> Option<String> {
        env::prefix(text)
            .or_else(|| settings_overrides::prefix(text))
            .or_else(|| settings_overrides::nested_prefix(text))
    }
    fn settings_structs(&self, text: &str) -> SettingsTypes {
        let mut types = envconfig::settings_structs(text);
        types.roots.extend(viper::roots(text));
        types.root_prefix = viper::global_prefix(text);
        types
    }
    fn env_namespace(&self, text: &str) -> Option<String> {
        env::namespace(text)
    }
    fn walks_environment(&self, text: &str) -> bool {
        text.contains("os.Environ()")
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

fn detect(repo: &Repo, out: &mut Findings) {
    // A module's `go` line is the oldest Go that builds it: the one Go that builds every
    // module of the repo is the newest of them, so it comes first.
    let mut versions: Vec<(Option<String>, Evidence)> = Vec::new();
    let mut covered: Vec<RelPathBuf> = Vec::new();
    for dir in repo.project_dirs("go.work") {
        let path = dir.join(rel!("go.work"));
        let Some(text) = repo.read(&path) else { continue };
        let uses = work_uses(&text);
        for used in &uses {
            if used == "." || used == "./" {
                covered.push(dir.to_owned());
            } else if let Ok(member) = RelPath::new(used.trim_start_matches("./").trim_end_matches('/')) {
                covered.push(dir.join(member));
            }
        }
        covered.push(dir.to_owned());
        versions.push(version(&text, &path));
        out.package_manager("go", None, pm_path(dir), Evidence::file(path.clone()));
        out.note(format!(
            "go.work of {}{}",
            counted(uses.len(), "module"),
            if dir.is_empty() { String::new() } else { format!(" in {dir}") }
        ));
        out.step_in(dir, Phase::Install, "go mod download", Evidence::file(path.clone()));
        out.test(in_dir(dir, "go test ./..."), Evidence::file(path));
    }
    for dir in repo.project_dirs("go.mod") {
        if covered.iter().any(|c| c == dir) || too_deep_for_a_project(dir) || ignored_by_go(dir) {
            continue;
        }
        let path = dir.join(rel!("go.mod"));
        let Some(text) = repo.read(&path) else { continue };
        versions.push(version(&text, &path));
        out.package_manager("go", None, pm_path(dir), Evidence::file(path.clone()));
        let source =
            Evidence::file(if repo.exists(dir.join(rel!("go.sum"))) { dir.join(rel!("go.sum")) } else { path.clone() });
        out.step_in(dir, Phase::Install, "go mod download", source);
        out.test(in_dir(dir, "go test ./..."), Evidence::file(path));
    }
    versions.sort_by(|(a, _), (b, _)| match (a, b) {
        (Some(a), Some(b)) => version::cmp(b, a),
        (a, b) => b.is_some().cmp(&a.is_some()),
    });
    for (version, source) in versions {
        out.toolchain("go", version, source);
    }
}

/// Folders the go tool leaves out of `./...` (those starting with `_` or `.`, and
/// `testdata`): a module there is an example or a test's input (`_examples/rest`).
fn ignored_by_go(dir: &RelPath) -> bool {
    dir.split('/').any(|part| part.starts_with(['_', '.']) || part == "testdata")
}

/// The `toolchain go1.22.3` line pins the exact toolchain; else the `go 1.22.0` line. With
/// the line it came from.
fn version(text: &str, path: &RelPath) -> (Option<String>, Evidence) {
    let directive = |name: &str| {
        text.lines().enumerate().find_map(|(i, line)| {
            let rest = line.trim().strip_prefix(name)?;
            rest.starts_with([' ', '\t'])
                .then(|| (i + 1, rest.trim().split("//").next().unwrap_or("").trim().to_string()))
        })
    };
    if let Some((line, v)) = directive("toolchain")
        && let Some(v) = version::numeric_pin(v.trim_start_matches("go"))
    {
        return (Some(v), Evidence::line(path, line));
    }
    match directive("go") {
        Some((line, v)) => (version::numeric_pin(&v), Evidence::line(path, line)),
        None => (None, Evidence::file(path)),
    }
}

/// The directories of `use` directives, single or in a block.
fn work_uses(text: &str) -> Vec<String> {
    let mut uses = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        if in_block {
            if line == ")" {
                in_block = false;
            } else if !line.is_empty() {
                uses.push(line.trim_matches('"').to_string());
            }
        } else if let Some(rest) = line.strip_prefix("use") {
            let rest = rest.trim();
            if rest == "(" {
                in_block = true;
            } else if !rest.is_empty() {
                uses.push(rest.trim_matches('"').to_string());
            }
        }
    }
    uses
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_files() {
        assert_eq!(
            work_uses("go 1.22\n\nuse (\n\t./api\n\t./lib // shared\n)\nuse ./tools\n"),
            ["./api", "./lib", "./tools"]
        );
    }

    #[test]
    fn modules_the_go_tool_leaves_out_are_not_installed() {
        let scan = crate::detect::testing::scan(
            &Go,
            &[
                ("go.mod", "module example.com/chi\n\ngo 1.23\n"),
                ("_examples/rest/go.mod", "module example.com/rest\n\ngo 1.16\n"),
                ("internal/testdata/mod/go.mod", "module example.com/t\n\ngo 1.14\n"),
                ("tools/go.mod", "module example.com/tools\n\ngo 1.24\n"),
            ],
        );
        assert_eq!(scan.steps(), ["go mod download", "(cd tools && go mod download)"]);
        let versions: Vec<_> = scan.toolchain_rows().into_iter().map(|(_, v, _)| v).collect();
        assert_eq!(versions, [Some("1.24"), Some("1.23")]);
    }
}
