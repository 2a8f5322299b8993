//! `hanzo-env secret …`: names travel freely, values only from input to a PUT body.

mod delete;
mod import;
mod list;
mod set;

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

/// The repo a secret command works on (no file needed).
fn repo(global: &GlobalArgs) -> anyhow::Result<String> {
    super::remote::Checkout::open()?.repo(global)
}
