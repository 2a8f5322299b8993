//! `hanzo-env list`: the org's environments.

use super::remote;
use crate::api::State;
use crate::cli::GlobalArgs;
use crate::diagnostic::Exit;
use crate::ui::Ui;

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
    let width = envs.iter().map(|e| e.repo.chars().count()).max().unwrap_or(0).max(4);
    let mut out = format!("{:width$}  {:8}  {:>7}  UPDATED\n", "REPO", "STATE", "SECRETS");
    for env in &envs {
        out.push_str(&format!(
            "{:width$}  {:8}  {:>7}  {}\n",
            env.repo,
            state_name(env.state),
            env.secrets.len(),
            env.updated_at.as_deref().unwrap_or("-")
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
