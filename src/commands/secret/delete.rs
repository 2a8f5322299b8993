use anyhow::Context;
use serde::Serialize;

use crate::api::client::ApiError;
use crate::cli::{GlobalArgs, SecretDeleteArgs};
use crate::commands::remote::{self, Missing};
use crate::diagnostic::{Exit, Failure};
use crate::names::validate_secret_name;
use crate::ui::Ui;

/// `--json`: the name deleted and the names left.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Deleted<'a> {
    repo: &'a str,
    deleted: &'a str,
    secrets: &'a [String],
    updated_at: Option<&'a str>,
}

pub fn run(global: &GlobalArgs, args: &SecretDeleteArgs, ui: &Ui) -> anyhow::Result<Exit> {
    validate_secret_name(&args.name)?;
    let repo = super::repo(global, ui)?;
    let client = remote::connect(global, ui)?;
    let set_before = remote::existing(&client, &repo, Missing::Read)?.env.secrets;
    let env = match client.delete_secret(&repo, &args.name) {
        Ok(env) => env,
        // The repo exists: the name is not set there.
        Err(err @ ApiError::NotFound { .. }) => {
            let close = remote::closest(&args.name, &set_before);
            let suggestion =
                if close.is_empty() { String::new() } else { format!("; did you mean {}?", close.join(" or ")) };
            return Err(Failure::new(format!("could not delete {} on {repo}: {err}{suggestion}", args.name))
                .hint(format!(
                    "`hanzo-env secret list --repo {repo}` shows the names set there; --repo and --org choose the repo"
                ))
                .exit(Exit::Remote)
                .into());
        }
        Err(err) => return Err(err).with_context(|| format!("could not delete {} on {repo}", args.name)),
    };
    if ui.json() {
        ui.out_json(&Deleted {
            repo: &repo,
            deleted: &args.name,
            secrets: &env.secrets,
            updated_at: env.updated_at.as_deref(),
        })?;
    }
    ui.success(&format!("Deleted {} on {repo}", args.name));
    Ok(Exit::Ok)
}
