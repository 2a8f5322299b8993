//! Deno (`deno.json`/`deno.jsonc`, `deno.lock`).

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, EnvRead, SetupStep, Toolchain};
use crate::detect::ecosystems::project::counted;
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, too_deep_for_a_project};
use crate::detect::sources::Sources;
use crate::detect::sources::pins::ToolPin;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;
use crate::rel_path::rel;

pub struct Deno;

/// What Deno declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "deno",
    toolchains: &[Toolchain::new("deno", "Deno")],
    programs: &["deno"],
    manifests: &["deno.json", "deno.jsonc"],
    aliases: &[
        Alias::action("denoland/setup-deno", "deno", &["deno-version"]),
        Alias::image("deno", "deno"),
        Alias::feature("deno", "deno"),
        Alias::nix("deno", "deno"),
        Alias::tool("deno", "deno"),
    ],
    setup_steps: &[SetupStep::new("deno", "denoland/setup-deno@v2", "deno-version").when_unpinned()],
    test_commands: &[r"deno[[:space:]]+test(?-u:\b)"],
    source_extensions: &["ts", "tsx", "js", "jsx", "mjs"],
    install_programs: &["deno"],
    ..Declaration::new(&Deno)
};

impl Ecosystem for Deno {
    fn env_reads(&self, _rel: &RelPath, text: &str) -> Vec<EnvRead> {
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"(?-u:\b)Deno\.env\.get\([[:space:]]*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`][[:space:]]*\)"#)
                .expect("the Deno environment-read pattern is valid")
        });
        code::reads_of(&READ, text, "Deno.env.get", code::script_need_after)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), sources.pins(), out);
    }
}

/// Deno publishes itself on npm (`deno`), the registry a sandbox reaches anyway, though not
/// every release (2.4.5 is missing): the pinned one, else the newest of its minor line.
/// Deno trusts only its own copy of Mozilla's roots; a sandbox behind a proxy with its own
/// authority puts that in the system store, which pip, npm and curl read: Deno reads both.
fn deno_from_npm(version: Option<&str>) -> String {
    let install = match version {
        None => "npm install -g deno".to_string(),
        Some(v) => match v.rsplit_once('.') {
            Some((line, _)) if line.contains('.') => format!(
                "npm install -g deno@{v} || {{ echo \"hanzo-env: warning: deno {v} is not on the npm registry; installing the newest {line}\" >&2; npm install -g 'deno@~{line}'; }}"
            ),
            _ => format!("npm install -g deno@{v}"),
        },
    };
    format!(
        "export DENO_TLS_CA_STORE=\"${{DENO_TLS_CA_STORE:-system,mozilla}}\"\ncommand -v deno >/dev/null 2>&1 || {install}"
    )
}

/// Deno's version for the project in `dir`: its `.dvmrc`, else a version manager's pin there
/// or in a folder above; with its evidence.
fn deno_version(repo: &Repo, pins: &[ToolPin], dir: &RelPath) -> Option<(String, Evidence)> {
    let dvmrc = dir.join(rel!(".dvmrc"));
    if let Some(version) = repo.read(&dvmrc).and_then(|t| version::numeric_pin(t.trim())) {
        return Some((version, Evidence::file(dvmrc)));
    }
    let mut current = Some(dir);
    while let Some(d) = current {
        if let Some(pin) = super::folder_pin(pins, d, "deno") {
            return pin.version.as_deref().and_then(version::numeric_pin).map(|v| (v, pin.source.clone()));
        }
        current = (!d.is_root()).then(|| d.parent());
    }
    None
}

fn detect(repo: &Repo, pins: &[ToolPin], out: &mut Findings) {
    let mut dirs: Vec<&RelPath> = ["deno.json", "deno.jsonc"].iter().flat_map(|m| repo.project_dirs(m)).collect();
    dirs.sort_by_key(|d| (d.components().count(), *d));
    dirs.dedup();
    let mut projects: Vec<&RelPath> = Vec::new();
    for dir in dirs {
        // Members of a Deno workspace (or any nested config) belong to the enclosing project.
        if projects.iter().any(|p| dir.is_within(p)) || too_deep_for_a_project(dir) {
            continue;
        }
        projects.push(dir);
        let config_path = [rel!("deno.json"), rel!("deno.jsonc")]
            .map(|f| dir.join(f))
            .into_iter()
            .find(|p| repo.exists(p))
            .unwrap_or_default();
        let config = repo.read_jsonc(&config_path).map_or(Value::Null, |c| (*c).clone());
        let (version, source) = deno_version(repo, pins, dir).unzip();
        let source = source.unwrap_or_else(|| Evidence::file(&config_path));
        let bootstrap = deno_from_npm(version.as_deref());
        out.step(Phase::Toolchain, bootstrap, source.clone());
        out.toolchain("deno", version, source);
        let lock = dir.join(rel!("deno.lock"));
        let (install, source) =
            if repo.exists(&lock) { ("deno install --frozen", lock) } else { ("deno install", config_path.clone()) };
        out.step_in(dir, Phase::Install, install, Evidence::file(source));
        let has_test_task = config.pointer("/tasks/test").is_some();
        let (test, source) = if has_test_task {
            ("deno task test", Evidence::key(&config_path, "tasks.test"))
        } else {
            ("deno test", Evidence::file(&config_path))
        };
        out.test(in_dir(dir, test), source);
        if let Some(members) = config.get("workspace").and_then(Value::as_array) {
            out.note(format!("deno workspace of {}", counted(members.len(), "member")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    #[test]
    fn deno_comes_from_npm_at_the_version_pinned_nearest() {
        let files = [
            ("runtime-tests/deno/deno.json", r#"{"tasks": {}}"#),
            ("runtime-tests/deno/deno.lock", "{}"),
            (".tool-versions", "nodejs 24.7.0\nbun 1.2.19\ndeno 2.4.5\n"),
        ];
        let s = scan(&Deno, &files);
        assert_eq!(
            s.steps(),
            [
                "export DENO_TLS_CA_STORE=\"${DENO_TLS_CA_STORE:-system,mozilla}\"\ncommand -v deno >/dev/null 2>&1 || npm install -g deno@2.4.5 || { echo \"hanzo-env: warning: deno 2.4.5 is not on the npm registry; installing the newest 2.4\" >&2; npm install -g 'deno@~2.4'; }",
                "(cd runtime-tests/deno && deno install --frozen)"
            ]
        );
        assert!(deno_from_npm(Some("2")).ends_with("\ncommand -v deno >/dev/null 2>&1 || npm install -g deno@2"));
        assert_eq!(s.toolchain("deno"), Some((Some("2.4.5"), ".tool-versions:3")));
        // A `.dvmrc` beside the config speaks first; nothing pinned installs the latest.
        let s = scan(&Deno, &[files[0], files[1], files[2], ("runtime-tests/deno/.dvmrc", "2.1.0\n")]);
        assert_eq!(s.toolchain("deno"), Some((Some("2.1.0"), "runtime-tests/deno/.dvmrc")));
        let s = scan(&Deno, &[("deno.json", "{}")]);
        assert!(s.steps()[0].ends_with("\ncommand -v deno >/dev/null 2>&1 || npm install -g deno"));
    }
}
