//! Detector: Deno (`deno.json`/`deno.jsonc`, `deno.lock`).

use serde_json::Value;

use super::{exact_version, in_dir};
use crate::detect::repo::{is_within, join, too_deep_for_a_project};
use crate::detect::{Findings, Phase, Repo};

pub fn detect(repo: &Repo, out: &mut Findings) {
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
        let config = repo.read_jsonc(&config_path).unwrap_or(Value::Null);
        let version_file = join(dir, ".dvmrc");
        let version = if repo.exists(&version_file) {
            repo.read(&version_file).and_then(|t| exact_version(t.trim()))
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
            out.note(format!("deno workspace of {} members", members.len()));
        }
    }
}
