use crate::cli::{EnvFileArgs, GlobalArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &EnvFileArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("env-file"))
}
