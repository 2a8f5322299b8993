use crate::cli::{CompletionsArgs, render_completions};
use crate::diagnostic::Exit;
use crate::ui::Ui;

pub fn run(args: &CompletionsArgs, ui: &Ui) -> anyhow::Result<Exit> {
    ui.out(&String::from_utf8_lossy(&render_completions(args.shell)));
    Ok(Exit::Ok)
}
