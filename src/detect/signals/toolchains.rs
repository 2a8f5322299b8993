//! Toolchains named outside the ecosystems' manifests: version-manager pins, dev shells, dev
//! containers and CI (setup actions and the images jobs run in). Each name is asked of the
//! ecosystems' aliases; merge ranks these findings by their origin.
//!
//! Decisions:
//! - A dev shell's or dev container's toolchain counts only for languages the repo has a
//!   manifest of (they often carry tools: a Node for editor extensions). A dev container's
//!   version is only noted: template defaults (`21-oracle`, `1-3.11-bullseye`) must not
//!   outvote the project's own manifests. `nix develop` / `devbox shell` never go into
//!   `install`: a sandbox is rarely a Nix machine and entering a shell is interactive.
//! - CI toolchains count only from jobs that test the project (see [`super::relevance`]).

use crate::detect::ecosystems::ecosystem::AliasKind;
use crate::detect::ecosystems::{self, has_manifest_for};
use crate::detect::findings::{Evidence, Findings, Kind, Phase};
use crate::detect::signals::relevance;
use crate::detect::sources::agent_files::Purpose;
use crate::detect::sources::devcontainer::{feature_name, microsoft_image, tag_version};
use crate::detect::sources::devshells::{ShellKind, split_attribute};
use crate::detect::sources::images::{canonical_service, tag};
use crate::detect::sources::workflows::{ActionUse, JobKind};
use crate::detect::sources::{Sources, version};
use crate::rel_path::rel;

pub fn detect(sources: &Sources, out: &mut Findings) {
    submodules(sources, out);
    agent_files(sources, out);
    version_managers(sources, out);
    dev_shells(sources, out);
    dev_containers(sources, out);
    ci(sources, out);
}

/// A clone without `--recursive` leaves the submodules empty, and tests that read them fail
/// (a test-suite submodule is common). Fetched first, where there is a git checkout; a
/// network that cannot reach their host costs a warning, not the install.
fn submodules(sources: &Sources, out: &mut Findings) {
    if sources.repo().exists(rel!(".gitmodules")) {
        out.step(
            Phase::Toolchain,
            "[ ! -e .git ] || git submodule update --init --recursive || \
             echo \"hanzo-env: warning: could not fetch the git submodules (.gitmodules); what reads them will fail\" >&2",
            Evidence::file(rel!(".gitmodules")),
        );
    }
}

/// The package managers the hand-written agent files run (`pnpm install` in Cursor's
/// environment, `uv sync` in AGENTS.md), and a note of which files were read.
fn agent_files(sources: &Sources, out: &mut Findings) {
    let mut files: Vec<&str> = Vec::new();
    for command in sources.agent_commands() {
        let file = command.source.path.as_str();
        if !files.contains(&file) {
            files.push(file);
        }
        // What a terminal keeps running (`pnpm dev`) says nothing of how things install.
        if command.purpose == Purpose::Start {
            continue;
        }
        let mut dir = String::new();
        for words in crate::detect::sources::shell::commands(&command.command) {
            match words.first().map(String::as_str) {
                Some("cd") => dir = words.get(1).cloned().unwrap_or_default(),
                Some(program) if ecosystems::owner_of_package_manager(program).is_some() => {
                    let path = if dir.is_empty() { "." } else { dir.trim_end_matches('/') };
                    out.package_manager_from(Kind::AgentSetup, program, None, path, &command.source);
                }
                _ => {}
            }
        }
    }
    if sources.workflows().jobs.iter().any(|j| j.kind == JobKind::AgentSetup) {
        files.push(".github/workflows/copilot-setup-steps.yml");
    }
    if !files.is_empty() {
        out.note(format!("agent setup written by the owners: {}", files.join(", ")));
    }
}

fn version_managers(sources: &Sources, out: &mut Findings) {
    for pin in sources.pins() {
        if let Some(toolchain) = ecosystems::toolchain_named(ecosystems::is_tool, &pin.tool) {
            out.toolchain_from(Kind::VersionManager, toolchain, pin.version.clone(), &pin.source);
        } else if let Some(manager) = ecosystems::toolchain_named(ecosystems::is_package_manager_tool, &pin.tool) {
            let dir = if pin.dir.is_empty() { "." } else { &pin.dir };
            out.package_manager_from(Kind::VersionManager, manager, pin.version.clone(), dir, &pin.source);
        }
    }
}

/// A Nix attribute or devbox package name as a toolchain and the version its digits spell
/// (`nodejs_20` → node 20, `python312` → python 3.12, `go_1_22` → go 1.22).
fn nix_toolchain(attribute: &str) -> Option<(&'static str, Option<String>)> {
    let (name, digits) = split_attribute(attribute)?;
    let alias = ecosystems::aliases(ecosystems::is_nix, &name).next()?;
    if digits.is_empty() {
        return Some((alias.target, None));
    }
    let compact = matches!(alias.kind, AliasKind::Nix { compact: true });
    let version = if digits.contains('_') {
        digits.split('_').filter(|p| !p.is_empty()).collect::<Vec<_>>().join(".")
    } else if compact && digits.len() > 1 {
        format!("{}.{}", &digits[..1], &digits[1..])
    } else {
        digits
    };
    Some((alias.target, Some(version)))
}

fn dev_shells(sources: &Sources, out: &mut Findings) {
    for shell in sources.devshells() {
        let rel = &shell.path;
        if shell.kind == ShellKind::Devbox {
            out.note(format!("{rel}: devbox shell via `devbox shell`, not entered by install"));
            for (name, pinned) in &shell.packages {
                if let Some((toolchain, attribute_version)) = nix_toolchain(name) {
                    let version =
                        pinned.clone().filter(|v| v.starts_with(|c: char| c.is_ascii_digit())).or(attribute_version);
                    if has_manifest_for(sources, toolchain) {
                        out.toolchain_from(Kind::DevShell, toolchain, version, &Evidence::key(rel, "packages"));
                    }
                }
            }
            continue;
        }
        out.note(format!("{rel}: Nix dev shell via `{}`, not entered by install", shell.kind.command()));
        let mut found: Vec<(&'static str, Option<String>)> = Vec::new();
        let languages = shell.languages.iter().map(|(language, version)| {
            let toolchain = match language.as_str() {
                "javascript" | "typescript" => Some("node"),
                other => ecosystems::toolchain_named(ecosystems::is_nix, other),
            };
            toolchain.map(|t| (t, version.clone()))
        });
        for hint in shell.attributes.iter().map(|a| nix_toolchain(a)).chain(languages).flatten() {
            if !found.contains(&hint) {
                found.push(hint);
            }
        }
        // An unversioned hint adds nothing beside a versioned one for the same toolchain.
        let versioned: Vec<&str> = found.iter().filter(|(_, v)| v.is_some()).map(|(t, _)| *t).collect();
        for (toolchain, version) in &found {
            if (version.is_some() || !versioned.contains(toolchain)) && has_manifest_for(sources, toolchain) {
                out.toolchain_from(Kind::DevShell, toolchain, version.clone(), &Evidence::file(rel));
            }
        }
    }
}

fn dev_containers(sources: &Sources, out: &mut Findings) {
    for config in sources.devcontainers() {
        let rel = &config.path;
        if let Some(image) = &config.image {
            let found = match microsoft_image(image) {
                Some((name, tag)) => ecosystems::toolchain_named(ecosystems::is_devcontainer_image, &name)
                    .map(|t| (t, tag_version(&tag))),
                None => image_toolchain(image),
            };
            if let Some((toolchain, version)) = found {
                container_hint(sources, out, toolchain, version, Evidence::key(rel, "image"));
            }
        }
        for (id, version) in &config.features {
            let Some(toolchain) = ecosystems::toolchain_named(ecosystems::is_feature, &feature_name(id)) else {
                continue;
            };
            if version.as_deref() == Some("none") {
                continue;
            }
            let version = version.clone().filter(|v| v.starts_with(|c: char| c.is_ascii_digit()));
            container_hint(sources, out, toolchain, version, Evidence::key(rel, "features"));
        }
    }
}

/// A dev container's toolchain: unpinned, its version only noted.
fn container_hint(sources: &Sources, out: &mut Findings, toolchain: &str, version: Option<String>, source: Evidence) {
    if !has_manifest_for(sources, toolchain) {
        return;
    }
    if let Some(version) = &version {
        out.note(format!("dev container: {toolchain} {version} ({source})"));
    }
    out.toolchain_from(Kind::DevContainer, toolchain, None, &source);
}

/// The toolchain a language image provides and the version its tag pins (`python:3.12-slim`
/// → python 3.12; `node:lts` → node, unpinned).
fn image_toolchain(image: &str) -> Option<(&'static str, Option<String>)> {
    let toolchain = ecosystems::toolchain_named(ecosystems::is_image, &canonical_service(image))?;
    Some((toolchain, version::pin(tag(image).split('-').next().unwrap_or_default())))
}

fn ci(sources: &Sources, out: &mut Findings) {
    for note in &sources.workflows().notes {
        out.note(note.clone());
    }
    for job in &sources.workflows().jobs {
        if !relevance::counts(sources, job) {
            continue;
        }
        let origin = if job.kind == JobKind::AgentSetup { Kind::AgentSetup } else { Kind::Ci };
        for (image, source) in &job.images {
            if let Some((toolchain, Some(version))) = image_toolchain(image) {
                out.toolchain_from(origin, toolchain, Some(version), source);
            }
        }
        let set_up: Vec<Vec<SetUp>> = job.actions.iter().map(|action| setup_action(sources, action)).collect();
        for (i, action) in job.actions.iter().enumerate() {
            for found in &set_up[i] {
                // A matrix of JDKs the tests run on, then a fixed JDK set up after it: the later
                // one is on PATH and runs the build, so it is the toolchain; the matrix is tests.
                let replaced = found.from_matrix
                    && set_up[i + 1..]
                        .iter()
                        .flatten()
                        .any(|later| later.toolchain == found.toolchain && !later.from_matrix);
                if !replaced {
                    out.toolchain_from(origin, found.toolchain, Some(found.version.clone()), &action.source);
                }
            }
            if job.kind == JobKind::AgentSetup
                && let Some(step) = ecosystems::setup_step_of_action(&action.action)
                && ecosystems::owner_of_package_manager(step.target).is_some()
            {
                let version = action.inputs.get(step.version_input).and_then(|input| version::pin(&input.text));
                out.package_manager_from(origin, step.target, version, ".", &action.source);
            }
        }
    }
}

/// A toolchain a setup action pins.
struct SetUp {
    toolchain: &'static str,
    version: String,
    /// Read from a matrix key (the floor of the versions CI tests on).
    from_matrix: bool,
}

/// The toolchains a setup action pins: from a version input (a matrix key's floor), else a
/// version file an input names, else (`dtolnay/rust-toolchain@1.70`) the action's reference.
fn setup_action(sources: &Sources, action: &ActionUse) -> Vec<SetUp> {
    let mut found = Vec::new();
    for alias in ecosystems::aliases(ecosystems::is_action, &action.action) {
        let AliasKind::SetupAction { version_inputs, file_inputs, reference } = alias.kind else { continue };
        // `runtime: node@26` (pnpm's setup action) names the toolchain before its version.
        let named = |text: &str| {
            version::pin(text.strip_prefix(alias.target).and_then(|v| v.strip_prefix('@')).unwrap_or(text))
        };
        let input = version_inputs.iter().find_map(|key| action.inputs.get(*key));
        let from_matrix = input.is_some_and(|input| input.matrix.is_some());
        let from_input = input.map(|input| match &input.matrix {
            Some(values) => version::lowest(&values.iter().filter_map(|v| named(v)).collect::<Vec<_>>()),
            None => named(&input.text),
        });
        let version = match from_input {
            Some(version) => version,
            None => file_inputs
                .iter()
                .find_map(|key| action.inputs.get(*key))
                .and_then(|file| version_file(sources, &file.text, alias.target)),
        };
        let version = version.or_else(|| reference.then(|| version::pin(&action.reference)).flatten());
        if let Some(version) = version {
            found.push(SetUp { toolchain: alias.target, version, from_matrix });
        }
    }
    found
}

/// The version a version file names for `toolchain` (`.nvmrc`, `.python-version`; in a
/// version manager's file, the toolchain's own line); `None` for a manifest the ecosystems
/// read themselves, or a file the repo lacks (another checkout or an earlier step provides
/// it: no problem of this repo).
fn version_file(sources: &Sources, path: &str, toolchain: &str) -> Option<String> {
    let file = crate::detect::sources::shell::join_path("", path)?;
    if ecosystems::is_versioned_manifest(file.file_name()) {
        return None;
    }
    let in_file = |pin: &&crate::detect::sources::pins::ToolPin| pin.source.path == file;
    let mut pins = sources.pins().iter().filter(in_file).peekable();
    if pins.peek().is_some() {
        return pins
            .find(|pin| ecosystems::toolchain_named(ecosystems::is_tool, &pin.tool) == Some(toolchain))
            .and_then(|pin| pin.version.clone());
    }
    let repo = sources.repo();
    let text = repo.exists(&file).then(|| repo.read(&file)).flatten()?;
    let first = version::first_line(&text)?;
    version::pin(first.split_whitespace().last().unwrap_or(first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::run_signal;

    #[test]
    fn version_manager_pins_name_toolchains_and_package_managers() {
        let s = run_signal(
            detect,
            &[
                (".tool-versions", "nodejs 20.11.0\npnpm 8.15.0\nterraform 1.6.0\n"),
                ("api/mise.toml", "[tools]\nuv = \"0.4\"\n"),
            ],
        );
        assert_eq!(s.toolchain_rows(), [("node", Some("20.11.0"), ".tool-versions:1")]);
        assert_eq!(s.managers(), [("pnpm", "."), ("uv", "api")]);
    }

    #[test]
    fn pnpms_setup_action_names_the_node_it_installs() {
        let workflow = "jobs:\n  full:\n    steps:\n      - uses: pnpm/setup@v1\n        with:\n          version: 11\n          runtime: node@26\n      - run: pnpm test\n  quick:\n    strategy:\n      matrix:\n        node: [24, 22]\n    steps:\n      - uses: pnpm/action-setup@v4\n        with:\n          runtime: node@${{ matrix.node }}\n      - run: pnpm test\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow)]);
        assert_eq!(
            s.toolchain_rows(),
            [
                ("node", Some("26"), ".github/workflows/ci.yml#jobs.full.steps[0]"),
                ("node", Some("22"), ".github/workflows/ci.yml#jobs.quick.steps[0]")
            ]
        );
    }

    #[test]
    fn the_jdk_set_up_after_a_test_matrix_is_the_builds() {
        let workflow = "jobs:\n  test:\n    strategy:\n      matrix:\n        java: [8, 11, 17]\n    steps:\n      - uses: actions/setup-java@v4\n        with:\n          distribution: temurin\n          java-version: ${{ matrix.java }}\n      - uses: actions/setup-java@v4\n        with:\n          distribution: temurin\n          java-version: 21\n      - run: ./gradlew test -PtestJdk=${{ matrix.java }}\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow)]);
        assert_eq!(s.toolchain_rows(), [("java", Some("21"), ".github/workflows/ci.yml#jobs.test.steps[1]")]);
        // A matrix alone is still read (its floor), and so is one set up after the fixed JDK.
        let only_matrix = workflow.replace("      - uses: actions/setup-java@v4\n        with:\n          distribution: temurin\n          java-version: 21\n", "");
        let s = run_signal(detect, &[(".github/workflows/ci.yml", &only_matrix)]);
        assert_eq!(s.toolchain_rows(), [("java", Some("8"), ".github/workflows/ci.yml#jobs.test.steps[0]")]);
    }

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
        let flake = "{\n  outputs = { self, nixpkgs }: {\n    devShells.default = pkgs.mkShell {\n      packages = with pkgs; [ nodejs_20 pnpm python312 git ];\n      buildInputs = [ pkgs.go_1_22 ];\n    };\n  };\n}";
        let devbox = r#"{"packages": ["ruby@3.3.0", "postgresql@16", "nodejs@latest"], "shell": {"scripts": {"test": "bundle exec rspec"}}}"#;
        let s = run_signal(
            detect,
            &[
                ("flake.nix", flake),
                ("web/devbox.json", devbox),
                ("package.json", "{}"),
                ("go.mod", "module x\n"),
                ("web/Gemfile", ""),
            ],
        );
        assert_eq!(
            s.toolchain_rows(),
            [
                // python312 is a tool of the shell here: the repo has no Python manifest.
                ("node", Some("20"), "flake.nix"),
                ("go", Some("1.22"), "flake.nix"),
                ("ruby", Some("3.3.0"), "web/devbox.json#packages"),
                ("node", None, "web/devbox.json#packages"),
            ]
        );
        assert!(s.findings.notes.iter().any(|n| n.contains("`nix develop`")));
        assert!(s.findings.steps.is_empty());
    }

    #[test]
    fn dev_container_images_and_features_are_hints() {
        let config = r#"{"image": "mcr.microsoft.com/devcontainers/python:1-3.12-bookworm", "features": {"ghcr.io/devcontainers/features/node:1": {"version": "20"}, "ghcr.io/devcontainers/features/go:1": {"version": "none"}}}"#;
        let s = run_signal(
            detect,
            &[
                (".devcontainer/devcontainer.json", config),
                ("pyproject.toml", ""),
                ("package.json", "{}"),
                ("go.mod", ""),
            ],
        );
        assert_eq!(
            s.toolchain_rows(),
            [
                ("python", None, ".devcontainer/devcontainer.json#image"),
                ("node", None, ".devcontainer/devcontainer.json#features")
            ]
        );
        assert!(
            s.findings.notes.iter().any(|n| n == "dev container: python 3.12 (.devcontainer/devcontainer.json#image)")
        );
    }

    #[test]
    fn a_setup_action_reading_a_version_managers_file_takes_its_own_line() {
        let workflow = "jobs:\n  test:\n    steps:\n      - uses: oven-sh/setup-bun@v2\n        with:\n          bun-version-file: .tool-versions\n      - uses: actions/setup-node@v4\n        with:\n          node-version-file: .tool-versions\n      - run: bun run test\n";
        let pins = "nodejs 24.7.0\nbun 1.2.19\ndeno 2.4.5\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow), (".tool-versions", pins)]);
        let from_ci: Vec<_> = s
            .toolchain_rows()
            .into_iter()
            .filter(|(_, _, source)| source.starts_with(".github"))
            .map(|(t, v, _)| (t, v))
            .collect();
        assert_eq!(from_ci, [("bun", Some("1.2.19")), ("node", Some("24.7.0"))]);
    }

    #[test]
    fn ci_pins_from_test_jobs_only() {
        let workflow = "jobs:\n  test:\n    strategy:\n      matrix:\n        php: [8.4, 8.3, 8.5]\n    container: python:3.12-slim\n    steps:\n      - uses: shivammathur/setup-php@v2\n        with:\n          php-version: ${{ matrix.php }}\n      - uses: actions/setup-node@v4\n        with:\n          node-version-file: .nvmrc\n      - uses: dtolnay/rust-toolchain@1.70\n      - run: vendor/bin/phpunit\n  lint:\n    steps:\n      - uses: actions/setup-go@v5\n        with:\n          go-version: '1.22'\n      - run: go vet ./...\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow), (".nvmrc", "v20.11.0\n")]);
        let rows: Vec<_> = s.toolchain_rows().into_iter().map(|(t, v, _)| (t, v)).collect();
        // `v20.11.0` and `20.11.0` are one pin: the one version reader drops the `v`.
        assert_eq!(
            rows,
            [("python", Some("3.12")), ("php", Some("8.3")), ("node", Some("20.11.0")), ("rust", Some("1.70"))]
        );
    }

    #[test]
    fn setup_beam_pins_each_runtime() {
        let workflow = "jobs:\n  t:\n    steps:\n      - uses: erlef/setup-beam@v1\n        with:\n          otp-version: '27'\n          elixir-version: '1.17'\n          gleam-version: '1.5.1'\n      - run: gleam test\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow)]);
        let rows: Vec<_> = s.toolchain_rows().into_iter().map(|(t, v, _)| (t, v)).collect();
        assert_eq!(rows, [("erlang", Some("27")), ("elixir", Some("1.17")), ("gleam", Some("1.5.1"))]);
    }

    #[test]
    fn action_versions_from_several_lines_and_missing_files() {
        let workflow = "jobs:\n  t:\n    steps:\n      - uses: actions/setup-java@v4\n        with:\n          java-version: |\n            ${{ matrix.none }}\n            11\n          java-version-file: .github/.java-version\n      - uses: actions/setup-node@v4\n        with:\n          node-version-file: gone/.nvmrc\n      - run: ./gradlew test\n";
        let s = run_signal(detect, &[(".github/workflows/build.yml", workflow)]);
        assert_eq!(s.toolchain_rows(), [("java", Some("11"), ".github/workflows/build.yml#jobs.t.steps[0]")]);
    }

    #[test]
    fn gitlab_circleci_and_include_only_matrices() {
        let gitlab = "image: python:3.12-slim\ntest:\n  image: node:20\n  script:\n    - npm test\n";
        let circle = "version: 2.1\njobs:\n  build:\n    docker:\n      - image: cimg/ruby:3.3.1\n      - image: cimg/postgres:15.4\n    steps:\n      - run: bundle exec rspec\n";
        let workflow = "jobs:\n  test:\n    strategy:\n      matrix:\n        include:\n          - rust: 1.74.0\n          - rust: stable\n    steps:\n      - uses: dtolnay/rust-toolchain@master\n        with:\n          toolchain: ${{ matrix.rust }}\n      - run: cargo test\n";
        let s = run_signal(
            detect,
            &[(".gitlab-ci.yml", gitlab), (".circleci/config.yml", circle), (".github/workflows/ci.yml", workflow)],
        );
        let rows: Vec<_> = s.toolchain_rows().into_iter().map(|(t, v, _)| (t, v)).collect();
        assert_eq!(
            rows,
            [("rust", Some("1.74.0")), ("python", Some("3.12")), ("node", Some("20")), ("ruby", Some("3.3.1"))]
        );
    }

    #[test]
    fn release_workflows_give_no_toolchains() {
        let workflow = "name: Release\njobs:\n  publish:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n      - run: cargo test\n";
        let s = run_signal(detect, &[(".github/workflows/release.yml", workflow)]);
        assert!(s.findings.toolchains.is_empty());
    }
}
