use crate::cli::{DeleteArgs, GlobalArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &DeleteArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("delete"))
}
