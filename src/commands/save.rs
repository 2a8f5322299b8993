use crate::cli::{GlobalArgs, SaveArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &SaveArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("save"))
}
