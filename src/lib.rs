//! `hanzo-env`: draft, review, save and apply the environment coding agents run in.
//!
//! Layers, one direction: [`cli`] (clap types) → [`commands`] (one file per command)
//! → domain modules ([`detect`], [`export`], [`drift`], [`proposal`], [`api`],
//! [`secret_value`], [`token_store`], [`envfile`], [`serve`]) that know nothing of clap or the
//! terminal.

pub mod api;
#[cfg(test)]
mod ascii_patterns;
pub mod checkout;
pub mod cli;
pub mod commands;
pub mod detect;
pub mod diagnostic;
pub mod dotenv;
pub mod drift;
pub mod envfile;
pub mod evidence;
pub mod export;
pub mod fsutil;
mod git_tracked;
pub mod ignore_files;
pub mod memory;
pub mod names;
pub mod plan;
pub mod proposal;
pub mod rel_path;
pub mod report;
pub mod review;
pub mod secret_value;
pub mod serve;
#[cfg(test)]
mod source_code;
pub mod text;
pub mod token_store;
pub mod ui;
pub mod verify;
pub mod warning;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::Parser;

/// Parse `args`, run the command and turn its outcome into the documented exit code.
pub fn run_from_args<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help/version to stdout and usage errors to stderr itself.
            let code = if err.use_stderr() { diagnostic::Exit::Local } else { diagnostic::Exit::Ok };
            let _ = err.print();
            return code.into();
        }
    };
    memory::map_large_blocks();
    let ui = ui::Ui::new(&cli.global);
    match commands::dispatch(cli, &ui) {
        Ok(code) => code.into(),
        Err(err) => {
            let report = report::Report::of(&err);
            ui.error(&report);
            report.exit.into()
        }
    }
}
