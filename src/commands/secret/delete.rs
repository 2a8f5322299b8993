use anyhow::Context;

use crate::api::client::ApiError;
use crate::cli::{GlobalArgs, SecretDeleteArgs};
use crate::commands::remote;
use crate::diagnostic::{Exit, Failure};
use crate::names::validate_secret_name;
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, args: &SecretDeleteArgs, ui: &Ui) -> anyhow::Result<Exit> {
    validate_secret_name(&args.name)?;
    let repo = super::repo(global)?;
    let client = remote::connect(global, ui)?;
    match client.delete_secret(&repo, &args.name) {
        Ok(_) => {}
        // Mostly a name that is not set (a repo outside the org is the other case).
        Err(err @ ApiError::NotFound { .. }) => {
            return Err(Failure::new(format!("could not delete {} on {repo}: {err}", args.name))
                .hint(format!(
                    "`hanzo-env secret list --repo {repo}` shows the names set there; --repo and --org choose the repo"
                ))
                .exit(Exit::Remote)
                .into());
        }
        Err(err) => return Err(err).with_context(|| format!("could not delete {} on {repo}", args.name)),
    }
    ui.success(&format!("Deleted {} on {repo}", args.name));
    Ok(Exit::Ok)
}
