//! `hanzo-env diff`: the local file against the saved copy (or the server's pending proposal).

use serde::Serialize;

use super::remote::{self, Checkout};
use crate::api::Environment;
use crate::cli::{Against, DiffArgs, GlobalArgs};
use crate::diagnostic::{Exit, Failure};
use crate::proposal::Proposal;
use crate::review::{ServerCopy, Summary};
use crate::ui::{Ui, printable_line};

/// How a comparison is shown. The first two go through the pager when stdout is a terminal
/// and the text is long (see [`Ui::page`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// `diff`, `save --dry-run`: the paragraph on stderr, the diff on stdout (a patch).
    Patch,
    /// `save`'s review before its question: both on stderr.
    Review,
    /// `save --yes`: no question follows, so no pager to quit; both on stderr.
    Log,
}

/// The local file compared with one server copy.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub repo: String,
    pub against: &'static str,
    /// Whether install or start differ (what `save` would change).
    pub different: bool,
    pub install: Option<String>,
    pub start: Option<String>,
    /// Declared in the file, not set on the server.
    pub missing_on_server: Vec<String>,
    /// Of those, the ones the file marks required (listed before its `# optional:` line).
    pub required_missing_on_server: Vec<String>,
    /// Set on the server, not declared in the file.
    pub not_declared: Vec<String>,
    pub updated_at: Option<String>,
    /// What the review's opening paragraph says (see [`Summary::paragraph`]).
    pub summary: Summary,
}

impl Comparison {
    /// Compare `local` with `env`'s saved scripts (`Against::Saved`) or its proposal; the
    /// diffs are coloured by `painter` (see [`remote::unified`]).
    pub fn new(
        painter: Option<&Ui>,
        local: &Proposal,
        env: &Environment,
        against: Against,
    ) -> anyhow::Result<Comparison> {
        let (label, install, start, secrets) = match against {
            Against::Saved => ("saved", env.install.as_str(), env.start.as_str(), &env.secrets),
            Against::Proposal => {
                let Some(p) = &env.proposal else {
                    return Err(Failure::new(format!("the server has no pending proposal for {}", env.repo))
                        .hint("compare with the saved copy: `hanzo-env diff`")
                        .into());
                };
                ("proposal", p.install.as_str(), p.start.as_str(), &p.secrets)
            }
        };
        // An unmodified helpers block reads as its one line on both sides (see `plan::block`),
        // in the diff and in the summary's step counts.
        let (install, start) = (crate::plan::block::collapse(install), crate::plan::block::collapse(start));
        let (local_install, local_start) =
            (crate::plan::block::collapse(&local.install), crate::plan::block::collapse(&local.start));
        let summary = Summary::of(
            &ServerCopy { install: &install, start: &start, secrets },
            &local_install,
            &local_start,
            &local.secrets,
        );
        let install_diff =
            remote::unified(painter, &format!("{label}/install"), "local/install", &install, &local_install);
        let start_diff = remote::unified(painter, &format!("{label}/start"), "local/start", &start, &local_start);
        Ok(Comparison {
            repo: env.repo.clone(),
            against: label,
            different: install_diff.is_some() || start_diff.is_some(),
            install: install_diff,
            start: start_diff,
            missing_on_server: remote::missing_from(&local.secrets, &env.secrets),
            required_missing_on_server: local
                .required_secrets()
                .filter(|name| !env.secrets.contains(name))
                .cloned()
                .collect(),
            not_declared: remote::missing_from(&env.secrets, &local.secrets),
            updated_at: env.updated_at.clone(),
            summary,
        })
    }

    /// The paragraph that opens the review (the server's names shown escaped).
    pub fn paragraph(&self) -> String {
        printable_line(&self.summary.paragraph(&self.repo)).into_owned()
    }

    /// The paragraph and the diff, as `shown` says (see [`Shown`]).
    pub fn show(&self, ui: &Ui, shown: Shown) {
        let diff = self.render();
        if shown != Shown::Log && ui.page(&format!("{}\n\n{diff}", self.paragraph())) {
            return;
        }
        ui.info(&self.paragraph());
        if shown == Shown::Patch {
            ui.out(&diff);
        } else {
            ui.info(diff.trim_end_matches('\n'));
        }
    }

    /// The diff text of install, then start.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for diff in [&self.install, &self.start].into_iter().flatten() {
            out.push_str(diff);
        }
        out
    }

    /// Lines about secret names, shown after the diff (the server's names shown escaped);
    /// the optional names not set only with `with_optional`.
    pub fn secret_notes(&self, with_optional: bool) -> Vec<String> {
        let mut notes = Vec::new();
        let repo = printable_line(&self.repo);
        if !self.required_missing_on_server.is_empty() {
            notes.push(format!(
                "required secrets not set on {repo}: {} (set them with `hanzo-env secret set NAME`)",
                printable_line(&self.required_missing_on_server.join(", "))
            ));
        }
        let optional: Vec<&str> = self
            .missing_on_server
            .iter()
            .filter(|name| !self.required_missing_on_server.contains(name))
            .map(String::as_str)
            .collect();
        if with_optional && !optional.is_empty() {
            notes.push(format!("optional secrets not set on {repo}: {}", printable_line(&optional.join(", "))));
        }
        if !self.not_declared.is_empty() {
            notes.push(format!(
                "secrets set on {repo} but not declared in the file: {}",
                printable_line(&self.not_declared.join(", "))
            ));
        }
        notes
    }
}

pub fn run(global: &GlobalArgs, args: &DiffArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let checkout = Checkout::open()?;
    let local = checkout.require_local()?;
    let repo = checkout.repo(global, ui)?;
    let client = remote::connect(global, ui)?;
    let fetched = client.get(&repo)?;
    let comparison = Comparison::new(remote::stdout_painter(ui), local, &fetched.env, args.against)?;
    if ui.json() {
        ui.out_json(&comparison)?;
    } else {
        if comparison.different {
            comparison.show(ui, Shown::Patch);
        } else {
            ui.info(&format!(
                "install and start match the {} copy of {repo}",
                if args.against == Against::Saved { "saved" } else { "proposed" }
            ));
        }
        for note in comparison.secret_notes(true) {
            ui.info(&note);
        }
    }
    Ok(if args.exit_code && comparison.different { Exit::Differences } else { Exit::Ok })
}
