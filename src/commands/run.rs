//! `hanzo-env run -- CMD…`: the command under the file's `[env]`, in a clean environment.
//!
//! The child stays in our process group, so a terminal's Ctrl-C, job control and
//! interactive programs behave as if it were run directly; signals sent to `hanzo-env` by
//! another process are forwarded to it. `hanzo-env` exits with the child's status (128 +
//! the signal when it was killed), 127 when the command is not found and 126 when it cannot
//! be executed, as `env`, `timeout` and the shells do.

use std::path::PathBuf;
use std::process::Command;

use anyhow::Context;
use secrecy::SecretString;

use crate::checkout::{find_root, proposal_path};
use crate::cli::{GlobalArgs, RunArgs};
use crate::diagnostic::{Exit, Failure};
use crate::envfile::child::{exit_code, signals};
use crate::envfile::{ChildEnv, Prompter, Resolved, resolve};
use crate::proposal::Proposal;
use crate::report::Report;
use crate::ui::Ui;

/// Shells' code for "command not found".
const NOT_FOUND: i32 = 127;
/// Shells' code for "found but not executable".
const NOT_EXECUTABLE: i32 = 126;

pub fn run(_global: &GlobalArgs, args: &RunArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let (program, rest) = args.command.split_first().context("no command given")?;
    let resolved = resolve_checkout_env(ui)?;
    let (env, warnings) = ChildEnv::build(resolved, &args.pass, &|name| std::env::var_os(name))?;
    for warning in warnings {
        ui.warn(&warning);
    }
    ui.debug(1, &format!("child environment: {}", env.names().join(" ")));

    let mut cmd = Command::new(program);
    cmd.args(rest);
    env.apply(&mut cmd);
    signals::install();
    let spawned = cmd.spawn();
    // The values live on in `cmd` and `env` only until the child has its own copy.
    drop(cmd);
    drop(env);
    let mut child = match spawned {
        Ok(child) => child,
        Err(err) => {
            let shown = PathBuf::from(program).display().to_string();
            let (code, failure) = match err.kind() {
                std::io::ErrorKind::NotFound => (
                    NOT_FOUND,
                    Failure::new(format!("command not found: {shown}"))
                        .hint("check the spelling; the child's PATH is your PATH (see `hanzo-env run --help`)"),
                ),
                std::io::ErrorKind::PermissionDenied => (
                    NOT_EXECUTABLE,
                    Failure::new(format!("cannot execute {shown}: permission denied"))
                        .hint(format!("make it executable (`chmod +x {shown}`) or run it through its interpreter")),
                ),
                _ => (NOT_EXECUTABLE, Failure::new(format!("cannot start {shown}: {err}"))),
            };
            ui.error(&Report::of(&failure.into()));
            std::process::exit(code);
        }
    };
    signals::forward_to(child.id());
    let status = child.wait().context("waiting for the command")?;
    // The child's status is the whole answer; no exit code of ours could carry it.
    std::process::exit(exit_code(status));
}

/// Load the checkout's proposal (from the current directory) and resolve its `[env]`.
pub(crate) fn resolve_checkout_env(ui: &Ui) -> anyhow::Result<Vec<Resolved>> {
    let cwd = std::env::current_dir().context("reading the current directory")?;
    let path = proposal_path(&find_root(&cwd));
    let proposal = Proposal::load(&path)?;
    resolve_env(ui, &proposal.env)
}

/// Resolve `entries` against the caller's environment, asking questions through `ui`.
pub(crate) fn resolve_env(ui: &Ui, entries: &[(String, String)]) -> anyhow::Result<Vec<Resolved>> {
    let mut prompter = UiPrompter { ui };
    Ok(resolve(entries, &|name| std::env::var_os(name), &mut prompter)?)
}

struct UiPrompter<'a> {
    ui: &'a Ui,
}

impl Prompter for UiPrompter<'_> {
    fn can_prompt(&self) -> bool {
        self.ui.interactive()
    }
    fn ask(&mut self, entry: &str, question: &str) -> anyhow::Result<SecretString> {
        self.ui.password(question, &format!("set {entry} another way"))
    }
}
