use std::net::Ipv4Addr;

use super::diagnosis::{missing_command, untrusted_certificate_hint};
use super::*;

#[test]
fn ports_are_waited_for_with_a_bound() {
    let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    assert!(wait_for_port(port, Instant::now() + Duration::from_secs(2)).is_ok());
    drop(listener);
    let began = Instant::now();
    assert!(wait_for_port(port, Instant::now() + Duration::from_millis(600)).is_err());
    assert!(began.elapsed() < Duration::from_secs(3));
}

#[test]
fn missing_commands_are_read_from_each_shells_message() {
    assert_eq!(missing_command("/tmp/x/steps/install.sh: line 3: poetry: command not found"), Some("poetry"));
    assert_eq!(missing_command("sh: 1: jest: not found"), Some("jest"));
    assert_eq!(missing_command("/usr/bin/env: ‘node’: No such file or directory"), Some("node"));
    assert_eq!(missing_command("env: 'python': No such file or directory"), Some("python"));
    assert_eq!(missing_command("make: uv: No such file or directory"), Some("uv"));
    assert_eq!(missing_command("cat: input.txt: No such file or directory"), None);
    assert_eq!(missing_command("all good"), None);
    let hint = missing_command_hint(&["noise".into(), "bash: line 1: uv: command not found".into()]);
    assert!(hint.starts_with("`uv` is not installed here"), "{hint}");
}

#[test]
fn network_trouble_is_read_from_the_steps_that_did_not_pass() {
    let step = |status: Status, tail: &[&str]| StepReport {
        step: "install".into(),
        command: "npm ci".into(),
        status,
        duration: Duration::ZERO,
        exit_code: Some(1),
        log: None,
        failed_line: None,
        tail: tail.iter().map(|l| l.to_string()).collect(),
        hint: None,
        blocked_by: Vec::new(),
    };
    let report = |steps: Vec<StepReport>, interrupted_by: Option<i32>| Report {
        ok: false,
        scratch: PathBuf::new(),
        kept: Kept::None,
        files_copied: 0,
        steps,
        interrupted_by,
        stopped: Vec::new(),
        warnings: Vec::new(),
    };
    let network = ["npm ERR! getaddrinfo ENOTFOUND registry.npmjs.org"];
    assert!(report(vec![step(Status::Failed, &network)], None).shows_network_trouble());
    assert!(report(vec![step(Status::Failed, &["SSL: CERTIFICATE_VERIFY_FAILED"])], None).shows_network_trouble());
    assert!(!report(vec![step(Status::Failed, &["AssertionError: 2 != 3"])], None).shows_network_trouble());
    assert!(!report(vec![step(Status::Passed, &network)], None).shows_network_trouble(), "a pass is no trouble");
    assert!(!report(vec![step(Status::Failed, &network)], Some(2)).shows_network_trouble(), "Ctrl-C");
}

#[test]
fn untrusted_certificates_name_the_variables_that_carry_a_ca() {
    let uv = ["  cause: invalid peer certificate: UnknownIssuer".to_string()];
    assert!(untrusted_certificate_hint(&uv).is_some_and(|h| h.contains("set SSL_CERT_FILE")));
    let npm = ["npm error code SELF_SIGNED_CERT_IN_CHAIN".to_string()];
    assert!(untrusted_certificate_hint(&npm).is_some());
    assert_eq!(untrusted_certificate_hint(&["FAILED tests/test_x.py::test_y".to_string()]), None);
}

#[test]
fn known_services_have_ports() {
    assert_eq!(default_port("postgres"), Some(5432));
    assert_eq!(default_port("redis"), Some(6379));
    assert_eq!(default_port("mysql"), Some(3306));
    assert_eq!(default_port("some-app"), None);
}

#[test]
fn published_ports_win_over_defaults() {
    assert_eq!(service_port("postgres", &["5433:5432".into()]), Some(5433));
    assert_eq!(service_port("redis", &["16379:6379".into(), "8001:8001".into()]), Some(16379));
    assert_eq!(service_port("redis", &[]), Some(6379));
    assert_eq!(service_port("some-app", &["8080:80".into()]), Some(8080));
    assert_eq!(service_port("some-app", &[]), None);
}

#[test]
fn durations_read_well() {
    assert_eq!(short_duration(Duration::from_millis(1234)), "1.2s");
    assert_eq!(short_duration(Duration::from_secs(123)), "2m03s");
    assert_eq!(short_duration(Duration::from_secs(3720)), "1h02m");
}
