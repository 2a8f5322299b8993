//! `env-file`: the environment written as a file another tool sources, values quoted verbatim.

use super::*;

/// Values that quoting gets wrong easily; given through host variables so that the file
/// holds them verbatim.
const AWKWARD: &[&str] = &[
    "it's \"quoted\"",
    "multi\nline\nvalue",
    "$HOME ${HOME} $(id) `id` $$",
    "a=b=c",
    "ends with backslash\\",
    "a\\'b",
    "#hash x #y",
    "é ünïcödé 🚀",
    " padded ",
    "",
];

#[test]
fn env_file_is_private_and_reads_back_exactly_in_bash_and_dotenvy() {
    let mut toml = String::from("[env]\n");
    let mut vars: Vec<(String, String)> = Vec::new();
    for (i, value) in AWKWARD.iter().enumerate() {
        toml.push_str(&format!("V{i} = \"${{HOST_V{i}}}\"\n"));
        vars.push((format!("HOST_V{i}"), value.to_string()));
    }
    let sandbox = Sandbox::new(&toml);
    let out_path = sandbox.tmp.join("run.env");
    // A permissive umask must not widen the file's mode.
    let out = Command::new("sh")
        .args(["-c", &format!("umask 000; exec {BIN} env-file --out {}", out_path.display())])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &sandbox.home)
        .envs(vars.iter().map(|(k, v)| (k, v)))
        .current_dir(&sandbox.repo)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty() && AWKWARD.iter().filter(|v| v.len() > 3).all(|v| !text(&out.stderr).contains(v)));
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&out_path).unwrap().permissions().mode() & 0o777, 0o600);

    let parsed: Vec<(String, String)> =
        dotenvy::from_path_iter(&out_path).unwrap().collect::<Result<_, _>>().expect("dotenvy reads the file");
    for (i, value) in AWKWARD.iter().enumerate() {
        assert_eq!(parsed[i], (format!("V{i}"), value.to_string()), "dotenvy, {value:?}");
        let bash = Command::new("bash")
            .args(["-c", &format!("source \"$1\" && printf %s \"$V{i}\""), "bash"])
            .arg(&out_path)
            .env_clear()
            .output()
            .unwrap();
        assert!(bash.status.success(), "{}", text(&bash.stderr));
        assert_eq!(text(&bash.stdout), *value, "bash source, {value:?}");
    }
}

/// With strace available (not on every CI machine), check the file is created 0600 by the
/// open call itself and never chmod-ed: there is no moment where others could read it.
#[test]
fn env_file_is_created_with_mode_0600() {
    if Command::new("strace").arg("-V").output().is_err() {
        common::cannot_run_here("strace is not installed (the mode is still checked after the fact elsewhere)");
        return;
    }
    let sandbox = Sandbox::new("[env]\nA = \"1\"\n");
    let trace = sandbox.tmp.join("trace.txt");
    let out_path = sandbox.tmp.join("run.env");
    let out = Command::new("strace")
        .args(["-f", "-e", "trace=open,openat,creat,chmod,fchmod,fchmodat", "-o"])
        .arg(&trace)
        .arg(BIN)
        .args(["env-file", "--out"])
        .arg(&out_path)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &sandbox.home)
        .current_dir(&sandbox.repo)
        .output()
        .unwrap();
    if !out.status.success() && text(&out.stderr).contains("ptrace") {
        common::cannot_run_here(&format!("strace cannot trace here: {}", text(&out.stderr)));
        return;
    }
    assert!(out.status.success(), "{}", text(&out.stderr));
    let trace = std::fs::read_to_string(trace).unwrap();
    let creations: Vec<&str> = trace.lines().filter(|l| l.contains(".hanzo-tmp-") && l.contains("O_CREAT")).collect();
    assert_eq!(creations.len(), 1, "{trace}");
    assert!(creations[0].contains("0600"), "{}", creations[0]);
    assert!(!trace.lines().any(|l| l.contains("chmod")), "no chmod after the fact:\n{trace}");
}

#[test]
fn env_file_refuses_a_path_git_would_commit() {
    let sandbox = Sandbox::new("[env]\nA = \"1\"\n");
    let git_ok =
        Command::new("git").args(["init", "-q"]).current_dir(&sandbox.repo).status().is_ok_and(|s| s.success());
    if !git_ok {
        common::cannot_run_here("git is not installed: there is no checkout to refuse a path of");
        return;
    }
    let out = sandbox.output(&["env-file", "--out", "run.env"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("warning:") && stderr.contains("--force") && stderr.contains(".gitignore"), "{stderr}");
    assert!(!sandbox.repo.join("run.env").exists());

    let forced = sandbox.output(&["env-file", "--out", "run.env", "--force"], &[]);
    assert!(forced.status.success(), "{}", text(&forced.stderr));

    std::fs::write(sandbox.repo.join(".gitignore"), ".hanzo/*.env\n").unwrap();
    let ignored = sandbox.output(&["env-file", "--out", ".hanzo/run.env"], &[]);
    assert!(ignored.status.success(), "{}", text(&ignored.stderr));
}

#[test]
fn env_file_does_not_replace_a_file_it_did_not_write() {
    let sandbox = Sandbox::new("[env]\nA = \"1\"\n");
    let target = sandbox.tmp.join("profile");
    std::fs::write(&target, "export PS1='$ '\n").unwrap();
    let out = sandbox.output(&["env-file", "--out", target.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "export PS1='$ '\n");
    let again = sandbox.tmp.join("run.env");
    for _ in 0..2 {
        let out = sandbox.output(&["env-file", "--out", again.to_str().unwrap()], &[]);
        assert!(out.status.success(), "its own file is replaced: {}", text(&out.stderr));
    }
}
