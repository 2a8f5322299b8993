use crate::cli::{GlobalArgs, ServeArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &ServeArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("serve"))
}
