use crate::cli::{GlobalArgs, SecretCommand};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _command: SecretCommand, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("secret"))
}
