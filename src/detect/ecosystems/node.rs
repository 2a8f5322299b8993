//! Node (npm, yarn classic and berry, pnpm, bun).
//!
//! Which `package.json` files are projects: every one of the project's own (see
//! [`crate::detect::repo::is_project_path`]) that is not inside another Node project — except
//! that a nested one with its own lockfile and not a workspace member is a project too (a
//! separate app checked in beside the first). A workspace (package.json `workspaces`,
//! `pnpm-workspace.yaml`) is one install at its root; its members are counted, not installed.

use crate::rel_path::RelPath;
use crate::rel_path::rel;
use crate::warning::Warning;
use serde_json::Value;

use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, EnvHelper, EnvRead, SetupStep, Toolchain};
use crate::detect::ecosystems::project::{Members, pm_path, workspace_note};
use crate::detect::findings::{Findings, Kind, Phase, Service, Start, StartOrigin};
use crate::detect::repo::{Repo, is_own_path, too_deep_for_a_project};
use crate::detect::sources::Sources;
use crate::detect::sources::compose::ComposeStart;
use crate::detect::sources::pins::ToolPin;
use crate::detect::sources::version;
use crate::evidence::Evidence;

mod ci_install;
mod docs_site;
mod env;
mod test_script;
pub use docs_site::is_app_package;

pub struct Node;

/// What Node declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "node",
    toolchains: &[Toolchain::new("node", "Node"), Toolchain::new("bun", "Bun")],
    package_managers: &["npm", "yarn", "pnpm", "bun"],
    // `bun test` runs on Bun's runtime, which a project installed with npm or pnpm lacks (a
    // CI job that checks the library under Bun too).
    environment_runners: &["bun"],
    other_runtimes: &["bun", "deno"],
    command_actions: &[("borales/actions-yarn", "yarn", &["cmd"])],
    programs: &["node", "npm", "npx", "yarn", "pnpm", "corepack"],
    manifests: &["package.json", "bun.lock", "bun.lockb"],
    aliases: &[
        Alias::action_with_files("actions/setup-node", "node", &["node-version"], &["node-version-file"]),
        Alias::action_with_files("oven-sh/setup-bun", "bun", &["bun-version"], &["bun-version-file"]),
        // pnpm's setup actions install Node too when asked: `runtime: node@26`.
        Alias::action("pnpm/setup", "node", &["runtime"]),
        Alias::action("pnpm/action-setup", "node", &["runtime"]),
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
    ],
    setup_steps: &[
        SetupStep::new("node", "actions/setup-node@v4", "node-version"),
        SetupStep::new("bun", "oven-sh/setup-bun@v2", "bun-version").when_unpinned(),
        SetupStep::new("pnpm", "pnpm/action-setup@v4", "version").reads_package_manager_field(),
        // Its successor: read, not written (export writes the first).
        SetupStep::new("pnpm", "pnpm/setup@v1", "version"),
    ],
    devcontainer_features: &[("node", "ghcr.io/devcontainers/features/node:1")],
    test_commands: &[
        // `test`, `test:unit`, and the suite alone or whole glued to the word (`testonly`, `testall`),
        // past options and their values (`pnpm --filter web test`) but not past another script
        // run (`yarn run eslint src test` lints the folder `test`): no word before it is `run`.
        r"(?:npm|pnpm|yarn|bun|nr|ni)(?-u:\b)(?:[[:space:]]+(?:[^;&|[:space:]]{4,}|[^;&|[:space:]]{1,2}|[^r;&|[:space:]][^;&|[:space:]]{2}|r[^u;&|[:space:]][^;&|[:space:]]|ru[^n;&|[:space:]]))*?[[:space:]]+(?:run(?:[[:space:]]+-[^;&|[:space:]]+)*[[:space:]]+)?tests?(?:only|all)?(?:[:\-_][[:word:]:\-]*)?(?:[[:space:]]|$)",
        // A namespaced script whose last part says test (`ci:backend:test`).
        r"(?:npm|pnpm|yarn|bun)(?-u:\b)[^;&|]*?[[:space:]](?:run[[:space:]]+)?[[:word:]\-]+(?::[[:word:]\-]+)*:test(?:[[:space:]]|$)",
        r"(?:npm|pnpm)[[:space:]]+t(?:[[:space:]]|$)",
        r"(?:npx[[:space:]]+|pnpm[[:space:]]+exec[[:space:]]+|yarn[[:space:]]+|bunx[[:space:]]+)?(?:vitest|jest|mocha|ava|playwright[[:space:]]+test|cypress[[:space:]]+run)(?-u:\b)",
        r"bun[[:space:]]+test(?-u:\b)",
        r"(?:npx[[:space:]]+)?(?:turbo|nx)(?-u:\b)[^;&|]*?[[:space:]]test(?-u:\b)",
    ],
    install_commands: &["npm|pnpm|yarn|bun"],
    source_extensions: &["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "vue", "svelte", "astro"],
    test_runners: &["jest", "vitest", "mocha"],
    install_programs: &["bun", "corepack", "npm", "pnpm", "yarn"],
    script_runners: &["npm", "pnpm", "yarn", "bun"],
    publish_commands: &[("npm", "publish"), ("yarn", "publish"), ("pnpm", "publish")],
    versioned_manifests: &["package.json"],
    test_file_words: &["jest", "vitest", "playwright", "cypress", "karma", "setuptests"],
    skipped_dirs: &[
        "node_modules",
        "bower_components",
        "jspm_packages",
        ".next",
        ".nuxt",
        ".svelte-kit",
        ".turbo",
        ".parcel-cache",
    ],
    ..Declaration::new(&Node)
};

impl Ecosystem for Node {
    fn runner_env(&self, sources: &Sources, dir: &RelPath, command: &str) -> Vec<(&'static str, &'static str)> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let script = match words.as_slice() {
            ["npm" | "pnpm" | "yarn" | "bun", "run", script, ..] => *script,
            ["npm" | "pnpm" | "yarn", "test" | "t", ..] => "test",
            ["yarn" | "pnpm", script, ..] => *script,
            _ => return Vec::new(),
        };
        let manifest = sources.repo().read_json(dir.join(rel!("package.json")));
        let body =
            manifest.as_deref().and_then(|m| m.pointer(&format!("/scripts/{}", script.replace('/', "~1"))).cloned());
        match body.as_ref().and_then(Value::as_str) {
            Some(body) if test_script::watches_unless_ci(body) => vec![("CI", "true")],
            _ => Vec::new(),
        }
    }
    /// Prisma schemas name their database URL with `env("DATABASE_URL")`; a `turbo.json`
    /// lists the variables its tasks depend on.
    fn is_settings_file(&self, _dir: &str, name: &str) -> bool {
        name.ends_with(".prisma") || name == "turbo.json"
    }
    fn env_reads(&self, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        env::reads(rel, text)
    }
    fn env_helpers(&self, text: &str) -> Vec<EnvHelper> {
        env::env_helpers(text)
    }
    /// NestJS reads by a constant, which another file may hold (see [`env::reads_by_constant`]).
    fn env_reads_in(&self, sources: &Sources, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        let mut reads = env::reads(rel, text);
        reads.extend(env::reads_by_constant(sources, rel, text));
        reads
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources, out);
        package_scripts(sources.repo(), out);
    }
}

const LOCKFILES: &[(&RelPath, Pm)] = &[
    (rel!("bun.lock"), Pm::Bun),
    (rel!("bun.lockb"), Pm::Bun),
    (rel!("pnpm-lock.yaml"), Pm::Pnpm),
    (rel!("yarn.lock"), Pm::Yarn),
    (rel!("package-lock.json"), Pm::Npm),
    (rel!("npm-shrinkwrap.json"), Pm::Npm),
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
struct Project<'r> {
    dir: &'r RelPath,
    members: Option<Members>,
}

fn detect(sources: &Sources, out: &mut Findings) {
    let repo = sources.repo();
    let mut projects: Vec<Project> = Vec::new();
    for dir in repo.project_dirs("package.json") {
        let enclosing = projects.iter().rev().find(|p| dir.is_within(p.dir) && p.dir != dir);
        if let Some(parent) = enclosing {
            let relative = dir.relative_to(parent.dir).unwrap_or(dir);
            let member = parent.members.as_ref().is_some_and(|m| m.contains(relative));
            let own_lockfile = LOCKFILES.iter().any(|(name, _)| repo.exists(dir.join(name)));
            if member || !own_lockfile || holds_dependencies_only(repo, dir) {
                continue;
            }
        }
        if too_deep_for_a_project(dir) {
            continue;
        }
        let members = project(sources, dir, out);
        projects.push(Project { dir, members });
    }
}

/// Report one Node project rooted at `dir`; returns its workspace members, if it has any.
/// A nested `package.json` with neither a `name` nor `scripts` (`{"dependencies": {"heapdump":
/// …}}` beside a benchmark script): what the scripts of that folder load, no package of the
/// project's; installing it (a native addon, often) is no part of what the tests need.
fn holds_dependencies_only(repo: &Repo, dir: &RelPath) -> bool {
    repo.read_json(dir.join(rel!("package.json")))
        .is_some_and(|manifest| manifest.get("name").is_none() && manifest.get("scripts").is_none())
}

fn project(sources: &Sources, dir: &RelPath, out: &mut Findings) -> Option<Members> {
    let (repo, pins) = (sources.repo(), sources.pins());
    let manifest_path = dir.join(rel!("package.json"));
    let manifest = repo.read_json(&manifest_path).map_or(Value::Null, |m| (*m).clone());

    // The package manager: `packageManager` names it, or `devEngines.packageManager` (npm's
    // field, which pnpm follows: `{"name": "pnpm", "version": "11.1.2"}`, or a list of such);
    // else the lockfile; else the workspace file.
    let declared_by_field = manifest.get("packageManager").and_then(Value::as_str).and_then(|spec| {
        let (name, version) = spec.split_once('@').unwrap_or((spec, ""));
        let version = version.split('+').next().unwrap_or_default();
        Pm::from_name(name).map(|pm| (pm, version::numeric_pin(version), "packageManager"))
    });
    let dev_engine = |entry: &Value| {
        let pm = Pm::from_name(entry.get("name")?.as_str()?)?;
        let version = entry.get("version").and_then(Value::as_str).and_then(version::numeric_pin);
        Some((pm, version, "devEngines.packageManager"))
    };
    let declared_by_dev_engines = manifest.pointer("/devEngines/packageManager").and_then(|field| match field {
        Value::Array(entries) => entries.iter().find_map(dev_engine),
        entry => dev_engine(entry),
    });
    let declared = declared_by_field.or(declared_by_dev_engines);
    let lockfile =
        LOCKFILES.iter().find(|(name, _)| repo.exists(dir.join(name))).map(|(name, pm)| (dir.join(name), *pm));
    let pnpm_workspace = dir.join(rel!("pnpm-workspace.yaml"));
    let (pm, pm_version, pm_source) = match (&declared, &lockfile) {
        (Some((pm, version, key)), _) => (*pm, version.clone(), Evidence::key(&manifest_path, *key)),
        (None, Some((path, pm))) => (*pm, None, Evidence::file(path)),
        (None, None) if repo.exists(&pnpm_workspace) => (Pm::Pnpm, None, Evidence::file(&pnpm_workspace)),
        (None, None) => (Pm::Npm, None, Evidence::file(&manifest_path)),
    };
    // A lockfile of another manager than the declared one is not ours to freeze.
    let frozen = lockfile.as_ref().filter(|(_, lock_pm)| *lock_pm == pm).map(|(path, _)| path.clone());

    let pin =
        node_version(repo, pins, dir, &manifest, &manifest_path, pm, out).filter(|(_, e)| !e.is_key("engines.node"));
    // The Node the package manager needs: of the version `packageManager` names, else the one
    // CI sets up (pnpm 11 from `pnpm/setup` needs Node 22.13, where the machine may have 20).
    let ci_pm =
        if declared.is_none() && matches!(pm, Pm::Pnpm | Pm::Yarn) { ci_version(sources, repo, dir, pm) } else { None };
    let needed = match (&pm_version, &ci_pm) {
        (Some(v), _) => node_floor(pm, v).map(|floor| (floor, v.clone(), pm_source.clone())),
        (None, Some((v, source))) => node_floor(pm, v).map(|floor| (floor, v.clone(), source.clone())),
        (None, None) => None,
    };
    match &pin {
        Some((version, evidence)) => {
            if let Some((floor, pm_version, pm_evidence)) = &needed
                && version::cmp(version, floor).is_lt()
                && !floor.starts_with(&format!("{version}."))
            {
                out.warn(Warning::general(format!(
                    "{evidence} pins Node {version}, but {} {pm_version} ({pm_evidence}) needs Node {floor} or newer\n\
                     hint: raise the Node pin, or pin an older {} in package.json's packageManager",
                    pm.name(),
                    pm.name()
                )));
            }
            out.helper(Phase::Toolchain, "hanzo_node", vec![version.clone()], evidence.clone())
        }
        // Nothing pins one: the oldest Node the project runs on is the highest of the floors of
        // its package manager, its `engines.node` (`>=22.12.0`: a test runner's flags may need
        // it) and the oldest major CI sets up (a dependency's engines may refuse an older Node,
        // as yarn does). Each one alone may be below another.
        None => {
            let engines = manifest
                .pointer("/engines/node")
                .and_then(Value::as_str)
                .and_then(version::lowest_floor)
                .map(|floor| (floor, Evidence::key(&manifest_path, "engines.node")));
            let tested = super::ci_setup::tested_versions(sources, "node", |_| true, |_| false);
            // CI's newest major, where every setup names one: the project is tested up to it
            // (a newer Node's globals or stricter checks may break its suite).
            let newest = tested.as_ref().and_then(|tested| tested.newest.as_ref()).map(|pin| pin.major());
            let tested = tested.map(|tested| (tested.oldest.0.major().to_string(), tested.oldest.1));
            let floors = needed
                .iter()
                .map(|(floor, _, source)| (floor.to_string(), source.clone()))
                .chain(engines)
                .chain(tested);
            // The highest; the first of equals (the package manager's, then engines').
            let highest = floors.fold(None, |best: Option<(String, Evidence)>, (floor, source)| match best {
                Some(kept) if !version::cmp(&floor, &kept.0).is_gt() => Some(kept),
                _ => Some((floor, source)),
            });
            if let Some((floor, source)) = highest {
                let floor_major = floor.split('.').next().and_then(|major| major.parse::<u32>().ok());
                match newest.filter(|newest| floor_major.is_some_and(|f| *newest >= f)) {
                    Some(newest) => {
                        out.helper(Phase::Toolchain, "hanzo_node_tested", vec![floor, newest.to_string()], source)
                    }
                    None => out.helper(Phase::Toolchain, "hanzo_node", vec![format!(">={floor}")], source),
                }
            }
        }
    }
    out.package_manager(pm.name(), pm_version.clone(), pm_path(dir), pm_source.clone());

    let yarn_berry = pm == Pm::Yarn && is_yarn_berry(repo, dir, pm_version.as_deref());
    match pm {
        Pm::Pnpm | Pm::Yarn => {
            // Unless `packageManager` names it: the version CI sets up, else the major its
            // `engines` asks for (`"pnpm": ">= 10"`: a lockfile format several majors write
            // says less), else the lockfile's hint.
            let (version, source) = match (&declared, ci_pm) {
                (Some(_), _) => (pm_version.clone(), pm_source.clone()),
                (None, Some((version, source))) => (Some(version), source),
                (None, None) => match engines_major(&manifest, pm, lockfile_version_hint(repo, dir, pm)) {
                    Some(major) => (Some(major), Evidence::key(&manifest_path, format!("engines.{}", pm.name()))),
                    None => (lockfile_version_hint(repo, dir, pm), Evidence::file(&manifest_path)),
                },
            };
            out.helper(Phase::Toolchain, "hanzo_pm", package_manager_setup(pm, version.as_deref(), yarn_berry), source);
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
    let evidence = frozen.clone().unwrap_or_else(|| manifest_path.clone());
    let skipped = frozen.as_deref().map(|lock| downloads_at_install(repo, lock)).unwrap_or_default();
    if !skipped.is_empty() {
        let exports: Vec<&str> = skipped.iter().map(|d| d.skip).collect();
        let names: Vec<&str> = skipped.iter().map(|d| d.package).collect();
        out.step(Phase::Install, format!("export {}", exports.join(" ")), Evidence::file(&evidence));
        out.note(format!(
            "{} download a browser or binary from outside the npm registry at install: skipped ({})",
            names.join(", "),
            skipped.iter().map(|d| d.later).collect::<Vec<_>>().join("; ")
        ));
    }
    let (install, source) = ci_install::with_ci_flags(sources, dir, pm == Pm::Npm, install, Evidence::file(evidence));
    out.step_in(dir, Phase::Install, install, source);

    test_script::build_first(repo, &manifest, &manifest_path, dir, pm, out);
    test_script::tests(&manifest, &manifest_path, dir, pm, out);
    workspace(repo, dir, &manifest, &manifest_path, pm, out)
}

/// A package whose install script downloads a browser or binary from its own servers rather
/// than the npm registry: where only the registry is reachable the whole install fails.
struct InstallDownload {
    package: &'static str,
    /// The variable that skips the download.
    skip: &'static str,
    /// How to fetch it later, when it is wanted.
    later: &'static str,
}

const INSTALL_DOWNLOADS: &[InstallDownload] = &[
    InstallDownload {
        package: "puppeteer",
        skip: "PUPPETEER_SKIP_DOWNLOAD=1",
        later: "`npx puppeteer browsers install chrome` fetches Chrome",
    },
    InstallDownload {
        package: "cypress",
        skip: "CYPRESS_INSTALL_BINARY=0",
        later: "`npx cypress install` fetches Cypress",
    },
    InstallDownload {
        package: "electron",
        skip: "ELECTRON_SKIP_BINARY_DOWNLOAD=1",
        later: "`node node_modules/electron/install.js` fetches Electron",
    },
];

/// The packages of [`INSTALL_DOWNLOADS`] a lockfile resolves.
fn downloads_at_install(repo: &Repo, lockfile: &RelPath) -> Vec<&'static InstallDownload> {
    // Lockfiles run to megabytes and are read once: not kept.
    let Some(text) = repo.exists(lockfile).then(|| repo.read_once(lockfile)).flatten() else { return Vec::new() };
    INSTALL_DOWNLOADS
        .iter()
        .filter(|d| {
            // `/puppeteer@1`, ` puppeteer@^1` (pnpm, yarn) or `node_modules/puppeteer"` (npm), not
            // `puppeteer-core` or `electron-to-chromium`.
            let name = d.package;
            [
                format!("/{name}@"),
                format!(" {name}@"),
                format!("\n{name}@"),
                format!("\"{name}@"),
                format!("node_modules/{name}\""),
            ]
            .iter()
            .any(|needle| text.contains(needle.as_str()))
        })
        .collect()
}

/// Corepack's shims for pnpm and yarn, at the version the project declares; and when corepack
/// is missing (Node 25 and later) or cannot fetch or verify the release (an old corepack, a
/// registry mirror without signatures), the package manager from npm itself. The shims go
/// where npm puts global tools (`npm prefix -g`), which `verify` keeps in its scratch copy.
/// A package manager of the declared version on PATH already is left alone.
fn package_manager_setup(pm: Pm, version: Option<&str>, yarn_berry: bool) -> Vec<String> {
    let name = pm.name().to_string();
    // npm's `yarn` is 1.x; Yarn 2+ is published as @yarnpkg/cli-dist.
    let from_npm = match (pm, version) {
        (Pm::Yarn, Some(v)) if yarn_berry => Some(format!("@yarnpkg/cli-dist@{v}")),
        (Pm::Yarn, None) if yarn_berry => Some("@yarnpkg/cli-dist".to_string()),
        _ => None,
    };
    match (version, from_npm) {
        (v, Some(package)) => vec![name, v.unwrap_or_default().to_string(), package],
        (Some(v), None) => vec![name, v.to_string()],
        (None, None) => vec![name],
    }
}

/// The version of `pm` CI's official setup step installs (`pnpm/action-setup` with
/// `version: 10`: a lockfile format several majors write says less), with its evidence. The
/// action takes a semver range: `^7` is pnpm 7, the major the job runs. A pin older than the
/// lockfile's format is stale (a workflow left at pnpm 4 beside a v9 lockfile, which pnpm 4
/// cannot read): the lockfile's major then.
fn ci_version(sources: &Sources, repo: &Repo, dir: &RelPath, pm: Pm) -> Option<(String, Evidence)> {
    let steps: Vec<&SetupStep> = DECLARATION.setup_steps.iter().filter(|step| step.target == pm.name()).collect();
    let (version, source) = sources.workflows().jobs.iter().flat_map(|job| &job.actions).find_map(|used| {
        let step = steps.iter().find(|step| step.uses.split('@').next() == Some(used.action.as_str()))?;
        let version = used.inputs.get(step.version_input).and_then(|input| version::semver_pin(&input.text))?;
        Some((version, used.source.clone()))
    })?;
    let older_than_lockfile = lockfile_version_hint(repo, dir, pm)
        .and_then(|hint| Some(version::Pin::parse(&version)?.major() < version::Pin::parse(&hint)?.major()));
    (older_than_lockfile != Some(true)).then_some((version, source))
}

/// The pnpm major that `package.json`'s `engines` asks for at least (`"pnpm": ">= 10"` is
/// 10), when it is newer than the lockfile's `hint`. (Yarn's lockfile tells its majors apart.)
fn engines_major(manifest: &Value, pm: Pm, hint: Option<String>) -> Option<String> {
    if pm != Pm::Pnpm {
        return None;
    }
    let constraint = manifest.get("engines")?.get(pm.name())?.as_str()?;
    let major = version::Pin::parse(&version::lowest_floor(constraint)?)?.major();
    let newer = hint.and_then(|h| version::Pin::parse(&h)).is_none_or(|h| major > h.major());
    newer.then(|| major.to_string())
}

/// The pnpm major a lockfile was written by, when `packageManager` names none (corepack's
/// default pnpm may not read an older lockfile). A `pnpm-workspace.yaml` of settings alone,
/// with no `packages:` (pnpm 10 reads its settings there; pnpm 9 refuses it), makes the v9
/// format pnpm 10's.
fn lockfile_version_hint(repo: &Repo, dir: &RelPath, pm: Pm) -> Option<String> {
    if pm != Pm::Pnpm {
        return None;
    }
    let lock = dir.join(rel!("pnpm-lock.yaml"));
    let text = repo.exists(&lock).then(|| repo.read_once(&lock))??;
    let line = text.lines().find_map(|l| l.strip_prefix("lockfileVersion:"))?;
    let workspace = dir.join(rel!("pnpm-workspace.yaml"));
    let settings_only = || {
        repo.exists(&workspace)
            && repo.read(&workspace).is_some_and(|text| !text.lines().any(|l| l.trim_end() == "packages:"))
    };
    Some(
        match version::Pin::parse(line)?.major() {
            9.. if settings_only() => "10",
            9.. => "9",
            6..=8 => "8",
            5 => "7",
            _ => return None,
        }
        .to_string(),
    )
}

/// The oldest Node a pnpm or Yarn major runs on (their `engines.node`).
fn node_floor(pm: Pm, version: &str) -> Option<&'static str> {
    match (pm, version::Pin::parse(version)?.major()) {
        (Pm::Pnpm, 11..) => Some("22.13"),
        (Pm::Pnpm, 9..=10) | (Pm::Yarn, 4..) => Some("18.12"),
        _ => None,
    }
}

/// Node's version: `.nvmrc`/`.node-version` or a version manager's pin (`.tool-versions`,
/// `mise.toml`), here or in a parent, then `volta.node`, then an
/// `engines.node` that pins rather than sets a floor. Bun projects report Bun, and Node only
/// when something pins it. Returns Node's pin and its evidence.
fn node_version(
    repo: &Repo,
    pins: &[ToolPin],
    dir: &RelPath,
    manifest: &Value,
    manifest_path: &RelPath,
    pm: Pm,
    out: &mut Findings,
) -> Option<(String, Evidence)> {
    // `.nvmrc` before `.node-version` before a version manager's file in each folder, the
    // nearest folder first.
    let mut found: Option<(Option<String>, Evidence)> = None;
    let mut current = Some(dir);
    while let Some(d) = current
        && found.is_none()
    {
        found =
            [rel!(".nvmrc"), rel!(".node-version")].into_iter().map(|file| d.join(file)).find(|p| repo.exists(p)).map(
                |path| {
                    let text = repo.read(&path).unwrap_or_default();
                    (version::first_line(&text).and_then(nvmrc_version), Evidence::file(path))
                },
            );
        if found.is_none() {
            found = super::folder_pin(pins, d, "node")
                .map(|pin| (pin.version.as_deref().and_then(version::numeric_pin), pin.source.clone()));
        }
        current = (!d.is_empty()).then(|| d.parent());
    }
    if found.as_ref().is_none_or(|(v, _)| v.is_none())
        && let Some(v) = manifest.pointer("/volta/node").and_then(Value::as_str).and_then(version::numeric_pin)
    {
        found = Some((Some(v), Evidence::key(manifest_path, "volta.node")));
    }
    if found.as_ref().is_none_or(|(v, _)| v.is_none())
        && let Some(range) = manifest.pointer("/engines/node").and_then(Value::as_str)
    {
        let pinned = version::semver_pin(range);
        if pinned.is_some() || found.is_none() {
            found = Some((pinned, Evidence::key(manifest_path, "engines.node")));
        }
    }
    if pm == Pm::Bun {
        let version = manifest
            .get("packageManager")
            .and_then(Value::as_str)
            .and_then(|s| s.strip_prefix("bun@"))
            .and_then(|v| version::numeric_pin(v.split('+').next().unwrap_or_default()));
        let source = if version.is_some() {
            Evidence::key(manifest_path, "packageManager")
        } else {
            Evidence::file(manifest_path)
        };
        out.toolchain("bun", version, source);
        if let Some((Some(v), source)) = &found {
            out.toolchain("node", Some(v.clone()), source.clone());
        }
        return found.and_then(|(v, source)| Some((v?, source)));
    }
    match &found {
        Some((version, source)) => out.toolchain("node", version.clone(), source.clone()),
        None => out.toolchain("node", None, Evidence::file(manifest_path)),
    }
    found.and_then(|(v, source)| Some((v?, source)))
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
fn is_yarn_berry(repo: &Repo, dir: &RelPath, declared: Option<&str>) -> bool {
    if let Some(pin) = declared.and_then(version::Pin::parse) {
        return pin.major() >= 2;
    }
    if repo.exists(dir.join(rel!(".yarnrc.yml"))) {
        return true;
    }
    let lock = dir.join(rel!("yarn.lock"));
    repo.exists(&lock) && repo.read_once(&lock).is_some_and(|text| text.contains("\n__metadata:"))
}

/// Workspace members from package.json `workspaces` (a list, or `{packages: […]}`) and
/// `pnpm-workspace.yaml` `packages:`; reported as a note, returned to skip the members.
fn workspace(
    repo: &Repo,
    dir: &RelPath,
    manifest: &Value,
    manifest_path: &RelPath,
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
    let pnpm_workspace = dir.join(rel!("pnpm-workspace.yaml"));
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
        Members::new(patterns.iter().map(String::as_str), &[], |w| repo.warn(Warning::in_file(manifest_path, w)));
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
            let Some(start) = script.as_str().and_then(|s| ComposeStart::of_line(repo, rel.parent(), s)) else {
                continue;
            };
            if start.named {
                for started in &start.services {
                    out.add_service(Service::started(started, Kind::Task));
                }
            }
            out.start(Start {
                command: start.command(),
                source: Evidence::key(rel, format!("scripts.{name}")).of(Kind::Task),
                origin: StartOrigin::Script,
                compose: Some(start),
                containers: Vec::new(),
                runs: Vec::new(),
            });
        }
    }
}

/// The packages a global install puts on PATH (`npm install -g c8`, `yarn global add c8`,
/// `pnpm add -g c8`), given the command's words; `None` for any other command.
pub fn globally_installed<'w>(words: &'w [&'w str]) -> Option<&'w [&'w str]> {
    let global = |rest: &[&str]| rest.iter().any(|w| ["-g", "--global"].contains(w));
    match words {
        ["npm", "install" | "i" | "add", rest @ ..] if global(rest) => Some(rest),
        ["yarn", "global", "add", rest @ ..] => Some(rest),
        ["pnpm", "add" | "install" | "i", rest @ ..] if global(rest) => Some(rest),
        _ => None,
    }
}

/// The step that installs the package `quoted` (quoted for the shell) globally where its
/// `program` is missing.
pub fn install_globally_when_missing(program: &str, quoted: &str) -> String {
    format!("command -v {program} >/dev/null 2>&1 || npm install -g {quoted}")
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
    fn a_version_managers_node_pin_is_ensured_before_the_package_managers_floor() {
        let files = [
            ("package.json", r#"{"packageManager": "yarn@4.6.0"}"#),
            ("yarn.lock", ""),
            (".tool-versions", "php 8.3.16\nnodejs 22.13.1\n"),
        ];
        let scan = crate::detect::testing::scan(&Node, &files);
        let ensure: Vec<&str> = scan.steps().into_iter().filter(|s| s.starts_with("hanzo_node ")).collect();
        assert_eq!(ensure, ["hanzo_node 22.13.1"], "the floor gives way to the pin");
        assert_eq!(scan.toolchain("node"), Some((Some("22.13.1"), ".tool-versions:2")));
        // A `.nvmrc` in the same folder speaks first.
        let scan = crate::detect::testing::scan(&Node, &[files[0], files[1], files[2], (".nvmrc", "20\n")]);
        assert_eq!(scan.toolchain("node"), Some((Some("20"), ".nvmrc")));
    }

    #[test]
    fn dev_engines_name_the_package_manager_and_its_version() {
        let manifest = r#"{"devEngines": {"runtime": {"name": "node"}, "packageManager": {"name": "pnpm", "version": "11.1.2", "onFail": "download"}}}"#;
        let scan = crate::detect::testing::scan(&Node, &[("package.json", manifest), ("pnpm-lock.yaml", "")]);
        let pm: Vec<&str> = scan.steps().into_iter().filter(|s| s.starts_with("hanzo_pm ")).collect();
        assert_eq!(pm, ["hanzo_pm pnpm 11.1.2"]);
        // A list: the first entry of a manager this product knows.
        let listed = r#"{"devEngines": {"packageManager": [{"name": "nub"}, {"name": "yarn", "version": "4.6.0"}]}}"#;
        let scan = crate::detect::testing::scan(&Node, &[("package.json", listed), ("yarn.lock", "")]);
        let pm: Vec<&str> = scan.steps().into_iter().filter(|s| s.starts_with("hanzo_pm ")).collect();
        assert_eq!(pm, ["hanzo_pm yarn 4.6.0 @yarnpkg/cli-dist@4.6.0"]);
    }

    #[test]
    fn without_a_pin_the_oldest_node_ci_sets_up_is_the_floor() {
        let matrix = "jobs:\n  t:\n    strategy:\n      matrix:\n        node: [22.x, 18.x, lts/*]\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: ${{ matrix.node }}\n      - run: npm test\n";
        let files = [("package.json", "{}"), ("package-lock.json", "{}"), (".github/workflows/ci.yml", matrix)];
        let ensure = |scan: &crate::detect::testing::Scan| -> Vec<String> {
            scan.steps().into_iter().filter(|s| s.starts_with("hanzo_node")).map(String::from).collect()
        };
        assert_eq!(
            ensure(&crate::detect::testing::scan(&Node, &files)),
            ["hanzo_node '>=18'"],
            "a channel sets no ceiling"
        );
        // Every version named: CI's newest major bounds it too.
        let named = matrix.replace("[22.x, 18.x, lts/*]", "[22.x, 18.x]");
        let scan = crate::detect::testing::scan(&Node, &[files[0], files[1], (".github/workflows/ci.yml", &named)]);
        assert_eq!(ensure(&scan), ["hanzo_node_tested 18 22"]);
        // Below a floor engines set, CI's newest says nothing.
        let engines = ("package.json", r#"{"engines": {"node": ">=24"}}"#);
        let scan = crate::detect::testing::scan(&Node, &[engines, files[1], (".github/workflows/ci.yml", &named)]);
        assert_eq!(ensure(&scan), ["hanzo_node '>=24'"]);
        // A version file says more than CI does.
        let pinned = crate::detect::testing::scan(&Node, &[files[0], files[1], files[2], (".nvmrc", "20\n")]);
        assert_eq!(ensure(&pinned), ["hanzo_node 20"]);
        // CI naming only a channel sets no floor.
        let channel = matrix.replace("[22.x, 18.x, lts/*]", "[lts/*]");
        let scan = crate::detect::testing::scan(&Node, &[files[0], files[1], (".github/workflows/ci.yml", &channel)]);
        assert!(ensure(&scan).is_empty(), "{:?}", scan.steps());
    }

    #[test]
    fn the_node_the_ci_pnpm_needs_is_ensured_and_an_older_pin_is_not_paired_silently() {
        let workflow = "jobs:\n  t:\n    steps:\n      - uses: pnpm/setup@v1\n        with:\n          version: 11\n      - run: pnpm test\n";
        let files = [
            ("package.json", r#"{"engines": {"node": "^22 || ^24"}}"#),
            ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n"),
            (".github/workflows/ci.yml", workflow),
        ];
        let scan = crate::detect::testing::scan(&Node, &files);
        let ensure: Vec<&str> = scan.steps().into_iter().filter(|s| s.starts_with("hanzo_node ")).collect();
        assert_eq!(ensure, ["hanzo_node '>=22.13'"], "{:?}", scan.steps());
        assert!(scan.findings.warnings.is_empty(), "{:?}", scan.findings.warnings);
        // A pin below what pnpm 11 runs on is kept (the owners chose it) but said.
        let scan = crate::detect::testing::scan(&Node, &[files[0], files[1], files[2], (".nvmrc", "20\n")]);
        let ensure: Vec<&str> = scan.steps().into_iter().filter(|s| s.starts_with("hanzo_node ")).collect();
        assert_eq!(ensure, ["hanzo_node 20"]);
        let [warning] = scan.findings.warnings.as_slice() else { panic!("{:?}", scan.findings.warnings) };
        assert!(
            warning.to_string().starts_with(
                ".nvmrc pins Node 20, but pnpm 11 (.github/workflows/ci.yml#jobs.t.steps[0]) needs Node 22.13"
            ),
            "{warning}"
        );
        assert!(warning.to_string().contains("\nhint: "), "{warning}");
        // Node 22 (the newest 22.x) satisfies 22.13: no warning.
        let scan = crate::detect::testing::scan(&Node, &[files[0], files[1], files[2], (".nvmrc", "22\n")]);
        assert!(scan.findings.warnings.is_empty(), "{:?}", scan.findings.warnings);
    }

    #[test]
    fn pnpm_is_the_major_ci_sets_up_when_package_json_names_none() {
        let workflow = "jobs:\n  build:\n    steps:\n      - uses: pnpm/action-setup@v4\n        with:\n          version: 10\n      - run: pnpm test\n";
        // The successor action reads the same way.
        let successor = "jobs:\n  t:\n    steps:\n      - uses: pnpm/setup@5d160c5bc68a09337ad0d5654e237e03253b5879\n        with:\n          version: 11\n";
        let s = crate::detect::testing::scan(
            &Node,
            &[
                ("package.json", "{}"),
                ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n"),
                (".github/workflows/t.yml", successor),
            ],
        );
        assert!(s.steps().contains(&"hanzo_pm pnpm 11"), "{:?}", s.steps());
        let files = [
            ("package.json", r#"{"scripts": {"test": "vitest run"}}"#),
            ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n"),
            (".github/workflows/ci.yml", workflow),
        ];
        let scan = crate::detect::testing::scan(&Node, &files);
        assert!(scan.steps().contains(&"hanzo_pm pnpm 10"), "{:?}", scan.steps());
        // Without CI's word, the lockfile's format says 9.
        let scan = crate::detect::testing::scan(&Node, &files[..2]);
        assert!(scan.steps().contains(&"hanzo_pm pnpm 9"), "{:?}", scan.steps());
        // Unless `engines` asks for a newer major; an older one says less than the lockfile.
        for (engines, major) in [(">= 10", "hanzo_pm pnpm 10"), ("^8.6 || >=9", "hanzo_pm pnpm 9")] {
            let manifest = format!(r#"{{"engines": {{"pnpm": "{engines}"}}}}"#);
            let scan = crate::detect::testing::scan(&Node, &[("package.json", &manifest), files[1]]);
            assert!(scan.steps().contains(&major), "{engines}: {:?}", scan.steps());
        }
        // A range names the major the test job runs, before a release job's older pin.
        let test =
            "jobs:\n  build:\n    steps:\n      - uses: pnpm/action-setup@v4\n        with:\n          version: ^7\n";
        let publish = "jobs:\n  build:\n    steps:\n      - uses: pnpm/action-setup@v4\n        with:\n          version: 6.0.2\n";
        let files = [
            files[0],
            ("pnpm-lock.yaml", "lockfileVersion: 5.4\n"),
            (".github/workflows/node.js.yml", test),
            (".github/workflows/npm-publish.yml", publish),
        ];
        let scan = crate::detect::testing::scan(&Node, &files);
        assert!(scan.steps().contains(&"hanzo_pm pnpm 7"), "{:?}", scan.steps());
        // A pin older than the lockfile's format cannot read it: the lockfile's major.
        let stale = "jobs:\n  build:\n    steps:\n      - uses: pnpm/action-setup@v4\n        with:\n          version: 4.11.1\n";
        let files = [files[0], ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n"), (".github/workflows/ci.yml", stale)];
        let scan = crate::detect::testing::scan(&Node, &files);
        assert!(scan.steps().contains(&"hanzo_pm pnpm 9"), "{:?}", scan.steps());
        // A workspace file of settings alone is pnpm 10's.
        let settings = ("pnpm-workspace.yaml", "onlyBuiltDependencies:\n  - esbuild\n");
        let scan = crate::detect::testing::scan(&Node, &[files[0], files[1], files[2], settings]);
        assert!(scan.steps().contains(&"hanzo_pm pnpm 10"), "{:?}", scan.steps());
        let members = ("pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n");
        let scan = crate::detect::testing::scan(&Node, &[files[0], files[1], files[2], members]);
        assert!(scan.steps().contains(&"hanzo_pm pnpm 9"), "{:?}", scan.steps());
    }

    #[test]
    fn a_nested_folder_s_dependencies_alone_are_no_project() {
        let lock = r#"{"lockfileVersion": 3}"#;
        let files = [
            ("package.json", r#"{"name": "lru", "scripts": {"test": "tap"}}"#),
            ("package-lock.json", lock),
            ("scripts/package.json", r#"{"dependencies": {"heapdump": "^0.3.15"}}"#),
            ("scripts/package-lock.json", lock),
            ("web/package.json", r#"{"private": true, "scripts": {"build": "vite build"}}"#),
            ("web/package-lock.json", lock),
        ];
        let steps = crate::detect::testing::scan(&Node, &files).steps().join("\n");
        assert!(steps.contains("(cd web && npm ci)"), "{steps}");
        assert!(!steps.contains("cd scripts"), "{steps}");
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
            (starts[0].source.as_test_str(), starts[0].origin),
            ("web/package.json#scripts.db:up", StartOrigin::Script)
        );
    }
}
