//! `verify`: the environment run in a scratch copy, its steps and services judged and reported.

use super::*;

fn verify_json(sandbox: &Sandbox, args: &[&str], vars: &[(&str, &str)]) -> (Option<i32>, serde_json::Value, String) {
    let mut all = vec!["--json", "verify"];
    all.extend_from_slice(args);
    let out = sandbox.output(&all, vars);
    let stderr = text(&out.stderr);
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", text(&out.stdout)));
    (out.status.code(), json, stderr)
}

fn steps(json: &serde_json::Value) -> Vec<(String, String)> {
    json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["step"].as_str().unwrap().to_string(), s["status"].as_str().unwrap().to_string()))
        .collect()
}

/// Where verify copied the sandbox's checkout in `scratch`: under its own folder name.
fn copy_in(scratch: &Path, sandbox: &Sandbox) -> std::path::PathBuf {
    scratch.join("repo").join(sandbox.repo.canonicalize().unwrap().file_name().unwrap())
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn verify_passes_in_a_scratch_copy_that_honours_gitignore() {
    let sandbox = Sandbox::fixture("passes");
    std::fs::create_dir_all(sandbox.repo.join("node_modules/dep")).unwrap();
    std::fs::write(sandbox.repo.join("node_modules/dep/index.js"), "x").unwrap();
    std::fs::write(sandbox.repo.join(".gitignore"), "*.secret\n").unwrap();
    std::fs::write(sandbox.repo.join("local.secret"), "x").unwrap();
    let test = "grep -qx 'built from input' build/output.txt && [ \"$GREETING\" = 'hello world' ] \
                && [ ! -e node_modules ] && [ ! -e local.secret ] && [ \"$CI\" = true ]";
    let (code, json, stderr) = verify_json(&sandbox, &["--test", test], &[("WHO", "world")]);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("install", "passed"), ("test", "passed")]));
    assert_eq!(json["ok"], true);
    assert_eq!(json["kept"], "none");
    assert!(json["steps"][0]["log"].is_null(), "no path to a removed log");
    assert!(!Path::new(json["scratch"].as_str().unwrap()).exists(), "the scratch copy is removed");
    assert!(!sandbox.repo.join("build").exists(), "the checkout itself is untouched");
}

/// git in `dir` as a test author, without the user's configuration or signing.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(["-c", "tag.gpgsign=false"])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn verify_copies_the_git_history_without_touching_the_checkouts() {
    let sandbox = Sandbox::fixture("passes");
    git(&sandbox.repo, &["init", "-q"]);
    // A committed fixture that an ignore pattern also matches: git tracks it all the same.
    std::fs::create_dir_all(sandbox.repo.join("tests")).unwrap();
    std::fs::write(sandbox.repo.join("tests/fixture.db"), "rows").unwrap();
    std::fs::write(sandbox.repo.join(".gitignore"), "*.db\n").unwrap();
    git(&sandbox.repo, &["add", "input.txt", ".gitignore"]);
    git(&sandbox.repo, &["add", "-f", "tests/fixture.db"]);
    git(&sandbox.repo, &["commit", "-q", "-m", "first"]);
    git(&sandbox.repo, &["tag", "v1.2.3"]);
    std::fs::write(sandbox.repo.join("input.txt"), "changed\n").unwrap();
    std::fs::write(sandbox.repo.join("local.db"), "untracked and ignored").unwrap();
    let before = [git(&sandbox.repo, &["status", "--porcelain"]), git(&sandbox.repo, &["show-ref"])];

    // As a sandbox's checkout: the tags (a version from git), the uncommitted change as one,
    // and no stand-in version over what git says.
    let test = "[ \"$(git describe --tags)\" = v1.2.3 ] && git status --porcelain | grep -qx ' M input.txt' \
                && [ \"$(cat tests/fixture.db)\" = rows ] && [ ! -e local.db ] \
                && [ -z \"${SETUPTOOLS_SCM_PRETEND_VERSION:-}\" ] && git -c user.name=t -c user.email=t@example.com commit -qam changed";
    let (code, json, stderr) = verify_json(&sandbox, &["--test", test], &[("WHO", "world")]);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert_eq!(json["warnings"], serde_json::json!([]), "{json:#}");
    let after = [git(&sandbox.repo, &["status", "--porcelain"]), git(&sandbox.repo, &["show-ref"])];
    assert_eq!(before, after, "a commit in the copy leaves the checkout's repository as it was");
}

#[test]
fn verify_says_when_the_copy_could_not_get_the_git_history() {
    let sandbox = Sandbox::fixture("passes");
    std::fs::create_dir_all(sandbox.repo.join(".git")).unwrap();
    let (code, json, stderr) = verify_json(&sandbox, &["--test", "[ ! -e .git ]"], &[("WHO", "world")]);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    let warning = json["warnings"][0].as_str().unwrap_or_default();
    assert!(warning.starts_with("the copy has no git history (git clone: "), "{json:#}");
}

#[test]
fn verify_reports_the_failing_install_line_and_skips_the_rest() {
    let sandbox = Sandbox::fixture("install-fails");
    let (code, json, _) = verify_json(&sandbox, &["--test", "true"], &[]);
    assert_eq!(code, Some(1));
    assert_eq!(steps(&json), pairs(&[("install", "failed"), ("test", "skipped")]));
    let install = &json["steps"][0];
    assert_eq!(install["failed_line"], "line 2: test -f missing-lockfile.lock (exit 1)");
    assert_eq!(install["exit_code"], 1);
    let tail: Vec<&str> = install["tail"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(tail.contains(&"fetching dependencies") && !tail.contains(&"never reached"), "{tail:?}");
    assert_eq!(json["kept"], "logs");
    let log = PathBuf::from(install["log"].as_str().unwrap());
    assert!(log.exists(), "the failing step's log is kept");

    // The table names the failing line too.
    let out = sandbox.output(&["verify", "--test", "true"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let table = text(&out.stdout);
    assert!(
        table.contains("install  failed") && table.contains("failed at line 2: test -f missing-lockfile.lock"),
        "{table}"
    );
}

#[test]
fn verify_timeouts_stop_the_whole_process_group() {
    let sandbox = Sandbox::fixture("hangs");
    let began = Instant::now();
    let (code, json, _) = verify_json(&sandbox, &["--step-timeout", "2s", "--test", "true"], &[]);
    assert!(began.elapsed() < Duration::from_secs(20), "took {:?}", began.elapsed());
    assert_eq!(code, Some(1));
    assert_eq!(steps(&json), pairs(&[("install", "timeout"), ("test", "skipped")]));
    assert_eq!(processes_inside(&scratch_of(&json)), Vec::<String>::new(), "no orphan survives");
}

#[test]
fn verify_total_timeout_skips_what_is_left() {
    let sandbox = Sandbox::fixture("passes");
    let (code, json, _) =
        verify_json(&sandbox, &["--timeout", "1s", "--test", "sleep 9873", "--test", "true"], &[("WHO", "x")]);
    assert_eq!(code, Some(1));
    assert_eq!(steps(&json), pairs(&[("install", "passed"), ("test 1", "timeout"), ("test 2", "skipped")]));
    assert_eq!(processes_inside(&scratch_of(&json)), Vec::<String>::new());
}

#[test]
fn verify_runs_start_in_the_background_and_stops_it() {
    let sandbox = Sandbox::fixture("background");
    let test = "for i in $(seq 100); do [ -s heartbeat.txt ] && exit 0; sleep 0.1; done; echo no heartbeat; exit 1";
    let (code, json, stderr) = verify_json(&sandbox, &["--keep", "--test", test], &[]);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("start", "running"), ("test", "passed")]));
    let scratch = PathBuf::from(json["scratch"].as_str().unwrap());
    assert_eq!(json["kept"], "all");
    let start_script = scratch.join("steps/start.sh");
    assert!(start_script.exists());
    assert_eq!(
        processes_with_argv_containing(start_script.to_str().unwrap().as_bytes()),
        Vec::<String>::new(),
        "start is stopped at the end"
    );
    let heartbeat = copy_in(&scratch, &sandbox).join("heartbeat.txt");
    let before = std::fs::read_to_string(&heartbeat).unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(std::fs::read_to_string(&heartbeat).unwrap(), before, "the loop no longer writes");
    std::fs::remove_dir_all(scratch).unwrap();
}

#[test]
fn verify_masks_secret_values_in_the_report() {
    let sandbox = Sandbox::fixture("passes");
    let secret = distinctive("VERIFY-SECRET");
    let (code, json, stderr) =
        verify_json(&sandbox, &["--test", "echo \"token is $GREETING\"; exit 3"], &[("WHO", &secret)]);
    assert_eq!(code, Some(1));
    let shown = format!("{json}{stderr}");
    assert!(!shown.contains(&secret), "{shown}");
    assert!(shown.contains("token is [GREETING]"), "{shown}");
}

#[test]
fn verify_warns_first_when_a_required_secret_resolves_to_nothing() {
    let toml = "install = \"true\"\nsecrets = [\n  \"API_TOKEN\",\n  \"DB_PASSWORD\",\n  \"EMPTY_KEY\",\n  # optional:\n  \"SMTP_PASSWORD\",\n]\n\n[env]\nAPI_TOKEN = \"${API_TOKEN}\"\nEMPTY_KEY = \"${EMPTY_KEY:-}\"\n";
    let sandbox = Sandbox::new(toml);
    let secret = distinctive("required");
    let (code, json, stderr) = verify_json(&sandbox, &["--test", "true"], &[("API_TOKEN", &secret)]);
    assert_eq!(code, Some(0), "a warning, not a failure: {json:#}\n{stderr}");
    let warning = stderr
        .lines()
        .find(|l| l.contains("required secrets resolve to nothing"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(warning.contains("DB_PASSWORD, EMPTY_KEY"), "{warning}");
    assert!(!warning.contains("API_TOKEN") && !warning.contains("SMTP_PASSWORD"), "{warning}");
    assert!(warning.contains("--pass DB_PASSWORD"), "{warning}");
    // Before anything runs: the warning is the first thing on stderr.
    assert!(stderr.lines().next().unwrap_or_default().contains("required secrets resolve to nothing"), "{stderr}");
    assert!(!stderr.contains(&secret) && !json.to_string().contains(&secret));
    // `--pass` gives it a value from the caller's environment.
    let (_, _, stderr) = verify_json(
        &sandbox,
        &["--test", "true", "--pass", "DB_PASSWORD"],
        &[("API_TOKEN", &secret), ("DB_PASSWORD", "x1")],
    );
    let warning = stderr.lines().find(|l| l.contains("required secrets resolve to nothing")).unwrap_or_default();
    assert!(!warning.contains("DB_PASSWORD") && warning.contains("EMPTY_KEY"), "{stderr}");
}

#[test]
fn verify_without_anything_to_run_is_an_error() {
    let sandbox = Sandbox::new("install = \"\"\nstart = \"\"\n");
    let out = sandbox.output(&["verify"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("nothing to verify"));
}

#[test]
fn verify_interrupted_stops_the_running_step_and_exits_130() {
    let sandbox = Sandbox::fixture("passes");
    let mut child = sandbox
        .cmd()
        .args(["--json", "verify", "--test", "sleep 9874"])
        .env("WHO", "x")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The scratch directory is inside this sandbox's TMPDIR.
    wait_until("the test step", Duration::from_secs(20), || {
        processes_inside(&sandbox.tmp).iter().any(|p| p.contains("sleep 9874"))
    });
    unsafe_kill(child.id(), libc::SIGINT);
    let began = Instant::now();
    let status = child.wait().unwrap();
    assert!(began.elapsed() < Duration::from_secs(10));
    assert_eq!(status.code(), Some(130));
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(steps(&json), pairs(&[("install", "passed"), ("test", "interrupted")]));
    assert_eq!(processes_inside(&scratch_of(&json)), Vec::<String>::new(), "the step's group is gone");
}

/// A listener on redis's port, for a test that plays the redis the `services` fixture
/// declares; `None` (the test skips) when something else holds the port.
/// The `services` fixture with its redis published on a free port, and a listener playing
/// redis there (verify only waits for the port to answer).
fn services_on_a_free_port() -> (Sandbox, std::net::TcpListener, u16) {
    let sandbox = Sandbox::fixture("services");
    let (listener, port) = common::free_port();
    std::fs::write(
        sandbox.repo.join("compose.yaml"),
        format!("services:\n  cache:\n    image: redis:7\n    ports:\n      - \"{port}:6379\"\n"),
    )
    .unwrap();
    (sandbox, listener, port)
}

#[test]
fn verify_waits_for_the_ports_of_detected_services() {
    let (sandbox, listener, port) = services_on_a_free_port();
    let (code, json, stderr) = verify_json(&sandbox, &["--step-timeout", "2s", "--test", "true"], &[]);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("start", "running"), ("services", "passed"), ("test", "passed")]));
    assert_eq!(json["steps"][1]["command"], format!("redis:{port}"));

    // The port the system gave us, closed again: nothing else takes an ephemeral port this soon.
    drop(listener);
    let (code, json, _) = verify_json(&sandbox, &["--step-timeout", "2s", "--test", "true"], &[]);
    assert_eq!(code, Some(1));
    assert_eq!(steps(&json), pairs(&[("start", "running"), ("services", "failed"), ("test", "passed")]));
    let tail = json["steps"][1]["tail"].to_string();
    assert!(tail.contains(&format!("redis: 127.0.0.1:{port} still closed")), "{tail}");
    assert_eq!(processes_inside(&scratch_of(&json)), Vec::<String>::new());
}

#[test]
fn verify_lets_start_finish_setting_up_the_services_before_the_tests() {
    // The played redis answers at once, before start has made what the tests need (a native
    // postgres answers before start has created its role and database).
    let (sandbox, _listener, _) = services_on_a_free_port();
    std::fs::write(
        sandbox.repo.join(".hanzo/environment.toml"),
        "repo = \"services\"\ninstall = \"\"\nstart = \"sleep 1 && touch prepared\"\nsecrets = []\n",
    )
    .unwrap();
    let (code, json, stderr) = verify_json(&sandbox, &["--keep", "--test", "test -f prepared"], &[]);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("start", "passed"), ("services", "passed"), ("test", "passed")]));
    let log = std::fs::read_to_string(json["steps"][1]["log"].as_str().expect("the services log")).unwrap();
    assert!(log.contains("start: done setting up"), "{log}");
    std::fs::remove_dir_all(scratch_of(&json)).unwrap();
}

/// Whether `python3 -m venv` works here (Debian splits it into python3-venv).
fn has_python_venv() -> bool {
    Command::new("python3")
        .args(["-c", "import venv, ensurepip"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn verify_keeps_python_and_npm_installs_inside_the_scratch_directory() {
    if !has_python_venv() {
        common::cannot_run_here("python3 with venv and ensurepip is not installed (Debian: python3-venv)");
        return;
    }
    let sandbox = Sandbox::new(
        r#"repo = "py"
install = """
python3 -m pip --version >/dev/null
python3 -c 'import sys; assert sys.prefix != sys.base_prefix, sys.prefix'
printf '%s\n' "$VIRTUAL_ENV" "$NPM_CONFIG_PREFIX" > where.txt
"""
start = ""
secrets = []
"#,
    );
    // The step after install sees the same environment: the scratch venv first, then npm's bin.
    let test = r#"[ "$(command -v python3)" = "$VIRTUAL_ENV/bin/python3" ] && [ "$(sed -n 1p where.txt)" = "$VIRTUAL_ENV" ] \
        && case "$PATH" in "$VIRTUAL_ENV/bin:$NPM_CONFIG_PREFIX/bin:"*) true;; *) false;; esac"#;
    let (code, json, stderr) = verify_json(&sandbox, &["--keep", "--test", test], &[]);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("install", "passed"), ("test", "passed")]));
    let scratch = scratch_of(&json);
    let recorded = std::fs::read_to_string(copy_in(&scratch, &sandbox).join("where.txt")).unwrap();
    let lines: Vec<&str> = recorded.lines().collect();
    assert_eq!(lines.len(), 2, "{recorded}");
    for dir in lines {
        assert!(Path::new(dir).starts_with(&scratch), "{dir} is outside {}", scratch.display());
        assert!(Path::new(dir).is_dir(), "{dir}");
    }
    assert!(scratch.join("env/venv/bin/python3").exists());
    for written in [".local", ".profile", ".bashrc"] {
        assert!(!sandbox.home.join(written).exists(), "verify wrote ~/{written}");
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}

#[test]
fn verify_makes_no_virtualenv_when_install_runs_no_python() {
    let sandbox = Sandbox::new("repo = \"x\"\ninstall = \"mkdir -p build\"\nstart = \"\"\nsecrets = []\n");
    let test = r#"[ -z "${VIRTUAL_ENV:-}" ] && [ -d "$NPM_CONFIG_PREFIX/bin" ] && [ "${PATH%%:*}" = "$NPM_CONFIG_PREFIX/bin" ]"#;
    let (code, json, stderr) = verify_json(&sandbox, &["--test", test], &[]);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
}

#[test]
fn verify_names_the_command_a_step_did_not_find() {
    let sandbox = Sandbox::new(
        "repo = \"x\"\ninstall = \"\"\"\nset -euo pipefail\nno-such-tool-4411 install --frozen\n\"\"\"\nstart = \"\"\nsecrets = []\n",
    );
    let (code, json, _) = verify_json(&sandbox, &["--test", "true"], &[]);
    assert_eq!(code, Some(1));
    assert_eq!(steps(&json), pairs(&[("install", "failed"), ("test", "skipped")]));
    assert_eq!(json["steps"][0]["exit_code"], 127);
    let hint = json["steps"][0]["hint"].as_str().expect("a hint for exit 127");
    assert!(hint.starts_with("`no-such-tool-4411` is not installed here"), "{hint}");

    // dash's message (`sh: 1: name: not found`), in the text report.
    let sandbox = Sandbox::new("repo = \"x\"\ninstall = \"\"\nstart = \"\"\nsecrets = []\n");
    let out = sandbox.output(&["verify", "--test", "sh -c 'no-such-runner-77 --ci'"], &[("NO_COLOR", "1")]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("test failed, exit 127"), "{stdout}");
    assert!(stdout.contains("hint: `no-such-runner-77` is not installed here"), "{stdout}");

    // make reports a recipe's missing command as its own exit 2.
    std::fs::write(sandbox.repo.join("Makefile"), "test:\n\tno-such-runner-78 run tests\n").unwrap();
    let (_, json, _) = verify_json(&sandbox, &["--test", "make test"], &[]);
    let hint = json["steps"][0]["hint"].as_str().expect("a hint for make's Error 127");
    assert!(hint.starts_with("`no-such-runner-78` is not installed here"), "{hint}");

    // Other failures get no such hint.
    let (_, json, _) = verify_json(&sandbox, &["--test", "exit 3"], &[]);
    assert!(json["steps"][0].get("hint").is_none(), "{json:#}");
}

#[test]
fn verify_reports_a_test_failing_while_a_service_is_down_as_blocked() {
    // compose.yaml publishes postgres; the test publishes it on a free port, closed at first.
    let sandbox = Sandbox::fixture("blocked");
    let (listener, port) = common::free_port();
    drop(listener);
    std::fs::write(
        sandbox.repo.join("compose.yaml"),
        format!("services:\n  db:\n    image: postgres:16\n    ports:\n      - \"{port}:5432\"\n"),
    )
    .unwrap();
    let (code, json, stderr) = verify_json(&sandbox, &["--step-timeout", "2s", "--test", "exit 1"], &[]);
    assert_eq!(code, Some(1), "{json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("start", "running"), ("services", "failed"), ("test", "blocked")]));
    assert_eq!(json["steps"][1]["command"], format!("postgres:{port}"));
    assert_eq!(json["steps"][2]["blocked_by"], serde_json::json!(["postgres"]));
    let hint = json["steps"][2]["hint"].as_str().unwrap();
    assert!(hint.starts_with(&format!("blocked by postgres (127.0.0.1:{port})")), "{hint}");

    // With the service answering, a failing test is the test's own failure.
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).expect("the port closed a moment ago");
    let (code, json, _) = verify_json(&sandbox, &["--step-timeout", "2s", "--test", "exit 1"], &[]);
    drop(listener);
    assert_eq!(code, Some(1));
    assert_eq!(steps(&json), pairs(&[("start", "running"), ("services", "passed"), ("test", "failed")]));
    assert!(json["steps"][2].get("blocked_by").is_none(), "{json:#}");
}

#[test]
fn verify_runs_the_primary_test_unless_asked_for_all() {
    let sandbox = Sandbox::fixture("primary");
    // Fake npm and make record that they ran, outside the scratch copy.
    let bin = sandbox.home.join("fake-bin");
    let ran = sandbox.home.join("ran.txt");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["npm", "make"] {
        let script = bin.join(tool);
        std::fs::write(&script, format!("#!/bin/sh\necho \"{tool} $*\" >> '{}'\n", ran.display())).unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let vars = [("PATH", path.as_str())];

    let (code, json, stderr) = verify_json(&sandbox, &[], &vars);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("test", "passed")]));
    assert_eq!(json["steps"][0]["command"], "npm test");
    assert!(stderr.contains("--all-tests runs all 2 detected"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&ran).unwrap(), "npm test\n");

    std::fs::remove_file(&ran).unwrap();
    let (code, json, stderr) = verify_json(&sandbox, &["--all-tests"], &vars);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("test 1", "passed"), ("test 2", "passed")]));
    assert_eq!(std::fs::read_to_string(&ran).unwrap(), "npm test\nmake test\n");

    let out = sandbox.output(&["verify", "--all-tests", "--test", "true"], &vars);
    assert_eq!(out.status.code(), Some(2), "--all-tests and --test conflict");
}

#[test]
fn verify_all_tests_starts_the_optional_services_and_only_warns_when_they_do_not_come_up() {
    // `npm test`'s job brings up nothing; the e2e job's mail server is optional. Docker
    // does not answer here (a fake `docker` fails) and no distribution packages mailpit.
    let sandbox = Sandbox::fixture("optional");
    let bin = sandbox.home.join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (tool, body) in [("npm", "exit 0"), ("docker", "exit 1")] {
        let script = bin.join(tool);
        std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let vars = [("PATH", path.as_str())];

    let (code, json, stderr) = verify_json(&sandbox, &[], &vars);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("install", "passed"), ("test", "passed")]), "the primary alone");

    let (code, json, stderr) = verify_json(&sandbox, &["--all-tests"], &vars);
    assert_eq!(code, Some(0), "a service the primary test does not use is no failure: {json:#}\n{stderr}");
    assert_eq!(steps(&json), pairs(&[("install", "passed"), ("test", "passed"), ("optional services", "warned")]));
    assert_eq!(json["ok"], true);
    assert!(
        stderr.contains("optional services not brought up: mailpit (e2e/compose.yml#services.mail)"),
        "named, with its evidence: {stderr}"
    );
    assert!(stderr.contains("(it said: ") && stderr.contains("docker-compose"), "what its start said: {stderr}");
}

#[test]
fn verify_names_the_ca_variables_when_a_certificate_is_not_trusted() {
    let sandbox = Sandbox::new("repo = \"x\"\ninstall = \"\"\nstart = \"\"\nsecrets = []\n");
    let test = "echo 'error: Failed to fetch: https://files.pythonhosted.org/x.whl' >&2; \
                echo '  cause: invalid peer certificate: UnknownIssuer' >&2; exit 2";
    let (code, json, _) = verify_json(&sandbox, &["--test", test], &[]);
    assert_eq!(code, Some(1));
    let hint = json["steps"][0]["hint"].as_str().expect("a hint for an untrusted certificate");
    assert!(hint.contains("set SSL_CERT_FILE"), "{hint}");
}

#[test]
fn verify_passes_the_location_variables_that_are_set_and_no_proxy() {
    let sandbox = Sandbox::new("repo = \"x\"\ninstall = \"\"\nstart = \"\"\nsecrets = []\n");
    let test = "[ \"$SSL_CERT_FILE\" = /etc/ca/bundle.pem ] && [ \"$NODE_EXTRA_CA_CERTS\" = /etc/ca/extra.pem ] \
                && [ \"$PYENV_ROOT\" = /opt/pyenv ] && [ -z \"${PIP_CERT+set}\" ] && [ -z \"${HTTPS_PROXY+set}\" ] \
                && [ -z \"${VIRTUAL_ENV+set}\" ]";
    let vars = [
        ("SSL_CERT_FILE", "/etc/ca/bundle.pem"),
        ("NODE_EXTRA_CA_CERTS", "/etc/ca/extra.pem"),
        ("PYENV_ROOT", "/opt/pyenv"),
        ("VIRTUAL_ENV", "/home/me/.venv"),
        ("HTTPS_PROXY", "http://user:hunter2-proxy@proxy.example:3128"),
    ];
    let (code, json, stderr) = verify_json(&sandbox, &["--test", test], &vars);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
    assert!(!stderr.contains("not set in your environment"), "no warning for an unset one: {stderr}");
    assert!(!format!("{json}{stderr}").contains("hunter2-proxy"), "the proxy's password is never shown");
}

#[test]
fn verify_copies_the_checkout_under_its_own_folder_name() {
    // A suite may find its files by a path holding the project's name.
    let sandbox = Sandbox::new("repo = \"x\"\ninstall = \"\"\nstart = \"\"\nsecrets = []\n");
    let name = sandbox.repo.canonicalize().unwrap().file_name().unwrap().to_string_lossy().into_owned();
    let test = format!("[ \"$(basename \"$PWD\")\" = '{name}' ] && [ \"$PWD\" != '{}' ]", sandbox.repo.display());
    let (code, json, stderr) = verify_json(&sandbox, &["--test", &test], &[]);
    assert_eq!(code, Some(0), "{json:#}\n{stderr}");
}
