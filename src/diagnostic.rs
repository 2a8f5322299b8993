//! Exit codes (DESIGN.md §4) and what an error knows about how it ends the process.
//!
//! A leaf: domain modules raise their own `thiserror` types and implement [`Diagnostic`] for
//! them, importing nothing else of the crate for it. The map from an error chain to its
//! exit code lives above the domain, in [`crate::report`].

use std::fmt;

/// Process exit codes, as documented in README.md and the man page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Success.
    Ok = 0,
    /// Differences found (`diff --exit-code`), drift found (`detect --check`).
    Differences = 1,
    /// Usage, bad input or any other local error.
    Local = 2,
    /// An error from the server or the network, after retries.
    Remote = 3,
    /// Authentication needed.
    Auth = 4,
    /// Conflict: the server copy moved.
    Conflict = 5,
    /// Interrupted (Ctrl-C).
    Interrupted = 130,
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit as u8)
    }
}

/// What an error type knows about how it should end the process.
pub trait Diagnostic: std::error::Error + Send + Sync + 'static {
    fn exit(&self) -> Exit {
        Exit::Local
    }
    /// One line that tells the user how to fix it, printed as `hint: …`.
    fn hint(&self) -> Option<String> {
        None
    }
}

/// A plain error raised by a command: message, hint and exit code, nothing else.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub hint: Option<String>,
    pub exit: Exit,
}

impl Failure {
    pub fn new(message: impl Into<String>) -> Self {
        Failure { message: message.into(), hint: None, exit: Exit::Local }
    }
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
    pub fn exit(mut self, exit: Exit) -> Self {
        self.exit = exit;
        self
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

impl Diagnostic for Failure {
    fn exit(&self) -> Exit {
        self.exit
    }
    fn hint(&self) -> Option<String> {
        self.hint.clone()
    }
}
