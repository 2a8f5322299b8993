//! Deno (`deno.json`/`deno.jsonc`, `deno.lock`).

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{Alias, Ecosystem, EnvRead, SetupStep, Toolchain};
use crate::detect::ecosystems::project::counted;
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, is_within, join, too_deep_for_a_project};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;

pub struct Deno;

impl Ecosystem for Deno {
    fn id(&self) -> &'static str {
        "deno"
    }
    fn toolchains(&self) -> &'static [Toolchain] {
        const TOOLCHAINS: &[Toolchain] = &[Toolchain::new("deno", "Deno")];
        TOOLCHAINS
    }
    fn manifests(&self) -> &'static [&'static str] {
        &["deno.json", "deno.jsonc"]
    }
    fn aliases(&self) -> &'static [Alias] {
        const ALIASES: &[Alias] = &[
            Alias::action("denoland/setup-deno", "deno", &["deno-version"]),
            Alias::image("deno", "deno"),
            Alias::feature("deno", "deno"),
            Alias::nix("deno", "deno"),
            Alias::tool("deno", "deno"),
        ];
        ALIASES
    }
    fn setup_steps(&self) -> &'static [SetupStep] {
        const STEPS: &[SetupStep] = &[SetupStep::new("deno", "denoland/setup-deno@v2", "deno-version").when_unpinned()];
        STEPS
    }
    fn test_commands(&self) -> &'static [&'static str] {
        &[r"deno\s+test(?-u:\b)"]
    }
    fn source_extensions(&self) -> &'static [&'static str] {
        &["ts", "tsx", "js", "jsx", "mjs"]
    }
    fn env_reads(&self, _rel: &str, text: &str) -> Vec<EnvRead> {
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"(?-u:\b)Deno\.env\.get\(\s*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`]\s*\)"#)
                .expect("the Deno environment-read pattern is valid")
        });
        code::reads_of(&READ, text, "Deno.env.get", code::script_need_after)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

fn detect(repo: &Repo, out: &mut Findings) {
    let mut dirs: Vec<&str> = ["deno.json", "deno.jsonc"].iter().flat_map(|m| repo.project_dirs(m)).collect();
    dirs.sort_by_key(|d| (if d.is_empty() { 0 } else { d.matches('/').count() + 1 }, *d));
    dirs.dedup();
    let mut projects: Vec<&str> = Vec::new();
    for dir in dirs {
        // Members of a Deno workspace (or any nested config) belong to the enclosing project.
        if projects.iter().any(|p| is_within(dir, p)) || too_deep_for_a_project(dir) {
            continue;
        }
        projects.push(dir);
        let config_path =
            ["deno.json", "deno.jsonc"].iter().map(|f| join(dir, f)).find(|p| repo.exists(p)).unwrap_or_default();
        let config = repo.read_jsonc(&config_path).map_or(Value::Null, |c| (*c).clone());
        let version_file = join(dir, ".dvmrc");
        let version = if repo.exists(&version_file) {
            repo.read(&version_file).and_then(|t| version::numeric_pin(t.trim()))
        } else {
            None
        };
        let source = if version.is_some() { version_file } else { config_path.clone() };
        out.toolchain("deno", version, source);
        let lock = join(dir, "deno.lock");
        let (install, source) =
            if repo.exists(&lock) { ("deno install --frozen", lock) } else { ("deno install", config_path.clone()) };
        out.step(Phase::Install, in_dir(dir, install), source);
        let has_test_task = config.pointer("/tasks/test").is_some();
        let (test, source) = if has_test_task {
            ("deno task test", format!("{config_path}#tasks.test"))
        } else {
            ("deno test", config_path.clone())
        };
        out.test(in_dir(dir, test), source);
        if let Some(members) = config.get("workspace").and_then(Value::as_array) {
            out.note(format!("deno workspace of {}", counted(members.len(), "member")));
        }
    }
}
