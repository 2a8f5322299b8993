use crate::cli::{GlobalArgs, ShowArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &ShowArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("show"))
}
