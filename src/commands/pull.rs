use crate::cli::{GlobalArgs, PullArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &PullArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("pull"))
}
