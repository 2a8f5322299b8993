//! Hostile checkouts and hostile servers (issue 12): every attack runs the built binary under
//! an address-space cap (`ulimit -v`) and a timeout, so unbounded memory fails the test as an
//! abort and a hang as a kill; leaks are looked for by a marker in every output, file and
//! process. One test (or more) per item of the issue, named after it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{Run, Serve, run};
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

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
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

fn dead_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://{}", listener.local_addr().unwrap())
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

/// A server on loopback that answers every request with `answer(request head, stream)`,
/// which may write for as long as the client reads.
struct Hostile {
    url: String,
    heads: Arc<Mutex<Vec<String>>>,
}

impl Hostile {
    fn start(answer: impl Fn(&str, &mut TcpStream) + Send + Sync + 'static) -> Hostile {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let heads = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&heads);
        let answer = Arc::new(answer);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (seen, answer) = (Arc::clone(&seen), Arc::clone(&answer));
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut head = String::new();
                    loop {
                        let mut line = String::new();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        if line == "\r\n" {
                            break;
                        }
                        head.push_str(&line);
                    }
                    let length: usize = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string())
                        })
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0);
                    let mut body = vec![0; length];
                    let _ = reader.read_exact(&mut body);
                    head.push_str(&String::from_utf8_lossy(&body));
                    seen.lock().unwrap().push(head.clone());
                    let mut stream = stream;
                    answer(&head, &mut stream);
                });
            }
        });
        Hostile { url, heads }
    }

    fn requests(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }
}

/// A body that never ends: chunk after chunk until the client goes away.
fn endless_chunks(stream: &mut TcpStream, status: &str) {
    let head = format!("HTTP/1.1 {status}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n");
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let chunk = format!("10000\r\n{}\r\n", " ".repeat(0x10000));
    while stream.write_all(chunk.as_bytes()).is_ok() {}
}

/// A `Content-Length` of 2 GiB, then bytes for as long as the client reads.
fn huge_length(stream: &mut TcpStream, status: &str) {
    let head = format!("HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: 2147483648\r\n\r\n");
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let block = vec![b' '; 1 << 16];
    while stream.write_all(&block).is_ok() {}
}

/// One answer, then the connection closes, as this server's threads do: said in the head so
/// that the client does not send its next request down a socket about to close (a reset).
fn answer_json(stream: &mut TcpStream, status: &str, body: &str) {
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
    type Answer = fn(&str, &mut TcpStream);
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
            |head, s| {
                if head.starts_with("GET") { answer_json(s, "200 OK", SITE) } else { endless_chunks(s, "200 OK") }
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
        let server = Hostile::start(answer);
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

/// A proxy on loopback that records every byte it is sent and answers 502.
struct RecordingProxy {
    url: String,
    bytes: Arc<Mutex<Vec<u8>>>,
}

impl RecordingProxy {
    fn start() -> RecordingProxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&bytes);
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let record = Arc::clone(&record);
                std::thread::spawn(move || {
                    stream.set_read_timeout(Some(Duration::from_millis(500))).unwrap();
                    let mut buf = [0u8; 4096];
                    while let Ok(n) = stream.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        record.lock().unwrap().extend_from_slice(&buf[..n]);
                        if buf[..n].windows(4).any(|w| w == b"\r\n\r\n") {
                            let _ = stream.write_all(b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n");
                        }
                    }
                });
            }
        });
        RecordingProxy { url, bytes }
    }

    fn seen(&self) -> Vec<u8> {
        self.bytes.lock().unwrap().clone()
    }
}

#[test]
fn no_proxy_ever_sees_loopback_traffic_or_the_token() {
    let serve = Serve::start();
    let value = "proxy-leak-value-7f3a";
    for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "HTTPS_PROXY"] {
        let proxy = RecordingProxy::start();
        let home = tempfile::tempdir().unwrap();
        let mut cmd = capped(home.path(), home.path(), &["--repo", "site", "secret", "set", "API_KEY", "--create"]);
        cmd.env("HANZO_BASE_URL", &serve.url)
            .env("HANZO_API_KEY", &serve.token)
            .env(var, &proxy.url)
            .write_stdin(value);
        let (r, _) = timed(&mut cmd);
        assert_eq!(r.code, 0, "{var}: {}", r.stderr);
        assert!(proxy.seen().is_empty(), "{var}: the proxy got {:?}", String::from_utf8_lossy(&proxy.seen()));
    }
    // An https API through an http:// proxy: a CONNECT tunnel, the token only inside it.
    let proxy = RecordingProxy::start();
    let home = tempfile::tempdir().unwrap();
    let mut cmd = capped(home.path(), home.path(), &["list"]);
    cmd.env("HANZO_BASE_URL", "https://api.hanzo.test")
        .env("HANZO_API_KEY", "tok_PROXY_MARKER")
        .env("HTTPS_PROXY", &proxy.url);
    let (r, _) = timed(&mut cmd);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let seen = String::from_utf8_lossy(&proxy.seen()).into_owned();
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
    let server = Hostile::start(move |head, stream| {
        if head.starts_with("GET /v1/environment HTTP") {
            answer_json(stream, "200 OK", list);
        } else if head.starts_with("GET ") {
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
        let server = Hostile::start(move |head, stream| {
            if head.starts_with("GET ") {
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
