//! `hanzo-env detect` as a command: writing the file, refusing to clobber, the output modes,
//! and bad input that must become warnings (each case builds its tree in a tempdir).

mod common;

use std::path::Path;

use common::{Run, write};

/// `hanzo-env ARGS DIR`, run from the temporary HOME.
fn hanzo(home: &Path, args: &[&str], dir: &Path) -> Run {
    common::run(common::hanzo_env(home, home).args(args).arg(dir))
}

fn node_repo() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "package.json", r#"{"name":"site","scripts":{"test":"vitest"}}"#);
    write(repo.path(), "package-lock.json", r#"{"lockfileVersion":3}"#);
    repo
}

#[test]
fn writes_the_file_then_finds_it_up_to_date() {
    let home = tempfile::tempdir().unwrap();
    let repo = node_repo();
    let run = hanzo(home.path(), &["detect"], repo.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "the default mode prints nothing on stdout: {}", run.stdout);
    assert!(run.stderr.contains("Wrote"), "{}", run.stderr);
    let file = repo.path().join(".hanzo/environment.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let proposal = hanzo_env::proposal::Proposal::parse(&text).unwrap();
    assert_eq!(text, hanzo(home.path(), &["detect", "--stdout"], repo.path()).stdout);
    // One step: the install is that command, its evidence a comment beside it.
    assert_eq!(proposal.install, "npm ci");
    assert!(text.contains("install = \"npm ci\"  # package-lock.json\n"), "{text}");
    let leftovers: Vec<_> = std::fs::read_dir(repo.path().join(".hanzo")).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind");

    let again = hanzo(home.path(), &["detect"], repo.path());
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stderr.contains("up to date"), "{}", again.stderr);
}

#[test]
fn an_edited_file_is_not_clobbered_without_force() {
    let home = tempfile::tempdir().unwrap();
    let repo = node_repo();
    let edited = "repo = \"site\"\ninstall = \"npm ci && npm run build\"\n";
    write(repo.path(), ".hanzo/environment.toml", edited);

    let run = hanzo(home.path(), &["detect"], repo.path());
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--stdout") && run.stderr.contains("--force"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(repo.path().join(".hanzo/environment.toml")).unwrap(), edited);

    let forced = hanzo(home.path(), &["detect", "--force"], repo.path());
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let text = std::fs::read_to_string(repo.path().join(".hanzo/environment.toml")).unwrap();
    assert_ne!(text, edited);
    hanzo_env::proposal::Proposal::parse(&text).unwrap();
}

#[test]
fn json_stdout_and_explain_write_nothing() {
    let home = tempfile::tempdir().unwrap();
    let repo = node_repo();
    for mode in ["--json", "--stdout", "--explain"] {
        let run = hanzo(home.path(), &["detect", mode], repo.path());
        assert_eq!(run.code, 0, "{mode}: {}", run.stderr);
        assert!(!run.stdout.is_empty(), "{mode} prints on stdout");
        assert!(!repo.path().join(".hanzo").exists(), "{mode} must not write the file");
    }
    // The JSON's keys and their order: `detect_fixtures::detect_json_keeps_its_contract…`.
    let text = hanzo(home.path(), &["detect", "--json"], repo.path()).stdout;
    serde_json::from_str::<serde_json::Value>(&text).unwrap();
}

#[test]
fn secrets_say_which_are_required_in_every_output() {
    let home = tempfile::tempdir().unwrap();
    let repo = node_repo();
    write(
        repo.path(),
        "src/env.ts",
        "export const env = createEnv({\n  server: {\n    DATABASE_URL: z.string().url(),\n    RESEND_API_KEY: z.string().optional(),\n  },\n  runtimeEnv: process.env,\n});\n",
    );
    write(
        repo.path(),
        ".env.example",
        "DATABASE_URL=\nRESEND_API_KEY=\n# OPTIONAL: billing\nSTRIPE_SECRET_KEY=\nNEXT_PUBLIC_POSTHOG_KEY=\n",
    );
    let json: serde_json::Value =
        serde_json::from_str(&hanzo(home.path(), &["detect", "--json"], repo.path()).stdout).unwrap();
    assert_eq!(json["secrets"], serde_json::json!(["DATABASE_URL", "RESEND_API_KEY", "STRIPE_SECRET_KEY"]));
    let details: Vec<(String, bool, String)> = json["secret_details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (d["name"].as_str().unwrap().into(), d["required"].as_bool().unwrap(), d["source"].as_str().unwrap().into())
        })
        .collect();
    assert_eq!(
        details,
        [
            ("DATABASE_URL".into(), true, "src/env.ts:3".into()),
            ("RESEND_API_KEY".into(), false, "src/env.ts:4".into()),
            ("STRIPE_SECRET_KEY".into(), false, ".env.example:4".into()),
        ]
    );
    assert!(json["secret_details"][0]["why"].as_str().unwrap().contains("t3-env"), "{json:#}");

    let run = hanzo(home.path(), &["detect"], repo.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("secrets    1 required (DATABASE_URL), 2 optional (RESEND_API_KEY, STRIPE_SECRET_KEY)"),
        "{}",
        run.stderr
    );
    let proposal = hanzo_env::proposal::Proposal::load(&repo.path().join(".hanzo/environment.toml")).unwrap();
    assert_eq!(proposal.secrets, ["DATABASE_URL", "RESEND_API_KEY", "STRIPE_SECRET_KEY"]);
    assert_eq!(proposal.optional_secrets, ["RESEND_API_KEY", "STRIPE_SECRET_KEY"]);
    let explain = hanzo(home.path(), &["detect", "--explain"], repo.path()).stdout;
    assert!(
        explain.contains("  DATABASE_URL (required)\n      ← src/env.ts:3: t3-env schema, no default\n"),
        "{explain}"
    );
}

/// The README's first command, `detect --stdout .` on this very checkout: the tool's own code
/// (its unit tests are full of secret-looking literals) asks for no secret.
#[test]
fn the_tools_own_checkout_proposes_no_secret() {
    let home = tempfile::tempdir().unwrap();
    let run = hanzo(home.path(), &["detect", "--json"], Path::new(env!("CARGO_MANIFEST_DIR")));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["secrets"], serde_json::json!([]), "{:#}", json["secret_details"]);
}

#[test]
fn a_missing_path_is_an_error_with_a_hint() {
    let home = tempfile::tempdir().unwrap();
    let run = hanzo(home.path(), &["detect", "--json"], &home.path().join("nope"));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("nope") && run.stderr.contains("hint:"), "{}", run.stderr);
}

/// `detect --json` on `dir`: the exit code must be 0 and the warnings name every problem.
fn detect_json(dir: &Path) -> serde_json::Value {
    let home = tempfile::tempdir().unwrap();
    let run = hanzo(home.path(), &["detect", "--json"], dir);
    assert_eq!(run.code, 0, "detection must carry on: {}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

fn warnings(json: &serde_json::Value) -> Vec<String> {
    json["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect()
}

fn assert_warned(json: &serde_json::Value, file: &str, problem: &str) {
    let all = warnings(json);
    assert!(
        all.iter().any(|w| w.contains(file) && w.contains(problem)),
        "no warning about {file} ({problem}): {all:?}"
    );
}

fn install(json: &serde_json::Value) -> &str {
    json["install"].as_str().unwrap()
}

#[cfg(unix)]
#[test]
fn unreadable_directory() {
    use std::os::unix::fs::PermissionsExt;
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "go.mod", "module example.com/x\n\ngo 1.22\n");
    write(repo.path(), "locked/package.json", "{}");
    std::fs::set_permissions(repo.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(repo.path().join("locked"), std::fs::Permissions::from_mode(0o000)).unwrap();

    // root reads everything: run the binary as `nobody` then, so the directory really is unreadable.
    let home = tempfile::tempdir().unwrap();
    std::fs::set_permissions(home.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("hanzo-env");
    let mut command = if unsafe { libc::geteuid() } == 0 {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]).arg(&bin);
        c
    } else {
        std::process::Command::new(&bin)
    };
    let output = command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .current_dir(home.path())
        .args(["detect", "--json"])
        .arg(repo.path())
        .output()
        .unwrap();
    std::fs::set_permissions(repo.path().join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_warned(&json, "locked", "permission denied");
    assert!(install(&json).contains("go mod download"), "{json}");
}

#[cfg(unix)]
#[test]
fn symlink_loops() {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "Cargo.toml", "[package]\nname = \"a\"\n");
    write(repo.path(), "nested/keep.txt", "");
    std::os::unix::fs::symlink("..", repo.path().join("nested/up")).unwrap();
    std::os::unix::fs::symlink("b", repo.path().join("a")).unwrap();
    std::os::unix::fs::symlink("a", repo.path().join("b")).unwrap();
    let json = detect_json(repo.path());
    assert_warned(&json, "nested/up", "symlink loop");
    assert_warned(&json, "a", "symlink loop");
    assert!(install(&json).contains("cargo fetch"), "{json}");
}

#[cfg(target_os = "linux")]
#[test]
fn non_utf8_file_names() {
    use std::os::unix::ffi::OsStrExt;
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "package.json", r#"{"name":"x"}"#);
    let odd = repo.path().join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir(&odd).unwrap();
    std::fs::write(odd.join("package.json"), "{}").unwrap();
    let json = detect_json(repo.path());
    assert_warned(&json, "caf", "not valid UTF-8");
    assert!(install(&json).contains("npm install"), "{json}");
}

#[test]
fn malformed_json_manifest() {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "package.json", "{ \"name\": \"x\", ");
    write(repo.path(), "go.mod", "module example.com/x\n\ngo 1.22\n");
    let json = detect_json(repo.path());
    assert_warned(&json, "package.json", "invalid JSON");
    assert!(install(&json).contains("go mod download"), "{json}");
}

#[test]
fn malformed_toml_manifests() {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "Cargo.toml", "[package\nname = ");
    write(repo.path(), "svc/pyproject.toml", "[project]\nname = \"unterminated\n");
    write(repo.path(), "svc/uv.lock", "version = 1\n");
    let json = detect_json(repo.path());
    assert_warned(&json, "Cargo.toml", "invalid TOML");
    assert_warned(&json, "svc/pyproject.toml", "invalid TOML");
    assert!(
        install(&json)
            .contains("(cd svc && uv export --frozen --no-hashes --quiet --python \"$(command -v python3)\" --no-emit-workspace | python3 -m pip install -r /dev/stdin)"),
        "{json}"
    );
}

#[test]
fn malformed_yaml_manifest() {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "package.json", "{}");
    write(repo.path(), "pnpm-lock.yaml", "lockfileVersion: '9.0'\n");
    write(repo.path(), "pnpm-workspace.yaml", "packages: [\n  - 'a\n");
    let json = detect_json(repo.path());
    assert_warned(&json, "pnpm-workspace.yaml", "invalid YAML");
    assert!(install(&json).contains("pnpm install --frozen-lockfile"), "{json}");
}

#[test]
fn huge_file_with_a_manifest_name() {
    let repo = tempfile::tempdir().unwrap();
    // Sparse: 3 GiB long, no blocks written.
    let file = std::fs::File::create(repo.path().join("package.json")).unwrap();
    file.set_len(3 << 30).unwrap();
    write(repo.path(), "requirements.txt", "pytest\n");
    let json = detect_json(repo.path());
    assert_warned(&json, "package.json", "byte limit");
    assert!(install(&json).contains("pip install -r requirements.txt"), "{json}");
}

#[test]
fn binary_files_with_manifest_names() {
    let repo = tempfile::tempdir().unwrap();
    std::fs::write(repo.path().join("go.mod"), b"\x7fELF\x02\x01\x01\x00\x00\x00module").unwrap();
    std::fs::write(repo.path().join("requirements.txt"), b"caf\xe9==1.0\n").unwrap();
    write(repo.path(), "Cargo.toml", "[package]\nname = \"a\"\n");
    let json = detect_json(repo.path());
    assert_warned(&json, "go.mod", "binary");
    assert_warned(&json, "requirements.txt", "not valid UTF-8");
    assert!(install(&json).contains("cargo fetch"), "{json}");
}

#[test]
fn malformed_xml_manifest() {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "pom.xml", "<project><build>\n<plugins></build></project>");
    write(repo.path(), "web/package.json", "{}");
    let json = detect_json(repo.path());
    assert_warned(&json, "pom.xml", "invalid XML");
    assert!(install(&json).contains("(cd web && npm install)"), "{json}");
}

#[test]
fn run_in_a_subdirectory_it_detects_the_whole_checkout() {
    let home = tempfile::tempdir().unwrap();
    let repo = node_repo();
    std::fs::create_dir_all(repo.path().join(".git")).unwrap();
    std::fs::create_dir_all(repo.path().join("src/deep")).unwrap();
    let run = common::run(common::hanzo_env(home.path(), &repo.path().join("src/deep")).args(["detect", "--stdout"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("install = \"npm ci\""), "{}", run.stdout);
}

/// A git repository at `dir` with every file of it committed (`git add -f`: also those its
/// `.gitignore` matches). False when git is not here.
fn commit_everything(dir: &Path) -> bool {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args(args)
            .current_dir(dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    git(&["init", "-q"]) && git(&["add", "-f", "."]) && git(&["commit", "-q", "-m", "snapshot"])
}

#[test]
fn a_file_committed_although_gitignore_matches_it_is_read() {
    // TatSu commits uv.lock and lists it in .gitignore; git keeps a tracked file, so detect
    // reads it: the export is the lock's (--frozen). An ignored file never committed stays out.
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "pyproject.toml", "[project]\nname = 'p'\nrequires-python = '>=3.10'\n[tool.uv]\n");
    write(repo.path(), "uv.lock", "version = 1\n");
    write(repo.path(), "config/application.properties", "mail.password=x\n");
    write(repo.path(), ".gitignore", "uv.lock\nconfig/\nlocal.env\n");
    if !commit_everything(repo.path()) {
        common::cannot_run_here("needs git to make a repository");
        return;
    }
    write(repo.path(), "local.env", "LOCAL_ONLY_TOKEN=abc\n");
    let json = detect_json(repo.path());
    assert!(install(&json).contains("uv export --frozen"), "{}", install(&json));
    let text = json.to_string();
    assert!(!text.contains("LOCAL_ONLY_TOKEN"), "an ignored file nobody committed stays out: {text}");
    // Without the repository the patterns alone decide.
    std::fs::remove_dir_all(repo.path().join(".git")).unwrap();
    let json = detect_json(repo.path());
    assert!(!install(&json).contains("--frozen"), "{}", install(&json));
}

#[test]
fn the_checkouts_git_config_runs_no_program_when_detect_asks_git() {
    // A repository's own config may name an fsmonitor command; detect's question to git turns
    // it off, so reading a checkout never runs a program of the checkout's.
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "package.json", "{\"name\": \"x\"}\n");
    write(repo.path(), ".gitignore", "uv.lock\n");
    if !commit_everything(repo.path()) {
        common::cannot_run_here("needs git to make a repository");
        return;
    }
    let marker = repo.path().join("ran");
    let hook = format!("touch '{}'; false", marker.display());
    let configured = std::process::Command::new("git")
        .args(["config", "core.fsmonitor", &hook])
        .current_dir(repo.path())
        .status()
        .is_ok_and(|s| s.success());
    assert!(configured);
    detect_json(repo.path());
    assert!(!marker.exists(), "detect ran the checkout's fsmonitor command");
}
