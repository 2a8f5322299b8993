//! `hanzo-env pull`: the server's saved copy (or its pending proposal) into the local file,
//! keeping the file's `repo` and `[env]`.

use serde::Serialize;

use super::remote::{self, Checkout};
use crate::api::{Environment, State};
use crate::cli::{GlobalArgs, PullArgs};
use crate::diagnostic::{Exit, Failure};
use crate::proposal::{OPTIONAL_MARKER, Proposal};
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, args: &PullArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let checkout = Checkout::open()?;
    // Before the server is asked: a write through a `.hanzo` link out of the checkout is refused.
    crate::proposal::check_destination(&checkout.file)?;
    let repo = checkout.repo(global, ui)?;
    let client = remote::connect(global, ui)?;
    let env = client.get(&repo)?.env;
    let base = checkout.local.clone().unwrap_or_else(|| Proposal { repo: Some(repo.clone()), ..Proposal::default() });
    let pulled = merge(&base, &env, args.proposal)?;
    let shown = checkout.shown();
    let result = |written: bool| Pulled { repo: &repo, path: &shown, from: label(args.proposal), written };
    if checkout.local.as_ref() == Some(&pulled) {
        ui.info(&format!("{shown} already matches the {} copy of {repo}", label(args.proposal)));
        if ui.json() {
            ui.out_json(&result(false))?;
        }
        return Ok(Exit::Ok);
    }
    let old_text = crate::proposal::read_text(&checkout.file).unwrap_or_default();
    // The file a person wrote keeps its header, comments and layout where they still hold.
    let new_text =
        checkout.local.as_ref().and_then(|_| keep_file_text(&old_text, &pulled)).unwrap_or_else(|| pulled.render());
    check_from_server(&env, args.proposal, &new_text)?;
    if let Some(diff) = remote::unified(Some(ui), &shown, &format!("{shown} (pulled)"), &old_text, &new_text) {
        ui.info(diff.trim_end_matches('\n'));
    }
    let question = format!("Write the {} copy of {repo} to {shown}?", label(args.proposal));
    if !args.yes && !ui.confirm(&question, "--yes")? {
        ui.info("nothing written");
        if ui.json() {
            ui.out_json(&result(false))?;
        }
        return Ok(Exit::Ok);
    }
    crate::fsutil::write_atomic(&checkout.file, new_text.as_bytes(), false)?;
    if ui.json() {
        ui.out_json(&result(true))?;
    }
    ui.success(&format!("Wrote the {} copy of {repo} to {shown}", label(args.proposal)));
    Ok(Exit::Ok)
}

/// `--json`: whether the file was written, and from which copy.
#[derive(Serialize)]
struct Pulled<'a> {
    repo: &'a str,
    path: &'a str,
    /// `saved` or `proposed`.
    from: &'static str,
    written: bool,
}

/// `old` (the local file) edited to hold `pulled`: only the values that differ are replaced,
/// each keeping the comments around it; names new to `secrets` are appended as optional ones
/// (after the file's `# optional:` line, or a new one), so that a pull never makes a name
/// required that the file did not. `None` when the edit cannot give back exactly `pulled`
/// (the caller then writes the canonical file).
pub fn keep_file_text(old: &str, pulled: &Proposal) -> Option<String> {
    let mut doc: toml_edit::DocumentMut = old.parse().ok()?;
    for (key, value) in [("install", &pulled.install), ("start", &pulled.start), ("note", &pulled.note)] {
        set_string(&mut doc, key, value)?;
    }
    let declared: Vec<String> = match doc.get("secrets") {
        Some(item) => item.as_array()?.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        None => Vec::new(),
    };
    let added = remote::missing_from(&pulled.secrets, &declared);
    if !added.is_empty() {
        let has_marker = !pulled.optional_secrets.iter().all(|name| added.contains(name));
        if doc.get("secrets").is_none() {
            doc.insert("secrets", toml_edit::value(toml_edit::Array::new()));
        }
        let array = doc.get_mut("secrets")?.as_array_mut()?;
        // What follows the last name (its evidence comment) stays on that name's line.
        let mut lead = array.trailing().as_str().unwrap_or_default().to_string();
        if !lead.ends_with('\n') {
            lead.push('\n');
        }
        for (i, name) in added.iter().enumerate() {
            let mut value = toml_edit::Value::from(name.as_str());
            let prefix = match (i, has_marker) {
                (0, false) => format!("{lead}  {OPTIONAL_MARKER} set on the server, not declared in this file\n  "),
                (0, true) => format!("{lead}  "),
                _ => "\n  ".to_string(),
            };
            value.decor_mut().set_prefix(prefix);
            array.push_formatted(value);
        }
        array.set_trailing_comma(true);
        array.set_trailing("\n");
    }
    let text = doc.to_string();
    (Proposal::parse(&text).ok()? == *pulled).then_some(text)
}

/// `key` set to `value`, keeping the comments around the old value; untouched when equal.
fn set_string(doc: &mut toml_edit::DocumentMut, key: &str, value: &str) -> Option<()> {
    let mut new: toml_edit::Value = crate::proposal::toml_string(value).parse().ok()?;
    match doc.get_mut(key) {
        Some(item) => {
            let old = item.as_value_mut()?;
            if old.as_str() == Some(value) {
                return Some(());
            }
            *new.decor_mut() = old.decor().clone();
            *old = new;
        }
        None if value.is_empty() => {}
        None => {
            doc.insert(key, toml_edit::Item::Value(new));
        }
    }
    Some(())
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
    // An unmodified helpers block is written as its one line (see `plan::block`).
    out.install = crate::plan::block::collapse(install);
    out.start = crate::plan::block::collapse(start);
    // A name the file does not declare is optional: the server says it is set (or a setup run
    // saw it), not that the project cannot run without it.
    let added = remote::missing_from(secrets, &base.secrets);
    out.optional_secrets.extend(added.iter().cloned());
    out.secrets.extend(added);
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
        assert_eq!(saved.required_secrets().collect::<Vec<_>>(), ["A"], "B is set there, not required here");
        assert_eq!(saved.env, base.env);
        assert_eq!(saved.repo, base.repo);
        let proposed = merge(&base, &env, true).unwrap();
        assert_eq!((proposed.install.as_str(), proposed.note.as_str()), ("pnpm i", "checked"));
        let nothing = Environment { repo: "x".into(), ..Environment::default() };
        assert!(merge(&base, &nothing, false).is_err());
        assert!(merge(&base, &nothing, true).is_err());
    }

    #[test]
    fn the_file_keeps_its_header_and_comments_where_they_still_hold() {
        let old = "# Drafted by hanzo-env detect; review, then save.\nrepo = \"site\"  # the git remote\n\
                   install = \"\"\"\nnpm ci  # package-lock.json\n\"\"\"\nstart = \"npm run dev\"  # package.json#scripts.dev\n\
                   secrets = [\n  \"DATABASE_URL\",  # .env.example:3\n]\nnote = \"Node 20\"\n\n[env]\nNODE_ENV = \"test\"\n";
        let base = Proposal::parse(old).unwrap();
        let env = Environment {
            repo: "site".into(),
            install: "npm ci  # package-lock.json\nnpm run build\n".into(),
            start: "npm run dev".into(),
            secrets: vec!["DATABASE_URL".into(), "SENTRY_DSN".into()],
            state: State::Ready,
            ..Environment::default()
        };
        let pulled = merge(&base, &env, false).unwrap();
        let text = keep_file_text(old, &pulled).unwrap();
        assert!(
            text.starts_with("# Drafted by hanzo-env detect; review, then save.\nrepo = \"site\"  # the git remote\n"),
            "{text}"
        );
        assert!(text.contains("start = \"npm run dev\"  # package.json#scripts.dev\n"), "{text}");
        assert!(text.contains("\"DATABASE_URL\",  # .env.example:3\n"), "{text}");
        assert!(text.contains("npm run build\n"), "{text}");
        let back = Proposal::parse(&text).unwrap();
        assert_eq!(back, pulled);
        assert_eq!(back.required_secrets().collect::<Vec<_>>(), ["DATABASE_URL"]);
        assert_eq!(back.optional_secrets, ["SENTRY_DSN"]);
        // A one-line array and a file without `secrets` take new names too.
        for old in ["secrets = [\"A\"]\n", "install = \"make\"\n"] {
            let base = Proposal::parse(old).unwrap();
            let pulled = merge(&base, &env, false).unwrap();
            let text = keep_file_text(old, &pulled).unwrap();
            assert_eq!(Proposal::parse(&text).unwrap(), pulled, "{text}");
        }
    }
}
