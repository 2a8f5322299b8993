//! Hostile checkouts and hostile servers (issue 12): every attack runs the built binary under
//! an address-space cap (`ulimit -v`) and a timeout, so unbounded memory fails the test as an
//! abort and a hang as a kill; leaks are looked for by a marker in every output, file and
//! process. One test (or more) per item of the issue, named after it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::raw_server::{RawServer, Seen, http};
use common::{Run, Serve, dead_url, run, write};
use serde_json::Value;

mod common;

/// The address space every run gets: far above what the tool needs, far below what any of
/// the attacks took (gigabytes).
const CAP_KIB: u64 = 1 << 20;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_hanzo-env")
}

/// The binary under the address-space cap and a timeout, with a cleared environment, a
/// temporary HOME and `dir` as the working directory.
fn capped(home: &Path, dir: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new("sh");
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .current_dir(dir)
        .arg("-c")
        .arg(format!("ulimit -v {CAP_KIB} && exec \"$0\" \"$@\""))
        .arg(bin())
        .args(args)
        .timeout(Duration::from_secs(90));
    cmd
}

/// [`run`], also timed.
fn timed(cmd: &mut assert_cmd::Command) -> (Run, Duration) {
    let started = Instant::now();
    let r = run(cmd);
    (r, started.elapsed())
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

fn symlink(target: &str, path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(target, path).unwrap();
}

fn warnings(r: &Run) -> Vec<String> {
    let json: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", r.stdout, r.stderr));
    json["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect()
}

/// The issue's reproducer: nine anchors, each nine aliases of the one before.
fn alias_bomb() -> String {
    let mut text = String::from("a0: &a0 [x,x,x,x,x,x,x,x,x]\n");
    for i in 1..=7 {
        text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![format!("*a{}", i - 1); 9].join(",")));
    }
    text + "services:\n  db:\n    image: postgres\n"
}

// --- 1. YAML alias bombs --------------------------------------------------------------------

#[test]
fn yaml_alias_bombs_in_every_yaml_file_detect_reads_are_refused_within_bounds() {
    let workflow_using_action =
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./.github/actions/setup\n";
    let deep = "services:\n  db:\n    image: postgres\nx:\n".to_string() + &"- ".repeat(100_000) + "v\n";
    for (rel, text, extra) in [
        ("docker-compose.yml", alias_bomb(), vec![]),
        ("compose.yaml", deep.clone(), vec![]),
        ("docker-compose.test.yml", alias_bomb(), vec![]),
        (".github/workflows/ci.yml", alias_bomb(), vec![]),
        (".github/actions/setup/action.yml", alias_bomb(), vec![(".github/workflows/ci.yml", workflow_using_action)]),
        (".gitlab-ci.yml", alias_bomb(), vec![]),
        (".circleci/config.yml", deep.clone(), vec![]),
        (".circleci/config.yml", alias_bomb(), vec![]),
        ("pnpm-workspace.yaml", alias_bomb(), vec![("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")]),
        ("Taskfile.yml", alias_bomb(), vec![]),
        ("pubspec.yaml", alias_bomb(), vec![]),
    ] {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "package.json", "{}");
        for (path, content) in extra {
            write(dir.path(), path, content);
        }
        write(dir.path(), rel, &text);
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{rel}: {}", r.stderr);
        let warnings = warnings(&r);
        assert!(
            warnings.iter().any(|w| w.starts_with(&format!("{rel}: not read: "))
                && (w.contains("expand to more than") || w.contains("nested deeper than"))),
            "{rel}: {warnings:?}"
        );
        assert!(took < Duration::from_secs(20), "{rel}: {took:?}");
    }
    // Spring settings are scanned for the variables they name: through the same loader.
    for rel in ["src/main/resources/application.yml", "bootstrap.yaml", "app/src/main/resources/shared/svc.yml"] {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "pom.xml", "<project><artifactId>app</artifactId></project>\n");
        write(dir.path(), rel, &format!("{}spring:\n  datasource:\n    password: ${{DB_PASSWORD}}\n", alias_bomb()));
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{rel}: {}", r.stderr);
        assert!(r.stdout.contains("DB_PASSWORD"), "{rel}: the placeholder is still read: {}", r.stdout);
        assert!(took < Duration::from_secs(20), "{rel}: {took:?}");
    }
}

// --- 2. Ignore files that are not regular files ---------------------------------------------

#[test]
fn ignore_files_that_are_not_regular_files_are_skipped_by_detect_and_verify() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "package.json", r#"{"scripts":{"test":"true"}}"#);
    write(root, ".hanzo/environment.toml", "install = \"true\"\n");
    write(root, "sub/b.js", "");
    write(root, "deep/er/c.js", "");
    write(root, "big/d.js", "");
    std::fs::create_dir_all(root.join(".git/info")).unwrap();
    symlink("/dev/zero", &root.join(".gitignore"));
    symlink("/dev/zero", &root.join(".git/info/exclude"));
    symlink("/dev/zero", &root.join("sub/.ignore"));
    symlink("/dev/urandom", &root.join("sub/.gitignore"));
    mkfifo(&root.join("deep/er/.gitignore"));
    mkfifo(&root.join("deep/.ignore"));
    write(root, "big/.gitignore", &"generated/\n".repeat(30_000));
    let expected = [
        (".gitignore", "character device"),
        (".git/info/exclude", "character device"),
        ("sub/.ignore", "character device"),
        ("sub/.gitignore", "character device"),
        ("deep/er/.gitignore", "FIFO"),
        ("deep/.ignore", "FIFO"),
        ("big/.gitignore", "byte limit"),
    ];
    let (r, took) = timed(&mut capped(home.path(), root, &["detect", "--json", "."]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(took < Duration::from_secs(20), "{took:?}");
    let warnings = warnings(&r);
    for (rel, why) in expected {
        assert!(
            warnings.iter().any(|w| w.starts_with(&format!("{rel}: ignore file not read (")) && w.contains(why)),
            "{rel}: {warnings:?}"
        );
    }
    // verify walks the checkout again, for its scratch copy.
    let (r, took) = timed(&mut capped(home.path(), root, &["verify", "--test", "test -f sub/b.js"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(took < Duration::from_secs(30), "{took:?}");
    for (rel, _) in expected {
        assert!(r.stderr.contains(&format!("warning: {rel}: ignore file not read")), "{rel}: {}", r.stderr);
    }
}

#[test]
fn a_global_excludes_file_that_is_not_a_regular_file_is_skipped_and_a_regular_one_applies() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "package.json", "{}");
    write(dir.path(), "src/a.js", "process.env.KEPT_API_TOKEN;");
    write(dir.path(), "vendored/b.js", "process.env.VENDORED_API_TOKEN;");
    // Global excludes apply inside a git repository.
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    // The default place ($HOME/.config/git/ignore), and core.excludesFile of ~/.gitconfig.
    type Make<'a> = &'a dyn Fn(&Path);
    let kinds: [(&str, Make); 4] = [
        ("a FIFO at the default place", &|home| mkfifo(&home.join(".config/git/ignore"))),
        ("a link to /dev/zero at the default place", &|home| symlink("/dev/zero", &home.join(".config/git/ignore"))),
        ("core.excludesFile naming /dev/zero", &|home| {
            write(home, ".gitconfig", "[core]\n\texcludesFile = /dev/zero\n")
        }),
        ("core.excludesFile naming a FIFO", &|home| {
            mkfifo(&home.join("global-ignore"));
            write(home, ".gitconfig", "[core]\n\texcludesFile = ~/global-ignore\n")
        }),
    ];
    for (kind, make) in kinds {
        let home = tempfile::tempdir().unwrap();
        make(home.path());
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{kind}: {}", r.stderr);
        assert!(took < Duration::from_secs(20), "{kind}: {took:?}");
        assert!(r.stdout.contains("KEPT_API_TOKEN") && r.stdout.contains("VENDORED_API_TOKEN"), "{kind}: {}", r.stdout);
    }
    // A regular one is the user's choice, and honoured.
    let home = tempfile::tempdir().unwrap();
    write(home.path(), ".config/git/ignore", "vendored/\n");
    let (r, _) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("KEPT_API_TOKEN") && !r.stdout.contains("VENDORED_API_TOKEN"), "{}", r.stdout);
}

// --- 3. The proposal file -------------------------------------------------------------------

#[test]
fn a_proposal_file_that_is_no_bounded_regular_file_in_the_checkout_is_refused_by_every_command() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "environment.toml", "install = \"make\"\n");
    type Make<'a> = &'a dyn Fn(&Path);
    let kinds: [(&str, Make, &str); 5] = [
        ("a link to /dev/zero", &|p| symlink("/dev/zero", p), "resolves to /dev/zero, outside the checkout"),
        ("a FIFO", &|p| mkfifo(p), "not a regular file but a FIFO"),
        (
            "a link to a FIFO in the checkout",
            &|p| {
                mkfifo(&p.with_file_name("queue"));
                symlink("queue", p)
            },
            "not a regular file but a FIFO",
        ),
        (
            "a link out of the checkout",
            &|p| symlink(outside.path().join("environment.toml").to_str().unwrap(), p),
            "outside the checkout",
        ),
        ("a huge file", &|p| std::fs::write(p, "#".repeat(2 << 20)).unwrap(), "over the 1048576 byte limit"),
    ];
    let env_out = tempfile::tempdir().unwrap();
    let env_file = env_out.path().join("run.env");
    let commands: [&[&str]; 12] = [
        &["run", "--", "true"],
        &["export", "--to", "cursor"],
        &["detect", "--check"],
        &["detect", "--check", "--against", "saved"],
        &["secret", "list"],
        &["env-file", "--out", env_file.to_str().unwrap()],
        &["verify", "--test", "true"],
        &["diff"],
        &["save", "--yes"],
        &["pull", "--yes"],
        &["show"],
        &["detect"],
    ];
    for (kind, make, why) in kinds {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::create_dir_all(dir.path().join(".hanzo")).unwrap();
        make(&dir.path().join(".hanzo/environment.toml"));
        for args in commands {
            let mut cmd = capped(home.path(), dir.path(), args);
            cmd.env("HANZO_BASE_URL", dead_url()).env("HANZO_API_KEY", "t").timeout(Duration::from_secs(30));
            let (r, took) = timed(&mut cmd);
            assert_eq!(r.code, 2, "{kind}, {args:?}: {}", r.stderr);
            assert!(r.stderr.contains("refusing to read") && r.stderr.contains(why), "{kind}, {args:?}: {}", r.stderr);
            assert!(r.stderr.contains("hint:"), "{kind}, {args:?}: {}", r.stderr);
            assert!(took < Duration::from_secs(20), "{kind}, {args:?}: {took:?}");
        }
        // detect --force replaces what stands there (never writing through a link).
        let (r, _) = timed(&mut capped(home.path(), dir.path(), &["detect", "--force"]));
        assert_eq!(r.code, 0, "{kind}: {}", r.stderr);
        let written = dir.path().join(".hanzo/environment.toml");
        assert!(std::fs::symlink_metadata(&written).unwrap().is_file(), "{kind}");
        assert_eq!(std::fs::read_to_string(outside.path().join("environment.toml")).unwrap(), "install = \"make\"\n");
    }
}

// --- 4. Response bodies ---------------------------------------------------------------------

/// A body that never ends: chunk after chunk until the client goes away.
fn endless_chunks(stream: &mut dyn Write, status: &str) {
    let head = format!("HTTP/1.1 {status}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n");
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let chunk = format!("10000\r\n{}\r\n", " ".repeat(0x10000));
    while stream.write_all(chunk.as_bytes()).is_ok() {}
}

/// A `Content-Length` of 2 GiB, then bytes for as long as the client reads.
fn huge_length(stream: &mut dyn Write, status: &str) {
    let head = format!("HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: 2147483648\r\n\r\n");
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let block = vec![b' '; 1 << 16];
    while stream.write_all(&block).is_ok() {}
}

/// One answer, then the connection closes, as a streaming server's do: said in the head so
/// that the client does not send its next request down a socket about to close (a reset).
fn answer_json(stream: &mut dyn Write, status: &str, body: &str) {
    let _ = stream.write_all(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
}

const SITE: &str =
    r#"{"repo":"site","install":"","start":"","secrets":["API_KEY"],"state":"ready","session":"","proposal":null}"#;

#[test]
fn response_bodies_are_read_to_a_cap_on_every_path() {
    type Answer = fn(&Seen, &mut dyn Write);
    let cases: [(&str, &[&str], Answer, &str); 9] = [
        ("list, endless chunked 200", &["list"], |_, s| endless_chunks(s, "200 OK"), "over the 8388608 byte limit"),
        (
            "show, 2 GiB Content-Length",
            &["show", "site"],
            |_, s| huge_length(s, "200 OK"),
            "announces 2147483648 bytes",
        ),
        (
            "secret set, endless answer to the PUT",
            &["secret", "set", "API_KEY"],
            |_, s| endless_chunks(s, "200 OK"),
            "over the 8388608 byte limit",
        ),
        (
            "secret delete, 2 GiB answer",
            &["secret", "delete", "API_KEY"],
            |_, s| huge_length(s, "200 OK"),
            "announces 2147483648 bytes",
        ),
        (
            "save, endless answer to the PUT",
            &["save", "--yes"],
            |seen, s| {
                if seen.head.starts_with("GET") { answer_json(s, "200 OK", SITE) } else { endless_chunks(s, "200 OK") }
            },
            "over the 8388608 byte limit",
        ),
        (
            "delete, endless 500",
            &["delete", "site", "--yes"],
            |_, s| endless_chunks(s, "500 Internal Server Error"),
            "(500)",
        ),
        ("list, 2 GiB 404", &["list"], |_, s| huge_length(s, "404 Not Found"), "not found (404): Not Found"),
        ("show, endless 403", &["show", "site"], |_, s| endless_chunks(s, "403 Forbidden"), "(403): Forbidden"),
        (
            "secret set, endless 400",
            &["secret", "set", "API_KEY"],
            |_, s| endless_chunks(s, "400 Bad Request"),
            "refused the request (400)",
        ),
    ];
    for (case, args, answer, expected) in cases {
        let server = RawServer::streaming(answer);
        let home = tempfile::tempdir().unwrap();
        write(home.path(), ".hanzo/environment.toml", "repo = \"site\"\ninstall = \"make\"\n");
        let mut cmd = capped(home.path(), home.path(), args);
        cmd.env("HANZO_BASE_URL", &server.url).env("HANZO_API_KEY", "t").write_stdin("value-1");
        let (r, took) = timed(&mut cmd);
        assert_eq!(r.code, 3, "{case}: {}", r.stderr);
        assert!(r.stderr.contains(expected), "{case}: {}", r.stderr);
        assert!(took < Duration::from_secs(20), "{case}: {took:?}");
        assert!(!server.requests().is_empty(), "{case}");
    }
}

// --- 5. Unbounded outputs -------------------------------------------------------------------

#[test]
fn two_hundred_files_of_generated_secret_reads_give_a_bounded_proposal_quickly() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "package.json", "{}");
    let mut n = 0;
    for file in 0..200 {
        let mut text = String::with_capacity(300 << 10);
        while text.len() < 280 << 10 {
            text.push_str(&format!("process.env.K{n}_TOKEN;"));
            n += 1;
        }
        write(dir.path(), &format!("src/gen{file:03}.js"), &text);
    }
    let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(took < Duration::from_secs(30), "{took:?}");
    assert!(r.stdout.len() < 256 << 10, "{} bytes of JSON", r.stdout.len());
    let json: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["secrets"].as_array().unwrap().len(), 500);
    let warnings = warnings(&r);
    assert!(warnings.iter().any(|w| w.contains("and 199 other files: more than 100 secret names")), "{warnings:?}");
    assert!(warnings.iter().any(|w| w.starts_with("20000 secret names found")), "{warnings:?}");
}

/// A checkout whose proposal only installs `true`.
fn verify_checkout(env: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".hanzo/environment.toml", &format!("install = \"true\"\n{env}"));
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    dir
}

#[test]
fn verify_keeps_and_shows_a_bounded_log_of_a_gigabyte_of_output() {
    for (case, test) in [
        ("one line of 1 GB", "head -c 1000000000 /dev/zero | tr '\\0' x; false"),
        ("1 GB of short lines", "yes 'a short line' | head -c 1000000000; false"),
    ] {
        let home = tempfile::tempdir().unwrap();
        let dir = verify_checkout("");
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["--json", "verify", "--test", test]));
        assert_eq!(r.code, 1, "{case}: {}", r.stderr);
        assert!(took < Duration::from_secs(60), "{case}: {took:?}");
        let report: Value = serde_json::from_str(&r.stdout).unwrap();
        let step = &report["steps"][1];
        assert_eq!(step["step"], "test");
        let tail: Vec<&str> = step["tail"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
        assert!(!tail.is_empty() && tail.iter().all(|l| l.chars().count() < 400), "{case}: {tail:?}");
        assert!(step["failed_line"].as_str().unwrap().starts_with("line 1: "), "{case}: {step}");
        let log = std::fs::metadata(step["log"].as_str().unwrap()).unwrap().len();
        assert!(log < 2 << 20, "{case}: a log of {log} bytes");
        let text = std::fs::read(step["log"].as_str().unwrap()).unwrap();
        assert!(String::from_utf8_lossy(&text).contains("bytes of output left out here"), "{case}");
        std::fs::remove_dir_all(report["scratch"].as_str().unwrap()).unwrap();
    }
}

// --- 6. serve under a crowd of stalled clients ----------------------------------------------

#[test]
fn serve_answers_with_hundreds_of_stalled_clients_open_under_a_small_descriptor_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("serve.out");
    let mut child = std::process::Command::new("sh")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir.path())
        .env("HANZO_ENV_SERVE_TOKENS", "tok")
        .env("HANZO_ENV_SERVE_KEY", "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=")
        .arg("-c")
        .arg(format!("ulimit -n 256 && ulimit -v {CAP_KIB} && exec \"$0\" \"$@\""))
        .arg(bin())
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(dir.path().join("data"))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(dir.path().join("serve.err")).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let address = loop {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        if let Some(at) = text.find("http://") {
            break text[at + 7..].split_whitespace().next().unwrap().to_string();
        }
        assert!(Instant::now() < deadline, "serve printed no URL");
        std::thread::sleep(Duration::from_millis(50));
    };
    // Idle ones, half-sent heads and stalled bodies: more than the server has descriptors.
    let stalled: Vec<TcpStream> = (0..400)
        .filter_map(|i| {
            let mut stream = TcpStream::connect(&address).ok()?;
            let _ = match i % 3 {
                0 => Ok(()),
                1 => stream.write_all(b"GET /v1/environment HTTP/1.1\r\nHost: x\r\n"),
                _ => stream.write_all(
                    b"PUT /v1/environment/site HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nContent-Length: 50\r\n\r\n{",
                ),
            };
            Some(stream)
        })
        .collect();
    assert!(stalled.len() > 300);
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let mut stream = TcpStream::connect(&address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    stream
        .write_all(b"GET /v1/environment HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    assert!(child.try_wait().unwrap().is_none(), "serve is still up");
    drop(stalled);
    let _ = child.kill();
    let _ = child.wait();
    let err = std::fs::read_to_string(dir.path().join("serve.err")).unwrap();
    assert!(!err.contains("panicked"), "{err}");
}

// --- 7. verify reaps what its steps leave running -------------------------------------------

/// The pids of processes whose command line or environment holds `marker`.
fn processes_holding(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        for part in ["cmdline", "environ"] {
            let bytes = std::fs::read(entry.path().join(part)).unwrap_or_default();
            if memchr_find(&bytes, marker.as_bytes()) {
                found.push(format!("{name} ({part})"));
            }
        }
    }
    found
}

fn memchr_find(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn verify_stops_every_process_its_steps_leave_running_and_names_it() {
    let tag = format!("{}", 3_000_000 + std::process::id());
    let token = format!("tok_LEAK_{tag}");
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    write(
        dir.path(),
        ".hanzo/environment.toml",
        &format!(
            "install = \"sleep {tag}.0 & setsid sleep {tag}.1 & sleep 0.3\"\nstart = \"setsid sleep {tag}.2 & sleep 600\"\n\
             [env]\nTOKEN = \"${{LEAK_TOKEN}}\"\n"
        ),
    );
    // A test that double-forks out of its session too.
    let test = format!("(setsid sh -c 'sleep {tag}.3 & sleep {tag}.4' &); true");
    let mut cmd = capped(home.path(), dir.path(), &["verify", "--test", &test]);
    cmd.env("LEAK_TOKEN", &token);
    let (r, took) = timed(&mut cmd);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(took < Duration::from_secs(40), "{took:?}");
    assert!(processes_holding(&tag).is_empty(), "left running: {:?}", processes_holding(&tag));
    assert!(processes_holding(&token).is_empty(), "the value lives on in: {:?}", processes_holding(&token));
    // Named by its command line (install waits a moment so that it has left its group by
    // then; under load it may still be `setsid sleep …`).
    assert!(
        r.stderr
            .lines()
            .any(|line| line.contains("install left a process running: `") && line.contains(&format!("sleep {tag}.1"))),
        "{}",
        r.stderr
    );
    // Left in install's own group: stopped with it, and named all the same.
    assert!(
        r.stderr.lines().any(|line| line.contains(&format!("install left a process running: `sleep {tag}.0`"))),
        "{}",
        r.stderr
    );
    for n in 2..=4 {
        assert!(r.stderr.contains(&format!("sleep {tag}.{n}")), "{n}: {}", r.stderr);
    }
    assert!(!r.stdout.contains(&token) && !r.stderr.contains(&token));
}

// --- 8. Proxies -----------------------------------------------------------------------------

#[test]
fn no_proxy_ever_sees_loopback_traffic_or_the_token() {
    let serve = Serve::start();
    let value = "proxy-leak-value-7f3a";
    for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "HTTPS_PROXY"] {
        let proxy = RawServer::start(|_| http("502 Bad Gateway", "", ""));
        let home = tempfile::tempdir().unwrap();
        let mut cmd = capped(home.path(), home.path(), &["--repo", "site", "secret", "set", "API_KEY", "--create"]);
        cmd.env("HANZO_BASE_URL", &serve.url)
            .env("HANZO_API_KEY", &serve.token)
            .env(var, &proxy.url)
            .write_stdin(value);
        let (r, _) = timed(&mut cmd);
        assert_eq!(r.code, 0, "{var}: {}", r.stderr);
        assert!(proxy.received().is_empty(), "{var}: the proxy got {:?}", String::from_utf8_lossy(&proxy.received()));
    }
    // An https API through an http:// proxy: a CONNECT tunnel, the token only inside it.
    let proxy = RawServer::start(|_| http("502 Bad Gateway", "", ""));
    let home = tempfile::tempdir().unwrap();
    let mut cmd = capped(home.path(), home.path(), &["list"]);
    cmd.env("HANZO_BASE_URL", "https://api.hanzo.test")
        .env("HANZO_API_KEY", "tok_PROXY_MARKER")
        .env("HTTPS_PROXY", &proxy.url);
    let (r, _) = timed(&mut cmd);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let seen = String::from_utf8_lossy(&proxy.received()).into_owned();
    assert!(seen.starts_with("CONNECT api.hanzo.test:443 "), "{seen}");
    assert!(!seen.contains("tok_PROXY_MARKER") && !seen.to_lowercase().contains("authorization"), "{seen}");
}

// --- 9. verify's kept logs ------------------------------------------------------------------

#[test]
fn verify_keeps_its_logs_private_and_masked() {
    use std::os::unix::fs::PermissionsExt;
    let token = format!("tok_LOG_{}_value", std::process::id());
    let home = tempfile::tempdir().unwrap();
    let dir = verify_checkout("[env]\nTOKEN = \"${LOG_TOKEN}\"\n");
    let test = "echo \"the token is $TOKEN\"; printf '%s' \"$TOKEN\" >&2; printf 'half %s' \"${TOKEN:0:6}\"; false";
    let mut cmd = capped(home.path(), dir.path(), &["--json", "verify", "--keep", "--test", test]);
    cmd.env("LOG_TOKEN", &token);
    let (r, _) = timed(&mut cmd);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(!r.stdout.contains(&token) && !r.stderr.contains(&token));
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    let scratch = PathBuf::from(report["scratch"].as_str().unwrap());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&scratch), 0o700);
    assert_eq!(mode(&scratch.join("logs")), 0o700);
    let mut logs = 0;
    for entry in std::fs::read_dir(scratch.join("logs")).unwrap().flatten() {
        assert_eq!(mode(&entry.path()), 0o600, "{}", entry.path().display());
        let text = std::fs::read_to_string(entry.path()).unwrap();
        assert!(!text.contains(&token), "{}: {text}", entry.path().display());
        logs += 1;
    }
    assert!(logs >= 2);
    let test_log = std::fs::read_to_string(scratch.join("logs/test.log")).unwrap();
    assert!(test_log.contains("the token is [TOKEN]"), "{test_log}");
    std::fs::remove_dir_all(&scratch).unwrap();
}

// --- 10. Terminal injection -----------------------------------------------------------------

#[test]
fn what_a_server_says_reaches_the_terminal_with_control_characters_escaped() {
    let list = r#"{"data":[
        {"repo":"\u001b]0;pwned\u0007site","install":"","start":"","secrets":[],"state":"ready","session":"","proposal":null,"updatedAt":"\u001b[2J"},
        {"repo":"x\nFORGED    ready     9  now","install":"","start":"","secrets":[],"state":"none","session":"","proposal":null},
        {"repo":"rtl\u202egnp.exe","install":"","start":"","secrets":[],"state":"none","session":"","proposal":null}]}"#;
    let show = r#"{"repo":"site","install":"npm ci\u001b[2J\r\nclear","start":"","secrets":["A\u001b[31m"],"state":"proposed","session":"s\u0007","proposal":{"install":"x","start":"","secrets":[],"note":"\u001b]0;t\u0007"}}"#;
    let refusal =
        r#"{"type":"about:blank","title":"Forbidden","status":403,"detail":"no\u001b[2J\u0007 way\u009b31m"}"#;
    let server = RawServer::streaming(move |seen, stream| {
        if seen.head.starts_with("GET /v1/environment HTTP") {
            answer_json(stream, "200 OK", list);
        } else if seen.head.starts_with("GET ") {
            answer_json(stream, "200 OK", show);
        } else {
            answer_json(stream, "403 Forbidden", refusal);
        }
    });
    let home = tempfile::tempdir().unwrap();
    write(home.path(), ".hanzo/environment.toml", "repo = \"site\"\ninstall = \"npm ci\"\n");
    for args in [
        &["list"][..],
        &["show", "site"],
        &["secret", "list", "--repo", "site"],
        &["diff"],
        &["delete", "site", "--yes"],
        &["secret", "set", "API_KEY", "--repo", "site"],
    ] {
        let mut cmd = capped(home.path(), home.path(), args);
        cmd.env("HANZO_BASE_URL", &server.url).env("HANZO_API_KEY", "t").write_stdin("v4lue");
        let (r, _) = timed(&mut cmd);
        for (stream, text) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
            assert!(
                !text.chars().any(|c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{202e}'),
                "{args:?} {stream}: {text:?}"
            );
            assert!(!text.lines().any(|l| l.starts_with("FORGED")), "{args:?} {stream}: {text}");
        }
        if args == ["list"] {
            assert!(r.stdout.contains("\\u{1b}]0;pwned\\u{7}site"), "{}", r.stdout);
        }
        if args[0] == "delete" {
            assert!(r.stderr.contains("no\\u{1b}[2J\\u{7} way\\u{9b}31m"), "{}", r.stderr);
        }
    }
    // --json carries the server's strings exactly (JSON escapes them itself).
    let mut cmd = capped(home.path(), home.path(), &["--json", "list"]);
    cmd.env("HANZO_BASE_URL", &server.url).env("HANZO_API_KEY", "t");
    let (r, _) = timed(&mut cmd);
    let json: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json[0]["repo"], "\u{1b}]0;pwned\u{7}site");
}

// --- 11. A server that echoes the request ---------------------------------------------------

#[test]
fn a_server_that_echoes_the_value_sent_never_gets_it_printed() {
    let value = r#"s3cr3t "quoted" \ value-that-is-long-enough-to-cut 0123456789"#;
    let escaped = serde_json::to_string(value).unwrap();
    let escaped = escaped[1..escaped.len() - 1].to_string();
    let problem = |detail: &str| {
        serde_json::json!({"type": "about:blank", "title": "Bad Request", "status": 400, "detail": detail}).to_string()
    };
    let answers = vec![
        ("400", problem(&format!("you sent: {{\"value\":\"{escaped}\"}}"))),
        ("400", problem(&format!("you sent: {value}"))),
        ("400", problem(&format!("value starts {}…", &value[..30]))),
        ("400", problem(&format!("value ends {}", &value[20..]))),
        ("422", serde_json::json!({"error": {"message": format!("bad value {value}")}}).to_string()),
        ("429", serde_json::json!({"msg": format!("slow down with {escaped}")}).to_string()),
        // A success whose body is not an environment, quoting the value where serde reads it.
        ("200", serde_json::json!({"repo": "site", "secrets": value}).to_string()),
    ];
    for (status, body) in answers {
        let body = Arc::new(body);
        let answer = Arc::clone(&body);
        // The repo is looked up first (a GET, no value in it): it exists; the PUT is echoed.
        let server = RawServer::streaming(move |seen, stream| {
            if seen.head.starts_with("GET ") {
                answer_json(stream, "200 OK", r#"{"repo":"site","state":"ready","install":"make"}"#)
            } else {
                answer_json(stream, &format!("{status} X"), &answer)
            }
        });
        let home = tempfile::tempdir().unwrap();
        let mut cmd = capped(home.path(), home.path(), &["-vv", "--repo", "site", "secret", "set", "API_KEY"]);
        cmd.env("HANZO_BASE_URL", &server.url).env("HANZO_API_KEY", "t").write_stdin(value);
        let (r, _) = timed(&mut cmd);
        assert_eq!(r.code, 3, "{status}: {}", r.stderr);
        let shown = format!("{}{}", r.stdout, r.stderr);
        assert!(shown.contains("[the value sent]"), "{status} {body}: {shown}");
        for piece in value.as_bytes().windows(12).chain(escaped.as_bytes().windows(12)) {
            assert!(!shown.as_bytes().windows(12).any(|w| w == piece), "{status}: {shown}");
        }
    }
}

// --- 12. 64 KiB and the one trailing newline ------------------------------------------------

#[test]
fn a_piped_value_of_64_kib_with_its_trailing_newline_is_accepted() {
    let serve = Serve::start();
    let home = tempfile::tempdir().unwrap();
    let full = "v".repeat(64 << 10);
    for (input, code, expected) in [
        (format!("{full}\n"), 0, "Set API_KEY (65536 bytes) on site"),
        (format!("{full}\r\n"), 0, "Set API_KEY (65536 bytes) on site"),
        (format!("{full}v\n"), 2, "over 64 KiB"),
        (format!("{full}\n\n"), 2, "over 64 KiB"),
    ] {
        let mut cmd = capped(home.path(), home.path(), &["--repo", "site", "secret", "set", "API_KEY", "--create"]);
        cmd.env("HANZO_BASE_URL", &serve.url).env("HANZO_API_KEY", &serve.token).write_stdin(input);
        let (r, _) = timed(&mut cmd);
        assert_eq!(r.code, code, "{expected}: {}", r.stderr);
        assert!(r.stderr.contains(expected), "{}", r.stderr);
    }
}

// --- 13. .hanzo linked out of the checkout --------------------------------------------------

#[test]
fn detect_and_pull_never_write_through_a_hanzo_link_out_of_the_checkout() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    write(dir.path(), "package.json", "{}");
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    symlink(elsewhere.path().to_str().unwrap(), &dir.path().join(".hanzo"));
    for args in [&["detect"][..], &["detect", "--force"], &["pull", "--yes"]] {
        let mut cmd = capped(home.path(), dir.path(), args);
        cmd.env("HANZO_BASE_URL", dead_url()).env("HANZO_API_KEY", "t");
        let (r, _) = timed(&mut cmd);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("refusing to write") && r.stderr.contains("outside the checkout"), "{}", r.stderr);
        assert!(std::fs::read_dir(elsewhere.path()).unwrap().next().is_none(), "{args:?} wrote through the link");
    }
    let (r, _) = timed(&mut capped(home.path(), dir.path(), &["detect", "--stdout"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
}

// --- 14. A manifest that is a FIFO or a device ----------------------------------------------

#[test]
fn a_manifest_that_is_a_fifo_or_a_device_is_named_in_a_warning() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("package.json"));
    symlink("/dev/zero", &dir.path().join("Cargo.toml"));
    mkfifo(&dir.path().join("api/go.mod"));
    symlink("/dev/null", &dir.path().join("api/pyproject.toml"));
    write(dir.path(), "requirements.txt", "pytest\n");
    let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(took < Duration::from_secs(20), "{took:?}");
    let warnings = warnings(&r);
    for (rel, kind) in [
        ("package.json", "a FIFO"),
        ("Cargo.toml", "a character device"),
        ("api/go.mod", "a FIFO"),
        ("api/pyproject.toml", "a character device"),
    ] {
        assert!(
            warnings.contains(&format!("{rel}: skipped, it is not a regular file but {kind}")),
            "{rel}: {warnings:?}"
        );
    }
}

// === Round 2 (issue 27) =====================================================================

/// Raw terminal control bytes in `text`: ESC, BEL, CSI and the other C0/C1 controls but
/// line breaks and tabs.
fn control_bytes(text: &str) -> usize {
    text.chars().filter(|c| c.is_control() && !matches!(c, '\n' | '\t')).count()
}

// --- R2.1 Links out of the checkout -----------------------------------------------------------

#[test]
fn files_linked_out_of_the_checkout_are_not_read_and_each_is_named() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let (root, outside) = (parent.path().join("repo"), parent.path().join("outside"));
    let marker = "outside-pw-7f3a9c";
    write(
        &outside,
        "compose.yml",
        &format!("services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: {marker}\n"),
    );
    write(&outside, "names.env", "OUTSIDE_ONLY_API_KEY=\n");
    write(&outside, "code.js", "process.env.OUTSIDE_CODE_TOKEN;\n");
    write(&outside, "requirements.txt", "outside-only-package\n");
    write(&root, "package.json", r#"{"scripts":{"test":"node --test"}}"#);
    write(&root, "lib/real.js", "process.env.INSIDE_LINKED_TOKEN;\n");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    // Relative and absolute targets, a manifest, a compose file, an example env file and code.
    symlink("../outside/compose.yml", &root.join("compose.yaml"));
    symlink(outside.join("names.env").to_str().unwrap(), &root.join(".env.example"));
    symlink(outside.join("code.js").to_str().unwrap(), &root.join("src/config.js"));
    symlink("../../outside/requirements.txt", &root.join("api/requirements.txt"));
    // A link that stays inside is the checkout's own file.
    symlink("../lib/real.js", &root.join("src/linked.js"));

    let (r, took) = timed(&mut capped(home.path(), &root, &["detect", "--json", "."]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(took < Duration::from_secs(20), "{took:?}");
    for leaked in [marker, "OUTSIDE_ONLY_API_KEY", "OUTSIDE_CODE_TOKEN", "outside-only-package"] {
        assert!(!r.stdout.contains(leaked), "{leaked} read through a link: {}", r.stdout);
    }
    assert!(r.stdout.contains("INSIDE_LINKED_TOKEN"), "{}", r.stdout);
    let warnings = warnings(&r);
    for rel in ["compose.yaml", ".env.example", "src/config.js", "api/requirements.txt"] {
        assert!(
            warnings.iter().any(|w| w.starts_with(&format!("{rel}: skipped, it is a symlink to "))
                && w.ends_with("outside the checkout")),
            "{rel}: {warnings:?}"
        );
    }
    // Nothing of it reaches what `save` sends or `export` writes.
    for args in [&["detect", "--stdout"][..], &["export", "--to", "copilot", "--stdout"]] {
        let (r, _) = timed(&mut capped(home.path(), &root, args));
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(!r.stdout.contains(marker) && !r.stdout.contains("OUTSIDE_"), "{args:?}: {}", r.stdout);
        assert!(
            args[0] != "detect" || r.stderr.contains("compose.yaml: skipped, it is a symlink to"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

// --- R2.2 Actions expressions in the Copilot workflow ---------------------------------------

#[test]
fn repository_text_never_becomes_an_actions_expression_in_the_copilot_workflow() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "package.json", r#"{"scripts":{"test":"node --test"}}"#);
    write(
        dir.path(),
        "compose.yaml",
        "services:\n  db:\n    image: postgres:16\n    ports: [\"5432:5432\"]\n    environment:\n      POSTGRES_PASSWORD: \"$${{ secrets.DEPLOY_KEY }}\"\n",
    );
    write(
        dir.path(),
        ".hanzo/environment.toml",
        "install = \"echo ${{ github.event.pull_request.title }}\"\nstart = \"node serve.js --title '${{ github.head_ref }}'\"\nsecrets = [\"API_TOKEN\"]\n",
    );
    let (r, _) = timed(&mut capped(home.path(), dir.path(), &["export", "--to", "copilot", "--stdout"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let literal = "${{ '${{' }}";
    for quoted in [" secrets.DEPLOY_KEY }}", " github.event.pull_request.title }}", " github.head_ref }}"] {
        assert!(r.stdout.contains(&format!("{literal}{quoted}")), "{quoted}: {}", r.stdout);
    }
    // What is left once the literals are taken out is the one expression export wrote itself.
    let rest = r.stdout.replace(literal, "");
    assert_eq!(rest.matches("${{").count(), 1, "{}", r.stdout);
    assert!(rest.contains("API_TOKEN: \"${{ secrets.API_TOKEN }}\""), "{}", r.stdout);
}

// --- R2.4 Deep nesting in every recursive reader --------------------------------------------

#[test]
fn deeply_nested_manifests_of_every_format_are_survived_and_named() {
    let levels = 50_000;
    let xml = |root: &str| format!("<{root}>{}{}</{root}>", "<a>".repeat(levels), "</a>".repeat(levels));
    let cases: Vec<(&str, String, bool)> = vec![
        ("pom.xml", xml("project"), true),
        ("src/App/App.csproj", xml("Project"), false),
        ("package.json", format!("{{\"x\":{}{}}}", "[".repeat(levels), "]".repeat(levels)), true),
        (".devcontainer/devcontainer.json", format!("{{\"x\":{}{}}}", "[".repeat(levels), "]".repeat(levels)), false),
        ("Cargo.toml", format!("[package]\nname = \"a\"\nx = {}{}\n", "[".repeat(levels), "]".repeat(levels)), true),
        (
            "pyproject.toml",
            format!("[project]\nname = \"a\"\nx = {}{}\n", "[".repeat(levels), "]".repeat(levels)),
            true,
        ),
        (
            "compose.yaml",
            format!("services:\n  db:\n    image: postgres\nx: {}{}\n", "[".repeat(levels), "]".repeat(levels)),
            true,
        ),
    ];
    for (rel, text, named) in cases {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "requirements.txt", "pytest\n");
        write(dir.path(), rel, &text);
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{rel}: {}", r.stderr);
        assert!(took < Duration::from_secs(20), "{rel}: {took:?}");
        let warnings = warnings(&r);
        assert!(!named || warnings.iter().any(|w| w.starts_with(&format!("{rel}: "))), "{rel}: {warnings:?}");
        // Detection carried on past it.
        assert!(r.stdout.contains("pytest"), "{rel}: {}", r.stdout);
    }
}

// --- R2.7 Control characters in folder names ------------------------------------------------

#[test]
fn control_characters_in_folder_names_are_escaped_wherever_a_path_is_shown_or_written() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let odd = "a\u{1b}]0;pwned\u{7}b\u{1b}[2Jc\u{9b}d";
    write(dir.path(), "package.json", r#"{"scripts":{"test":"node --test"}}"#);
    write(dir.path(), &format!("src/{odd}/pay.js"), "process.env.STRIPE_SECRET_KEY;\n");
    write(dir.path(), &format!("{odd}/.env.example"), "SERVICE_API_KEY=\n");
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    for args in [&["detect", "--stdout"][..], &["detect", "--explain"], &["detect", "--stdout", "--explain"]] {
        let (r, _) = timed(&mut capped(home.path(), dir.path(), args));
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert_eq!(control_bytes(&r.stdout) + control_bytes(&r.stderr), 0, "{args:?}: {:?}{:?}", r.stdout, r.stderr);
        assert!(r.stdout.contains("STRIPE_SECRET_KEY"), "{args:?}: {}", r.stdout);
    }
    let (r, _) = timed(&mut capped(home.path(), dir.path(), &["detect"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(control_bytes(&r.stderr), 0, "{:?}", r.stderr);
    let written = std::fs::read_to_string(dir.path().join(".hanzo/environment.toml")).unwrap();
    assert_eq!(control_bytes(&written), 0, "{written:?}");
    assert!(written.contains("\\u{1b}]0;pwned\\u{7}b"), "the path is shown, escaped: {written}");
    // Every later command reads what detect wrote.
    for args in [&["run", "--", "true"][..], &["export", "--to", "agents-md", "--stdout"], &["detect", "--check"]] {
        let (r, _) = timed(&mut capped(home.path(), dir.path(), args));
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
        assert_eq!(control_bytes(&r.stdout) + control_bytes(&r.stderr), 0, "{args:?}: {:?}", r.stdout);
    }
}

// --- R2.9 Files named by the user that are no regular files ---------------------------------

#[test]
fn certificate_token_and_key_files_are_read_only_as_bounded_regular_files() {
    let fifo_dir = tempfile::tempdir().unwrap();
    let fifo = fifo_dir.path().join("fifo");
    mkfifo(&fifo);
    let big = fifo_dir.path().join("big");
    std::fs::write(&big, vec![b'a'; 5 << 20]).unwrap();
    // Private, as a key or token file must be: what is refused is the kind and the size.
    for path in [&fifo, &big] {
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    }
    for source in ["/dev/zero", fifo.to_str().unwrap(), big.to_str().unwrap()] {
        let home = tempfile::tempdir().unwrap();
        let data = home.path().join("data");
        let data = data.to_str().unwrap();
        // Arguments, environment, what is named.
        type Case<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>, &'a str);
        let runs: Vec<Case> = vec![
            (vec!["--ca-cert", source, "list"], vec![("HANZO_API_KEY", "t")], "--ca-cert"),
            (vec!["list"], vec![("HANZO_API_KEY", "t"), ("SSL_CERT_FILE", source)], "SSL_CERT_FILE"),
            (vec!["list"], vec![], "token store"),
            (vec!["serve", "--listen", "127.0.0.1:0", "--data", data, "--token-file", source], vec![], "--token-file"),
            (
                vec!["serve", "--listen", "127.0.0.1:0", "--data", data, "--key-file", source],
                vec![("HANZO_ENV_SERVE_TOKENS", "a-token-long-enough-to-serve")],
                "--key-file",
            ),
        ];
        for (args, envs, what) in runs {
            let mut cmd = capped(home.path(), home.path(), &args);
            cmd.env("HANZO_BASE_URL", "https://api.example.invalid");
            if what == "token store" {
                cmd.env("HANZO_ENV_TOKEN_STORE", format!("file:{source}"));
            }
            for (k, v) in envs {
                cmd.env(k, v);
            }
            let (r, took) = timed(&mut cmd);
            assert_eq!(r.code, 2, "{what} {source}: {}", r.stderr);
            assert!(took < Duration::from_secs(10), "{what} {source}: {took:?}");
            // The key file must be private first: /dev/zero (mode 666) is refused for that.
            let private_first = what == "--key-file" && source == "/dev/zero";
            assert!(
                r.stderr.contains("not a regular file")
                    || r.stderr.contains("byte limit")
                    || private_first && r.stderr.contains("can be read by other users"),
                "{what} {source}: {}",
                r.stderr
            );
        }
    }
}

// --- R2.6 A full disk under serve -----------------------------------------------------------

/// Wait (30 s at most) until `path` holds a line with `what`; its text.
fn wait_for(path: &Path, what: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if text.contains(what) {
            return text;
        }
        assert!(Instant::now() < deadline, "{} never held {what:?}: {text}", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn url_in(text: &str) -> String {
    let at = text.find("http://127.0.0.1:").unwrap();
    text[at..].chars().take_while(|c| !c.is_whitespace()).collect()
}

#[test]
fn serve_stops_with_a_clear_error_after_a_disk_full_write_and_a_restart_has_every_acknowledged_one() {
    // A small tmpfs of its own: `unshare -rm` (user and mount namespaces) mounts one unprivileged.
    let probe = std::process::Command::new("unshare").args(["-rm", "true"]).status();
    if !probe.is_ok_and(|s| s.success()) {
        assert!(std::env::var_os("CI").is_none(), "CI must be able to mount a tmpfs (unshare -rm)");
        eprintln!("skipped: no user namespaces here to mount a small tmpfs in");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let (w, mount) = (work.path(), work.path().join("mnt"));
    std::fs::create_dir_all(&mount).unwrap();
    let token = "disk-full-token-0123456789";
    std::fs::write(w.join("token"), format!("{token}\n")).unwrap();
    // The first server; once told (`go`), the rest of the tmpfs is filled; once that server
    // stops, space is freed and a second one starts on the same data, as a supervisor would.
    let script = r#"
        set -u
        mount -t tmpfs -o size=16m none "$W/mnt" || exit 97
        serve() { "$BIN" serve --listen 127.0.0.1:0 --data "$W/mnt/data" --token-file "$W/token"; }
        serve > "$W/out1" 2> "$W/err1" &
        first=$!
        while [ ! -e "$W/go" ]; do sleep 0.05; done
        dd if=/dev/zero of="$W/mnt/filler" bs=64k 2>/dev/null
        touch "$W/full"
        wait $first
        echo $? > "$W/rc1"
        rm -f "$W/mnt/filler"
        serve > "$W/out2" 2> "$W/err2"
    "#;
    let child = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", script])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", w)
        .env("W", w)
        .env("BIN", bin())
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    struct Reap(std::process::Child);
    impl Drop for Reap {
        fn drop(&mut self) {
            // The namespace's shell and its servers: the shell's group was not made, so by pid.
            let _ = std::process::Command::new("pkill").arg("-P").arg(self.0.id().to_string()).status();
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _reap = Reap(child);

    let set = |url: &str, name: &str, value: &str| {
        let home = tempfile::tempdir().unwrap();
        // `--create`: a fresh server has no environment named site yet.
        let mut cmd = capped(home.path(), home.path(), &["--repo", "site", "secret", "set", "--create", name]);
        cmd.env("HANZO_BASE_URL", url).env("HANZO_API_KEY", token).write_stdin(value.to_string());
        timed(&mut cmd).0
    };
    let url1 = url_in(&wait_for(&w.join("out1"), "http://"));
    assert_eq!(set(&url1, "BEFORE_FULL", "kept-value").code, 0);
    std::fs::write(w.join("go"), "").unwrap();
    wait_for(&w.join("full"), "");
    // Sealed values do not compress: the store must grow, and cannot.
    let mut acknowledged = vec!["BEFORE_FULL".to_string()];
    let mut failed = None;
    for i in 0..64 {
        let name = format!("FILL_{i}");
        let value: String = (0..60_000).map(|j| char::from(b'a' + ((i * 7 + j * 13) % 26) as u8)).collect();
        let r = set(&url1, &name, &value);
        if r.code == 0 {
            acknowledged.push(name);
        } else {
            failed = Some(r);
            break;
        }
    }
    let failed = failed.expect("a write failed on the full disk");
    assert_eq!(failed.code, 3, "{}", failed.stderr);
    // The server stopped by itself, non-zero, saying why and what to do.
    let rc: i32 = wait_for(&w.join("rc1"), "\n").trim().parse().unwrap();
    assert_ne!(rc, 0);
    let err1 = std::fs::read_to_string(w.join("err1")).unwrap();
    assert!(err1.contains("No space left on device"), "{err1}");
    assert!(err1.contains("error: writing to") && err1.contains("hint: free space"), "{err1}");
    // Restarted with space free: every acknowledged write is there, and writes work again.
    let url2 = url_in(&wait_for(&w.join("out2"), "http://"));
    assert_eq!(set(&url2, "AFTER_RESTART", "v").code, 0);
    let home = tempfile::tempdir().unwrap();
    let mut list = capped(home.path(), home.path(), &["--repo", "site", "secret", "list"]);
    list.env("HANZO_BASE_URL", &url2).env("HANZO_API_KEY", token);
    let (r, _) = timed(&mut list);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for name in acknowledged.iter().map(String::as_str).chain(["AFTER_RESTART"]) {
        assert!(r.stdout.lines().any(|l| l == name), "{name} lost: {}", r.stdout);
    }
}

// --- R2.10 A refusal quoting the Authorization header ---------------------------------------

#[test]
fn a_refusal_that_quotes_the_request_headers_never_shows_the_token() {
    let token = "hzk_live_0123456789abcdefTOKENMARK";
    for status in ["400 Bad Request", "401 Unauthorized", "403 Forbidden", "500 Internal Server Error"] {
        let server = RawServer::streaming(move |seen, stream| {
            let head = seen.text();
            let detail = format!("rejected request: {}", head.replace("\r\n", " | "));
            let escaped = serde_json::to_string(&head).unwrap();
            let body = serde_json::json!({"type": "about:blank", "title": "No", "status": 400,
                "detail": format!("{detail} / as JSON {escaped} / cut {}", &head[head.len() / 2..])});
            answer_json(stream, status, &body.to_string());
        });
        for args in [&["list"][..], &["--repo", "site", "show"]] {
            let home = tempfile::tempdir().unwrap();
            let mut cmd = capped(home.path(), home.path(), &[&["-vv"][..], args].concat());
            cmd.env("HANZO_BASE_URL", &server.url).env("HANZO_API_KEY", token);
            let (r, _) = timed(&mut cmd);
            assert_ne!(r.code, 0, "{status}");
            let shown = format!("{}{}", r.stdout, r.stderr);
            assert!(shown.contains("[the token]"), "{status}: {shown}");
            for piece in token.as_bytes().windows(12) {
                assert!(!shown.as_bytes().windows(12).any(|w| w == piece), "{status} {args:?}: {shown}");
            }
        }
    }
}

// --- R2.11 NUL in a value -------------------------------------------------------------------

#[test]
fn secret_values_holding_a_nul_byte_are_refused_before_anything_is_sent() {
    let server = RawServer::streaming(|_, stream| answer_json(stream, "200 OK", SITE));
    let home = tempfile::tempdir().unwrap();
    for (args, input) in [
        (&["--repo", "site", "secret", "set", "API_KEY"][..], "abc\0def".to_string()),
        (&["--repo", "site", "secret", "set", "API_KEY", "--from-file", "-"][..], "\0".to_string()),
        (&["--repo", "site", "secret", "import", "-f", "-"][..], "GOOD=1\nAPI_KEY=\"a\0b\"\n".to_string()),
    ] {
        let mut cmd = capped(home.path(), home.path(), args);
        cmd.env("HANZO_BASE_URL", &server.url).env("HANZO_API_KEY", "t").write_stdin(input);
        let (r, _) = timed(&mut cmd);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("NUL"), "{args:?}: {}", r.stderr);
    }
    // Only the lookup of the repo (a GET, before the value is read) reached the server.
    let requests: Vec<String> = server.requests().iter().map(|r| r.text()).collect();
    assert!(requests.iter().all(|r| r.starts_with("GET /v1/environment")), "sent: {requests:?}");
    assert!(!requests.iter().any(|r| r.contains("abc") || r.contains("GOOD")), "sent: {requests:?}");
}

// --- R2.12 Short serve tokens ---------------------------------------------------------------

#[test]
fn short_serve_tokens_are_refused_beyond_loopback_and_warned_about_on_it() {
    for (tokens, file) in [("a", false), ("long-enough-token-1,short", false), ("abc\n", true)] {
        let home = tempfile::tempdir().unwrap();
        let data = home.path().join("data");
        let mut args = vec!["serve", "--allow-remote", "--listen", "0.0.0.0:0", "--data", data.to_str().unwrap()];
        let token_file = home.path().join("tokens");
        std::fs::write(&token_file, tokens).unwrap();
        if file {
            args.extend(["--token-file", token_file.to_str().unwrap()]);
        }
        let mut cmd = capped(home.path(), home.path(), &args);
        if !file {
            cmd.env("HANZO_ENV_SERVE_TOKENS", tokens);
        }
        let (r, took) = timed(&mut cmd);
        assert_eq!(r.code, 2, "{tokens}: {}", r.stderr);
        assert!(took < Duration::from_secs(10));
        assert!(r.stderr.contains("shorter than 16 characters"), "{tokens}: {}", r.stderr);
    }
    // On loopback: served, with a warning.
    let home = tempfile::tempdir().unwrap();
    let mut cmd = common::serve_command(home.path());
    cmd.arg("--data").arg(home.path().join("data")).env("HANZO_ENV_SERVE_TOKENS", "a");
    let serve = common::ServeProcess::spawn(&mut cmd, home.path().join("out"), home.path().join("err"));
    let err = wait_for(&serve.err, "shorter than");
    assert!(err.contains("warning: 1 accepted token(s) shorter than 16 characters"), "{err}");
}

// --- R2.13 Names from the server in pull ----------------------------------------------------

#[test]
fn pull_refuses_names_from_the_server_that_no_command_accepts_and_writes_nothing() {
    for bad in ["B\nC", "HANZO_TOKEN", "PATH", "1X", "has space", ""] {
        let env = serde_json::json!({"repo": "site", "install": "make", "start": "", "secrets": ["OK_NAME", bad],
            "state": "ready", "session": "", "proposal": {"install": "make", "start": "", "secrets": [bad], "note": ""}});
        let body = env.to_string();
        let server = RawServer::streaming(move |_, stream| answer_json(stream, "200 OK", &body));
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        let original = "repo = \"site\"\ninstall = \"npm ci\"\n";
        write(dir.path(), ".hanzo/environment.toml", original);
        for args in [&["pull", "--yes"][..], &["pull", "--yes", "--proposal"]] {
            let mut cmd = capped(home.path(), dir.path(), args);
            cmd.env("HANZO_BASE_URL", &server.url).env("HANZO_API_KEY", "t");
            let (r, _) = timed(&mut cmd);
            assert_eq!(r.code, 2, "{bad:?} {args:?}: {}", r.stderr);
            assert!(
                r.stderr.contains("the server sent the secret name") && r.stderr.contains("nothing written"),
                "{}",
                r.stderr
            );
            let now = std::fs::read_to_string(dir.path().join(".hanzo/environment.toml")).unwrap();
            assert_eq!(now, original, "{bad:?} {args:?}");
        }
    }
}

// --- R2.16 git with the checkout's own config -----------------------------------------------

#[test]
fn git_never_runs_a_program_the_checkouts_config_names() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let marks = tempfile::tempdir().unwrap();
    let ran = marks.path().join("ran-from-git-config");
    let status = std::process::Command::new("git").args(["init", "-q"]).arg(root).status().unwrap();
    assert!(status.success());
    let hook = format!("touch '{}'", ran.display());
    let script = root.join(".git/evil.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{hook}\n")).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
    for name in ["post-checkout", "post-index-change", "reference-transaction", "fsmonitor-watchman"] {
        std::fs::copy(&script, root.join(".git/hooks").join(name)).unwrap();
    }
    let config = format!(
        "[core]\n\tfsmonitor = {s}\n\tpager = {s}\n\tsshCommand = {s}\n[diff]\n\texternal = {s}\n",
        s = script.display()
    );
    let mut text = std::fs::read_to_string(root.join(".git/config")).unwrap();
    text.push_str(&config);
    std::fs::write(root.join(".git/config"), text).unwrap();
    write(root, ".gitignore", "run.env\n");
    write(root, ".hanzo/environment.toml", "install = \"true\"\n[env]\nMODE = \"test\"\n");
    write(root, "a.txt", "x\n");
    // Tracked files, so that git has an index to refresh.
    let add = std::process::Command::new("git")
        .args(["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-C"])
        .arg(root)
        .args(["add", "a.txt", ".gitignore"])
        .status()
        .unwrap();
    assert!(add.success());
    assert!(!ran.exists(), "the set-up itself ran it");
    for args in [&["env-file", "--out", "run.env"][..], &["verify", "--test", "true"]] {
        let (r, _) = timed(&mut capped(home.path(), root, args));
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(!ran.exists(), "{args:?} ran a program the checkout's .git/config names");
    }
    // The probe works: git itself runs it when not told otherwise.
    let _ = std::process::Command::new("git").arg("-C").arg(root).args(["status", "--short"]).output().unwrap();
    assert!(ran.exists(), "the fsmonitor probe never ran: the test proves nothing");
    let _ = std::fs::remove_file(&ran);
}

// --- R2.5 Compose services and CI jobs, bounded per file and per proposal -------------------

fn compose_of(services: usize) -> String {
    let mut text = String::from("services:\n");
    for i in 0..services {
        text.push_str(&format!(
            "  s{i:05}:\n    image: postgres:16\n    ports: [\"{}:5432\"]\n    environment:\n      POSTGRES_PASSWORD: pw{i}\n",
            5432 + i % 1000
        ));
    }
    text
}

fn workflow_of(jobs: usize) -> String {
    let mut text = String::from("on: push\njobs:\n");
    for i in 0..jobs {
        text.push_str(&format!(
            "  j{i:05}:\n    runs-on: ubuntu-latest\n    services:\n      pg:\n        image: postgres:16\n        ports: ['5432:5432']\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm test -- --shard={i}\n"
        ));
    }
    text
}

#[test]
fn compose_services_and_ci_jobs_are_bounded_per_file_and_per_proposal() {
    // The issue's reproducers: a 1.9 MB compose file, ten of them, a 1.7 MB workflow; then
    // files under the size limits with more entries than are read.
    let huge = compose_of(19_000);
    let many = compose_of(3_000);
    // The files (path, text) and the warnings expected, each by its start.
    type Case<'a> = (Vec<(String, String)>, Vec<&'a str>);
    let cases: Vec<Case> = vec![
        (vec![("compose.yaml".into(), huge.clone())], vec!["compose.yaml: not read: more than 100000 nodes"]),
        (
            (0..10).map(|i| (format!("svc{i}/compose.yaml"), huge.clone())).collect(),
            vec!["svc0/compose.yaml: not read: more than", "svc9/compose.yaml: not read: more than"],
        ),
        (
            vec![(".github/workflows/ci.yml".into(), workflow_of(8_000))],
            vec![".github/workflows/ci.yml: not read: more than"],
        ),
        (
            (0..10).map(|i| (format!("svc{i}/compose.yaml"), many.clone())).collect(),
            vec![
                "svc0/compose.yaml: 3000 services, more than detection reads from one file: the first 100 read",
                "svc9/compose.yaml: 3000 services",
                "svc0/compose.yaml: 100 backing services, more than one start brings up: the first 32 kept",
            ],
        ),
        (
            (0..6).map(|i| (format!(".github/workflows/ci{i}.yml"), workflow_of(300))).collect(),
            vec![
                ".github/workflows/ci0.yml: 300 jobs, more than detection reads from one file: the first 256 read",
                ".github/workflows/ci4.yml: not read, nor 1 other workflow(s) after it: the 4 before it hold 1024 jobs",
            ],
        ),
    ];
    for (files, expected) in cases {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "package.json", r#"{"scripts":{"test":"node --test"}}"#);
        for (rel, text) in &files {
            write(dir.path(), rel, text);
        }
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{}: {}", files[0].0, r.stderr);
        assert!(took < Duration::from_secs(60), "{}: {took:?}", files[0].0);
        let warnings = warnings(&r);
        for want in expected {
            assert!(warnings.iter().any(|w| w.starts_with(want)), "{want}: {warnings:?}");
        }
        let json: Value = serde_json::from_str(&r.stdout).unwrap();
        assert!(json["start"].as_str().unwrap().len() <= 16 << 10, "{}", json["start"]);
    }
}
