//! What the commands that talk to the API share: which API and org, the token, the repo,
//! the local file, and how a script difference is shown.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use console::Style;

use crate::api::client::{self, Client, RetryPolicy, Settings};
use crate::checkout;
use crate::cli::GlobalArgs;
use crate::error::Failure;
use crate::proposal::{Proposal, ProposalError};
use crate::secret::{self, TokenSource, TokenStore};
use crate::ui::Ui;

/// Every call gives up after this long (the retries of 429/5xx come on top, bounded).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// `--api-url`, else `HANZO_BASE_URL`, else the platform.
pub fn api_url(global: &GlobalArgs) -> String {
    global
        .api_url
        .clone()
        .or_else(|| std::env::var("HANZO_BASE_URL").ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| client::DEFAULT_BASE_URL.to_string())
}

/// The API URL in the one spelling tokens are stored under.
pub fn api_key(global: &GlobalArgs) -> anyhow::Result<String> {
    Ok(client::parse_base_url(&api_url(global))?.to_string())
}

/// `--org`, else `HANZO_ORG_ID`.
pub fn org(global: &GlobalArgs) -> Option<String> {
    global.org.clone().or_else(|| std::env::var("HANZO_ORG_ID").ok()).filter(|v| !v.is_empty())
}

/// A client for the configured API, with the token resolved in its documented order.
pub fn connect(global: &GlobalArgs, ui: &Ui) -> anyhow::Result<Client> {
    let api = api_key(global)?;
    let store = TokenStore::from_env()?;
    let (token, source) = secret::resolve_token(&store, &api)?;
    ui.debug(1, &format!("API {api}, token from {}", source.describe()));
    build_client(global, ui, token)
}

/// A client using `token` (for `login`, which checks a token before storing it).
pub fn build_client(global: &GlobalArgs, ui: &Ui, token: secrecy::SecretString) -> anyhow::Result<Client> {
    let mut ca_certs: Vec<PathBuf> = global.ca_cert.iter().cloned().collect();
    if let Some(file) = std::env::var_os("SSL_CERT_FILE").filter(|v| !v.is_empty()) {
        ca_certs.push(PathBuf::from(file));
    }
    let settings = Settings {
        base_url: api_url(global),
        org: org(global),
        token,
        ca_certs,
        timeout: REQUEST_TIMEOUT,
        retry: RetryPolicy::default(),
    };
    let trace_ui = ui.clone();
    Ok(Client::new(settings)?.with_trace(move |line| trace_ui.debug(1, line)))
}

/// Where the token came from, for `auth status`.
pub fn token_source(global: &GlobalArgs) -> anyhow::Result<(TokenStore, Result<TokenSource, secret::TokenError>)> {
    let api = api_key(global)?;
    let store = TokenStore::from_env()?;
    let source = secret::resolve_token(&store, &api).map(|(_, source)| source);
    Ok((store, source))
}

/// The checkout the command runs in, and its proposal file when there is one.
pub struct Checkout {
    pub root: PathBuf,
    pub file: PathBuf,
    pub local: Option<Proposal>,
}

impl Checkout {
    /// Find the checkout around the current directory; a present but invalid file is an error.
    pub fn open() -> anyhow::Result<Checkout> {
        let cwd = std::env::current_dir().context("could not read the current directory")?;
        let root = checkout::find_root(&cwd);
        let file = checkout::proposal_path(&root);
        let local = match Proposal::load(&file) {
            Ok(p) => Some(p),
            Err(ProposalError::Missing { .. }) => None,
            Err(e) => return Err(e.into()),
        };
        Ok(Checkout { root, file, local })
    }

    /// The local proposal, or the "run detect" error.
    pub fn require_local(&self) -> anyhow::Result<&Proposal> {
        self.local.as_ref().ok_or_else(|| ProposalError::Missing { path: self.file.clone() }.into())
    }

    /// `--repo`, then the file's `repo`, then the git remote's repo name or the folder name.
    pub fn repo(&self, global: &GlobalArgs) -> anyhow::Result<String> {
        let repo = global
            .repo
            .clone()
            .or_else(|| self.local.as_ref().and_then(|p| p.repo.clone()))
            .unwrap_or_else(|| checkout::default_repo_name(&self.root));
        check_repo_name(&repo)?;
        Ok(repo)
    }
}

/// A repo is one name inside the org, never `owner/name`.
pub fn check_repo_name(repo: &str) -> anyhow::Result<()> {
    if repo.trim().is_empty() {
        return Err(Failure::new("the repo name is empty").hint("pass --repo NAME").into());
    }
    if let Some((_, name)) = repo.rsplit_once('/') {
        return Err(Failure::new(format!("repo `{repo}` has a `/`: a repo is a name inside the org"))
            .hint(format!("pass --repo {name} (and --org for the org)"))
            .into());
    }
    if repo.chars().any(char::is_control) {
        return Err(Failure::new("the repo name has control characters").hint("pass --repo NAME").into());
    }
    Ok(())
}

/// A unified diff of `old` → `new`, coloured for a terminal; `None` when they are equal.
pub fn unified(ui: &Ui, old_label: &str, new_label: &str, old: &str, new: &str) -> Option<String> {
    if old == new {
        return None;
    }
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff.unified_diff().context_radius(3).header(old_label, new_label).to_string();
    if !ui.color() {
        return Some(text);
    }
    let painted: Vec<String> = text
        .lines()
        .map(|line| {
            let style = if line.starts_with("+++") || line.starts_with("---") {
                Style::new().bold()
            } else if line.starts_with('+') {
                Style::new().green()
            } else if line.starts_with('-') {
                Style::new().red()
            } else if line.starts_with("@@") {
                Style::new().cyan()
            } else {
                return line.to_string();
            };
            ui.paint(style, line)
        })
        .collect();
    Some(painted.join("\n") + "\n")
}

/// Names in `a` that are not in `b`, in `a`'s order.
pub fn missing_from(a: &[String], b: &[String]) -> Vec<String> {
    a.iter().filter(|n| !b.contains(n)).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_names_are_single_segments() {
        assert!(check_repo_name("site").is_ok());
        assert!(check_repo_name("my site.v2").is_ok());
        let err = check_repo_name("acme/site").unwrap_err();
        assert_eq!(crate::error::Report::of(&err).hint.as_deref(), Some("pass --repo site (and --org for the org)"));
        assert!(check_repo_name("").is_err());
    }

    #[test]
    fn unified_diff_shows_changed_lines() {
        let ui = Ui::plain();
        assert_eq!(unified(&ui, "a", "b", "x\n", "x\n"), None);
        let text = unified(&ui, "saved/install", "local/install", "npm ci\n", "npm ci\necho changed\n").unwrap();
        assert!(text.contains("--- saved/install") && text.contains("+echo changed"), "{text}");
    }
}
