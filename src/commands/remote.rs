//! What the commands that talk to the API share: which API and org, the token, the repo,
//! the local file, and how a script difference is shown.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use console::Style;
use secrecy::SecretString;

use crate::api::State;
use crate::api::client::{self, Client, Fetched, RetryPolicy, Settings};
pub use crate::api::missing::{Missing, NoEnvironment, closest, no_environment};
use crate::checkout;
use crate::cli::GlobalArgs;
use crate::diagnostic::Failure;
use crate::proposal::{Proposal, ProposalError};
use crate::token_store::{self, TokenError, TokenSource, TokenStore};
use crate::ui::{Ui, printable, printable_line};

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
    let (_, resolved) = resolve(global)?;
    let (token, source) = resolved?;
    ui.debug(1, &format!("API {}, token from {}", api_key(global)?, source.describe()));
    build_client(global, ui, token)
}

/// The `Ui` to colour text for stdout with, when stdout is a terminal and not JSON.
pub fn stdout_painter(ui: &Ui) -> Option<&Ui> {
    use std::io::IsTerminal;
    (!ui.json() && std::io::stdout().is_terminal()).then_some(ui)
}

/// Refuse to read a value from a terminal on stdin: it would be echoed as it is typed.
pub fn refuse_terminal_stdin(instead: &str) -> anyhow::Result<()> {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        return Err(Failure::new("stdin is a terminal: what you type there would be echoed").hint(instead).into());
    }
    Ok(())
}

/// A client using `token` (for `login`, which checks a token before storing it).
pub fn build_client(global: &GlobalArgs, ui: &Ui, token: SecretString) -> anyhow::Result<Client> {
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

/// A token and where it came from, or why there is none.
pub type Resolved = Result<(SecretString, TokenSource), TokenError>;

/// The token store in use, and the token with its source (or why there is none).
pub fn resolve(global: &GlobalArgs) -> anyhow::Result<(TokenStore, Resolved)> {
    let api = api_key(global)?;
    let store = TokenStore::from_env()?;
    let resolved = token_store::resolve_token(&store, &api);
    Ok((store, resolved))
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

    /// The file's path as the user would type it: relative to the current directory.
    pub fn shown(&self) -> String {
        let cwd = std::env::current_dir().ok().and_then(|d| std::fs::canonicalize(d).ok());
        match cwd.as_deref().and_then(|cwd| self.file.strip_prefix(cwd).ok()) {
            Some(relative) => relative.display().to_string(),
            None => self.file.display().to_string(),
        }
    }

    /// The local proposal, or the "run detect" error.
    pub fn require_local(&self) -> anyhow::Result<&Proposal> {
        self.local.as_ref().ok_or_else(|| ProposalError::Missing { path: self.file.clone() }.into())
    }

    /// Whether the local file describes `repo`: its own `repo`, or else the checkout's name.
    pub fn describes(&self, repo: &str) -> bool {
        let own =
            self.local.as_ref().and_then(|p| p.repo.clone()).unwrap_or_else(|| checkout::default_repo_name(&self.root));
        own == repo
    }

    /// The repo to read: `--repo`, then the file's `repo`, then the git remote's repo name, then
    /// the folder's name (a read of a wrong name only finds nothing). `-v` says which.
    pub fn repo(&self, global: &GlobalArgs, ui: &Ui) -> anyhow::Result<String> {
        let (repo, source) = self.repo_and_source(global)?;
        ui.debug(1, &format!("repo {} (from {})", printable_line(&repo), source.describe()));
        Ok(repo)
    }

    /// The repo to write to: as [`Checkout::repo`], but never a folder's name — `cd ~/Downloads`
    /// followed by a write must not create an environment called `Downloads`.
    pub fn repo_for_write(&self, global: &GlobalArgs, ui: &Ui) -> anyhow::Result<String> {
        let (repo, source) = self.repo_and_source(global)?;
        if source == RepoSource::Folder {
            let (missing, hint) = match &self.local {
                Some(_) => (
                    format!("{} has no `repo` and there is no git remote", self.shown()),
                    format!("pass --repo NAME, or set `repo = \"NAME\"` in {}", self.shown()),
                ),
                None => (
                    "there is no --repo, no .hanzo/environment.toml and no git remote here".to_string(),
                    "pass --repo NAME (the repo's name in the org), or run it in the repo's checkout".to_string(),
                ),
            };
            return Err(Failure::new(format!(
                "no repo named for this write: {missing}, and a folder's name (`{}`) is never used for a write",
                printable_line(&repo)
            ))
            .hint(hint)
            .into());
        }
        ui.debug(1, &format!("repo {} (from {})", printable_line(&repo), source.describe()));
        Ok(repo)
    }

    /// The repo name and where it came from (see [`RepoSource`]).
    pub fn repo_and_source(&self, global: &GlobalArgs) -> anyhow::Result<(String, RepoSource)> {
        if let Some(repo) = &global.repo {
            check_repo_name(repo)?;
            return Ok((repo.clone(), RepoSource::Flag));
        }
        if let Some(repo) = self.local.as_ref().and_then(|p| p.repo.clone()) {
            check_repo_name(&repo).with_context(|| format!("`repo` in {} is not a repo name", self.shown()))?;
            return Ok((repo, RepoSource::File));
        }
        let (repo, source) = match checkout::remote_repo_name(&self.root) {
            Some(repo) => (repo, RepoSource::GitRemote),
            None => (checkout::default_repo_name(&self.root), RepoSource::Folder),
        };
        check_repo_name(&repo)?;
        Ok((repo, source))
    }
}

/// Where a command's repo name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepoSource {
    /// `--repo NAME`.
    Flag,
    /// The proposal file's `repo`.
    File,
    /// The git remote's URL (`origin`, else the first remote).
    GitRemote,
    /// The checkout folder's name: a guess, good for reads only.
    Folder,
}

impl RepoSource {
    pub fn describe(self) -> &'static str {
        match self {
            RepoSource::Flag => "--repo",
            RepoSource::File => "the file's `repo`",
            RepoSource::GitRemote => "the git remote",
            RepoSource::Folder => "the folder's name",
        }
    }
}

/// The repo's environment when the org has one under that name: something saved, a proposal
/// pending or secrets set. Otherwise exit 3 with "no environment named X", the org's closest
/// names, and a hint. The API answers a GET of any name with state "none", so the list decides.
pub fn existing(client: &Client, repo: &str, missing: Missing) -> anyhow::Result<Fetched> {
    let fetched = client.get(repo)?;
    let env = &fetched.env;
    if env.state != State::None || !env.secrets.is_empty() || env.proposal.is_some() {
        return Ok(fetched);
    }
    let known: Vec<String> = client.list()?.into_iter().map(|e| e.repo).collect();
    if known.iter().any(|name| name == repo) {
        return Ok(fetched);
    }
    Err(no_environment(repo, &known, missing).into())
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
    if repo == "." || repo == ".." {
        return Err(Failure::new(format!("`{repo}` is not a repo name")).hint("pass --repo NAME").into());
    }
    if repo.chars().any(char::is_control) {
        return Err(Failure::new("the repo name has control characters").hint("pass --repo NAME").into());
    }
    Ok(())
}

/// A unified diff of `old` → `new`, `None` when they are equal. Coloured only when `painter`
/// is given and colour is on: pass `None` when the text goes to a file, a pipe or JSON.
/// One side is the server's: control characters are shown escaped (see [`printable`]).
pub fn unified(painter: Option<&Ui>, old_label: &str, new_label: &str, old: &str, new: &str) -> Option<String> {
    if old == new {
        return None;
    }
    let diff = similar::TextDiff::from_lines(old, new);
    let raw = diff.unified_diff().context_radius(3).header(old_label, new_label).to_string();
    let text = raw.lines().map(|line| printable(line) + "\n").collect::<String>();
    let Some(ui) = painter.filter(|ui| ui.color()) else {
        return Some(text);
    };
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
        assert_eq!(crate::report::Report::of(&err).hint.as_deref(), Some("pass --repo site (and --org for the org)"));
        assert!(check_repo_name("").is_err());
        assert!(check_repo_name("..").is_err(), "would climb out of /v1/environment/");
    }

    #[test]
    fn a_bad_repo_in_the_file_names_the_file() {
        use clap::Parser;
        let global = |args: &[&str]| crate::cli::Cli::try_parse_from(args).unwrap().global;
        let local = Proposal { repo: Some("acme/site".into()), ..Proposal::default() };
        let checkout = Checkout { root: "/r".into(), file: "/r/.hanzo/environment.toml".into(), local: Some(local) };
        let ui = Ui::plain();
        let err = checkout.repo(&global(&["hanzo-env", "list"]), &ui).unwrap_err();
        let report = crate::report::Report::of(&err);
        assert!(report.messages[0].contains("`repo` in /r/.hanzo/environment.toml"), "{:?}", report.messages);
        assert_eq!(report.hint.as_deref(), Some("pass --repo site (and --org for the org)"));
        assert_eq!(checkout.repo(&global(&["hanzo-env", "--repo", "web", "list"]), &ui).unwrap(), "web");
    }

    #[test]
    fn a_folder_name_is_a_guess_for_reads_only() {
        use clap::Parser;
        let global = |args: &[&str]| crate::cli::Cli::try_parse_from(args).unwrap().global;
        let ui = Ui::plain();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("Downloads");
        std::fs::create_dir(&root).unwrap();
        let checkout = Checkout { file: root.join(".hanzo/environment.toml"), root: root.clone(), local: None };
        let plain = global(&["hanzo-env", "list"]);
        assert_eq!(checkout.repo_and_source(&plain).unwrap(), ("Downloads".to_string(), RepoSource::Folder));
        assert_eq!(checkout.repo(&plain, &ui).unwrap(), "Downloads");
        let err = checkout.repo_for_write(&plain, &ui).unwrap_err();
        assert!(crate::report::Report::of(&err).hint.unwrap().starts_with("pass --repo NAME"));
        let flagged = global(&["hanzo-env", "--repo", "site", "list"]);
        assert_eq!(checkout.repo_for_write(&flagged, &ui).unwrap(), "site");
        std::fs::create_dir(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/config"), "[remote \"origin\"]\n\turl = https://h/acme/site.git\n").unwrap();
        assert_eq!(checkout.repo_and_source(&plain).unwrap(), ("site".to_string(), RepoSource::GitRemote));
        let local = Proposal { repo: Some("web".into()), ..Proposal::default() };
        let checkout = Checkout { local: Some(local), ..checkout };
        assert_eq!(checkout.repo_and_source(&plain).unwrap(), ("web".to_string(), RepoSource::File));
    }

    #[test]
    fn unified_diff_shows_changed_lines() {
        let ui = Ui::plain();
        assert_eq!(unified(Some(&ui), "a", "b", "x\n", "x\n"), None);
        let text = unified(Some(&ui), "saved/install", "local/install", "npm ci\n", "npm ci\necho changed\n").unwrap();
        assert!(text.contains("--- saved/install") && text.contains("+echo changed"), "{text}");
    }
}
