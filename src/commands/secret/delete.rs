use anyhow::Context;

use crate::cli::{GlobalArgs, SecretDeleteArgs};
use crate::commands::remote;
use crate::error::Exit;
use crate::names::validate_secret_name;
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, args: &SecretDeleteArgs, ui: &Ui) -> anyhow::Result<Exit> {
    validate_secret_name(&args.name)?;
    let repo = super::repo(global)?;
    let client = remote::connect(global, ui)?;
    client.delete_secret(&repo, &args.name).with_context(|| format!("could not delete {} on {repo}", args.name))?;
    ui.success(&format!("Deleted {} on {repo}", args.name));
    Ok(Exit::Ok)
}
