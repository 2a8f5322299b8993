//! Secret values and the files users name: 64 KiB values, NUL bytes, and certificate, token
//! and key files that are no bounded regular files.

use super::*;

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
