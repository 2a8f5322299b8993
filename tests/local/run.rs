//! `run`: a command under the environment, its secrets given to the child only.

use super::*;

#[test]
fn run_gives_values_through_the_environment_and_never_on_any_argv() {
    let secret = distinctive("RUN-SECRET");
    let sandbox = Sandbox::new("[env]\nTOKEN = \"${HOST_TOKEN}\"\nMODE = \"test\"\n");
    let out_file = sandbox.repo.join("seen.txt");
    let mut child = sandbox
        .cmd()
        .env("HOST_TOKEN", &secret)
        .args(["run", "--", "sh", "-c", "printf '%s|%s' \"$TOKEN\" \"$MODE\" > seen.txt; sleep 3"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("the child to start", Duration::from_secs(10), || out_file.exists());
    let hits = processes_with_argv_containing(secret.as_bytes());
    let status = child.wait().unwrap();
    assert!(status.success());
    assert_eq!(hits, Vec::<String>::new(), "the value is on an argv");
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), format!("{secret}|test"));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!stderr.contains(&secret));
}

#[test]
fn run_starts_from_a_clean_environment() {
    let sandbox = Sandbox::new("[env]\nA = \"1\"\n");
    let out = sandbox.output(
        &["run", "--pass", "KEEP_ME", "--", "env"],
        &[("LANG", "C.UTF-8"), ("KEEP_ME", "yes"), ("DROP_ME", "no"), ("AWS_SECRET_ACCESS_KEY", "leak")],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut names: Vec<String> =
        text(&out.stdout).lines().filter_map(|l| l.split_once('=')).map(|(k, _)| k.to_string()).collect();
    names.sort();
    assert_eq!(names, ["A", "HOME", "KEEP_ME", "LANG", "PATH"]);
}

#[test]
fn run_exits_with_the_childs_status() {
    let sandbox = Sandbox::new("");
    assert_eq!(sandbox.output(&["run", "--", "sh", "-c", "exit 7"], &[]).status.code(), Some(7));
    assert_eq!(sandbox.output(&["run", "--", "sh", "-c", "kill -TERM $$"], &[]).status.code(), Some(143));
    let missing = sandbox.output(&["run", "--", "no-such-command-hanzo"], &[]);
    assert_eq!(missing.status.code(), Some(127));
    let stderr = text(&missing.stderr);
    assert!(stderr.contains("command not found: no-such-command-hanzo") && stderr.contains("hint:"), "{stderr}");
}

#[test]
fn run_forwards_sigterm_to_the_child() {
    let sandbox = Sandbox::new("");
    let mut child = sandbox
        .cmd()
        .args([
            "run",
            "--",
            "sh",
            "-c",
            "trap 'echo got-term > term.txt; exit 0' TERM; touch ready; while :; do sleep 0.05; done",
        ])
        .spawn()
        .unwrap();
    wait_until("the child to be ready", Duration::from_secs(10), || sandbox.repo.join("ready").exists());
    unsafe_kill(child.id(), libc::SIGTERM);
    let status = child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(sandbox.repo.join("term.txt")).unwrap().trim(), "got-term");
    assert_eq!(status.code(), Some(0), "hanzo-env exits with the child's status");
}

#[test]
fn run_refuses_unresolvable_entries_and_runs_nothing() {
    let sandbox = Sandbox::new("[env]\nDB = \"postgres://${DB_HOST}/app\"\nASK = \"?prompt\"\n");
    let out = sandbox.output(&["--no-input", "run", "--", "touch", "ran"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("DB") && stderr.contains("DB_HOST") && stderr.contains("ASK"), "{stderr}");
    assert!(!sandbox.repo.join("ran").exists(), "nothing runs when an entry fails");
}

#[test]
fn run_asks_prompts_once_without_echo_on_a_terminal() {
    let sandbox = Sandbox::new("[env]\nAPI_TOKEN = \"?prompt Your API token\"\n");
    let secret = distinctive("PROMPTED");
    let mut cmd = sandbox.cmd();
    cmd.args(["run", "--", "sh", "-c", "printf %s \"$API_TOKEN\" > seen.txt"]);
    let mut session = Session::spawn(cmd).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    session.expect("Your API token").unwrap();
    // The prompt turns echo off with TCSAFLUSH, which drops whatever was typed before it:
    // under load the answer can arrive too early, so type it again until the child runs.
    session.set_expect_timeout(Some(Duration::from_secs(2)));
    let mut attempts = 0;
    let rest = loop {
        session.send_line(&secret).unwrap();
        match session.expect(Eof) {
            Ok(rest) => break rest,
            Err(expectrl::Error::ExpectTimeout) if attempts < 10 => attempts += 1,
            Err(e) => panic!("{e}"),
        }
    };
    assert!(!text(rest.before()).contains(&secret), "the answer is not echoed");
    wait_until("the child", Duration::from_secs(10), || sandbox.repo.join("seen.txt").exists());
    wait_until("the value", Duration::from_secs(5), || {
        std::fs::read_to_string(sandbox.repo.join("seen.txt")).is_ok_and(|s| !s.is_empty())
    });
    assert_eq!(std::fs::read_to_string(sandbox.repo.join("seen.txt")).unwrap(), secret);
}
