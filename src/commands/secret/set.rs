use std::io::IsTerminal;
use std::path::Path;

use anyhow::Context;
use secrecy::{ExposeSecret, SecretBox, SecretString};
use serde::Serialize;

use crate::cli::{GlobalArgs, SecretSetArgs};
use crate::commands::remote;
use crate::diagnostic::Exit;
use crate::names::validate_secret_name;
use crate::secret_value::{self, ValueError};
use crate::ui::{Ui, plural};

/// `--json`: what was set, never the value.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SetResult<'a> {
    repo: &'a str,
    name: &'a str,
    bytes: usize,
    /// Whether the name had a value before (now replaced).
    replaced: bool,
    /// The names set on the repo now.
    secrets: &'a [String],
    updated_at: Option<&'a str>,
}

pub fn run(global: &GlobalArgs, args: &SecretSetArgs, ui: &Ui) -> anyhow::Result<Exit> {
    validate_secret_name(&args.name)?;
    let repo = super::repo_for_write(global, ui)?;
    let input = input_of(args, ui)?;
    // The token and the repo first: nobody should type a value only to learn that they are
    // signed out or that the repo does not exist.
    let client = remote::connect(global, ui)?;
    let before = super::target_names(&client, &repo, args.create)?;
    let value = read_value(input, args, ui)?;
    let bytes = value.expose_secret().len();
    let env = client
        .put_secret(&repo, &args.name, &value)
        .with_context(|| format!("could not set {} on {repo}", args.name))?;
    drop(value);
    let replaced = before.contains(&args.name);
    if ui.json() {
        ui.out_json(&SetResult {
            repo: &repo,
            name: &args.name,
            bytes,
            replaced,
            secrets: &env.secrets,
            updated_at: env.updated_at.as_deref(),
        })?;
    }
    let replacing = if replaced { ", replacing its earlier value" } else { "" };
    ui.success(&format!("Set {} ({}) on {repo}{replacing}", args.name, plural(bytes, "byte")));
    Ok(Exit::Ok)
}

/// Where the value comes from: `--from-file` (verbatim, `-` for stdin), else a hidden prompt
/// on a terminal, else stdin to EOF.
enum Input<'a> {
    File(&'a Path),
    StdinVerbatim,
    Prompt,
    Stdin,
}

/// The input, refused before anything is asked of the server when it cannot work: a terminal
/// on stdin would echo the value, or prompting is off.
fn input_of<'a>(args: &'a SecretSetArgs, ui: &Ui) -> anyhow::Result<Input<'a>> {
    Ok(match &args.from_file {
        Some(path) if path.as_os_str() == "-" => {
            remote::refuse_terminal_stdin("pipe the value in, or leave out --from-file - for a hidden prompt")?;
            Input::StdinVerbatim
        }
        Some(path) => Input::File(path),
        None if std::io::stdin().is_terminal() => {
            if !ui.interactive() {
                return Err(ValueError::NoInput.into());
            }
            Input::Prompt
        }
        None => Input::Stdin,
    })
}

/// The value from `input`; from stdin with one trailing newline stripped (unless
/// `--keep-newline`), from `--from-file` verbatim.
fn read_value(input: Input<'_>, args: &SecretSetArgs, ui: &Ui) -> anyhow::Result<SecretString> {
    match input {
        Input::File(path) => {
            Ok(secret_value::into_text(secret_value::read_value_file(path)?, &path.display().to_string())?)
        }
        Input::StdinVerbatim => {
            Ok(secret_value::into_text(secret_value::read_value(std::io::stdin().lock(), "stdin")?, "stdin")?)
        }
        Input::Prompt => {
            let typed = ui.password(&format!("Value for {}", args.name), "--from-file PATH")?;
            let bytes = SecretBox::new(Box::new(typed.expose_secret().as_bytes().to_vec()));
            Ok(secret_value::into_text(bytes, "the prompt")?)
        }
        Input::Stdin => {
            let mut value = secret_value::read_value(std::io::stdin().lock(), "stdin")?;
            if !args.keep_newline && secret_value::strip_one_newline(&mut value) {
                ui.info("note: stripped one trailing newline from stdin (--keep-newline keeps it)");
            }
            Ok(secret_value::into_text(value, "stdin")?)
        }
    }
}
