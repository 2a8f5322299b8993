use crate::cli::GlobalArgs;
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("logout"))
}
