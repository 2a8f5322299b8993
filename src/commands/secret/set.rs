use std::io::IsTerminal;

use anyhow::Context;
use secrecy::{ExposeSecret, SecretBox, SecretString};

use crate::cli::{GlobalArgs, SecretSetArgs};
use crate::commands::remote;
use crate::diagnostic::Exit;
use crate::names::validate_secret_name;
use crate::secret::{self, ValueError};
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, args: &SecretSetArgs, ui: &Ui) -> anyhow::Result<Exit> {
    validate_secret_name(&args.name)?;
    let repo = super::repo(global)?;
    // The token first: nobody should type a value only to learn that they are signed out.
    let client = remote::connect(global, ui)?;
    let value = read_value(args, ui)?;
    let bytes = value.expose_secret().len();
    client.put_secret(&repo, &args.name, &value).with_context(|| format!("could not set {} on {repo}", args.name))?;
    ui.success(&format!("Set {} ({bytes} bytes) on {repo}", args.name));
    Ok(Exit::Ok)
}

/// `--from-file` verbatim; else a hidden prompt on a terminal; else stdin to EOF with one
/// trailing newline stripped (unless `--keep-newline`).
fn read_value(args: &SecretSetArgs, ui: &Ui) -> anyhow::Result<SecretString> {
    if let Some(path) = &args.from_file {
        let value = if path.as_os_str() == "-" {
            remote::refuse_terminal_stdin("pipe the value in, or leave out --from-file - for a hidden prompt")?;
            secret::read_value(std::io::stdin().lock(), "stdin")?
        } else {
            secret::read_value_file(path)?
        };
        let source = if path.as_os_str() == "-" { "stdin".to_string() } else { path.display().to_string() };
        return Ok(secret::into_text(value, &source)?);
    }
    if std::io::stdin().is_terminal() {
        if !ui.interactive() {
            return Err(ValueError::NoInput.into());
        }
        let typed = ui.password(&format!("Value for {}", args.name), "--from-file PATH")?;
        let bytes = SecretBox::new(Box::new(typed.expose_secret().as_bytes().to_vec()));
        return Ok(secret::into_text(bytes, "the prompt")?);
    }
    let mut value = secret::read_value(std::io::stdin().lock(), "stdin")?;
    if !args.keep_newline && secret::strip_one_newline(&mut value) {
        ui.info("note: stripped one trailing newline from stdin (--keep-newline keeps it)");
    }
    Ok(secret::into_text(value, "stdin")?)
}
