//! `hanzo-env pull`: the server's saved copy (or its pending proposal) into the local file,
//! keeping the file's `repo` and `[env]`.

use super::remote::{self, Checkout};
use crate::api::{Environment, State};
use crate::cli::{GlobalArgs, PullArgs};
use crate::diagnostic::{Exit, Failure};
use crate::proposal::Proposal;
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, args: &PullArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let checkout = Checkout::open()?;
    // Before the server is asked: a write through a `.hanzo` link out of the checkout is refused.
    crate::proposal::check_destination(&checkout.file)?;
    let repo = checkout.repo(global)?;
    let client = remote::connect(global, ui)?;
    let env = client.get(&repo)?.env;
    let base = checkout.local.clone().unwrap_or_else(|| Proposal { repo: Some(repo.clone()), ..Proposal::default() });
    let pulled = merge(&base, &env, args.proposal)?;
    if checkout.local.as_ref() == Some(&pulled) {
        ui.info(&format!("{} already matches the {} copy of {repo}", checkout.shown(), label(args.proposal)));
        return Ok(Exit::Ok);
    }
    let old_text = crate::proposal::read_text(&checkout.file).unwrap_or_default();
    let new_text = pulled.render();
    check_from_server(&env, args.proposal, &new_text)?;
    let shown = checkout.shown();
    if let Some(diff) = remote::unified(Some(ui), &shown, &format!("{shown} (pulled)"), &old_text, &new_text) {
        ui.info(diff.trim_end_matches('\n'));
    }
    let question = format!("Write the {} copy of {repo} to {shown}?", label(args.proposal));
    if !args.yes && !ui.confirm(&question, "--yes")? {
        ui.info("nothing written");
        return Ok(Exit::Ok);
    }
    crate::fsutil::write_atomic(&checkout.file, new_text.as_bytes(), false)?;
    ui.success(&format!("Wrote the {} copy of {repo} to {shown}", label(args.proposal)));
    Ok(Exit::Ok)
}

/// Refuse, before anything is written, what the server sent that would make the file one
/// every later command refuses: a secret name that is no name (`"B\nC"`, `HANZO_X`), or
/// anything else the file's reader would not read back.
fn check_from_server(env: &Environment, proposal: bool, new_text: &str) -> anyhow::Result<()> {
    let names = match (&env.proposal, proposal) {
        (Some(p), true) => &p.secrets,
        _ => &env.secrets,
    };
    for name in names {
        if let Err(err) = crate::names::validate_secret_name(name) {
            return Err(Failure::new(format!(
                "the server sent the secret name {:?} for {}: {err}; nothing written",
                name, env.repo
            ))
            .hint("the server's copy holds a name no command accepts: remove it there, then pull again")
            .into());
        }
    }
    if let Err(detail) = Proposal::parse(new_text) {
        return Err(Failure::new(format!(
            "what the server sent for {} would not read back as a proposal file ({detail}); nothing written",
            env.repo
        ))
        .hint("fix the copy on the server, then pull again")
        .into());
    }
    Ok(())
}

fn label(proposal: bool) -> &'static str {
    if proposal { "proposed" } else { "saved" }
}

/// `base` with install/start (and, from a proposal, secrets and note) taken from the server.
/// Secret names are a union: a name declared locally stays declared.
pub fn merge(base: &Proposal, env: &Environment, proposal: bool) -> anyhow::Result<Proposal> {
    let mut out = base.clone();
    let (install, start, secrets, note) = if proposal {
        let Some(p) = &env.proposal else {
            return Err(Failure::new(format!("the server has no pending proposal for {}", env.repo))
                .hint("pull the saved copy: `hanzo-env pull`")
                .into());
        };
        (&p.install, &p.start, &p.secrets, Some(&p.note))
    } else {
        if env.state != State::Ready && env.install.is_empty() && env.start.is_empty() {
            return Err(Failure::new(format!("nothing is saved for {} yet", env.repo))
                .hint(if env.proposal.is_some() {
                    "a setup run left a proposal: `hanzo-env pull --proposal`"
                } else {
                    "draft one with `hanzo-env detect`, then `hanzo-env save`"
                })
                .into());
        }
        (&env.install, &env.start, &env.secrets, None)
    };
    out.install = install.clone();
    out.start = start.clone();
    out.secrets.extend(remote::missing_from(secrets, &base.secrets));
    if let Some(note) = note.filter(|n| !n.is_empty()) {
        out.note = note.clone();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::PendingProposal;

    #[test]
    fn pulling_keeps_repo_env_and_declared_names() {
        let base = Proposal {
            repo: Some("site".into()),
            install: "old".into(),
            secrets: vec!["A".into()],
            env: vec![("NODE_ENV".into(), "test".into())],
            ..Proposal::default()
        };
        let env = Environment {
            repo: "site".into(),
            install: "npm ci".into(),
            start: "npm start".into(),
            secrets: vec!["B".into(), "A".into()],
            state: State::Ready,
            proposal: Some(PendingProposal { install: "pnpm i".into(), note: "checked".into(), ..Default::default() }),
            ..Environment::default()
        };
        let saved = merge(&base, &env, false).unwrap();
        assert_eq!((saved.install.as_str(), saved.start.as_str()), ("npm ci", "npm start"));
        assert_eq!(saved.secrets, vec!["A", "B"]);
        assert_eq!(saved.env, base.env);
        assert_eq!(saved.repo, base.repo);
        let proposed = merge(&base, &env, true).unwrap();
        assert_eq!((proposed.install.as_str(), proposed.note.as_str()), ("pnpm i", "checked"));
        let nothing = Environment { repo: "x".into(), ..Environment::default() };
        assert!(merge(&base, &nothing, false).is_err());
        assert!(merge(&base, &nothing, true).is_err());
    }
}
