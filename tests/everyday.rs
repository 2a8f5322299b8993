//! The everyday loop as a user meets it, through the binary against a real `hanzo-env serve`
//! on a free loopback port: no write ever lands on a repo by accident, every command that
//! changes something answers `--json`, prompts say what they do, output stays quiet, and the
//! review opens with a summary (paged on a terminal). Each check reads the exit code, stdout
//! (JSON where asked) and stderr.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use common::{Run, Serve, run};
use expectrl::Expect;
use serde_json::{Value, json};

mod common;

/// A user's machine: a temporary HOME with a folder `name` in it, maybe a checkout.
struct Desk {
    home: tempfile::TempDir,
    folder: PathBuf,
    url: String,
    token: String,
}

impl Desk {
    fn new(serve: &Serve, name: &str) -> Desk {
        let home = tempfile::tempdir().unwrap();
        let folder = home.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        Desk { home, folder, url: serve.url.clone(), token: serve.token.clone() }
    }

    /// A checkout: `.hanzo/environment.toml` holding `text`.
    fn with_file(serve: &Serve, name: &str, text: &str) -> Desk {
        let desk = Desk::new(serve, name);
        desk.write(text);
        desk
    }

    fn file(&self) -> PathBuf {
        self.folder.join(".hanzo/environment.toml")
    }

    fn write(&self, text: &str) {
        std::fs::create_dir_all(self.folder.join(".hanzo")).unwrap();
        std::fs::write(self.file(), text).unwrap();
    }

    fn cmd(&self) -> Command {
        let mut cmd = common::hanzo_env(self.home.path(), &self.folder);
        cmd.env("HANZO_BASE_URL", &self.url).env("HANZO_API_KEY", &self.token);
        cmd
    }

    fn run(&self, args: &[&str]) -> Run {
        run(self.cmd().args(args))
    }

    fn run_with_stdin(&self, args: &[&str], stdin: &str) -> Run {
        run(self.cmd().args(args).write_stdin(stdin))
    }

    fn ok(&self, args: &[&str]) -> Run {
        let r = self.run(args);
        assert_eq!(r.code, 0, "{args:?}\nstdout: {}\nstderr: {}", r.stdout, r.stderr);
        r
    }

    fn json(&self, args: &[&str]) -> Value {
        let r = self.ok(args);
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", r.stdout))
    }

    /// The binary on a pseudo-terminal, with `env` on top of HOME, PATH, TERM and the API.
    fn pty(&self, args: &[&str], env: &[(&str, &str)]) -> expectrl::session::OsSession {
        let mut cmd = common::process(self.home.path());
        cmd.env("TERM", "xterm")
            .env("NO_COLOR", "1")
            .env("HANZO_BASE_URL", &self.url)
            .env("HANZO_API_KEY", &self.token)
            .envs(env.iter().copied())
            .current_dir(&self.folder)
            .args(args);
        let mut session = expectrl::Session::spawn(cmd).unwrap();
        session.set_expect_timeout(Some(Duration::from_secs(30)));
        session
    }
}

const SITE: &str = "repo = \"site\"\ninstall = \"npm ci\\n\"\nstart = \"npm run dev\"\nsecrets = [\"DATABASE_URL\"]\n";

/// The org's repo names, as `list --json` gives them.
fn repos(desk: &Desk) -> Vec<String> {
    let list = desk.json(&["list", "--json"]);
    list.as_array().unwrap().iter().map(|e| e["repo"].as_str().unwrap().to_string()).collect()
}

fn refused(r: &Run, code: i32, needles: &[&str]) {
    assert_eq!(r.code, code, "stdout: {}\nstderr: {}", r.stdout, r.stderr);
    for needle in needles {
        assert!(r.stderr.contains(needle), "{needle:?} not in:\n{}", r.stderr);
    }
}

#[test]
fn a_write_never_lands_on_a_repo_by_accident() {
    let serve = Serve::start();
    // `cd ~/Downloads; echo x | hanzo-env secret set FOO`: no file, no git remote.
    let downloads = Desk::new(&serve, "Downloads");
    let r = downloads.run_with_stdin(&["secret", "set", "FOO"], "x\n");
    refused(&r, 2, &["a folder's name (`Downloads`) is never used for a write", "hint: pass --repo NAME"]);
    let r = downloads.run_with_stdin(&["secret", "import", "-f", "-"], "FOO=x\n");
    refused(&r, 2, &["never used for a write"]);
    assert!(repos(&downloads).is_empty(), "nothing was created");

    // A typo'd --repo, and a repo nothing was saved for: refused, nothing sent.
    let r = downloads.run_with_stdin(&["secret", "set", "FOO", "--repo", "typo-repo"], "x\n");
    refused(&r, 3, &["no environment named typo-repo in this org", "hint: save its environment first", "--create"]);
    let site = Desk::with_file(&serve, "site", SITE);
    site.ok(&["save", "--yes"]);
    let r = downloads.run_with_stdin(&["secret", "set", "FOO", "--repo", "sitte"], "x\n");
    refused(&r, 3, &["no environment named sitte in this org; did you mean site?"]);
    let r = downloads.run_with_stdin(&["secret", "import", "--repo", "sitte", "-f", "-"], "FOO=x\nBAR=y\n");
    refused(&r, 3, &["no environment named sitte"]);
    assert_eq!(repos(&downloads), ["site"]);
    assert!(site.json(&["secret", "list", "--json"])["secrets"].as_array().unwrap().is_empty());

    // --create says the write may start a repo; -v says where the name came from.
    let r = downloads.run_with_stdin(&["-v", "secret", "set", "FOO", "--repo", "fresh", "--create"], "x\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("repo fresh (from --repo)"), "{}", r.stderr);
    assert_eq!(repos(&downloads), ["fresh", "site"]);
    let r = site.run_with_stdin(&["-v", "secret", "set", "DATABASE_URL"], "postgres://x\n");
    assert!(r.code == 0 && r.stderr.contains("repo site (from the file's `repo`)"), "{}", r.stderr);
    // The git remote names the repo when the file does not.
    let clone = Desk::new(&serve, "checkout-folder");
    std::fs::create_dir_all(clone.folder.join(".git")).unwrap();
    std::fs::write(clone.folder.join(".git/config"), "[remote \"origin\"]\n\turl = git@github.com:acme/site.git\n")
        .unwrap();
    let r = clone.run_with_stdin(&["-v", "secret", "set", "API_KEY"], "k\n");
    assert!(r.code == 0 && r.stderr.contains("repo site (from the git remote)"), "{}", r.stderr);
    // detect writes the folder's name into the file only with a warning: save trusts the file.
    let r = downloads.ok(&["detect"]);
    assert!(r.stderr.contains("repo = \"Downloads\" in .hanzo/environment.toml is this folder's name"), "{}", r.stderr);
    std::fs::remove_dir_all(downloads.folder.join(".hanzo")).unwrap();
    // A save without a repo name refuses too.
    let nameless = Desk::with_file(&serve, "scratch", "install = \"make\"\n");
    refused(&nameless.run(&["save", "--yes"]), 2, &["never used for a write", "hint: pass --repo NAME"]);
    assert_eq!(repos(&downloads), ["fresh", "site"]);
}

#[test]
fn a_repo_the_org_does_not_have_is_exit_3_with_the_closest_names() {
    let serve = Serve::start();
    let site = Desk::with_file(&serve, "site", SITE);
    site.ok(&["save", "--yes"]);
    let elsewhere = Desk::new(&serve, "elsewhere");
    for args in [
        vec!["show", "nosuchrepo"],
        vec!["delete", "nosuchrepo", "--yes"],
        vec!["secret", "list", "--repo", "does-not-exist"],
        vec!["secret", "delete", "NOPE", "--repo", "nope"],
    ] {
        let r = elsewhere.run(&args);
        refused(&r, 3, &["no environment named", "hint: `hanzo-env list` shows the org's environments"]);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
    }
    refused(&elsewhere.run(&["show", "Site"]), 3, &["no environment named Site in this org; did you mean site?"]);
    refused(&elsewhere.run(&["secret", "list", "--repo", "stie"]), 3, &["did you mean site?"]);
    // A folder's name is a fine guess for a read: it only finds nothing.
    refused(&elsewhere.run(&["show"]), 3, &["no environment named elsewhere"]);
    // A name that is not set on a repo that exists is told apart from a repo that does not.
    assert_eq!(site.run_with_stdin(&["secret", "set", "DATABASE_URL"], "x").code, 0);
    let r = site.run(&["secret", "delete", "DATABASE_UR"]);
    refused(&r, 3, &["could not delete DATABASE_UR on site", "did you mean DATABASE_URL?"]);
    // Idempotent only when asked.
    let r = elsewhere.ok(&["delete", "nosuchrepo", "--yes", "--if-exists", "--json"]);
    assert_eq!(
        serde_json::from_str::<Value>(&r.stdout).unwrap(),
        json!({"repo": "nosuchrepo", "deleted": false, "secrets": []})
    );
    assert!(r.stderr.contains("nothing to delete"), "{}", r.stderr);
    site.ok(&["show"]);
    assert_eq!(repos(&site), ["site"]);
}

#[test]
fn every_command_that_changes_something_answers_json() {
    let serve = Serve::start();
    let site = Desk::with_file(&serve, "site", SITE);
    let value = "postgres://MARK-json-4417";

    let saved = site.json(&["save", "--yes", "--json"]);
    assert_eq!(saved["repo"], "site");
    assert_eq!(saved["saved"], true);
    assert_eq!(saved["changed"], json!(["install", "start"]));
    assert!(saved["updatedAt"].as_str().is_some_and(|t| t.starts_with("20")), "{saved}");
    assert_eq!(saved["summary"]["install"]["added"], 1);
    let again = site.json(&["save", "--yes", "--json"]);
    assert_eq!((again["saved"].clone(), again["changed"].clone()), (json!(false), json!([])));
    assert_eq!(again["updatedAt"], saved["updatedAt"]);

    let r = site.run_with_stdin(&["secret", "set", "DATABASE_URL", "--json"], value);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let set: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(set["name"], "DATABASE_URL");
    assert_eq!(set["bytes"], value.len());
    assert_eq!(set["replaced"], false);
    assert_eq!(set["secrets"], json!(["DATABASE_URL"]));
    let r = site.run_with_stdin(&["secret", "set", "DATABASE_URL", "--json"], value);
    assert_eq!(serde_json::from_str::<Value>(&r.stdout).unwrap()["replaced"], true);
    assert!(r.stderr.contains("replacing its earlier value"), "{}", r.stderr);

    let r = site.run_with_stdin(
        &["secret", "import", "-f", "-", "--json"],
        &format!("DATABASE_URL={value}\nREDIS_URL=redis://x\n"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let imported: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(imported["set"], json!(["DATABASE_URL", "REDIS_URL"]));
    assert_eq!(imported["replaced"], json!(["DATABASE_URL"]));
    assert_eq!(imported["secrets"], json!(["DATABASE_URL", "REDIS_URL"]));

    let deleted = site.json(&["secret", "delete", "REDIS_URL", "--json"]);
    assert_eq!((deleted["deleted"].clone(), deleted["secrets"].clone()), (json!("REDIS_URL"), json!(["DATABASE_URL"])));

    site.write(&SITE.replace("npm ci", "pnpm i"));
    let pulled = site.json(&["pull", "--yes", "--json"]);
    assert_eq!(pulled, json!({"repo": "site", "path": ".hanzo/environment.toml", "from": "saved", "written": true}));
    let pulled = site.json(&["pull", "--yes", "--json"]);
    assert_eq!(pulled["written"], false);

    let gone = site.json(&["delete", "site", "--yes", "--json"]);
    assert_eq!(gone, json!({"repo": "site", "deleted": true, "secrets": ["DATABASE_URL"]}));

    // Where JSON has no meaning, --json is refused rather than ignored.
    refused(&site.run(&["--json", "run", "true"]), 2, &["`run` prints no JSON", "hint: leave out --json"]);
    refused(&site.run(&["--json", "completions", "bash"]), 2, &["`completions` prints no JSON"]);

    let traces = common_traces(&site, &serve);
    assert!(!traces.iter().any(|t| t.contains(value)), "the value was printed or stored in the clear");
}

/// Everything the desk's HOME and the server's folder hold, as text.
fn common_traces(desk: &Desk, serve: &Serve) -> Vec<String> {
    let mut out = Vec::new();
    for root in [desk.home.path(), serve.dir.path()] {
        collect(root, &mut out);
    }
    out
}

fn collect(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if let Ok(bytes) = std::fs::read(&path) {
            out.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
}

#[test]
fn an_empty_enter_at_the_hidden_prompt_says_so_and_asks_again() {
    let serve = Serve::start();
    let site = Desk::with_file(&serve, "site", SITE);
    site.ok(&["save", "--yes"]);
    let mut session = site.pty(&["secret", "set", "DATABASE_URL"], &[]);
    session.expect("Value for DATABASE_URL").unwrap();
    // An Enter typed before the prompt took the terminal can be dropped: type it again.
    session.set_expect_timeout(Some(Duration::from_secs(2)));
    let mut said = false;
    for _ in 0..10 {
        session.send_line("").unwrap();
        if session.expect("nothing was typed").is_ok() {
            said = true;
            break;
        }
    }
    assert!(said, "an empty Enter went by without a word");
    let mut set = false;
    for _ in 0..10 {
        session.send_line("postgres://typed").unwrap();
        if session.expect("Set DATABASE_URL (16 bytes) on site").is_ok() {
            set = true;
            break;
        }
    }
    assert!(set, "the value typed after the empty Enter was not taken");
    assert_eq!(site.json(&["secret", "list", "--json"])["secrets"], json!(["DATABASE_URL"]));
}

#[test]
fn run_takes_a_command_without_double_dash_and_help_says_what_it_injects() {
    let home = tempfile::tempdir().unwrap();
    let checkout = home.path().join("site");
    std::fs::create_dir_all(checkout.join(".hanzo")).unwrap();
    std::fs::write(checkout.join(".hanzo/environment.toml"), "[env]\nGREETING = \"hi\"\n").unwrap();
    let r = run(common::hanzo_env(home.path(), &checkout).args(["run", "sh", "-c", "echo $GREETING"]));
    assert_eq!((r.code, r.stdout.as_str()), (0, "hi\n"), "{}", r.stderr);
    let r = run(common::hanzo_env(home.path(), &checkout).args(["run", "--", "sh", "-c", "echo $GREETING"]));
    assert_eq!((r.code, r.stdout.as_str()), (0, "hi\n"), "{}", r.stderr);

    let help = run(common::hanzo_env(home.path(), &checkout).args(["run", "--help"])).stdout;
    assert!(help.contains("secrets saved with `secret set` are never injected"), "{help}");
    assert!(help.contains("resolved [env] entries"), "{help}");
    // Global flags are grouped apart from the command's own.
    let own = help.find("--pass").unwrap();
    let api = help.find("API options (commands that talk to the server):").expect("API heading");
    let global = help.find("Global options:").expect("global heading");
    assert!(own < api && api < help.find("--api-url").unwrap() && global < help.find("--json").unwrap(), "{help}");

    // verify takes the checkout like detect and export do.
    let help = run(common::hanzo_env(home.path(), &checkout).args(["verify", "--help"])).stdout;
    assert!(help.contains("[PATH]"), "{help}");
    std::fs::write(checkout.join(".hanzo/environment.toml"), "install = \"true\"\n").unwrap();
    let r = run(common::hanzo_env(home.path(), home.path()).args(["verify", "--json", "--test", "true", "site"]));
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(report["ok"], true, "{report:#}");
}

#[test]
fn quiet_by_default_with_counts_that_agree_with_their_nouns() {
    let serve = Serve::start();
    let file = "repo = \"site\"\ninstall = \"npm ci\\n\"\nsecrets = [\n  \"DATABASE_URL\",\n  # optional:\n  \"SENTRY_DSN\",\n]\n";
    let site = Desk::with_file(&serve, "site", file);
    let r = site.ok(&["save", "--yes"]);
    assert!(r.stderr.contains("required secrets not set on site: DATABASE_URL"), "{}", r.stderr);
    assert!(!r.stderr.contains("optional secrets"), "the optional reminder only with -v: {}", r.stderr);
    site.write(&file.replace("npm ci", "pnpm i"));
    let r = site.ok(&["-v", "save", "--yes"]);
    assert!(r.stderr.contains("optional secrets not set on site: SENTRY_DSN"), "{}", r.stderr);
    let r = site.ok(&["diff"]);
    assert!(r.stderr.contains("optional secrets not set on site: SENTRY_DSN"), "diff's own section: {}", r.stderr);

    let r = site.run_with_stdin(&["secret", "set", "DATABASE_URL"], "x");
    assert!(r.code == 0 && r.stderr.contains("Set DATABASE_URL (1 byte) on site"), "{}", r.stderr);
    let r = site.run_with_stdin(&["secret", "import", "-f", "-"], "DATABASE_URL=y\n");
    assert!(r.code == 0 && r.stderr.contains("Imported 1 secret on site"), "{}", r.stderr);
    assert!(r.stderr.contains("replaced the earlier values of DATABASE_URL"), "{}", r.stderr);
    let r = site.run_with_stdin(&["secret", "import", "-f", "-"], "NEW_ONE=y\nNEW_TWO=z\n");
    assert!(r.stderr.contains("Imported 2 secrets on site") && !r.stderr.contains("replaced"), "{}", r.stderr);

    // detect in a folder with nothing to detect: exit 0 and one warning.
    let empty = Desk::new(&serve, "empty");
    let r = empty.ok(&["detect", "--stdout"]);
    assert_eq!(r.stderr.matches("warning:").count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("found nothing to detect in"), "{}", r.stderr);
}

#[test]
fn save_and_diff_open_with_a_summary() {
    let serve = Serve::start();
    let site = Desk::with_file(&serve, "site", SITE);
    site.ok(&["save", "--yes"]);
    assert_eq!(site.run_with_stdin(&["secret", "set", "OLD_TOKEN"], "x").code, 0);
    site.write(
        "repo = \"site\"\ninstall = \"\"\"\n# plan\nnpm ci\nnpm run build\n\"\"\"\n\
         start = \"hanzo_services postgres:5432 redis:6379  # compose.yaml\"\nsecrets = [\"DATABASE_URL\"]\n",
    );
    let r = site.run(&["diff", "--exit-code"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let paragraph = "install: 1 step added (2 steps); start: 1 step changed (1 step); services: postgres, redis \
                     (postgres, redis added); secrets: 1 declared here but not set on site (DATABASE_URL), 1 set on \
                     site but not declared here (OLD_TOKEN).";
    assert!(r.stderr.starts_with(paragraph), "{}", r.stderr);
    assert!(r.stdout.starts_with("--- saved/install\n"), "stdout stays a patch: {}", r.stdout);
    let json = site.json(&["diff", "--json"]);
    assert_eq!(json["summary"]["start"], json!({"added": 0, "removed": 0, "changed": 1, "steps": 1}));
    assert_eq!(json["summary"]["secretsRemoved"], json!(["OLD_TOKEN"]));
    let r = site.ok(&["save", "--yes"]);
    assert!(r.stderr.starts_with(paragraph), "the review opens with it: {}", r.stderr);
}

#[test]
fn a_long_review_goes_through_the_pager_on_a_terminal() {
    let serve = Serve::start();
    let site = Desk::with_file(&serve, "site", SITE);
    site.ok(&["save", "--yes"]);
    let install: String = (0..150).map(|i| format!("echo step {i}\n")).collect();
    site.write(&format!("repo = \"site\"\ninstall = \"\"\"\n{install}\"\"\"\nstart = \"npm run dev\"\n"));
    let pager = "sed 's/^/paged: /'";
    let mut session = site.pty(&["diff"], &[("PAGER", pager)]);
    session.expect("paged: install: 149 steps added, 1 changed (150 steps)").unwrap();
    session.expect("paged: +echo step 149").unwrap();
    session.expect(expectrl::Eof).unwrap();
    // save pages its review too, then asks.
    let mut session = site.pty(&["save"], &[("PAGER", pager)]);
    session.expect("paged: install: 149 steps added").unwrap();
    session.expect("Save install and start for site?").unwrap();
    session.send(expectrl::ControlCode::EndOfText).unwrap();
    session.expect(expectrl::Eof).unwrap();
    // With --yes no question follows: nothing to page through, the review is logged.
    let mut session = site.pty(&["save", "--yes"], &[("PAGER", pager)]);
    let found = session.expect("Saved install and start for site").unwrap();
    let before = String::from_utf8_lossy(found.before()).into_owned();
    assert!(before.contains("+echo step 149") && !before.contains("paged:"), "{before}");
    site.write(&format!("repo = \"site\"\ninstall = \"\"\"\n{install}echo more\n\"\"\"\nstart = \"npm run dev\"\n"));
    // Without a terminal nothing is paged: the diff is plain on stdout.
    let r = site.run(&["diff"]);
    assert!(r.stdout.starts_with("--- saved/install") && !r.stdout.contains("paged:"), "{}", r.stdout);
}

#[test]
fn pull_keeps_the_reviewed_file_and_invents_no_required_names() {
    let serve = Serve::start();
    let reviewed = "# Drafted by hanzo-env detect: review it, then `hanzo-env save`.\n\
                    repo = \"site\"  # the git remote's name\n\
                    install = \"\"\"\nnpm ci  # package-lock.json\n\"\"\"\n\
                    start = \"npm run dev\"  # package.json#scripts.dev\n\
                    secrets = [\n  \"DATABASE_URL\",  # .env.example:3\n]\n\
                    note = \"Node 20\"\n\n[env]\nNODE_ENV = \"test\"\n";
    let site = Desk::with_file(&serve, "site", reviewed);
    site.ok(&["save", "--yes"]);
    // Someone else adds a step and sets a secret the file does not declare.
    let other = Desk::with_file(
        &serve,
        "other",
        &reviewed.replace("npm ci  # package-lock.json\n", "npm ci  # package-lock.json\nnpm run build\n"),
    );
    other.ok(&["save", "--yes"]);
    assert_eq!(other.run_with_stdin(&["secret", "set", "SENTRY_DSN"], "https://x").code, 0);
    let r = site.ok(&["pull", "--yes"]);
    assert!(r.stderr.contains("+npm run build"), "{}", r.stderr);
    let text = std::fs::read_to_string(site.file()).unwrap();
    let expected = reviewed
        .replace("npm ci  # package-lock.json\n", "npm ci  # package-lock.json\nnpm run build\n")
        .replace(
            "  \"DATABASE_URL\",  # .env.example:3\n]",
            "  \"DATABASE_URL\",  # .env.example:3\n  # optional: set on the server, not declared in this file\n  \"SENTRY_DSN\",\n]",
        );
    assert_eq!(text, expected);
    let names = site.json(&["secret", "list", "--json"]);
    assert_eq!(names["requiredMissing"], json!(["DATABASE_URL"]), "SENTRY_DSN is not made required");
    site.ok(&["diff", "--exit-code"]);
}

#[test]
fn verify_names_the_variables_it_did_not_pass_only_when_they_can_explain_the_failure() {
    let home = tempfile::tempdir().unwrap();
    let checkout = home.path().join("site");
    std::fs::create_dir_all(checkout.join(".hanzo")).unwrap();
    let verify = |install: &str| {
        std::fs::write(checkout.join(".hanzo/environment.toml"), format!("install = {install:?}\n")).unwrap();
        run(common::hanzo_env(home.path(), &checkout)
            .env("HTTPS_PROXY", "http://proxy.internal:3128")
            .args(["verify", "--test", "true"]))
    };
    let r = verify("echo 'expected 2, got 3' >&2; exit 1");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(!r.stderr.contains("HTTPS_PROXY"), "a plain failure says nothing of proxies: {}", r.stderr);
    let r = verify("echo 'curl: (6) Could not resolve host: registry.example' >&2; exit 6");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("not passed to the steps: HTTPS_PROXY;"), "{}", r.stderr);
    // A command not found: the toolchain variables verify does not pass unasked (NVM_DIR, a
    // location, is passed), not proxies.
    std::fs::write(checkout.join(".hanzo/environment.toml"), "install = \"true\"\n").unwrap();
    let r = run(common::hanzo_env(home.path(), &checkout)
        .env("HTTPS_PROXY", "http://proxy.internal:3128")
        .env("NVM_DIR", "/opt/nvm")
        .env("RUSTUP_TOOLCHAIN", "nightly")
        .args(["verify", "--test", "no-such-runner-5521"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("not passed to the steps: RUSTUP_TOOLCHAIN;"), "{}", r.stderr);
}

#[test]
fn a_failure_excerpt_keeps_the_network_error_a_stack_trace_pushed_out() {
    let home = tempfile::tempdir().unwrap();
    let checkout = home.path().join("site");
    std::fs::create_dir_all(checkout.join(".hanzo")).unwrap();
    let install = "echo 'java.net.UnknownHostException: repo.maven.example: Unknown host' >&2; \
                   for i in $(seq 40); do echo \"    at org.example.Frame$i.call(Frame.java:$i)\" >&2; done; exit 1";
    std::fs::write(checkout.join(".hanzo/environment.toml"), format!("install = {install:?}\n")).unwrap();
    let r = run(common::hanzo_env(home.path(), &checkout).args(["verify", "--json", "--test", "true"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    let tail: Vec<&str> = report["steps"][0]["tail"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(tail[0].contains("Unknown host") && tail[1] == "…", "{tail:#?}");
    assert!(tail.last().unwrap().contains("Frame40"), "{tail:#?}");
}

#[test]
fn the_summary_counts_a_helpers_block_as_its_one_line() {
    let serve = Serve::start();
    let desk = Desk::new(&serve, "shop");
    common::copy_tree(&common::fixture("detect/compose-postgres-redis"), &desk.folder);
    desk.ok(&["detect"]);
    let drafted = std::fs::read_to_string(desk.file()).unwrap();
    assert!(drafted.contains("# hanzo-env helpers v1:"), "{drafted}");
    desk.ok(&["save", "--yes"]);
    desk.write(&drafted.replace("set -euo pipefail\n", "set -euo pipefail\nmake seed\n"));
    let r = desk.run(&["diff", "--exit-code"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("install: 1 step added (3 steps); start: unchanged (")
            && r.stderr.contains("services: postgres, redis;"),
        "{}",
        r.stderr
    );
}
