//! The one map from an error chain to its exit code and hint, and the user-facing report.
//!
//! Domain modules implement [`Diagnostic`] for their error types; commands add `anyhow`
//! context. [`Report::of`] walks the chain and asks each cause, by downcasting to every
//! registered type, for its exit code and hint. This module sits above the domain (only
//! `lib.rs`, the `Ui` and commands use it), so no domain module imports it back; a test
//! checks that every `impl Diagnostic` in `src/` is registered here.

use crate::diagnostic::{Diagnostic, Exit, Failure};

/// Everything printed for a failed command.
#[derive(Debug)]
pub struct Report {
    /// The outermost message first, then each cause.
    pub messages: Vec<String>,
    pub hint: Option<String>,
    pub exit: Exit,
}

/// `diagnose(cause)`: the exit code and hint of `cause` when it is one of the registered
/// types (and, for the completeness test, their names).
macro_rules! registry {
    ($($ty:ty),+ $(,)?) => {
        fn diagnose(cause: &(dyn std::error::Error + 'static)) -> Option<(Exit, Option<String>)> {
            $(
                if let Some(e) = cause.downcast_ref::<$ty>() {
                    return Some((Diagnostic::exit(e), Diagnostic::hint(e)));
                }
            )+
            None
        }
        #[cfg(test)]
        const REGISTERED: &[&str] = &[$(stringify!($ty)),+];
    };
}

registry!(
    Failure,
    crate::names::NameError,
    crate::proposal::ProposalError,
    crate::fsutil::WriteError,
    crate::envfile::ResolveError,
    crate::envfile::write::UnquotableError,
    crate::verify::VerifyError,
    crate::api::client::ApiError,
    crate::secret_value::ValueError,
    crate::token_store::TokenError,
    crate::dotenv::DotenvError,
    crate::serve::ServeError,
    crate::serve::store::StoreError,
    crate::serve::seal::KeyError,
    crate::serve::auth::TokenError,
    crate::detect::repo::WalkError,
    crate::export::ExportError,
    crate::plan::block::BlockError,
    crate::api::missing::NoEnvironment,
);

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
                diagnosis = diagnose(cause);
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

    /// A type that implements `Diagnostic` but is missing above would end the process with
    /// exit 2 and no hint whatever it says: every implementation in `src/` must be registered.
    #[test]
    fn every_diagnostic_is_registered() {
        let implementation = regex::Regex::new(
            r"impl[[:space:]]+(?:crate::diagnostic::)?Diagnostic[[:space:]]+for[[:space:]]+([[:word:]]+)",
        )
        .unwrap();
        let mut stack = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src"))];
        let mut found = Vec::new();
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let module = path.strip_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/src")).unwrap().to_owned();
                    found.extend(implementation.captures_iter(&text).map(|c| (module.clone(), c[1].to_string())));
                }
            }
        }
        assert!(found.len() >= 10, "the scan found too few implementations: {found:?}");
        for (module, name) in found {
            let module = module.with_extension("").to_string_lossy().replace('/', "::").replace("::mod", "");
            // Registered by its path or a re-export of it (`crate::envfile::ResolveError` for
            // `envfile::resolve`); two types of one name (`TokenError`) stay apart by module.
            let registered = REGISTERED.iter().any(|r| {
                let r = r.replace(' ', "");
                match r.strip_prefix("crate::").and_then(|p| p.rsplit_once("::")) {
                    Some((prefix, last)) => {
                        last == name && (module == prefix || module.starts_with(&format!("{prefix}::")))
                    }
                    None => r == name && module == "diagnostic",
                }
            });
            assert!(registered, "`{name}` in src/{module} implements Diagnostic but is not in report.rs's registry");
        }
    }

    #[test]
    fn unknown_errors_are_local() {
        let err = anyhow::anyhow!("boom");
        assert_eq!(Report::of(&err).exit, Exit::Local);
    }
}
