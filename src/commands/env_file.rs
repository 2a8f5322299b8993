//! `hanzo-env env-file --out PATH`: the resolved `[env]` entries in a private env file.

use anyhow::Context;

use crate::cli::{EnvFileArgs, GlobalArgs};
use crate::diagnostic::{Exit, Failure};
use crate::envfile::write::{GitVerdict, git_verdict, is_ours, render};
use crate::fsutil::write_atomic;
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, args: &EnvFileArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let out = &args.out;
    if out.is_dir() {
        return Err(Failure::new(format!("{} is a directory", out.display()))
            .hint("give the file to write, e.g. --out .hanzo/run.env")
            .into());
    }
    if !args.force {
        if let GitVerdict::NotIgnored { root } = git_verdict(out) {
            ui.warn(&format!(
                "{} is inside the git checkout {} and git does not ignore it: the secrets could be committed",
                out.display(),
                root.display()
            ));
            return Err(Failure::new(format!("refusing to write secrets to {}", out.display()))
                .hint(format!(
                    "add it to .gitignore (e.g. `echo {} >> .gitignore`), write outside the checkout, or pass --force",
                    out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
                ))
                .into());
        }
        let replacing_foreign = out.exists() && !is_ours(out).with_context(|| format!("reading {}", out.display()))?;
        if replacing_foreign {
            return Err(Failure::new(format!("{} exists and was not written by `hanzo-env env-file`", out.display()))
                .hint("choose another path, or pass --force to replace it")
                .into());
        }
    }
    let resolved = super::run::resolve_checkout_env(ui)?;
    let text = render(&resolved)?;
    write_atomic(out, text.as_bytes(), true)?;
    if ui.json() {
        let names: Vec<&str> = resolved.iter().map(|r| r.name.as_str()).collect();
        ui.out_json(&serde_json::json!({ "path": out, "names": names }))?;
    } else {
        ui.success(&format!(
            "Wrote {} entr{} to {} (mode 0600)",
            resolved.len(),
            if resolved.len() == 1 { "y" } else { "ies" },
            out.display()
        ));
        ui.info(&ui.dim(&format!("  load it with: set -a; . {}; set +a", out.display())));
    }
    Ok(Exit::Ok)
}
