use crate::cli::{DiffArgs, GlobalArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &DiffArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("diff"))
}
