//! `hanzo-env list`: the org's environments.

use super::remote;
use crate::api::State;
use crate::cli::GlobalArgs;
use crate::diagnostic::Exit;
use crate::ui::{Ui, printable_line};

pub fn run(global: &GlobalArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let client = remote::connect(global, ui)?;
    let mut envs = client.list()?;
    envs.sort_by(|a, b| a.repo.cmp(&b.repo));
    if ui.json() {
        ui.out_json(&envs)?;
        return Ok(Exit::Ok);
    }
    if envs.is_empty() {
        ui.info("no environments saved or proposed in this org yet");
        return Ok(Exit::Ok);
    }
    // What the server says is shown escaped: a name cannot forge a row or drive the terminal.
    let repos: Vec<_> = envs.iter().map(|e| printable_line(&e.repo)).collect();
    let width = repos.iter().map(|r| r.chars().count()).max().unwrap_or(0).max(4);
    let mut out = format!("{:width$}  {:8}  {:>7}  UPDATED\n", "REPO", "STATE", "SECRETS");
    for (env, repo) in envs.iter().zip(&repos) {
        out.push_str(&format!(
            "{:width$}  {:8}  {:>7}  {}\n",
            repo,
            state_name(env.state),
            env.secrets.len(),
            printable_line(env.updated_at.as_deref().unwrap_or("-"))
        ));
    }
    ui.out(&out);
    Ok(Exit::Ok)
}

pub fn state_name(state: State) -> &'static str {
    match state {
        State::None => "none",
        State::Proposed => "proposed",
        State::Ready => "ready",
    }
}
