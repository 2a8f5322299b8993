//! `hanzo-env show [REPO]`: one environment, scripts and secret names.

use super::list::state_name;
use super::remote::{self, Checkout, Missing};
use crate::api::Environment;
use crate::cli::{GlobalArgs, ShowArgs};
use crate::diagnostic::Exit;
use crate::ui::{Ui, printable, printable_line};

pub fn run(global: &GlobalArgs, args: &ShowArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let repo = match &args.name {
        Some(name) => {
            remote::check_repo_name(name)?;
            name.clone()
        }
        None => Checkout::open()?.repo(global, ui)?,
    };
    let client = remote::connect(global, ui)?;
    let env = remote::existing(&client, &repo, Missing::Read)?.env;
    if ui.json() {
        ui.out_json(&env)?;
    } else {
        ui.out(&render(&env));
    }
    Ok(Exit::Ok)
}

/// Plain text (it goes to stdout, which may be a pipe): key, value; scripts indented. What
/// the server says is shown escaped (see [`printable`]).
fn render(env: &Environment) -> String {
    let mut out = String::new();
    let field =
        |out: &mut String, key: &str, value: &str| out.push_str(&format!("{key:8}  {}\n", printable_line(value)));
    field(&mut out, "repo", &env.repo);
    field(&mut out, "state", state_name(env.state));
    field(&mut out, "updated", env.updated_at.as_deref().unwrap_or("-"));
    field(&mut out, "secrets", &if env.secrets.is_empty() { "-".to_string() } else { env.secrets.join(", ") });
    script(&mut out, "install", &env.install);
    script(&mut out, "start", &env.start);
    if let Some(p) = &env.proposal {
        let session =
            if env.session.is_empty() { String::new() } else { format!(" (session {})", printable_line(&env.session)) };
        out.push_str(&format!("\npending proposal{session}\n"));
        script(&mut out, "install", &p.install);
        script(&mut out, "start", &p.start);
        if !p.secrets.is_empty() {
            out.push_str(&format!("secrets: {}\n", printable_line(&p.secrets.join(", "))));
        }
        if !p.note.is_empty() {
            out.push_str(&format!("note: {}\n", printable_line(&p.note)));
        }
    }
    out
}

fn script(out: &mut String, key: &str, text: &str) {
    if text.is_empty() {
        out.push_str(&format!("{key}: (nothing)\n"));
        return;
    }
    out.push_str(&format!("{key}:\n"));
    for line in text.lines() {
        out.push_str(&format!("    {}\n", printable(line)));
    }
}
