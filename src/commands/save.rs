//! `hanzo-env save`: show the diff, confirm, PUT install/start — never over a copy that moved
//! since the diff the user confirmed.

use anyhow::Context;
use serde::Serialize;

use super::diff::{Comparison, Shown};
use super::remote::{self, Checkout};
use crate::api::Environment;
use crate::api::Scripts;
use crate::api::client::{ApiError, Client, Fetched};
use crate::cli::{Against, GlobalArgs, SaveArgs};
use crate::diagnostic::{Exit, Failure};
use crate::names::MAX_SCRIPT_BYTES;
use crate::review::Summary;
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, args: &SaveArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let checkout = Checkout::open()?;
    let local = checkout.require_local()?;
    // What is sent: the plan with the text of the helpers it calls.
    let (install, start) = crate::plan::block::runnable(&local.install, &local.start)
        .with_context(|| format!("in {}", checkout.file.display()))?;
    for (key, script) in [("install", &install), ("start", &start)] {
        if script.len() > MAX_SCRIPT_BYTES {
            return Err(Failure::new(format!(
                "`{key}` in {} is {} bytes with its helpers; the API takes at most {MAX_SCRIPT_BYTES} (16 KiB)",
                checkout.file.display(),
                script.len()
            ))
            .hint(format!("move the bulk of `{key}` into a script in the repo and call it from there"))
            .into());
        }
    }
    let repo = checkout.repo_for_write(global, ui)?;
    let client = remote::connect(global, ui)?;
    let reviewed = client.get(&repo)?;
    // The review goes to stderr (or the pager); a dry run prints the diff on stdout as its result.
    let painter = if args.dry_run { remote::stdout_painter(ui) } else { Some(ui) };
    let comparison = Comparison::new(painter, local, &reviewed.env, Against::Saved)?;
    if !comparison.different {
        ui.info(&format!("nothing to save: install and start already match the saved copy of {repo}"));
        if ui.json() {
            ui.out_json(&SaveResult::unsaved(&repo, &comparison, &reviewed))?;
        }
        notes(ui, &comparison);
        return Ok(Exit::Ok);
    }
    if args.dry_run {
        if ui.json() {
            ui.out_json(&comparison)?;
        } else {
            comparison.show(ui, Shown::Patch);
        }
        ui.info(&format!("dry run: nothing sent to {}", client.base_url()));
        return Ok(Exit::Ok);
    }
    comparison.show(ui, if args.yes { Shown::Log } else { Shown::Review });
    if !args.yes && !ui.confirm(&format!("Save install and start for {repo}?"), "--yes")? {
        ui.info("nothing saved");
        if ui.json() {
            ui.out_json(&SaveResult::unsaved(&repo, &comparison, &reviewed))?;
        }
        return Ok(Exit::Ok);
    }
    let scripts = Scripts { install, start };
    let saved = put_unless_moved(&client, &repo, &reviewed, &scripts)?;
    if ui.json() {
        ui.out_json(&SaveResult {
            repo: &repo,
            saved: true,
            changed: changed_keys(&comparison),
            summary: &comparison.summary,
            updated_at: saved.env.updated_at.as_deref(),
            etag: saved.etag.as_deref(),
        })?;
    }
    ui.success(&format!("Saved install and start for {repo}"));
    notes(ui, &comparison);
    Ok(Exit::Ok)
}

/// `--json`: whether anything was saved, what, and the copy's new version.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SaveResult<'a> {
    repo: &'a str,
    saved: bool,
    /// `install`, `start`: what this save changed on the server.
    changed: Vec<&'static str>,
    summary: &'a Summary,
    /// The saved copy's version: its update time, and its ETag when the server sends one.
    updated_at: Option<&'a str>,
    etag: Option<&'a str>,
}

impl<'a> SaveResult<'a> {
    fn unsaved(repo: &'a str, comparison: &'a Comparison, current: &'a Fetched) -> SaveResult<'a> {
        SaveResult {
            repo,
            saved: false,
            changed: Vec::new(),
            summary: &comparison.summary,
            updated_at: current.env.updated_at.as_deref(),
            etag: current.etag.as_deref(),
        }
    }
}

fn changed_keys(comparison: &Comparison) -> Vec<&'static str> {
    [("install", &comparison.install), ("start", &comparison.start)]
        .into_iter()
        .filter_map(|(key, diff)| diff.is_some().then_some(key))
        .collect()
}

/// After a save, the required secrets still to set; the optional ones only with `-v` (they
/// are in the review's summary, and `diff` lists them in its own section).
fn notes(ui: &Ui, comparison: &Comparison) {
    for note in comparison.secret_notes(ui.verbose() > 0) {
        ui.info(&note);
    }
}

/// PUT with `If-Match` when the reviewed copy had an ETag; otherwise re-read it just
/// before the PUT and stop when it moved.
fn put_unless_moved(client: &Client, repo: &str, reviewed: &Fetched, scripts: &Scripts) -> anyhow::Result<Fetched> {
    if let Some(tag) = &reviewed.etag {
        return match client.put_scripts(repo, scripts, Some(tag)) {
            Err(ApiError::Conflict { .. }) => {
                let now = client.get(repo).map(|f| f.env).ok();
                Err(moved_error(repo, &reviewed.env, now.as_ref()))
            }
            other => Ok(other?),
        };
    }
    let now = client.get(repo)?;
    if has_moved(&reviewed.env, &now.env) {
        return Err(moved_error(repo, &reviewed.env, Some(&now.env)));
    }
    Ok(client.put_scripts(repo, scripts, None)?)
}

/// Whether the saved copy changed between two reads.
pub fn has_moved(before: &Environment, after: &Environment) -> bool {
    before.updated_at != after.updated_at || before.install != after.install || before.start != after.start
}

fn moved_error(repo: &str, before: &Environment, after: Option<&Environment>) -> anyhow::Error {
    let what = match after {
        Some(after) => describe_move(before, after),
        None => "it no longer matches the ETag of the copy you reviewed".into(),
    };
    Failure::new(format!("the saved copy of {repo} changed since the diff you confirmed: {what}; nothing was saved"))
        .hint("run `hanzo-env diff` to review the new copy, then `hanzo-env save` again")
        .exit(Exit::Conflict)
        .into()
}

/// "install changed, updated 2026-… → 2026-…", for the conflict message.
pub fn describe_move(before: &Environment, after: &Environment) -> String {
    let mut parts = Vec::new();
    if before.install != after.install {
        parts.push("install changed".to_string());
    }
    if before.start != after.start {
        parts.push("start changed".to_string());
    }
    if before.updated_at != after.updated_at {
        let show = |t: &Option<String>| t.clone().unwrap_or_else(|| "never".into());
        parts.push(format!("updated {} → {}", show(&before.updated_at), show(&after.updated_at)));
    }
    if parts.is_empty() {
        parts.push("its ETag changed".into());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(install: &str, at: Option<&str>) -> Environment {
        Environment {
            repo: "site".into(),
            install: install.into(),
            updated_at: at.map(Into::into),
            ..Default::default()
        }
    }

    #[test]
    fn a_moved_copy_is_detected_and_described() {
        let before = env("npm ci", Some("2026-01-01T00:00:00Z"));
        assert!(!has_moved(&before, &before.clone()));
        let touched = env("npm ci", Some("2026-01-02T00:00:00Z"));
        assert!(has_moved(&before, &touched));
        assert_eq!(describe_move(&before, &touched), "updated 2026-01-01T00:00:00Z → 2026-01-02T00:00:00Z");
        let edited = env("pnpm i", Some("2026-01-02T00:00:00Z"));
        assert!(describe_move(&before, &edited).starts_with("install changed, updated"));
        let first_save = env("pnpm i", None);
        assert!(has_moved(&env("", None), &first_save));
    }
}
