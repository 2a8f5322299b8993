//! Hostile servers and a crowded `serve`: endless or huge bodies, stalled clients, proxies,
//! terminal escapes, echoed values, a full disk, quoted headers, short tokens and names
//! from the server no command accepts.

use super::*;

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
