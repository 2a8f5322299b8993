//! One file per command; each is a plain function from parsed arguments to an exit code.

pub mod auth;
pub mod completions;
pub mod delete;
pub mod detect;
pub mod diff;
pub mod drift_check;
pub mod env_file;
pub mod export;
pub mod list;
pub mod login;
pub mod logout;
pub mod pull;
pub mod remote;
pub mod run;
pub mod save;
pub mod secret;
pub mod serve;
pub mod show;
pub mod verify;

use crate::cli::{Cli, Command};
use crate::diagnostic::{Exit, Failure};
use crate::ui::Ui;

pub fn dispatch(cli: Cli, ui: &Ui) -> anyhow::Result<Exit> {
    let global = &cli.global;
    // No flag is ever silently ignored: these two have no result of their own to print.
    if global.json {
        let refused = match &cli.command {
            Command::Run(_) => Some(("run", "its output is the command's own")),
            Command::Completions(_) => Some(("completions", "its output is a shell script")),
            _ => None,
        };
        if let Some((name, why)) = refused {
            return Err(Failure::new(format!("`{name}` prints no JSON: {why}"))
                .hint(format!("leave out --json for `hanzo-env {name}`"))
                .into());
        }
    }
    match cli.command {
        Command::Detect(args) => detect::run(global, &args, ui),
        Command::Export(args) => export::run(global, &args, ui),
        Command::Diff(args) => diff::run(global, &args, ui),
        Command::Save(args) => save::run(global, &args, ui),
        Command::Pull(args) => pull::run(global, &args, ui),
        Command::List => list::run(global, ui),
        Command::Show(args) => show::run(global, &args, ui),
        Command::Delete(args) => delete::run(global, &args, ui),
        Command::Secret(sub) => secret::run(global, sub, ui),
        Command::Login(args) => login::run(global, &args, ui),
        Command::Logout => logout::run(global, ui),
        Command::Auth(sub) => auth::run(global, sub, ui),
        Command::Run(args) => run::run(global, &args, ui),
        Command::EnvFile(args) => env_file::run(global, &args, ui),
        Command::Verify(args) => verify::run(global, &args, ui),
        Command::Serve(args) => serve::run(global, &args, ui),
        Command::Completions(args) => completions::run(&args, ui),
    }
}
