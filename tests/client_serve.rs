//! The client loop end to end against the real `hanzo-env serve` on a free loopback port:
//! save/diff/pull, a concurrent change caught before it is overwritten, secrets through every
//! input path with leak checks (output at every verbosity, argv of every process, HOME, the
//! server's logs and data), login/logout with the opt-in file store, list/show/delete.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use common::{Run, Serve, run};
use expectrl::Expect;
use hanzo_env::proposal::Proposal;

mod common;

impl Serve {
    /// The server's stdout, stderr and data files, as bytes.
    fn traces(&self) -> Vec<(PathBuf, Vec<u8>)> {
        files_under(self.dir.path())
    }
}

/// A user's machine: a temporary HOME with a checkout of `site` in it.
struct Desk {
    home: tempfile::TempDir,
    url: String,
    token: String,
}

impl Desk {
    fn new(serve: &Serve) -> Desk {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join("site/.hanzo")).unwrap();
        Desk { home, url: serve.url.clone(), token: serve.token.clone() }
    }

    fn checkout(&self) -> PathBuf {
        self.home.path().join("site")
    }

    fn file(&self) -> PathBuf {
        self.checkout().join(".hanzo/environment.toml")
    }

    fn write(&self, proposal: &Proposal) {
        std::fs::write(self.file(), proposal.render()).unwrap();
    }

    fn read(&self) -> Proposal {
        Proposal::load(&self.file()).unwrap()
    }

    fn cmd(&self) -> Command {
        let mut cmd = common::hanzo_api(self.home.path(), &self.url, &self.token);
        cmd.current_dir(self.checkout());
        cmd
    }

    fn pty(&self, args: &[&str]) -> expectrl::session::OsSession {
        self.pty_with(args, &[("HANZO_API_KEY", &self.token)])
    }

    /// The binary on a pseudo-terminal, with `env` on top of HOME, PATH, TERM and the API.
    fn pty_with(&self, args: &[&str], env: &[(&str, &str)]) -> expectrl::session::OsSession {
        let mut cmd = common::process(self.home.path());
        cmd.env("TERM", "xterm")
            .env("HANZO_BASE_URL", &self.url)
            .envs(env.iter().copied())
            .current_dir(self.checkout())
            .args(args);
        let mut session = expectrl::Session::spawn(cmd).unwrap();
        session.set_expect_timeout(Some(Duration::from_secs(30)));
        session
    }
}

/// Type `answer` at a prompt until the program prints `after`; the whole screen from then to
/// the end. A prompt switches the terminal's mode with TCSAFLUSH, which drops what was typed
/// before it: under load the answer can arrive too early, so it is typed again.
fn answer_prompt(session: &mut expectrl::session::OsSession, answer: &str, after: &str) -> String {
    session.set_expect_timeout(Some(Duration::from_secs(2)));
    for _ in 0..15 {
        session.send_line(answer).unwrap();
        match session.expect(after) {
            Ok(found) => {
                let mut screen = String::from_utf8_lossy(found.before()).into_owned();
                screen.push_str(after);
                session.set_expect_timeout(Some(Duration::from_secs(30)));
                let rest = session.expect(expectrl::Eof).unwrap();
                screen.push_str(&String::from_utf8_lossy(rest.before()));
                for part in rest.matches() {
                    screen.push_str(&String::from_utf8_lossy(part));
                }
                return screen;
            }
            Err(expectrl::Error::ExpectTimeout) => continue,
            Err(e) => panic!("{e}"),
        }
    }
    panic!("the prompt never took the answer (waiting for {after:?})");
}

fn ok(cmd: &mut Command) -> Run {
    let r = run(cmd);
    assert_eq!(r.code, 0, "stdout: {}\nstderr: {}", r.stdout, r.stderr);
    r
}

fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else if let Ok(bytes) = std::fs::read(&path) {
            out.push((path, bytes));
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

fn site(install: &str) -> Proposal {
    Proposal {
        repo: Some("site".into()),
        install: install.into(),
        start: "npm run dev".into(),
        secrets: vec!["STRIPE_SECRET_KEY".into(), "DATABASE_URL".into()],
        optional_secrets: Vec::new(),
        note: "Node 20".into(),
        env: vec![("NODE_ENV".into(), "test".into())],
    }
}

/// The saved install of `site`; "" while the org has no environment of that name.
fn server_install(desk: &Desk) -> String {
    let r = run(desk.cmd().args(["--json", "show", "site"]));
    if r.code == 3 && r.stderr.contains("no environment named site") {
        return String::new();
    }
    assert_eq!(r.code, 0, "{}", r.stderr);
    let env: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    env["install"].as_str().unwrap().to_string()
}

#[test]
fn save_diff_edit_pull_round_trip() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    desk.write(&site("npm ci\n"));

    let r = run(desk.cmd().args(["diff", "--exit-code"]));
    assert_eq!(r.code, 1, "nothing saved yet: {}", r.stderr);
    assert!(r.stdout.contains("+npm ci"), "{}", r.stdout);

    let r = run(desk.cmd().arg("save"));
    assert_eq!(r.code, 2, "no terminal and no --yes: {}", r.stderr);
    assert!(r.stderr.contains("--yes"), "{}", r.stderr);
    assert_eq!(server_install(&desk), "", "nothing saved without confirmation");

    let r = ok(desk.cmd().args(["save", "--dry-run"]));
    assert!(r.stdout.contains("+npm ci") && r.stderr.contains("dry run"), "{}{}", r.stdout, r.stderr);
    assert_eq!(server_install(&desk), "");

    let r = ok(desk.cmd().args(["save", "--yes"]));
    assert!(r.stderr.contains("Saved install and start for site"), "{}", r.stderr);
    assert!(r.stderr.contains("not set on site: STRIPE_SECRET_KEY, DATABASE_URL"), "{}", r.stderr);
    ok(desk.cmd().args(["diff", "--exit-code"]));

    desk.write(&site("npm ci\necho changed\n"));
    let r = run(desk.cmd().args(["diff", "--exit-code"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("--- saved/install") && r.stdout.contains("+echo changed"), "{}", r.stdout);
    let r = run(desk.cmd().args(["diff", "--exit-code", "--json"]));
    assert_eq!(r.code, 1);
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["different"], true);
    assert_eq!(json["missingOnServer"], serde_json::json!(["STRIPE_SECRET_KEY", "DATABASE_URL"]));
    assert_eq!(json["start"], serde_json::Value::Null);

    // Pull brings the saved copy back and keeps the file's repo and [env].
    let r = ok(desk.cmd().args(["pull", "--yes"]));
    assert!(r.stderr.contains("-echo changed"), "pull shows what changes: {}", r.stderr);
    assert_eq!(desk.read(), site("npm ci\n"));
    ok(desk.cmd().args(["diff", "--exit-code"]));
    let r = ok(desk.cmd().args(["pull", "--yes"]));
    assert!(r.stderr.contains("already matches"), "{}", r.stderr);
}

/// A plan as detect writes it: helper calls, named on the first line.
const PLAN_INSTALL: &str = "# hanzo-env helpers v1: hanzo_node hanzo_pm\nset -euo pipefail\nhanzo_node 22  # .nvmrc\n\
                            hanzo_pm pnpm 9.12.0  # package.json#packageManager\npnpm install --frozen-lockfile  # pnpm-lock.yaml\n";
const PLAN_START: &str = "# hanzo-env helpers v1: hanzo_docker hanzo_compose hanzo_service hanzo_redis\n\
                          # services: docker compose, else docker-compose, else the distribution's packages\n\
                          if hanzo_docker compose; then\n  hanzo_compose up -d cache\nelse\n  hanzo_service redis 6379 ''\nfi";

fn server_scripts(desk: &Desk) -> (String, String) {
    let r = ok(desk.cmd().args(["--json", "show", "site"]));
    let env: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    (env["install"].as_str().unwrap().to_string(), env["start"].as_str().unwrap().to_string())
}

#[test]
fn a_plan_is_saved_with_its_helpers_and_pulled_back_as_the_plan() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    let plan = Proposal { start: PLAN_START.into(), ..site(PLAN_INSTALL) };
    desk.write(&plan);
    ok(desk.cmd().args(["save", "--yes"]));

    // The server holds what runs alone: each helpers line replaced by its block.
    let (install, start) = server_scripts(&desk);
    assert!(install.starts_with("# >>> hanzo-env helpers v1: hanzo_node hanzo_pm\n"), "{install}");
    assert!(install.contains("\nhanzo_node() {\n") && install.contains("\nhanzo_pm() {\n"), "{install}");
    assert!(install.ends_with("# <<< hanzo-env helpers v1\nset -euo pipefail\nhanzo_node 22  # .nvmrc\nhanzo_pm pnpm 9.12.0  # package.json#packageManager\npnpm install --frozen-lockfile  # pnpm-lock.yaml\n"), "{install}");
    assert!(
        start.contains("\nhanzo_redis() {\n") && start.contains("\nhanzo_wait() {\n"),
        "the helpers it calls too: {start}"
    );
    for script in [&install, &start] {
        let syntax = std::process::Command::new("bash").args(["-n", "-c", script]).output().unwrap();
        assert!(syntax.status.success(), "{}", String::from_utf8_lossy(&syntax.stderr));
    }

    // diff and a second save see no difference; the review shows the plan, not the helpers.
    let r = ok(desk.cmd().args(["diff", "--exit-code"]));
    assert!(!r.stdout.contains("hanzo_node()"), "{}", r.stdout);
    desk.write(&site("npm ci\n"));
    let r = run(desk.cmd().args(["diff"]));
    assert!(r.stdout.contains("-# hanzo-env helpers v1: hanzo_node hanzo_pm\n"), "{}", r.stdout);
    assert!(!r.stdout.contains("hanzo_node() {"), "an unmodified block reads as its line: {}", r.stdout);

    // pull gives back the very plan that was reviewed.
    ok(desk.cmd().args(["pull", "--yes"]));
    assert_eq!(desk.read(), plan);

    // A hand-edited block is saved, pulled and compared as it is, in full.
    let edited = install.replace("going on with", "carrying on with");
    assert_ne!(edited, install);
    desk.write(&Proposal { install: edited.clone(), ..plan.clone() });
    ok(desk.cmd().args(["save", "--yes"]));
    assert_eq!(server_scripts(&desk).0, edited);
    desk.write(&plan);
    let r = run(desk.cmd().args(["diff", "--exit-code"]));
    assert_eq!(r.code, 1, "an edited block is a difference: {}", r.stderr);
    assert!(r.stdout.contains("carrying on with"), "{}", r.stdout);
    ok(desk.cmd().args(["pull", "--yes"]));
    assert_eq!(desk.read().install, edited, "pulled in full, never collapsed");
    ok(desk.cmd().args(["diff", "--exit-code"]));

    // A helpers line of a version this binary does not know is refused before sending.
    desk.write(&site("# hanzo-env helpers v9: hanzo_node\nhanzo_node 22\n"));
    let r = run(desk.cmd().args(["save", "--yes"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("line 1: `hanzo-env helpers v9`") && r.stderr.contains("hint:"), "{}", r.stderr);
    assert_eq!(server_scripts(&desk).0, edited, "nothing sent");
}

#[test]
fn required_secrets_without_a_value_are_marked() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    let mut proposal = site("npm ci\n");
    proposal.optional_secrets = vec!["DATABASE_URL".into()];
    desk.write(&proposal);
    assert_eq!(desk.read(), proposal, "the optional marker survives the file");
    ok(desk.cmd().args(["save", "--yes"]));

    let r = ok(desk.cmd().arg("diff"));
    assert!(r.stderr.contains("required secrets not set on site: STRIPE_SECRET_KEY ("), "{}", r.stderr);
    assert!(r.stderr.contains("optional secrets not set on site: DATABASE_URL"), "{}", r.stderr);
    let json: serde_json::Value = serde_json::from_str(&ok(desk.cmd().args(["diff", "--json"])).stdout).unwrap();
    assert_eq!(json["missingOnServer"], serde_json::json!(["STRIPE_SECRET_KEY", "DATABASE_URL"]));
    assert_eq!(json["requiredMissingOnServer"], serde_json::json!(["STRIPE_SECRET_KEY"]));

    let r = ok(desk.cmd().args(["secret", "list"]));
    assert!(r.stderr.contains("no secrets set on site"), "{}", r.stderr);
    assert!(r.stderr.contains("but not set on site: STRIPE_SECRET_KEY ("), "{}", r.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&ok(desk.cmd().args(["secret", "list", "--json"])).stdout).unwrap();
    assert_eq!(json["requiredMissing"], serde_json::json!(["STRIPE_SECRET_KEY"]));
    // The file describes `site`, not another repo.
    ok(desk.cmd().args(["secret", "set", "OTHER_KEY", "--repo", "other", "--create"]).write_stdin("v"));
    let json: serde_json::Value =
        serde_json::from_str(&ok(desk.cmd().args(["secret", "list", "--json", "--repo", "other"])).stdout).unwrap();
    assert_eq!(json["requiredMissing"], serde_json::json!([]));

    let value = "sk_live_MARK-required-9041";
    ok(desk.cmd().args(["secret", "set", "STRIPE_SECRET_KEY"]).write_stdin(value));
    let r = ok(desk.cmd().args(["secret", "list"]));
    assert_eq!(r.stdout, "STRIPE_SECRET_KEY\n");
    assert!(!r.stderr.contains("not set"), "{}", r.stderr);
    let r = ok(desk.cmd().arg("diff"));
    assert!(!r.stderr.contains("required secrets not set"), "{}", r.stderr);
    assert!(r.stderr.contains("optional secrets not set on site: DATABASE_URL"), "{}", r.stderr);
    assert!(!r.stdout.contains(value) && !r.stderr.contains(value));
    for (path, bytes) in files_under(desk.home.path()).into_iter().chain(serve.traces()) {
        assert!(!contains(&bytes, value), "the value is in {}", path.display());
    }
}

#[test]
fn oversized_scripts_are_refused_before_sending() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    desk.write(&site(&"x".repeat((16 << 10) + 1)));
    let r = run(desk.cmd().args(["save", "--yes"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("16385 bytes") && r.stderr.contains("16 KiB"), "{}", r.stderr);
    let log = std::fs::read_to_string(serve.dir.path().join("serve.err")).unwrap();
    assert!(!log.contains("method=PUT") && !log.contains("PUT /"), "a PUT was sent: {log}");
}

#[test]
fn a_change_between_the_reviewed_diff_and_the_save_is_a_conflict() {
    let serve = Serve::start();
    let alice = Desk::new(&serve);
    let bob = Desk::new(&serve);
    alice.write(&site("npm ci\n"));
    ok(alice.cmd().args(["save", "--yes"]));

    alice.write(&site("npm ci\nalice\n"));
    let mut session = alice.pty(&["save"]);
    session.expect("+alice").unwrap();
    session.expect("Save install and start for site?").unwrap();
    // While Alice reads her diff, Bob saves his.
    bob.write(&site("npm ci\nbob\n"));
    ok(bob.cmd().args(["save", "--yes"]));
    let rest = answer_prompt(&mut session, "y", "changed since the diff you confirmed");
    let status = session.get_process().wait().unwrap();
    assert!(matches!(status, expectrl::process::unix::WaitStatus::Exited(_, 5)), "exit 5 expected: {status:?}\n{rest}");
    assert!(rest.contains("changed since the diff you confirmed"), "{rest}");
    assert!(rest.contains("install changed"), "says what changed: {rest}");
    assert_eq!(server_install(&alice), "npm ci\nbob\n", "Bob's save was not overwritten");
}

#[test]
fn diff_and_pull_against_the_servers_pending_proposal() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    desk.write(&site("npm ci\n"));
    let r = run(desk.cmd().args(["diff", "--against", "proposal"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("no pending proposal"), "{}", r.stderr);

    // A setup run's proposal, through serve's local extension of the API.
    let body = r#"{"install":"pnpm install\n","start":"pnpm dev","secrets":["REDIS_URL"],"note":"checked pnpm"}"#;
    let _ = rustls::crypto::ring::default_provider().install_default();
    let answer = reqwest::blocking::Client::new()
        .put(format!("{}/v1/environment/site/proposal", serve.url))
        .bearer_auth(&serve.token)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .unwrap();
    assert!(answer.status().is_success(), "{:?}", answer.text());

    let r = run(desk.cmd().args(["diff", "--against", "proposal", "--exit-code"]));
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("--- proposal/install") && r.stdout.contains("-pnpm install"), "{}", r.stdout);
    let r = run(desk.cmd().arg("pull"));
    assert_eq!(r.code, 2, "nothing saved: {}", r.stderr);
    assert!(r.stderr.contains("pull --proposal"), "{}", r.stderr);
    ok(desk.cmd().args(["pull", "--proposal", "--yes"]));
    let pulled = desk.read();
    assert_eq!(
        (pulled.install.as_str(), pulled.start.as_str(), pulled.note.as_str()),
        ("pnpm install\n", "pnpm dev", "checked pnpm")
    );
    assert_eq!(pulled.secrets, vec!["STRIPE_SECRET_KEY", "DATABASE_URL", "REDIS_URL"]);
    assert_eq!(pulled.env, vec![("NODE_ENV".to_string(), "test".to_string())]);
    ok(desk.cmd().args(["diff", "--against", "proposal", "--exit-code"]));
}

#[test]
fn list_show_delete() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    let r = ok(desk.cmd().arg("list"));
    assert!(r.stderr.contains("no environments"), "{}", r.stderr);
    desk.write(&site("npm ci\n"));
    ok(desk.cmd().args(["save", "--yes"]));
    ok(desk.cmd().args(["secret", "set", "DATABASE_URL"]).write_stdin("postgres://x"));
    let r = ok(desk.cmd().arg("list"));
    assert!(r.stdout.starts_with("REPO") && r.stdout.contains("site  ready"), "{}", r.stdout);
    let r = ok(desk.cmd().args(["list", "--json"]));
    let list: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(list[0]["repo"], "site");
    assert_eq!(list[0]["secrets"], serde_json::json!(["DATABASE_URL"]));
    let r = ok(desk.cmd().arg("show"));
    assert!(r.stdout.contains("secrets   DATABASE_URL") && r.stdout.contains("    npm ci"), "{}", r.stdout);

    let r = run(desk.cmd().args(["delete", "site"]));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--yes"), "{}", r.stderr);
    ok(desk.cmd().args(["delete", "site", "--yes"]));
    let r = run(desk.cmd().args(["--json", "show", "site"]));
    assert_eq!(r.code, 3, "gone, secrets and all: {}", r.stderr);
    assert!(r.stderr.contains("no environment named site") && r.stdout.is_empty(), "{}", r.stderr);
}

#[test]
fn secret_delete_and_missing_names() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    desk.write(&site("npm ci\n"));
    ok(desk.cmd().args(["save", "--yes"]));
    ok(desk.cmd().args(["secret", "set", "A", "--repo", "site"]).write_stdin("v"));
    let r = ok(desk.cmd().args(["secret", "delete", "A", "--repo", "site"]));
    assert!(r.stderr.contains("Deleted A on site"), "{}", r.stderr);
    let r = run(desk.cmd().args(["secret", "delete", "A", "--repo", "site"]));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("could not delete A on site") && r.stderr.contains("404"), "{}", r.stderr);
    assert!(r.stderr.contains("hint: `hanzo-env secret list --repo site`"), "{}", r.stderr);
    let r = ok(desk.cmd().args(["secret", "list", "--repo", "site"]));
    assert!(r.stdout.is_empty() && r.stderr.contains("no secrets set on site"), "{}", r.stderr);
}

#[test]
fn login_status_logout_with_the_opt_in_file_store() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    let store = desk.home.path().join(".config/hanzo-env/token");
    let with_store = |cmd: &mut Command| {
        cmd.env_remove("HANZO_API_KEY").env("HANZO_ENV_TOKEN_STORE", format!("file:{}", store.display()));
    };
    let mut cmd = desk.cmd();
    with_store(&mut cmd);
    let r = run(cmd.args(["login", "--with-token"]).write_stdin("wrong-token\n"));
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("not stored") && !store.exists(), "{}", r.stderr);

    let mut cmd = desk.cmd();
    with_store(&mut cmd);
    let r = ok(cmd.args(["login", "--with-token"]).write_stdin(format!("{}\n", serve.token)));
    assert!(r.stderr.contains("stored in the plaintext file"), "{}", r.stderr);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&store).unwrap().permissions().mode() & 0o777, 0o600);
    }

    let mut cmd = desk.cmd();
    with_store(&mut cmd);
    let r = ok(cmd.args(["auth", "status"]));
    assert!(r.stdout.contains(&serve.url) && r.stdout.contains("accepted  yes"), "{}", r.stdout);
    assert!(r.stdout.contains("token     the plaintext file"), "{}", r.stdout);
    assert!(!r.stdout.contains(&serve.token) && !r.stderr.contains(&serve.token), "the token is never shown");
    let mut cmd = desk.cmd();
    with_store(&mut cmd);
    let r = ok(cmd.args(["auth", "status", "--json"]));
    let status: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(status["tokenAccepted"], true);

    let mut cmd = desk.cmd();
    with_store(&mut cmd);
    ok(cmd.args(["list"]));
    let mut cmd = desk.cmd();
    with_store(&mut cmd);
    ok(cmd.arg("logout"));

    // The hidden prompt on a terminal: the token is not echoed.
    let mut session = desk.pty_with(&["login"], &[("HANZO_ENV_TOKEN_STORE", &format!("file:{}", store.display()))]);
    session.expect("API token for").unwrap();
    let screen = answer_prompt(&mut session, &serve.token, "stored in the plaintext file");
    assert!(!screen.contains(&serve.token), "the token was echoed: {screen}");
    let mut cmd = desk.cmd();
    with_store(&mut cmd);
    ok(cmd.arg("list"));
    let mut cmd = desk.cmd();
    with_store(&mut cmd);
    ok(cmd.arg("logout"));
    let mut cmd = desk.cmd();
    with_store(&mut cmd);
    let r = run(cmd.arg("list"));
    assert_eq!(r.code, 4, "{}", r.stderr);
    // A token the server refuses is exit 4 with "sign in again".
    let r = run(desk.cmd().env("HANZO_API_KEY", "revoked").arg("list"));
    assert_eq!(r.code, 4);
    assert!(r.stderr.contains("sign in again"), "{}", r.stderr);
}

#[test]
fn import_of_a_hundred_names() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    let mut text = String::from("# generated\n");
    for i in 0..100 {
        text.push_str(&format!("export NAME_{i:03}=\"value {i}\\nline two\"\n"));
    }
    let file = desk.home.path().join("bulk.env");
    std::fs::write(&file, &text).unwrap();
    let started = Instant::now();
    let r = ok(desk.cmd().args(["secret", "import", "--repo", "site", "--create", "-f"]).arg(&file));
    let took = started.elapsed();
    assert!(r.stderr.contains("Imported 100 secrets on site"), "{}", r.stderr);
    let r = ok(desk.cmd().args(["secret", "list", "--json", "--repo", "site"]));
    let names: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(names["secrets"].as_array().unwrap().len(), 100);
    eprintln!("import of 100 names took {took:?}");
}

#[test]
fn secret_values_never_leak_through_any_path() {
    let serve = Serve::start();
    let desk = Desk::new(&serve);
    desk.write(&site("npm ci\n"));
    ok(desk.cmd().args(["save", "--yes"]));
    let marker = |path: &str| format!("M4RK-{path}-{}-9c1e", std::process::id());
    let mut outputs: Vec<String> = Vec::new();
    let mut record = |r: Run| outputs.push(format!("{}{}", r.stdout, r.stderr));

    // stdin, at every verbosity.
    for (name, flags) in [("VIA_STDIN", vec![]), ("VIA_STDIN_V", vec!["-vvv"])] {
        let mut cmd = desk.cmd();
        cmd.args(&flags).args(["secret", "set", name, "--repo", "site"]).write_stdin(format!("{}\n", marker(name)));
        record(ok(&mut cmd));
    }
    // --from-file, and --from-file - (a file outside HOME).
    let outside = tempfile::tempdir().unwrap();
    let value_file = outside.path().join("value.pem");
    std::fs::write(&value_file, marker("VIA_FILE")).unwrap();
    record(ok(desk
        .cmd()
        .args(["-vvv", "secret", "set", "VIA_FILE", "--repo", "site", "--from-file"])
        .arg(&value_file)));
    record(ok(desk
        .cmd()
        .args(["secret", "set", "VIA_DASH", "--repo", "site", "--from-file", "-"])
        .write_stdin(marker("VIA_DASH"))));
    // import, from a file and from stdin.
    let env_file = outside.path().join("prod.env");
    std::fs::write(&env_file, format!("VIA_IMPORT='{}'\n", marker("VIA_IMPORT"))).unwrap();
    record(ok(desk.cmd().args(["-vvv", "secret", "import", "--repo", "site", "-f"]).arg(&env_file)));
    record(ok(desk
        .cmd()
        .args(["secret", "import", "--repo", "site", "-f", "-"])
        .write_stdin(format!("export VIA_IMPORT_STDIN=\"{}\"\n", marker("VIA_IMPORT_STDIN")))));

    // While `secret set` holds the value and waits for EOF, no process's argv carries it.
    let mut child = common::process(desk.home.path())
        .env("HANZO_BASE_URL", &desk.url)
        .env("HANZO_API_KEY", &desk.token)
        .current_dir(desk.checkout())
        .args(["-vvv", "secret", "set", "VIA_WAIT", "--repo", "site"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(marker("VIA_WAIT").as_bytes()).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "secret set must wait for EOF");
    let mut scanned = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            scanned += 1;
            assert!(!contains(&cmdline, &marker("VIA_WAIT")), "value in {}/cmdline", entry.path().display());
        }
    }
    assert!(scanned > 3, "scanned /proc");
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    outputs.push(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));

    // A hidden prompt on a pseudo-terminal: what is typed is not echoed.
    let mut session = desk.pty(&["-vvv", "secret", "set", "VIA_PROMPT", "--repo", "site"]);
    session.expect("Value for VIA_PROMPT").unwrap();
    let screen = answer_prompt(&mut session, &marker("VIA_PROMPT"), "Set VIA_PROMPT (");
    outputs.push(screen);

    let names = [
        "VIA_STDIN",
        "VIA_STDIN_V",
        "VIA_FILE",
        "VIA_DASH",
        "VIA_IMPORT",
        "VIA_IMPORT_STDIN",
        "VIA_WAIT",
        "VIA_PROMPT",
    ];
    let r = ok(desk.cmd().args(["-vvv", "secret", "list", "--json", "--repo", "site"]));
    outputs.push(format!("{}{}", r.stdout, r.stderr));
    let listed: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    for name in names {
        assert!(listed["secrets"].as_array().unwrap().iter().any(|n| n == name), "{name} not listed: {listed}");
    }
    for command in
        [vec!["-vvv", "show", "site"], vec!["-vvv", "list", "--json"], vec!["-vvv", "--json", "show", "site"]]
    {
        let r = ok(desk.cmd().args(&command));
        outputs.push(format!("{}{}", r.stdout, r.stderr));
    }

    for name in names {
        let value = marker(name);
        for output in &outputs {
            assert!(!output.contains(&value), "{name}'s value printed: {output}");
        }
        for (path, bytes) in files_under(desk.home.path()).into_iter().chain(serve.traces()) {
            assert!(!contains(&bytes, &value), "{name}'s value in {}", path.display());
        }
    }
}
