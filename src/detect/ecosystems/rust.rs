//! Rust (cargo, workspaces, `rust-toolchain(.toml)`, `rust-version`).
//!
//! A `Cargo.toml` of the project's own is a project unless it lies inside another one:
//! workspace members are built by the workspace, and a nested crate is a project of its own
//! only when it has its own `Cargo.lock`. `cargo fuzz` crates are never installed.

use crate::detect::ecosystems::ecosystem::{
    Alias, Channels, Declaration, Ecosystem, EnvHelper, EnvRead, Need, SettingsTypes, SetupStep, Toolchain,
};
use crate::detect::ecosystems::project::{Members, pm_path, toml_workspace};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, too_deep_for_a_project};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;
use crate::rel_path::rel;

mod cargo_tools;
mod env;
mod settings_file;

pub struct Rust;

/// What Rust declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "rust",
    toolchains: &[Toolchain::new("rust", "Rust")],
    package_managers: &["cargo"],
    programs: &["cargo", "rustup"],
    manifests: &["Cargo.toml"],
    aliases: &[
        // `dtolnay/rust-toolchain@1.70` names the toolchain in its reference.
        Alias::action_with_reference("dtolnay/rust-toolchain", "rust", &["toolchain"]),
        Alias::action("actions-rs/toolchain", "rust", &["toolchain"]),
        Alias::image("rust", "rust"),
        Alias::devcontainer_image("rust", "rust"),
        Alias::feature("rust", "rust"),
        Alias::nix("rustc", "rust"),
        Alias::nix("cargo", "rust"),
        Alias::nix("rustup", "rust"),
        Alias::nix("rust-bin", "rust"),
        Alias::tool("rust", "rust"),
    ],
    setup_steps: &[SetupStep::new("rust", "dtolnay/rust-toolchain@master", "toolchain")],
    devcontainer_features: &[("rust", "ghcr.io/devcontainers/features/rust:1")],
    // Past a toolchain and cargo's own flags (`cargo +nightly --locked nextest run`).
    test_commands: &[
        r"cargo[[:space:]]+(?:\+[^[:space:]]+[[:space:]]+)?(?:-[[:word:]\-]+[[:space:]]+)*(?:test|nextest)(?-u:\b)",
    ],
    part_options: &["--test", "--manifest-path", "-p", "--package"],
    // libtest's options that take a value; `--skip` leaves tests out, it picks none.
    command_actions: &[("actions-rs/cargo", "cargo", &["command", "args"])],
    filter_runner_options: &["--test-threads", "--skip", "--format", "--color", "-Z", "--logfile", "--shuffle-seed"],
    install_commands: &["cargo"],
    // Not `--release` or another profile: the tests read the debug build (`target/debug`).
    build_commands: &[
        r"cargo[[:space:]]+build(?:[[:space:]]+(?:--verbose|-v|--locked|--frozen|--offline|--workspace|--all|--all-targets|--all-features))*",
    ],
    source_extensions: &["rs"],
    install_programs: &["cargo"],
    publish_commands: &[("cargo", "publish")],
    skipped_dirs: &["target"],
    channels: Some(Channels {
        names: &["nightly", "beta"],
        program: "cargo",
        prefix: "+",
        install: "if command -v rustup >/dev/null 2>&1; then rustup toolchain install {channel} --profile minimal; fi",
        release_matrix: true,
    }),
    ..Declaration::new(&Rust)
};

impl Ecosystem for Rust {
    /// `diesel.toml`: the diesel CLI (migrations, `print-schema`) connects through
    /// `DATABASE_URL`, which its configuration never names. A server's settings file
    /// (`server.toml`, see [`settings_file`]) gives the keys its prefix reads.
    fn is_settings_file(&self, dir: &str, name: &str) -> bool {
        name == "diesel.toml" || settings_file::is_settings_file(dir, name)
    }
    fn env_reads(&self, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        if rel.file_name() == "diesel.toml" {
            return vec![EnvRead::new("DATABASE_URL", 0, Need::Unstated, "the diesel CLI")];
        }
        if rel.file_name().ends_with(".toml") {
            return settings_file::reads(text);
        }
        env::reads(text)
    }
    /// The config crate's or figment's prefix: the project's, for its settings file's keys.
    fn settings_structs(&self, text: &str) -> SettingsTypes {
        env::envy::settings_structs(text)
    }
    fn env_prefix(&self, text: &str) -> Option<String> {
        env::namespace(text)
    }
    fn env_namespace(&self, text: &str) -> Option<String> {
        env::namespace(text)
    }
    fn env_helpers(&self, text: &str) -> Vec<EnvHelper> {
        env::helpers(text)
    }
    fn name_constants(&self, text: &str) -> Vec<(String, String)> {
        env::name_constants(text)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
        if !sources.repo().project_dirs("Cargo.toml").is_empty() {
            cargo_tools::install(sources, out);
        }
    }
}

fn detect(repo: &Repo, out: &mut Findings) {
    let mut projects: Vec<(&RelPath, Option<Members>)> = Vec::new();
    for dir in repo.project_dirs("Cargo.toml") {
        let manifest_path = dir.join(rel!("Cargo.toml"));
        if let Some((parent, members)) = projects.iter().rev().find(|(p, _)| dir.is_within(p)) {
            let relative = dir.relative_to(parent).unwrap_or(dir);
            let member = members.as_ref().is_some_and(|m| m.contains(relative));
            if member || !repo.exists(dir.join(rel!("Cargo.lock"))) {
                continue;
            }
        }
        if too_deep_for_a_project(dir) {
            continue;
        }
        let Some(manifest) = repo.read_toml(&manifest_path) else { continue };
        let is_fuzz = manifest
            .get("package")
            .and_then(|p| p.get("metadata"))
            .and_then(|m| m.get("cargo-fuzz"))
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        if is_fuzz {
            continue;
        }
        let members = project(repo, dir, &manifest, &manifest_path, out);
        projects.push((dir, members));
    }
}

fn project(
    repo: &Repo,
    dir: &RelPath,
    manifest: &toml::Table,
    manifest_path: &RelPath,
    out: &mut Findings,
) -> Option<Members> {
    rust_version(repo, dir, manifest, manifest_path, out);
    let lock = dir.join(rel!("Cargo.lock"));
    let locked = repo.exists(&lock);
    out.package_manager("cargo", None, pm_path(dir), Evidence::file(manifest_path));
    let (fetch, source) =
        if locked { ("cargo fetch --locked", lock.clone()) } else { ("cargo fetch", manifest_path.to_owned()) };
    let source = Evidence::file(source);
    out.step_in(dir, Phase::Install, fetch, source);
    if locked {
        let text = repo.read(&lock).unwrap_or_default();
        let crates = NATIVE_BUILD_PACKAGES
            .iter()
            .map(|(krate, _)| *krate)
            .filter(|krate| text.lines().any(|line| line.trim() == format!("name = \"{krate}\"")));
        native_build_packages(crates.collect(), Evidence::file(&lock), out);
    } else {
        native_build_packages(native_crates_of(manifest), Evidence::file(manifest_path), out);
    }

    let workspace = manifest.get("workspace");
    let members = workspace.map(|ws| toml_workspace(repo, dir, ws, manifest_path, ("cargo", "member crate"), out));
    let test = if members.is_some() { "cargo test --workspace" } else { "cargo test" };
    out.test(in_dir(dir, test), Evidence::file(manifest_path));
    members
}

/// Crates whose build script needs a system library or tool that CI's runners have and a
/// bare Debian may lack, and the Debian packages that give it: bindgen loads libclang; a
/// `-sys` crate links the C library its documentation names, found through pkg-config.
const NATIVE_BUILD_PACKAGES: &[(&str, &[&str])] = &[
    ("bindgen", &["libclang-dev"]),
    ("openssl-sys", &["libssl-dev", "pkg-config"]),
    ("pq-sys", &["libpq-dev"]),
    ("mysqlclient-sys", &["default-libmysqlclient-dev", "pkg-config"]),
    ("libdbus-sys", &["libdbus-1-dev", "pkg-config"]),
    ("libudev-sys", &["libudev-dev", "pkg-config"]),
    ("alsa-sys", &["libasound2-dev", "pkg-config"]),
];

/// Diesel's backends by the features that select them, and the `-sys` crate each links.
const DIESEL_BACKENDS: &[(&str, &str)] = &[("mysql", "mysqlclient-sys"), ("postgres", "pq-sys")];

/// The crates of [`NATIVE_BUILD_PACKAGES`] a manifest without a lockfile depends on: by name, or
/// through diesel's backend features (`features = ["mysql", "postgres"]`).
fn native_crates_of(manifest: &toml::Table) -> Vec<&'static str> {
    let tables = ["dependencies", "dev-dependencies", "build-dependencies"];
    let mut found = Vec::new();
    for (name, spec) in tables.iter().filter_map(|t| manifest.get(*t)?.as_table()).flatten() {
        if let Some((krate, _)) = NATIVE_BUILD_PACKAGES.iter().find(|(krate, _)| krate == name) {
            found.push(*krate);
        }
        if name == "diesel" {
            let features = spec.get("features").and_then(|f| f.as_array()).into_iter().flatten();
            for feature in features.filter_map(|f| f.as_str()) {
                if let Some((_, krate)) = DIESEL_BACKENDS.iter().find(|(backend, _)| *backend == feature) {
                    found.push(*krate);
                }
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// One `hanzo_apt_install` of the Debian packages `crates` need to build (see
/// [`NATIVE_BUILD_PACKAGES`]), with `source` as its evidence.
fn native_build_packages(crates: Vec<&str>, source: Evidence, out: &mut Findings) {
    if crates.is_empty() {
        return;
    }
    let mut args = vec![format!("to build {}", crates.join(", "))];
    let packages = crates.iter().filter_map(|c| NATIVE_BUILD_PACKAGES.iter().find(|(krate, _)| krate == c));
    for package in packages.flat_map(|(_, packages)| packages.iter()) {
        if !args.iter().any(|a| a == package) {
            args.push(package.to_string());
        }
    }
    out.helper(Phase::System, "hanzo_apt_install", args, source);
}

/// `rust-toolchain.toml`/`rust-toolchain` (here or in a parent) names the toolchain the repo
/// builds with; when it names a moving channel (`stable`), `rust-version` (the MSRV, resolved from `[workspace.package]` when the
/// package says `rust-version.workspace = true`). `stable`/`nightly` pin nothing.
fn rust_version(repo: &Repo, dir: &RelPath, manifest: &toml::Table, manifest_path: &RelPath, out: &mut Findings) {
    let mut current = Some(dir);
    while let Some(d) = current {
        let toml_file = d.join(rel!("rust-toolchain.toml"));
        let plain_file = d.join(rel!("rust-toolchain"));
        if repo.exists(&toml_file) {
            let channel = repo.read_toml(&toml_file).and_then(|t| {
                t.get("toolchain").and_then(|tc| tc.get("channel")).and_then(|c| c.as_str()).map(str::to_string)
            });
            if let Some(pin) = channel.as_deref().and_then(toolchain_pin) {
                let source = Evidence::key(toml_file, "toolchain.channel");
                install_pinned_toolchain(&pin, &source, out);
                out.toolchain("rust", Some(pin), source);
                return;
            }
            break;
        }
        if repo.exists(&plain_file) {
            let text = repo.read(&plain_file).unwrap_or_default();
            // The legacy file holds a bare channel; newer ones may hold TOML.
            let channel = if text.contains("[toolchain]") {
                text.parse::<toml::Table>()
                    .ok()
                    .and_then(|t| t.get("toolchain")?.get("channel")?.as_str().map(str::to_string))
            } else {
                text.lines().map(str::trim).find(|l| !l.is_empty()).map(str::to_string)
            };
            if let Some(pin) = channel.as_deref().and_then(toolchain_pin) {
                let source = Evidence::file(plain_file);
                install_pinned_toolchain(&pin, &source, out);
                out.toolchain("rust", Some(pin), source);
                return;
            }
            break;
        }
        current = (!d.is_empty()).then(|| d.parent());
    }
    let package = manifest.get("package");
    let rust_version = package.and_then(|p| p.get("rust-version"));
    let inherited = rust_version.and_then(|v| v.get("workspace")).and_then(|w| w.as_bool()).unwrap_or(false);
    let (version, source) = if inherited {
        match workspace_rust_version(repo, dir, manifest) {
            Some((v, source)) => (Some(v), source),
            None => (None, Evidence::key(manifest_path, "package.rust-version")),
        }
    } else if let Some(v) = rust_version.and_then(|v| v.as_str()) {
        (version::numeric_pin(v), Evidence::key(manifest_path, "package.rust-version"))
    } else if let Some(v) = manifest
        .get("workspace")
        .and_then(|w| w.get("package"))
        .and_then(|p| p.get("rust-version"))
        .and_then(|v| v.as_str())
    {
        (version::numeric_pin(v), Evidence::key(manifest_path, "workspace.package.rust-version"))
    } else {
        (None, Evidence::file(manifest_path))
    };
    if let Some(msrv) = &version {
        install_minimum_toolchain(msrv, &source, out);
    }
    out.toolchain("rust", version, source);
}

/// The toolchain a `rust-toolchain(.toml)` file pins, installed up front (rustup would fetch
/// it on the first `cargo` call, with every component; this makes the install step do it,
/// once: `rustup toolchain install` leaves an installed toolchain unchanged).
fn install_pinned_toolchain(pin: &str, source: &Evidence, out: &mut Findings) {
    out.step(
        Phase::Toolchain,
        format!("if command -v rustup >/dev/null 2>&1; then rustup toolchain install {pin} --profile minimal; fi"),
        source.clone(),
    );
}

/// `rust-version` is a minimum: when the default `rustc` is older (or absent), rustup's
/// stable becomes the default; a new enough one is left alone.
fn install_minimum_toolchain(msrv: &str, source: &Evidence, out: &mut Findings) {
    out.step(
        Phase::Toolchain,
        format!(
            "if command -v rustup >/dev/null 2>&1 && ! printf '%s\\n' {msrv} \"$(rustc --version 2>/dev/null | cut -d' ' -f2)\" | sort -V -C; then rustup toolchain install stable --profile minimal && rustup default stable; fi"
        ),
        source.clone(),
    );
}

/// The `[workspace.package] rust-version` of this manifest, or of the nearest ancestor
/// manifest that has a `[workspace]`.
fn workspace_rust_version(repo: &Repo, dir: &RelPath, manifest: &toml::Table) -> Option<(String, Evidence)> {
    let own = |table: &toml::Table| -> Option<String> {
        table.get("workspace")?.get("package")?.get("rust-version")?.as_str().and_then(version::numeric_pin)
    };
    if let Some(v) = own(manifest) {
        return Some((v, Evidence::key(dir.join(rel!("Cargo.toml")), "workspace.package.rust-version")));
    }
    let mut current = (!dir.is_empty()).then(|| dir.parent());
    while let Some(d) = current {
        let path = d.join(rel!("Cargo.toml"));
        if repo.exists(&path)
            && let Some(table) = repo.read_toml(&path)
            && table.get("workspace").is_some()
        {
            return own(&table).map(|v| (v, Evidence::key(path, "workspace.package.rust-version")));
        }
        current = (!d.is_empty()).then(|| d.parent());
    }
    None
}

/// `1.96.0`, `1.96` → pinned; `nightly-2025-01-01` → pinned as written; `stable`, `beta`,
/// `nightly` follow a moving channel.
fn toolchain_pin(channel: &str) -> Option<String> {
    let channel = channel.trim();
    if channel.starts_with("nightly-") || channel.starts_with("beta-") {
        return Some(channel.to_string());
    }
    version::numeric_pin(channel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locked_crates_with_native_builds_get_their_debian_packages() {
        let manifest = "[package]\nname = \"ouch\"\nversion = \"0.1.0\"\n";
        let lock = "version = 4\n\n[[package]]\nname = \"bindgen\"\nversion = \"0.72.1\"\n";
        let d = crate::detect::testing::detection(&[("Cargo.toml", manifest), ("Cargo.lock", lock)]);
        assert!(d.install.contains("hanzo_apt_install 'to build bindgen' libclang-dev"), "{}", d.install);
        let d = crate::detect::testing::detection(&[("Cargo.toml", manifest), ("Cargo.lock", "version = 4\n")]);
        assert!(!d.install.contains("libclang"), "{}", d.install);
        // Several: one line, each package once.
        let lock = "version = 4\n\n[[package]]\nname = \"openssl-sys\"\nversion = \"0.9.109\"\n\n[[package]]\nname = \"libudev-sys\"\nversion = \"0.1.4\"\n";
        let d = crate::detect::testing::detection(&[("Cargo.toml", manifest), ("Cargo.lock", lock)]);
        let apt: Vec<&str> = d.install.lines().filter(|l| l.starts_with("hanzo_apt_install")).collect();
        assert_eq!(
            apt,
            ["hanzo_apt_install 'to build openssl-sys, libudev-sys' libssl-dev pkg-config libudev-dev  # Cargo.lock"]
        );
    }

    #[test]
    fn an_unlocked_manifests_native_dependencies_get_their_debian_packages() {
        let manifest = "[package]\nname = \"decimal\"\nversion = \"1.0.0\"\n\n[dependencies]\ndiesel = { optional = true, version = \"2\" }\n\n[dev-dependencies]\ndiesel = { features = [\"mysql\", \"postgres\"], version = \"2\" }\nopenssl-sys = \"0.9\"\n";
        let d = crate::detect::testing::detection(&[("Cargo.toml", manifest)]);
        let apt: Vec<&str> = d.install.lines().filter(|l| l.starts_with("hanzo_apt_install")).collect();
        assert_eq!(
            apt,
            [
                "hanzo_apt_install 'to build mysqlclient-sys, openssl-sys, pq-sys' default-libmysqlclient-dev pkg-config libssl-dev libpq-dev  # Cargo.toml"
            ]
        );
        let plain = "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\ndiesel = { version = \"2\", features = [\"sqlite\"] }\n";
        let d = crate::detect::testing::detection(&[("Cargo.toml", plain)]);
        assert!(!d.install.contains("hanzo_apt_install"), "{}", d.install);
    }

    #[test]
    fn a_test_job_on_nightly_runs_its_tests_there() {
        let manifest = "[package]\nname = \"parser\"\nversion = \"0.1.0\"\n\n[features]\nnightly = []\n";
        let job = |setup: &str| {
            format!("jobs:\n  test:\n    steps:\n      - {setup}\n      - run: cargo test --all-features\n")
        };
        let draft = |setup: &str| {
            let workflow = job(setup);
            crate::detect::testing::detection(&[
                ("Cargo.toml", manifest),
                (".github/workflows/ci.yml", workflow.as_str()),
            ])
        };
        let d = draft("uses: dtolnay/rust-toolchain@master\n        with:\n          toolchain: nightly");
        assert_eq!(d.tests[0].command, "cargo +nightly test --all-features");
        assert!(d.install.contains("rustup toolchain install nightly --profile minimal"), "{}", d.install);
        let d = draft("uses: dtolnay/rust-toolchain@nightly-2025-06-01");
        assert_eq!(d.tests[0].command, "cargo +nightly-2025-06-01 test --all-features");
        // Stable, a version or a matrix of channels: the default toolchain.
        for setup in ["uses: dtolnay/rust-toolchain@stable", "uses: dtolnay/rust-toolchain@1.80"] {
            let d = draft(setup);
            assert_eq!(d.tests[0].command, "cargo test --all-features", "{setup}");
            assert!(!d.install.contains("toolchain install nightly"), "{}", d.install);
        }
    }

    #[test]
    fn a_matrix_of_releases_alone_tests_on_its_newest() {
        let manifest = "[package]\nname = \"bench\"\nversion = \"0.1.0\"\n";
        let draft = |rust: &str| {
            let workflow = format!(
                "env:\n  MSRV: 1.80.0\njobs:\n  ci:\n    strategy:\n      matrix:\n        rust: [{rust}]\n    steps:\n      - uses: dtolnay/rust-toolchain@master\n        with:\n          toolchain: ${{{{ matrix.rust }}}}\n      - run: cargo test --features stable\n"
            );
            crate::detect::testing::detection(&[
                ("Cargo.toml", manifest),
                (".github/workflows/ci.yml", workflow.as_str()),
            ])
        };
        // CI pins its stable at a release (new lints would break a `deny(warnings)` crate).
        let d = draft("1.87.0, $MSRV, 1.9.0");
        assert_eq!(d.tests[0].command, "cargo +1.87.0 test --features stable");
        assert!(d.install.contains("rustup toolchain install 1.87.0 --profile minimal"), "{}", d.install);
        // A channel among them, or a word that is no release: the default toolchain.
        for rust in ["stable, 1.80.0", "1.87.0, msrv", "nightly, 1.80"] {
            let d = draft(rust);
            assert_eq!(d.tests[0].command, "cargo test --features stable", "{rust}");
            assert!(!d.install.contains("rustup toolchain install"), "{rust}: {}", d.install);
        }
    }

    #[test]
    fn diesel_s_cli_connects_through_database_url() {
        assert!(Rust.is_settings_file("crates/db", "diesel.toml"));
        assert!(!Rust.is_settings_file("", "Cargo.toml"));
        let reads: Vec<(String, Need)> = Rust
            .env_reads(crate::rel_path::rel!("crates/db/diesel.toml"), "[print_schema]\nfile = \"src/schema.rs\"\n")
            .into_iter()
            .map(|r| (r.name, r.need))
            .collect();
        assert_eq!(reads, [("DATABASE_URL".to_string(), Need::Unstated)]);
    }
}
