use crate::cli::{DetectArgs, GlobalArgs};
use crate::error::Exit;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, _args: &DetectArgs, _ui: &Ui) -> anyhow::Result<Exit> {
    Err(super::not_yet("detect"))
}
