//! `hanzo-env secret …`: names travel freely, values only from input to a PUT body.

mod delete;
mod import;
mod list;
mod set;

use super::remote::Missing;
use crate::api::client::Client;
use crate::cli::{GlobalArgs, SecretCommand};
use crate::diagnostic::Exit;
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, command: SecretCommand, ui: &Ui) -> anyhow::Result<Exit> {
    match command {
        SecretCommand::Set(args) => set::run(global, &args, ui),
        SecretCommand::List => list::run(global, ui),
        SecretCommand::Delete(args) => delete::run(global, &args, ui),
        SecretCommand::Import(args) => import::run(global, &args, ui),
    }
}

/// The repo a secret command reads (no file needed).
fn repo(global: &GlobalArgs, ui: &Ui) -> anyhow::Result<String> {
    super::remote::Checkout::open()?.repo(global, ui)
}

/// The repo a secret command writes to: never a folder's name.
fn repo_for_write(global: &GlobalArgs, ui: &Ui) -> anyhow::Result<String> {
    super::remote::Checkout::open()?.repo_for_write(global, ui)
}

/// The environment a secret write goes to: it must exist unless `create` (`--create`) says
/// the write may start it. Returns the secret names set there now.
fn target_names(client: &Client, repo: &str, create: bool) -> anyhow::Result<Vec<String>> {
    if create {
        return Ok(client.get(repo)?.env.secrets);
    }
    Ok(super::remote::existing(client, repo, Missing::Write)?.env.secrets)
}
