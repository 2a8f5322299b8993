use crate::cli::{GlobalArgs, LoginArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &LoginArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("login"))
}
