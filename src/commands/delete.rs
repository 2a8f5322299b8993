//! `hanzo-env delete REPO`: remove an environment and every secret set on it.

use super::remote;
use crate::cli::{DeleteArgs, GlobalArgs};
use crate::diagnostic::Exit;
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, args: &DeleteArgs, ui: &Ui) -> anyhow::Result<Exit> {
    remote::check_repo_name(&args.name)?;
    let repo = &args.name;
    let client = remote::connect(global, ui)?;
    if !args.yes {
        let env = client.get(repo)?.env;
        let question = format!(
            "Delete the environment of {repo} and its {} secret{}? This cannot be undone",
            env.secrets.len(),
            if env.secrets.len() == 1 { "" } else { "s" }
        );
        if !ui.confirm(&question, "--yes")? {
            ui.info("nothing deleted");
            return Ok(Exit::Ok);
        }
    }
    client.delete(repo)?;
    ui.success(&format!("Deleted the environment of {repo} and its secrets"));
    Ok(Exit::Ok)
}
