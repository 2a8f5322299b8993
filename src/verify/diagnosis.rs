//! Why a step did not pass, read from its log and the services: a test blocked by a service
//! that is down, a command not found, network or TLS trouble.

use super::ports::answers;
use super::{Report, Status, StepReport};

/// A failed test while services are down is blocked by them, not failed.
pub(super) fn blame_services(report: &mut StepReport, services: &[(String, u16)]) {
    let down: Vec<&(String, u16)> = services.iter().filter(|(_, port)| !answers(*port)).collect();
    if down.is_empty() {
        return;
    }
    report.status = Status::Blocked;
    report.blocked_by = down.iter().map(|(name, _)| name.clone()).collect();
    report.hint = Some(format!(
        "blocked by {}: not answering when the test failed, so the failure says nothing about the test; \
         see the start and services steps",
        down.iter().map(|(name, port)| format!("{name} (127.0.0.1:{port})")).collect::<Vec<_>>().join(", ")
    ));
}

/// For a step that exited 127: the command the shell could not find, from the last lines
/// of its log, and what to do about it.
pub(super) fn missing_command_hint(tail: &[String]) -> String {
    match tail.iter().rev().find_map(|line| missing_command(line)) {
        Some(name) => format!(
            "`{name}` is not installed here (exit 127: command not found): make `install` install it, \
             or install it on this machine; if it is installed elsewhere, pass what finds it (e.g. --pass NVM_DIR)"
        ),
        None => "a command was not found (exit 127): make `install` install it, or install it on this machine".into(),
    }
}

/// Messages of TLS clients that met a certificate they do not trust (Python, Node, Rust,
/// curl, git): a network that re-signs TLS with its own CA.
const UNTRUSTED_CERTIFICATE: &[&str] = &[
    "CERTIFICATE_VERIFY_FAILED",
    "UnknownIssuer",
    "SELF_SIGNED_CERT_IN_CHAIN",
    "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
    "unable to get local issuer certificate",
    "self-signed certificate in certificate chain",
    "self signed certificate in certificate chain",
    "server certificate verification failed",
];

/// What clients print when the network failed them: a name not resolved, a connection
/// refused, reset or timed out, a proxy, TLS (lower case; matched against lower-cased lines).
const NETWORK_TROUBLE: &[&str] = &[
    "could not resolve host",
    "unknown host",
    "unknownhostexception",
    "name or service not known",
    "temporary failure in name resolution",
    "nodename nor servname",
    "getaddrinfo",
    "enotfound",
    "eai_again",
    "econnrefused",
    "econnreset",
    "etimedout",
    "connection refused",
    "connection reset",
    "connection timed out",
    "network is unreachable",
    "proxy",
    "ssl",
    "tls",
    "certificate",
];

impl Report {
    /// Whether a step that did not pass shows a network or TLS error in its log: only then can
    /// a proxy or CA setting that verify did not pass on be the cause.
    pub fn shows_network_trouble(&self) -> bool {
        self.interrupted_by.is_none()
            && self
                .steps
                .iter()
                .filter(|step| !step.status.ok())
                .any(|step| step.tail.iter().chain(&step.failed_line).any(|line| mentions_network_trouble(line)))
    }
}

/// Whether a line of a log tells of a network or TLS error (see [`NETWORK_TROUBLE`]).
pub(super) fn mentions_network_trouble(line: &str) -> bool {
    let line = line.to_lowercase();
    NETWORK_TROUBLE.iter().any(|m| line.contains(m))
        || UNTRUSTED_CERTIFICATE.iter().any(|m| line.contains(&m.to_lowercase()))
}

/// For a step whose log shows an untrusted certificate: the variables that would carry the
/// CA. verify passes them when they are set, so the caller's are unset or point elsewhere.
pub(super) fn untrusted_certificate_hint(tail: &[String]) -> Option<String> {
    tail.iter().any(|line| UNTRUSTED_CERTIFICATE.iter().any(|m| line.contains(m))).then(|| {
        "a TLS certificate was not trusted: if your network re-signs TLS with its own CA, set SSL_CERT_FILE \
         (and NODE_EXTRA_CA_CERTS or PIP_CERT for npm and pip) to its bundle; verify passes them when set"
            .to_string()
    })
}

/// The command a shell's "not found" message names: bash's `…: line 3: poetry: command not
/// found`, dash's `sh: 1: jest: not found`, env's `env: 'node': No such file or directory`.
pub(super) fn missing_command(line: &str) -> Option<&str> {
    let line = line.trim_end();
    let name =
        if let Some(before) = line.strip_suffix(": command not found").or_else(|| line.strip_suffix(": not found")) {
            before.rsplit(": ").next()?
        } else {
            let before = line.strip_suffix(": No such file or directory")?;
            let (program, name) = before.rsplit_once(": ")?;
            // env's and make's own words: `make: uv: No such file or directory`.
            if !(program.ends_with("env") || program.starts_with("make")) {
                return None;
            }
            name.trim_matches(['\'', '‘', '’', '"'])
        };
    let name = name.trim();
    (!name.is_empty() && !name.contains(char::is_whitespace)).then_some(name)
}
