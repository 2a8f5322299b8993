//! `verify` under output floods, processes its steps leave running, and the logs it keeps.

use super::*;

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
