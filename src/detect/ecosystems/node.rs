//! Node (npm, yarn classic and berry, pnpm, bun).
//!
//! Which `package.json` files are projects: every one of the project's own (see
//! [`crate::detect::repo::is_project_path`]) that is not inside another Node project — except
//! that a nested one with its own lockfile and not a workspace member is a project too (a
//! separate app checked in beside the first). A workspace (package.json `workspaces`,
//! `pnpm-workspace.yaml`) is one install at its root; its members are counted, not installed.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use crate::detect::ecosystems::ecosystem::{Alias, Ecosystem, Toolchain};
use crate::detect::ecosystems::project::{Members, captured_names, pm_path, workspace_note};
use crate::detect::findings::{Findings, Origin, Phase, Service, Start, StartOrigin};
use crate::detect::repo::{Repo, is_own_path, is_within, join, parent_dir, too_deep_for_a_project};
use crate::detect::sources::Sources;
use crate::detect::sources::compose::ComposeStart;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;

pub struct Node;

impl Ecosystem for Node {
    fn id(&self) -> &'static str {
        "node"
    }
    fn toolchains(&self) -> &'static [Toolchain] {
        const TOOLCHAINS: &[Toolchain] = &[Toolchain::new("node", "Node"), Toolchain::new("bun", "Bun")];
        TOOLCHAINS
    }
    fn package_managers(&self) -> &'static [&'static str] {
        &["npm", "yarn", "pnpm", "bun"]
    }
    fn manifests(&self) -> &'static [&'static str] {
        &["package.json", "bun.lock", "bun.lockb"]
    }
    fn aliases(&self) -> &'static [Alias] {
        const ALIASES: &[Alias] = &[
            Alias::action_with_files("actions/setup-node", "node", &["node-version"], &["node-version-file"]),
            Alias::action_with_files("oven-sh/setup-bun", "bun", &["bun-version"], &["bun-version-file"]),
            Alias::image("node", "node"),
            Alias::image("bun", "bun"),
            Alias::devcontainer_image("typescript-node", "node"),
            Alias::devcontainer_image("javascript-node", "node"),
            Alias::feature("node", "node"),
            Alias::feature("nodejs", "node"),
            Alias::feature("bun", "bun"),
            Alias::nix("nodejs", "node"),
            Alias::nix("nodejs-slim", "node"),
            Alias::nix("bun", "bun"),
            Alias::tool("node", "node"),
            Alias::tool("nodejs", "node"),
            Alias::tool("bun", "bun"),
            Alias::package_manager_tool("pnpm", "pnpm"),
            Alias::package_manager_tool("yarn", "yarn"),
            Alias::package_manager_tool("npm", "npm"),
        ];
        ALIASES
    }
    fn test_commands(&self) -> &'static [&'static str] {
        &[
            r"(?:npm|pnpm|yarn|bun|nr|ni)\b[^;&|]*?\s(?:run\s+)?test(?:[:\-_][\w:\-]*)?(?:\s|$)",
            r"(?:npm|pnpm)\s+t(?:\s|$)",
            r"(?:npx\s+|pnpm\s+exec\s+|yarn\s+|bunx\s+)?(?:vitest|jest|mocha|ava|playwright\s+test|cypress\s+run)\b",
            r"bun\s+test\b",
            r"(?:npx\s+)?(?:turbo|nx)\b[^;&|]*?\stest\b",
        ]
    }
    fn install_commands(&self) -> &'static [&'static str] {
        &["npm|pnpm|yarn|bun"]
    }
    fn source_extensions(&self) -> &'static [&'static str] {
        &["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "vue", "svelte", "astro"]
    }
    /// `process.env.X`, `import.meta.env.X`, `Bun.env.X`, `process.env["X"]`, and the
    /// `env("X")` helpers apps define over them.
    fn env_reads(&self, _rel: &str, text: &str) -> Vec<(String, usize)> {
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(
                r#"(?:\bprocess\.env|\bimport\.meta\.env|\bBun\.env)\.([A-Za-z_][A-Za-z0-9_]*)|(?:\bprocess\.env\[|\benv\()\s*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`]"#,
            )
            .expect("the Node environment-read pattern is valid")
        });
        captured_names(&READ, text)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
        package_scripts(sources.repo(), out);
    }
}

const LOCKFILES: &[(&str, Pm)] = &[
    ("bun.lock", Pm::Bun),
    ("bun.lockb", Pm::Bun),
    ("pnpm-lock.yaml", Pm::Pnpm),
    ("yarn.lock", Pm::Yarn),
    ("package-lock.json", Pm::Npm),
    ("npm-shrinkwrap.json", Pm::Npm),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pm {
    Npm,
    Yarn,
    Pnpm,
    Bun,
}

impl Pm {
    fn name(self) -> &'static str {
        match self {
            Pm::Npm => "npm",
            Pm::Yarn => "yarn",
            Pm::Pnpm => "pnpm",
            Pm::Bun => "bun",
        }
    }
    fn from_name(name: &str) -> Option<Pm> {
        Some(match name {
            "npm" => Pm::Npm,
            "yarn" => Pm::Yarn,
            "pnpm" => Pm::Pnpm,
            "bun" => Pm::Bun,
            _ => return None,
        })
    }
}

/// A project root found so far, with the workspace members it covers.
struct Project {
    dir: String,
    members: Option<Members>,
}

fn detect(repo: &Repo, out: &mut Findings) {
    let mut projects: Vec<Project> = Vec::new();
    for dir in repo.project_dirs("package.json") {
        let enclosing = projects.iter().rev().find(|p| is_within(dir, &p.dir) && p.dir != dir);
        if let Some(parent) = enclosing {
            let relative = dir.strip_prefix(parent.dir.as_str()).unwrap_or(dir).trim_start_matches('/');
            let member = parent.members.as_ref().is_some_and(|m| m.contains(relative));
            let own_lockfile = LOCKFILES.iter().any(|(name, _)| repo.exists(&join(dir, name)));
            if member || !own_lockfile {
                continue;
            }
        }
        if too_deep_for_a_project(dir) {
            continue;
        }
        let members = project(repo, dir, out);
        projects.push(Project { dir: dir.to_string(), members });
    }
}

/// Report one Node project rooted at `dir`; returns its workspace members, if it has any.
fn project(repo: &Repo, dir: &str, out: &mut Findings) -> Option<Members> {
    let manifest_path = join(dir, "package.json");
    let manifest = repo.read_json(&manifest_path).map_or(Value::Null, |m| (*m).clone());

    // The package manager: `packageManager` names it; else the lockfile; else the workspace file.
    let declared = manifest.get("packageManager").and_then(Value::as_str).and_then(|spec| {
        let (name, version) = spec.split_once('@').unwrap_or((spec, ""));
        let version = version.split('+').next().unwrap_or_default();
        Pm::from_name(name).map(|pm| (pm, version::numeric_pin(version)))
    });
    let lockfile =
        LOCKFILES.iter().find(|(name, _)| repo.exists(&join(dir, name))).map(|(name, pm)| (join(dir, name), *pm));
    let pnpm_workspace = join(dir, "pnpm-workspace.yaml");
    let (pm, pm_version, pm_source) = match (&declared, &lockfile) {
        (Some((pm, version)), _) => (*pm, version.clone(), format!("{manifest_path}#packageManager")),
        (None, Some((path, pm))) => (*pm, None, path.clone()),
        (None, None) if repo.exists(&pnpm_workspace) => (Pm::Pnpm, None, pnpm_workspace.clone()),
        (None, None) => (Pm::Npm, None, manifest_path.clone()),
    };
    // A lockfile of another manager than the declared one is not ours to freeze.
    let frozen = lockfile.as_ref().filter(|(_, lock_pm)| *lock_pm == pm).map(|(path, _)| path.clone());

    node_version(repo, dir, &manifest, &manifest_path, pm, out);
    out.package_manager(pm.name(), pm_version.clone(), pm_path(dir), pm_source.clone());

    let yarn_berry = pm == Pm::Yarn && is_yarn_berry(repo, dir, pm_version.as_deref());
    match pm {
        Pm::Pnpm | Pm::Yarn => {
            let source = if declared.is_some() { pm_source.clone() } else { manifest_path.clone() };
            // Node 25 and later no longer ship corepack, and the corepack of older Nodes
            // (before 0.31) cannot verify the signatures of current pnpm/yarn releases.
            out.step(
                Phase::Toolchain,
                "printf '%s\\n' 0.31.0 \"$(corepack --version 2>/dev/null || echo 0)\" | sort -V -C || npm install -g corepack@latest\ncorepack enable",
                source,
            );
        }
        Pm::Bun => {
            let install = match &pm_version {
                Some(v) => format!("npm install -g bun@{v}"),
                None => "npm install -g bun".into(),
            };
            out.step(Phase::Toolchain, format!("command -v bun >/dev/null 2>&1 || {install}"), pm_source.clone());
        }
        Pm::Npm => {}
    }
    let install = match (pm, frozen.is_some()) {
        (Pm::Npm, true) => "npm ci",
        (Pm::Npm, false) => "npm install",
        (Pm::Pnpm, true) => "pnpm install --frozen-lockfile",
        (Pm::Pnpm, false) => "pnpm install",
        (Pm::Yarn, true) if yarn_berry => "yarn install --immutable",
        (Pm::Yarn, true) => "yarn install --frozen-lockfile",
        (Pm::Yarn, false) => "yarn install",
        (Pm::Bun, true) => "bun install --frozen-lockfile",
        (Pm::Bun, false) => "bun install",
    };
    out.step(Phase::Install, in_dir(dir, install), frozen.unwrap_or_else(|| manifest_path.clone()));

    tests(&manifest, &manifest_path, dir, pm, out);
    workspace(repo, dir, &manifest, &manifest_path, pm, out)
}

/// Node's version: `.nvmrc`/`.node-version` (here or in a parent), `volta.node`, then an
/// `engines.node` that pins rather than sets a floor. Bun projects report Bun, and Node only
/// when something pins it.
fn node_version(repo: &Repo, dir: &str, manifest: &Value, manifest_path: &str, pm: Pm, out: &mut Findings) {
    // `.nvmrc` before `.node-version` in each folder, the nearest folder first.
    let mut found: Option<(Option<String>, String)> = None;
    let mut current = Some(dir);
    while let Some(d) = current
        && found.is_none()
    {
        found =
            [".nvmrc", ".node-version"].into_iter().map(|file| join(d, file)).find(|p| repo.exists(p)).map(|path| {
                let text = repo.read(&path).unwrap_or_default();
                (version::first_line(&text).and_then(nvmrc_version), path)
            });
        current = (!d.is_empty()).then(|| parent_dir(d));
    }
    if found.as_ref().is_none_or(|(v, _)| v.is_none())
        && let Some(v) = manifest.pointer("/volta/node").and_then(Value::as_str).and_then(version::numeric_pin)
    {
        found = Some((Some(v), format!("{manifest_path}#volta.node")));
    }
    if found.as_ref().is_none_or(|(v, _)| v.is_none())
        && let Some(range) = manifest.pointer("/engines/node").and_then(Value::as_str)
    {
        let pinned = version::semver_pin(range);
        if pinned.is_some() || found.is_none() {
            found = Some((pinned, format!("{manifest_path}#engines.node")));
        }
    }
    if pm == Pm::Bun {
        let version = manifest
            .get("packageManager")
            .and_then(Value::as_str)
            .and_then(|s| s.strip_prefix("bun@"))
            .and_then(|v| version::numeric_pin(v.split('+').next().unwrap_or_default()));
        let source =
            if version.is_some() { format!("{manifest_path}#packageManager") } else { manifest_path.to_string() };
        out.toolchain("bun", version, source);
        if let Some((Some(v), source)) = found {
            out.toolchain("node", Some(v), source);
        }
        return;
    }
    match found {
        Some((version, source)) => out.toolchain("node", version, source),
        None => out.toolchain("node", None, manifest_path.to_string()),
    }
}

/// `.nvmrc` content: `20`, `v20.11.1`, `lts/iron` (a codename is a major version);
/// `lts/*`, `node`, `stable` pin nothing.
fn nvmrc_version(text: &str) -> Option<String> {
    if let Some(codename) = text.strip_prefix("lts/") {
        let major = match codename.to_ascii_lowercase().as_str() {
            "argon" => "4",
            "boron" => "6",
            "carbon" => "8",
            "dubnium" => "10",
            "erbium" => "12",
            "fermium" => "14",
            "gallium" => "16",
            "hydrogen" => "18",
            "iron" => "20",
            "jod" => "22",
            "krypton" => "24",
            _ => return None,
        };
        return Some(major.into());
    }
    version::numeric_pin(text)
}

/// Yarn 2+ ("berry"): a `.yarnrc.yml`, a `packageManager` of yarn 2 or later, or a lockfile in
/// the berry format (it has a `__metadata:` block; classic lockfiles start `# yarn lockfile v1`).
fn is_yarn_berry(repo: &Repo, dir: &str, declared: Option<&str>) -> bool {
    if let Some(major) = declared.and_then(|v| v.split('.').next()).and_then(|m| m.parse::<u32>().ok()) {
        return major >= 2;
    }
    if repo.exists(&join(dir, ".yarnrc.yml")) {
        return true;
    }
    let lock = join(dir, "yarn.lock");
    repo.exists(&lock) && repo.read(&lock).is_some_and(|text| text.contains("\n__metadata:"))
}

/// The test command: the `test` script (unless it is npm's placeholder), else the first
/// `test:*`/`test-*` script.
fn tests(manifest: &Value, manifest_path: &str, dir: &str, pm: Pm, out: &mut Findings) {
    let Some(scripts) = manifest.get("scripts").and_then(Value::as_object) else { return };
    let placeholder = |body: &str| body.contains("no test specified");
    let chosen = match scripts.get("test").and_then(Value::as_str) {
        Some(body) if !placeholder(body) => Some("test"),
        _ => scripts
            .iter()
            .find(|(name, body)| {
                (name.starts_with("test:") || name.starts_with("test-"))
                    && body.as_str().is_some_and(|b| !placeholder(b))
            })
            .map(|(name, _)| name.as_str()),
    };
    let Some(script) = chosen else { return };
    let command = match (pm, script) {
        (Pm::Npm, "test") => "npm test".to_string(),
        (Pm::Npm, _) => format!("npm run {script}"),
        // `bun test` is Bun's own runner, not the script.
        (Pm::Bun, _) => format!("bun run {script}"),
        (_, "test") => format!("{} test", pm.name()),
        (_, _) => format!("{} run {script}", pm.name()),
    };
    out.test(in_dir(dir, &command), format!("{manifest_path}#scripts.{script}"));
}

/// Workspace members from package.json `workspaces` (a list, or `{packages: […]}`) and
/// `pnpm-workspace.yaml` `packages:`; reported as a note, returned to skip the members.
fn workspace(
    repo: &Repo,
    dir: &str,
    manifest: &Value,
    manifest_path: &str,
    pm: Pm,
    out: &mut Findings,
) -> Option<Members> {
    let mut patterns: Vec<String> = Vec::new();
    let from_manifest = match manifest.get("workspaces") {
        Some(Value::Array(items)) => Some(items),
        Some(Value::Object(map)) => map.get("packages").and_then(Value::as_array),
        _ => None,
    };
    if let Some(items) = from_manifest {
        patterns.extend(items.iter().filter_map(Value::as_str).map(str::to_string));
    }
    let pnpm_workspace = join(dir, "pnpm-workspace.yaml");
    if repo.exists(&pnpm_workspace)
        && let Some(docs) = repo.read_yaml(&pnpm_workspace)
        && let Some(packages) = docs.first().and_then(|d| d["packages"].as_vec())
    {
        patterns.extend(packages.iter().filter_map(|p| p.as_str()).map(str::to_string));
    }
    if patterns.is_empty() {
        return None;
    }
    let members =
        Members::new(patterns.iter().map(String::as_str), &[], |w| repo.warn(format!("{manifest_path}: {w}")));
    out.note(workspace_note(pm.name(), members.count(repo, dir, "package.json"), "package", dir));
    Some(members)
}

/// `package.json` scripts that bring services up with `docker compose`: start candidates,
/// from every package of the project (workspace members too).
fn package_scripts(repo: &Repo, out: &mut Findings) {
    for rel in repo.named("package.json").into_iter().filter(|rel| is_own_path(rel)) {
        let Some(manifest) = repo.read_json(rel) else { continue };
        let Some(scripts) = manifest.get("scripts").and_then(Value::as_object) else { continue };
        for (name, script) in scripts {
            let Some(start) = script.as_str().and_then(|s| ComposeStart::of_line(repo, parent_dir(rel), s)) else {
                continue;
            };
            if start.named {
                for started in &start.services {
                    out.add_service(Service::started(started, Origin::Task));
                }
            }
            out.start(Start {
                command: start.command(),
                source: format!("{rel}#scripts.{name}"),
                origin: StartOrigin::Script,
                compose: Some(start),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvmrc_versions() {
        assert_eq!(nvmrc_version("lts/*"), None);
        assert_eq!(nvmrc_version("lts/iron").as_deref(), Some("20"));
        assert_eq!(nvmrc_version("v22.3.0").as_deref(), Some("22.3.0"));
    }

    #[test]
    fn package_scripts_that_start_compose() {
        let scan = crate::detect::testing::scan(
            &Node,
            &[
                (
                    "web/package.json",
                    r#"{"scripts": {"db:up": "docker compose -f ../infra/compose.yml up -d", "dev": "vite"}}"#,
                ),
                ("infra/compose.yml", "services:\n  redis:\n    image: redis:7\n"),
            ],
        );
        let starts = &scan.findings.starts;
        assert_eq!(starts.len(), 1);
        assert_eq!(starts[0].command, "docker compose -f infra/compose.yml up -d redis");
        assert_eq!(
            (starts[0].source.as_str(), starts[0].origin),
            ("web/package.json#scripts.db:up", StartOrigin::Script)
        );
    }
}
