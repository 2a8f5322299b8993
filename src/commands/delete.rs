//! `hanzo-env delete REPO`: remove an environment and every secret set on it. A name the org
//! does not have is an error (exit 3) unless `--if-exists` says that is fine.

use serde::Serialize;

use super::remote::{self, Missing, NoEnvironment};
use crate::cli::{DeleteArgs, GlobalArgs};
use crate::diagnostic::Exit;
use crate::ui::{Ui, plural, printable_line};

/// `--json`: what was deleted.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Deleted<'a> {
    repo: &'a str,
    deleted: bool,
    /// The secret names deleted with it.
    secrets: &'a [String],
}

pub fn run(global: &GlobalArgs, args: &DeleteArgs, ui: &Ui) -> anyhow::Result<Exit> {
    remote::check_repo_name(&args.name)?;
    let repo = &args.name;
    let client = remote::connect(global, ui)?;
    let env = match remote::existing(&client, repo, Missing::Read) {
        Ok(fetched) => fetched.env,
        Err(err) if args.if_exists && err.downcast_ref::<NoEnvironment>().is_some() => {
            ui.info(&format!("nothing to delete: no environment named {}", printable_line(repo)));
            if ui.json() {
                ui.out_json(&Deleted { repo, deleted: false, secrets: &[] })?;
            }
            return Ok(Exit::Ok);
        }
        Err(err) => return Err(err),
    };
    if !args.yes {
        let question = format!(
            "Delete the environment of {repo} and its {}? This cannot be undone",
            plural(env.secrets.len(), "secret")
        );
        if !ui.confirm(&question, "--yes")? {
            ui.info("nothing deleted");
            if ui.json() {
                ui.out_json(&Deleted { repo, deleted: false, secrets: &[] })?;
            }
            return Ok(Exit::Ok);
        }
    }
    client.delete(repo)?;
    if ui.json() {
        ui.out_json(&Deleted { repo, deleted: true, secrets: &env.secrets })?;
    }
    ui.success(&format!("Deleted the environment of {repo} and its {}", plural(env.secrets.len(), "secret")));
    Ok(Exit::Ok)
}
