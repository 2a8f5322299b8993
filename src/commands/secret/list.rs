use serde::Serialize;

use crate::cli::GlobalArgs;
use crate::commands::remote;
use crate::diagnostic::Exit;
use crate::ui::{Ui, printable_line};

#[derive(Serialize)]
struct Names<'a> {
    repo: &'a str,
    secrets: &'a [String],
}

pub fn run(global: &GlobalArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let repo = super::repo(global)?;
    let env = remote::connect(global, ui)?.get(&repo)?.env;
    if ui.json() {
        ui.out_json(&Names { repo: &repo, secrets: &env.secrets })?;
    } else if env.secrets.is_empty() {
        ui.info(&format!("no secrets set on {repo}"));
    } else {
        ui.out(&env.secrets.iter().map(|n| format!("{}\n", printable_line(n))).collect::<String>());
    }
    Ok(Exit::Ok)
}
