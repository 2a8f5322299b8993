use crate::cli::{GlobalArgs, RunArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &RunArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("run"))
}
