//! The client's refusals and wire behaviour, without `serve`: bad input refused before any
//! request, and the raw loopback HTTP responder of `tests/common` for what a real server should
//! never send (junk, storms of 429, refusals in each of the three body shapes), recording every
//! request so the wire contract (paths, headers, where a value travels) can be checked.

use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex};

use assert_cmd::Command;
use common::raw_server::{RawServer, Seen, http};
use common::{Run, dead_url, hanzo_api};

mod common;

const VALUE: &str = "sk_live_C4NARY-7f3a9e-VALUE";
/// The API token every run is given.
const TOKEN: &str = "test-token";

fn env_json(repo: &str) -> String {
    format!(r#"{{"repo":"{repo}","install":"","start":"","secrets":[],"state":"none","session":"","proposal":null}}"#)
}

/// A repo with a saved environment: what `secret set` and `show` need to find.
fn saved_env_json(repo: &str) -> String {
    format!(
        r#"{{"repo":"{repo}","install":"make","start":"","secrets":[],"state":"ready","session":"","proposal":null,"updatedAt":"2026-01-01T00:00:00Z"}}"#
    )
}

/// The requests that were PUTs.
fn puts(server: &RawServer) -> Vec<Seen> {
    server.requests().into_iter().filter(|s| s.head.starts_with("PUT ")).collect()
}

/// [`common::run`], and the value appears in neither output.
fn run(cmd: &mut Command) -> Run {
    let run = common::run(cmd);
    assert!(
        !run.stdout.contains(VALUE) && !run.stderr.contains(VALUE),
        "the value leaked: {}{}",
        run.stdout,
        run.stderr
    );
    run
}

#[test]
fn bad_names_are_refused_before_any_request() {
    let home = tempfile::tempdir().unwrap();
    let server = RawServer::start(|_| http("200 OK", "", "{}"));
    for (name, expect) in [
        ("BAD-NAME", "characters other than"),
        ("1ABC", "characters other than"),
        ("HANZO_TOKEN", "reserved"),
        ("path", "reserved"),
        ("", "empty"),
        (&"A".repeat(129), "too long"),
        // A value typed after the name: quoted up to the blank only (`run` checks it never shows).
        (&format!("API_KEY {VALUE}"), "`API_KEY…` has characters other than"),
    ] {
        let r = run(hanzo_api(home.path(), &server.url, TOKEN)
            .args(["secret", "set", name, "--repo", "site"])
            .write_stdin(VALUE));
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
        assert!(r.stderr.contains(expect), "{name}: {}", r.stderr);
        assert!(r.stderr.contains("hint:"), "{}", r.stderr);
        let r = run(hanzo_api(home.path(), &server.url, TOKEN).args(["secret", "delete", name, "--repo", "site"]));
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
    }
    assert!(server.requests().is_empty(), "a request was sent for a bad name");
}

#[test]
fn name_equals_value_on_argv_is_refused_without_echoing_the_value() {
    let home = tempfile::tempdir().unwrap();
    let arg = format!("STRIPE_KEY={VALUE}");
    let r = run(hanzo_api(home.path(), &dead_url(), TOKEN).args(["secret", "set", &arg, "--repo", "site"]));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("values never go on the command line"), "{}", r.stderr);
    assert!(r.stderr.contains("printf %s \"$VALUE\" | hanzo-env secret set STRIPE_KEY"), "{}", r.stderr);
}

#[test]
fn empty_and_oversized_values_are_refused_before_sending() {
    let home = tempfile::tempdir().unwrap();
    let server = RawServer::start(|_| http("200 OK", "", &saved_env_json("site")));
    let r =
        run(hanzo_api(home.path(), &server.url, TOKEN).args(["secret", "set", "A", "--repo", "site"]).write_stdin(""));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no value: stdin was empty"), "{}", r.stderr);
    // One newline alone is empty once stripped.
    let r = run(hanzo_api(home.path(), &server.url, TOKEN)
        .args(["secret", "set", "A", "--repo", "site"])
        .write_stdin("\n"));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let big = "x".repeat((64 << 10) + 1);
    let r = run(hanzo_api(home.path(), &server.url, TOKEN)
        .args(["secret", "set", "A", "--repo", "site"])
        .write_stdin(big.clone()));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("over 64 KiB"), "{}", r.stderr);
    let file = home.path().join("big.pem");
    std::fs::write(&file, &big).unwrap();
    let r = run(hanzo_api(home.path(), &server.url, TOKEN)
        .args(["secret", "set", "A", "--repo", "site", "--from-file"])
        .arg(&file));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("over 64 KiB"), "{}", r.stderr);
    let r = run(hanzo_api(home.path(), &server.url, TOKEN)
        .args(["secret", "set", "A", "--repo", "site"])
        .write_stdin(vec![0xff, 0xfe]));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not UTF-8"), "{}", r.stderr);
    // The repo is looked up first (a GET); no value was ever sent.
    assert!(puts(&server).is_empty());
}

#[test]
fn a_value_travels_only_in_the_put_body_with_org_and_encoded_path() {
    let home = tempfile::tempdir().unwrap();
    let server = RawServer::start(|_| http("200 OK", "content-type: application/json\r\n", &saved_env_json("my repo")));
    let r = run(hanzo_api(home.path(), &server.url, TOKEN)
        .args(["secret", "set", "DATABASE_URL", "--repo", "my repo", "--org", "acme"])
        .write_stdin(format!("{VALUE}\r\n")));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("Set DATABASE_URL ({} bytes) on my repo", VALUE.len())), "{}", r.stderr);
    assert!(r.stderr.contains("stripped one trailing newline"), "{}", r.stderr);
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "the repo looked up, then the value sent");
    assert!(requests[0].head.starts_with("GET /v1/environment/my%20repo HTTP/1.1\r\n"), "{}", requests[0].head);
    assert!(requests[0].body.is_empty());
    let seen = puts(&server);
    assert_eq!(seen.len(), 1);
    let head = &seen[0].head;
    assert!(head.starts_with("PUT /v1/environment/my%20repo/secrets/DATABASE_URL HTTP/1.1\r\n"), "{head}");
    assert!(head.to_ascii_lowercase().contains("x-org-id: acme"), "{head}");
    assert!(head.to_ascii_lowercase().contains("authorization: bearer test-token"), "{head}");
    assert!(!head.contains(VALUE), "the value is in the request line or a header");
    let body: serde_json::Value = serde_json::from_slice(&seen[0].body).unwrap();
    assert_eq!(body, serde_json::json!({ "value": VALUE }), "exactly one trailing CRLF stripped, nothing else");
}

#[test]
fn keep_newline_and_from_file_are_verbatim() {
    let home = tempfile::tempdir().unwrap();
    let server = RawServer::start(|_| http("200 OK", "", &saved_env_json("site")));
    let r = run(hanzo_api(home.path(), &server.url, TOKEN)
        .args(["secret", "set", "A", "--repo", "site", "--keep-newline"])
        .write_stdin(format!("{VALUE}\n")));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let pem = home.path().join("key.pem");
    std::fs::write(&pem, format!("{VALUE}\n\n")).unwrap();
    let r = run(hanzo_api(home.path(), &server.url, TOKEN)
        .args(["secret", "set", "B", "--repo", "site", "--from-file"])
        .arg(&pem));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("stripped"));
    let values: Vec<String> = puts(&server)
        .iter()
        .map(|s| serde_json::from_slice::<serde_json::Value>(&s.body).unwrap()["value"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(values, vec![format!("{VALUE}\n"), format!("{VALUE}\n\n")]);
}

#[test]
fn malformed_answers_are_clear_errors() {
    let home = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Vec<u8>, i32, &str)> = vec![
        ("not json", http("200 OK", "", "<html>hello</html>"), 3, "not understood"),
        ("wrong json", http("200 OK", "", r#"{"data":"nope"}"#), 3, "not understood"),
        ("not http", b"SSH-2.0-OpenSSH_9.6\r\n".to_vec(), 3, "could not reach"),
        ("redirect", http("302 Found", "location: https://elsewhere/\r\n", ""), 3, "redirect"),
    ];
    for (label, answer, code, expect) in cases {
        let server = RawServer::start(move |_| answer.clone());
        let r = run(hanzo_api(home.path(), &server.url, TOKEN).arg("list"));
        assert_eq!(r.code, code, "{label}: {}", r.stderr);
        assert!(r.stderr.contains(expect), "{label}: {}", r.stderr);
    }
}

#[test]
fn refusals_map_to_messages_and_exit_codes_in_every_body_shape() {
    let home = tempfile::tempdir().unwrap();
    let problem = |status: u16, detail: &str| {
        format!(r#"{{"type":"about:blank","title":"refused","status":{status},"detail":"{detail}"}}"#)
    };
    let cases = [
        ("401 Unauthorized", problem(401, "token expired"), 4, "sign in again"),
        ("403 Forbidden", r#"{"error":{"message":"admins only here"}}"#.to_string(), 3, "org admin"),
        ("402 Payment Required", r#"{"msg":"plan limit reached"}"#.to_string(), 3, "plan limit reached"),
        ("404 Not Found", problem(404, "no such repo"), 3, "no such repo"),
        ("409 Conflict", problem(409, "busy"), 5, "conflict"),
        ("400 Bad Request", "garbage".to_string(), 3, "Bad Request"),
    ];
    for (status, body, code, expect) in cases {
        let server = RawServer::start(move |_| http(status, "content-type: application/problem+json\r\n", &body));
        let r = run(hanzo_api(home.path(), &server.url, TOKEN).args(["show", "site"]));
        assert_eq!(r.code, code, "{status}: {}", r.stderr);
        assert!(r.stderr.contains(expect), "{status}: {}", r.stderr);
        assert!(r.stderr.contains("hint:") || code == 3, "{status}: {}", r.stderr);
        assert_eq!(server.requests().len(), 1, "{status} is not retried");
    }
}

#[test]
fn a_429_storm_is_retried_a_bounded_number_of_times_then_exit_3() {
    let home = tempfile::tempdir().unwrap();
    let server = RawServer::start(|_| http("429 Too Many Requests", "retry-after: 0\r\n", r#"{"msg":"slow down"}"#));
    let r = run(hanzo_api(home.path(), &server.url, TOKEN).args(["-v", "show", "site"]));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("rate limiting (429)") && r.stderr.contains("slow down"), "{}", r.stderr);
    assert_eq!(server.requests().len(), 4);
    assert!(r.stderr.contains("retrying"), "-v shows the retries: {}", r.stderr);
}

#[test]
fn server_errors_are_retried_then_succeed() {
    let home = tempfile::tempdir().unwrap();
    let count = Arc::new(Mutex::new(0));
    let seen = count.clone();
    let server = RawServer::start(move |_| {
        let mut n = seen.lock().unwrap();
        *n += 1;
        if *n < 3 {
            http("503 Service Unavailable", "retry-after: 0\r\n", "")
        } else {
            http("200 OK", "", &saved_env_json("site"))
        }
    });
    let r = run(hanzo_api(home.path(), &server.url, TOKEN).args(["--json", "show", "site"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(*count.lock().unwrap(), 3);
    assert!(r.stdout.contains("\"repo\": \"site\""), "{}", r.stdout);
}

#[test]
fn server_down_is_exit_3_with_a_hint() {
    let home = tempfile::tempdir().unwrap();
    let r = run(hanzo_api(home.path(), &dead_url(), TOKEN).arg("list"));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("could not reach"), "{}", r.stderr);
    assert!(r.stderr.contains("hint:") && r.stderr.contains("HANZO_BASE_URL"), "{}", r.stderr);
}

#[test]
fn plain_http_is_refused_unless_loopback() {
    let home = tempfile::tempdir().unwrap();
    let r = run(hanzo_api(home.path(), "http://api.example.com", TOKEN).arg("list"));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("not loopback"), "{}", r.stderr);
    let r =
        run(hanzo_api(home.path(), "https://api.example.com", TOKEN).args(["list", "--ca-cert", "/nonexistent.pem"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("/nonexistent.pem"), "{}", r.stderr);
}

#[test]
fn no_token_is_exit_4_and_never_touches_the_keyring() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("token");
    // PATH without a `hanzo` CLI, so that no source is left.
    let r = run(hanzo_api(home.path(), &dead_url(), TOKEN)
        .env_remove("HANZO_API_KEY")
        .env("PATH", home.path())
        .env("HANZO_ENV_TOKEN_STORE", format!("file:{}", store.display()))
        .arg("list"));
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("no API token") && r.stderr.contains("hanzo-env login"), "{}", r.stderr);
    let r = run(hanzo_api(home.path(), &dead_url(), TOKEN)
        .env_remove("HANZO_API_KEY")
        .env("HANZO_ENV_TOKEN_STORE", "relative")
        .arg("list"));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("HANZO_ENV_TOKEN_STORE"), "{}", r.stderr);
    let r = run(hanzo_api(home.path(), &dead_url(), TOKEN).env("HANZO_API_KEY", "tok en-with-space").arg("list"));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("spaces or control characters") && !r.stderr.contains("en-with"), "{}", r.stderr);
}

#[test]
fn the_hanzo_cli_token_is_used_and_never_shown() {
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let hanzo_cli = bin.join("hanzo");
    std::fs::write(&hanzo_cli, "#!/bin/sh\n[ \"$1 $2\" = \"auth token\" ] || exit 9\necho iam-token-from-hanzo-cli\n")
        .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hanzo_cli, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let server = RawServer::start(|_| http("200 OK", "", r#"{"data":[]}"#));
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let store = format!("file:{}", home.path().join("token").display());
    let r = run(hanzo_api(home.path(), &server.url, TOKEN)
        .env_remove("HANZO_API_KEY")
        .env("HANZO_ENV_TOKEN_STORE", &store)
        .env("PATH", &path)
        .args(["auth", "status"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("auth token"), "{}", r.stdout);
    assert!(r.stdout.contains("accepted  yes"), "{}", r.stdout);
    assert!(!r.stdout.contains("iam-token-from-hanzo-cli") && !r.stderr.contains("iam-token-from-hanzo-cli"));
    let head = &server.requests()[0].head;
    assert!(head.contains("Bearer iam-token-from-hanzo-cli"), "{head}");
}

#[test]
fn malformed_dotenv_names_the_line_never_the_value_and_sends_nothing() {
    let home = tempfile::tempdir().unwrap();
    let server = RawServer::start(|_| http("200 OK", "", &env_json("site")));
    let cases = [
        (format!("A=1\n{VALUE}\n"), "line 2: expected NAME=value"),
        (format!("A=1\nB=\"{VALUE}\n"), "line 2: the double quote opened here is never closed"),
        (format!("A=1\nBAD-NAME={VALUE}\nC=\n"), "line 2: secret name `BAD-NAME`"),
        (format!("A=1\nC=\nD={VALUE}\n"), "line 2: C has an empty value"),
        (format!("A={VALUE}\nexport A=2\n"), "line 2: A is already given on line 1"),
        (format!("A={}\n", "x".repeat((64 << 10) + 1)), "line 1: the value of A is 65537 bytes"),
        ("# only a comment\n".to_string(), "no NAME=value lines"),
    ];
    for (text, expect) in cases {
        let r = run(hanzo_api(home.path(), &server.url, TOKEN)
            .args(["secret", "import", "-f", "-", "--repo", "site"])
            .write_stdin(text));
        assert_eq!(r.code, 2, "{expect}: {}", r.stderr);
        assert!(r.stderr.contains(expect), "{expect}: {}", r.stderr);
    }
    let r = run(hanzo_api(home.path(), &server.url, TOKEN).args([
        "secret",
        "import",
        "-f",
        "missing.env",
        "--repo",
        "site",
    ]));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("missing.env"), "{}", r.stderr);
    assert!(server.requests().is_empty(), "the batch is validated whole before the first request");
}

#[test]
fn a_terminal_on_stdin_is_never_read_with_echo_nor_waited_on() {
    let home = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["--no-input", "secret", "set", "A", "--repo", "site"],
            "stdin is a terminal and prompting is off",
            "--from-file",
        ),
        (&["secret", "set", "A", "--repo", "site", "--from-file", "-"], "would be echoed", "hidden prompt"),
        (&["secret", "import", "-f", "-", "--repo", "site"], "would be echoed", "-f FILE"),
        (&["login", "--with-token"], "would be echoed", "hidden prompt"),
    ];
    for (args, message, hint) in cases {
        let mut cmd = common::process(home.path());
        cmd.env("HANZO_BASE_URL", dead_url())
            .env("HANZO_API_KEY", "t")
            .env("HANZO_ENV_TOKEN_STORE", format!("file:{}", home.path().join("token").display()))
            .current_dir(home.path())
            .args(args);
        let mut session = expectrl::Session::spawn(cmd).unwrap();
        session.set_expect_timeout(Some(std::time::Duration::from_secs(20)));
        let mut out = String::new();
        session.read_to_string(&mut out).unwrap();
        assert!(out.contains(message) && out.contains(hint), "{args:?}: {out}");
        let status = session.get_process().wait().unwrap();
        assert!(matches!(status, expectrl::process::unix::WaitStatus::Exited(_, 2)), "{args:?}: {status:?}");
    }
}

/// A throw-away CA and a certificate for localhost/127.0.0.1 signed by it (openssl CLI).
fn test_pki(dir: &Path) -> Arc<rustls::ServerConfig> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let sh = |script: &str| {
        let status = std::process::Command::new("sh").arg("-c").arg(script).current_dir(dir).status().unwrap();
        assert!(status.success(), "{script}");
    };
    let ec = "-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes";
    sh(&format!(
        "openssl req -x509 {ec} -keyout ca.key -out ca.pem -days 2 -subj '/CN=hanzo-env test CA' \
         -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null"
    ));
    sh(&format!("openssl req {ec} -keyout srv.key -out srv.csr -subj /CN=localhost 2>/dev/null"));
    std::fs::write(
        dir.join("ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    sh(
        "openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem -days 2 -extfile ext 2>/dev/null",
    );
    let _ = rustls::crypto::ring::default_provider().install_default();
    let certs: Vec<CertificateDer> =
        CertificateDer::pem_file_iter(dir.join("srv.pem")).unwrap().collect::<Result<_, _>>().unwrap();
    let key = PrivateKeyDer::from_pem_file(dir.join("srv.key")).unwrap();
    Arc::new(rustls::ServerConfig::builder().with_no_client_auth().with_single_cert(certs, key).unwrap())
}

#[test]
fn https_trusts_ca_cert_and_ssl_cert_file_roots() {
    let home = tempfile::tempdir().unwrap();
    let pki = tempfile::tempdir().unwrap();
    let server = RawServer::start_with(Some(test_pki(pki.path())), |_| http("200 OK", "", r#"{"data":[]}"#));
    let ca = pki.path().join("ca.pem");
    let r = run(hanzo_api(home.path(), &server.url, TOKEN).arg("list"));
    assert_eq!(r.code, 3, "an unknown issuer is refused: {}", r.stderr);
    assert!(r.stderr.to_lowercase().contains("certificate"), "{}", r.stderr);
    assert!(server.requests().is_empty(), "nothing was sent over an untrusted connection");
    let r = run(hanzo_api(home.path(), &server.url, TOKEN).arg("--ca-cert").arg(&ca).arg("list"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(hanzo_api(home.path(), &server.url, TOKEN).env("SSL_CERT_FILE", &ca).arg("list"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn https_proxy_is_used_as_a_tunnel_and_never_for_loopback() {
    let home = tempfile::tempdir().unwrap();
    let proxy = RawServer::start(|_| http("403 Forbidden", "", ""));
    // A host only the proxy resolves: nothing leaves this machine.
    let target = "https://api.hanzo.test:8443";
    let r = run(hanzo_api(home.path(), target, TOKEN).env("HTTPS_PROXY", &proxy.url).arg("list"));
    assert_eq!(r.code, 3, "{}", r.stderr);
    let seen = proxy.requests();
    assert!(seen.len() == 1 && seen[0].head.starts_with("CONNECT api.hanzo.test:8443 "), "{seen:?}");
    assert!(!seen[0].head.to_lowercase().contains("authorization"), "the token is not shown to the proxy");
    // The API on this machine is reached directly, proxy or not.
    let target = dead_url().replace("http://127.0.0.1", "https://localhost");
    let r = run(hanzo_api(home.path(), &target, TOKEN).env("HTTPS_PROXY", &proxy.url).arg("list"));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("could not reach"), "{}", r.stderr);
    assert_eq!(proxy.requests().len(), 1, "loopback bypassed the proxy");
}

/// Without an ETag (as the platform answers), `save` re-reads the copy just before the PUT.
#[test]
fn without_an_etag_save_rereads_updated_at_and_stops_when_it_moved() {
    for moved in [true, false] {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".hanzo")).unwrap();
        std::fs::write(home.path().join(".hanzo/environment.toml"), "repo = \"site\"\ninstall = \"npm ci\"\n").unwrap();
        let gets = Arc::new(Mutex::new(0));
        let counter = gets.clone();
        let server = RawServer::start(move |req| {
            if req.head.starts_with("PUT ") {
                return http("200 OK", "", r#"{"repo":"site","install":"npm ci","state":"ready"}"#);
            }
            let mut n = counter.lock().unwrap();
            *n += 1;
            let (install, at) =
                if moved && *n > 1 { ("make", "2026-02-02T00:00:00Z") } else { ("", "2026-01-01T00:00:00Z") };
            http(
                "200 OK",
                "",
                &format!(r#"{{"repo":"site","install":"{install}","state":"ready","updatedAt":"{at}"}}"#),
            )
        });
        let r = run(hanzo_api(home.path(), &server.url, TOKEN).args(["save", "--yes"]));
        let puts: Vec<Seen> = server.requests().into_iter().filter(|s| s.head.starts_with("PUT ")).collect();
        assert_eq!(*gets.lock().unwrap(), 2, "the diff's read and the re-read just before the PUT");
        if moved {
            assert_eq!(r.code, 5, "{}", r.stderr);
            assert!(r.stderr.contains("changed since the diff you confirmed"), "{}", r.stderr);
            assert!(
                r.stderr.contains("install changed, updated 2026-01-01T00:00:00Z → 2026-02-02T00:00:00Z"),
                "{}",
                r.stderr
            );
            assert!(puts.is_empty(), "nothing overwritten");
        } else {
            assert_eq!(r.code, 0, "{}", r.stderr);
            assert_eq!(puts.len(), 1);
            assert!(!puts[0].head.to_ascii_lowercase().contains("if-match"), "{}", puts[0].head);
            assert_eq!(
                serde_json::from_slice::<serde_json::Value>(&puts[0].body).unwrap(),
                serde_json::json!({"install": "npm ci", "start": ""})
            );
        }
    }
}
