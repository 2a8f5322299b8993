//! The one map from error kinds to exit codes (DESIGN.md §4), and the user-facing report.
//!
//! Domain modules raise their own `thiserror` types and implement [`Diagnostic`] for them;
//! commands add `anyhow` context. [`Report::of`] walks the chain, finds the first error
//! that knows its exit code and hint, and keeps every message for the `error:` lines.

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

/// Everything printed for a failed command.
#[derive(Debug)]
pub struct Report {
    /// The outermost message first, then each cause.
    pub messages: Vec<String>,
    pub hint: Option<String>,
    pub exit: Exit,
}

/// Try each registered domain error type in turn.
macro_rules! diagnose {
    ($cause:expr, $($ty:ty),+ $(,)?) => {{
        let cause: &(dyn std::error::Error + 'static) = $cause;
        let mut found: Option<(Exit, Option<String>)> = None;
        $(
            if found.is_none() {
                if let Some(e) = cause.downcast_ref::<$ty>() {
                    found = Some((Diagnostic::exit(e), Diagnostic::hint(e)));
                }
            }
        )+
        found
    }};
}

impl Report {
    pub fn of(err: &anyhow::Error) -> Report {
        let mut messages: Vec<String> = Vec::new();
        let mut diagnosis: Option<(Exit, Option<String>)> = None;
        for cause in err.chain() {
            let message = cause.to_string();
            // A cause its parent already quotes (`cannot read X: {source}`) is not repeated.
            if messages.last().is_none_or(|last| !last.ends_with(&message)) {
                messages.push(message);
            }
            if diagnosis.is_none() {
                diagnosis = diagnose!(
                    cause,
                    Failure,
                    crate::names::NameError,
                    crate::proposal::ProposalError,
                    crate::fsutil::WriteError,
                    crate::envfile::ResolveError,
                    crate::envfile::write::UnquotableError,
                    crate::verify::VerifyError,
                    crate::api::client::ApiError,
                    crate::secret::ValueError,
                    crate::secret::TokenError,
                    crate::dotenv::DotenvError,
                    crate::serve::ServeError,
                    crate::detect::repo::WalkError,
                    crate::export::ExportError,
                );
            }
            if diagnosis.is_none() && cause.downcast_ref::<std::io::Error>().is_some_and(is_interrupted) {
                diagnosis = Some((Exit::Interrupted, None));
            }
        }
        let (exit, hint) = diagnosis.unwrap_or((Exit::Local, None));
        Report { messages, hint, exit }
    }
}

fn is_interrupted(err: &std::io::Error) -> bool {
    err.kind() == std::io::ErrorKind::Interrupted
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn report_finds_the_domain_error_under_context() {
        let err: anyhow::Result<()> =
            Err(Failure::new("the server copy moved").hint("run `hanzo-env diff` again").exit(Exit::Conflict).into());
        let err = err.context("saving site").unwrap_err();
        let report = Report::of(&err);
        assert_eq!(report.exit, Exit::Conflict);
        assert_eq!(report.messages, vec!["saving site", "the server copy moved"]);
        assert_eq!(report.hint.as_deref(), Some("run `hanzo-env diff` again"));
    }

    #[test]
    fn a_cause_quoted_by_its_parent_is_shown_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("cannot read /x: {0}")]
        struct ReadFailed(#[source] std::io::Error);
        let err = anyhow::Error::new(ReadFailed(std::io::Error::other("no such file"))).context("detecting /x");
        assert_eq!(Report::of(&err).messages, vec!["detecting /x", "cannot read /x: no such file"]);
    }

    #[test]
    fn unknown_errors_are_local() {
        let err = anyhow::anyhow!("boom");
        assert_eq!(Report::of(&err).exit, Exit::Local);
    }
}
