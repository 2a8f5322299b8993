use crate::cli::{GlobalArgs, VerifyArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &VerifyArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("verify"))
}
