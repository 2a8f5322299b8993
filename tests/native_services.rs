//! The install and start `detect` drafts for compose files with postgres and redis, and with
//! mysql and mariadb, run for real where Docker cannot run them: install finds the
//! distribution's packages, start brings the servers up as daemons configured from the
//! compose file, and a client connects as the tests would (psql or mariadb with the compose
//! password over TCP on the published port, `redis-cli ping`); a second start does nearly
//! nothing; no password is ever in a process's argv.
//!
//! Needs a Debian or Ubuntu machine where it may start servers (root or passwordless sudo)
//! and the packages installed beforehand (`.ci/run` installs them): nothing is downloaded.
//! The tests are `#[ignore]`d: a plain `cargo test` says so instead of passing without them;
//! `.ci/run` runs them (`--include-ignored`), and a run on a machine that cannot fails and
//! says why. The servers it starts are stopped (and the cluster dropped) when it ends,
//! whether it passes or not.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{copy_tree, fixture, hanzo_env, run};

const FIXTURE: &str = "detect/compose-postgres-redis";
/// The compose file's published ports (each moved to a free port in the test's copy) and
/// credentials (`$$` is compose's `$`).
const PG_PORT: u16 = 55433;
const REDIS_PORT: u16 = 56380;
const PASSWORD: &str = "it's a $ecret";

/// `CMD…` as root: directly when we are root, else through `sudo -n`.
fn as_root(args: &[&str]) -> Command {
    let root = unsafe { libc::geteuid() } == 0;
    let mut cmd = Command::new(if root { args[0] } else { "sudo" });
    if root {
        cmd.args(&args[1..]);
    } else {
        cmd.arg("-n").args(args);
    }
    cmd
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
}

/// Why this machine cannot run the test, if it cannot.
fn unable() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return Some("not Linux".into());
    }
    if !on_path("apt-get") {
        return Some("no apt-get: not Debian or Ubuntu".into());
    }
    if !as_root(&["true"]).output().is_ok_and(|o| o.status.success()) {
        return Some("neither root nor passwordless sudo".into());
    }
    let missing: Vec<&str> = ["pg_ctlcluster", "pg_lsclusters", "psql", "redis-server", "redis-cli"]
        .into_iter()
        .filter(|tool| !on_path(tool) && !Path::new("/usr/sbin").join(tool).is_file())
        .collect();
    (!missing.is_empty()).then(|| format!("{missing:?} missing: install postgresql and redis-server (.ci/run does)"))
}

fn port_answers(port: u16) -> bool {
    std::net::TcpStream::connect_timeout(&([127, 0, 0, 1], port).into(), Duration::from_secs(1)).is_ok()
}

/// Stops what the start brought up — the postgres cluster on the port (dropped when the
/// start made it) and the redis server — when the test ends, however it ends.
struct StopServers {
    pg: u16,
    redis: u16,
}

impl Drop for StopServers {
    fn drop(&mut self) {
        if let Ok(out) = Command::new("pg_lsclusters").arg("-h").output() {
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                let fields: Vec<&str> = line.split_whitespace().collect();
                if let [version, name, port, ..] = fields.as_slice()
                    && *port == self.pg.to_string()
                {
                    let action: &[&str] = if name.starts_with("hanzo") {
                        &["pg_dropcluster", "--stop", version, name]
                    } else {
                        &["pg_ctlcluster", version, name, "stop"]
                    };
                    let _ = as_root(action).output();
                }
            }
        }
        let pid_file = format!("/tmp/hanzo-env-redis-{}.pid", self.redis);
        if let Ok(pid) = std::fs::read_to_string(&pid_file) {
            let pid = pid.trim();
            let _ = as_root(&["kill", pid]).output();
            // It logs its exit: wait for it before removing the log.
            let gone = Instant::now() + Duration::from_secs(10);
            while Path::new("/proc").join(pid).exists() && Instant::now() < gone {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let log_file = format!("/tmp/hanzo-env-redis-{}.log", self.redis);
        let _ = as_root(&["rm", "-f", &pid_file, &log_file]).output();
    }
}

/// A directory whose `docker` and `docker-compose` fail (no daemon, as in many sandboxes)
/// and whose `apt-get` records that it was called (nothing may download here).
fn without_docker(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (tool, body) in [
        ("docker", "echo 'Cannot connect to the Docker daemon' >&2; exit 1"),
        ("docker-compose", "exit 1"),
        ("apt-get", &format!("echo \"apt-get $*\" >> {}; exit 1", dir.join("apt-get.log").display())),
    ] {
        let path = bin.join(tool);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    bin
}

/// `script` with bash and `flags` from `cwd`, the fake tools first on PATH, under a time limit.
fn bash(flags: &[&str], script: &str, cwd: &Path, bin: &Path, limit: Duration) -> (Output, Duration) {
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let began = Instant::now();
    let out = Command::new("timeout")
        .arg(limit.as_secs().to_string())
        .arg("bash")
        .args(flags)
        .arg("-c")
        .arg(script)
        .current_dir(cwd)
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (out, began.elapsed())
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn psql(port: u16, password: &str) -> Output {
    Command::new("psql")
        .args(["-X", "-tA", "-h", "127.0.0.1", "-p", &port.to_string(), "-U", "shop", "-d", "shop_test"])
        .args(["-c", "SELECT current_user || ' ' || current_database()"])
        .env("PGPASSWORD", password)
        .env("PGCONNECT_TIMEOUT", "5")
        .output()
        .unwrap()
}

/// Every process's command line, as /proc shows it to anyone on the machine.
fn command_lines() -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().chars().all(|c| c.is_ascii_digit()))
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|bytes| String::from_utf8_lossy(&bytes).replace('\0', " "))
        .collect()
}

/// Fail, saying why, when the machine cannot run the test (`reason`): the test was asked for.
fn require(reason: Option<String>) {
    if let Some(reason) = reason {
        panic!("cannot run the services without Docker here: {reason}");
    }
}

/// The draft detect makes for a copy of `fixture`, with a PATH whose Docker cannot run.
struct Draft {
    scratch: tempfile::TempDir,
    checkout: PathBuf,
    install: String,
    start: String,
    bin: PathBuf,
}

/// The draft for a copy of `fixture_name` whose compose file publishes each of `fixture_ports`
/// on a free port instead; those ports, in the same order.
fn draft_without_docker(fixture_name: &str, fixture_ports: &[u16]) -> (Draft, Vec<u16>) {
    let scratch = tempfile::tempdir().unwrap();
    let checkout = scratch.path().join("checkout");
    copy_tree(&fixture(fixture_name), &checkout);
    // All listeners held until every port is chosen, so that no two are the same.
    let listeners: Vec<(std::net::TcpListener, u16)> = fixture_ports.iter().map(|_| common::free_port()).collect();
    let ports: Vec<u16> = listeners.iter().map(|(_, port)| *port).collect();
    drop(listeners);
    let compose = checkout.join("compose.yaml");
    let mut text = std::fs::read_to_string(&compose).unwrap();
    for (i, old) in fixture_ports.iter().enumerate() {
        assert_eq!(text.matches(&format!("{old}:")).count(), 1, "{old} is published once in {fixture_name}");
        text = text.replace(&format!("{old}:"), &format!("\u{0}{i}\u{0}:"));
    }
    for (i, port) in ports.iter().enumerate() {
        text = text.replace(&format!("\u{0}{i}\u{0}:"), &format!("{port}:"));
    }
    std::fs::write(&compose, text).unwrap();
    for port in &ports {
        assert!(!port_answers(*port), "port {port} was free a moment ago");
    }
    let home = tempfile::tempdir().unwrap();
    let detected = run(hanzo_env(home.path(), &checkout).args(["detect", "--json", "."]));
    assert_eq!(detected.code, 0, "{}", detected.stderr);
    let draft: serde_json::Value = serde_json::from_str(&detected.stdout).unwrap();
    // As the sandbox runs them: with their helpers' text.
    let text = |key: &str| hanzo_env::plan::block::expand(draft[key].as_str().unwrap()).unwrap();
    let bin = without_docker(scratch.path());
    (Draft { install: text("install"), start: text("start"), bin, checkout, scratch }, ports)
}

#[test]
#[ignore = "starts PostgreSQL and Redis as root from the distribution's packages; .ci/run installs them and runs it"]
fn postgres_and_redis_start_from_the_distribution_packages_without_docker() {
    require(unable());
    let (Draft { scratch, checkout, install, start, bin }, ports) =
        draft_without_docker(FIXTURE, &[PG_PORT, REDIS_PORT]);
    let (install, start) = (install.as_str(), start.as_str());
    let (pg, redis) = (ports[0], ports[1]);

    let _stop = StopServers { pg, redis };
    let (out, _) = bash(&["-euo", "pipefail"], install, &checkout, &bin, Duration::from_secs(300));
    assert!(out.status.success(), "install failed:\n{}", text(&out));
    assert!(!scratch.path().join("apt-get.log").exists(), "install called apt-get with the packages present");

    // As verify runs it: `bash -eo pipefail`; it must return, with both servers up.
    let (out, took) = bash(&["-eo", "pipefail"], start, &checkout, &bin, Duration::from_secs(180));
    assert!(out.status.success(), "start failed after {took:?}:\n{}", text(&out));

    let out = psql(pg, PASSWORD);
    assert!(out.status.success(), "psql with the compose password:\n{}", text(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "shop shop_test");
    let out = psql(pg, "wrong");
    assert!(!out.status.success(), "a wrong password must be refused:\n{}", text(&out));
    assert!(text(&out).contains("password authentication failed"), "{}", text(&out));
    let out = Command::new("redis-cli").args(["-p", &redis.to_string(), "ping"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "PONG", "{}", text(&out));

    let exposed: Vec<String> = command_lines().into_iter().filter(|line| line.contains("$ecret")).collect();
    assert!(exposed.is_empty(), "the password is in a process's argv: {exposed:?}");

    // A second start, as a plain `bash -c`, finds both servers running and leaves them be.
    let (out, took) = bash(&[], start, &checkout, &bin, Duration::from_secs(60));
    assert!(out.status.success(), "second start:\n{}", text(&out));
    assert!(took < Duration::from_secs(10), "a second start should do almost nothing, took {took:?}");
    assert!(psql(pg, PASSWORD).status.success());
}

const MYSQL_FIXTURE: &str = "detect/compose-mysql-mariadb";
const MYSQL_PORT: u16 = 53306;
const MARIADB_PORT: u16 = 53307;
/// What the draft's start writes for MariaDB (removed again when the test ends).
const MARIADB_CONFIG: &str = "/etc/mysql/mariadb.conf.d/99-hanzo-env.cnf";

/// Why this machine cannot run the MySQL test, if it cannot.
fn unable_mysql() -> Option<String> {
    if !cfg!(target_os = "linux") || !on_path("apt-get") {
        return Some("not Debian or Ubuntu on Linux".into());
    }
    if !as_root(&["true"]).output().is_ok_and(|o| o.status.success()) {
        return Some("neither root nor passwordless sudo".into());
    }
    if !on_path("mariadb") || !Path::new("/etc/init.d/mariadb").exists() {
        return Some("mariadb-server is not installed (.ci/run installs it)".into());
    }
    None
}

/// Stops the MariaDB server the start brought up and removes its configuration.
struct StopMariadb;

impl Drop for StopMariadb {
    fn drop(&mut self) {
        let _ = as_root(&["/etc/init.d/mariadb", "stop"]).output();
        let _ = as_root(&["rm", "-f", MARIADB_CONFIG]).output();
    }
}

/// `user@host port database` as the server sees a TCP login on `port`.
fn mariadb(port: u16, user: &str, password: &str, database: &str) -> Output {
    Command::new("mariadb")
        .args(["-h", "127.0.0.1", "-P", &port.to_string(), "-u", user, "-D", database, "--connect-timeout=5"])
        .args(["-N", "-B", "-e", "SELECT CURRENT_USER(), @@port, DATABASE()"])
        .env("MYSQL_PWD", password)
        .output()
        .unwrap()
}

#[test]
#[ignore = "reconfigures and starts MariaDB as root from the distribution's packages; .ci/run installs it and runs it"]
fn mysql_and_mariadb_share_one_server_on_two_ports_without_docker() {
    require(unable_mysql());
    // The test reconfigures the machine's one MariaDB server: one already running is stopped
    // under CI (a machine of its own), and left alone elsewhere.
    if as_root(&["mariadb", "-e", ""]).output().is_ok_and(|o| o.status.success()) {
        if std::env::var_os("CI").is_none_or(|v| v.is_empty()) {
            panic!("a MariaDB server already runs here and the test would reconfigure it: stop it first");
        }
        assert!(as_root(&["/etc/init.d/mariadb", "stop"]).status().unwrap().success(), "stopping MariaDB");
    }
    let (Draft { scratch: _scratch, checkout, install, start, bin }, ports) =
        draft_without_docker(MYSQL_FIXTURE, &[MYSQL_PORT, MARIADB_PORT]);
    let (install, start) = (install.as_str(), start.as_str());
    let (mysql_port, mariadb_port) = (ports[0], ports[1]);

    let _stop = StopMariadb;
    let (out, _) = bash(&["-euo", "pipefail"], install, &checkout, &bin, Duration::from_secs(300));
    assert!(out.status.success(), "install failed:\n{}", text(&out));
    let (out, took) = bash(&["-eo", "pipefail"], start, &checkout, &bin, Duration::from_secs(180));
    assert!(out.status.success(), "start failed after {took:?}:\n{}", text(&out));

    // Each service's own account and database, each on its published port.
    let out = mariadb(mysql_port, "orm", "it's a m$rker", "orm_test");
    assert!(out.status.success(), "the mysql service's user:\n{}", text(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("orm@%\t{mysql_port}\torm_test"));
    // `@@port` is the server's main port: the second one is its `extra_port`.
    let out = mariadb(mariadb_port, "maria", "maria's pw", "orm_maria");
    assert!(out.status.success(), "the mariadb service's user on its own port:\n{}", text(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("maria@%\t{mysql_port}\torm_maria"));
    assert!(mariadb(mariadb_port, "root", "root's pw", "orm_test").status.success(), "root over TCP");
    assert!(!mariadb(mysql_port, "orm", "wrong", "orm_test").status.success(), "a wrong password is refused");

    let exposed: Vec<String> = command_lines().into_iter().filter(|line| line.contains("m$rker")).collect();
    assert!(exposed.is_empty(), "the password is in a process's argv: {exposed:?}");

    // A second start finds both ports answering and leaves the server be.
    let (out, took) = bash(&[], start, &checkout, &bin, Duration::from_secs(60));
    assert!(out.status.success(), "second start:\n{}", text(&out));
    assert!(took < Duration::from_secs(10), "a second start should do almost nothing, took {took:?}");
    assert!(mariadb(mariadb_port, "maria", "maria's pw", "orm_maria").status.success());
}
